"""Floor Plan's image model: sizes, colours, the metrics of a sheet and what a sheet view holds."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from render import kit
from render.kit import RGB, hex_rgb

GAME = "floor_plan"
KEY = "render.floor_plan."
COLS, ROWS = 17, 13
CENTRE = (8, 6)  # I7
ROOM_TYPES = ("C", "W", "B", "K", "D", "L")
Cell = tuple[int, int]

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("0f2747")  # page: header and panel
BG_HI = hex_rgb("173864")  # note boxes, leaderboard stripes
PAPER = hex_rgb("1f4f8f")  # blueprint paper (outside cells)
GRID = hex_rgb("3a6aab")
BAND = hex_rgb("163e73")  # the frame with the coordinates
HATCH = hex_rgb("5d8ac4")  # the shaded centre I7
WALL = hex_rgb("f3f7ff")
TEXT = hex_rgb("eef4ff")
DIM = hex_rgb("9fb6d6")
GOLD = hex_rgb("f0c43c")
INK = hex_rgb("0b1d36")  # dark ink: letters on light things, outlines
# subtle room tints: the room blue pulled towards an Okabe-Ito colour; the letter is what tells them apart
ROOM_BASE = hex_rgb("3f78c0")
ROOM_TINT: dict[str, RGB] = {
    "C": kit.blend(ROOM_BASE, kit.OKABE_ITO["reddish_purple"], 0.35),
    "W": kit.blend(ROOM_BASE, kit.OKABE_ITO["sky_blue"], 0.45),
    "B": kit.blend(ROOM_BASE, kit.OKABE_ITO["blue"], 0.35),
    "K": kit.blend(ROOM_BASE, kit.OKABE_ITO["vermillion"], 0.42),
    "D": kit.blend(ROOM_BASE, kit.OKABE_ITO["yellow"], 0.36),
    "L": kit.blend(ROOM_BASE, kit.OKABE_ITO["bluish_green"], 0.35),
}
DOOR = kit.OKABE_ITO["orange"]
PANE = hex_rgb("bfeaff")
FURN = kit.OKABE_ITO["yellow"]
LEAF = hex_rgb("2f9e5b")  # tree canopy
LEAF_DARK = hex_rgb("1d6e3c")
LEAF_LIGHT = hex_rgb("5cc27f")
TRUNK = hex_rgb("7a4e2a")
DECK = hex_rgb("b07a45")
DECK_LINE = hex_rgb("7d5128")
STONE = hex_rgb("a9adb3")
STONE_DARK = hex_rgb("70757d")
WATER = hex_rgb("3fa9e0")
WAVE = hex_rgb("bfe6fa")
HILITE = hex_rgb("ffe45c")  # the pending placement: overlay colour and outline
HILITE_ALPHA = 0.42
DIE = hex_rgb("f7f3e8")
PIP = hex_rgb("1a1a1a")
CROSS = hex_rgb("ff7a59")

N, E, S, W = 1, 2, 4, 8
DIRS = ((N, 0, -1), (E, 1, 0), (S, 0, 1), (W, -1, 0))


@dataclass(frozen=True)
class Metrics:
    """Every length of the sheet image at one scale."""

    cell: int
    pad: int
    band: int
    header: int
    wall: int
    coord: int
    letter: int
    title: int
    small: int
    note_h: int
    legend_h: int

    @property
    def map_w(self) -> int:
        return COLS * self.cell

    @property
    def map_h(self) -> int:
        return ROWS * self.cell


@functools.cache
def metrics(scale: float = 1.0) -> Metrics:
    def s(v: float) -> int:
        return max(1, round(v * scale))

    return Metrics(
        cell=s(50),
        pad=s(18),
        band=s(32),
        header=s(84),
        wall=max(2, s(5)),
        coord=s(23),
        letter=s(30),
        title=s(30),
        small=s(20),
        note_h=s(118),
        legend_h=s(44),
    )


# --------------------------------------------------------------------------------------- sheet model


def _cells(items: Any) -> set[Cell]:
    return {(int(c[0]), int(c[1])) for c in items or ()}


@dataclass
class SheetModel:
    """A sheet view unpacked into cell lookups."""

    room_at: dict[Cell, int]
    types: list[str]
    rects: list[tuple[int, int, int, int]]
    labels: dict[Cell, str]
    doors: set[Cell]
    windows: set[Cell]
    furnishings: set[Cell]
    decks: set[Cell]
    stones: set[Cell]
    water: set[Cell]
    tree_cells: dict[Cell, Cell]  # cell -> its tree's top-left anchor
    trees: list[Cell]

    @classmethod
    def of(cls, sheet: dict[str, Any]) -> SheetModel:
        room_at: dict[Cell, int] = {}
        types, rects, labels = [], [], {}
        for i, r in enumerate(sheet.get("rooms") or ()):
            x, y, w, h = int(r["x"]), int(r["y"]), int(r["w"]), int(r["h"])
            types.append(str(r.get("type", "?")))
            rects.append((x, y, w, h))
            for cy in range(y, y + h):
                for cx in range(x, x + w):
                    room_at[(cx, cy)] = i
            label = r.get("label")
            if label is not None:
                labels[(int(label[0]), int(label[1]))] = types[-1]
        trees = [(int(c[0]), int(c[1])) for c in sheet.get("trees") or ()]
        tree_cells = {(ax + dx, ay + dy): (ax, ay) for ax, ay in trees for dx in range(3) for dy in range(3)}
        water = {(int(c[0]), int(c[1])) for pool in sheet.get("pools") or () for c in pool}
        return cls(
            room_at,
            types,
            rects,
            labels,
            _cells(sheet.get("doors")),
            _cells(sheet.get("windows")),
            _cells(sheet.get("furnishings")),
            _cells(sheet.get("decks")),
            _cells(sheet.get("stones")),
            water,
            tree_cells,
            trees,
        )

    def walls(self, cell: Cell) -> int:
        """Bitmask of the sides of a room cell on its room's border."""
        room = self.room_at[cell]
        mask = 0
        for bit, dx, dy in DIRS:
            if self.room_at.get((cell[0] + dx, cell[1] + dy)) != room:
                mask |= bit
        return mask

    def outward(self, cell: Cell) -> int:
        """The border sides of a room cell that face outside (not another room, not off the sheet)."""
        mask = 0
        for bit, dx, dy in DIRS:
            nx, ny = cell[0] + dx, cell[1] + dy
            if 0 <= nx < COLS and 0 <= ny < ROWS and (nx, ny) not in self.room_at:
                mask |= bit
        return mask

    def char(self, cell: Cell) -> str:
        """The text board's character for a cell."""
        if cell in self.labels:
            return self.labels[cell].upper()
        if cell in self.doors:
            return "d"
        if cell in self.windows:
            return "w"
        if cell in self.furnishings:
            return "f"
        if cell in self.room_at:
            return "#"
        if cell in self.tree_cells:
            return "T"
        if cell in self.decks:
            return "="
        if cell in self.stones:
            return "o"
        if cell in self.water:
            return "~"
        return "."
