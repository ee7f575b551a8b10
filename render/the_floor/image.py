"""The Floor's whole image: `draw` composes the parts, `render` encodes the PNG."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render import kit
from render.the_floor.board import _draw_board, _draw_duel_cells, _draw_labels, _draw_take_cells
from render.the_floor.legend import _draw_legend
from render.the_floor.panels import _Canvas, _draw_duel, _draw_header, _draw_info, _draw_ladder
from render.the_floor.placing import layout
from render.the_floor.sprites import background
from render.the_floor.words import _info_lines, _side_labels

# ------------------------------------------------------------------------------------------ the image


def draw(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> Image.Image:
    """The board image as a palette ('P') image: what `render` encodes. Drawn in the palette throughout: the cached
    frame and panel blocks and cached tiles pasted, flat shapes by palette index, never a whole-image remap."""
    sides = _side_labels(view, names, locale)
    info = _info_lines(view, sides, locale)
    lay = layout(view, names=names, locale=locale)
    img = background(lay)
    cv = _Canvas(img)
    _draw_board(img, cv.d, view, lay)
    _draw_labels(cv, view, lay)
    _draw_duel_cells(cv.d, view, lay)
    _draw_take_cells(cv.d, view, lay)
    _draw_header(cv, view, sides, locale)
    if lay.duel_y:
        _draw_duel(cv, view, sides, locale, lay)
    _draw_info(cv, info, lay)
    if lay.ladder_y:
        _draw_ladder(cv, view, sides, locale, lay)
    _draw_legend(cv, view, sides, locale, lay)
    return img


def render(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> bytes:
    """PNG bytes of the board image for a view (a spectator's or one seat's)."""
    return kit.encode_image(draw(view, names=names, locale=locale))
