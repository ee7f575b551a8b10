"""Floating World's colours and sizes, and the fixed palette every image is remapped onto."""

from __future__ import annotations

import functools

from PIL import Image

from render import kit
from render.floating_world.model import DEMON_COLOUR, SEAT_COLOURS
from render.kit import RGB, hex_rgb
from render.kit.paletted import Paletted

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("121729")  # page: header, panel area
CARD = hex_rgb("1d2440")  # a Kitsune's card
CARD_HI = hex_rgb("26305a")  # the current player's card
VOID = hex_rgb("0b1020")  # the map's chaos
CHAOS = hex_rgb("141b33")  # an empty space where a Land can be created
CHAOS_LINE = hex_rgb("34406a")
BAND = hex_rgb("161c33")  # the coordinate bands
TEXT = hex_rgb("eef1f8")
DIM = hex_rgb("98a2bf")
GOLD = hex_rgb("f3c351")
LAND = hex_rgb("e8dcc0")  # washi
LAND_EDGE = hex_rgb("a8976f")
INK = hex_rgb("2b2420")
GATE = hex_rgb("f0c75e")
GATE_EDGE = hex_rgb("5a3a12")
TORII = kit.blend(GATE, hex_rgb("c0392b"), 0.45)
WHITE = (255, 255, 255)
DIE = hex_rgb("f7f3e8")
PIP = hex_rgb("1a1a1a")
DIE_HI = GOLD  # a spawn die showing 1 or 2
DIE_SIX = hex_rgb("e0603a")  # the sixes of an all-sixes roll
HEART = hex_rgb("e05a6a")
HEART_LOST = hex_rgb("5b6380")
WOUND = kit.PIECE_COLOURS["red"]
HELD = kit.PIECE_COLOURS["green"]
GREY_STEPS = 24
PAD = 20
HEADER_H = 96
ROLL_H = 44  # the last roll's line under the header
BAND_W = 24  # coordinate bands
TILE_MAX = 110
TILE_COMFORT = 1100  # the map's longer side aims at this before tiles shrink below TILE_MIN_COMFORT
TILE_MIN_COMFORT = 60
MAX_SIDE = 2000  # the whole image stays within this, both ways
CARD_W = 390
CARD_GAP = 12
MIN_WIDTH = 920
NAME_MIN_TILE = 60  # smaller tiles show no Land names
COORD_MIN_TILE = 64  # smaller chaos spaces show no coordinates
SS = kit.SUPERSAMPLE

# ------------------------------------------------------------------------------------------ palette


@functools.cache
def palette() -> Image.Image:
    pal = kit.Palette()
    pal.add(BG, CARD, CARD_HI, VOID, CHAOS, CHAOS_LINE, BAND, TEXT, DIM, GOLD, LAND, LAND_EDGE, INK, GATE)
    pal.add(GATE_EDGE, TORII, WHITE, DIE, PIP, DIE_SIX, HEART, HEART_LOST, WOUND, HELD)
    pal.ramps((TEXT, DIM, GOLD), (BG, CARD, CARD_HI), steps=3)
    pal.ramps((DIM,), (VOID, CHAOS, BAND), steps=2)
    pal.ramp(CHAOS_LINE, CHAOS, 1)
    pal.ramps((INK, LAND_EDGE), (LAND,), steps=3)
    pal.ramps((INK, GATE_EDGE, TORII), (GATE,), steps=2)
    pal.ramps((PIP, INK), (DIE, DIE_HI, DIE_SIX), steps=2)
    pal.ramps((DIE,), (BG, CARD), steps=1)
    pal.ramps((WHITE,), (WOUND, HELD), steps=2)
    pal.ramps((HEART, HEART_LOST), (CARD, CARD_HI), steps=1)
    # in a fixed order (a set's order follows PYTHONHASHSEED, and the palette's order is in the PNG's bytes)
    for name in dict.fromkeys((*DEMON_COLOUR.values(), *SEAT_COLOURS)):
        fill = kit.PIECE_COLOURS[name]
        edge = kit.piece_outline(name)
        pal.ramp(fill, edge, 1)
        pal.ramp(kit.mark_ink(name), fill, 2)
        pal.ramps((edge,), (LAND, GATE, CARD, BG), steps=1)
    pal.add(*((v, v, v) for v in (round(i * 255 / (GREY_STEPS - 1)) for i in range(GREY_STEPS))))
    return pal.image()


@functools.cache
def paletted() -> Paletted:
    """The palette with its indices and 'P' text tiles: the map is drawn in it from start to end."""
    return Paletted(palette())


def new_image(size: tuple[int, int], colour: RGB) -> Image.Image:
    """A 'P' image in `palette`, filled with ``colour`` (a palette colour)."""
    img = Image.new("P", size, paletted().ink(colour))
    img.putpalette(palette().getpalette() or [])
    return img


def _finish(img: Image.Image) -> Image.Image:
    return kit.to_palette(img, palette())
