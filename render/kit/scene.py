"""An image as a scene: a background and drawing steps in order, each with the box it may change.

A renderer that describes its picture this way can draw all of it (`draw_scene`) or only a part (`draw_region`):
every step acts pixel by pixel (a paste, a paste through a mask, a shape, text on a known background), so a pixel's
colour is a function of the background there and of the steps whose boxes hold it, in order. Drawing the background
in a box and then every step whose box meets it gives exactly the pixels of the whole picture there: a "what if"
preview of one card draws that card and what overlaps it, not the whole map around it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Step:
    """One drawing step: ``box`` (left, top, right, bottom) holds every pixel it may change; ``draw`` draws it on an
    RGB image of the whole picture's size."""

    box: Box
    draw: Callable[[Image.Image], None]


def paste_step(tile: Image.Image, cx: float, cy: float, masked: bool = True) -> Step:
    """A tile pasted centred on (cx, cy), through its own alpha when ``masked``."""
    return at_step(tile, round(cx - tile.width / 2), round(cy - tile.height / 2), masked)


def at_step(tile: Image.Image, x: int, y: int, masked: bool = True) -> Step:
    """A tile pasted with its top-left at (x, y), through its own alpha when ``masked``."""
    mask = tile if masked else None
    return Step((x, y, x + tile.width, y + tile.height), lambda img: img.paste(tile, (x, y), mask))


def lazy_step(size: tuple[int, int], cx: float, cy: float, tile: Callable[[], Image.Image]) -> Step:
    """A tile of ``size`` pasted centred on (cx, cy) through its alpha, fetched (``tile()``) only when drawn: a
    region that does not meet it never pays for a sprite not drawn yet."""
    x, y = round(cx - size[0] / 2), round(cy - size[1] / 2)

    def draw(img: Image.Image) -> None:
        t = tile()
        img.paste(t, (x, y), t)

    return Step((x, y, x + size[0], y + size[1]), draw)


def draw_scene(background: Image.Image, steps: Sequence[Step]) -> Image.Image:
    """The whole picture, in RGB."""
    img = background.convert("RGB")  # a copy, whatever the background's mode
    for step in steps:
        step.draw(img)
    return img


def draw_region(background: Image.Image, steps: Sequence[Step], box: Box) -> Image.Image:
    """``box`` of the picture (RGB, ``box``'s size): the pixels the whole picture cropped would give."""
    # Uninitialised: only ``box`` is read back, filled from the background before anything is drawn there (a step
    # that meets it may spill into garbage outside it: never read).
    canvas = Image.new("RGB", background.size, None)
    canvas.paste(background.crop(box).convert("RGB"), box[:2])
    for step in steps:
        if meets(step.box, box):
            step.draw(canvas)
    return canvas.crop(box)


def meets(a: Box, b: Box) -> bool:
    """Whether two boxes share a pixel."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
