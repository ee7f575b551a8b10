"""Board geometry, colours and who hunts whom. Cells are indices ``row * width + column``, row 0 = row 1."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from rules.base import IllegalActionError, InvalidActionError, Msg

COLOURS = ("red", "yellow", "blue", "green", "black")
CHARS = "rybgk"
CHAR_INDEX = {ch: i for i, ch in enumerate(CHARS)}
EMPTY = "."
WARD = "#"
FILES = "abcdefghijklmno"
HEIGHT = 9
NINJAS = 27
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_CELL = re.compile(r"^([a-z])(\d{1,2})$")


def colour_msg(colour: int) -> Msg:
    return Msg(f"colour.{COLOURS[colour]}")


@dataclass(frozen=True)
class Geometry:
    """The board of a player count: House (9×9) or Temple (15×9, columns m–o warded with 4 players)."""

    players: int
    width: int
    height: int
    warded: frozenset[int]
    neighbours: tuple[tuple[int, ...], ...]  # orthogonal, on the board, not warded
    ring: tuple[tuple[int, ...], ...]  # the (up to) 8 surrounding cells, not warded
    rays: tuple[tuple[tuple[int, ...], ...], ...]  # per cell, per direction: the cells outward

    @property
    def name(self) -> str:
        return "house" if self.width == 9 else "temple"

    @property
    def size(self) -> int:
        return self.width * self.height

    def cell(self, index: int) -> str:
        return f"{FILES[index % self.width]}{index // self.width + 1}"

    def index(self, column: int, row: int) -> int:
        return row * self.width + column

    def playable(self) -> list[int]:
        return [i for i in range(self.size) if i not in self.warded]

    def parse_cell(self, text: str) -> int:
        """A cell name (``c3``) to an index; raises for malformed names and cells off this board."""
        m = _CELL.match(text)
        if not m:
            raise InvalidActionError("fb.parse.bad_cell", cell=text)
        column, row = FILES.find(m.group(1)), int(m.group(2)) - 1
        if not (0 <= column < self.width and 0 <= row < self.height):
            raise IllegalActionError("fb.off_board", cell=text, board=Msg(f"fb.board.{self.name}"),
                                     last=self.cell(self.size - 1))
        index = self.index(column, row)
        if index in self.warded:
            raise IllegalActionError("fb.warded", cell=text)
        return index

    def line_between(self, a: int, b: int) -> tuple[int, ...] | None:
        """The cells strictly between a and b on an orthogonal line, or None when not on one."""
        for ray in self.rays[a]:
            if b in ray:
                return ray[: ray.index(b)]
        return None


def _on(width: int, column: int, row: int, warded: frozenset[int]) -> int | None:
    if 0 <= column < width and 0 <= row < HEIGHT:
        index = row * width + column
        return None if index in warded else index
    return None


def _ray(width: int, index: int, dc: int, dr: int, warded: frozenset[int]) -> tuple[int, ...]:
    column, row, out = index % width, index // width, []
    while (nxt := _on(width, column + dc, row + dr, warded)) is not None:
        out.append(nxt)
        column, row = column + dc, row + dr
    return tuple(out)


@functools.cache
def geometry(players: int) -> Geometry:
    width = 9 if players <= 3 else 15
    warded = frozenset(r * width + c for r in range(HEIGHT) for c in range(12, 15) if players == 4)
    neighbours, ring, rays = [], [], []
    for index in range(width * HEIGHT):
        column, row = index % width, index // width
        around = [(dc, dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dc, dr) != (0, 0)]
        neighbours.append(tuple(n for dc, dr in DIRECTIONS
                                if (n := _on(width, column + dc, row + dr, warded)) is not None))
        ring.append(tuple(n for dc, dr in around
                          if (n := _on(width, column + dc, row + dr, warded)) is not None))
        rays.append(tuple(_ray(width, index, dc, dr, warded) for dc, dr in DIRECTIONS))
    return Geometry(players, width, HEIGHT, warded, tuple(neighbours), tuple(ring), tuple(rays))


@dataclass(frozen=True)
class Relations:
    """Who hunts whom. Colours on the board are indices into COLOURS; seat i plays colour i."""

    players: int
    colours: int  # how many colours are on the board
    neutral: int | None  # the neutral colour (2 players) or None
    prey: tuple[tuple[int, ...], ...]  # per seat, the colours it may attack

    def prey_seats(self, seat: int) -> list[int]:
        return sorted(c for c in self.prey[seat] if c < self.players)

    def hunter_seats(self, colour: int) -> list[int]:
        return [s for s in range(self.players) if colour in self.prey[s]]

    def prey_chars(self, seat: int) -> str:
        return "".join(CHARS[c] for c in self.prey[seat])


@functools.cache
def relations(players: int) -> Relations:
    if players == 2:
        return Relations(2, 3, 2, ((2,), (2,)))
    if players == 5:
        return Relations(5, 5, None, tuple(((s + 1) % 5, (s + 2) % 5) for s in range(5)))
    return Relations(players, players, None, tuple(((s + 1) % players,) for s in range(players)))
