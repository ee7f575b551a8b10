"""Derived geometry of a sheet: pools, decks, doors, window views, furnishing arrangements, outside regions.

Every function is pure and cheap (sets of cells; the sheet caches its lookups). Lists come in scan order (row by
row from A1) of their first cell unless said otherwise. Definitions (docs/floor_plan.md):

- **Pool**: take the cells that are not stones; those that cannot reach the sheet's border by orthogonal steps
  through non-stone cells are enclosed. An orthogonally connected group of enclosed cells is a pool when none of
  its cells holds a room or a feature. Equivalently: a region of empty outside cells whose orthogonal boundary is
  only stones and that does not touch the sheet's edge. So a diagonal gap between two stones holds water, an
  orthogonal gap leaks, the sheet's edge does not hold water, and a tree (or any feature, or a room) inside the
  ring means no pool. A stone inside a ring is not water; the empty cells around it are (one pool if they
  connect). Nothing may be drawn on water (`rules.floor_plan.sheet`), so a pool, once formed, stays.
- **Deck**: an orthogonally connected group of deck sections.
- **Door link**: a door connects its room to every other room with a cell orthogonally next to the door's cell,
  and opens onto every outside (non-room) cell orthogonally next to it (an exterior door). The sheet's edge is
  not outside: a door facing only the edge opens onto nothing.
- **Window view**: for each wall of the window's room on which the window's cell lies (a corner cell has two)
  whose next cell is an outside cell on the sheet, the window looks straight out that way, cell by cell, to the
  sheet's edge. It sees every stone, deck section and pool it passes (a pool once, however often crossed); a
  room cell stops the view unseen; a tree stops it and is seen.
- **Arrangement**: an orthogonally connected group of furnishings of one room. Its shape is canonical under the
  four rotations **and** the reflections (a mirror image counts as the same shape: on paper you cannot tell a
  reflected L from an L drawn the other way round). Unique = no other arrangement on the sheet has that shape.
- **Outside region**: an orthogonally connected group of non-room cells (features and water included).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.floor_plan.sheet import (
    FULL,
    HEIGHT,
    NEIGHBOURS,
    STEPS,
    WIDTH,
    Cell,
    Sheet,
    cells_of,
    components,
    mask_components,
    scan_key,
)


@dataclass(frozen=True)
class DoorLink:
    cell: Cell
    room: int
    others: frozenset[int]  # the other rooms this door connects its room to
    outside: frozenset[Cell]  # the outside cells it opens onto (non-empty = an exterior door)

    @property
    def exterior(self) -> bool:
        return bool(self.outside)


@dataclass(frozen=True)
class Seen:
    kind: str  # "tree" | "pool" | "deck" | "stone"
    ident: int | Cell  # tree index, pool index into pools(sheet), or the cell


@dataclass(frozen=True)
class WindowView:
    cell: Cell
    room: int
    direction: str  # "N" | "E" | "S" | "W"
    sees: tuple[Seen, ...]  # nearest first


@dataclass(frozen=True)
class Arrangement:
    room: int
    cells: frozenset[Cell]
    shape: tuple[Cell, ...]
    unique: bool


def pools(sheet: Sheet) -> list[frozenset[Cell]]:
    return list(sheet.pool_regions)


def decks(sheet: Sheet) -> list[frozenset[Cell]]:
    return list(components(sheet.decks))


def door_links(sheet: Sheet) -> list[DoorLink]:
    """One link per door, doors in scan order."""
    out = []
    for cell in sorted(sheet.doors, key=scan_key):
        room = sheet.room_of[cell]
        around = [(n, sheet.room_of.get(n)) for n in NEIGHBOURS[cell]]
        others = frozenset(r for _, r in around if r is not None and r != room)
        outside = frozenset(n for n, r in around if r is None)
        out.append(DoorLink(cell, room, others, outside))
    return out


def _look(sheet: Sheet, cell: Cell, dx: int, dy: int) -> tuple[Seen, ...]:
    seen: list[Seen] = []
    x, y = cell[0] + dx, cell[1] + dy
    while 0 <= x < WIDTH and 0 <= y < HEIGHT:
        c = (x, y)
        if c in sheet.room_of:
            break
        if c in sheet.tree_of:
            seen.append(Seen("tree", sheet.tree_of[c]))
            break
        if c in sheet.pool_of:
            pool = Seen("pool", sheet.pool_of[c])
            if pool not in seen:
                seen.append(pool)
        elif c in sheet.decks:
            seen.append(Seen("deck", c))
        elif c in sheet.stones:
            seen.append(Seen("stone", c))
        x, y = x + dx, y + dy
    return tuple(seen)


def window_views(sheet: Sheet) -> list[WindowView]:
    """One view per window and outward wall (windows in scan order, then N, E, S, W)."""
    out = []
    for cell in sorted(sheet.windows, key=scan_key):
        index = sheet.room_of[cell]
        for direction in sheet.rooms[index].walls_of(cell):
            dx, dy = STEPS[direction]
            nxt = (cell[0] + dx, cell[1] + dy)
            if 0 <= nxt[0] < WIDTH and 0 <= nxt[1] < HEIGHT and nxt not in sheet.room_of:
                out.append(WindowView(cell, index, direction, _look(sheet, cell, dx, dy)))
    return out


_TRANSFORMS = (
    lambda x, y: (x, y), lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
    lambda x, y: (-x, y), lambda x, y: (y, x), lambda x, y: (x, -y), lambda x, y: (-y, -x),
)


def canonical_shape(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """The least of the 8 rotations/reflections of ``cells``, moved to the origin, as a sorted tuple."""
    cells = list(cells)
    best: tuple[Cell, ...] | None = None
    for f in _TRANSFORMS:
        moved = [f(x, y) for x, y in cells]
        mx, my = min(x for x, _ in moved), min(y for _, y in moved)
        shape = tuple(sorted((x - mx, y - my) for x, y in moved))
        if best is None or shape < best:
            best = shape
    return best or ()


def arrangements(sheet: Sheet) -> list[Arrangement]:
    """Every arrangement, by room index, then scan order within the room."""
    groups: list[tuple[int, frozenset[Cell], tuple[Cell, ...]]] = []
    by_room: dict[int, list[Cell]] = {}
    for c in sheet.furnishings:
        by_room.setdefault(sheet.room_of[c], []).append(c)
    for room in sorted(by_room):
        groups += [(room, part, canonical_shape(part)) for part in components(by_room[room])]
    counts: dict[tuple[Cell, ...], int] = {}
    for _, _, shape in groups:
        counts[shape] = counts.get(shape, 0) + 1
    return [Arrangement(room, part, shape, counts[shape] == 1) for room, part, shape in groups]


def outside_regions(sheet: Sheet) -> list[frozenset[Cell]]:
    return [frozenset(cells_of(part)) for part in mask_components(FULL & ~sheet.room_mask)]


def touching_rooms(sheet: Sheet, cells: Iterable[Cell]) -> frozenset[int]:
    """The rooms with a cell orthogonally next to any of ``cells`` (a room holding one of them included when
    another of its cells is next to it)."""
    return frozenset(r for c in cells for n in NEIGHBOURS.get(c, ()) if (r := sheet.room_of.get(n)) is not None)
