"""Board image and text board of The Floor (``the_floor``), drawn from a view, never a state.

Public API:
  - `render(view, *, names=None, locale="en") -> bytes`: the PNG to post;
  - `draw(view, *, names=None, locale="en") -> PIL.Image.Image`: the palette image before encoding;
  - `text_board(view, *, names=None, locale="en") -> str`: a plain-text board for a terminal or a code block.

``names`` are the players' display names by seat (characters the fonts lack are dropped, an unreadable name
becomes "Player N"); a side's names are its seats' (``view["teams"]``). Every word drawn goes through `i18n.t`.

The image, 1000 px wide: a header (round, phase, whose turn or the result), a duel panel while a duel is on
(category, the letter, both clocks, the last answers), the 5×5 floor with coordinates on all four edges, then
the pending choice, the Final cards and ladder, the round winners and one legend row per side. Each side has a
colour-blind-safe colour *and* its own pattern (stripes, dots, cross-hatch, bars, zigzag), so no one needs to
tell the colours apart; fields are outlined with a thick line where they meet another field and carry their
category names on a light plate; the empty centre C3 is a dark void; the duelling cells are ringed and joined
by an arrow. Resigned sides are drawn greyed out (pattern kept).
"""

from __future__ import annotations

from render.the_floor.board import fit_label
from render.the_floor.image import (
    draw,
    render,
)
from render.the_floor.placing import (
    cell_box,
    cell_xy,
    layout,
)
from render.the_floor.sprites import (
    background,
    palette,
    swatch,
    texture,
)
from render.the_floor.text import text_board
from render.the_floor.theme import (
    BAND,
    BG,
    BOARD,
    BORDER,
    CELL,
    COORD_SIZE,
    DIM,
    DUEL_H,
    DUEL_MARGIN,
    FILES,
    FRAME,
    GAME,
    GAP,
    GOLD,
    GREY,
    HEADER_H,
    INFO_SIZE,
    INK,
    KEY,
    LABEL,
    LABEL_SIZES,
    LADDER_H,
    LETTER_BG,
    LINE_H,
    NAME_SIZE,
    PAD,
    PANEL,
    PLATE_MARGIN,
    PLATE_PAD,
    ROW_H,
    ROW_HI,
    RULE,
    SIDE_CHARS,
    SIDE_COLOURS,
    SIDE_PATTERNS,
    SIDE_RGB,
    SIZE,
    SMALL_SIZE,
    SMALL_SWATCH,
    STATUS_SIZE,
    SWATCH,
    TEXT,
    THIN,
    TITLE_SIZE,
    VOID,
    VOID_LINE,
    WHITE,
    Layout,
    W,
    side_colour,
    side_tones,
)
from render.the_floor.words import (
    clock,
    colour_name,
    pattern_name,
    seat_names,
)

__all__ = [
    "BAND",
    "BG",
    "BOARD",
    "BORDER",
    "CELL",
    "COORD_SIZE",
    "DIM",
    "DUEL_H",
    "DUEL_MARGIN",
    "FILES",
    "FRAME",
    "GAME",
    "GAP",
    "GOLD",
    "GREY",
    "HEADER_H",
    "INFO_SIZE",
    "INK",
    "KEY",
    "LABEL",
    "LABEL_SIZES",
    "LADDER_H",
    "LETTER_BG",
    "LINE_H",
    "NAME_SIZE",
    "PAD",
    "PANEL",
    "PLATE_MARGIN",
    "PLATE_PAD",
    "ROW_H",
    "ROW_HI",
    "RULE",
    "SIDE_CHARS",
    "SIDE_COLOURS",
    "SIDE_PATTERNS",
    "SIDE_RGB",
    "SIZE",
    "SMALL_SIZE",
    "SMALL_SWATCH",
    "STATUS_SIZE",
    "SWATCH",
    "TEXT",
    "THIN",
    "TITLE_SIZE",
    "VOID",
    "VOID_LINE",
    "WHITE",
    "Layout",
    "W",
    "background",
    "cell_box",
    "cell_xy",
    "clock",
    "colour_name",
    "draw",
    "fit_label",
    "layout",
    "palette",
    "pattern_name",
    "render",
    "seat_names",
    "side_colour",
    "side_tones",
    "swatch",
    "text_board",
    "texture",
]
