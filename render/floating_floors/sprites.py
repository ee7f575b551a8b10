"""Floating Floors' cached sprites: Jutsu, ninjas, Bansen, dice, cards, boards and the overlay marks."""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFilter

from render import kit
from render.floating_floors.model import FOOT, kind_parts, seat_colour
from render.floating_floors.palette import (
    BAD,
    DIE,
    DIM,
    FRAME,
    GHOST,
    GOLD,
    INK,
    J_BLACK,
    J_BLACK_EDGE,
    J_WHITE,
    J_WHITE_EDGE,
    LAND,
    LAND_LINE,
    LIGHT,
    N_LIGHT,
    N_SHADOW,
    OK,
    SEAL,
    SHADOW,
    SS,
    UNKNOWN,
    WATER,
    WAVE,
    WHITE,
    WOOD,
    WOOD_DARK,
)
from render.kit import RGB
from render.kit.scene import meets

# ------------------------------------------------------------------------------------------- sprites


def _dashed(d: ImageDraw.ImageDraw, pts: list[tuple[float, float]], fill: RGB, width: float, dash: float,
            closed: bool = True) -> None:
    """A dashed polyline (closed when ``closed``): dashes and gaps of ``dash`` pixels."""
    path = [*pts, pts[0]] if closed and len(pts) > 2 else pts
    on, left = True, dash
    for (x0, y0), (x1, y1) in itertools.pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while pos < seg - 1e-9:
            step = min(left, seg - pos)
            if on:
                a, b = pos / seg, (pos + step) / seg
                d.line([(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)],
                       fill=fill, width=max(1, round(width)))
            pos += step
            left -= step
            if left <= 1e-9:
                on, left = not on, dash


def jutsu_points(shape: str, cx: float, cy: float, unit: float) -> list[tuple[float, float]]:
    """The footprint's corners around (cx, cy) (the centroid), ``unit`` pixels per space."""
    size = FOOT.get(shape, 0.5) * unit
    if shape == "triangle":
        h = size * math.sqrt(3) / 2
        return [(cx, cy - 2 * h / 3), (cx + size / 2, cy + h / 3), (cx - size / 2, cy + h / 3)]
    if shape == "hexagon":
        rad, h = size / math.sqrt(3), size / 2
        return [(cx - rad, cy), (cx - rad / 2, cy - h), (cx + rad / 2, cy - h), (cx + rad, cy),
                (cx + rad / 2, cy + h), (cx - rad / 2, cy + h)]
    h = size / 2
    return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]


def _jutsu_colours(colour: str) -> tuple[RGB, RGB]:
    return (J_BLACK, J_BLACK_EDGE) if colour == "black" else (J_WHITE, J_WHITE_EDGE)


def _rgba(size: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


@functools.lru_cache(maxsize=128)
def jutsu_sprite(colour: str, shape: str, unit: int, ghost: bool = False) -> Image.Image:
    """An RGBA tile (``unit``×``unit``, the footprint's centroid at its centre): solid, or a dashed ghost."""
    img, d = _rgba(unit)
    big = unit * SS
    fill, edge = _jutsu_colours(colour)
    pts = jutsu_points(shape, big / 2, big / 2, big)
    if ghost:
        _dashed(d, pts, (*GHOST, 255), max(SS * 1.6, big * 0.03), big * 0.07)
        r = big * 0.07
        d.ellipse((big / 2 - r, big / 2 - r, big / 2 + r, big / 2 + r), fill=(*fill, 255),
                  outline=(*edge, 255), width=max(SS, round(big * 0.018)))
    else:
        d.polygon(pts, fill=(*fill, 255), outline=(*edge, 255), width=max(SS * 2, round(big * 0.035)))
    return img.reduce(SS)


def _paste(img: Image.Image, tile: Image.Image, cx: float, cy: float) -> None:
    """Paste an RGBA tile centred on (cx, cy), blending its edges into what is there."""
    img.paste(tile, (round(cx - tile.width / 2), round(cy - tile.height / 2)), tile)


MEEPLE = [(-0.22, -0.3), (0.22, -0.3), (0.78, -0.08), (0.8, 0.12), (0.36, 0.1), (0.56, 0.86), (0.14, 0.86),
          (0.0, 0.5), (-0.14, 0.86), (-0.56, 0.86), (-0.36, 0.1), (-0.8, 0.12), (-0.78, -0.08)]


@functools.lru_cache(maxsize=64)
def ninja_sprite(colour: str, seat: int, size: int, current: bool) -> Image.Image:
    """An RGBA ninja token: a meeple in light or shadow on its seat's disc, the seat number as a badge."""
    img, d = _rgba(size)
    big = size * SS
    c = big / 2
    seat_fill = kit.PIECE_COLOURS[seat_colour(seat)]
    edge = kit.piece_outline(seat_colour(seat))
    r = big * (0.4 if current else 0.44)
    if current:
        d.ellipse((c - big * 0.49, c - big * 0.49, c + big * 0.49, c + big * 0.49), fill=(*GOLD, 255))
        d.ellipse((c - r - SS * 2, c - r - SS * 2, c + r + SS * 2, c + r + SS * 2), fill=(*N_SHADOW, 255))
    d.ellipse((c - r, c - r, c + r, c + r), fill=(*edge, 255))
    rim = max(SS * 1.5, r * 0.08)
    d.ellipse((c - r + rim, c - r + rim, c + r - rim, c + r - rim), fill=(*seat_fill, 255))
    body, line = (N_LIGHT, N_SHADOW) if colour == "light" else (N_SHADOW, N_LIGHT)
    mask = Image.new("L", img.size, 0)
    md = ImageDraw.Draw(mask)
    u = r * 0.62
    cy = c + r * 0.06
    md.polygon([(c + x * u, cy + y * u) for x, y in MEEPLE], fill=255)
    hr = u * 0.34
    md.ellipse((c - hr, cy - u * 0.62 - hr, c + hr, cy - u * 0.62 + hr), fill=255)
    outline = mask.filter(ImageFilter.MaxFilter(2 * max(1, round(SS * 0.9)) + 1))
    img.paste(line, (0, 0), outline)
    img.paste(body, (0, 0), mask)
    d.rectangle((c - hr * 0.8, cy - u * 0.66, c + hr * 0.8, cy - u * 0.54), fill=(*seat_fill, 255))  # the mask slit
    tile = img.reduce(SS)
    badge = kit.number_sprite(seat_colour(seat), seat + 1, max(10, round(size * 0.36)), edge)
    tile.paste(badge, (size - badge.width, size - badge.height), badge)
    return tile


def _arrow(d: ImageDraw.ImageDraw, c: float, r: float, direction: str, fill: RGB, width: float) -> None:
    """A curved arrow around (c, c): clockwise ↻ or counter-clockwise ↺ as seen on the image."""
    sign = 1 if direction == "cw" else -1
    a0, a1 = math.radians(-70), math.radians(200)
    steps = 28
    pts = []
    for i in range(steps + 1):
        a = a0 + (a1 - a0) * i / steps
        pts.append((c + sign * r * math.cos(a), c + r * math.sin(a)))
    d.line(pts, fill=fill, width=max(1, round(width)), joint="curve")
    ex, ey = pts[-1]
    tx, ty = -sign * math.sin(a1), math.cos(a1)  # the direction of travel at the end
    nx, ny = -ty, tx
    head = width * 2.1
    d.polygon([(ex + tx * head * 1.2, ey + ty * head * 1.2), (ex + nx * head, ey + ny * head),
               (ex - nx * head, ey - ny * head)], fill=fill)


@functools.lru_cache(maxsize=128)
def bansen_sprite(seat: int | None, direction: str, number: int | None, size: int, bg: RGB,
                  hollow: bool = False) -> Image.Image:
    """A Bansen seal (RGB on ``bg``): parchment ringed in its owner's colour with the owner's mark, the arrow of
    its direction and its number; ``hollow`` draws a dashed empty ring (a seal still to claim)."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    c = big / 2
    r = big * 0.44
    if hollow:
        pts = [(c + r * math.cos(a / 24 * 2 * math.pi), c + r * math.sin(a / 24 * 2 * math.pi)) for a in range(24)]
        _dashed(d, pts, DIM, SS * 1.5, big * 0.09)
        return img.reduce(SS)
    ring = kit.PIECE_COLOURS[seat_colour(seat)] if seat is not None else UNKNOWN
    d.ellipse((c - r, c - r, c + r, c + r), fill=ring)
    inner = r * 0.78
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=SEAL)
    if direction:
        _arrow(d, c, inner * 0.66, direction, INK, inner * 0.12)
    if number is not None:
        face = kit.font(max(6, round(big * 0.3)), "Black")
        d.text((c, c + big * 0.01), str(number), font=face, fill=INK, anchor="mm")
    tile = img.reduce(SS)
    if seat is not None:
        mark = kit.disc_sprite(seat_colour(seat), max(8, round(size * 0.42)), bg, diameter=0.92)
        tile.paste(mark, (0, 0))
    return tile


@functools.lru_cache(maxsize=64)
def die_sprite(kind: str, size: int, bg: RGB, dim: bool) -> Image.Image:
    """A die showing a Jutsu kind: an ivory rounded square with the shape in black or white; dimmed once taken."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    inset = SS
    d.rounded_rectangle((inset, inset, big - inset, big - inset), radius=big * 0.2, fill=DIE, outline=J_WHITE_EDGE,
                        width=max(SS, big // 26))
    parts = kind_parts(kind)
    if parts:
        colour, shape = parts
        fill, edge = _jutsu_colours(colour)
        cy = big * (0.54 if shape == "triangle" else 0.5)
        d.polygon(jutsu_points(shape, big / 2, cy, big * 1.15), fill=fill, outline=edge, width=round(big * 0.04))
    tile = img.reduce(SS)
    return Image.blend(tile, Image.new("RGB", tile.size, bg), 0.62) if dim else tile


@functools.lru_cache(maxsize=16)
def swatch_sprite(light: frozenset[tuple[int, int]], size: int, bg: RGB) -> Image.Image:
    """The top board of the deck as a tiny 3×3 pattern (light cells cream, others charcoal) with a wood rim."""
    img = Image.new("RGB", (size, size), bg)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, size - 1, size - 1), fill=WOOD)
    cell = (size - 4) / 3
    for r in range(3):
        for c in range(3):
            x, y = 2 + c * cell, 2 + r * cell
            d.rectangle((round(x), round(y), round(x + cell) - 1, round(y + cell) - 1),
                        fill=LIGHT if (c, r) in light else SHADOW)
    return img


@functools.lru_cache(maxsize=64)
def card_tile(mask: str, unit: int) -> Image.Image:
    """A terrain card (RGB, 3×3 spaces on the frame's colour): land flat green, water blue with a wave."""
    size = unit * 3
    big = size * SS
    img = Image.new("RGB", (big, big), FRAME)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.025, fill=LAND_LINE)
    u = unit * SS
    gap = SS
    for i, ch in enumerate(mask):
        c, r = i % 3, i // 3
        box = (c * u + gap, r * u + gap, (c + 1) * u - gap, (r + 1) * u - gap)
        fill = {"L": LAND, "W": WATER}.get(ch, UNKNOWN)
        d.rectangle(box, fill=fill)
        if ch == "W":
            for k, fy in enumerate((0.36, 0.64)):
                pts = []
                for s in range(25):
                    fx = 0.2 + 0.6 * s / 24
                    pts.append((box[0] + fx * u, box[1] + fy * u + math.sin(fx * 4 * math.pi + k) * u * 0.04))
                d.line(pts, fill=WAVE, width=max(SS, round(u * 0.035)), joint="curve")
    return img.reduce(SS)


def board_sprite(pattern: str, unit: int, unstable: bool) -> tuple[Image.Image, int]:
    """A floorboard (RGBA) with its drop shadow: (tile, pad) where the board's top-left is at (pad, pad). The board
    without its cells is drawn and reduced once a size (`_blank_board`), with each cell's patch in each fill: a
    pattern pastes its nine patches, the very pixels of the whole board drawn and reduced. ~0.05 ms (it was ~7 ms,
    then ~0.5, and 64, then 16 of ~200 KB were kept): not kept here, the map keeps what it pastes."""
    blank = _blank_board(unit, unstable)
    tile = blank.tile.copy()
    for ch, patches in zip(pattern, blank.patches, strict=True):
        patch, at = patches[_CELL_FILLS.get(ch, WOOD)]
        tile.paste(patch, at)
    return tile, blank.pad


_CELL_FILLS = {"L": LIGHT, "S": SHADOW}  # any other character: an unknown cell, in the board's wood


@dataclass(frozen=True)
class _BlankBoard:
    tile: Image.Image  # the board without its cells' colours, reduced (RGBA), shadow and all
    patches: tuple[dict[RGB, tuple[Image.Image, tuple[int, int]]], ...]  # per cell, per fill: (reduced, where)
    pad: int


@dataclass(frozen=True)
class _BoardGeometry:
    """A floorboard's measures at SS: the tile's side, the board's offset in it and side, its rim, a cell's side and
    the line between cells."""

    unit: int
    pad: int
    big: int
    p: int
    s: int
    rim: int
    u: float
    line: int

    def cell(self, i: int) -> tuple[float, float, float, float]:
        """Cell ``i``'s rectangle (row by row from the top left)."""
        x0, y0 = self.p + self.rim + i % 3 * self.u, self.p + self.rim + i // 3 * self.u
        return x0 + self.line, y0 + self.line, x0 + self.u - self.line, y0 + self.u - self.line


def _board_geometry(unit: int) -> _BoardGeometry:
    size = unit * 3
    pad = max(4, round(unit * 0.14))
    s = size * SS
    rim = max(3, round(unit * 0.07)) * SS
    line = max(SS, round(SS * 1.2))
    return _BoardGeometry(unit, pad, (size + 2 * pad) * SS, pad * SS, s, rim, (s - 2 * rim) / 3, line)


def _draw_wood(d: ImageDraw.ImageDraw, g: _BoardGeometry) -> None:
    """The drop shadow, the board's wood and the dark square its cells sit in."""
    p, s = g.p, g.s
    off = round(g.unit * 0.09) * SS
    d.rounded_rectangle((p + off, p + off, p + s + off, p + s + off), radius=s * 0.03, fill=(0, 0, 0, 110))
    d.rounded_rectangle((p, p, p + s, p + s), radius=s * 0.03, fill=(*WOOD, 255))
    d.rectangle((p + g.rim, p + g.rim, p + s - g.rim, p + s - g.rim), fill=(*WOOD_DARK, 255))


def _draw_unstable_dash(d: ImageDraw.ImageDraw, g: _BoardGeometry) -> None:
    """An unstable board's red dashes, along the middle of its rim."""
    p, s, h = g.p, g.s, g.rim / 2
    _dashed(d, [(p + h, p + h), (p + s - h, p + h), (p + s - h, p + s - h), (p + h, p + s - h)],
            (*BAD, 255), g.rim * 0.9, g.unit * SS * 0.22)


@functools.lru_cache(maxsize=4)  # ~0.7 MB each; one scale serves every map of 2–4 players, stable or not
def _blank_board(unit: int, unstable: bool) -> _BlankBoard:
    """A board's drawing without its cells' colours, reduced, and each cell's patch in each fill, once a size.

    A reduced pixel is the mean of its SS×SS block. The cells are boxes on opaque wood (an RGBA reduction there is
    a plain mean: reducing as RGB gives the same pixels) whose blocks never reach another cell (the lines between
    cells are wider than a block): the blocks around cell i depend on its fill alone, so its patch, reduced once a
    fill, is the whole board's pixels there whatever the other cells hold. The unstable dash runs on the rim, outside
    every cell's blocks."""
    g = _board_geometry(unit)
    img = Image.new("RGBA", (g.big, g.big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    _draw_wood(d, g)
    if unstable:
        _draw_unstable_dash(d, g)
    tile = img.reduce(SS)
    patches, taken = [], []
    for i in range(9):
        mask = Image.new("L", (g.big, g.big), 0)  # drawn where the board is drawn: the same pixels as its rectangle
        ImageDraw.Draw(mask).rectangle(g.cell(i), fill=255)
        cell = mask.getbbox()
        if cell is None or mask.crop(cell).getextrema() != (255, 255):
            raise AssertionError(f"a board's cell is not a filled box at unit {unit}")
        blocks = (cell[0] // SS * SS, cell[1] // SS * SS, -(-cell[2] // SS) * SS, -(-cell[3] // SS) * SS)
        if img.getchannel("A").crop(blocks).getextrema() != (255, 255) or any(meets(blocks, b) for b in taken):
            raise AssertionError(f"a board's cell's blocks are not its own on opaque wood at unit {unit}")
        taken.append(blocks)
        around = img.crop(blocks).convert("RGB")
        inside = (cell[0] - blocks[0], cell[1] - blocks[1], cell[2] - blocks[0], cell[3] - blocks[1])
        at = (blocks[0] // SS, blocks[1] // SS)
        fills = {}
        for colour in (*_CELL_FILLS.values(), WOOD):
            patch = around.copy()
            patch.paste(colour, inside)
            fills[colour] = (patch.reduce(SS), at)
        patches.append(fills)
    return _BlankBoard(tile, tuple(patches), g.pad)



@functools.lru_cache(maxsize=8)
def warning_sprite(size: int) -> Image.Image:
    """The "!" tag of an unstable board: a red triangle with a white "!" (RGBA)."""
    img, d = _rgba(size)
    big = size * SS
    pts = [(big / 2, big * 0.06), (big * 0.96, big * 0.9), (big * 0.04, big * 0.9)]
    d.polygon(pts, fill=(*BAD, 255), outline=(*WHITE, 255), width=max(SS, round(big * 0.06)))
    face = kit.font(round(big * 0.55), "Black")
    d.text((big / 2, big * 0.62), "!", font=face, fill=(*WHITE, 255), anchor="mm")
    return img.reduce(SS)


@functools.lru_cache(maxsize=8)
def centre_sprite(size: int, stable: bool) -> Image.Image:
    """The centre of mass (RGBA): a ringed cross when stable, an × when not, both with a white halo."""
    img, d = _rgba(size)
    big = size * SS
    c = big / 2
    colour = OK if stable else BAD
    w = big * 0.1
    if stable:
        r = big * 0.28
        for ink, extra in ((WHITE, w * 0.9), (colour, 0.0)):
            d.ellipse((c - r - extra / 2, c - r - extra / 2, c + r + extra / 2, c + r + extra / 2),
                      outline=(*ink, 255), width=round(w + extra))
            d.line((c, big * 0.04, c, big * 0.96), fill=(*ink, 255), width=round(w * 0.7 + extra))
            d.line((big * 0.04, c, big * 0.96, c), fill=(*ink, 255), width=round(w * 0.7 + extra))
        d.ellipse((c - w, c - w, c + w, c + w), fill=(*colour, 255))
    else:
        a, b = big * 0.14, big * 0.86
        for ink, width in ((WHITE, w * 2.4), (colour, w * 1.3)):
            d.line((a, a, b, b), fill=(*ink, 255), width=round(width))
            d.line((a, b, b, a), fill=(*ink, 255), width=round(width))
    return img.reduce(SS)
