"""The Floor's palette and cached sprites: side textures (colour and pattern), swatches, the background."""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from render import kit
from render.kit import RGB
from render.kit.paletted import Paletted, cached_tile
from render.the_floor.theme import (
    BAND,
    BG,
    BOARD,
    CELL,
    COORD_SIZE,
    DIM,
    DUEL_H,
    FILES,
    FRAME,
    GOLD,
    GREY,
    INK,
    LABEL,
    LETTER_BG,
    PAD,
    PANEL,
    ROW_HI,
    RULE,
    SIDE_COLOURS,
    SIDE_PATTERNS,
    SIZE,
    SWATCH,
    TEXT,
    VOID,
    VOID_LINE,
    WHITE,
    Layout,
    W,
    side_tones,
)

# --------------------------------------------------------------------------------- palette, textures


@functools.cache
def palette() -> Image.Image:
    pal = kit.Palette()
    pal.add(BG, ROW_HI, PANEL, RULE, FRAME, LABEL, TEXT, DIM, GOLD, INK, VOID, VOID_LINE, WHITE, GREY, LETTER_BG)
    pal.ramps((TEXT, DIM, GOLD), (BG, ROW_HI, PANEL), steps=4)
    pal.ramps((LABEL,), (FRAME,), steps=4)
    pal.ramps((INK,), (LETTER_BG, WHITE), steps=4)
    for side in range(len(SIDE_COLOURS)):
        for grey in (False, True):
            fill, ink, plate, edge = side_tones(side, grey)
            pal.add(fill, ink, plate, edge)
            pal.ramp(INK, plate, 5)
    pal.ramps((GOLD,), (PANEL,), steps=2)
    return pal.image()


@functools.cache
def paletted() -> Paletted:
    """The palette with its indices and text tiles: the image is drawn in it from start to end."""
    return Paletted(palette())


@functools.cache
def texture(side: int, grey: bool = False) -> Image.Image:
    """A board-sized texture of one side: its colour and its pattern, aligned to the board so that a field's
    pattern runs on from cell to cell. Drawn without anti-aliasing: two exact colours."""
    fill, ink, _, _ = side_tones(side, grey)
    img = Image.new("RGB", (BOARD, BOARD), fill)
    d = ImageDraw.Draw(img)
    kind = SIDE_PATTERNS[side % len(SIDE_PATTERNS)]
    if kind == "stripes":  # diagonal stripes /
        for off in range(-BOARD, BOARD, 22):
            d.line((off, BOARD, off + BOARD, 0), fill=ink, width=6)
    elif kind == "dots":
        step = 22
        for y in range(step // 2, BOARD, step):
            for x in range(step // 2 + (step // 2 if (y // step) % 2 else 0), BOARD, step):
                d.ellipse((x - 4, y - 4, x + 4, y + 4), fill=ink)
    elif kind == "crosshatch":  # both diagonals, thin
        for off in range(-BOARD, BOARD, 20):
            d.line((off, BOARD, off + BOARD, 0), fill=ink, width=3)
            d.line((off, 0, off + BOARD, BOARD), fill=ink, width=3)
    elif kind == "bars":  # horizontal bars
        for y in range(8, BOARD, 22):
            d.rectangle((0, y, BOARD, y + 6), fill=ink)
    else:  # zigzag
        amp, period = 7, 22
        for y0 in range(10, BOARD + 20, 22):
            pts = [(x, y0 + (amp if (x // (period // 2)) % 2 else -amp)) for x in range(0, BOARD + period, period // 2)]
            d.line(pts, fill=ink, width=4)
    return img


@cached_tile(paletted, maxsize=16)
def texture_tile(side: int, grey: bool = False) -> Image.Image:
    """`texture` in the palette ('P'): what the floor's cells are cut from."""
    return texture(side, grey)


@cached_tile(paletted)
def mark(shape: str, size: int, fg: RGB, bg: RGB, scale: float = 0.42) -> Image.Image:
    """`render.kit.mark_sprite` in the palette ('P')."""
    return kit.mark_sprite(shape, size, fg, bg, scale)


@cached_tile(paletted)
def swatch(side: int, grey: bool = False, size: int = SWATCH) -> Image.Image:
    """A legend swatch ('P'): a square of the side's texture with a dark border."""
    tile = texture(side, grey).crop((0, 0, size, size)).copy()
    ImageDraw.Draw(tile).rectangle((0, 0, size - 1, size - 1), outline=INK, width=2)
    return tile


def background(lay: Layout) -> Image.Image:
    """Everything that does not depend on the position: panels, the frame and the coordinates. A new 'P' image in
    `palette` each call, from blocks drawn once (so the many layouts of a game, with or without a duel panel, info
    lines or the ladder, cost no new drawing)."""
    img = Image.new("P", lay.size, paletted().ink(BG))
    img.putpalette(palette().getpalette() or [])
    img.paste(_frame(), (lay.board_x - BAND, lay.board_y - BAND))
    if lay.duel_y:
        img.paste(_duel_panel(), (PAD, lay.duel_y))
    return img


@functools.cache
def _duel_panel() -> Image.Image:
    """The duel panel's rounded box on `BG`, as a 'P' tile."""
    img = Image.new("RGB", (W - 2 * PAD + 1, DUEL_H + 1), BG)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, W - 2 * PAD, DUEL_H), radius=14, fill=PANEL)
    return paletted().tile(img)


@functools.cache
def _frame() -> Image.Image:
    """The frame around the floor with the coordinates on all four edges, on `BG`, as a 'P' tile."""
    img = Image.new("RGB", (BOARD + 2 * BAND, BOARD + 2 * BAND), BG)
    d = ImageDraw.Draw(img)
    x0 = y0 = BAND
    d.rounded_rectangle((x0 - BAND, y0 - BAND, x0 + BOARD + BAND - 1, y0 + BOARD + BAND - 1), radius=12, fill=FRAME)
    for i in range(SIZE):
        cx = x0 + i * CELL + CELL / 2
        for cy in (y0 - BAND / 2, y0 + BOARD + BAND / 2):
            kit.draw_text(d, (cx, cy), FILES[i], size=COORD_SIZE, fill=LABEL, align="center")
        cy = y0 + i * CELL + CELL / 2
        for cx in (x0 - BAND / 2, x0 + BOARD + BAND / 2):
            kit.draw_text(d, (cx, cy), str(SIZE - i), size=COORD_SIZE, fill=LABEL, align="center")
    return paletted().tile(img)
