"""Drawing straight into a palette ('P') image: no per-move RGB canvas and no per-move remap of the whole image.

A game builds one `Paletted` over its fixed palette. Everything anti-aliased (the background, sprites, text tiles)
is drawn in RGB once, remapped once onto the palette (`tile`, nearest colour, no dithering: exactly what remapping
the whole image would give those pixels) and cached as a 'P' tile; a move's image is a copy of the 'P' background
with those tiles pasted and flat shapes drawn by palette index (`PCanvas.d` takes RGB fills, which must be palette
colours). Remapping a 1.5-megapixel RGB board cost more than drawing it; this way a move never remaps more than a
small overlay (`PCanvas.overlay`, for tiles with an alpha edge over unknown pixels).

Caches are bounded LRUs per palette, filled build-then-publish (a tile is never changed after it is cached), so two
threads may draw at once; the same view gives the same bytes. A text tile is cached as a fresh 'P' image of its
indices: the image `quantize` returns carries its remap's palette state, ~9 KB for a ~750-pixel label against
~2.6 KB rebuilt from its bytes (a 'P' tile pasted into a 'P' image copies indices, whatever its own palette).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from render.kit.colours import RGB
from render.kit.fonts import paste_text, text_sprite

# Text tiles per palette. Labels and names repeat from move to move: a game's, in two locales, fit many times over.
# Text with a digit (counts, clocks, scores) changes from move to move: most are drawn for one image, so a small LRU
# keeps the ones that do repeat (a board's unchanged counts) without filling with the rest.
TEXT_TILES = 2048
NUMBER_TILES = 512


class Paletted:
    """A fixed palette with its colour indices and its cache of text tiles."""

    def __init__(self, palette: Image.Image) -> None:
        self.palette = palette
        flat = palette.getpalette() or []
        index: dict[RGB, int] = {}
        for i in range(len(flat) // 3):
            index.setdefault((flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]), i)  # the first, as the remap picks
        self._index = index
        self._labels = functools.lru_cache(maxsize=TEXT_TILES)(self._text_tile)
        self._numbers = functools.lru_cache(maxsize=NUMBER_TILES)(self._text_tile)

    def ink(self, colour: RGB | int) -> int:
        """The palette index of an exact palette colour (an index passes through); KeyError for any other."""
        if isinstance(colour, int):
            return colour
        return self._index[(int(colour[0]), int(colour[1]), int(colour[2]))]

    def tile(self, img: Image.Image) -> Image.Image:
        """An RGB image remapped onto the palette (callers cache the result: this costs ~1 ms per megapixel)."""
        return img.convert("RGB").quantize(palette=self.palette, dither=Image.Dither.NONE)

    def text_tile(self, text: str, size: int, weight: str, fill: RGB, bg: RGB) -> tuple[Image.Image | None, int, int]:
        """`render.kit.fonts.text_sprite` remapped onto the palette: ('P' tile or None if blank, dx, dy), cached."""
        cache = self._numbers if any(ch.isdigit() for ch in text) else self._labels
        return cache(text, size, weight, fill, bg)

    def tile_info(self) -> dict[str, tuple[int, int, int, int | None]]:
        """The text tiles' caches (labels, numbers): hits, misses, tiles held, bound."""
        infos = {"labels": self._labels.cache_info(), "numbers": self._numbers.cache_info()}
        return {name: (i.hits, i.misses, i.currsize, i.maxsize) for name, i in infos.items()}

    def _text_tile(self, text: str, size: int, weight: str, fill: RGB, bg: RGB) -> tuple[Image.Image | None, int, int]:
        # The RGB sprite is drawn uncached: this cache holds the result, and a second copy costs more than it.
        tile, dx, dy = text_sprite.__wrapped__(text, size, weight, fill, bg)
        if tile is None:
            return None, 0, 0
        indexed = self.tile(tile)
        return Image.frombytes("P", indexed.size, indexed.tobytes()), dx, dy


def cached_tile(paletted: Callable[[], Paletted], maxsize: int | None = 512) -> Callable[..., Any]:
    """Decorate a function that draws an RGB tile so that it returns the tile remapped onto ``paletted()``'s palette,
    cached by its arguments (which must be hashable)."""

    def wrap(fn: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
        @functools.lru_cache(maxsize=maxsize)
        @functools.wraps(fn)
        def cached(*args: Any, **kwargs: Any) -> Image.Image:
            return paletted().tile(fn(*args, **kwargs))

        return cached

    return wrap


class InkDraw:
    """`ImageDraw.Draw` over a 'P' image that takes RGB ``fill``/``outline`` colours as their palette indices."""

    def __init__(self, img: Image.Image, paletted: Paletted) -> None:
        self._d = ImageDraw.Draw(img)
        self._p = paletted

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self._d, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            for key in ("fill", "outline"):
                if kwargs.get(key) is not None:
                    kwargs[key] = self._p.ink(kwargs[key])
            return method(*args, **kwargs)

        return call


class PCanvas:
    """A 'P' image with the `render.kit.Canvas` interface: text pasted from cached 'P' tiles, sprites by their centre
    line, shapes by palette index. ``bg`` is the flat colour text is drawn on unless a call names another."""

    def __init__(self, img: Image.Image, bg: RGB, paletted: Paletted) -> None:
        self.img = img
        self.bg = bg
        self.p = paletted
        self.d = InkDraw(img, paletted)

    def text(self, x: float, y: float, text: str, *, size: int, fill: RGB, bg: RGB | None = None,
             weight: str = "Bold", align: str = "left", max_width: float | None = None) -> int:
        """Like `render.kit.paste_text` (capitals centred on ``y``): ``bg`` must be the flat colour under the text;
        returns the width drawn."""
        if max_width is not None and max_width <= 0:
            return 0
        return paste_text(self.img, (x, y), text, size=size, fill=fill, bg=self.bg if bg is None else bg,
                          weight=weight, align=align, max_width=max_width, tiles=self.p.text_tile)

    def sprite(self, tile: Image.Image, x: float, cy: float) -> int:
        """Paste a 'P' tile with its left edge at x, centred vertically on cy; return its width."""
        self.img.paste(tile, (round(x), round(cy - tile.height / 2)))
        return tile.width

    def overlay(self, tile: Image.Image, xy: tuple[int, int]) -> None:
        """Composite an RGBA tile over whatever is at ``xy`` (remapping only that patch)."""
        box = (xy[0], xy[1], xy[0] + tile.width, xy[1] + tile.height)
        patch = self.img.crop(box).convert("RGB")
        patch.paste(tile, (0, 0), tile)
        self.img.paste(self.p.tile(patch), box[:2])
