"""Floor Plan's blueprint map: the paper, the grid with coordinates, rooms and features, the highlight."""

from __future__ import annotations

import functools
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.floor_plan.model import (
    BAND,
    BG,
    CENTRE,
    COLS,
    DIRS,
    GRID,
    HATCH,
    HILITE,
    HILITE_ALPHA,
    PAPER,
    ROWS,
    TEXT,
    Cell,
    Metrics,
    SheetModel,
    metrics,
)
from render.floor_plan.tiles import (
    OPPOSITE,
    _door_side,
    _feature_sides,
    p_feature_tiles,
    p_room_tile,
    p_tile,
)

# ----------------------------------------------------------------------------------------- drawing


def draw_map(img: Image.Image, x0: int, y0: int, cell: int, wall: int, sheet: dict[str, Any]) -> SheetModel:
    """Draw a sheet's cells onto the 'P' image ``img`` (in `palette`) whose map area (already holding the paper and
    grid) starts at (x0, y0); each cell's box is [x0 + x·cell, x0 + (x+1)·cell) with its grid line on the top and
    left. Every cell is a cached 'P' tile pasted: nothing is remapped per move."""
    model = SheetModel.of(sheet)
    door_sides = {c: _door_side(model, c) for c in model.doors if c in model.room_at}
    openings: dict[Cell, int] = {}  # a door through a shared wall opens the neighbouring room's wall too
    for (x, y), bit in door_sides.items():
        for b, dx, dy in DIRS:
            across = (x + dx, y + dy)
            if b == bit and across in model.room_at and model.room_at[across] != model.room_at[(x, y)]:
                openings[across] = openings.get(across, 0) | OPPOSITE[bit]
    for (x, y), i in model.room_at.items():
        if not (0 <= x < COLS and 0 <= y < ROWS):
            continue
        cellxy = (x, y)
        walls = model.walls(cellxy)
        feature, sides, letter = "", 0, ""
        if cellxy in model.labels:
            feature, letter = "label", model.labels[cellxy]
        elif cellxy in model.doors:
            feature, sides = "door", door_sides[cellxy]
        elif cellxy in model.windows:
            feature, sides = "window", _feature_sides(model, cellxy)
        elif cellxy in model.furnishings:
            feature = "furnishing"
        tile = p_room_tile(cell, wall, model.types[i], walls, feature, sides, letter, openings.get(cellxy, 0))
        img.paste(tile, (x0 + x * cell, y0 + y * cell))
    # water goes over the grid line on its top and left: a pool reads as one body of water
    water, deck, stone, tree = p_feature_tiles(cell)
    for x, y in model.water:
        if (x, y) not in model.room_at and 0 <= x < COLS and 0 <= y < ROWS:
            img.paste(water, (x0 + x * cell, y0 + y * cell))
    for x, y in model.decks:
        if (x, y) not in model.room_at and 0 <= x < COLS and 0 <= y < ROWS:
            img.paste(deck, (x0 + x * cell + 1, y0 + y * cell + 1))
    for x, y in model.stones:
        if (x, y) not in model.room_at and 0 <= x < COLS and 0 <= y < ROWS:
            img.paste(stone, (x0 + x * cell + 1, y0 + y * cell + 1))
    for ax, ay in model.trees:
        if 0 <= ax <= COLS - 3 and 0 <= ay <= ROWS - 3:
            img.paste(tree, (x0 + ax * cell + 1, y0 + ay * cell + 1))
    return model


@functools.lru_cache(maxsize=8)
def _paper(cell: int, centre: bool = True) -> Image.Image:
    """The empty blueprint: paper, grid (a line on each cell's top and left, plus the closing lines), the
    hatched centre I7."""
    w, h = COLS * cell + 1, ROWS * cell + 1
    img = Image.new("RGB", (w, h), PAPER)
    d = ImageDraw.Draw(img)
    for i in range(COLS + 1):
        d.line((i * cell, 0, i * cell, h), fill=GRID)
    for j in range(ROWS + 1):
        d.line((0, j * cell, w, j * cell), fill=GRID)
    if centre:
        cx, cy = CENTRE[0] * cell, CENTRE[1] * cell
        box = Image.new("RGB", (cell - 1, cell - 1), PAPER)
        bd = ImageDraw.Draw(box)
        step = max(4, cell // 6)
        for off in range(-cell, cell, step):
            bd.line((off, cell, off + cell, 0), fill=HATCH, width=max(1, cell // 24))
        img.paste(box, (cx + 1, cy + 1))
    return img


@functools.lru_cache(maxsize=8)
def _sheet_background(scale: float, solo: bool) -> Image.Image:
    """The sheet image without anything of a player's: page, frame with coordinates, empty blueprint (a 'P'
    image in `palette`; copy it before drawing on it)."""
    m = metrics(scale)
    width, height = sheet_size(scale, solo)
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    fx, fy = m.pad, m.header
    d.rounded_rectangle(
        (fx, fy, fx + m.map_w + 2 * m.band, fy + m.map_h + 2 * m.band), radius=max(4, m.band // 3), fill=BAND
    )
    x0, y0 = _map_origin(m)
    img.paste(_paper(m.cell), (x0, y0))
    for x in range(COLS):
        cx = x0 + x * m.cell + m.cell / 2
        for cy in (y0 - m.band / 2, y0 + m.map_h + m.band / 2 + 1):
            kit.paste_text(img, (cx, cy), chr(ord("A") + x), size=m.coord, fill=TEXT, bg=BAND, align="center")
    for y in range(ROWS):
        cy = y0 + y * m.cell + m.cell / 2
        for cx in (x0 - m.band / 2, x0 + m.map_w + m.band / 2 + 1):
            kit.paste_text(img, (cx, cy), str(y + 1), size=m.coord, fill=TEXT, bg=BAND, align="center")
    return p_tile(img)


def _map_origin(m: Metrics) -> tuple[int, int]:
    return m.pad + m.band, m.header + m.band


def sheet_size(scale: float = 1.0, solo: bool = False) -> tuple[int, int]:
    """The sheet image's size; a solo sheet has one more row for the round bubbles."""
    m = metrics(scale)
    width = 2 * (m.pad + m.band) + m.map_w + 1
    height = m.header + 2 * m.band + m.map_h + 1 + m.legend_h + m.note_h + m.pad
    return width, height + (round(m.cell * 1.3) if solo else 0)


def cell_box(cell: Cell, scale: float = 1.0) -> tuple[int, int, int, int]:
    """The pixels of a cell on the sheet image, its grid lines excluded: (left, top, right, bottom) exclusive."""
    m = metrics(scale)
    x0, y0 = _map_origin(m)
    left, top = x0 + cell[0] * m.cell + 1, y0 + cell[1] * m.cell + 1
    return left, top, left + m.cell - 1, top + m.cell - 1


def _highlight(img: Image.Image, x0: int, y0: int, cell: int, cells: set[Cell]) -> None:
    """Tint the highlighted cells (grid lines excluded) towards `HILITE` and outline the area's border (a cell at
    a time in RGB, remapped onto the palette: a preview's few cells)."""
    edge = max(2, cell // 16)
    for x, y in sorted(cells):
        if not (0 <= x < COLS and 0 <= y < ROWS):
            continue
        box = (x0 + x * cell + 1, y0 + y * cell + 1, x0 + (x + 1) * cell, y0 + (y + 1) * cell)
        region = img.crop(box).convert("RGB")
        region = Image.blend(region, Image.new("RGB", region.size, HILITE), HILITE_ALPHA)
        d = ImageDraw.Draw(region)
        last = cell - 2
        if (x, y - 1) not in cells:
            d.rectangle((0, 0, last, edge - 1), fill=HILITE)
        if (x, y + 1) not in cells:
            d.rectangle((0, last - edge + 1, last, last), fill=HILITE)
        if (x - 1, y) not in cells:
            d.rectangle((0, 0, edge - 1, last), fill=HILITE)
        if (x + 1, y) not in cells:
            d.rectangle((last - edge + 1, 0, last, last), fill=HILITE)
        img.paste(p_tile(region), box[:2])
