"""The Floor's image theme: sizes, colours, each side's colour, tones and pattern, and the Layout of an image."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from render import kit
from render.kit import RGB, hex_rgb

GAME = "the_floor"
KEY = "tfr."
FILES = "ABCDE"
SIZE = 5

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("161a26")  # header, panels
ROW_HI = hex_rgb("2c3550")  # the row of the side to move / the champion
PANEL = hex_rgb("222a3f")  # the duel panel, ladder chips
RULE = hex_rgb("2a3246")
FRAME = hex_rgb("2a3147")  # around the floor, where the coordinates are
LABEL = hex_rgb("dfe5f2")
TEXT = hex_rgb("eef1f8")
DIM = hex_rgb("9aa4bd")
GOLD = hex_rgb("f3c351")
INK = hex_rgb("101218")  # field borders, text on plates
VOID = hex_rgb("06070b")  # the empty centre
VOID_LINE = hex_rgb("1d2130")
WHITE = (255, 255, 255)
LETTER_BG = hex_rgb("f3c351")
GREY = hex_rgb("8a8d96")

# Okabe & Ito's colour-blind-safe colours, one pattern each (the pattern is what tells sides apart)
SIDE_COLOURS: tuple[str, ...] = ("orange", "blue", "green", "purple", "yellow")
SIDE_RGB: dict[str, RGB] = {
    "orange": kit.OKABE_ITO["orange"],
    "blue": kit.OKABE_ITO["blue"],
    "green": kit.OKABE_ITO["bluish_green"],
    "purple": kit.OKABE_ITO["reddish_purple"],
    "yellow": kit.OKABE_ITO["yellow"],
}
SIDE_PATTERNS: tuple[str, ...] = ("stripes", "dots", "crosshatch", "bars", "zigzag")
SIDE_CHARS = "01234"

W = 1000
PAD = 24
BAND = 36  # the frame band with the coordinates
CELL = 176
BOARD = CELL * SIZE
HEADER_H = 124
DUEL_H = 196
GAP = 16
ROW_H = 62
LINE_H = 36
LADDER_H = 92
BORDER = 7  # field outline
THIN = 2  # grid line inside a field
PLATE_MARGIN = 9
PLATE_PAD = 7
DUEL_MARGIN = 12  # extra label margin in a duelling cell
LABEL_SIZES = (26, 24, 22, 20, 19, 18, 17, 16)
COORD_SIZE = 24
TITLE_SIZE = 24
STATUS_SIZE = 34
NAME_SIZE = 28
SMALL_SIZE = 23
INFO_SIZE = 23
SWATCH = 44
SMALL_SWATCH = 26


# ------------------------------------------------------------------------------------------- colours


def side_colour(side: int) -> str:
    return SIDE_COLOURS[side % len(SIDE_COLOURS)]


@functools.cache
def side_tones(side: int, grey: bool = False) -> tuple[RGB, RGB, RGB, RGB]:
    """(fill, pattern ink, label plate, plate border) of a side; ``grey`` for a resigned side."""
    base = SIDE_RGB[side_colour(side)]
    if grey:
        base = kit.blend(base, GREY, 0.72)
    lum = 0.299 * base[0] + 0.587 * base[1] + 0.114 * base[2]
    ink = kit.shade(base, 0.62) if lum > 110 else kit.shade(base, 1.38)
    plate = kit.blend(base, WHITE, 0.84)
    edge = kit.shade(base, 0.55)
    return base, ink, plate, edge


# ------------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    duel_y: int  # top of the duel panel (0: no panel)
    board_x: int
    board_y: int
    info_y: int
    info_lines: int
    ladder_y: int  # 0: no ladder
    legend_y: int
    sides: int
    size: tuple[int, int]
