"""Shared drawing helpers for every game's board image.

How images are made (see /work/shared/notes/perf-baselines.md): a game draws in RGB onto a cached
background, pasting cached pre-rendered anti-aliased sprites (`disc_sprite`, `mark_sprite`) and cached text
tiles (`paste_text`: rasterising text is the slow part of drawing), then remaps the whole image once onto a
fixed, hand-built palette (`Palette`, `to_palette`: ~1.5 ms, no dithering) and encodes the 'P' image with
`encode_png` (a fast zlib level, never ``optimize=True``). Everything is deterministic: the same view gives
the same bytes. Caches are per process; the first image of a process costs ~60 ms more.

Fonts: Lato from the ``font-lato`` package (it has the Polish letters; Pillow's default face does not). Text
a face lacks (emoji, CJK, some scripts in player names) falls back to DejaVu Sans where the system or
``data/fonts/`` has it, and is otherwise dropped character by character: never a crash, never a row of boxes.
`display_name` turns a name that has nothing drawable left into a fallback label.
"""

from __future__ import annotations

import functools
import importlib.resources
import io
import math
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

from i18n.text import NAME_LIMIT, clean

RGB = tuple[int, int, int]

# -------------------------------------------------------------------------------------------- fonts

WEIGHTS = ("Thin", "Light", "Regular", "Bold", "Black")
PROJECT_FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
_SYSTEM_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
_FALLBACK_FILES = {
    "Thin": ("DejaVuSans-ExtraLight.ttf", "DejaVuSans.ttf"),
    "Light": ("DejaVuSans-ExtraLight.ttf", "DejaVuSans.ttf"),
    "Regular": ("DejaVuSans.ttf",),
    "Bold": ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"),
    "Black": ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"),
}
ELLIPSIS = "\u2026"
# Users' text (a category, an answer) is clipped before it is measured: a 5,000-character string would cost a
# fit_text search over its prefixes, and no box shows more than this.
TEXT_LIMIT = 100
_NOTDEF_PROBE = "\U0010fffd"  # a private-use code point no text face maps: it renders glyph 0 (.notdef)


@functools.cache
def lato_path(weight: str = "Bold") -> str:
    """The path of a Lato face shipped by the ``font-lato`` package (``font_lato/files/Lato-Bold.ttf``)."""
    if weight not in WEIGHTS:
        raise ValueError(f"unknown font weight {weight!r}; expected one of {WEIGHTS}")
    path = importlib.resources.files("font_lato") / "files" / f"Lato-{weight}.ttf"
    return str(path)


@functools.cache
def font_chain(weight: str = "Bold") -> tuple[str, ...]:
    """Lato first, then the fallback faces found (project ``data/fonts/`` before the system's)."""
    chain = [lato_path(weight)]
    for name in _FALLBACK_FILES[weight]:
        for folder in (PROJECT_FONT_DIR, *_SYSTEM_FONT_DIRS):
            path = folder / name
            if path.is_file() and str(path) not in chain:
                chain.append(str(path))
                break
    return tuple(chain)


@functools.cache
def font_file(path: str, size: int) -> ImageFont.FreeTypeFont:
    """One loaded face per (file, size): loading reads the file, a cached lookup costs nothing."""
    return ImageFont.truetype(path, size)


def font(size: int, weight: str = "Bold") -> ImageFont.FreeTypeFont:
    """The Lato face of that weight and pixel size (cached)."""
    return font_file(lato_path(weight), size)


@functools.cache
def _notdef_mask(path: str) -> tuple[tuple[int, int], bytes]:
    mask = font_file(path, 32).getmask(_NOTDEF_PROBE)
    return mask.size, bytes(mask)


@functools.cache
def has_glyph(path: str, char: str) -> bool:
    """Whether the face at ``path`` draws ``char`` as something other than its missing-glyph box."""
    if char.isspace():
        return True
    mask = font_file(path, 32).getmask(char)
    return (mask.size, bytes(mask)) != _notdef_mask(path)


def _drawable(char: str) -> bool:
    category = unicodedata.category(char)
    return not (category in ("Cc", "Cf", "Cs", "Co", "Cn") or char in "\ufe0e\ufe0f")


@functools.lru_cache(maxsize=4096)
def font_runs(text: str, weight: str = "Bold") -> tuple[tuple[str, str], ...]:
    """Split ``text`` into (font file, substring) runs: each character in the first face that has it.

    Characters no available face draws (emoji, most CJK without a CJK font) are dropped; control and format
    characters (zero-width joiners, variation selectors) too. Text is NFC-normalised first.
    """
    runs: list[tuple[str, str]] = []
    chain = font_chain(weight)
    for char in unicodedata.normalize("NFC", text):
        if not _drawable(char):
            continue
        if char.isspace():
            char = " "
            path = runs[-1][0] if runs else chain[0]
        else:
            path = next((p for p in chain if has_glyph(p, char)), "")
            if not path:
                continue
        if runs and runs[-1][0] == path:
            runs[-1] = (path, runs[-1][1] + char)
        else:
            runs.append((path, char))
    return tuple(runs)


def clean_text(text: str, weight: str = "Bold", limit: int = TEXT_LIMIT) -> str:
    """``text`` as users' text is drawn: `cogs.utils.text.clean` (no control or bidi characters, clipped to
    ``limit`` characters with "…"), then without the characters no face can draw, whitespace runs collapsed."""
    return " ".join("".join(run for _, run in font_runs(clean(text, limit), weight)).split())


def display_name(name: str | None, fallback: str, weight: str = "Bold") -> str:
    """A player's name as it can be drawn; ``fallback`` (e.g. "Player 2") when nothing readable is left."""
    cleaned = clean_text(name or "", weight, NAME_LIMIT)
    if not any(ch.isalnum() for ch in cleaned):
        return fallback
    return cleaned


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: int, weight: str = "Bold") -> float:
    """Advance width in pixels of ``text`` as `draw_text` would draw it."""
    return sum(font_file(path, size).getlength(run) for path, run in font_runs(text, weight))


@functools.cache
def cap_height(size: int, weight: str = "Bold") -> int:
    top = font(size, weight).getbbox("H", anchor="ls")[1]
    return -int(top)


@functools.lru_cache(maxsize=4096)
def fit_text(text: str, size: int, max_width: float, weight: str = "Bold") -> str:
    """``text`` shortened with an ellipsis to fit ``max_width`` pixels (as drawn: undrawable characters
    take no room)."""
    if text_width(text, size, weight) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size, weight) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    size: int,
    fill: RGB,
    weight: str = "Bold",
    align: str = "left",
    max_width: float | None = None,
) -> int:
    """Draw ``text`` with its capitals centred vertically on ``xy[1]``; return the width drawn.

    ``align`` is ``left``, ``center`` or ``right`` of ``xy[0]``. Text wider than ``max_width`` is cut with an
    ellipsis. Runs of characters Lato lacks are drawn with the fallback face on the same baseline.
    """
    if max_width is not None:
        text = fit_text(text, size, max_width, weight)
    runs = font_runs(text, weight)
    width = sum(font_file(path, size).getlength(run) for path, run in runs)
    x, y = xy
    if align == "center":
        x -= width / 2
    elif align == "right":
        x -= width
    baseline = round(y + cap_height(size, weight) / 2)
    for path, run in runs:
        face = font_file(path, size)
        draw.text((round(x), baseline), run, font=face, fill=fill, anchor="ls")
        x += face.getlength(run)
    return math.ceil(width)


@functools.lru_cache(maxsize=2048)
def text_sprite(text: str, size: int, weight: str, fill: RGB, bg: RGB) -> tuple[Image.Image | None, int, int]:
    """``text`` drawn once onto a flat ``bg``, cropped to its ink: (tile or None if blank, dx, dy) where
    (dx, dy) is the tile's offset from the pen position on the baseline.

    Rasterising a line of text costs ~0.25 ms; pasting a cached tile costs ~0.01 ms, and a board's labels,
    names and counts repeat from move to move. Cropping to the ink keeps a tile from painting its background
    over a neighbour's last letter.
    """
    runs = font_runs(text, weight)
    faces = [font_file(path, size) for path, _ in runs] or [font(size, weight)]
    ascent = max(face.getmetrics()[0] for face in faces)
    descent = max(face.getmetrics()[1] for face in faces)
    pad = max(2, size // 4)  # room for glyphs that overhang their advance
    width = math.ceil(sum(font_file(path, size).getlength(run) for path, run in runs))
    img = Image.new("RGB", (width + 2 * pad, ascent + descent + 2 * pad), bg)
    d = ImageDraw.Draw(img)
    x: float = pad
    for path, run in runs:
        face = font_file(path, size)
        d.text((round(x), pad + ascent), run, font=face, fill=fill, anchor="ls")
        x += face.getlength(run)
    box = ImageChops.difference(img, Image.new("RGB", img.size, bg)).getbbox()
    if box is None:
        return None, 0, 0
    return img.crop(box), box[0] - pad, box[1] - pad - ascent


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
    """Like `draw_text` (capitals centred on ``xy[1]``), from a cached tile: only onto a flat ``bg``."""
    if max_width is not None:
        text = fit_text(text, size, math.floor(max_width), weight)
    width = text_width(text, size, weight)
    tile, dx, dy = text_sprite(text, size, weight, fill, bg)
    x, y = xy
    if align == "center":
        x -= width / 2
    elif align == "right":
        x -= width
    if tile is not None:
        img.paste(tile, (round(x) + dx, round(y + cap_height(size, weight) / 2) + dy))
    return math.ceil(width)


# ------------------------------------------------------------------------------------------ colours

# Okabe & Ito's colour-blind-safe set; the game colours map onto it and each also has its own mark shape.
OKABE_ITO: dict[str, RGB] = {
    "black": (0, 0, 0),
    "orange": (230, 159, 0),
    "sky_blue": (86, 180, 233),
    "bluish_green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "blue": (0, 114, 178),
    "vermillion": (213, 94, 0),
    "reddish_purple": (204, 121, 167),
}
PIECE_COLOURS: dict[str, RGB] = {
    "red": (214, 78, 22),  # Okabe-Ito vermillion, a touch redder so that it reads "red"
    "yellow": OKABE_ITO["yellow"],
    "blue": OKABE_ITO["blue"],
    "green": OKABE_ITO["bluish_green"],
    "black": (38, 36, 40),
    "orange": OKABE_ITO["orange"],
    "sky": OKABE_ITO["sky_blue"],
    "purple": OKABE_ITO["reddish_purple"],
}
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
_LIGHT_PIECES = {"yellow", "orange", "sky"}


class Canvas:
    """An image with its drawing context, text pasted from the cached tiles and sprites pasted by their centre
    line. ``bg`` is the flat colour text is drawn on unless a call names another (tiles are anti-aliased
    against it)."""

    def __init__(self, img: Image.Image, bg: RGB) -> None:
        self.img = img
        self.d = ImageDraw.Draw(img)
        self.bg = bg

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: int,
        fill: RGB,
        bg: RGB | None = None,
        weight: str = "Bold",
        align: str = "left",
        max_width: float | None = None,
    ) -> int:
        """Text from the cached tiles: ``bg`` must be the flat colour under it; returns the width drawn."""
        if max_width is not None and max_width <= 0:
            return 0
        return paste_text(self.img, (x, y), text, size=size, fill=fill, bg=self.bg if bg is None else bg,
                          weight=weight, align=align, max_width=max_width)

    def sprite(self, tile: Image.Image, x: float, cy: float) -> int:
        """Paste a tile with its left edge at x, centred vertically on cy; return its width."""
        self.img.paste(tile, (round(x), round(cy - tile.height / 2)))
        return tile.width


def hex_rgb(value: str) -> RGB:
    value = value.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def shade(colour: RGB, factor: float) -> RGB:
    """Darker (factor < 1) or lighter (factor > 1, towards white) version of ``colour``."""
    if factor <= 1:
        return blend((0, 0, 0), colour, factor)
    return blend(colour, (255, 255, 255), factor - 1)


def piece_outline(colour: str) -> RGB:
    return shade(PIECE_COLOURS[colour], 0.55)


def mark_ink(colour: str) -> RGB:
    """The colour of the mark inside a disc of that colour (dark on light discs, white on dark)."""
    return shade(PIECE_COLOURS[colour], 0.32) if colour in _LIGHT_PIECES else (255, 255, 255)


class Palette:
    """A fixed palette built from exact colours plus anti-aliasing ramps between colours that touch.

    Remapping an RGB image onto it (`quantize`) costs about a millisecond and keeps anti-aliased edges smooth
    as long as every pair of colours that meet has a ramp.
    """

    def __init__(self) -> None:
        self.colours: list[RGB] = []
        self._seen: set[RGB] = set()

    def add(self, *colours: RGB) -> Palette:
        for colour in colours:
            colour = (int(colour[0]), int(colour[1]), int(colour[2]))
            if colour not in self._seen:
                self._seen.add(colour)
                self.colours.append(colour)
        return self

    def ramp(self, a: RGB, b: RGB, steps: int = 4) -> Palette:
        """Add ``a``, ``b`` and ``steps`` colours evenly between them."""
        self.add(a, b)
        self.add(*(blend(a, b, i / (steps + 1)) for i in range(1, steps + 1)))
        return self

    def ramps(self, fgs: Iterable[RGB], bgs: Iterable[RGB], steps: int = 4) -> Palette:
        bgs = list(bgs)
        for fg in fgs:
            for bg in bgs:
                self.ramp(fg, bg, steps)
        return self

    def image(self) -> Image.Image:
        """The palette as the 'P' image `Image.quantize` takes; raises if it holds more than 256 colours."""
        if len(self.colours) > 256:
            raise ValueError(f"palette has {len(self.colours)} colours; at most 256 fit")
        flat = [c for colour in self.colours for c in colour]
        flat += list(self.colours[0]) * (
            256 - len(self.colours)
        )  # pad with a used colour, never a stray black
        img = Image.new("P", (1, 1))
        img.putpalette(flat)
        return img


def to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    """Remap an RGB image onto a fixed palette, nearest colour, no dithering."""
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


# ----------------------------------------------------------------------------------------- encoding

# zlib level 3 on our 'P' boards: about half the time of the default (6) for ~15-30% more bytes; level 1 is
# barely faster and larger again; 9 and optimize=True are 10x slower (see tests/bench).
PNG_COMPRESS_LEVEL = 3


def encode_png(img: Image.Image, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """PNG bytes of an image (meant for 'P' images: 3-5x faster and smaller than RGB)."""
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()


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


def fixed_word(prefix: str, defaults: dict[str, dict[str, str]], key: str, locale: str, **params: Any) -> str:
    """A renderer's fixed word: the catalogs' ``<prefix><key>`` if they have it, else the renderer's built-in
    default for the locale (English when the locale has none), formatted with ``params``."""
    import i18n

    loc = i18n.normalize_locale(locale)
    full = prefix + key
    if full in i18n.catalog(loc) or full in i18n.catalog(i18n.DEFAULT_LOCALE):
        return i18n.t(full, loc, **params)
    text = defaults.get(loc, defaults["en"]).get(key) or defaults["en"][key]
    return text.format(**params)


# Where a d6 face's pips sit, as fractions of the face (the dice Floor Plan and Floating World draw).
DIE_SPOTS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.28, 0.28), (0.72, 0.72)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.28, 0.25), (0.72, 0.25), (0.28, 0.5), (0.72, 0.5), (0.28, 0.75), (0.72, 0.75)],
}


def read_int(value: Any, default: Any = None) -> Any:
    """A whole number read defensively from a view: ``default`` for a bool, a non-finite float, text that is no
    number, or anything past a billion (a malformed view is drawn as absent, never a crash or a huge loop)."""
    if isinstance(value, bool) or (isinstance(value, float) and not math.isfinite(value)):
        return default
    try:
        out = int(value)
    except (TypeError, ValueError, OverflowError):
        return default
    return out if abs(out) < 10**9 else default
