"""Board image and text board of Night of the 27 Ninja (``flying_blades``), drawn from a view, never a state.

Public API:
  - `render(view, *, names=None, locale="en", moves=None) -> bytes`: the PNG to post;
  - `draw(view, *, names=None, locale="en", moves=None) -> PIL.Image.Image`: the palette image before encoding;
  - `text_board(view, *, names=None, locale="en") -> str`: a plain-text board for a terminal or a code block.

``names`` are the players' display names by seat (anything a Discord name can hold: characters the fonts lack
are dropped, an unreadable name becomes "Player N"). Every word drawn goes through `i18n.t`.

The image: a header (game, turn, whose move or the result, the last move), the board on a wooden frame with
coordinates on all four edges, then one row per seat (colour disc with its mark, name, ninjas left, cards in
hand, prey taken in the 2-player game, whom the seat hunts, draft/result status), the viewer's prey/hunter
legend and hand when the view has a viewer. Pieces are discs with a distinct mark per colour (triangle,
diamond, square, plus, star), so no one needs to tell the colours apart. The last move's cells are tinted and
outlined (thick for where it went, thin for where it came from) and removed ninjas are crossed out; warded
cells are hatched.

``moves`` (the views' ``last_action`` of a run of moves posted together, oldest first, e.g. three bots after a
human) marks every one of them on the one image: an arrow in the mover's colour from where each went from to
where it went, a numbered badge in that colour on its cell, and the numbered list in the header. Without it,
or with a single move, only the view's last move is marked as above.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from render import kit as common
from render.flying_blades.layout import (
    BADGE,
    BAND,
    BG,
    CARDS,
    CELL,
    CHAR_COLOUR,
    COORD_SIZE,
    DIM,
    FRAME,
    FRAME_EDGE,
    GOLD,
    GRID,
    HEADER_H,
    ICON,
    INK,
    LABEL,
    LABEL_DIM,
    LINE_H,
    NAME_SIZE,
    PAD,
    ROW_H,
    ROW_HI,
    RULE,
    SMALL_ICON,
    SMALL_SIZE,
    STAT_SIZE,
    STATUS_SIZE,
    TEXT,
    TINT,
    TITLE_SIZE,
    WARD,
    WARD_HATCH,
    WARDED,
    WOOD,
    XRED,
    Layout,
    cell_box,
    layout,
    parse_cell,
)
from render.flying_blades.words import (
    card_list,
    card_name,
    colour_name,
    draft_status,
    passes_text,
    reason_text,
    seat_names,
    status_line,
    text_board,
    title_text,
)
from render.kit import RGB
from render.kit.paletted import Paletted, PCanvas, cached_tile

# The package's public names (the image, the text board) and those its tests and the terminal read.
__all__ = ["BG", "CARDS", "CELL", "GOLD", "HEADER_H", "Layout", "card_name", "cell_box", "draw", "layout", "parse_cell",
           "render", "text_board"]

# --------------------------------------------------------------------------------- palette, sprites

TILE = CELL - 2


def _shadow(bg: RGB) -> RGB:
    return common.shade(bg, 0.8)


@functools.cache
def palette() -> Image.Image:
    pal = common.Palette()
    pal.add(
        BG, ROW_HI, RULE, FRAME, FRAME_EDGE, LABEL, LABEL_DIM, *WOOD, GRID, TINT, INK, XRED, WARD, WARD_HATCH
    )
    pal.add(TEXT, DIM, GOLD)
    pal.ramps((TEXT, DIM, GOLD), (BG, ROW_HI), steps=4)
    pal.ramps((LABEL, LABEL_DIM), (FRAME,), steps=5)
    cell_bgs = (*WOOD, TINT)
    for colour in CHAR_COLOUR.values():
        for bg in cell_bgs:
            for a, b, steps in common.sprite_colours(colour, bg, _shadow(bg)):
                pal.ramp(a, b, steps)
        for bg in (BG, ROW_HI):
            for a, b, steps in common.sprite_colours(colour, bg):
                pal.ramp(a, b, steps)
    pal.ramps((XRED,), cell_bgs, steps=3)
    pal.ramps((INK,), (TINT,), steps=2)
    return pal.image()


@functools.cache
def paletted() -> Paletted:
    """The palette with its indices and text tiles: the image is drawn in it from start to end."""
    return Paletted(palette())


@cached_tile(paletted)
def _piece(colour: str, bg: RGB) -> Image.Image:
    return common.disc_sprite(colour, TILE, bg, diameter=0.8, shadow=_shadow(bg))


@cached_tile(paletted)
def _icon(colour: str, bg: RGB, size: int = ICON) -> Image.Image:
    return common.disc_sprite(colour, size, bg, diameter=0.94)


@cached_tile(paletted)
def _mark(shape: str, size: int, fg: RGB, bg: RGB, scale: float) -> Image.Image:
    return common.mark_sprite(shape, size, fg, bg, scale)


@functools.cache
def _hatch(width: int, height: int) -> Image.Image:
    """A board-sized hatched panel; warded cells are cut from it so that the stripes run on across cells."""
    img = Image.new("RGB", (width, height), WARD)
    d = ImageDraw.Draw(img)
    for off in range(-height, width, 18):
        d.line((off, height, off + height, 0), fill=WARD_HATCH, width=5)
    return img


def background(lay: Layout) -> Image.Image:
    """Everything that does not depend on the position: frame, cells, coordinates, warded cells. A new 'P' image in
    `palette` each call (the board's block is drawn once per board and pasted, so a new panel height costs nothing).
    """
    img = Image.new("P", lay.size, paletted().ink(BG))
    img.putpalette(palette().getpalette() or [])
    img.paste(_board_block(lay.cols, lay.rows, lay.warded), (lay.board_x - BAND, lay.board_y - BAND))
    return img


@functools.lru_cache(maxsize=8)
def _board_block(cols: int, rows: int, warded_cells: tuple[tuple[int, int], ...]) -> Image.Image:
    """The board on its frame with the coordinates, as a 'P' tile (the frame's rounded corners on `BG`)."""
    bw, bh = cols * CELL, rows * CELL
    lay = Layout(cols, rows, BAND, BAND, 0, (bw + 2 * BAND, bh + 2 * BAND), warded_cells)
    img = Image.new("RGB", lay.size, BG)
    d = ImageDraw.Draw(img)
    x0, y0 = lay.board_x, lay.board_y
    d.rounded_rectangle((x0 - BAND, y0 - BAND, x0 + bw + BAND - 1, y0 + bh + BAND - 1), radius=12, fill=FRAME)
    d.rectangle((x0 - 5, y0 - 5, x0 + bw + 4, y0 + bh + 4), fill=FRAME_EDGE)
    d.rectangle((x0 - 1, y0 - 1, x0 + bw, y0 + bh), fill=GRID)
    warded = set(lay.warded)
    for y in range(lay.rows):
        for x in range(lay.cols):
            if (x, y) not in warded:
                d.rectangle(cell_box(lay, x, y), fill=WOOD[(x + y) % 2])
    hatch = _hatch(bw + 2, bh + 2)
    for x, y in lay.warded:  # the whole cell, grid lines included: warded ground is one hatched block
        box = (x * CELL, y * CELL, (x + 1) * CELL + 2, (y + 1) * CELL + 2)
        img.paste(hatch.crop(box), (x0 - 1 + box[0], y0 - 1 + box[1]))
    for x, y in lay.warded:  # a wall where warded ground meets the playing area
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < lay.cols and 0 <= ny < lay.rows and (nx, ny) not in warded:
                if dx:
                    lx = x0 + (x + (dx > 0)) * CELL
                    d.rectangle((lx - 2, y0 + y * CELL - 1, lx + 1, y0 + (y + 1) * CELL), fill=FRAME_EDGE)
                else:
                    ly = y0 + (y + (dy > 0)) * CELL
                    d.rectangle((x0 + x * CELL - 1, ly - 2, x0 + (x + 1) * CELL, ly + 1), fill=FRAME_EDGE)
    warded_cols = {x for x in range(lay.cols) if all((x, y) in warded for y in range(lay.rows))}
    for x in range(lay.cols):
        cx = x0 + x * CELL + CELL / 2
        fill = LABEL_DIM if x in warded_cols else LABEL
        for cy in (y0 - BAND / 2, y0 + bh + BAND / 2):
            common.draw_text(d, (cx, cy), chr(ord("a") + x), size=COORD_SIZE, fill=fill, align="center")
    for y in range(lay.rows):
        cy = y0 + y * CELL + CELL / 2
        for cx in (x0 - BAND / 2, x0 + bw + BAND / 2):
            common.draw_text(d, (cx, cy), str(lay.rows - y), size=COORD_SIZE, fill=LABEL, align="center")
    return paletted().tile(img)


# ------------------------------------------------------------------------------------------ drawing


class _Canvas(PCanvas):
    def __init__(self, img: Image.Image) -> None:
        super().__init__(img, BG, paletted())

    def flow(
        self, x: float, cy: float, items: list[tuple[str, Any]], *, bg: RGB, size: int, right: float
    ) -> float:
        """Draw text and disc icons left to right on one line; stop at ``right``."""
        for kind, value in items:
            if x >= right:
                break
            if kind == "gap":
                x += value
            elif kind == "icon":
                if x + SMALL_ICON > right:
                    break
                x += self.sprite(_icon(value, bg, SMALL_ICON), x, cy) + 6
            elif kind == "badge":
                if x + SMALL_ICON > right:
                    break
                tile = common.number_sprite(value[0], value[1], SMALL_ICON, bg)
                self.overlay(tile, (round(x), round(cy - tile.height / 2)))
                x += tile.width + 4
            else:
                fill, weight = (DIM, "Regular") if kind == "dim" else (TEXT, "Bold")
                x += self.text(x, cy, value, size=size, fill=fill, bg=bg, weight=weight, max_width=right - x)
        return x


def _seat_colour_items(seats: list[int], colours: list[str], locale: str) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    for i, seat in enumerate(seats):
        if i:
            items += [("text", ","), ("gap", 14)]
        items += [("icon", colours[seat]), ("text", colour_name(colours[seat], locale))]
    return items


def _moves_items(marked: list[dict[str, Any]], colours: list[str], names: list[str],
                 locale: str) -> list[tuple[str, Any]]:
    """The header's account of the marked moves: the last one with its mover's name, or a numbered list."""
    if len(marked) == 1:
        seat = marked[0]["seat"]
        return [("dim", t("render.flying_blades.last_move", locale)), ("gap", 10), ("icon", colours[seat]),
                ("text", f"{names[seat]}: {marked[0].get('action', '')}")]
    if not marked:
        return []
    items: list[tuple[str, Any]] = [("dim", t("render.flying_blades.moves_marked", locale))]
    for step, move in enumerate(marked, start=1):
        colour = colours[move["seat"]]
        items += [("gap", 10 if step == 1 else 22), ("badge", (colour, step)), ("icon", colour),
                  ("text", str(move.get("action", "")))]
    return items


def _draw_header(cv: _Canvas, view: dict[str, Any], names: list[str], locale: str, width: int,
                 marked: list[dict[str, Any]]) -> None:
    right = width - PAD
    title = title_text(view, locale)
    turn = t("render.turn", locale, n=view.get("turn", 0))
    turn_w = cv.text(right, PAD + 16, turn, size=TITLE_SIZE, fill=DIM, weight="Regular", align="right")
    cv.text(
        PAD, PAD + 16, title, size=TITLE_SIZE, fill=DIM, weight="Regular", max_width=right - PAD - turn_w - 24
    )

    lead, status = status_line(view, names, locale)
    x = PAD
    cy = PAD + 62
    colours = view["colours"]
    for seat in lead[:5]:
        x += cv.sprite(_icon(colours[seat], BG, 46), x, cy) + 6
    if lead:
        x += 6
    fill = GOLD if view["phase"] == "over" and lead else TEXT
    cv.text(x, cy, status, size=STATUS_SIZE, fill=fill, max_width=right - x)

    items = _moves_items(marked, colours, names, locale)
    extra = reason_text(view, locale) if view["phase"] == "over" else passes_text(view, locale)
    if view["phase"] == "draft":
        extra = t("render.flying_blades.draft_hint", locale)
    if extra:
        if items:
            items += [("gap", 16), ("dim", "\u00b7"), ("gap", 16)]
        items.append(("dim", extra))
    if items:
        cv.flow(PAD, PAD + 108, items, bg=BG, size=SMALL_SIZE, right=right)


def marked_moves(view: dict[str, Any], moves: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The moves to mark, oldest first: ``moves`` when it holds several, else the view's last move; moves
    without a valid seat are left out."""
    chosen = moves if moves is not None and len(moves) > 1 else [view.get("last_action") or {}]
    seats = len(view["colours"])
    return [m for m in chosen if isinstance(m, dict) and isinstance(m.get("seat"), int) and 0 <= m["seat"] < seats]


def _draw_board(cv: _Canvas, view: dict[str, Any], lay: Layout, marked: list[dict[str, Any]]) -> None:
    cells = [(parse_cell(m.get("from"), lay), parse_cell(m.get("to"), lay)) for m in marked]
    removed = {c for m in marked for c in (parse_cell(r, lay) for r in m.get("removed") or []) if c is not None}
    lit = {c for pair in cells for c in pair if c is not None}
    board = view["board"]
    for y, line in enumerate(board):
        for x, ch in enumerate(line):
            if ch == WARDED:
                continue
            box = cell_box(lay, x, y)
            bg = TINT if (x, y) in lit else WOOD[(x + y) % 2]
            colour = CHAR_COLOUR.get(ch)
            if colour is not None:
                cv.img.paste(_piece(colour, bg), box[:2])
            elif (x, y) in removed:
                cv.img.paste(_mark("cross", TILE, XRED, bg, 0.3), box[:2])
            elif bg is TINT:
                cv.d.rectangle(box, fill=TINT)
            if colour is not None and (x, y) in removed:  # a ninja stands where one was removed: corner cross
                corner = _mark("cross", 26, XRED, bg, 0.34)
                cv.img.paste(corner, (box[2] - 27, box[1] + 1))
    for src, dst in cells:
        for cell, width in ((src, 3), (dst, 6)):
            if cell is not None:
                cv.d.rectangle(cell_box(lay, *cell), outline=INK, width=width)
    if len(marked) > 1:
        _draw_steps(cv, view, lay, marked, cells)


Cell = tuple[int, int]


def _draw_steps(cv: _Canvas, view: dict[str, Any], lay: Layout, marked: list[dict[str, Any]],
                cells: list[tuple[Cell | None, Cell | None]]) -> None:
    """Several moves on one image: an arrow per move in its mover's colour, then a numbered badge on the cell
    each move went to (or acted from), side by side where moves share a cell."""
    colours = view["colours"]
    for move, (src, dst) in zip(marked, cells, strict=True):
        if src is not None and dst is not None and src != dst:
            _arrow(cv, lay, src, dst, common.PIECE_COLOURS[colours[move["seat"]]])
    badges: Counter[Cell] = Counter()
    for step, (move, (src, dst)) in enumerate(zip(marked, cells, strict=True), start=1):
        cell = dst or src
        if cell is None:
            continue  # a pass: listed in the header only
        left, top, _, _ = cell_box(lay, *cell)
        tile = common.number_sprite(colours[move["seat"]], step, BADGE, TINT)
        cv.overlay(tile, (left + 3 + badges[cell] * (BADGE - 4), top + 3))
        badges[cell] += 1


def _arrow(cv: _Canvas, lay: Layout, src: Cell, dst: Cell, fill: RGB) -> None:
    """From near the centre of ``src`` to near the centre of ``dst``, cased in ink so that it reads on any
    piece and on the light cells."""
    (x0, y0), (x1, y1) = (_centre(lay, src), _centre(lay, dst))
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    # From the edge of the piece that moved (or threw) to the edge of the piece where it went: the marks on
    # the discs stay readable, and the arrow of a move to the next cell is still a whole arrow.
    start = (x0 + ux * CELL * 0.2, y0 + uy * CELL * 0.2)
    tip = (x1 - ux * CELL * 0.33, y1 - uy * CELL * 0.33)
    size = min(24.0, (length - CELL * 0.53) * 0.6)
    for grow, colour, shaft in ((4, INK, 12), (0, fill, 6)):
        head, half = size + grow, size * 0.6 + grow
        point = (tip[0] + ux * grow, tip[1] + uy * grow)
        base = (point[0] - ux * head, point[1] - uy * head)
        cv.d.line((start, (base[0] + ux * 2, base[1] + uy * 2)), fill=colour, width=shaft)
        cv.d.polygon([point, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)],
                     fill=colour)


def _centre(lay: Layout, cell: Cell) -> tuple[float, float]:
    return lay.board_x + (cell[0] + 0.5) * CELL, lay.board_y + (cell[1] + 0.5) * CELL


def _width(text: str, size: int, weight: str = "Bold") -> int:
    return math.ceil(common.text_width(text, size, weight))


def _status_width(view: dict[str, Any], locale: str) -> int:
    """Width of the status column: the widest status this phase can show (0: no column)."""
    phase, players = view["phase"], view["players"]
    texts = [t("render.flying_blades.status.resigned", locale)] if any(view.get("resigned") or []) else []
    if phase == "draft":
        texts += [draft_status(True, locale), draft_status(False, locale)]
    elif phase == "play":
        texts.append(t("render.flying_blades.status.to_move", locale))
    elif phase == "over":
        texts += [t("render.place", locale, place=n) for n in range(1, players + 1)]
    width = max((_width(text, SMALL_SIZE) for text in texts), default=0)
    if phase == "draft":
        width += 32  # the tick before "ready"
    return min(width, 220)


def _draw_panel(cv: _Canvas, view: dict[str, Any], names: list[str], locale: str, lay: Layout) -> None:
    width = lay.size[0]
    left, right = PAD, width - PAD
    colours = view["colours"]
    players, phase = view["players"], view["phase"]
    viewer = view.get("viewer")
    to_move = set(view.get("to_move") or [])
    ninjas = view.get("ninjas") or {}
    hand_counts = view.get("hand_counts") or [0] * players
    captured = view.get("captured") or [0] * players
    drafted = view.get("drafted") or [False] * players
    resigned = view.get("resigned") or [False] * players
    prey = view.get("prey") or [[] for _ in range(players)]
    outcome = view.get("outcome") or {}
    winners = set(outcome.get("winners") or [])
    place = {seat: i + 1 for i, group in enumerate(outcome.get("ranking") or []) for seat in group}
    two_player = bool(view.get("neutral"))

    # columns from the right edge: status, hunts (or prey taken in 2p), cards, ninjas; each as wide as its
    # widest possible text in this locale and phase, so that columns stay put from move to move
    status_r = right - 12
    status_w = _status_width(view, locale)
    third_r = status_r - (status_w + 30 if status_w else 0)
    if two_player:
        third_w = max(
            _width(t("render.flying_blades.captured", locale, count=n), STAT_SIZE - 2, "Regular")
            for n in (1, 2, 5, 27)
        )
    else:
        most_prey = max((len(p) for p in prey), default=1)
        third_w = _width(t("render.flying_blades.hunts", locale), SMALL_SIZE - 2, "Regular") + 8
        third_w += most_prey * (SMALL_ICON + 4)
    cards_r = third_r - third_w - 30
    cards_w = max(_width(t("unit.card", locale, count=n), STAT_SIZE - 2, "Regular") for n in (1, 2, 5, 16))
    ninjas_r = cards_r - cards_w - 30
    ninjas_w = max(_width(t("unit.ninja", locale, count=n), STAT_SIZE) for n in (1, 2, 5, 27))
    name_x = left + 44 + ICON + 14
    name_right = ninjas_r - ninjas_w - 24

    y = lay.panel_y
    for seat in range(players):
        cy = y + ROW_H / 2
        hot = seat in to_move if phase == "play" else phase == "over" and seat in winners
        bg = ROW_HI if hot else BG
        text = functools.partial(cv.text, bg=bg)
        if hot:
            cv.d.rounded_rectangle((left, y + 3, right, y + ROW_H - 3), radius=10, fill=ROW_HI)
            shape = "play" if phase == "play" else "star"
            cv.sprite(_mark(shape, 30, GOLD, ROW_HI, 0.4), left + 8, cy)
        elif seat:
            cv.d.line((left + 44, y, right, y), fill=RULE, width=2)
        colour = colours[seat]
        cv.sprite(_icon(colour, bg), left + 44, cy)
        gone = resigned[seat]
        you = t("render.you", locale) if viewer == seat else ""
        you_w = _width(you, SMALL_SIZE, "Regular") + 10 if you else 0
        fill = DIM if gone else TEXT
        name_w = text(
            name_x, cy - 1, names[seat], size=NAME_SIZE, fill=fill, max_width=name_right - name_x - you_w
        )
        if you:
            text(name_x + name_w + 10, cy, you, size=SMALL_SIZE, fill=DIM, weight="Regular")
        left_n = ninjas.get(colour, 0)
        text(ninjas_r, cy, t("unit.ninja", locale, count=left_n), size=STAT_SIZE, fill=TEXT, align="right")
        text(
            cards_r,
            cy,
            t("unit.card", locale, count=hand_counts[seat]),
            size=STAT_SIZE - 2,
            fill=TEXT if hand_counts[seat] else DIM,
            weight="Regular",
            align="right",
        )
        if two_player:
            text(
                third_r,
                cy,
                t("render.flying_blades.captured", locale, count=captured[seat]),
                size=STAT_SIZE - 2,
                fill=TEXT,
                weight="Regular",
                align="right",
            )
        else:
            targets = [colours[p] for p in prey[seat] if 0 <= p < players]
            icons_w = len(targets) * (SMALL_ICON + 4)
            x = third_r - icons_w
            for target in targets:
                x += cv.sprite(_icon(target, bg, SMALL_ICON), x, cy) + 4
            text(
                third_r - icons_w - 8,
                cy,
                t("render.flying_blades.hunts", locale),
                size=SMALL_SIZE - 2,
                fill=DIM,
                weight="Regular",
                align="right",
            )
        status, status_fill, icon = "", DIM, ""
        if gone:
            status = t("render.flying_blades.status.resigned", locale)
        elif phase == "draft":
            status = draft_status(drafted[seat], locale)
            status_fill, icon = (TEXT, "check") if drafted[seat] else (DIM, "")
        elif phase == "over" and seat in place:
            status, status_fill = t("render.place", locale, place=place[seat]), GOLD if hot else TEXT
        elif phase == "play" and seat in to_move:
            status, status_fill = t("render.flying_blades.status.to_move", locale), GOLD
        if status:
            w = text(
                status_r, cy, status, size=SMALL_SIZE, fill=status_fill, align="right", max_width=status_w
            )
            if icon:
                cv.sprite(_mark(icon, 28, status_fill, bg, 0.4), status_r - w - 32, cy)
        y += ROW_H

    neutral = view.get("neutral")
    if neutral:
        cy = y + ROW_H / 2
        cv.d.line((left + 44, y, right, y), fill=RULE, width=2)
        cv.sprite(_icon(neutral, BG), left + 44, cy)
        label = t("render.flying_blades.neutral", locale, colour=colour_name(neutral, locale))
        cv.text(
            name_x, cy, label, size=NAME_SIZE - 2, fill=DIM, weight="Regular", max_width=name_right - name_x
        )
        count = t("unit.ninja", locale, count=ninjas.get(neutral, 0))
        cv.text(ninjas_r, cy, count, size=STAT_SIZE, fill=TEXT, align="right")
        y += ROW_H

    if view.get("viewer") is None and not view.get("hands"):
        return
    y += 10
    hunters = view.get("hunters") or [[] for _ in range(players)]
    if viewer is not None and 0 <= viewer < players:
        cy = y + LINE_H / 2
        mine = [p for p in prey[viewer] if 0 <= p < players]
        items: list[tuple[str, Any]] = [("dim", t("render.flying_blades.you_hunt", locale)), ("gap", 10)]
        if mine:
            items += _seat_colour_items(mine, colours, locale)
        elif neutral:
            items += [("icon", neutral), ("text", colour_name(neutral, locale))]
        else:
            items.append(("text", t("render.flying_blades.nobody", locale)))
        items += [("gap", 36), ("dim", t("render.flying_blades.hunted_by", locale)), ("gap", 10)]
        theirs = [h for h in hunters[viewer] if 0 <= h < players]
        if theirs:
            items += _seat_colour_items(theirs, colours, locale)
        else:
            items.append(("text", t("render.flying_blades.nobody", locale)))
        cv.flow(left + 8, cy, items, bg=BG, size=SMALL_SIZE + 1, right=right)
        y += LINE_H
        hand = view.get("hand")
        if hand is not None and not view.get("hands"):
            label = t("render.flying_blades.your_cards", locale)
            items = [("dim", label), ("gap", 10), ("text", card_list(hand, locale))]
            cv.flow(left + 8, y + LINE_H / 2, items, bg=BG, size=SMALL_SIZE + 1, right=right)
            y += LINE_H
    hands = view.get("hands")
    if hands:
        for seat in range(players):
            cards = hands[seat] if seat < len(hands) else []
            items = [
                ("icon", colours[seat]),
                ("text", names[seat] + ":"),
                ("gap", 10),
                ("dim", card_list(cards, locale)),
            ]
            cv.flow(left + 8, y + LINE_H / 2, items, bg=BG, size=SMALL_SIZE, right=right)
            y += LINE_H


def draw(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en",
         moves: list[dict[str, Any]] | None = None) -> Image.Image:
    """The board image as a palette ('P') image: what `render` encodes. Drawn in the palette throughout: the cached
    board block and cached tiles pasted, flat shapes by palette index, never a whole-image remap."""
    lay = layout(view)
    img = background(lay)
    cv = _Canvas(img)
    seat_labels = seat_names(view, names, locale)
    marked = marked_moves(view, moves)
    _draw_board(cv, view, lay, marked)
    _draw_header(cv, view, seat_labels, locale, lay.size[0], marked)
    _draw_panel(cv, view, seat_labels, locale, lay)
    return img


def render(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en",
           moves: list[dict[str, Any]] | None = None) -> bytes:
    """PNG bytes of the board image for a view (a spectator's or one seat's); ``moves`` marks a run of moves."""
    return common.encode_image(draw(view, names=names, locale=locale, moves=moves))
