"""The kit's marks and sprites: piece shapes, discs, numbered pieces, die pips, drawn at 4× and reduced."""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from render.kit.colours import PIECE_COLOURS, RGB, mark_ink, piece_outline
from render.kit.fonts import font

# A distinct shape per colour, so that no one has to tell the colours apart.
PIECE_MARKS: dict[str, str] = {
    "red": "triangle",
    "yellow": "diamond",
    "blue": "square",
    "green": "plus",
    "black": "star",
    "orange": "ring",
    "sky": "cross",
    "purple": "hexagon",
}
MARK_SHAPES = (
    "triangle",
    "diamond",
    "square",
    "plus",
    "star",
    "ring",
    "cross",
    "hexagon",
    "dot",
    "play",
    "check",
)


# ------------------------------------------------------------------------------------------ sprites

SUPERSAMPLE = 4


def draw_mark(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill: RGB) -> None:
    """Draw a mark of radius ``r`` centred on (cx, cy): one of `MARK_SHAPES`."""
    if shape == "triangle":
        dy = r * 0.14  # the centroid sits low in a triangle; lift the box to look centred
        pts = [(cx, cy - r + dy), (cx + r * 0.92, cy + r * 0.62 + dy), (cx - r * 0.92, cy + r * 0.62 + dy)]
        draw.polygon(pts, fill=fill)
    elif shape == "diamond":
        draw.polygon([(cx, cy - r), (cx + r * 0.78, cy), (cx, cy + r), (cx - r * 0.78, cy)], fill=fill)
    elif shape == "square":
        h = r * 0.74
        draw.rectangle((cx - h, cy - h, cx + h, cy + h), fill=fill)
    elif shape == "plus":
        w, h = r * 0.3, r * 0.92
        draw.rectangle((cx - w, cy - h, cx + w, cy + h), fill=fill)
        draw.rectangle((cx - h, cy - w, cx + h, cy + w), fill=fill)
    elif shape == "cross":
        w, h = r * 0.3, r * 0.92
        for sx in (1, -1):
            pts = [(-h, -w), (h, -w), (h, w), (-h, w)]
            c, s = math.cos(math.pi / 4 * sx), math.sin(math.pi / 4 * sx)
            draw.polygon([(cx + x * c - y * s, cy + x * s + y * c) for x, y in pts], fill=fill)
    elif shape == "star":
        pts = []
        for i in range(10):
            rad = r * 1.05 if i % 2 == 0 else r * 0.45
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((cx + rad * math.cos(a), cy + r * 0.06 + rad * math.sin(a)))
        draw.polygon(pts, fill=fill)
    elif shape == "hexagon":
        draw.regular_polygon((cx, cy, r * 0.9), 6, fill=fill)
    elif shape == "ring":
        draw.ellipse(
            (cx - r * 0.82, cy - r * 0.82, cx + r * 0.82, cy + r * 0.82), outline=fill, width=round(r * 0.3)
        )
    elif shape == "play":  # a right-pointing triangle: "this one's turn"
        draw.polygon([(cx - r * 0.62, cy - r), (cx + r * 0.95, cy), (cx - r * 0.62, cy + r)], fill=fill)
    elif shape == "check":
        pts = [(cx - r * 0.85, cy + r * 0.05), (cx - r * 0.25, cy + r * 0.65), (cx + r * 0.9, cy - r * 0.7)]
        draw.line(pts, fill=fill, width=max(1, round(r * 0.36)), joint="curve")
    elif shape == "dot":
        draw.ellipse((cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5), fill=fill)
    else:
        raise ValueError(f"unknown mark shape {shape!r}")


@functools.cache
def disc_sprite(
    colour: str, size: int, bg: RGB, *, diameter: float = 0.8, shadow: RGB | None = None
) -> Image.Image:
    """A ``size``×``size`` RGB tile: a disc of a piece colour with its mark, anti-aliased onto ``bg``.

    ``diameter`` is a fraction of the tile; ``shadow`` (a darker tone of ``bg``) adds a crisp drop shadow.
    Drawn at 4× and box-reduced, once per argument set.
    """
    s = SUPERSAMPLE
    big = size * s
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    fill = PIECE_COLOURS[colour]
    radius = big * diameter / 2
    c = big / 2
    if shadow is not None:
        off = big * 0.035
        d.ellipse(
            (c - radius + off * 0.4, c - radius + off, c + radius + off * 0.4, c + radius + off), fill=shadow
        )
    d.ellipse((c - radius, c - radius, c + radius, c + radius), fill=piece_outline(colour))
    rim = max(s * 2, radius * 0.08)
    d.ellipse((c - radius + rim, c - radius + rim, c + radius - rim, c + radius - rim), fill=fill)
    draw_mark(d, PIECE_MARKS[colour], c, c, radius * 0.46, mark_ink(colour))
    return img.reduce(s)


def sprite_colours(colour: str, bg: RGB, shadow: RGB | None = None) -> list[tuple[RGB, RGB, int]]:
    """The colour pairs a `disc_sprite` blends, with a ramp length each, for the palette."""
    fill, outline = PIECE_COLOURS[colour], piece_outline(colour)
    pairs = [(outline, bg, 3), (fill, outline, 3), (mark_ink(colour), fill, 3)]
    if shadow is not None:
        pairs += [(outline, shadow, 3), (shadow, bg, 1)]
    return pairs


@functools.cache
def mark_sprite(shape: str, size: int, fg: RGB, bg: RGB, scale: float = 0.42) -> Image.Image:
    """A ``size``×``size`` RGB tile of one mark shape in ``fg`` on ``bg``, anti-aliased (UI icons)."""
    s = SUPERSAMPLE
    big = size * s
    img = Image.new("RGB", (big, big), bg)
    draw_mark(ImageDraw.Draw(img), shape, big / 2, big / 2, big * scale, fg)
    return img.reduce(s)


@functools.cache
def number_sprite(colour: str, number: int, size: int, bg: RGB) -> Image.Image:
    """A ``size``×``size`` RGBA step badge: a disc of a piece colour with ``number`` in the disc's mark ink.

    Its alpha is the disc, so it can be pasted (as its own mask) over a piece as well as onto ``bg``, the
    colour its edge is anti-aliased against."""
    s = SUPERSAMPLE
    big = size * s
    img = Image.new("RGB", (big, big), bg)
    mask = Image.new("L", (big, big), 0)
    d, m = ImageDraw.Draw(img), ImageDraw.Draw(mask)
    c, radius = big / 2, big * 0.48
    box = (c - radius, c - radius, c + radius, c + radius)
    d.ellipse(box, fill=piece_outline(colour))
    m.ellipse(box, fill=255)
    rim = max(s * 2, radius * 0.12)
    d.ellipse((box[0] + rim, box[1] + rim, box[2] - rim, box[3] - rim), fill=PIECE_COLOURS[colour])
    text = str(number)
    face = font(round(big * (0.66 if len(text) == 1 else 0.5)), "Black")
    d.text((c, c + big * 0.02), text, font=face, fill=mark_ink(colour), anchor="mm")
    tile = img.reduce(s).convert("RGBA")
    tile.putalpha(mask.reduce(s))
    return tile


# Where a d6 face's pips sit, as fractions of the face (the dice Floor Plan and Floating World draw).
DIE_SPOTS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.28, 0.28), (0.72, 0.72)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.28, 0.25), (0.72, 0.25), (0.28, 0.5), (0.72, 0.5), (0.28, 0.75), (0.72, 0.75)],
}
