"""Floating Floors' colours and sizes, and the fixed palette every image is remapped onto."""

from __future__ import annotations

import functools

from PIL import Image

from render import kit
from render.floating_floors.model import SEAT_COLOURS
from render.kit import hex_rgb

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("15171f")  # page
PANEL = hex_rgb("20232e")  # a seat's card
PANEL_HI = hex_rgb("2c3042")  # the current seat's card
TEXT = hex_rgb("eef0f5")
DIM = hex_rgb("9aa0b2")
GOLD = hex_rgb("f3c351")
FRAME = hex_rgb("3b2a1d")  # the wooden frame the map lies in
FRAME_EDGE = hex_rgb("2a1d13")
ALCOVE = hex_rgb("20160e")  # a recessed notch
BAND = BG
LAND = hex_rgb("bcc78f")
LAND_LINE = hex_rgb("97a46c")
WATER = hex_rgb("4f8fc0")
WAVE = hex_rgb("a7d0ee")
UNKNOWN = hex_rgb("8a8d96")
LIGHT = hex_rgb("f1e8d2")  # a board's light space
SHADOW = hex_rgb("393a42")  # a board's shadow space
WOOD = hex_rgb("a8753f")
WOOD_DARK = hex_rgb("6e4a26")
GHOST = hex_rgb("c99a5b")  # the dashed outline of a support under a board
J_BLACK = hex_rgb("17171b")
J_BLACK_EDGE = hex_rgb("d9d9d9")
J_WHITE = hex_rgb("fbfaf6")
J_WHITE_EDGE = hex_rgb("28282c")
N_LIGHT = hex_rgb("ffffff")
N_SHADOW = J_BLACK
OK = kit.PIECE_COLOURS["green"]  # the overlay of a stable board
BAD = kit.PIECE_COLOURS["red"]  # an unstable board
WHITE = (255, 255, 255)
SEAL = hex_rgb("efe2c2")  # a Bansen's parchment
INK = hex_rgb("3a2418")
DIE = hex_rgb("e9e4d8")
GREY_STEPS = 20
SS = kit.SUPERSAMPLE

PAD = 18
HEADER_H = 96
BAND_W = 22
PANEL_W = 372
SEAT_H = 132
SEAT_GAP = 10
SCALE_MAX = 68
SCALE_MIN = 20
MAP_BUDGET = 900  # the cards' area aims at this many pixels on its longer side before the scale shrinks
MAX_SIDE = 2000


# ------------------------------------------------------------------------------------------- palette


@functools.cache
def palette() -> Image.Image:
    pal = kit.Palette()
    pal.add(BG, PANEL, PANEL_HI, TEXT, DIM, GOLD, FRAME, FRAME_EDGE, ALCOVE, LAND, LAND_LINE, WATER, WAVE, UNKNOWN)
    pal.add(LIGHT, SHADOW, WOOD, WOOD_DARK, GHOST, J_BLACK, J_BLACK_EDGE, J_WHITE, J_WHITE_EDGE, N_LIGHT, N_SHADOW)
    pal.add(OK, BAD, WHITE, SEAL, INK, DIE)
    grounds = (LIGHT, SHADOW, LAND, WATER)
    pal.ramps((TEXT, DIM, GOLD), (BG, PANEL, PANEL_HI), steps=3)
    pal.ramps((J_BLACK, J_WHITE), (J_BLACK_EDGE, J_WHITE_EDGE), steps=2)
    pal.ramps((J_BLACK_EDGE, J_WHITE_EDGE), (*grounds, PANEL, PANEL_HI, DIE), steps=2)
    pal.ramps((OK, BAD), (LIGHT, SHADOW, WOOD), steps=3)
    pal.ramps((WHITE,), (OK, BAD), steps=2)
    pal.ramps((GHOST,), (LIGHT, SHADOW), steps=1)
    pal.ramps((WAVE, LAND_LINE), (WATER, LAND), steps=1)
    pal.ramps((WOOD_DARK,), (WOOD, LIGHT, SHADOW), steps=1)
    pal.ramps(((0, 0, 0),), (LAND, WATER, FRAME), steps=3)
    pal.ramps((SEAL,), (ALCOVE, PANEL, PANEL_HI), steps=1)
    pal.ramps((INK,), (SEAL,), steps=2)
    pal.ramps((FRAME,), (BG, ALCOVE), steps=1)
    for name in SEAT_COLOURS:
        fill, edge = kit.PIECE_COLOURS[name], kit.piece_outline(name)
        pal.ramp(fill, edge, 1)
        pal.ramp(kit.mark_ink(name), fill, 2)
        pal.ramps((edge,), (ALCOVE, PANEL, PANEL_HI, LIGHT, SHADOW, SEAL), steps=1)
        pal.ramps((N_LIGHT, N_SHADOW), (fill,), steps=2)
    pal.add(*((v, v, v) for v in (round(i * 255 / (GREY_STEPS - 1)) for i in range(GREY_STEPS))))
    return pal.image()
