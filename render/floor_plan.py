"""Blueprint images and text board of Floor Plan (``floor_plan``), drawn from views, never from a state.

Public API (see docs/floor_plan.md for the view shapes):
  - `draw_sheet(sheet_view, *, name=None, locale="en", highlight=None, scale=1.0) -> Image` and
    `render_sheet(...) -> bytes`: one player's blueprint; ``highlight`` (cells, else ``sheet_view["pending"]``)
    is drawn as a translucent overlay: the ephemeral "preview before Confirm" image;
  - `draw_thumbnail(sheet_view, *, name, score, locale) -> Image`: a ~300 px wide blueprint for summaries;
  - `draw_summary(view, sheets, *, names, locale) -> Image` and `render_summary(...) -> bytes`: the public
    round summary (round, the roll as dice, the three clients, then thumbnails for up to 6 sheets or a
    top-20 leaderboard);
  - `text_board(view, *, names=None, locale="en") -> str`: the viewer's blueprint as text, for a terminal.

The blueprint: deep blue paper with a cell grid, coordinates on all four edges (columns A–Q, rows 1–13 top to
bottom), the shaded centre I7. Rooms are tinted rectangles with thick white walls and their type letter on the
label cell (the tint is a hint; the letter carries the meaning). Doors are gaps in the wall with an orange door
leaf and swing, windows a pale pane set into the wall, furnishings small yellow squares, trees a round canopy
over 3×3 cells, decks brown planks, stones grey pebbles, pools water with waves. Under the map: a legend of the
room letters, the six notes (points, demand, bonus; a spent bonus crossed out), the Wild, and the solo round
bubbles.

Every room cell is one cached tile (type, walls, feature), anti-aliased once at 4×; the whole image is drawn in
RGB and remapped once onto a fixed palette, as `render.common` describes.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

import i18n
from i18n import t
from render import common
from render.common import RGB, hex_rgb

GAME = "floor_plan"
KEY = "render.floor_plan."
COLS, ROWS = 17, 13
CENTRE = (8, 6)  # I7
ROOM_TYPES = ("C", "W", "B", "K", "D", "L")
Cell = tuple[int, int]

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("0f2747")  # page: header and panel
BG_HI = hex_rgb("173864")  # note boxes, leaderboard stripes
PAPER = hex_rgb("1f4f8f")  # blueprint paper (outside cells)
GRID = hex_rgb("3a6aab")
BAND = hex_rgb("163e73")  # the frame with the coordinates
HATCH = hex_rgb("5d8ac4")  # the shaded centre I7
WALL = hex_rgb("f3f7ff")
TEXT = hex_rgb("eef4ff")
DIM = hex_rgb("9fb6d6")
GOLD = hex_rgb("f0c43c")
INK = hex_rgb("0b1d36")  # dark ink: letters on light things, outlines
# subtle room tints: the room blue pulled towards an Okabe-Ito colour; the letter is what tells them apart
ROOM_BASE = hex_rgb("3f78c0")
ROOM_TINT: dict[str, RGB] = {
    "C": common.blend(ROOM_BASE, common.OKABE_ITO["reddish_purple"], 0.35),
    "W": common.blend(ROOM_BASE, common.OKABE_ITO["sky_blue"], 0.45),
    "B": common.blend(ROOM_BASE, common.OKABE_ITO["blue"], 0.35),
    "K": common.blend(ROOM_BASE, common.OKABE_ITO["vermillion"], 0.42),
    "D": common.blend(ROOM_BASE, common.OKABE_ITO["yellow"], 0.36),
    "L": common.blend(ROOM_BASE, common.OKABE_ITO["bluish_green"], 0.35),
}
DOOR = common.OKABE_ITO["orange"]
PANE = hex_rgb("bfeaff")
FURN = common.OKABE_ITO["yellow"]
LEAF = hex_rgb("2f9e5b")  # tree canopy
LEAF_DARK = hex_rgb("1d6e3c")
LEAF_LIGHT = hex_rgb("5cc27f")
TRUNK = hex_rgb("7a4e2a")
DECK = hex_rgb("b07a45")
DECK_LINE = hex_rgb("7d5128")
STONE = hex_rgb("a9adb3")
STONE_DARK = hex_rgb("70757d")
WATER = hex_rgb("3fa9e0")
WAVE = hex_rgb("bfe6fa")
HILITE = hex_rgb("ffe45c")  # the pending placement: overlay colour and outline
HILITE_ALPHA = 0.42
DIE = hex_rgb("f7f3e8")
PIP = hex_rgb("1a1a1a")
CROSS = hex_rgb("ff7a59")

N, E, S, W = 1, 2, 4, 8
DIRS = ((N, 0, -1), (E, 1, 0), (S, 0, 1), (W, -1, 0))


@dataclass(frozen=True)
class Metrics:
    """Every length of the sheet image at one scale."""

    cell: int
    pad: int
    band: int
    header: int
    wall: int
    coord: int
    letter: int
    title: int
    small: int
    note_h: int
    legend_h: int

    @property
    def map_w(self) -> int:
        return COLS * self.cell

    @property
    def map_h(self) -> int:
        return ROWS * self.cell


@functools.cache
def metrics(scale: float = 1.0) -> Metrics:
    def s(v: float) -> int:
        return max(1, round(v * scale))

    return Metrics(
        cell=s(50),
        pad=s(18),
        band=s(32),
        header=s(84),
        wall=max(2, s(5)),
        coord=s(23),
        letter=s(30),
        title=s(30),
        small=s(20),
        note_h=s(118),
        legend_h=s(44),
    )


# --------------------------------------------------------------------------------------- sheet model


def _cells(items: Any) -> set[Cell]:
    return {(int(c[0]), int(c[1])) for c in items or ()}


@dataclass
class SheetModel:
    """A sheet view unpacked into cell lookups."""

    room_at: dict[Cell, int]
    types: list[str]
    rects: list[tuple[int, int, int, int]]
    labels: dict[Cell, str]
    doors: set[Cell]
    windows: set[Cell]
    furnishings: set[Cell]
    decks: set[Cell]
    stones: set[Cell]
    water: set[Cell]
    tree_cells: dict[Cell, Cell]  # cell -> its tree's top-left anchor
    trees: list[Cell]

    @classmethod
    def of(cls, sheet: dict[str, Any]) -> SheetModel:
        room_at: dict[Cell, int] = {}
        types, rects, labels = [], [], {}
        for i, r in enumerate(sheet.get("rooms") or ()):
            x, y, w, h = int(r["x"]), int(r["y"]), int(r["w"]), int(r["h"])
            types.append(str(r.get("type", "?")))
            rects.append((x, y, w, h))
            for cy in range(y, y + h):
                for cx in range(x, x + w):
                    room_at[(cx, cy)] = i
            label = r.get("label")
            if label is not None:
                labels[(int(label[0]), int(label[1]))] = types[-1]
        trees = [(int(c[0]), int(c[1])) for c in sheet.get("trees") or ()]
        tree_cells = {(ax + dx, ay + dy): (ax, ay) for ax, ay in trees for dx in range(3) for dy in range(3)}
        water = {(int(c[0]), int(c[1])) for pool in sheet.get("pools") or () for c in pool}
        return cls(
            room_at,
            types,
            rects,
            labels,
            _cells(sheet.get("doors")),
            _cells(sheet.get("windows")),
            _cells(sheet.get("furnishings")),
            _cells(sheet.get("decks")),
            _cells(sheet.get("stones")),
            water,
            tree_cells,
            trees,
        )

    def walls(self, cell: Cell) -> int:
        """Bitmask of the sides of a room cell on its room's border."""
        room = self.room_at[cell]
        mask = 0
        for bit, dx, dy in DIRS:
            if self.room_at.get((cell[0] + dx, cell[1] + dy)) != room:
                mask |= bit
        return mask

    def outward(self, cell: Cell) -> int:
        """The border sides of a room cell that face outside (not another room, not off the sheet)."""
        mask = 0
        for bit, dx, dy in DIRS:
            nx, ny = cell[0] + dx, cell[1] + dy
            if 0 <= nx < COLS and 0 <= ny < ROWS and (nx, ny) not in self.room_at:
                mask |= bit
        return mask

    def char(self, cell: Cell) -> str:
        """The text board's character for a cell."""
        if cell in self.labels:
            return self.labels[cell].upper()
        if cell in self.doors:
            return "d"
        if cell in self.windows:
            return "w"
        if cell in self.furnishings:
            return "f"
        if cell in self.room_at:
            return "#"
        if cell in self.tree_cells:
            return "T"
        if cell in self.decks:
            return "="
        if cell in self.stones:
            return "o"
        if cell in self.water:
            return "~"
        return "."


# ------------------------------------------------------------------------------------------ sprites

SS = common.SUPERSAMPLE


def _feature_sides(model: SheetModel, cell: Cell) -> int:
    """Where a window is drawn: the border sides facing outside, else every border side."""
    walls = model.walls(cell)
    out = model.outward(cell) & walls
    return out or walls


OPPOSITE = {N: S, S: N, E: W, W: E}
DOOR_ORDER = (S, N, E, W)


def _door_side(model: SheetModel, cell: Cell) -> int:
    """The one side a door is drawn on: an outside-facing side if it has one, else a side onto another room."""
    sides = _feature_sides(model, cell)
    return next((bit for bit in DOOR_ORDER if sides & bit), 0)


@functools.lru_cache(maxsize=2048)
def room_tile(
    cell: int, wall: int, rtype: str, walls: int, feature: str, sides: int, letter: str, gaps: int = 0
) -> Image.Image:
    """One room cell, ``cell``×``cell`` with its top-left grid line: tint, walls on the ``walls`` sides, its
    feature (``door``/``window`` on the ``sides`` sides, ``furnishing``, or ``label`` with ``letter``) and an
    opening on the ``gaps`` sides, where a neighbouring room's door opens through the shared wall."""
    big = cell * SS
    tint = ROOM_TINT.get(rtype, ROOM_BASE)
    grid_in = common.shade(tint, 0.86)
    img = Image.new("RGB", (big, big), tint)
    d = ImageDraw.Draw(img)
    # the faint grid inside rooms (so cells can still be counted): half a line on each side that is not a wall
    half = SS // 2
    if not walls & N:
        d.rectangle((0, 0, big - 1, half - 1), fill=grid_in)
    if not walls & S:
        d.rectangle((0, big - half, big - 1, big - 1), fill=grid_in)
    if not walls & W:
        d.rectangle((0, 0, half - 1, big - 1), fill=grid_in)
    if not walls & E:
        d.rectangle((big - half, 0, big - 1, big - 1), fill=grid_in)
    ww = wall * SS
    strips = {
        N: (0, 0, big - 1, ww - 1),
        S: (0, big - ww, big - 1, big - 1),
        W: (0, 0, ww - 1, big - 1),
        E: (big - ww, 0, big - 1, big - 1),
    }
    for bit, box in strips.items():
        if walls & bit:
            d.rectangle(box, fill=WALL)
    for bit in strips:
        if gaps & bit:
            _gap(d, bit, big, ww, tint)
    if feature == "door":
        for bit in strips:
            if sides & bit:
                _door(d, bit, big, ww, tint)
    elif feature == "window":
        for bit in strips:
            if sides & bit:
                _window(d, bit, big, ww, tint)
    elif feature == "furnishing":
        r = big * 0.2
        c = big / 2
        d.rounded_rectangle((c - r, c - r, c + r, c + r), radius=big * 0.04, fill=FURN, outline=INK, width=SS * 2)
    img = img.reduce(SS)
    if feature == "label" and letter:
        size = round(cell * 0.62)
        common.paste_text(img, (cell / 2, cell / 2), letter, size=size, fill=WALL, bg=tint, align="center")
    return img


def _rot(points: list[tuple[float, float]], bit: int, big: int) -> list[tuple[float, float]]:
    """Points drawn for the north side, turned to ``bit``'s side of a ``big`` square."""
    if bit == N:
        return points
    if bit == S:
        return [(big - x, big - y) for x, y in points]
    if bit == W:
        return [(y, big - x) for x, y in points]
    return [(big - y, x) for x, y in points]  # E


DOOR_GAP = (0.16, 0.84)  # the opening along the wall, symmetric so that both sides of a shared wall line up


def _gap(d: ImageDraw.ImageDraw, bit: int, big: int, ww: int, tint: RGB) -> None:
    """An opening in the north wall with dark jambs at its ends (then turned)."""
    g0, g1 = big * DOOR_GAP[0], big * DOOR_GAP[1]
    d.rectangle(_box(_rot([(g0, 0), (g1, ww)], bit, big)), fill=tint)
    for jx in (g0, g1):
        d.rectangle(_box(_rot([(jx - SS, 0), (jx + SS, ww)], bit, big)), fill=INK)


def _door(d: ImageDraw.ImageDraw, bit: int, big: int, ww: int, tint: RGB) -> None:
    """An opening in the north wall with a door leaf hinged on its left, swinging inwards (then turned)."""
    _gap(d, bit, big, ww, tint)
    g0, g1 = big * DOOR_GAP[0], big * DOOR_GAP[1]
    leaf_w = max(SS * 2, ww * 0.7)
    length = g1 - g0
    arc = [(g0 + length * math.cos(a), length * math.sin(a)) for a in (math.pi / 2 * i / 16 for i in range(17))]
    d.line(_rot(arc, bit, big), fill=DOOR, width=max(SS, round(leaf_w * 0.35)))
    leaf = _rot([(g0, 0), (g0 + leaf_w, length)], bit, big)
    d.rectangle(_box(leaf), fill=DOOR)


def _window(d: ImageDraw.ImageDraw, bit: int, big: int, ww: int, tint: RGB) -> None:
    """A pane set into the north wall: pale glass, dark frame, a white glazing bar (then turned)."""
    g0, g1 = big * 0.12, big * 0.88
    depth = ww + big * 0.13
    d.rectangle(_box(_rot([(g0, 0), (g1, depth)], bit, big)), fill=INK)
    inset = SS * 2
    d.rectangle(_box(_rot([(g0 + inset, inset), (g1 - inset, depth - inset)], bit, big)), fill=PANE)
    mid = depth / 2
    d.rectangle(_box(_rot([(g0 + inset, mid - SS), (g1 - inset, mid + SS)], bit, big)), fill=INK)


def _box(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


@functools.cache
def deck_tile(cell: int) -> Image.Image:
    big = cell * SS
    img = Image.new("RGB", (big, big), DECK_LINE)
    d = ImageDraw.Draw(img)
    planks = 3
    h = big / planks
    for i in range(planks):
        top = i * h + SS * 1.5
        d.rectangle((SS, top, big - 1, (i + 1) * h - SS * 1.5), fill=DECK)
        seam = big * (0.3 + 0.4 * (i % 2))  # staggered butt joints
        d.rectangle((seam - SS, top, seam + SS, (i + 1) * h - SS * 1.5), fill=DECK_LINE)
    return img.reduce(SS)


@functools.cache
def water_tile(cell: int) -> Image.Image:
    big = cell * SS
    img = Image.new("RGB", (big, big), WATER)
    d = ImageDraw.Draw(img)
    for row, dx in ((0.32, 0.12), (0.68, -0.1)):
        pts = [
            (big * (0.18 + dx) + i * big * 0.5 / 12, big * row + math.sin(i / 12 * 2 * math.pi) * big * 0.06)
            for i in range(13)
        ]
        d.line(pts, fill=WAVE, width=max(SS, round(big * 0.045)))
    return img.reduce(SS)


@functools.cache
def stone_tile(cell: int) -> Image.Image:
    big = cell * SS
    img = Image.new("RGB", (big, big), PAPER)
    d = ImageDraw.Draw(img)
    for cx, cy, rx, ry in ((0.36, 0.4, 0.22, 0.17), (0.66, 0.62, 0.2, 0.16), (0.32, 0.72, 0.12, 0.1)):
        box = (big * (cx - rx), big * (cy - ry), big * (cx + rx), big * (cy + ry))
        d.ellipse(box, fill=STONE_DARK)
        rim = max(SS * 0.6, big * 0.035)
        inner = (box[0] + rim, box[1] + rim, box[2] - rim, box[3] - rim * 1.25)
        d.ellipse(inner, fill=STONE)
    return img.reduce(SS)


@functools.cache
def tree_tile(cell: int) -> Image.Image:
    """A 3×3-cell tree seen from above: a lobed canopy with a trunk dot, on the paper with its grid."""
    size = 3 * cell
    big = size * SS
    img = Image.new("RGB", (big, big), PAPER)
    d = ImageDraw.Draw(img)
    for i in range(4):
        d.rectangle((i * cell * SS - SS // 2, 0, i * cell * SS + SS // 2, big), fill=GRID)
        d.rectangle((0, i * cell * SS - SS // 2, big, i * cell * SS + SS // 2), fill=GRID)
    c = big / 2
    lobes = 9
    for shade_col, r_scale in ((LEAF_DARK, 1.0), (LEAF, 0.9)):
        r = big * 0.17 * r_scale
        ring = big * 0.28
        for i in range(lobes):
            a = 2 * math.pi * i / lobes
            x, y = c + ring * math.cos(a), c + ring * math.sin(a)
            d.ellipse((x - r, y - r, x + r, y + r), fill=shade_col)
        core = big * 0.3 * r_scale
        d.ellipse((c - core, c - core, c + core, c + core), fill=shade_col)
    for i in range(lobes):
        a = 2 * math.pi * (i + 0.5) / lobes
        x, y = c + big * 0.2 * math.cos(a), c + big * 0.2 * math.sin(a) - big * 0.02
        r = big * 0.05
        d.ellipse((x - r, y - r, x + r, y + r), fill=LEAF_LIGHT)
    t_r = big * 0.045
    d.ellipse((c - t_r, c - t_r, c + t_r, c + t_r), fill=TRUNK)
    return img.reduce(SS)


@functools.cache
def die_sprite(value: int, size: int, bg: RGB) -> Image.Image:
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((SS, SS, big - SS, big - SS), radius=big * 0.18, fill=DIE, outline=INK, width=SS * 2)
    spots = common.DIE_SPOTS
    r = big * 0.085
    for x, y in spots.get(value, []):
        d.ellipse((big * x - r, big * y - r, big * x + r, big * y + r), fill=PIP)
    return img.reduce(SS)


@functools.cache
def bubble_sprite(size: int, used: bool, bg: RGB) -> Image.Image:
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    box = (SS * 2, SS * 2, big - SS * 2, big - SS * 2)
    if used:
        d.ellipse(box, fill=DIM)
    else:
        d.ellipse(box, outline=DIM, width=SS * 3)
    return img.reduce(SS)


# ------------------------------------------------------------------------------------------ palette


@functools.cache
def palette() -> Image.Image:
    pal = common.Palette()
    flat = [BG, BG_HI, PAPER, GRID, BAND, HATCH, WALL, TEXT, DIM, GOLD, INK, DOOR, PANE, FURN, CROSS]
    flat += [LEAF, LEAF_DARK, LEAF_LIGHT, TRUNK, DECK, DECK_LINE, STONE, STONE_DARK, WATER, WAVE, DIE, PIP]
    flat += list(ROOM_TINT.values()) + [common.shade(c, 0.86) for c in ROOM_TINT.values()]
    pal.add(*flat)
    pal.ramps((TEXT, DIM, GOLD), (BG,), steps=4)
    pal.ramps((TEXT, DIM), (BG_HI,), steps=3)
    pal.ramps((TEXT, DIM), (BAND, PAPER), steps=3)
    pal.ramps((WALL, DOOR, INK), ROOM_TINT.values(), steps=2)
    pal.ramps((LEAF_DARK,), (PAPER, GRID), steps=2)
    pal.ramps((STONE_DARK,), (PAPER,), steps=2)
    pal.ramps((WAVE, INK), (WATER, DIE), steps=2)
    pal.ramp(PIP, DIE, 2)
    pal.ramp(DIE, INK, 1)
    # the pending placement's overlay over the colours it can cover
    for colour in (PAPER, GRID, WALL, DOOR, PANE, FURN, LEAF, LEAF_DARK, DECK, DECK_LINE, STONE, WATER, INK):
        pal.add(common.blend(colour, HILITE, HILITE_ALPHA))
    for colour in ROOM_TINT.values():
        pal.add(common.blend(colour, HILITE, HILITE_ALPHA), common.blend(WALL, HILITE, HILITE_ALPHA))
    pal.add(HILITE)
    return pal.image()


# ----------------------------------------------------------------------------------------- drawing


def draw_map(img: Image.Image, x0: int, y0: int, cell: int, wall: int, sheet: dict[str, Any]) -> SheetModel:
    """Draw a sheet's cells onto ``img`` whose map area (already holding the paper and grid) starts at (x0, y0);
    each cell's box is [x0 + x·cell, x0 + (x+1)·cell) with its grid line on the top and left."""
    model = SheetModel.of(sheet)
    door_sides = {c: _door_side(model, c) for c in model.doors if c in model.room_at}
    openings: dict[Cell, int] = {}  # a door through a shared wall opens the neighbouring room's wall too
    for (x, y), bit in door_sides.items():
        for b, dx, dy in DIRS:
            across = (x + dx, y + dy)
            if b == bit and across in model.room_at and model.room_at[across] != model.room_at[(x, y)]:
                openings[across] = openings.get(across, 0) | OPPOSITE[bit]
    for (x, y), i in model.room_at.items():
        if not (0 <= x < COLS and 0 <= y < ROWS):
            continue
        cellxy = (x, y)
        walls = model.walls(cellxy)
        feature, sides, letter = "", 0, ""
        if cellxy in model.labels:
            feature, letter = "label", model.labels[cellxy]
        elif cellxy in model.doors:
            feature, sides = "door", door_sides[cellxy]
        elif cellxy in model.windows:
            feature, sides = "window", _feature_sides(model, cellxy)
        elif cellxy in model.furnishings:
            feature = "furnishing"
        tile = room_tile(cell, wall, model.types[i], walls, feature, sides, letter, openings.get(cellxy, 0))
        img.paste(tile, (x0 + x * cell, y0 + y * cell))
    water = water_tile(cell)  # over the grid line on its top and left: a pool reads as one body of water
    for x, y in model.water:
        if (x, y) not in model.room_at and 0 <= x < COLS and 0 <= y < ROWS:
            img.paste(water, (x0 + x * cell, y0 + y * cell))
    deck = deck_tile(cell).crop((0, 0, cell - 1, cell - 1))
    for x, y in model.decks:
        if (x, y) not in model.room_at and 0 <= x < COLS and 0 <= y < ROWS:
            img.paste(deck, (x0 + x * cell + 1, y0 + y * cell + 1))
    stone = stone_tile(cell).crop((1, 1, cell, cell))
    for x, y in model.stones:
        if (x, y) not in model.room_at and 0 <= x < COLS and 0 <= y < ROWS:
            img.paste(stone, (x0 + x * cell + 1, y0 + y * cell + 1))
    tree = tree_tile(cell)
    for ax, ay in model.trees:
        if 0 <= ax <= COLS - 3 and 0 <= ay <= ROWS - 3:
            img.paste(tree.crop((1, 1, 3 * cell, 3 * cell)), (x0 + ax * cell + 1, y0 + ay * cell + 1))
    return model


@functools.lru_cache(maxsize=8)
def _paper(cell: int, centre: bool = True) -> Image.Image:
    """The empty blueprint: paper, grid (a line on each cell's top and left, plus the closing lines), the
    hatched centre I7."""
    w, h = COLS * cell + 1, ROWS * cell + 1
    img = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(img)
    for i in range(COLS + 1):
        d.line((i * cell, 0, i * cell, h), fill=GRID)
    for j in range(ROWS + 1):
        d.line((0, j * cell, w, j * cell), fill=GRID)
    if centre:
        cx, cy = CENTRE[0] * cell, CENTRE[1] * cell
        box = Image.new("RGB", (cell - 1, cell - 1), PAPER)
        bd = ImageDraw.Draw(box)
        step = max(4, cell // 6)
        for off in range(-cell, cell, step):
            bd.line((off, cell, off + cell, 0), fill=HATCH, width=max(1, cell // 24))
        img.paste(box, (cx + 1, cy + 1))
    return img


@functools.lru_cache(maxsize=8)
def _sheet_background(scale: float, solo: bool) -> Image.Image:
    """The sheet image without anything of a player's: page, frame with coordinates, empty blueprint."""
    m = metrics(scale)
    width, height = sheet_size(scale, solo)
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    fx, fy = m.pad, m.header
    d.rounded_rectangle(
        (fx, fy, fx + m.map_w + 2 * m.band, fy + m.map_h + 2 * m.band), radius=max(4, m.band // 3), fill=BAND
    )
    x0, y0 = _map_origin(m)
    img.paste(_paper(m.cell), (x0, y0))
    for x in range(COLS):
        cx = x0 + x * m.cell + m.cell / 2
        for cy in (y0 - m.band / 2, y0 + m.map_h + m.band / 2 + 1):
            common.paste_text(img, (cx, cy), chr(ord("A") + x), size=m.coord, fill=TEXT, bg=BAND, align="center")
    for y in range(ROWS):
        cy = y0 + y * m.cell + m.cell / 2
        for cx in (x0 - m.band / 2, x0 + m.map_w + m.band / 2 + 1):
            common.paste_text(img, (cx, cy), str(y + 1), size=m.coord, fill=TEXT, bg=BAND, align="center")
    return img


def _map_origin(m: Metrics) -> tuple[int, int]:
    return m.pad + m.band, m.header + m.band


def sheet_size(scale: float = 1.0, solo: bool = False) -> tuple[int, int]:
    """The sheet image's size; a solo sheet has one more row for the round bubbles."""
    m = metrics(scale)
    width = 2 * (m.pad + m.band) + m.map_w + 1
    height = m.header + 2 * m.band + m.map_h + 1 + m.legend_h + m.note_h + m.pad
    return width, height + (round(m.cell * 1.3) if solo else 0)


def cell_box(cell: Cell, scale: float = 1.0) -> tuple[int, int, int, int]:
    """The pixels of a cell on the sheet image, its grid lines excluded: (left, top, right, bottom) exclusive."""
    m = metrics(scale)
    x0, y0 = _map_origin(m)
    left, top = x0 + cell[0] * m.cell + 1, y0 + cell[1] * m.cell + 1
    return left, top, left + m.cell - 1, top + m.cell - 1


def _highlight(img: Image.Image, x0: int, y0: int, cell: int, cells: set[Cell]) -> None:
    """Tint the highlighted cells (grid lines excluded) towards `HILITE` and outline the area's border."""
    edge = max(2, cell // 16)
    for x, y in sorted(cells):
        if not (0 <= x < COLS and 0 <= y < ROWS):
            continue
        box = (x0 + x * cell + 1, y0 + y * cell + 1, x0 + (x + 1) * cell, y0 + (y + 1) * cell)
        region = img.crop(box)
        region = Image.blend(region, Image.new("RGB", region.size, HILITE), HILITE_ALPHA)
        d = ImageDraw.Draw(region)
        last = cell - 2
        if (x, y - 1) not in cells:
            d.rectangle((0, 0, last, edge - 1), fill=HILITE)
        if (x, y + 1) not in cells:
            d.rectangle((0, last - edge + 1, last, last), fill=HILITE)
        if (x - 1, y) not in cells:
            d.rectangle((0, 0, edge - 1, last), fill=HILITE)
        if (x + 1, y) not in cells:
            d.rectangle((last - edge + 1, 0, last, last), fill=HILITE)
        img.paste(region, box[:2])


# ------------------------------------------------------------------------------------------ words


def _has(key: str, locale: str) -> bool:
    return key in i18n.catalog(i18n.normalize_locale(locale)) or key in i18n.catalog("en")


def _first(keys: tuple[str, ...], locale: str, fallback: str, **params: Any) -> str:
    """The text of the first key a catalog has: the rules' own names (``fp.*``, the words the commands and
    messages use) before the renderer's, then ``fallback``."""
    for key in keys:
        if _has(key, locale):
            return t(key, locale, **params)
    return fallback


def client_name(client_id: str, locale: str) -> str:
    fallback = client_id.replace("_", " ").title()
    return _first((f"fp.client.{client_id}", f"{KEY}client.{client_id}"), locale, fallback)


def kind_name(kind: str, locale: str) -> str:
    return _first((f"fp.kind.{kind}", f"{KEY}kind.{kind}"), locale, kind)


def demand_text(demand_id: str, locale: str, *, short: bool = True) -> str:
    """What a demand asks for: short for images ("Kitchen connected to Dining"), else the rules' full sentence."""
    keys = (f"{KEY}demand.{demand_id}", f"fp.demand.{demand_id}")
    return _first(keys if short else keys[::-1], locale, demand_id)


def demand_short(demand_id: str | None, locale: str) -> str:
    """A demand as written on a note: its client's name and number ("Hosts 1")."""
    if not demand_id:
        return ""
    client, _, number = demand_id.partition(".")
    return f"{client_name(client, locale)} {number}".strip()


def door_bonus_text(client: dict[str, Any], locale: str, *, short: bool = True) -> str:
    bonus = client.get("door_bonus")
    if not bonus:
        return ""
    cid = client.get("id")
    keys = (f"{KEY}door_bonus.{cid}", f"fp.door_bonus.{cid}")
    pts = bonus.get("points", 1)
    generic = t("render.floor_plan.door_bonus.generic", locale, points=pts)
    text = _first(keys if short else keys[::-1], locale, generic, points=pts)
    if bonus.get("max"):  # the cap first: a long bonus text is cut on the image
        return t("render.floor_plan.door_bonus_max", locale, text=text, max=bonus["max"])
    return t("render.floor_plan.door_bonus", locale, text=text)


def bonus_name(bonus: str, locale: str) -> str:
    return _first((f"fp.bonus.{bonus}", f"{KEY}bonus.{bonus}"), locale, bonus.replace("_", " "))


def room_name(rtype: str, locale: str) -> str:
    key = f"{KEY}room.{rtype}"
    return t(key, locale) if _has(key, locale) else rtype


def action_words(action: str, locale: str) -> str:
    """An action in words ("Kitchen 6×4 at F3; scores Collector 2"); text that does not parse as it was."""
    from rules.base import FloorboardError
    from rules.floor_plan import notation

    out = []
    for part in action.split(";"):  # part by part: a round's text may join steps only the log holds together
        try:
            out += [step_words(s, locale) for s in notation.parse(part.strip())]
        except FloorboardError:
            out.append(part.strip())
    return "; ".join(x for x in out if x)


def step_words(step: Any, locale: str) -> str:
    from rules.floor_plan.sheet import FEATURE_KINDS, cell_name

    words = f"{KEY}words."
    if step.verb == "start":
        return t(words + "start", locale, w=step.size[0], h=step.size[1], cell=cell_name(step.cells[0]))
    wild = t(words + "wild", locale, rolled=step.wild[0], read=step.wild[1]) if step.wild else ""
    if step.verb == "room":
        return " + ".join(t(words + "room", locale, room=room_name(r.type, locale), w=r.w, h=r.h,
                            cell=cell_name((r.x, r.y))) for r in step.rooms) + wild
    if step.verb == "features":
        return ", ".join(t(words + "features", locale, count=len(s.cells),
                           kind=t(f"fp.sheet.feature.{FEATURE_KINDS[s.die - 1]}", locale),
                           cells=",".join(cell_name(c) for c in s.cells)) for s in step.sets) + wild
    if step.verb == "doors":
        return t(words + "doors", locale, cells=", ".join(cell_name(c) for c in step.cells))
    if step.verb == "claim":
        return t(words + "claim", locale, demand=demand_short(step.demand, locale))
    if step.verb == "timeout":
        return t(words + "timeout", locale)
    return t(words + "skip", locale)


def points(count: int, locale: str) -> str:
    return t("render.floor_plan.points", locale, count=count)


def seat_name(names: list[str] | None, seat: int, locale: str) -> str:
    raw = names[seat] if names is not None and 0 <= seat < len(names) else None
    return common.display_name(raw, t("render.seat", locale, n=seat + 1))


def highlight_cells(sheet: dict[str, Any], highlight: Iterable[Sequence[int]] | None = None) -> set[Cell]:
    """The cells to overlay: ``highlight`` when given, else the sheet's pending placement."""
    if highlight is None:
        pending = sheet.get("pending") or {}
        highlight = pending.get("cells") or ()
    return _cells(highlight)


# ------------------------------------------------------------------------------------------- sheet


def draw_sheet(
    sheet_view: dict[str, Any],
    *,
    name: str | None = None,
    locale: str = "en",
    highlight: Iterable[Sequence[int]] | None = None,
    scale: float = 1.0,
) -> Image.Image:
    """One player's blueprint as a palette ('P') image: what `render_sheet` encodes."""
    m = metrics(scale)
    img = _sheet_background(scale, sheet_view.get("bubbles_used") is not None).copy()
    x0, y0 = _map_origin(m)
    draw_map(img, x0, y0, m.cell, m.wall, sheet_view)
    cells = highlight_cells(sheet_view, highlight)
    if cells:
        _highlight(img, x0, y0, m.cell, cells)
    _sheet_header(img, sheet_view, name, locale, m, bool(cells), explicit=highlight is not None)
    _sheet_panel(img, sheet_view, locale, m, y0 + m.map_h + m.band + 1)
    return common.to_palette(img, palette())


def render_sheet(
    sheet_view: dict[str, Any],
    *,
    name: str | None = None,
    locale: str = "en",
    highlight: Iterable[Sequence[int]] | None = None,
    scale: float = 1.0,
) -> bytes:
    """PNG bytes of `draw_sheet`."""
    return common.encode_png(draw_sheet(sheet_view, name=name, locale=locale, highlight=highlight, scale=scale))


def _sheet_header(
    img: Image.Image,
    sheet: dict[str, Any],
    name: str | None,
    locale: str,
    m: Metrics,
    preview: bool,
    *,
    explicit: bool = True,
) -> None:
    width = img.width
    seat = int(sheet.get("seat") or 0)
    label = common.display_name(name, t("render.seat", locale, n=seat + 1))
    cy = m.pad + m.title / 2 + 2
    score = t("render.floor_plan.score", locale, score=sheet.get("score", 0))
    sw = common.paste_text(img, (width - m.pad, cy), score, size=m.title, fill=GOLD, bg=BG, align="right")
    common.paste_text(img, (m.pad, cy), label, size=m.title, fill=TEXT, bg=BG, max_width=width - 3 * m.pad - sw)
    pending = sheet.get("pending") or {}
    action = pending.get("action")
    if action:
        # "Preview" for the placement being confirmed; "This round" for the sheet asked for later
        key = "render.floor_plan.preview" if preview and explicit else "render.floor_plan.pending"
        text = t(key, locale, action=action)
        y = m.pad + m.title + m.small
        fill = HILITE if preview else DIM
        d = ImageDraw.Draw(img)
        if preview:
            r = m.small * 0.45
            d.rectangle((m.pad, y - r, m.pad + 2 * r, y + r), fill=HILITE)
            x = m.pad + 2 * r + m.small * 0.5
        else:
            x = m.pad
        common.paste_text(
            img, (x, y), text, size=m.small, fill=fill, bg=BG, weight="Regular", max_width=width - x - m.pad
        )


def _sheet_panel(img: Image.Image, sheet: dict[str, Any], locale: str, m: Metrics, top: int) -> None:
    d = ImageDraw.Draw(img)
    width = img.width
    left, right = m.pad, width - m.pad
    # legend: the room letters and their names
    cy = top + m.legend_h / 2
    x = left + 4
    for rtype in ROOM_TYPES:
        x += common.paste_text(img, (x, cy), rtype, size=m.small, fill=TEXT, bg=BG)
        x += round(m.small * 0.3)
        x += common.paste_text(
            img, (x, cy), room_name(rtype, locale), size=m.small - 2, fill=DIM, bg=BG, weight="Regular"
        )
        x += round(m.small * 0.9)
    # six notes, then the wild
    notes = list(sheet.get("notes") or [])[:6]
    top += m.legend_h
    boxes = 7
    gap = round(m.pad * 0.55)
    bw = (right - left - gap * (boxes - 1)) / boxes
    bh = m.note_h
    radius = max(3, m.cell // 8)
    for i in range(boxes):
        bx = left + i * (bw + gap)
        box = (round(bx), top, round(bx + bw), top + bh)
        d.rounded_rectangle(box, radius=radius, fill=BG_HI)
        cx = (box[0] + box[2]) / 2
        inner = math.floor(bw - m.pad * 0.6)
        if i < len(notes):
            note = notes[i]
            pts = note.get("points")
            if pts is None:
                common.paste_text(
                    img,
                    (cx, top + bh * 0.27),
                    t("render.floor_plan.note_open", locale),
                    size=m.small,
                    fill=DIM,
                    bg=BG_HI,
                    weight="Regular",
                    align="center",
                )
            else:
                common.paste_text(
                    img, (cx, top + bh * 0.24), str(pts), size=round(m.title * 1.2), fill=GOLD, bg=BG_HI, align="center"
                )
                common.paste_text(
                    img,
                    (cx, top + bh * 0.5),
                    demand_short(note.get("demand"), locale),
                    size=m.small - 2,
                    fill=TEXT,
                    bg=BG_HI,
                    weight="Regular",
                    align="center",
                    max_width=inner,
                )
            # the bonus at the foot: dim until unlocked, crossed out once spent
            d.line((box[0] + 6, top + bh * 0.64, box[2] - 6, top + bh * 0.64), fill=BG, width=max(1, m.cell // 25))
            used = bool(note.get("bonus_used"))
            fill = TEXT if pts is not None and not used else DIM
            weight = "Bold" if fill is TEXT else "Regular"
            size = m.small - 2
            lines = _wrap(bonus_name(str(note.get("bonus", "")), locale), size, inner, weight)
            step = size * 1.1
            by = top + bh * 0.82 - step * (len(lines) - 1) / 2
            for line in lines:
                w = common.paste_text(
                    img, (cx, by), line, size=size, fill=fill, bg=BG_HI, weight=weight, align="center", max_width=inner
                )
                if used:
                    d.line((cx - w / 2 - 3, by, cx + w / 2 + 3, by), fill=CROSS, width=max(2, m.cell // 18))
                by += step
        elif i == boxes - 1:
            used = bool(sheet.get("wild_used"))
            common.paste_text(
                img,
                (cx, top + bh * 0.3),
                bonus_name("wild", locale),
                size=round(m.title * 0.9),
                fill=DIM if used else GOLD,
                bg=BG_HI,
                align="center",
                max_width=inner,
            )
            state = t("render.floor_plan.wild_used" if used else "render.floor_plan.wild_ready", locale)
            by = top + bh * 0.72
            w = common.paste_text(
                img,
                (cx, by),
                state,
                size=m.small - 2,
                fill=DIM if used else TEXT,
                bg=BG_HI,
                weight="Regular",
                align="center",
                max_width=inner,
            )
            if used:
                d.line((cx - w / 2 - 3, by, cx + w / 2 + 3, by), fill=CROSS, width=max(2, m.cell // 18))
    # solo: twenty round bubbles
    bubbles = sheet.get("bubbles_used")
    if bubbles is not None:
        cy = top + bh + round(m.cell * 0.65)
        label = t("render.floor_plan.bubbles", locale)
        x = left + 4 + common.paste_text(img, (left + 4, cy), label, size=m.small, fill=TEXT, bg=BG) + m.pad
        size = round(m.cell * 0.56)
        left_n = max(0, 20 - int(bubbles))
        tail = t("render.floor_plan.bubbles_left", locale, count=left_n)
        tail_w = math.ceil(common.text_width(tail, m.small - 2, "Regular"))
        step = min(size + 4, (right - tail_w - m.pad - x) / 20)
        for i in range(20):
            img.paste(bubble_sprite(size, i < bubbles, BG), (round(x + i * step), round(cy - size / 2)))
        common.paste_text(img, (right, cy), tail, size=m.small - 2, fill=DIM, bg=BG, weight="Regular", align="right")


# --------------------------------------------------------------------------------------- thumbnails

THUMB_CELL = 16  # ~290 px wide: three across the summary
BIG_THUMB_CELL = 24  # up to four players: two across, ~420 px wide
THUMB_PAD = 8
THUMB_TITLE = 34


def thumb_size(cell: int = THUMB_CELL) -> tuple[int, int]:
    return COLS * cell + 1 + 2 * THUMB_PAD, THUMB_TITLE + ROWS * cell + 1 + THUMB_PAD


@functools.lru_cache(maxsize=4)
def _thumb_background(cell: int) -> Image.Image:
    img = Image.new("RGB", thumb_size(cell), BG_HI)
    img.paste(_paper(cell), (THUMB_PAD, THUMB_TITLE))
    return img


def draw_thumbnail(
    sheet_view: dict[str, Any],
    *,
    name: str,
    score: int | None = None,
    locale: str = "en",
    cell: int = THUMB_CELL,
) -> Image.Image:
    """A small blueprint (RGB; ~290 px wide at the default ``cell``) with the player's name and score above."""
    img = _thumb_background(cell).copy()
    draw_map(img, THUMB_PAD, THUMB_TITLE, cell, 2 if cell < 20 else 3, sheet_view)
    if score is None:
        score = int(sheet_view.get("score") or 0)
    width = img.width
    cy = THUMB_TITLE / 2
    sw = common.paste_text(
        img, (width - THUMB_PAD, cy), points(score, locale), size=19, fill=GOLD, bg=BG_HI, align="right"
    )
    common.paste_text(img, (THUMB_PAD, cy), name, size=19, fill=TEXT, bg=BG_HI, max_width=width - 24 - sw)
    return img


# ------------------------------------------------------------------------------------------ summary

S_PAD = 22
S_GAP = 16
S_WIDTH = 3 * thumb_size()[0] + 2 * S_GAP + 2 * S_PAD
S_HEADER = 84
CARD_H = 176
LB_ROW = 38
LB_TOP = 20


def _wrap(text: str, size: int, width: float, weight: str = "Regular", lines: int = 2) -> list[str]:
    words, out, cur = text.split(), [], ""
    for word in words:
        cand = f"{cur} {word}".strip()
        if common.text_width(cand, size, weight) <= width or not cur:
            cur = cand
        else:
            out.append(cur)
            cur = word
    if cur:
        out.append(cur)
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    return out


def _ranking(view: dict[str, Any]) -> list[tuple[int, int]]:
    """(rank, seat) best first: by score, ties share a rank."""
    scores = list(view.get("scores") or [])
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out, rank = [], 0
    for i, seat in enumerate(order):
        if i == 0 or scores[seat] != scores[order[i - 1]]:
            rank = i + 1
        out.append((rank, seat))
    return out


def _status_line(view: dict[str, Any], names: list[str] | None, locale: str) -> str:
    if view.get("phase") == "over":
        winners = list((view.get("outcome") or {}).get("winners") or [])
        rating = view.get("rating")
        if view.get("solo") and rating:  # the solo rating from the rulebook's table
            title = _first((f"fp.rating.{rating}",), locale, str(rating).replace("_", " ").title())
            return f"{t('render.floor_plan.game_over', locale)} \u00b7 {title}"
        if len(winners) == 1:
            return t("render.floor_plan.winner", locale, name=seat_name(names, winners[0], locale))
        if winners:
            shown = ", ".join(seat_name(names, s, locale) for s in winners[:6])
            return t("render.floor_plan.shared_win", locale, names=shown)
        return t("render.floor_plan.game_over", locale)
    ending = view.get("ending")
    if ending:
        key = f"{KEY}ending.{ending}"
        if _has(key, locale):
            return t(key, locale)
    return ""


def _title_line(view: dict[str, Any], locale: str) -> str:
    parts = [t("render.floor_plan.title", locale)]
    if view.get("phase") == "setup":
        parts.append(t("render.floor_plan.setup", locale))
    else:
        parts.append(t("render.floor_plan.round", locale, n=view.get("round", 0)))
    parts.append(
        t("render.floor_plan.solo", locale)
        if view.get("solo")
        else t("render.floor_plan.players", locale, count=view.get("players", 0))
    )
    return " \u00b7 ".join(parts)


def _thumb_grid(count: int) -> tuple[int, int]:
    """(columns, cell size) of the thumbnails for ``count`` sheets."""
    if count <= 4:
        return min(count, 2), BIG_THUMB_CELL
    return 3, THUMB_CELL


def _summary_body(view: dict[str, Any], sheets: list[dict[str, Any]] | None) -> tuple[str, int]:
    players = int(view.get("players") or len(view.get("scores") or []))
    if sheets is not None and len(sheets) <= 6:
        cols, cell = _thumb_grid(len(sheets))
        rows = math.ceil(len(sheets) / max(1, cols))
        return "thumbs", rows * thumb_size(cell)[1] + max(0, rows - 1) * S_GAP
    shown = min(20, players)
    more = 1 if players > shown else 0
    return "board", LB_TOP + (shown + 1 + more) * LB_ROW


def draw_summary(
    view: dict[str, Any],
    sheets: list[dict[str, Any]] | None = None,
    *,
    names: list[str] | None = None,
    locale: str = "en",
) -> Image.Image:
    """The public round summary as a palette ('P') image."""
    kind, body_h = _summary_body(view, sheets)
    height = S_HEADER + CARD_H + 18 + body_h + S_PAD
    img = Image.new("RGB", (S_WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    right = S_WIDTH - S_PAD
    # header: title and status on the left, the roll as two dice on the right
    roll = view.get("roll") or []
    x = right
    die = 56
    for value in reversed(roll[:2]):
        x -= die
        img.paste(die_sprite(int(value), die, BG), (x, S_PAD))
        x -= 10
    if roll:
        x -= (
            common.paste_text(
                img,
                (x, S_PAD + die / 2),
                t("render.floor_plan.roll", locale),
                size=22,
                fill=DIM,
                bg=BG,
                weight="Regular",
                align="right",
            )
            + 12
        )
    common.paste_text(
        img, (S_PAD, S_PAD + 14), _title_line(view, locale), size=28, fill=TEXT, bg=BG, max_width=x - S_PAD - 10
    )
    status = _status_line(view, names, locale)
    if not status and view.get("to_move"):
        status = t("render.floor_plan.waiting", locale, count=len(view["to_move"]))
    if status:
        common.paste_text(
            img, (S_PAD, S_PAD + 46), status, size=20, fill=GOLD, bg=BG, weight="Regular", max_width=x - S_PAD - 10
        )
    # the three clients
    top = S_HEADER
    clients = list(view.get("clients") or [])[:3]
    cw = (S_WIDTH - 2 * S_PAD - 2 * 16) / 3
    for i, client in enumerate(clients):
        bx = S_PAD + i * (cw + 16)
        box = (round(bx), top, round(bx + cw), top + CARD_H)
        d.rounded_rectangle(box, radius=10, fill=BG_HI)
        tx, inner = box[0] + 14, cw - 28
        kind_txt = kind_name(str(client.get("kind", "")), locale)
        kw = common.paste_text(
            img, (box[2] - 14, top + 20), kind_txt.upper(), size=15, fill=DIM, bg=BG_HI, weight="Regular", align="right"
        )
        common.paste_text(
            img,
            (tx, top + 20),
            client_name(str(client.get("id", "")), locale),
            size=22,
            fill=TEXT,
            bg=BG_HI,
            max_width=inner - kw - 10,
        )
        y = top + 50
        for demand in list(client.get("demands") or [])[:2]:
            pts = str(demand.get("points", ""))
            pw = common.paste_text(img, (tx, y + 10), pts, size=24, fill=GOLD, bg=BG_HI)
            lines = _wrap(demand_text(str(demand.get("id", "")), locale), 17, inner - 36)
            for j, line in enumerate(lines[:2]):
                common.paste_text(
                    img,
                    (tx + max(pw, 14) + 12, y + 10 + j * 21),
                    line,
                    size=17,
                    fill=TEXT,
                    bg=BG_HI,
                    weight="Regular",
                    max_width=inner - 36,
                )
            y += 56
        bonus = door_bonus_text(client, locale)
        if bonus:
            for j, line in enumerate(_wrap(bonus, 16, inner)[:2]):
                common.paste_text(
                    img, (tx, y + 10 + j * 20), line, size=16, fill=DIM, bg=BG_HI, weight="Regular", max_width=inner
                )
    top += CARD_H + 18
    if kind == "thumbs":
        assert sheets is not None
        scores = list(view.get("scores") or [])
        for i, sheet in enumerate(sheets):
            seat = int(sheet.get("seat", i))
            score = scores[seat] if 0 <= seat < len(scores) else sheet.get("score")
            cols, cell = _thumb_grid(len(sheets))
            name = seat_name(names, seat, locale)
            thumb = draw_thumbnail(sheet, name=name, score=score, locale=locale, cell=cell)
            offset = (S_WIDTH - cols * thumb.width - (cols - 1) * S_GAP) // 2  # centred rows
            col, row = i % cols, i // cols
            img.paste(thumb, (offset + col * (thumb.width + S_GAP), top + row * (thumb.height + S_GAP)))
    else:
        _leaderboard(img, view, names, locale, top)
    return common.to_palette(img, palette())


def _leaderboard(img: Image.Image, view: dict[str, Any], names: list[str] | None, locale: str, top: int) -> None:
    d = ImageDraw.Draw(img)
    left, right = S_PAD, S_WIDTH - S_PAD
    scores = list(view.get("scores") or [])
    done = list(view.get("demands_done") or [])
    rank_x, name_x = left + 44, left + 64
    demands_r, score_r = right - 14, right - 190
    y = top + LB_TOP
    cy = y + LB_ROW / 2
    dim = dict(size=17, fill=DIM, bg=BG, weight="Regular")
    common.paste_text(img, (rank_x, cy), t("render.floor_plan.col.rank", locale), align="right", **dim)
    common.paste_text(img, (name_x, cy), t("render.floor_plan.col.player", locale), **dim)
    common.paste_text(img, (score_r, cy), t("render.floor_plan.col.score", locale), align="right", **dim)
    common.paste_text(img, (demands_r, cy), t("render.floor_plan.col.demands", locale), align="right", **dim)
    y += LB_ROW
    ranking = _ranking(view)
    for i, (rank, seat) in enumerate(ranking[:20]):
        bg = BG_HI if i % 2 == 0 else BG
        if bg is BG_HI:
            d.rectangle((left, y + 2, right, y + LB_ROW - 2), fill=BG_HI)
        cy = y + LB_ROW / 2
        fill = GOLD if rank == 1 else TEXT
        common.paste_text(img, (rank_x, cy), str(rank), size=20, fill=fill, bg=bg, align="right")
        common.paste_text(
            img,
            (name_x, cy),
            seat_name(names, seat, locale),
            size=20,
            fill=fill,
            bg=bg,
            max_width=score_r - name_x - 90,
        )
        common.paste_text(img, (score_r, cy), str(scores[seat]), size=20, fill=fill, bg=bg, align="right")
        count = done[seat] if seat < len(done) else 0
        common.paste_text(img, (demands_r, cy), str(count), size=19, fill=TEXT, bg=bg, weight="Regular", align="right")
        y += LB_ROW
    if len(ranking) > 20:
        common.paste_text(
            img,
            (name_x, y + LB_ROW / 2),
            t("render.floor_plan.more_players", locale, count=len(ranking) - 20),
            size=17,
            fill=DIM,
            bg=BG,
            weight="Regular",
        )


def render_summary(
    view: dict[str, Any],
    sheets: list[dict[str, Any]] | None = None,
    *,
    names: list[str] | None = None,
    locale: str = "en",
) -> bytes:
    """PNG bytes of `draw_summary`: thumbnails of every sheet for up to 6 players, else a top-20 leaderboard."""
    return common.encode_png(draw_summary(view, sheets, names=names, locale=locale))


# --------------------------------------------------------------------------------------- text board


def text_grid(sheet: dict[str, Any], highlight: Iterable[Sequence[int]] | None = None) -> list[str]:
    """The blueprint as lines of text: coordinates on all edges, one character per cell (see `SheetModel.char`),
    the pending placement's cells as ``*`` when they hold nothing else."""
    model = SheetModel.of(sheet)
    lit = highlight_cells(sheet, highlight)
    letters = "    " + " ".join(chr(ord("A") + x) for x in range(COLS))
    out = [letters]
    for y in range(ROWS):
        chars = []
        for x in range(COLS):
            ch = model.char((x, y))
            chars.append("*" if ch == "." and (x, y) in lit else ch)
        out.append(f"{y + 1:>3} {' '.join(chars)} {y + 1}")
    out.append(letters)
    return out


def text_board(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> str:
    """The viewer's blueprint as text, then the roll, the clients with their demands, the notes and the scores."""
    out = [_title_line(view, locale)]
    roll = view.get("roll")
    if roll:
        out.append(f"{t('render.floor_plan.roll', locale)}: {' '.join(str(v) for v in roll)}")
    status = _status_line(view, names, locale)
    if status:
        out.append(status)
    out.append("")
    for client in view.get("clients") or []:
        kind = client.get("kind")
        kind_txt = kind_name(str(kind), locale)
        out.append(f"{client_name(str(client.get('id', '')), locale)} ({kind_txt})")
        for demand in client.get("demands") or []:
            did = str(demand.get("id", ""))
            text = demand_text(did, locale, short=False)
            out.append(f"  {did}: {text} \u2014 {points(int(demand.get('points', 0)), locale)}")
        bonus = door_bonus_text(client, locale, short=False)
        if bonus:
            out.append(f"  {bonus}")
    sheet = view.get("sheet")
    viewer = view.get("viewer")
    out.append("")
    if sheet:
        seat = int(sheet.get("seat", viewer or 0))
        score = t("render.floor_plan.score", locale, score=sheet.get("score", 0))
        out.append(f"{seat_name(names, seat, locale)} \u2014 {score}")
        pending = (sheet.get("pending") or {}).get("action")
        if pending:
            out.append(t("render.floor_plan.pending", locale, action=pending))
        out += text_grid(sheet)
        out.append(t("render.floor_plan.text_legend", locale))
        out.append(" \u00b7 ".join(f"{r} {room_name(r, locale)}" for r in ROOM_TYPES))
        notes = []
        for note in sheet.get("notes") or []:
            pts = note.get("points")
            head = (
                t("render.floor_plan.note_open", locale)
                if pts is None
                else f"{pts} {demand_short(note.get('demand'), locale)}"
            )
            bonus = bonus_name(str(note.get("bonus", "")), locale)
            if note.get("bonus_used"):
                bonus = f"~{bonus}~"
            notes.append(f"[{head} | {bonus}]")
        out.append(f"{t('render.floor_plan.notes', locale)}: {' '.join(notes)}")
        wild = t("render.floor_plan.wild_used" if sheet.get("wild_used") else "render.floor_plan.wild_ready", locale)
        line = f"{bonus_name('wild', locale)}: {wild}"
        bubbles = sheet.get("bubbles_used")
        if bubbles is not None:
            marks = "\u25cf" * int(bubbles) + "\u25cb" * max(0, 20 - int(bubbles))
            line += f" \u00b7 {t('render.floor_plan.bubbles', locale)}: {marks}"
        out.append(line)
    else:
        out.append(t("render.floor_plan.no_sheet", locale))
    out.append("")
    scores = list(view.get("scores") or [])
    done = list(view.get("demands_done") or [])
    ranking = _ranking(view)
    for rank, seat in ranking[:20]:
        you = f" {t('render.you', locale)}" if seat == viewer else ""
        count = done[seat] if seat < len(done) else 0
        out.append(
            f"{rank:>3}. {seat_name(names, seat, locale)}{you} \u2014 {points(scores[seat], locale)}, "
            f"{t('render.floor_plan.demands_done', locale, count=count)}"
        )
    if len(ranking) > 20:
        out.append(t("render.floor_plan.more_players", locale, count=len(ranking) - 20))
    return "\n".join(line.rstrip() for line in out)
