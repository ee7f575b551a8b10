"""Floor Plan's cached tiles and sprites: rooms with walls, doors and windows, features, dice, bubbles."""

from __future__ import annotations

import functools
import math
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.floor_plan.model import (
    BAND,
    BG,
    BG_HI,
    CROSS,
    DECK,
    DECK_LINE,
    DIE,
    DIM,
    DOOR,
    FURN,
    GOLD,
    GRID,
    HATCH,
    HILITE,
    HILITE_ALPHA,
    INK,
    LEAF,
    LEAF_DARK,
    LEAF_LIGHT,
    PANE,
    PAPER,
    PIP,
    ROOM_BASE,
    ROOM_TINT,
    STONE,
    STONE_DARK,
    TEXT,
    TRUNK,
    WALL,
    WATER,
    WAVE,
    Cell,
    E,
    N,
    S,
    SheetModel,
    W,
)
from render.kit import RGB
from render.kit.paletted import Paletted

# ------------------------------------------------------------------------------------------ sprites

SS = kit.SUPERSAMPLE


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
    grid_in = kit.shade(tint, 0.86)
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
        kit.paste_text(img, (cell / 2, cell / 2), letter, size=size, fill=WALL, bg=tint, align="center")
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
    spots = kit.DIE_SPOTS
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
def paletted() -> Paletted:
    """The palette with its indices and 'P' text tiles: the images are drawn in it from start to end."""
    return Paletted(palette())


def ink(colour: RGB) -> int:
    """The palette index of a palette colour (for `ImageDraw` on the 'P' images)."""
    return paletted().ink(colour)


def p_tile(tile: Image.Image) -> Image.Image:
    """A cached RGB tile remapped onto the palette (cache the result: see the ``p_*`` functions)."""
    return paletted().tile(tile)


@functools.lru_cache(maxsize=2048)
def p_room_tile(*args: Any) -> Image.Image:
    return p_tile(room_tile(*args))


@functools.lru_cache(maxsize=64)
def p_feature_tiles(cell: int) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """Water, deck, stone and tree as 'P' tiles, cropped as the map pastes them (see `draw_map`)."""
    return (p_tile(water_tile(cell)), p_tile(deck_tile(cell).crop((0, 0, cell - 1, cell - 1))),
            p_tile(stone_tile(cell).crop((1, 1, cell, cell))), p_tile(tree_tile(cell).crop((1, 1, 3 * cell, 3 * cell))))


@functools.lru_cache(maxsize=64)
def p_die(value: int, size: int, bg: RGB) -> Image.Image:
    return p_tile(die_sprite(value, size, bg))


@functools.lru_cache(maxsize=64)
def p_bubble(size: int, used: bool, bg: RGB) -> Image.Image:
    return p_tile(bubble_sprite(size, used, bg))


def paste_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    *,
    size: int,
    fill: RGB,
    bg: RGB,
    weight: str = "Bold",
    align: str = "left",
    max_width: float | None = None,
) -> int:
    """`render.kit.paste_text` onto a 'P' image of this palette, from cached 'P' text tiles."""
    return kit.paste_text(img, xy, text, size=size, fill=fill, bg=bg, weight=weight, align=align,
                          max_width=max_width, tiles=paletted().text_tile)


@functools.cache
def palette() -> Image.Image:
    pal = kit.Palette()
    flat = [BG, BG_HI, PAPER, GRID, BAND, HATCH, WALL, TEXT, DIM, GOLD, INK, DOOR, PANE, FURN, CROSS]
    flat += [LEAF, LEAF_DARK, LEAF_LIGHT, TRUNK, DECK, DECK_LINE, STONE, STONE_DARK, WATER, WAVE, DIE, PIP]
    flat += list(ROOM_TINT.values()) + [kit.shade(c, 0.86) for c in ROOM_TINT.values()]
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
        pal.add(kit.blend(colour, HILITE, HILITE_ALPHA))
    for colour in ROOM_TINT.values():
        pal.add(kit.blend(colour, HILITE, HILITE_ALPHA), kit.blend(WALL, HILITE, HILITE_ALPHA))
    pal.add(HILITE)
    return pal.image()
