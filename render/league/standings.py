"""The standings image: the table of ranks, names, points, record and tie-break columns."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from render import kit
from render.league.base import (
    ACCENT,
    BG,
    DASH,
    DIM,
    GOLD,
    GREY,
    HALF,
    HILITE,
    MAX_COLUMNS,
    MAX_ROWS,
    PAD,
    PANEL,
    STRIPE,
    TEXT,
    WHITE,
    _dict,
    _finish,
    _int,
    _list,
    _name,
    _text,
    _wrap,
    label,
    number,
)

# ---------------------------------------------------------------------------------------- standings

ST_WIDTH = 1000
ST_MAX_WIDTH = 1500
TITLE = 34
SUBTITLE = 19
HEAD_H = 34  # the column header row
HEAD_SIZE = 15
ROW_H = 36
ROW_SIZE = 20
TAG_SIZE = 13
FOOT_SIZE = 16
FOOT_LINE = 22
NAME_MIN = 300  # the name column never gets narrower than this; the image gets wider instead
RANK_W = 58  # rank column: numbers right-aligned at its right edge
COL_PAD = 26  # between numeric columns


@dataclass(frozen=True)
class Column:
    key: str  # "points", "record" or "tb<i>"
    title: str
    right: int  # values are right-aligned here


@dataclass(frozen=True)
class StandingsLayout:
    width: int
    height: int
    header_h: int  # title and subtitle
    table_top: int  # the column header row's top
    rows_top: int  # the first row's top
    shown: int  # rows drawn (the rest are counted in a "+ N more" line)
    more: int
    name_x: int
    name_right: int
    columns: tuple[Column, ...]
    legend: bool
    footer: tuple[str, ...]
    halves: bool = False  # a row marks a requested half-point bye: the ½ legend line is drawn

    def row_box(self, index: int) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of row ``index`` (0-based, in the order given)."""
        top = self.rows_top + index * ROW_H
        return PAD, top, self.width - PAD, top + ROW_H

    def name_box(self, index: int) -> tuple[int, int, int, int]:
        _, top, _, bottom = self.row_box(index)
        return self.name_x, top, self.name_right, bottom


def _rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [_dict(r) for r in _list(data.get("rows"))]


def _columns_needed(data: dict[str, Any], rows: list[dict[str, Any]], locale: str) -> list[tuple[str, str, int]]:
    """(key, title, width) of the numeric columns, left to right: points, record (if any row has one), the
    tie-breaks."""
    head = functools.partial(kit.text_width, size=HEAD_SIZE, weight="Bold")
    val = functools.partial(kit.text_width, size=ROW_SIZE, weight="Bold")
    reg = functools.partial(kit.text_width, size=ROW_SIZE, weight="Regular")
    cols: list[tuple[str, str, int]] = []
    title = _text(data.get("points_label"), "Bold") or label("col.points", locale)  # a leaderboard: "Rating"
    w = max([head(title), *(val(number(r.get("points"), locale)) for r in rows)])
    cols.append(("points", title, math.ceil(w) + COL_PAD + 10))  # + room for the provisional asterisk
    records = [_record(r) for r in rows]
    if any(records):
        title = label("col.record", locale)
        w = max([head(title), *(reg(kit.fit_text(x, ROW_SIZE, 140, "Regular")) for x in records)])
        cols.append(("record", title, math.ceil(w) + COL_PAD))
    for i, name in enumerate(_list(data.get("columns"))[:MAX_COLUMNS]):
        title = kit.fit_text(_text(name), HEAD_SIZE, 110)
        values = [_list(r.get("tiebreaks")) for r in rows]
        w = max([head(title), 30, *(reg(number(v[i], locale)) for v in values if i < len(v))])
        cols.append((f"tb{i}", title, math.ceil(w) + COL_PAD))
    return cols


def _record(row: dict[str, Any]) -> str:
    """The record column's text: the record, then a ½ for each requested half-point bye taken."""
    halves = min(_int(row.get("half_byes")) or 0, 5)
    record = _text(row.get("record"), "Regular")
    return f"{record} {HALF * halves}".strip() if halves > 0 else record


def standings_layout(data: dict[str, Any], locale: str = "en") -> StandingsLayout:
    data = _dict(data)
    rows = _rows(data)
    shown = min(len(rows), MAX_ROWS)
    cols = _columns_needed(data, rows[:shown], locale)
    name_x = PAD + RANK_W + 18
    numeric = sum(w for _, _, w in cols)
    width = max(ST_WIDTH, min(ST_MAX_WIDTH, name_x + NAME_MIN + numeric + 14 + PAD))
    right = width - PAD - 14
    columns: list[Column] = []
    for key, title, w in reversed(cols):
        columns.append(Column(key, title, right))
        right -= w
    columns.reverse()
    name_right = right - 16
    header_h = PAD + 44 + (32 if _text(data.get("subtitle"), "Regular") else 0) + 14
    table_top = header_h
    rows_top = table_top + HEAD_H + 4
    body = shown * ROW_H if rows else 170
    more = len(rows) - shown
    legend = any(bool(r.get("provisional")) for r in rows[:shown])
    halves = any((_int(r.get("half_byes")) or 0) > 0 for r in rows[:shown])
    # The footer carries the tie-break legend: room for every full name of a long order
    footer = tuple(_wrap(_text(data.get("footer"), "Regular"), FOOT_SIZE, width - 2 * PAD, "Regular", 6))
    height = rows_top + body + (ROW_H if more else 0) + 12
    height += FOOT_LINE * (legend + halves)
    height += len(footer) * FOOT_LINE + (8 if footer else 0) + PAD - 8
    return StandingsLayout(width, height, header_h, table_top, rows_top, shown, more, name_x, name_right,
                           tuple(columns), legend, footer, halves)


def _header(img: Image.Image, title: str, subtitle: str, width: int, locale: str) -> None:
    title = title or label("tournament", locale)
    kit.paste_text(img, (PAD, PAD + 20), title, size=TITLE, fill=TEXT, bg=BG, weight="Black",
                      max_width=width - 2 * PAD)
    if subtitle:
        kit.paste_text(img, (PAD, PAD + 58), subtitle, size=SUBTITLE, fill=GOLD, bg=BG, weight="Regular",
                          max_width=width - 2 * PAD)


def draw_standings(data: dict[str, Any], *, locale: str = "en") -> Image.Image:
    """The standings table as a palette ('P') image."""
    data = _dict(data)
    lay = standings_layout(data, locale)
    rows = _rows(data)
    img = Image.new("RGB", (lay.width, lay.height), BG)
    d = ImageDraw.Draw(img)
    _header(img, _text(data.get("title"), "Black"), _text(data.get("subtitle"), "Regular"), lay.width, locale)
    left, right = PAD, lay.width - PAD
    # column header
    top = lay.table_top
    d.rectangle((left, top, right, top + HEAD_H - 1), fill=PANEL)
    cy = top + HEAD_H / 2
    head = dict(size=HEAD_SIZE, fill=DIM, bg=PANEL)
    kit.paste_text(img, (PAD + RANK_W, cy), label("col.rank", locale), align="right", **head)
    kit.paste_text(img, (lay.name_x, cy), label("col.player", locale), **head)
    for col in lay.columns:
        fill = GOLD if col.key == "points" else DIM
        kit.paste_text(img, (col.right, cy), col.title, size=HEAD_SIZE, fill=fill, bg=PANEL, align="right")
    if not rows:
        mid = lay.rows_top + 85
        kit.paste_text(img, (lay.width / 2, mid), label("no_results", locale), size=28, fill=DIM, bg=BG,
                          weight="Regular", align="center")
    for i, row in enumerate(rows[: lay.shown]):
        _standings_row(img, d, lay, i, row, locale)
    y = lay.rows_top + (lay.shown * ROW_H if rows else 170)
    if lay.more:
        kit.paste_text(img, (lay.name_x, y + ROW_H / 2), label("more_rows", locale, count=lay.more),
                          size=17, fill=DIM, bg=BG, weight="Regular")
        y += ROW_H
    y += 12
    if lay.legend:
        kit.paste_text(img, (PAD, y + FOOT_LINE / 2), label("provisional", locale), size=FOOT_SIZE, fill=GOLD,
                          bg=BG, weight="Regular")
        y += FOOT_LINE
    if lay.halves:
        kit.paste_text(img, (PAD, y + FOOT_LINE / 2), label("half_bye_legend", locale), size=FOOT_SIZE,
                          fill=DIM, bg=BG, weight="Regular")
        y += FOOT_LINE
    if lay.footer:
        y += 8
        for line in lay.footer:
            kit.paste_text(img, (PAD, y + FOOT_LINE / 2), line, size=FOOT_SIZE, fill=DIM, bg=BG,
                              weight="Regular")
            y += FOOT_LINE
    return _finish(img)


def _standings_row(
    img: Image.Image, d: ImageDraw.ImageDraw, lay: StandingsLayout, i: int, row: dict[str, Any], locale: str
) -> None:
    left, top, right, bottom = lay.row_box(i)
    dropped, highlight = bool(row.get("dropped")), bool(row.get("highlight"))
    bg = HILITE if highlight else STRIPE if i % 2 else BG
    if bg != BG:
        d.rectangle((left, top, right, bottom - 1), fill=bg)
    if highlight:
        d.rectangle((left, top, left + 5, bottom - 1), fill=ACCENT)
    cy = top + ROW_H / 2
    main = GREY if dropped else WHITE if highlight else TEXT
    weight = "Regular" if dropped else "Bold"
    rank = _int(row.get("rank"))
    rank_fill = GREY if dropped else GOLD if rank == 1 else main
    kit.paste_text(img, (PAD + RANK_W, cy), "" if rank is None else str(rank), size=ROW_SIZE, fill=rank_fill,
                      bg=bg, align="right")
    # the name, then the "dropped" tag after it
    name_room = lay.name_right - lay.name_x
    fallback = t("render.seat", locale, n=i + 1)
    name = _name(row.get("name"), fallback, weight)
    if dropped:
        tag = label("dropped", locale)
        tag_w = math.ceil(kit.text_width(tag, TAG_SIZE, "Bold")) + 14
        drawn = kit.paste_text(img, (lay.name_x, cy), name, size=ROW_SIZE, fill=main, bg=bg, weight=weight,
                                  max_width=name_room - tag_w - 12)
        tx = lay.name_x + drawn + 12
        d.rounded_rectangle((tx, cy - 10, tx + tag_w, cy + 10), radius=4, outline=GREY, width=1)
        kit.paste_text(img, (tx + tag_w / 2, cy), tag, size=TAG_SIZE, fill=GREY, bg=bg, align="center")
    else:
        kit.paste_text(img, (lay.name_x, cy), name, size=ROW_SIZE, fill=main, bg=bg, weight=weight,
                          max_width=name_room)
    tiebreaks = _list(row.get("tiebreaks"))
    for col in lay.columns:
        if col.key == "points":
            fill = GREY if dropped else WHITE if highlight else TEXT
            kit.paste_text(img, (col.right, cy), number(row.get("points"), locale), size=ROW_SIZE, fill=fill,
                              bg=bg, weight="Black" if not dropped else "Bold", align="right")
            if row.get("provisional"):
                kit.paste_text(img, (col.right + 3, cy - 3), "*", size=ROW_SIZE, fill=GOLD, bg=bg)
        elif col.key == "record":
            record = _record(row)
            kit.paste_text(img, (col.right, cy), record, size=ROW_SIZE, fill=GREY if dropped else DIM if not
                              highlight else TEXT, bg=bg, weight="Regular", align="right", max_width=140)
        else:
            j = int(col.key[2:])
            value = number(tiebreaks[j], locale) if j < len(tiebreaks) else DASH
            fill = GREY if dropped else TEXT if highlight else DIM
            kit.paste_text(img, (col.right, cy), value, size=ROW_SIZE, fill=fill, bg=bg, weight="Regular",
                              align="right")


def standings_image(data: dict[str, Any], *, locale: str = "en") -> bytes:
    """PNG bytes of the standings table (see the module's docstring for ``data``)."""
    return kit.encode_image(draw_standings(data, locale=locale))
