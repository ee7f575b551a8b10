"""Night of the 27 Ninja's image geometry and theme: the board's layout from a view, cells by name, the colours
and sizes every part of the image (and the text board) shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from render.kit import hex_rgb

GAME = "flying_blades"
KEY = "render.flying_blades."
CHAR_COLOUR = {"r": "red", "y": "yellow", "b": "blue", "g": "green", "k": "black"}
COLOUR_CHAR = {colour: char for char, colour in CHAR_COLOUR.items()}
CARDS = ("vanish", "shuriken", "double", "triple", "dragon", "circle", "bomb")
WARDED = "#"
EMPTY = "."


# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("2b1c12")  # walnut: header and panel
ROW_HI = hex_rgb("4d3421")  # the row of the seat to move / the winners
RULE = hex_rgb("3e2a1b")  # separators in the panel
FRAME = hex_rgb("5e3d24")  # the board's frame, where the coordinates are
FRAME_EDGE = hex_rgb("3a2415")
LABEL = hex_rgb("f5e2bc")
LABEL_DIM = hex_rgb("a48a6a")
WOOD = (hex_rgb("e6c893"), hex_rgb("dbb881"))  # maple cells, a faint checker to help count
GRID = hex_rgb("a07a4b")
TINT = hex_rgb("fbeab0")  # cells of the last move
INK = hex_rgb("1f130a")  # outline of the last move's cells
XRED = hex_rgb("b0281c")  # the cross on a removed ninja's cell
WARD = hex_rgb("86735f")
WARD_HATCH = hex_rgb("6c5b4b")
TEXT = hex_rgb("f6e8cf")
DIM = hex_rgb("b8a07f")
GOLD = hex_rgb("f3c351")

CELL = 96  # the same cell on the House and the Temple: ~1000 px wide House, ~1580 px Temple
PAD = 24
BAND = 48  # frame band holding the coordinates
HEADER_H = 156
BOARD_GAP = 22  # frame to panel
ROW_H = 66
LINE_H = 48
COORD_SIZE = 30
TITLE_SIZE = 24
STATUS_SIZE = 38
SMALL_SIZE = 25
NAME_SIZE = 30
STAT_SIZE = 27
ICON = 50  # disc icon in the panel rows
SMALL_ICON = 34  # disc icon inside lines of text
BADGE = 32  # a step number on a cell when several moves are marked


# ------------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    cols: int
    rows: int
    board_x: int
    board_y: int
    panel_y: int
    size: tuple[int, int]
    warded: tuple[tuple[int, int], ...]  # (x, y) cells, y = 0 for the top row


def _panel_lines(view: dict[str, Any]) -> tuple[int, int]:
    """(seat rows, text lines) under the board."""
    rows = view["players"] + (1 if view.get("neutral") else 0)
    lines = 0
    if view.get("viewer") is not None:
        lines += 1  # prey / hunters legend
        if view.get("hand") is not None and not view.get("hands"):
            lines += 1
    if view.get("hands"):
        lines += view["players"]
    return rows, lines


def layout(view: dict[str, Any]) -> Layout:
    board = view["board"]
    rows, cols = len(board), len(board[0])
    warded = tuple((x, y) for y, line in enumerate(board) for x, ch in enumerate(line) if ch == WARDED)
    board_x, board_y = PAD + BAND, HEADER_H + BAND
    panel_y = board_y + rows * CELL + BAND + BOARD_GAP
    seat_rows, lines = _panel_lines(view)
    height = panel_y + seat_rows * ROW_H + (lines * LINE_H + 10 if lines else 0) + PAD
    width = 2 * (PAD + BAND) + cols * CELL
    return Layout(cols, rows, board_x, board_y, panel_y, (width, height), warded)


def cell_box(lay: Layout, x: int, y: int) -> tuple[int, int, int, int]:
    """The inside of a cell (grid lines excluded), y = 0 for the top row."""
    left, top = lay.board_x + x * CELL + 1, lay.board_y + y * CELL + 1
    return left, top, left + CELL - 2, top + CELL - 2


def parse_cell(name: str | None, lay: Layout) -> tuple[int, int] | None:
    """``c3`` -> (2, rows - 3), or None for anything that is not a cell of this board."""
    if not name or len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
        return None
    x, row = ord(name[0].lower()) - ord("a"), int(name[1:])
    if not (0 <= x < lay.cols and 1 <= row <= lay.rows):
        return None
    return x, lay.rows - row
