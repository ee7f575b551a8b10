"""The Floor's placing: where the panels, the floor and each cell go for a view."""

from __future__ import annotations

from typing import Any

from render.the_floor.theme import (
    BAND,
    BOARD,
    CELL,
    DUEL_H,
    FILES,
    GAP,
    HEADER_H,
    LADDER_H,
    LINE_H,
    PAD,
    ROW_H,
    SIZE,
    Layout,
    W,
)
from render.the_floor.words import _info_lines, _side_labels


def layout(view: dict[str, Any], *, names: list[str] | None = None, locale: str = "en") -> Layout:
    """Where everything goes for this view (the lines under the board depend on the names and locale)."""
    info_lines = len(_info_lines(view, _side_labels(view, names, locale), locale))
    y = HEADER_H
    duel_y = 0
    if view.get("duel"):
        duel_y = y
        y += DUEL_H + GAP
    board_x, board_y = PAD + BAND, y + BAND
    y = board_y + BOARD + BAND + GAP
    info_y = y
    y += info_lines * LINE_H + (GAP if info_lines else 0)
    ladder_y = 0
    if view.get("ladder"):
        ladder_y = y
        y += LADDER_H + GAP
    legend_y = y
    sides = int(view.get("sides") or 0)
    y += sides * ROW_H + PAD
    return Layout(duel_y, board_x, board_y, info_y, info_lines, ladder_y, legend_y, sides, (W, y))


def cell_xy(cell: str) -> tuple[int, int] | None:
    """``"B4"`` -> (column 1, row-from-top 1); None for anything that is not a cell."""
    if not isinstance(cell, str) or len(cell) != 2:
        return None
    col, row = cell[0].upper(), cell[1]
    if col not in FILES or row not in "12345":
        return None
    return FILES.index(col), SIZE - int(row)


def cell_box(lay: Layout, cell: str) -> tuple[int, int, int, int]:
    """The square of a cell in the image (left, top, right, bottom; right/bottom exclusive)."""
    xy = cell_xy(cell)
    if xy is None:
        raise ValueError(f"not a cell: {cell!r}")
    x, y = xy
    left, top = lay.board_x + x * CELL, lay.board_y + y * CELL
    return left, top, left + CELL, top + CELL
