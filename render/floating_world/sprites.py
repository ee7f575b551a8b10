"""Floating World's cached sprites: tokens, dice, hearts, Land and chaos tiles."""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from render import kit
from render.floating_world.model import DEMON_COLOUR, DEMON_LETTER, DEMON_SHAPE, DEMONS, _int, _list, seat_colour
from render.floating_world.palette import (
    BG,
    CHAOS,
    CHAOS_LINE,
    DIE,
    DIE_HI,
    DIE_SIX,
    GATE,
    GATE_EDGE,
    HEART,
    HEART_LOST,
    INK,
    LAND,
    LAND_EDGE,
    PIP,
    SS,
    TORII,
    VOID,
    WHITE,
    paletted,
)
from render.kit import RGB, hex_rgb
from render.kit.paletted import cached_tile

# ------------------------------------------------------------------------------------------ sprites


def _poly(shape: str, c: float, r: float) -> list[tuple[float, float]]:
    if shape == "triangle":
        return [(c, c - r), (c + r * 1.02, c + r * 0.82), (c - r * 1.02, c + r * 0.82)]
    if shape == "fox":  # a fox head: two ears, cheeks, a pointed snout
        pts = [(-0.95, -1.0), (-0.35, -0.5), (0.35, -0.5), (0.95, -1.0), (0.95, 0.05), (0.0, 0.98), (-0.95, 0.05)]
        return [(c + x * r, c + y * r) for x, y in pts]
    if shape == "house":
        pts = [(0.0, -1.0), (0.95, -0.15), (0.8, -0.15), (0.8, 0.9), (-0.8, 0.9), (-0.8, -0.15), (-0.95, -0.15)]
        return [(c + x * r, c + y * r) for x, y in pts]
    h = r * 0.86  # square
    return [(c - h, c - h), (c + h, c - h), (c + h, c + h), (c - h, c + h)]


def _shape(d: ImageDraw.ImageDraw, shape: str, c: float, r: float, fill: RGB, edge: RGB, rim: float) -> None:
    if shape == "circle":
        d.ellipse((c - r, c - r, c + r, c + r), fill=edge)
        d.ellipse((c - r + rim, c - r + rim, c + r - rim, c + r - rim), fill=fill)
        return
    outer = _poly(shape, c, r)
    inner = _poly(shape, c, r - rim * (1.9 if shape == "triangle" else 1.25))
    d.polygon(outer, fill=edge)
    d.polygon(inner, fill=fill)


@functools.lru_cache(maxsize=512)
def token_sprite(kind: str, size: int, bg: RGB, grey: bool = False) -> Image.Image:
    """A ``size``² token on ``bg``: ``oni``/``tengu``/``gaki`` (shape and initial), ``fox<seat>`` (a fox head
    with the seat number) or ``house<seat>`` (a Village's house with the seat number)."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    c, r = big / 2, big * 0.46
    if kind in DEMONS:
        colour, shape, text = DEMON_COLOUR[kind], DEMON_SHAPE[kind], DEMON_LETTER[kind]
        dy = big * 0.11 if shape == "triangle" else 0
        tsize = 0.5 if shape != "triangle" else 0.4
    else:
        seat = _int(kind.removeprefix("fox").removeprefix("house"), 0) or 0
        colour, shape, text = seat_colour(seat), ("fox" if kind.startswith("fox") else "house"), str(seat + 1)
        dy = big * (0.05 if shape == "fox" else 0.12)
        tsize = 0.46 if shape == "fox" else 0.44
    fill, edge, ink = kit.PIECE_COLOURS[colour], kit.piece_outline(colour), kit.mark_ink(colour)
    if grey:
        fill, edge, ink = hex_rgb("8a8f9c"), hex_rgb("4a4e58"), hex_rgb("2a2d33")
    _shape(d, shape, c, r, fill, edge, max(SS * 1.5, r * 0.13))
    face = kit.font(max(8, round(big * tsize)), "Black")
    d.text((c, c + dy), text, font=face, fill=ink, anchor="mm")
    return img.reduce(SS)


DIE_SPOTS = kit.DIE_SPOTS


@functools.lru_cache(maxsize=512)
def die_sprite(value: int, size: int, bg: RGB, style: str = "plain") -> Image.Image:
    """One d6 face with its pips (``style``: ``plain``, ``hi`` for a gold die with a ring, ``six`` for a
    vermilion die with a ring); a value outside 1–6 is written as a number."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    fill = {"hi": DIE_HI, "six": DIE_SIX}.get(style, DIE)
    pip = WHITE if style == "six" else PIP
    inset = SS if style == "plain" else big * 0.1
    if style != "plain":  # a ring around the die: a shape cue, not only a colour
        d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.22, outline=fill, width=round(big * 0.05))
    box = (inset, inset, big - inset, big - inset)
    d.rounded_rectangle(box, radius=(box[2] - box[0]) * 0.18, fill=fill, outline=INK, width=max(SS, big // 28))
    span = box[2] - box[0]
    if value in DIE_SPOTS:
        pr = span * 0.09
        for x, y in DIE_SPOTS[value]:
            px, py = box[0] + span * x, box[1] + span * y
            d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=pip)
    else:
        face = kit.font(max(8, round(span * (0.55 if len(str(value)) < 3 else 0.36))), "Black")
        d.text((big / 2, big / 2), str(value)[:4], font=face, fill=pip, anchor="mm")
    return img.reduce(SS)


@functools.lru_cache(maxsize=64)
def stat_die_sprite(size: int, bg: RGB) -> Image.Image:
    """The small die icon counting a stat's dice: a die seen at an angle (never read as a rolled value)."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    u = big / 10
    top = [(5 * u, 0.6 * u), (9.2 * u, 2.7 * u), (5 * u, 4.8 * u), (0.8 * u, 2.7 * u)]
    left = [(0.8 * u, 2.7 * u), (5 * u, 4.8 * u), (5 * u, 9.4 * u), (0.8 * u, 7.3 * u)]
    right = [(5 * u, 4.8 * u), (9.2 * u, 2.7 * u), (9.2 * u, 7.3 * u), (5 * u, 9.4 * u)]
    d.polygon(left, fill=kit.shade(DIE, 0.78), outline=INK)
    d.polygon(right, fill=kit.shade(DIE, 0.9), outline=INK)
    d.polygon(top, fill=DIE, outline=INK)
    pr = u * 0.62
    for x, y in ((5 * u, 2.7 * u), (2.9 * u, 5.2 * u), (7.1 * u, 7.3 * u)):
        d.ellipse((x - pr, y - pr, x + pr, y + pr), fill=PIP)
    return img.reduce(SS)


@functools.lru_cache(maxsize=64)
def heart_sprite(size: int, bg: RGB, lost: bool) -> Image.Image:
    """A heart: full, or (a Wound taken) hollow with a cross through it."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    pts = []
    for i in range(64):
        a = 2 * math.pi * i / 64
        x = 16 * math.sin(a) ** 3
        y = -(13 * math.cos(a) - 5 * math.cos(2 * a) - 2 * math.cos(3 * a) - math.cos(4 * a))
        pts.append((big / 2 + x * big / 36, big * 0.47 + y * big / 36))
    if lost:
        d.polygon(pts, fill=HEART_LOST)
        inner = [(big / 2 + (x - big / 2) * 0.7, big * 0.47 + (y - big * 0.47) * 0.7) for x, y in pts]
        d.polygon(inner, fill=bg)
        w = round(big * 0.09)
        d.line((big * 0.26, big * 0.22, big * 0.74, big * 0.78), fill=HEART_LOST, width=w)
        d.line((big * 0.74, big * 0.22, big * 0.26, big * 0.78), fill=HEART_LOST, width=w)
    else:
        d.polygon(pts, fill=HEART)
    return img.reduce(SS)


@functools.lru_cache(maxsize=256)
def land_tile(size: int, kind: str, owner: int | None) -> Image.Image:
    """A Land tile with its gap to the grid: ``land`` or ``gate``; a Village rims it in its owner's colour."""
    big = size * SS
    img = Image.new("RGB", (big, big), VOID)
    d = ImageDraw.Draw(img)
    g = big * 0.04
    box = (g, g, big - g, big - g)
    rad = big * 0.09
    fill, edge = (GATE, GATE_EDGE) if kind == "gate" else (LAND, LAND_EDGE)
    if owner is not None:
        edge = kit.PIECE_COLOURS[seat_colour(owner)]
    rim = max(SS * 2, big * (0.075 if owner is not None else 0.025))
    d.rounded_rectangle(box, radius=rad, fill=edge)
    d.rounded_rectangle((box[0] + rim, box[1] + rim, box[2] - rim, box[3] - rim), radius=max(1, rad - rim),
                        fill=fill)
    if kind == "gate":
        i = rim + big * 0.035
        d.rounded_rectangle((box[0] + i, box[1] + i, box[2] - i, box[3] - i), radius=max(1, rad - i),
                            outline=GATE_EDGE, width=max(SS, round(big * 0.012)))
        # a torii behind the tokens: two posts, the kasagi and the nuki
        cx, w = big / 2, big * 0.5
        top = big * 0.2
        d.rectangle((cx - w * 0.34, top + big * 0.06, cx - w * 0.24, big * 0.74), fill=TORII)
        d.rectangle((cx + w * 0.24, top + big * 0.06, cx + w * 0.34, big * 0.74), fill=TORII)
        d.polygon([(cx - w * 0.58, top - big * 0.02), (cx + w * 0.58, top - big * 0.02),
                   (cx + w * 0.5, top + big * 0.06), (cx - w * 0.5, top + big * 0.06)], fill=TORII)
        d.rectangle((cx - w * 0.46, top + big * 0.16, cx + w * 0.46, top + big * 0.21), fill=TORII)
    return img.reduce(SS)


@functools.lru_cache(maxsize=64)
def chaos_tile(size: int) -> Image.Image:
    """An empty space next to a Land: a faint dotted square."""
    big = size * SS
    img = Image.new("RGB", (big, big), VOID)
    d = ImageDraw.Draw(img)
    g = big * 0.06
    d.rounded_rectangle((g, g, big - g, big - g), radius=big * 0.09, fill=CHAOS)
    step = max(3 * SS, big / 14)
    r = max(SS * 0.6, big * 0.008)
    pos = g + big * 0.05
    while pos < big - g - big * 0.05:
        for x, y in ((pos, g + r * 2), (pos, big - g - r * 2), (g + r * 2, pos), (big - g - r * 2, pos)):
            d.ellipse((x - r, y - r, x + r, y + r), fill=CHAOS_LINE)
        pos += step
    return img.reduce(SS)


def dice_faces(
    values: list[int] | tuple[int, ...], size: int, *, bg: RGB = BG, highlight: dict[int, str] | None = None,
    gap: int | None = None,
) -> Image.Image:
    """A row of d6 faces (RGB, ``bg`` between them); ``highlight`` maps an index to a die style (``hi``,
    ``six``). An empty row is a 1×``size`` strip."""
    vals = [_int(v, 0) or 0 for v in _list(values)]
    gap = max(2, size // 6) if gap is None else gap
    width = max(1, len(vals) * (size + gap) - gap)
    img = Image.new("RGB", (width, size), bg)
    for i, v in enumerate(vals):
        style = (highlight or {}).get(i, "plain")
        img.paste(die_sprite(v, size, bg, style), (i * (size + gap), 0))
    return img


# ------------------------------------------------------------------------------------ 'P' tiles of the map
# The sprites above remapped once onto the palette and cached: the map pastes them into its 'P' image.

p_token = cached_tile(paletted, 512)(token_sprite)
p_stat_die = cached_tile(paletted, 64)(stat_die_sprite)
p_heart = cached_tile(paletted, 64)(heart_sprite)
p_land = cached_tile(paletted, 256)(land_tile)
p_chaos = cached_tile(paletted, 64)(chaos_tile)
p_mark = cached_tile(paletted, 128)(kit.mark_sprite)


@functools.lru_cache(maxsize=512)
def p_dice_faces(values: tuple[int, ...], size: int, bg: RGB) -> Image.Image:
    """`dice_faces` (plain dice) as a 'P' tile."""
    return paletted().tile(dice_faces(values, size, bg=bg))


@functools.lru_cache(maxsize=512)
def p_dice_row(values: tuple[int, ...], size: int, bg: RGB, highlight: tuple[tuple[int, str], ...]) -> Image.Image:
    """`dice_faces` with its ``highlight`` (as sorted pairs) as a 'P' tile."""
    return paletted().tile(dice_faces(values, size, bg=bg, highlight=dict(highlight)))

