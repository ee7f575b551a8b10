"""The kit's colours: RGB, the Okabe-Ito and piece colours, mixing, and the fixed palettes images are remapped onto."""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image

RGB = tuple[int, int, int]


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
_LIGHT_PIECES = {"yellow", "orange", "sky"}


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
