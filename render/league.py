"""Tournament images: the standings table and the elimination bracket, drawn from plain data, never a state.

Public API:
  - `standings_image(data, *, locale="en") -> bytes`: the standings after a round (rank, name, points, record,
    tie-break columns), one row per entrant; `draw_standings(...) -> Image` is the palette image it encodes;
  - `bracket_image(data, *, locale="en") -> bytes`: a left-to-right elimination bracket, one section per
    bracket (winners, losers, grand final) stacked vertically; `draw_bracket(...) -> Image` likewise;
  - `standings_layout(data)` and `bracket_layout(data)`: where things are drawn (row and slot boxes), for tests
    and for anyone who wants to crop.

Data shapes (plain dicts, lists, strings and numbers; every key optional):
  standings: ``{"title", "subtitle", "footer": str, "columns": [str], "rows": [{"rank": int, "name": str,
  "points": float, "tiebreaks": [float], "record": str, "dropped": bool, "highlight": bool,
  "provisional": bool, "half_byes": int}]}`` (``half_byes``: requested half-point byes taken, each marked ½ after
  the record and explained under the table);
  bracket: ``{"title": str, "sections": [{"title": str, "rounds": [{"title": str, "matches": [{"label": str,
  "players": [str | None, str | None], "seeds": [int | None, int | None], "winner": 0 | 1 | None,
  "bye": bool}]}]}]}``.

The standings are one column of rows, the image growing taller (64 rows: ~2,500 px) rather than wrapping into
two columns: the table reads top to bottom in rank order, and a phone opens a tall image fit to its width when
zoomed, where a 2,000 px wide two-column table would be drawn at half the scale. Rows alternate two shades; the
highlighted row (the viewer, say) has a lighter fill, an accent bar and white text; a dropped entrant is drawn
in grey with a "dropped" tag, provisional points carry an asterisk explained under the table. Nothing is told
by colour alone.

In the bracket, match k of a round feeds match k // 2 of the next when the next round has half as many matches
(an elbow connector into the slot it fills); otherwise the next round is only aligned with it. A winner's slot
is filled blue with white bold text and a check mark, a loser's is dark with grey text; an empty slot shows "—"
and a bye "bye". Box and text sizes shrink with the field (a first-round match from ~110 px tall down to ~73 px,
label included) and stop there: a 64-player bracket is ~2,500 px tall rather than unreadable.

User text (titles, names) is cleaned as `render.common` describes (no control or bidi characters, no glyphs
the fonts lack) and cut with an ellipsis to fit. Fixed words come from the i18n catalogs under
``render.league.*`` when they exist there, else from the English and Polish defaults in `DEFAULTS`. Numbers
are written with the locale's decimal sign and no trailing zeros (2.5, 3; 2,5 in Polish). Everything is drawn
in RGB, remapped once onto a fixed palette and encoded as `render.common` describes: the same data gives the
same bytes.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from dataclasses import dataclass
from typing import Any

from babel.numbers import format_decimal
from PIL import Image, ImageDraw, ImageFont

import i18n
from i18n import t
from render import common
from render.common import RGB, hex_rgb

KEY = "render.league."
DASH = "\u2014"

# Fixed words, used when the catalogs have no ``render.league.<key>`` (catalog text wins when present).
DEFAULTS: dict[str, dict[str, str]] = {
    "en": {
        "tournament": "Tournament",
        "no_results": "No results yet",
        "no_matches": "No matches yet",
        "col.rank": "#",
        "col.player": "Player",
        "col.points": "Pts",
        "col.record": "Record",
        "dropped": "dropped",
        "provisional": "* provisional",
        "bye": "bye",
        "half_bye": "½ bye",
        "half_bye_legend": "½ a requested half-point bye",
        "more_rows": "+ {count} more",
        "col.round": "R{n}",
    },
    "pl": {
        "tournament": "Turniej",
        "no_results": "Brak wyników",
        "no_matches": "Brak meczów",
        "col.rank": "#",
        "col.player": "Gracz",
        "col.points": "Pkt",
        "col.record": "Bilans",
        "dropped": "wycofany",
        "provisional": "* wstępne",
        "bye": "wolny los",
        "half_bye": "½ pauza",
        "half_bye_legend": "½ pauza na życzenie (pół punktu)",
        "more_rows": "+ {count} więcej",
        "col.round": "R{n}",
    },
}

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("161a26")  # page
STRIPE = hex_rgb("1e2433")  # every other row
PANEL = hex_rgb("262e44")  # column header, section title band
HILITE = hex_rgb("21476b")  # the highlighted row: Okabe-Ito blue pulled towards the page
ACCENT = common.OKABE_ITO["sky_blue"]  # its bar
TEXT = hex_rgb("eef1f8")
WHITE = (255, 255, 255)
DIM = hex_rgb("9aa4bd")
GREY = hex_rgb("6f778a")  # dropped entrants, losers
GOLD = hex_rgb("f3c351")
LINE = hex_rgb("465069")  # connectors of undecided matches
ADV = hex_rgb("8b9ab9")  # connectors a winner has travelled
BORDER = hex_rgb("3d4763")  # match box outline
OPEN = hex_rgb("2a3147")  # an undecided slot
OPEN_SEED = hex_rgb("222838")
WIN = hex_rgb("0a679e")  # the winner's slot (Okabe-Ito blue, a touch darker for white text)
WIN_SEED = hex_rgb("08527e")
LOSE = hex_rgb("1b2030")  # the loser's slot
LOSE_SEED = hex_rgb("181c2a")
BYE = LOSE  # the empty side of a bye
SLOT_FILL: dict[str, tuple[RGB, RGB]] = {
    "open": (OPEN, OPEN_SEED),
    "tbd": (OPEN, OPEN_SEED),
    "win": (WIN, WIN_SEED),
    "lose": (LOSE, LOSE_SEED),
    "bye": (BYE, LOSE_SEED),
}

PAD = 28
MAX_ROWS = 100  # more standings rows than this end in a "+ N more" line
MAX_COLUMNS = 8  # tie-break columns
MAX_ROUNDS = 16
MAX_MATCHES = 64  # per round: a 128-player first round
MAX_SECTIONS = 4

# ------------------------------------------------------------------------------------------- words


def label(key: str, locale: str, **params: Any) -> str:
    """A fixed word: the catalogs' ``render.league.<key>`` if they have it, else the built-in default."""
    return common.fixed_word(KEY, DEFAULTS, key, locale, **params)


@functools.lru_cache(maxsize=4096)
def _number(value: float, locale: str) -> str:
    value = round(value, 2) + 0.0  # + 0.0 turns -0.0 into 0.0
    return format_decimal(value, format="#0.##", locale=locale)


def number(value: Any, locale: str = "en") -> str:
    """A score as people write it: ``2.5``, ``3`` (never ``3.0``), at most two decimals; "—" if not a number."""
    if isinstance(value, bool):
        value = int(value)
    try:
        v = float(value)
    except (TypeError, ValueError):
        return DASH
    if not math.isfinite(v):
        return DASH
    return _number(v, i18n.normalize_locale(locale))


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None


def _str(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


@functools.cache
def _basic_face(path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, 32, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def _face_has_mark(path: str, mark: str) -> bool:
    """Whether the face maps a combining mark. (`common.has_glyph` lays a lone mark out with raqm, which draws
    it on a dotted circle, so it says yes for every mark; the basic layout draws the face's own glyph.)"""
    face = _basic_face(path)
    probe = face.getmask(mark)
    notdef = face.getmask("\U0010fffd")
    return (probe.size, bytes(probe)) != (notdef.size, bytes(notdef))


@functools.lru_cache(maxsize=4096)
def tame(text: str, weight: str = "Bold") -> str:
    """``text`` (NFC) without the combining marks the face drawing their letter lacks. Lato has none: a mark
    after a Lato letter would be drawn as a missing-glyph box, or in a fallback face's run of its own on a
    dotted circle ("zalgo" names). Marks a face has (Hebrew points in DejaVu) stay with their letter."""
    chain = common.font_chain(weight)
    out: list[str] = []
    base: str | None = None
    for char in unicodedata.normalize("NFC", text[: 4 * common.TEXT_LIMIT]):
        if unicodedata.category(char) in ("Mn", "Me", "Mc"):
            if base is not None and _face_has_mark(base, char):
                out.append(char)
            continue
        base = None if char.isspace() else next((p for p in chain if common.has_glyph(p, char)), None)
        out.append(char)
    return "".join(out)


def _text(value: Any, weight: str = "Bold") -> str:
    """Users' free text (a title, a subtitle, a record) as it can be drawn."""
    return common.clean_text(tame(_str(value), weight), weight)


def _name(value: Any, fallback: str, weight: str) -> str:
    """A player's name as it can be drawn, ``fallback`` when nothing readable is left."""
    return common.display_name(tame(_str(value), weight), fallback, weight)


def _wrap(text: str, size: int, width: float, weight: str, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` pixels, the last cut with an ellipsis."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and common.text_width(f"{line} {words[0]}", size, weight) <= width:
            line = f"{line} {words.pop(0)}"
        if len(out) == lines - 1 and words:
            line = f"{line} {' '.join(words)}"
            words = []
        out.append(common.fit_text(line, size, width, weight))
    return out


# ------------------------------------------------------------------------------------------ palette


@functools.cache
def palette() -> Image.Image:
    pal = common.Palette()
    pal.add(BG, STRIPE, PANEL, HILITE, ACCENT, TEXT, WHITE, DIM, GREY, GOLD, LINE, ADV, BORDER)
    pal.add(OPEN, OPEN_SEED, WIN, WIN_SEED, LOSE, LOSE_SEED)
    pal.ramps((TEXT, DIM, GREY, GOLD), (BG, STRIPE), steps=4)
    pal.ramps((TEXT, DIM, GOLD), (PANEL,), steps=3)
    pal.ramps((WHITE, GOLD, TEXT), (HILITE,), steps=4)
    pal.ramps((TEXT, DIM), (OPEN, OPEN_SEED), steps=3)
    pal.ramps((WHITE,), (WIN, WIN_SEED), steps=4)
    pal.ramps((GREY, DIM), (LOSE, LOSE_SEED), steps=3)
    pal.ramps((BORDER,), (BG, STRIPE, OPEN, WIN, LOSE), steps=1)
    pal.ramps((ADV, LINE), (BG,), steps=1)
    return pal.image()


def _finish(img: Image.Image) -> Image.Image:
    return common.to_palette(img, palette())


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
    head = functools.partial(common.text_width, size=HEAD_SIZE, weight="Bold")
    val = functools.partial(common.text_width, size=ROW_SIZE, weight="Bold")
    reg = functools.partial(common.text_width, size=ROW_SIZE, weight="Regular")
    cols: list[tuple[str, str, int]] = []
    title = _text(data.get("points_label"), "Bold") or label("col.points", locale)  # a leaderboard: "Rating"
    w = max([head(title), *(val(number(r.get("points"), locale)) for r in rows)])
    cols.append(("points", title, math.ceil(w) + COL_PAD + 10))  # + room for the provisional asterisk
    records = [_record(r) for r in rows]
    if any(records):
        title = label("col.record", locale)
        w = max([head(title), *(reg(common.fit_text(x, ROW_SIZE, 140, "Regular")) for x in records)])
        cols.append(("record", title, math.ceil(w) + COL_PAD))
    for i, name in enumerate(_list(data.get("columns"))[:MAX_COLUMNS]):
        title = common.fit_text(_text(name), HEAD_SIZE, 110)
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
    common.paste_text(img, (PAD, PAD + 20), title, size=TITLE, fill=TEXT, bg=BG, weight="Black",
                      max_width=width - 2 * PAD)
    if subtitle:
        common.paste_text(img, (PAD, PAD + 58), subtitle, size=SUBTITLE, fill=GOLD, bg=BG, weight="Regular",
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
    common.paste_text(img, (PAD + RANK_W, cy), label("col.rank", locale), align="right", **head)
    common.paste_text(img, (lay.name_x, cy), label("col.player", locale), **head)
    for col in lay.columns:
        fill = GOLD if col.key == "points" else DIM
        common.paste_text(img, (col.right, cy), col.title, size=HEAD_SIZE, fill=fill, bg=PANEL, align="right")
    if not rows:
        mid = lay.rows_top + 85
        common.paste_text(img, (lay.width / 2, mid), label("no_results", locale), size=28, fill=DIM, bg=BG,
                          weight="Regular", align="center")
    for i, row in enumerate(rows[: lay.shown]):
        _standings_row(img, d, lay, i, row, locale)
    y = lay.rows_top + (lay.shown * ROW_H if rows else 170)
    if lay.more:
        common.paste_text(img, (lay.name_x, y + ROW_H / 2), label("more_rows", locale, count=lay.more),
                          size=17, fill=DIM, bg=BG, weight="Regular")
        y += ROW_H
    y += 12
    if lay.legend:
        common.paste_text(img, (PAD, y + FOOT_LINE / 2), label("provisional", locale), size=FOOT_SIZE, fill=GOLD,
                          bg=BG, weight="Regular")
        y += FOOT_LINE
    if lay.halves:
        common.paste_text(img, (PAD, y + FOOT_LINE / 2), label("half_bye_legend", locale), size=FOOT_SIZE,
                          fill=DIM, bg=BG, weight="Regular")
        y += FOOT_LINE
    if lay.footer:
        y += 8
        for line in lay.footer:
            common.paste_text(img, (PAD, y + FOOT_LINE / 2), line, size=FOOT_SIZE, fill=DIM, bg=BG,
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
    common.paste_text(img, (PAD + RANK_W, cy), "" if rank is None else str(rank), size=ROW_SIZE, fill=rank_fill,
                      bg=bg, align="right")
    # the name, then the "dropped" tag after it
    name_room = lay.name_right - lay.name_x
    fallback = t("render.seat", locale, n=i + 1)
    name = _name(row.get("name"), fallback, weight)
    if dropped:
        tag = label("dropped", locale)
        tag_w = math.ceil(common.text_width(tag, TAG_SIZE, "Bold")) + 14
        drawn = common.paste_text(img, (lay.name_x, cy), name, size=ROW_SIZE, fill=main, bg=bg, weight=weight,
                                  max_width=name_room - tag_w - 12)
        tx = lay.name_x + drawn + 12
        d.rounded_rectangle((tx, cy - 10, tx + tag_w, cy + 10), radius=4, outline=GREY, width=1)
        common.paste_text(img, (tx + tag_w / 2, cy), tag, size=TAG_SIZE, fill=GREY, bg=bg, align="center")
    else:
        common.paste_text(img, (lay.name_x, cy), name, size=ROW_SIZE, fill=main, bg=bg, weight=weight,
                          max_width=name_room)
    tiebreaks = _list(row.get("tiebreaks"))
    for col in lay.columns:
        if col.key == "points":
            fill = GREY if dropped else WHITE if highlight else TEXT
            common.paste_text(img, (col.right, cy), number(row.get("points"), locale), size=ROW_SIZE, fill=fill,
                              bg=bg, weight="Black" if not dropped else "Bold", align="right")
            if row.get("provisional"):
                common.paste_text(img, (col.right + 3, cy - 3), "*", size=ROW_SIZE, fill=GOLD, bg=bg)
        elif col.key == "record":
            record = _record(row)
            common.paste_text(img, (col.right, cy), record, size=ROW_SIZE, fill=GREY if dropped else DIM if not
                              highlight else TEXT, bg=bg, weight="Regular", align="right", max_width=140)
        else:
            j = int(col.key[2:])
            value = number(tiebreaks[j], locale) if j < len(tiebreaks) else DASH
            fill = GREY if dropped else TEXT if highlight else DIM
            common.paste_text(img, (col.right, cy), value, size=ROW_SIZE, fill=fill, bg=bg, weight="Regular",
                              align="right")


def standings_image(data: dict[str, Any], *, locale: str = "en") -> bytes:
    """PNG bytes of the standings table (see the module's docstring for ``data``)."""
    return common.encode_png(draw_standings(data, locale=locale))


# ------------------------------------------------------------------------------------------ bracket


@dataclass(frozen=True)
class BracketMetrics:
    slot: int  # height of one player's slot; a box is two
    size: int  # name font size
    box_w: int
    seed_w: int
    gap_x: int  # between round columns: the connectors
    gap_y: int  # between boxes of the densest round
    label: int  # font size of the match labels over the boxes

    @property
    def label_h(self) -> int:
        return self.label + 4


# From roomy to the smallest still readable on a phone zoomed to width; the first that keeps the image under
# BRACKET_TARGET_H is used, else the last (and the image grows taller).
LEVELS = (
    BracketMetrics(slot=36, size=20, box_w=270, seed_w=34, gap_x=56, gap_y=22, label=13),
    BracketMetrics(slot=32, size=18, box_w=250, seed_w=32, gap_x=52, gap_y=16, label=13),
    BracketMetrics(slot=28, size=17, box_w=230, seed_w=30, gap_x=48, gap_y=11, label=12),
    BracketMetrics(slot=26, size=16, box_w=220, seed_w=28, gap_x=44, gap_y=6, label=11),
)
BRACKET_TARGET_H = 2400
BR_TITLE_H = PAD + 56  # the image title
SEC_TITLE_H = 40  # a section's title band
ROUND_TITLE_H = 30  # the round titles over the columns
SEC_GAP = 26
EMPTY_H = 80  # a section without matches


@dataclass(frozen=True)
class MatchBox:
    section: int
    round: int
    index: int
    x: int
    top: int  # box top (the label sits above it)
    slot: int
    width: int

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.x, self.top, self.x + self.width, self.top + 2 * self.slot

    def slot_box(self, k: int) -> tuple[int, int, int, int]:
        top = self.top + k * self.slot
        return self.x, top, self.x + self.width, top + self.slot

    def slot_cy(self, k: int) -> float:
        return self.top + (k + 0.5) * self.slot


@dataclass(frozen=True)
class SectionLayout:
    top: int
    height: int
    area_top: int  # the matches area's top
    rounds: int


@dataclass(frozen=True)
class BracketLayout:
    metrics: BracketMetrics
    width: int
    height: int
    seeds: bool
    labels: bool
    sections: tuple[SectionLayout, ...]
    boxes: tuple[tuple[tuple[MatchBox, ...], ...], ...]  # [section][round] -> boxes

    def match(self, section: int, round_: int, index: int) -> MatchBox:
        return self.boxes[section][round_][index]

    def round_x(self, round_: int) -> int:
        m = self.metrics
        return PAD + round_ * (m.box_w + m.gap_x)


def _sections(data: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for sec in _list(data.get("sections"))[:MAX_SECTIONS]:
        sec = _dict(sec)
        rounds = []
        for rnd in _list(sec.get("rounds"))[:MAX_ROUNDS]:
            rnd = _dict(rnd)
            matches = [_dict(m) for m in _list(rnd.get("matches"))[:MAX_MATCHES]]
            rounds.append({"title": rnd.get("title"), "matches": matches})
        out.append({"title": sec.get("title"), "rounds": rounds})
    return out


def _centres(rounds: list[dict[str, Any]], area_h: float, offset: float) -> list[list[float]]:
    """The vertical centre of each match box, relative to the matches area: the densest round evenly spaced;
    a round with half as many matches as the one before centred on the pairs that feed it, one with as many
    aligned with it, any other evenly spaced over the area."""
    out: list[list[float]] = []
    for r, rnd in enumerate(rounds):
        n = len(rnd["matches"])
        prev = out[r - 1] if r else []
        if prev and len(prev) == 2 * n:
            out.append([(prev[2 * k] + prev[2 * k + 1]) / 2 for k in range(n)])
        elif prev and len(prev) == n:
            out.append(list(prev))
        else:
            out.append([(k + 0.5) * area_h / n + offset for k in range(n)])
    return out


def _section_height(rounds: list[dict[str, Any]], m: BracketMetrics, labels: bool) -> tuple[int, int]:
    """(whole height, matches area height) of a section."""
    densest = max((len(r["matches"]) for r in rounds), default=0)
    pitch = (m.label_h if labels else 0) + 2 * m.slot + m.gap_y
    area = densest * pitch if densest else EMPTY_H
    return SEC_TITLE_H + ROUND_TITLE_H + area + 6, area


def bracket_layout(data: dict[str, Any]) -> BracketLayout:
    data = _dict(data)
    sections = _sections(data)
    matches = [mt for sec in sections for rnd in sec["rounds"] for mt in rnd["matches"]]
    seeds = any(_int(s) is not None for mt in matches for s in _list(mt.get("seeds"))[:2])
    labels = any(_text(mt.get("label"), "Regular") for mt in matches)
    max_rounds = max((len(sec["rounds"]) for sec in sections), default=0)
    m = LEVELS[-1]
    for level in LEVELS:
        total = BR_TITLE_H + sum(_section_height(sec["rounds"], level, labels)[0] + SEC_GAP for sec in sections)
        if total + PAD <= BRACKET_TARGET_H:
            m = level
            break
    width = max(720, 2 * PAD + max_rounds * (m.box_w + m.gap_x) - m.gap_x)
    y = BR_TITLE_H
    sec_layouts: list[SectionLayout] = []
    boxes: list[tuple[tuple[MatchBox, ...], ...]] = []
    for s, sec in enumerate(sections):
        height, area = _section_height(sec["rounds"], m, labels)
        area_top = y + SEC_TITLE_H + ROUND_TITLE_H
        lh = m.label_h if labels else 0
        centres = _centres(sec["rounds"], area, (lh - m.gap_y) / 2)
        sec_boxes = []
        for r, row in enumerate(centres):
            x = PAD + r * (m.box_w + m.gap_x)
            sec_boxes.append(tuple(MatchBox(s, r, k, x, round(area_top + c - m.slot), m.slot, m.box_w)
                                   for k, c in enumerate(row)))
        boxes.append(tuple(sec_boxes))
        sec_layouts.append(SectionLayout(y, height, area_top, len(sec["rounds"])))
        y += height + SEC_GAP
    if not sections:
        y += EMPTY_H + SEC_GAP
    height = y - SEC_GAP + PAD
    return BracketLayout(m, width, height, seeds, labels, tuple(sec_layouts), tuple(boxes))


def _match_state(match: dict[str, Any]) -> tuple[list[str | None], list[int | None], tuple[str, str]]:
    """The players, seeds and the two slots' states: ``win``, ``lose``, ``open``, ``tbd`` or ``bye``."""
    players = [*_list(match.get("players")), None, None][:2]
    players = [p if isinstance(p, str) else None if p is None else str(p) for p in players]
    seeds = [_int(s) for s in [*_list(match.get("seeds")), None, None][:2]]
    winner = _int(match.get("winner"))
    bye = bool(match.get("bye"))
    present = [k for k in (0, 1) if players[k] is not None]
    if winner not in (0, 1) or players[winner] is None:
        winner = present[0] if bye and len(present) == 1 else None  # a bye's lone player goes through
    states: list[str] = []
    for k in (0, 1):
        if players[k] is None:
            states.append("bye" if bye else "tbd")
        elif winner is None:
            states.append("open")
        else:
            states.append("win" if k == winner else "lose")
    return players, seeds, (states[0], states[1])


@functools.lru_cache(maxsize=256)
def box_sprite(width: int, slot: int, seed_w: int, states: tuple[str, str]) -> Image.Image:
    """A match box: two slots with their fills and seed strips, a rounded outline and a divider, anti-aliased
    onto the page."""
    s = common.SUPERSAMPLE
    w, h = width * s, 2 * slot * s
    img = Image.new("RGB", (w + s, h + s), BG)
    d = ImageDraw.Draw(img)
    radius = 6 * s
    d.rounded_rectangle((0, 0, w, h), radius=radius, fill=BORDER)
    inner = (s, s, w - s, h - s)
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=radius - s, fill=255)
    fills = Image.new("RGB", img.size, BG)
    fd = ImageDraw.Draw(fills)
    for k, state in enumerate(states):
        fill, seed = SLOT_FILL[state]
        top, bottom = k * slot * s, (k + 1) * slot * s
        fd.rectangle((0, top, w, bottom), fill=fill)
        if seed_w:
            fd.rectangle((0, top, seed_w * s, bottom), fill=seed)
        if state == "win":
            fd.rectangle((0, top, 3 * s, bottom), fill=ACCENT)  # the winner's edge: a shape, not only a colour
    fd.rectangle((0, slot * s - s // 2, w, slot * s + s // 2), fill=BORDER)  # the divider
    img.paste(fills, (0, 0), mask)
    return img.reduce(s)


def _check_sprite(size: int) -> Image.Image:
    return common.mark_sprite("check", size, WHITE, WIN, scale=0.4)


def draw_bracket(data: dict[str, Any], *, locale: str = "en") -> Image.Image:
    """The bracket as a palette ('P') image."""
    data = _dict(data)
    lay = bracket_layout(data)
    m = lay.metrics
    sections = _sections(data)
    img = Image.new("RGB", (lay.width, lay.height), BG)
    d = ImageDraw.Draw(img)
    title = _text(data.get("title"), "Black") or label("tournament", locale)
    common.paste_text(img, (PAD, PAD + 20), title, size=TITLE, fill=TEXT, bg=BG, weight="Black",
                      max_width=lay.width - 2 * PAD)
    if not sections:
        common.paste_text(img, (lay.width / 2, BR_TITLE_H + EMPTY_H / 2), label("no_matches", locale), size=26,
                          fill=DIM, bg=BG, weight="Regular", align="center")
    for s, (sec, sl) in enumerate(zip(sections, lay.sections, strict=True)):
        d.rectangle((PAD, sl.top, lay.width - PAD, sl.top + SEC_TITLE_H - 6), fill=PANEL)
        common.paste_text(img, (PAD + 14, sl.top + (SEC_TITLE_H - 6) / 2), _text(sec.get("title")), size=21,
                          fill=GOLD, bg=PANEL, max_width=lay.width - 2 * PAD - 28)
        for r, rnd in enumerate(sec["rounds"]):
            common.paste_text(img, (lay.round_x(r), sl.top + SEC_TITLE_H + ROUND_TITLE_H / 2 - 2),
                              _text(rnd.get("title")), size=15, fill=DIM, bg=BG, max_width=m.box_w)
        if not any(rnd["matches"] for rnd in sec["rounds"]):
            common.paste_text(img, (PAD + 14, sl.area_top + EMPTY_H / 2 - 10), label("no_matches", locale),
                              size=18, fill=DIM, bg=BG, weight="Regular")
            continue
        states = [[_match_state(mt) for mt in rnd["matches"]] for rnd in sec["rounds"]]
        _connectors(d, lay, s, states)
        for r, rnd in enumerate(sec["rounds"]):
            for k, match in enumerate(rnd["matches"]):
                _match(img, lay, lay.match(s, r, k), match, states[r][k], locale)
    return _finish(img)


def _connectors(d: ImageDraw.ImageDraw, lay: BracketLayout, s: int, states: list[list[Any]]) -> None:
    """Elbows from each match to the slot it feeds in the next round, where that round has half as many
    matches; the paths of decided matches drawn last, in the brighter colour."""
    m = lay.metrics
    paths: list[tuple[bool, list[tuple[float, float]]]] = []
    rounds = lay.boxes[s]
    for r in range(len(rounds) - 1):
        cur, nxt = rounds[r], rounds[r + 1]
        if not nxt or len(cur) != 2 * len(nxt):
            continue
        for k, box in enumerate(cur):
            parent = nxt[k // 2]
            y0 = box.top + box.slot
            y1 = parent.slot_cy(k % 2)
            x0, x1 = box.x + box.width, parent.x
            xm = x0 + m.gap_x // 2
            decided = "win" in states[r][k][2]
            paths.append((decided, [(x0, y0), (xm, y0), (xm, y1), (x1, y1)]))
    for decided in (False, True):
        for flag, pts in paths:
            if flag == decided:
                d.line(pts, fill=ADV if decided else LINE, width=2)


def _match(
    img: Image.Image, lay: BracketLayout, box: MatchBox, match: dict[str, Any], state: Any, locale: str
) -> None:
    m = lay.metrics
    players, seeds, states = state
    seed_w = m.seed_w if lay.seeds else 0
    img.paste(box_sprite(box.width, box.slot, seed_w, states), (box.x, box.top))
    if lay.labels:
        text = _text(match.get("label"), "Regular")
        if text:
            common.paste_text(img, (box.x + 2, box.top - m.label_h / 2 - 1), text, size=m.label, fill=DIM, bg=BG,
                              weight="Regular", max_width=box.width)
    check = _check_sprite(box.slot)
    for k in (0, 1):
        st = states[k]
        fill, seed_fill = SLOT_FILL[st]
        cy = box.slot_cy(k)
        if seed_w and seeds[k] is not None:
            ink = WHITE if st == "win" else GREY if st in ("lose", "bye") else DIM
            common.paste_text(img, (box.x + seed_w / 2 + 1, cy), str(seeds[k])[:4], size=m.size - 3, fill=ink,
                              bg=seed_fill, weight="Regular", align="center")
        x = box.x + seed_w + 10
        room = box.width - seed_w - 16
        if st == "win":
            img.paste(check, (box.x + box.width - check.width - 4, round(cy - check.height / 2)))
            room -= check.width
        if players[k] is None:
            text = label("bye", locale) if st == "bye" else DASH
            common.paste_text(img, (x, cy), text, size=m.size, fill=GREY if st == "bye" else DIM, bg=fill,
                              weight="Regular", max_width=room)
            continue
        fallback = t("render.seat", locale, n=seeds[k]) if seeds[k] is not None else "?"
        weight = "Bold" if st in ("win", "open") else "Regular"
        name = _name(players[k], fallback, weight)
        ink = WHITE if st == "win" else GREY if st == "lose" else TEXT
        common.paste_text(img, (x, cy), name, size=m.size, fill=ink, bg=fill, weight=weight, max_width=room)


def bracket_image(data: dict[str, Any], *, locale: str = "en") -> bytes:
    """PNG bytes of the bracket (see the module's docstring for ``data``)."""
    return common.encode_png(draw_bracket(data, locale=locale))


# --------------------------------------------------------------------------------------- crosstable

CELL_SIZE = 18
CELL_PAD = 18  # between round columns
CROSS_NAME_MIN = 220
MAX_CROSS_ROUNDS = 30  # a 31-player round robin; later columns are left to the CSV
HALF = "\u00bd"


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
    cell_w = math.ceil(max([common.text_width(x, CELL_SIZE, "Bold") for x in texts] or [20])) + CELL_PAD
    points_w = math.ceil(max([common.text_width(label("col.points", locale), HEAD_SIZE, "Bold"),
                              *(common.text_width(number(r.get("points"), locale), ROW_SIZE, "Bold")
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
    common.paste_text(img, (PAD + RANK_W, cy), label("col.rank", locale), align="right", **head)
    common.paste_text(img, (lay.name_x, cy), label("col.player", locale), **head)
    common.paste_text(img, (lay.points_right, cy), label("col.points", locale), size=HEAD_SIZE, fill=GOLD,
                      bg=PANEL, align="right")
    for i, right in enumerate(lay.rounds):
        common.paste_text(img, (right, cy), label("col.round", locale, n=i + 1), align="right", **head)
    if not rows:
        common.paste_text(img, (lay.width / 2, lay.rows_top + 85), label("no_results", locale), size=28, fill=DIM,
                          bg=BG, weight="Regular", align="center")
    for i, row in enumerate(rows[: lay.shown]):
        _crosstable_row(img, d, lay, i, row, locale)
    if lay.more:
        y = lay.rows_top + lay.shown * ROW_H
        common.paste_text(img, (lay.name_x, y + ROW_H / 2), label("more_rows", locale, count=lay.more),
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
    common.paste_text(img, (PAD + RANK_W, cy), str(no if no is not None else i + 1), size=ROW_SIZE,
                      fill=GOLD if _int(row.get("rank")) == 1 and not dropped else main, bg=bg, align="right")
    name = _name(row.get("name"), t("render.seat", locale, n=i + 1), "Regular" if dropped else "Bold")
    common.paste_text(img, (lay.name_x, cy), name, size=ROW_SIZE, fill=main, bg=bg,
                      weight="Regular" if dropped else "Bold", max_width=lay.name_right - lay.name_x)
    common.paste_text(img, (lay.points_right, cy), number(row.get("points"), locale), size=ROW_SIZE, fill=main,
                      bg=bg, weight="Black" if not dropped else "Bold", align="right")
    for cell, edge in zip(_list(row.get("cells")), lay.rounds, strict=False):
        common.paste_text(img, (edge, cy), cell_text(cell, locale), size=CELL_SIZE, fill=_cell_fill(cell, main),
                          bg=bg, weight="Bold", align="right")


def crosstable_image(data: dict[str, Any], *, locale: str = "en") -> bytes:
    """PNG bytes of the crosstable: ``{"title", "subtitle": str, "rows": [{"number", "rank": int, "name": str,
    "points": float, "dropped": bool, "cells": [{"opponent": int | None, "colour": "w" | "b" | "",
    "result": "1" | "=" | "0" | "+" | "-" | "bye" | "2/4" | ""}]}]}``."""
    return common.encode_png(draw_crosstable(data, locale=locale))

__all__ = [
    "DEFAULTS",
    "BracketLayout",
    "CrosstableLayout",
    "MatchBox",
    "StandingsLayout",
    "bracket_image",
    "bracket_layout",
    "cell_text",
    "crosstable_image",
    "crosstable_layout",
    "draw_bracket",
    "draw_crosstable",
    "draw_standings",
    "label",
    "number",
    "standings_image",
    "standings_layout",
]
