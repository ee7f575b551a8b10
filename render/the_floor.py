"""Board image and text board of The Floor (``the_floor``), drawn from a view, never a state.

Public API:
  - `render(view, *, names=None, locale="en") -> bytes`: the PNG to post;
  - `draw(view, *, names=None, locale="en") -> PIL.Image.Image`: the palette image before encoding;
  - `text_board(view, *, names=None, locale="en") -> str`: a plain-text board for a terminal or a code block.

``names`` are the players' display names by seat (characters the fonts lack are dropped, an unreadable name
becomes "Player N"); a side's names are its seats' (``view["teams"]``). Every word drawn goes through `i18n.t`.

The image, 1000 px wide: a header (round, phase, whose turn or the result), a duel panel while a duel is on
(category, the letter, both clocks, the last answers), the 5×5 floor with coordinates on all four edges, then
the pending choice, the Final cards and ladder, the round winners and one legend row per side. Each side has a
colour-blind-safe colour *and* its own pattern (stripes, dots, cross-hatch, bars, zigzag), so no one needs to
tell the colours apart; fields are outlined with a thick line where they meet another field and carry their
category names on a light plate; the empty centre C3 is a dark void; the duelling cells are ringed and joined
by an arrow. Resigned sides are drawn greyed out (pattern kept).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from i18n.text import clean
from render import common
from render.common import RGB, hex_rgb

GAME = "the_floor"
KEY = "tfr."
FILES = "ABCDE"
SIZE = 5

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("161a26")  # header, panels
ROW_HI = hex_rgb("2c3550")  # the row of the side to move / the champion
PANEL = hex_rgb("222a3f")  # the duel panel, ladder chips
RULE = hex_rgb("2a3246")
FRAME = hex_rgb("2a3147")  # around the floor, where the coordinates are
LABEL = hex_rgb("dfe5f2")
TEXT = hex_rgb("eef1f8")
DIM = hex_rgb("9aa4bd")
GOLD = hex_rgb("f3c351")
INK = hex_rgb("101218")  # field borders, text on plates
VOID = hex_rgb("06070b")  # the empty centre
VOID_LINE = hex_rgb("1d2130")
WHITE = (255, 255, 255)
LETTER_BG = hex_rgb("f3c351")
GREY = hex_rgb("8a8d96")

# Okabe & Ito's colour-blind-safe colours, one pattern each (the pattern is what tells sides apart)
SIDE_COLOURS: tuple[str, ...] = ("orange", "blue", "green", "purple", "yellow")
SIDE_RGB: dict[str, RGB] = {
    "orange": common.OKABE_ITO["orange"],
    "blue": common.OKABE_ITO["blue"],
    "green": common.OKABE_ITO["bluish_green"],
    "purple": common.OKABE_ITO["reddish_purple"],
    "yellow": common.OKABE_ITO["yellow"],
}
SIDE_PATTERNS: tuple[str, ...] = ("stripes", "dots", "crosshatch", "bars", "zigzag")
SIDE_CHARS = "01234"

W = 1000
PAD = 24
BAND = 36  # the frame band with the coordinates
CELL = 176
BOARD = CELL * SIZE
HEADER_H = 124
DUEL_H = 196
GAP = 16
ROW_H = 62
LINE_H = 36
LADDER_H = 92
BORDER = 7  # field outline
THIN = 2  # grid line inside a field
PLATE_MARGIN = 9
PLATE_PAD = 7
DUEL_MARGIN = 12  # extra label margin in a duelling cell
LABEL_SIZES = (26, 24, 22, 20, 19, 18, 17, 16)
COORD_SIZE = 24
TITLE_SIZE = 24
STATUS_SIZE = 34
NAME_SIZE = 28
SMALL_SIZE = 23
INFO_SIZE = 23
SWATCH = 44
SMALL_SWATCH = 26


# ------------------------------------------------------------------------------------------- colours


def side_colour(side: int) -> str:
    return SIDE_COLOURS[side % len(SIDE_COLOURS)]


@functools.cache
def side_tones(side: int, grey: bool = False) -> tuple[RGB, RGB, RGB, RGB]:
    """(fill, pattern ink, label plate, plate border) of a side; ``grey`` for a resigned side."""
    base = SIDE_RGB[side_colour(side)]
    if grey:
        base = common.blend(base, GREY, 0.72)
    lum = 0.299 * base[0] + 0.587 * base[1] + 0.114 * base[2]
    ink = common.shade(base, 0.62) if lum > 110 else common.shade(base, 1.38)
    plate = common.blend(base, WHITE, 0.84)
    edge = common.shade(base, 0.55)
    return base, ink, plate, edge


# ------------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    duel_y: int  # top of the duel panel (0: no panel)
    board_x: int
    board_y: int
    info_y: int
    info_lines: int
    ladder_y: int  # 0: no ladder
    legend_y: int
    sides: int
    size: tuple[int, int]


def layout(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> Layout:
    """Where everything goes for this view (the lines under the board depend on the names and locale)."""
    info_lines = len(_info_lines(view, _side_labels(view, names, locale), locale))
    y = HEADER_H
    duel_y = 0
    if view.get("duel"):
        duel_y = y
        y += DUEL_H + GAP
    board_x, board_y = PAD + BAND, y + BAND
    y = board_y + BOARD + BAND + GAP
    info_y = y
    y += info_lines * LINE_H + (GAP if info_lines else 0)
    ladder_y = 0
    if view.get("ladder"):
        ladder_y = y
        y += LADDER_H + GAP
    legend_y = y
    sides = int(view.get("sides") or 0)
    y += sides * ROW_H + PAD
    return Layout(duel_y, board_x, board_y, info_y, info_lines, ladder_y, legend_y, sides, (W, y))


def cell_xy(cell: str) -> tuple[int, int] | None:
    """``"B4"`` -> (column 1, row-from-top 1); None for anything that is not a cell."""
    if not isinstance(cell, str) or len(cell) != 2:
        return None
    col, row = cell[0].upper(), cell[1]
    if col not in FILES or row not in "12345":
        return None
    return FILES.index(col), SIZE - int(row)


def cell_box(lay: Layout, cell: str) -> tuple[int, int, int, int]:
    """The square of a cell in the image (left, top, right, bottom; right/bottom exclusive)."""
    xy = cell_xy(cell)
    if xy is None:
        raise ValueError(f"not a cell: {cell!r}")
    x, y = xy
    left, top = lay.board_x + x * CELL, lay.board_y + y * CELL
    return left, top, left + CELL, top + CELL


# --------------------------------------------------------------------------------- palette, textures


@functools.cache
def palette() -> Image.Image:
    pal = common.Palette()
    pal.add(BG, ROW_HI, PANEL, RULE, FRAME, LABEL, TEXT, DIM, GOLD, INK, VOID, VOID_LINE, WHITE, GREY, LETTER_BG)
    pal.ramps((TEXT, DIM, GOLD), (BG, ROW_HI, PANEL), steps=4)
    pal.ramps((LABEL,), (FRAME,), steps=4)
    pal.ramps((INK,), (LETTER_BG, WHITE), steps=4)
    for side in range(len(SIDE_COLOURS)):
        for grey in (False, True):
            fill, ink, plate, edge = side_tones(side, grey)
            pal.add(fill, ink, plate, edge)
            pal.ramp(INK, plate, 5)
    pal.ramps((GOLD,), (PANEL,), steps=2)
    return pal.image()


@functools.cache
def texture(side: int, grey: bool = False) -> Image.Image:
    """A board-sized texture of one side: its colour and its pattern, aligned to the board so that a field's
    pattern runs on from cell to cell. Drawn without anti-aliasing: two exact colours."""
    fill, ink, _, _ = side_tones(side, grey)
    img = Image.new("RGB", (BOARD, BOARD), fill)
    d = ImageDraw.Draw(img)
    kind = SIDE_PATTERNS[side % len(SIDE_PATTERNS)]
    if kind == "stripes":  # diagonal stripes /
        for off in range(-BOARD, BOARD, 22):
            d.line((off, BOARD, off + BOARD, 0), fill=ink, width=6)
    elif kind == "dots":
        step = 22
        for y in range(step // 2, BOARD, step):
            for x in range(step // 2 + (step // 2 if (y // step) % 2 else 0), BOARD, step):
                d.ellipse((x - 4, y - 4, x + 4, y + 4), fill=ink)
    elif kind == "crosshatch":  # both diagonals, thin
        for off in range(-BOARD, BOARD, 20):
            d.line((off, BOARD, off + BOARD, 0), fill=ink, width=3)
            d.line((off, 0, off + BOARD, BOARD), fill=ink, width=3)
    elif kind == "bars":  # horizontal bars
        for y in range(8, BOARD, 22):
            d.rectangle((0, y, BOARD, y + 6), fill=ink)
    else:  # zigzag
        amp, period = 7, 22
        for y0 in range(10, BOARD + 20, 22):
            pts = [(x, y0 + (amp if (x // (period // 2)) % 2 else -amp)) for x in range(0, BOARD + period, period // 2)]
            d.line(pts, fill=ink, width=4)
    return img


@functools.cache
def swatch(side: int, grey: bool = False, size: int = SWATCH) -> Image.Image:
    """A legend swatch: a square of the side's texture with a dark border."""
    tile = texture(side, grey).crop((0, 0, size, size)).copy()
    ImageDraw.Draw(tile).rectangle((0, 0, size - 1, size - 1), outline=INK, width=2)
    return tile


@functools.lru_cache(maxsize=16)
def background(lay: Layout) -> Image.Image:
    """Everything that does not depend on the position: panels, the frame and the coordinates."""
    img = Image.new("RGB", lay.size, BG)
    d = ImageDraw.Draw(img)
    x0, y0 = lay.board_x, lay.board_y
    d.rounded_rectangle((x0 - BAND, y0 - BAND, x0 + BOARD + BAND - 1, y0 + BOARD + BAND - 1), radius=12, fill=FRAME)
    if lay.duel_y:
        d.rounded_rectangle((PAD, lay.duel_y, W - PAD, lay.duel_y + DUEL_H), radius=14, fill=PANEL)
    for i in range(SIZE):
        cx = x0 + i * CELL + CELL / 2
        for cy in (y0 - BAND / 2, y0 + BOARD + BAND / 2):
            common.draw_text(d, (cx, cy), FILES[i], size=COORD_SIZE, fill=LABEL, align="center")
        cy = y0 + i * CELL + CELL / 2
        for cx in (x0 - BAND / 2, x0 + BOARD + BAND / 2):
            common.draw_text(d, (cx, cy), str(SIZE - i), size=COORD_SIZE, fill=LABEL, align="center")
    return img


# ------------------------------------------------------------------------------------- text helpers


def seat_names(view: dict[str, Any], names: list[str] | None, locale: str) -> list[str]:
    """Drawable names by seat: the given names cleaned, else "Player N"."""
    out = []
    for seat in range(int(view.get("players") or 0)):
        raw = names[seat] if names is not None and seat < len(names) else None
        out.append(common.display_name(raw, t("tfr.seat", locale, n=seat + 1)))
    return out


def colour_name(side: int, locale: str) -> str:
    return t(f"{KEY}colour.{side_colour(side)}", locale)


def pattern_name(side: int, locale: str) -> str:
    return t(f"{KEY}pattern.{SIDE_PATTERNS[side % len(SIDE_PATTERNS)]}", locale)


def _teams(view: dict[str, Any]) -> list[list[int]]:
    teams = view.get("teams")
    sides = int(view.get("sides") or 0)
    if not teams:
        return [[s for s in range(int(view.get("players") or 0)) if s % max(1, sides) == x] for x in range(sides)]
    return [list(seats) for seats in teams]


@dataclass(frozen=True)
class _Side:
    colour: str  # "Orange"
    names: str  # "Ann, Bo"


def _side_labels(view: dict[str, Any], names: list[str] | None, locale: str) -> list[_Side]:
    by_seat = seat_names(view, names, locale)
    out = []
    for side, seats in enumerate(_teams(view)):
        who = ", ".join(by_seat[s] for s in seats if 0 <= s < len(by_seat))
        out.append(_Side(colour_name(side, locale), who))
    return out


def clock(ms: int | float | None) -> str:
    """``41300`` -> ``0:41.3`` (tenths, rounded down: a clock never shows more time than it has)."""
    ms = max(0, int(ms or 0))
    tenths = ms // 100
    return f"{tenths // 600}:{tenths // 10 % 60:02d}.{tenths % 10}"


def _resigned(view: dict[str, Any], side: int) -> bool:
    resigned = view.get("resigned") or []
    return side < len(resigned) and bool(resigned[side])


def _eliminated(view: dict[str, Any], side: int) -> bool:
    return side in (view.get("eliminated") or [])


def _cat_name(cat: Any, view: dict[str, Any] | None = None) -> str:
    """A category's name as drawn or written: a server's own is named by its members (no control or bidi
    characters, clipped); a category for women or men only (view ``sex``: K / M) carries its marker in the
    game's language, like the name."""
    if not isinstance(cat, dict):
        return ""
    name = clean(str(cat.get("name") or cat.get("id") or ""), common.TEXT_LIMIT)
    sex = cat.get("sex")
    if sex not in ("K", "M") or not name:
        return name
    lang = str(((view or {}).get("options") or {}).get("lang") or "en")
    return f"{name} {t(f'tfui.sex.{sex}', lang)}"


def _champion_sides(view: dict[str, Any]) -> list[int]:
    outcome = view.get("outcome") or {}
    seat_side = view.get("seat_side") or []
    sides: list[int] = []
    for seat in outcome.get("winners") or []:
        if 0 <= seat < len(seat_side) and seat_side[seat] not in sides:
            sides.append(seat_side[seat])
    return sides


def _status(view: dict[str, Any], sides: list[_Side], locale: str) -> tuple[list[int], str]:
    """(sides whose swatches lead the status line, the status text)."""
    phase = view.get("phase")
    duel, pending = view.get("duel"), view.get("pending")
    n = len(sides)

    def who(side: int) -> str:
        if 0 <= side < n:
            return t("tfr.side_names", locale, side=sides[side].colour, names=sides[side].names)
        return "?"

    if phase == "draft":
        picked = sum(1 for p in view.get("has_picked") or [] if p)
        return [], t("tfr.status.draft", locale, ready=picked, total=n)
    if phase == "over":
        champs = _champion_sides(view)
        if champs:
            return champs, t("tfr.status.champion", locale, side=" & ".join(who(s) for s in champs))
        return [], t("tfr.status.over", locale)
    if duel:
        a, b = duel.get("challenger", -1), duel.get("defender", -1)
        colours = {"a": sides[a].colour if 0 <= a < n else "?", "b": sides[b].colour if 0 <= b < n else "?"}
        key = "tfr.status.final_duel" if phase == "final" else "tfr.status.duel"
        return [a, b], t(key, locale, **colours)
    if pending:
        side = pending.get("side", -1)
        return [side], _pending_text(pending, sides, locale)
    current = view.get("current")
    if phase == "play" and current is not None:
        return [current], t("tfr.status.challenge", locale, side=who(current))
    return [], t(f"{KEY}phase.{phase}", locale) if phase in ("play", "final") else ""


def _pending_text(pending: dict[str, Any], sides: list[_Side], locale: str) -> str:
    side = pending.get("side", -1)
    colour = sides[side].colour if 0 <= side < len(sides) else "?"
    kind = pending.get("kind")
    if kind == "take":
        return t("tfr.pending.take", locale, side=colour, count=int(pending.get("count") or 0))
    if kind == "keep":
        cells = pending.get("cells") or []
        return t("tfr.pending.keep", locale, side=colour, cell=cells[0] if cells else "?")
    if kind == "final":
        return t("tfr.pending.final", locale, side=colour)
    if kind == "final_pick":
        return t("tfr.pending.final_pick", locale, side=colour)
    return t("tfr.pending.other", locale, side=colour)


def _wrap(text: str, size: int, width: float, weight: str = "Bold", first: float | None = None) -> list[str]:
    """Greedy word wrap; ``first`` is the first line's width when it differs. Overlong words are kept whole
    (the caller cuts them with an ellipsis)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        limit = first if first is not None and not lines else width
        trial = f"{line} {word}" if line else word
        if not line or common.text_width(trial, size, weight) <= limit:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _info_lines(view: dict[str, Any], sides: list[_Side], locale: str) -> list[tuple[str, str]]:
    """The lines under the board as (label, text) pairs, already wrapped to the image's width."""
    entries: list[tuple[str, str]] = []
    pending = view.get("pending")
    if pending:
        text = _pending_text(pending, sides, locale)
        if pending.get("kind") == "take" and pending.get("cells"):
            text += " " + t("tfr.pending.from_cells", locale, cells=", ".join(pending["cells"]))
        entries.append((t("tfr.info.choice", locale), text))
        options = [_cat_name(c, view) for c in pending.get("options") or [] if c]
        if options:
            entries.append((t("tfr.info.options", locale), " · ".join(options)))
    cards = [_cat_name(c, view) for c in view.get("final_cards") or [] if c]
    if cards:
        entries.append((t("tfr.info.final_cards", locale), " · ".join(cards)))
    winners = view.get("round_winners") or []
    if winners:
        parts = [
            t("tfr.info.round_n", locale, n=i + 1, side=sides[s].colour if 0 <= s < len(sides) else "?")
            for i, s in enumerate(winners)
        ]
        entries.append((t("tfr.info.round_winners", locale), " · ".join(parts)))
    hand = view.get("hand")
    if view.get("viewer") is not None and hand:
        entries.append((t("tfr.info.your_hand", locale), " · ".join(_cat_name(c, view) for c in hand)))
    picked = view.get("picked")
    if view.get("viewer") is not None and view.get("phase") == "draft" and picked:
        entries.append((t("tfr.info.your_picks", locale), " · ".join(_cat_name(c, view) for c in picked)))
    width = W - 2 * PAD
    out: list[tuple[str, str]] = []
    for label, text in entries:
        label_w = common.text_width(label, INFO_SIZE, "Regular") + 10
        lines = _wrap(text, INFO_SIZE, width, first=width - label_w)[:3]
        for i, line in enumerate(lines):
            out.append((label if i == 0 else "", line))
    return out


# --------------------------------------------------------------------------------------- the fields


def _field_rect(cells: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    """The biggest axis-aligned rectangle of cells inside a field (x0, y0, x1, y1 inclusive): where its
    label goes: the widest (up to 3 cells: text runs across), then the tallest, then the one nearest the
    field's middle."""
    have = set(cells)
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    best: tuple[tuple[float, ...], tuple[int, int, int, int]] | None = None
    for x0, y0 in cells:
        for x1 in range(x0, SIZE):
            if (x1, y0) not in have:
                break
            for y1 in range(y0, SIZE):
                if not all((x, y1) in have for x in range(x0, x1 + 1)):
                    break
                w, h = x1 - x0 + 1, y1 - y0 + 1
                dist = abs((x0 + x1) / 2 - mx) + abs((y0 + y1) / 2 - my)
                key = (min(w, 3), h, -dist, -y0, -x0)
                if best is None or key > best[0]:
                    best = (key, (x0, y0, x1, y1))
    assert best is not None
    return best[1]


@functools.lru_cache(maxsize=1024)
def fit_label(names: tuple[str, ...], width: int, height: int) -> tuple[int, tuple[str, ...]]:
    """(font size, lines) for a field's category names inside ``width``×``height`` px: the largest size at
    which every name wraps to at most 4 lines (3 when several names share the field) and all lines fit;
    else the smallest size with as many lines as fit, each name's last line cut with an ellipsis."""
    per = 4 if len(names) == 1 else 3
    for size in LABEL_SIZES:
        line_h = round(size * 1.18)
        lines: list[str] = []
        ok = True
        for name in names:
            wrapped = _wrap(name, size, width)
            if len(wrapped) > per or any(common.text_width(line, size) > width for line in wrapped):
                ok = False
                break
            lines += wrapped
        if ok and len(lines) * line_h <= height:
            return size, tuple(lines)
    size = LABEL_SIZES[-1]
    max_lines = max(1, height // round(size * 1.18))
    share = max(1, min(6, max_lines // len(names)))  # lines per name
    lines = []
    for name in names:
        wrapped = _wrap(name, size, width)
        if len(wrapped) > share:
            wrapped = [*wrapped[: share - 1], " ".join(wrapped[share - 1 :])]  # the last line is cut below
        lines += [common.fit_text(line, size, width) for line in wrapped]
    return size, tuple(lines[:max_lines])


def _grid(view: dict[str, Any]) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    """(x, y-from-top) -> (side, field) for every cell of the view."""
    out: dict[tuple[int, int], tuple[int | None, int | None]] = {}
    for c in view.get("cells") or []:
        xy = cell_xy(c.get("cell"))
        if xy is not None:
            out[xy] = (c.get("side"), c.get("field"))
    return out


def _draw_board(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], lay: Layout) -> None:
    x0, y0 = lay.board_x, lay.board_y
    grid = _grid(view)
    nsides = len(SIDE_COLOURS)
    for (x, y), (side, _) in grid.items():
        box = (x * CELL, y * CELL, (x + 1) * CELL, (y + 1) * CELL)
        if side is None or not 0 <= side < nsides:
            d.rectangle((x0 + box[0], y0 + box[1], x0 + box[2] - 1, y0 + box[3] - 1), fill=VOID)
            inset = CELL // 4
            d.rectangle(
                (x0 + box[0] + inset, y0 + box[1] + inset, x0 + box[2] - 1 - inset, y0 + box[3] - 1 - inset),
                outline=VOID_LINE,
                width=2,
            )
            continue
        img.paste(texture(side, _resigned(view, side)).crop(box), (x0 + box[0], y0 + box[1]))

    def field_of(x: int, y: int) -> tuple[Any, Any]:
        return grid.get((x, y), (None, None))

    # thin lines between cells of one field, then thick ones where fields (or the void, or the edge) meet
    thick: list[tuple[int, int, int, int]] = []
    for y in range(SIZE):
        for x in range(SIZE):
            here = field_of(x, y)
            for dx, dy in ((1, 0), (0, 1)):
                nx, ny = x + dx, y + dy
                if nx >= SIZE or ny >= SIZE:
                    continue
                there = field_of(nx, ny)
                same = here[1] is not None and here == there
                if dx:
                    ex, top = x0 + nx * CELL, y0 + y * CELL
                    rect = (ex - 1, top, ex, top + CELL - 1)
                else:
                    ey, left = y0 + ny * CELL, x0 + x * CELL
                    rect = (left, ey - 1, left + CELL - 1, ey)
                if same:
                    side = here[0]
                    d.rectangle(rect, fill=side_tones(side, _resigned(view, side))[3])
                elif here[0] is not None or there[0] is not None:
                    thick.append(rect)
    h = BORDER // 2
    for left, top, right, bottom in thick:
        if right - left < bottom - top:  # vertical edge
            d.rectangle((left - h + 1, top - h, right + h - 1, bottom + h + 1), fill=INK)
        else:
            d.rectangle((left - h, top - h + 1, right + h + 1, bottom + h - 1), fill=INK)
    d.rectangle((x0 - h, y0 - h, x0 + BOARD + h - 1, y0 + BOARD + h - 1), outline=INK, width=BORDER)


def _draw_labels(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], lay: Layout) -> None:
    duel = view.get("duel") or {}
    duelling = {xy for xy in (cell_xy(duel.get("from")), cell_xy(duel.get("to"))) if xy is not None}
    for field in view.get("fields") or []:
        names = tuple(_cat_name(c, view) for c in field.get("categories") or [] if c)
        names = tuple(n for n in (common.clean_text(n) for n in names) if n)
        cells = [xy for xy in (cell_xy(c) for c in field.get("cells") or []) if xy is not None]
        side = field.get("side")
        if not names or not cells or side is None or not 0 <= side < len(SIDE_COLOURS):
            continue
        fx0, fy0, fx1, fy1 = _field_rect(cells)
        # a duelling cell's ring and arrow need room: keep its label further in
        ringed = any(fx0 <= x <= fx1 and fy0 <= y <= fy1 for x, y in duelling)
        margin = PLATE_MARGIN + (DUEL_MARGIN if ringed else 0)
        left = lay.board_x + fx0 * CELL + margin
        top = lay.board_y + fy0 * CELL + margin
        right = lay.board_x + (fx1 + 1) * CELL - margin
        bottom = lay.board_y + (fy1 + 1) * CELL - margin
        inner_w, inner_h = right - left - 2 * PLATE_PAD, bottom - top - 2 * PLATE_PAD
        size, lines = fit_label(names, inner_w, inner_h)
        line_h = round(size * 1.18)
        text_w = max(common.text_width(line, size) for line in lines)
        pw, ph = math.ceil(text_w) + 2 * PLATE_PAD + 4, len(lines) * line_h + 2 * PLATE_PAD
        cx, cy = (left + right) / 2, (top + bottom) / 2
        _, _, plate, edge = side_tones(side, _resigned(view, side))
        box = (round(cx - pw / 2), round(cy - ph / 2), round(cx + pw / 2), round(cy + ph / 2))
        d.rounded_rectangle(box, radius=8, fill=plate, outline=edge, width=2)
        y = box[1] + PLATE_PAD + line_h / 2
        for line in lines:
            common.paste_text(img, (cx, y), line, size=size, fill=INK, bg=plate, align="center")
            y += line_h


def _draw_take_cells(d: ImageDraw.ImageDraw, view: dict[str, Any], lay: Layout) -> None:
    """A winner choosing cells: the loser's cells on offer get a dashed gold frame (the count is in the text)."""
    pending = view.get("pending") or {}
    if pending.get("kind") != "take":
        return
    dash, gap, inset, width = 18, 10, 9, 5
    for cell in pending.get("cells") or ():
        left, top, right, bottom = cell_box(lay, cell)
        left, top, right, bottom = left + inset, top + inset, right - 1 - inset, bottom - 1 - inset
        for start in range(left, right, dash + gap):
            end = min(start + dash, right)
            d.rectangle((start, top, end, top + width - 1), fill=GOLD)
            d.rectangle((start, bottom - width + 1, end, bottom), fill=GOLD)
        for start in range(top, bottom, dash + gap):
            end = min(start + dash, bottom)
            d.rectangle((left, start, left + width - 1, end), fill=GOLD)
            d.rectangle((right - width + 1, start, right, end), fill=GOLD)


def _draw_duel_cells(d: ImageDraw.ImageDraw, view: dict[str, Any], lay: Layout) -> None:
    duel = view.get("duel") or {}
    frm, to = cell_xy(duel.get("from")), cell_xy(duel.get("to"))
    for xy in (frm, to):
        if xy is None:
            continue
        left, top = lay.board_x + xy[0] * CELL, lay.board_y + xy[1] * CELL
        i = BORDER // 2 + 2
        d.rectangle((left + i, top + i, left + CELL - 1 - i, top + CELL - 1 - i), outline=WHITE, width=5)
        d.rectangle((left + i + 5, top + i + 5, left + CELL - 6 - i, top + CELL - 6 - i), outline=INK, width=2)
    if frm is None or to is None or abs(frm[0] - to[0]) + abs(frm[1] - to[1]) != 1:
        return
    # an arrow across the shared edge, pointing from the challenger's cell to the defender's
    fx, fy = lay.board_x + frm[0] * CELL + CELL / 2, lay.board_y + frm[1] * CELL + CELL / 2
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    ex, ey = fx + dx * CELL / 2, fy + dy * CELL / 2  # the middle of the shared edge
    px, py = -dy, dx  # perpendicular

    def pt(along: float, across: float) -> tuple[float, float]:
        return ex + dx * along + px * across, ey + dy * along + py * across

    shape = [pt(-18, -7), pt(1, -7), pt(1, -17), pt(20, 0), pt(1, 17), pt(1, 7), pt(-18, 7)]
    d.polygon(shape, fill=WHITE, outline=INK, width=3)


# ------------------------------------------------------------------------------------------ panels


class _Canvas(common.Canvas):
    def __init__(self, img: Image.Image) -> None:
        super().__init__(img, BG)

    def swatch(self, view: dict[str, Any], side: int, x: float, cy: float, size: int = SWATCH) -> int:
        if not 0 <= side < len(SIDE_COLOURS):
            return 0
        return self.sprite(swatch(side, _resigned(view, side), size), x, cy)


def _draw_header(cv: _Canvas, view: dict[str, Any], sides: list[_Side], locale: str) -> None:
    right = W - PAD
    phase = view.get("phase") or ""
    title = t("tfr.title", locale)
    rnd = t("tfr.round", locale, n=view.get("round") or 1, total=3) if phase in ("play", "draft") else ""
    phase_name = t(f"{KEY}phase.{phase}", locale) if phase in ("draft", "play", "final", "over") else ""
    left = " · ".join(x for x in (title, rnd, phase_name) if x)
    cv.text(PAD, PAD + 14, left, size=TITLE_SIZE, fill=DIM, weight="Regular", max_width=right - PAD)
    lead, status = _status(view, sides, locale)
    x = PAD
    cy = PAD + 62
    for side in lead[:5]:
        x += cv.swatch(view, side, x, cy) + 8
    if lead:
        x += 6
    fill = GOLD if phase == "over" and lead else TEXT
    cv.text(x, cy, status, size=STATUS_SIZE, fill=fill, max_width=right - x)


def _draw_duel(cv: _Canvas, view: dict[str, Any], sides: list[_Side], locale: str, lay: Layout) -> None:
    duel = view.get("duel") or {}
    top = lay.duel_y
    left, right = PAD + 20, W - PAD - 20
    mid = W / 2
    category = common.clean_text(_cat_name(duel.get("category"), view)) or "?"
    label = t("tfr.duel.category", locale)
    label_w = common.text_width(label, SMALL_SIZE, "Regular") + 12
    cat_w = min(common.text_width(category, 32), right - left - label_w)
    x = mid - (label_w + cat_w) / 2
    cv.text(x, top + 32, label, size=SMALL_SIZE, fill=DIM, bg=PANEL, weight="Regular")
    cv.text(x + label_w, top + 32, category, size=32, fill=TEXT, bg=PANEL, max_width=cat_w + 1)

    pair = (duel.get("challenger", -1), duel.get("defender", -1))
    clocks = [*list(duel.get("clocks_ms") or [0, 0]), 0, 0]
    ready = [*list(duel.get("ready") or [False, False]), False, False]
    started = bool(duel.get("started"))
    running, answering = duel.get("running"), duel.get("answering")
    box = 96
    cy = top + 100
    # the letter, big, in the middle
    letter = duel.get("letter") if started else None
    cv.d.rounded_rectangle((mid - box / 2, cy - box / 2, mid + box / 2, cy + box / 2), radius=14, fill=LETTER_BG)
    cv.text(mid, cy, str(letter or "?")[:2], size=62, fill=INK, bg=LETTER_BG, align="center")
    for i, side in enumerate(pair):
        if not 0 <= side < len(sides):
            continue
        hot = side == running or (side == answering and running is None and not duel.get("judging"))
        bg = ROW_HI if side == running else PANEL
        col_l, col_r = (left, mid - box / 2 - 20) if i == 0 else (mid + box / 2 + 20, right)
        if side == running:
            cv.d.rounded_rectangle((col_l - 8, cy - 44, col_r + 8, cy + 44), radius=10, fill=ROW_HI)
        align = "left" if i == 0 else "right"
        sw = SMALL_SWATCH + 8
        name_y, clock_y = cy - 20, cy + 18
        if i == 0:
            cv.swatch(view, side, col_l, name_y, SMALL_SWATCH)
            cv.text(
                col_l + sw, name_y, sides[side].names, size=SMALL_SIZE, fill=TEXT, bg=bg, max_width=col_r - col_l - sw
            )
            cv.text(col_l, clock_y, clock(clocks[i]), size=36, fill=GOLD if hot else TEXT, bg=bg)
        else:
            cv.swatch(view, side, col_r - SMALL_SWATCH, name_y, SMALL_SWATCH)
            cv.text(
                col_r - sw,
                name_y,
                sides[side].names,
                size=SMALL_SIZE,
                fill=TEXT,
                bg=bg,
                align=align,
                max_width=col_r - col_l - sw,
            )
            cv.text(col_r, clock_y, clock(clocks[i]), size=36, fill=GOLD if hot else TEXT, bg=bg, align="right")
        if not started:
            tag = t("tfr.duel.ready" if ready[i] else "tfr.duel.not_ready", locale)
            tx = col_l + 150 if i == 0 else col_r - 150
            cv.text(
                tx, clock_y, tag, size=SMALL_SIZE, fill=GOLD if ready[i] else DIM, bg=bg, weight="Regular", align=align
            )
    # the bottom line: judging, or the last answers
    ly = top + DUEL_H - 30
    if duel.get("judging"):
        text = t(
            "tfr.duel.judging",
            locale,
            answer=common.clean_text(str(duel["judging"])),
            count=int(duel.get("votes") or 0),
        )
        cv.text(mid, ly, text, size=SMALL_SIZE, fill=GOLD, bg=PANEL, align="center", max_width=right - left)
        return
    answers = duel.get("answers") or []
    if not answers:
        if started:
            side = answering if answering is not None else running
            if side is not None and 0 <= side < len(sides):
                text = t("tfr.duel.answering", locale, side=sides[side].colour, letter=letter or "?")
                cv.text(mid, ly, text, size=SMALL_SIZE, fill=DIM, bg=PANEL, weight="Regular", align="center")
        else:
            cv.text(
                mid,
                ly,
                t("tfr.duel.waiting", locale),
                size=SMALL_SIZE,
                fill=DIM,
                bg=PANEL,
                weight="Regular",
                align="center",
            )
        return
    # as many of the latest answers as fit, oldest left
    items: list[tuple[int, str, bool]] = []
    width = 0.0
    avail = right - left - common.text_width(t("tfr.duel.answers", locale), SMALL_SIZE, "Regular") - 12
    for a in reversed(answers):
        text = _answer_text(a, locale)
        w = SMALL_SWATCH * 0.75 + 6 + common.text_width(text, SMALL_SIZE - 1) + 22
        if items and width + w > avail:
            break
        items.append((a.get("side", -1), text, a.get("mark") in ("accepted", "trusted", "judged")))
        width += w
    x = left
    x += cv.text(x, ly, t("tfr.duel.answers", locale), size=SMALL_SIZE, fill=DIM, bg=PANEL, weight="Regular") + 12
    for side, text, good in reversed(items):
        x += cv.swatch(view, side, x, ly, round(SMALL_SWATCH * 0.75)) + 6
        x += cv.text(x, ly, text, size=SMALL_SIZE - 1, fill=TEXT if good else DIM, bg=PANEL, max_width=right - x) + 22


def _answer_text(answer: dict[str, Any], locale: str) -> str:
    mark = answer.get("mark")
    text = common.clean_text(str(answer.get("text") or "")) or "?"
    if mark == "pass":
        return t("tfr.answer.pass", locale)
    if mark in ("rejected", "trusted"):
        return t(f"{KEY}answer.{mark}", locale, answer=text)
    return text


def _draw_info(cv: _Canvas, lines: list[tuple[str, str]], lay: Layout) -> None:
    y = lay.info_y
    indent = 0
    for label, text in lines:
        cy = y + LINE_H / 2
        x = PAD
        if label:
            indent = cv.text(x, cy, label, size=INFO_SIZE, fill=DIM, weight="Regular") + 10
        cv.text(x + indent, cy, text, size=INFO_SIZE, fill=TEXT, max_width=W - PAD - x - indent)
        y += LINE_H


def _draw_ladder(cv: _Canvas, view: dict[str, Any], sides: list[_Side], locale: str, lay: Layout) -> None:
    ladder = [s for s in view.get("ladder") or [] if 0 <= s < len(sides)]
    if not ladder:
        return
    top = lay.ladder_y
    label = t("tfr.ladder", locale)
    cv.text(PAD, top + 14, label, size=SMALL_SIZE, fill=DIM, weight="Regular")
    holder = view.get("holder")
    out = set(view.get("final_out") or [])
    champs = set(_champion_sides(view)) if view.get("phase") == "over" else set()
    cats = view.get("final_categories") or []
    n = len(ladder)
    arrow = 26
    chip_w = (W - 2 * PAD - (n - 1) * arrow) / n
    y0, y1 = top + 32, top + LADDER_H
    for i, side in enumerate(ladder):
        x0 = PAD + i * (chip_w + arrow)
        hot = side == holder or side in champs
        bg = ROW_HI if hot else PANEL
        cv.d.rounded_rectangle((x0, y0, x0 + chip_w, y1), radius=10, fill=bg, outline=GOLD if hot else None, width=3)
        faded = side in out
        cy = y0 + 18
        x = x0 + 10
        x += cv.swatch(view, side, x, cy + 2, SMALL_SWATCH) + 8
        if hot:
            x += cv.sprite(common.mark_sprite("star" if side in champs else "play", 24, GOLD, bg, 0.4), x, cy) + 4
        cv.text(
            x,
            cy,
            sides[side].colour,
            size=SMALL_SIZE,
            fill=DIM if faded else TEXT,
            bg=bg,
            max_width=x0 + chip_w - 8 - x,
        )
        cat = _cat_name(cats[side], view) if side < len(cats) else ""
        cat = common.clean_text(cat) or "—"
        cv.text(x0 + 10, y1 - 15, cat, size=18, fill=DIM, bg=bg, weight="Regular", max_width=chip_w - 20)
        if i < n - 1:
            ax = x0 + chip_w + arrow / 2
            my = (y0 + y1) / 2
            cv.d.polygon([(ax - 7, my - 9), (ax + 7, my), (ax - 7, my + 9)], fill=DIM)


def _side_stats(view: dict[str, Any], nsides: int) -> tuple[list[int], list[int]]:
    cells = [0] * nsides
    biggest = [0] * nsides
    for c in view.get("cells") or []:
        side = c.get("side")
        if side is not None and 0 <= side < nsides:
            cells[side] += 1
    for f in view.get("fields") or []:
        side = f.get("side")
        if side is not None and 0 <= side < nsides:
            biggest[side] = max(biggest[side], int(f.get("size") or len(f.get("cells") or [])))
    return cells, biggest


def _side_status(view: dict[str, Any], side: int, locale: str) -> tuple[str, RGB]:
    phase = view.get("phase")
    if _resigned(view, side):
        return t("tfr.legend.resigned", locale), DIM
    if _eliminated(view, side):
        return t("tfr.legend.eliminated", locale), DIM
    if phase == "over":
        outcome = view.get("outcome") or {}
        seat_side = view.get("seat_side") or []
        for place, group in enumerate(outcome.get("ranking") or []):
            if any(0 <= s < len(seat_side) and seat_side[s] == side for s in group):
                return t("tfr.legend.place", locale, place=place + 1), GOLD if place == 0 else TEXT
        return "", DIM
    if phase == "draft":
        picked = view.get("has_picked") or []
        done = side < len(picked) and picked[side]
        return t("tfr.legend.picked" if done else "tfr.legend.choosing", locale), TEXT if done else DIM
    if phase == "final" and side in (view.get("final_out") or []):
        return t("tfr.legend.out", locale), DIM
    pending = view.get("pending") or {}
    if pending:
        return (t("tfr.legend.to_choose", locale), GOLD) if pending.get("side") == side else ("", DIM)
    if phase == "play" and view.get("current") == side and not view.get("duel"):
        return t("tfr.legend.to_challenge", locale), GOLD
    duel = view.get("duel") or {}
    if duel and side in (duel.get("challenger"), duel.get("defender")):
        return t("tfr.legend.in_duel", locale), GOLD
    return "", DIM


def _hot_side(view: dict[str, Any]) -> int | None:
    """The side the game waits for outside a duel: the pending choice's owner, else the challenger."""
    if view.get("duel"):
        return None
    pending = view.get("pending")
    if pending:
        return pending.get("side")
    return view.get("current") if view.get("phase") == "play" else None


def _draw_legend(cv: _Canvas, view: dict[str, Any], sides: list[_Side], locale: str, lay: Layout) -> None:
    left, right = PAD, W - PAD
    nsides = len(sides)
    cells, biggest = _side_stats(view, nsides)
    wins = [0] * nsides
    for s in view.get("round_winners") or []:
        if 0 <= s < nsides:
            wins[s] += 1
    champs = set(_champion_sides(view))
    phase = view.get("phase")
    viewer_side = view.get("viewer_side")
    status_w = 190
    stats_r = right - 10 - status_w - 16
    stats_w = max(
        common.text_width(t("tfr.legend.stats", locale, count=n, biggest=n), SMALL_SIZE, "Regular") for n in (9, 25)
    )
    y = lay.legend_y
    for side in range(nsides):
        cy = y + ROW_H / 2
        hot = _hot_side(view) == side or (phase == "over" and side in champs)
        bg = ROW_HI if hot else BG
        if hot:
            cv.d.rounded_rectangle((left, y + 3, right, y + ROW_H - 3), radius=10, fill=ROW_HI)
            cv.sprite(common.mark_sprite("star" if phase == "over" else "play", 28, GOLD, ROW_HI, 0.4), left + 6, cy)
        elif side:
            cv.d.line((left + 40, y, right, y), fill=RULE, width=2)
        x = left + 40
        x += cv.swatch(view, side, x, cy) + 14
        gone = _resigned(view, side) or _eliminated(view, side)
        name_right = right - 10 - status_w - 16 - stats_w - 20
        stars = wins[side]
        star_w = stars * 24
        you = t("tfr.you", locale) if viewer_side == side else ""
        you_w = common.text_width(you, SMALL_SIZE - 2, "Regular") + 10 if you else 0
        colour_w = common.text_width(sides[side].colour, SMALL_SIZE - 2, "Regular") + 12
        name_w = cv.text(
            x,
            cy,
            sides[side].names,
            size=NAME_SIZE,
            fill=DIM if gone else TEXT,
            bg=bg,
            max_width=name_right - x - colour_w - star_w - you_w,
        )
        x += name_w + 10
        x += cv.text(x, cy + 1, sides[side].colour, size=SMALL_SIZE - 2, fill=DIM, bg=bg, weight="Regular") + 2
        if you:
            x += cv.text(x + 8, cy + 1, you, size=SMALL_SIZE - 2, fill=DIM, bg=bg, weight="Regular") + 10
        for _ in range(stars):
            x += cv.sprite(common.mark_sprite("star", 24, GOLD, bg, 0.42), x, cy)
        stats = t("tfr.legend.stats", locale, count=cells[side], biggest=biggest[side])
        cv.text(stats_r, cy, stats, size=SMALL_SIZE, fill=DIM if gone else TEXT, bg=bg, weight="Regular", align="right")
        status, fill = _side_status(view, side, locale)
        if status:
            cv.text(right - 10, cy, status, size=SMALL_SIZE, fill=fill, bg=bg, align="right", max_width=status_w)
        y += ROW_H


# ------------------------------------------------------------------------------------------ the image


def draw(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> Image.Image:
    """The board image as a palette ('P') image: what `render` encodes."""
    sides = _side_labels(view, names, locale)
    info = _info_lines(view, sides, locale)
    lay = layout(view, names=names, locale=locale)
    img = background(lay).copy()
    cv = _Canvas(img)
    _draw_board(img, cv.d, view, lay)
    _draw_labels(img, cv.d, view, lay)
    _draw_duel_cells(cv.d, view, lay)
    _draw_take_cells(cv.d, view, lay)
    _draw_header(cv, view, sides, locale)
    if lay.duel_y:
        _draw_duel(cv, view, sides, locale, lay)
    _draw_info(cv, info, lay)
    if lay.ladder_y:
        _draw_ladder(cv, view, sides, locale, lay)
    _draw_legend(cv, view, sides, locale, lay)
    return common.to_palette(img, palette())


def render(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> bytes:
    """PNG bytes of the board image for a view (a spectator's or one seat's)."""
    return common.encode_png(draw(view, names=names, locale=locale))


# --------------------------------------------------------------------------------------- text board


def _field_letter(field: int | None) -> str:
    if field is None or field < 0:
        return "?"
    return chr(ord("a") + field) if field < 26 else str(field)


def text_board(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> str:
    """A plain-text board: row 5 at the top, each cell as its side digit and field letter (``2c``), ``##``
    for the empty centre, the duel's cells as ``(from)`` and ``[to]``; then the status, the duel, the pending
    choice, the fields with their categories, the Final and the sides."""
    sides = _side_labels(view, names, locale)
    grid = _grid(view)
    duel = view.get("duel") or {}
    frm, to = cell_xy(duel.get("from")), cell_xy(duel.get("to"))
    phase = view.get("phase") or ""

    title = [t("tfr.title", locale)]
    if phase in ("draft", "play"):
        title.append(t("tfr.round", locale, n=view.get("round") or 1, total=3))
    if phase in ("draft", "play", "final", "over"):
        title.append(t(f"{KEY}phase.{phase}", locale))
    out = [" · ".join(title)]
    _, status = _status(view, sides, locale)
    if status:
        out.append(status)
    out.append("")

    header = "    " + "".join(f"  {c}   " for c in FILES)
    out.append(header)
    for y in range(SIZE):
        row = []
        for x in range(SIZE):
            side, field = grid.get((x, y), (None, None))
            body = "##" if side is None else f"{SIDE_CHARS[side] if 0 <= side < 5 else '?'}{_field_letter(field)}"
            if (x, y) == frm:
                row.append(f" ({body}) ")
            elif (x, y) == to:
                row.append(f" [{body}] ")
            else:
                row.append(f"  {body}  ")
        out.append(f" {SIZE - y}  {''.join(row)}  {SIZE - y}")
    out.append(header)
    out.append(t("tfr.text.key", locale))
    out.append("")

    if duel:
        out += _text_duel(view, duel, sides, locale)
    for label, text in _info_lines(view, sides, locale):
        out.append(f"{label} {text}".strip() if label else f"    {text}")
    ladder = [s for s in view.get("ladder") or [] if 0 <= s < len(sides)]
    if ladder:
        cats = view.get("final_categories") or []
        parts = []
        for s in ladder:
            cat = _cat_name(cats[s], view) if s < len(cats) else ""
            mark = "*" if s == view.get("holder") else ""
            parts.append(f"{mark}{sides[s].colour}{f' ({cat})' if cat else ''}")
        out.append(f"{t('tfr.ladder', locale)} {' -> '.join(parts)}")

    fields = view.get("fields") or []
    if fields:
        out.append(t("tfr.text.fields", locale))
        for f in fields:
            side = f.get("side")
            colour = sides[side].colour if side is not None and 0 <= side < len(sides) else "?"
            cats = " / ".join(_cat_name(c, view) for c in f.get("categories") or [] if c) or "—"
            cells = ",".join(f.get("cells") or [])
            out.append(f"  {_field_letter(f.get('id'))}  {colour}: {cats}  [{cells}]")

    out.append(t("tfr.text.sides", locale))
    cells, biggest = _side_stats(view, len(sides))
    for side, label in enumerate(sides):
        marker = ">" if _hot_side(view) == side else " "
        status, _ = _side_status(view, side, locale)
        you = f" {t('tfr.you', locale)}" if view.get("viewer_side") == side else ""
        stats = t("tfr.legend.stats", locale, count=cells[side], biggest=biggest[side])
        line = f"{marker} {SIDE_CHARS[side] if side < 5 else '?'} {label.colour} ({pattern_name(side, locale)}): "
        line += f"{label.names}{you} — {stats}"
        if status:
            line += f" — {status}"
        out.append(line)
    return "\n".join(line.rstrip() for line in out)


def _text_duel(view: dict[str, Any], duel: dict[str, Any], sides: list[_Side], locale: str) -> list[str]:
    n = len(sides)
    pair = (duel.get("challenger", -1), duel.get("defender", -1))
    clocks = [*list(duel.get("clocks_ms") or [0, 0]), 0, 0]
    colour = [sides[s].colour if 0 <= s < n else "?" for s in pair]
    category = _cat_name(duel.get("category"), view) or "?"
    where = f" ({duel['from']} -> {duel['to']})" if duel.get("from") and duel.get("to") else ""
    lines = [t("tfr.text.duel", locale, a=colour[0], b=colour[1], category=category) + where]
    running = duel.get("running")
    parts = []
    for i, side in enumerate(pair):
        mark = " <" if side == running else ""
        parts.append(f"{colour[i]} {clock(clocks[i])}{mark}")
    if duel.get("started"):
        letter = duel.get("letter") or "?"
        lines.append(f"{t('tfr.text.letter', locale, letter=letter)} · {' | '.join(parts)}")
    else:
        ready = [*list(duel.get("ready") or [False, False]), False, False]
        states = [f"{colour[i]}: {t('tfr.duel.ready' if ready[i] else 'tfr.duel.not_ready', locale)}" for i in range(2)]
        # a text board is read where Ready is typed (the terminal), not pressed
        lines.append(f"{t('tfr.text.waiting', locale)} ({', '.join(states)}) · {' | '.join(parts)}")
    answers = duel.get("answers") or []
    if answers:
        said = []
        for a in answers:
            s = a.get("side", -1)
            said.append(f"{sides[s].colour if 0 <= s < n else '?'}: {_answer_text(a, locale)}")
        lines.append(f"{t('tfr.duel.answers', locale)} {'; '.join(said)}")
    if duel.get("judging"):
        lines.append(t("tfr.duel.judging", locale, answer=clean(str(duel["judging"]), common.TEXT_LIMIT),
                       count=int(duel.get("votes") or 0)))
    return lines
