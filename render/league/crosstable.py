"""The crosstable image: one row per player, one column per round, each cell the result and opponent."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from render import kit
from render.kit import RGB
from render.league.base import (
    BG,
    DASH,
    DIM,
    GOLD,
    GREY,
    HALF,
    MAX_ROWS,
    PAD,
    PANEL,
    STRIPE,
    TEXT,
    _dict,
    _finish,
    _int,
    _list,
    _name,
    _str,
    _text,
    label,
    number,
)
from render.league.standings import COL_PAD, HEAD_H, HEAD_SIZE, RANK_W, ROW_H, ROW_SIZE, ST_WIDTH, _header, _rows

# --------------------------------------------------------------------------------------- crosstable

CELL_SIZE = 18
CELL_PAD = 18  # between round columns
CROSS_NAME_MIN = 220
MAX_CROSS_ROUNDS = 30  # a 31-player round robin; later columns are left to the CSV


@dataclass(frozen=True)
class CrosstableLayout:
    width: int
    height: int
    table_top: int
    rows_top: int
    shown: int
    more: int
    name_x: int
    name_right: int
    points_right: int
    rounds: tuple[int, ...]  # the right edge of each round's column

    def row_box(self, index: int) -> tuple[int, int, int, int]:
        top = self.rows_top + index * ROW_H
        return PAD, top, self.width - PAD, top + ROW_H


def cell_text(cell: Any, locale: str = "en") -> str:
    """A crosstable cell as people read it: ``12w1``, ``3b½``, ``7w+`` (forfeit), ``bye``, ``2/4`` (a place at a
    multiplayer table), "—" when not played."""
    cell = _dict(cell)
    result = _str(cell.get("result"))
    if result == "bye":
        return label("bye", locale)
    if result == "H":  # a requested half-point bye (league/export.py's crosstable code)
        return label("half_bye", locale)
    if not result and cell.get("opponent") is None:
        return DASH
    opponent = _int(cell.get("opponent"))
    colour = _str(cell.get("colour"))[:1]
    return f"{'' if opponent is None else opponent}{colour}{HALF if result == '=' else result[:7]}"


def _cell_fill(cell: Any, base: RGB) -> RGB:
    result = _str(_dict(cell).get("result"))
    if result in ("1", "+") or result.startswith("1/"):
        return base
    return GREY if result in ("0", "-") else DIM


def crosstable_layout(data: dict[str, Any], locale: str = "en") -> CrosstableLayout:
    data = _dict(data)
    rows = _rows(data)
    shown = min(len(rows), MAX_ROWS)
    count = min(MAX_CROSS_ROUNDS, max([len(_list(r.get("cells"))) for r in rows[:shown]] or [0]))
    texts = [cell_text(c, locale) for r in rows[:shown] for c in _list(r.get("cells"))]
    cell_w = math.ceil(max([kit.text_width(x, CELL_SIZE, "Bold") for x in texts] or [20])) + CELL_PAD
    points_w = math.ceil(max([kit.text_width(label("col.points", locale), HEAD_SIZE, "Bold"),
                              *(kit.text_width(number(r.get("points"), locale), ROW_SIZE, "Bold")
                                for r in rows[:shown])])) + COL_PAD
    name_x = PAD + RANK_W + 18
    width = max(ST_WIDTH, name_x + CROSS_NAME_MIN + points_w + count * cell_w + 14 + PAD)
    right = width - PAD - 14
    edges = [right - (count - 1 - i) * cell_w for i in range(count)]
    points_right = (edges[0] - cell_w if edges else right) - 6
    header_h = PAD + 44 + (32 if _text(data.get("subtitle"), "Regular") else 0) + 14
    rows_top = header_h + HEAD_H + 4
    more = len(rows) - shown
    height = rows_top + (shown * ROW_H if rows else 170) + (ROW_H if more else 0) + 12 + PAD - 8
    return CrosstableLayout(width, height, header_h, rows_top, shown, more, name_x,
                            points_right - points_w - 10, points_right, tuple(edges))


def draw_crosstable(data: dict[str, Any], *, locale: str = "en") -> Image.Image:
    """The crosstable as a palette ('P') image: one row per entrant in standing order, numbered as the cells
    refer to opponents, then the points and a column per round."""
    data = _dict(data)
    lay = crosstable_layout(data, locale)
    rows = _rows(data)
    img = Image.new("RGB", (lay.width, lay.height), BG)
    d = ImageDraw.Draw(img)
    _header(img, _text(data.get("title"), "Black"), _text(data.get("subtitle"), "Regular"), lay.width, locale)
    top = lay.table_top
    d.rectangle((PAD, top, lay.width - PAD, top + HEAD_H - 1), fill=PANEL)
    cy = top + HEAD_H / 2
    head = dict(size=HEAD_SIZE, fill=DIM, bg=PANEL)
    kit.paste_text(img, (PAD + RANK_W, cy), label("col.rank", locale), align="right", **head)
    kit.paste_text(img, (lay.name_x, cy), label("col.player", locale), **head)
    kit.paste_text(img, (lay.points_right, cy), label("col.points", locale), size=HEAD_SIZE, fill=GOLD,
                      bg=PANEL, align="right")
    for i, right in enumerate(lay.rounds):
        kit.paste_text(img, (right, cy), label("col.round", locale, n=i + 1), align="right", **head)
    if not rows:
        kit.paste_text(img, (lay.width / 2, lay.rows_top + 85), label("no_results", locale), size=28, fill=DIM,
                          bg=BG, weight="Regular", align="center")
    for i, row in enumerate(rows[: lay.shown]):
        _crosstable_row(img, d, lay, i, row, locale)
    if lay.more:
        y = lay.rows_top + lay.shown * ROW_H
        kit.paste_text(img, (lay.name_x, y + ROW_H / 2), label("more_rows", locale, count=lay.more),
                          size=17, fill=DIM, bg=BG, weight="Regular")
    return _finish(img)


def _crosstable_row(
    img: Image.Image, d: ImageDraw.ImageDraw, lay: CrosstableLayout, i: int, row: dict[str, Any], locale: str
) -> None:
    left, top, right, bottom = lay.row_box(i)
    bg = STRIPE if i % 2 else BG
    if bg != BG:
        d.rectangle((left, top, right, bottom - 1), fill=bg)
    cy = top + ROW_H / 2
    dropped = bool(row.get("dropped"))
    main = GREY if dropped else TEXT
    no = _int(row.get("number"))
    kit.paste_text(img, (PAD + RANK_W, cy), str(no if no is not None else i + 1), size=ROW_SIZE,
                      fill=GOLD if _int(row.get("rank")) == 1 and not dropped else main, bg=bg, align="right")
    name = _name(row.get("name"), t("render.seat", locale, n=i + 1), "Regular" if dropped else "Bold")
    kit.paste_text(img, (lay.name_x, cy), name, size=ROW_SIZE, fill=main, bg=bg,
                      weight="Regular" if dropped else "Bold", max_width=lay.name_right - lay.name_x)
    kit.paste_text(img, (lay.points_right, cy), number(row.get("points"), locale), size=ROW_SIZE, fill=main,
                      bg=bg, weight="Black" if not dropped else "Bold", align="right")
    for cell, edge in zip(_list(row.get("cells")), lay.rounds, strict=False):
        kit.paste_text(img, (edge, cy), cell_text(cell, locale), size=CELL_SIZE, fill=_cell_fill(cell, main),
                          bg=bg, weight="Bold", align="right")


def crosstable_image(data: dict[str, Any], *, locale: str = "en") -> bytes:
    """PNG bytes of the crosstable: ``{"title", "subtitle": str, "rows": [{"number", "rank": int, "name": str,
    "points": float, "dropped": bool, "cells": [{"opponent": int | None, "colour": "w" | "b" | "",
    "result": "1" | "=" | "0" | "+" | "-" | "bye" | "2/4" | ""}]}]}``."""
    return kit.encode_image(draw_crosstable(data, locale=locale))
