"""The kit's text: Lato with fallbacks, glyph checks, measuring and fitting, cached text tiles, the Canvas."""

from __future__ import annotations

import functools
import importlib.resources
import math
import unicodedata
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from i18n.text import NAME_LIMIT, clean
from render.kit.colours import RGB

# -------------------------------------------------------------------------------------------- fonts

WEIGHTS = ("Thin", "Light", "Regular", "Bold", "Black")
PROJECT_FONT_DIR = Path(__file__).resolve().parents[2] / "data" / "fonts"
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
    tiles: Callable[[str, int, str, RGB, RGB], tuple[Image.Image | None, int, int]] | None = None,
) -> int:
    """Like `draw_text` (capitals centred on ``xy[1]``), from a cached tile: only onto a flat ``bg``. ``tiles``
    makes the tile (default `text_sprite`; a palette image passes its palette's, `Paletted.text_tile`)."""
    if max_width is not None:
        text = fit_text(text, size, math.floor(max_width), weight)
    width = text_width(text, size, weight)
    tile, dx, dy = (tiles or text_sprite)(text, size, weight, fill, bg)
    x, y = xy
    if align == "center":
        x -= width / 2
    elif align == "right":
        x -= width
    if tile is not None:
        img.paste(tile, (round(x) + dx, round(y + cap_height(size, weight) / 2) + dy))
    return math.ceil(width)


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
