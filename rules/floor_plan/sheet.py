"""The blueprint sheet: cells, rooms, features and the placement rules (docs/floor_plan.md).

A `Sheet` is an immutable value; `add_room`, `add_features` and `start_room` return a new one or raise
`IllegalActionError` whose `Msg` names the cell and the rule broken. Decisions beyond the rulebook:

- A room's cells must all be free: no other room (so no overlap, not inside another room, not around a smaller
  room), no feature (a room may not enclose or cover earlier features, trees included) and no pool water.
- Pools (see `rules.floor_plan.geometry`) are derived from the stones, but water, once there, is drawn: it
  occupies its cells, so no feature (stones included) and no room goes on a pool cell. Pools therefore never
  shrink. A set of features is drawn at once: the water checked is the sheet's before the set.
- Doors and windows go on any wall cell (a border cell of a room, interior walls included), furnishings on any
  room cell; none on a label cell or a cell that already holds a feature.
- A set of deck sections is accepted when every section is joined, through deck sections of the set or of the
  sheet (orthogonally), to a section that touches a room orthogonally; the order within the set does not matter.
- `add_features` does not check how many cells a set holds (the dice and bonuses are the game's business).
- The starting living room is `start_room(sheet, x, y, w, h)`: one side 6 (the game checks that the other side
  is the die), enclosing I7, labelled L on I7, on an empty sheet.
- "Scan order" (used for every derived list) is row by row from A1: cells sorted by ``(y, x)``.
"""

from __future__ import annotations

import functools
import operator
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules import validate as v
from rules.base import IllegalActionError, InvalidActionError, Msg

Cell = tuple[int, int]

WIDTH = 17
HEIGHT = 13
# Rectangles cached (`rect_cells`, ...): a planner's game asks for 230-310 (97% hits); every room that fits the
# sheet is 5,481 (1-6 × 1-6 at any place). The bot's main process (its planners think in the render workers)
# hits `rect_cells` 95% at this bound as at any larger one (`python -m tools.cache_sizing`).
RECTS = 512
COLUMNS = "ABCDEFGHIJKLMNOPQ"
CENTRE: Cell = (8, 6)  # I7
ROOM_TYPES = ("C", "W", "B", "K", "D", "L")  # die value 1..6 -> type
ROOM_NAMES = {"C": "closet", "W": "washroom", "B": "bedroom", "K": "kitchen", "D": "dining", "L": "living"}
FEATURE_KINDS = ("tree", "door", "window", "furnishing", "deck", "stone")  # die value 1..6 -> kind
TREE_SIZE = 3
START_SIDE = 6
STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_CELL = re.compile(r"^([A-Za-z])(\d{1,2})$")

ALL_CELLS: tuple[Cell, ...] = tuple((x, y) for y in range(HEIGHT) for x in range(WIDTH))  # scan order
NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {
    (x, y): tuple((x + dx, y + dy) for dx, dy in STEPS.values() if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT)
    for x, y in ALL_CELLS
}
SHEET_KEYS = ("rooms", "trees", "doors", "windows", "furnishings", "decks", "stones")
BORDER: tuple[Cell, ...] = tuple(c for c in ALL_CELLS if len(NEIGHBOURS[c]) < 4)

# --- cell sets as bit masks (bit y·WIDTH + x: the lowest bit is the first cell in scan order) -----------------
# The planner floods and counts regions of the sheet for every candidate it weighs; a flood over an int is a
# few big-int operations per step instead of a set operation per cell.
BIT: dict[Cell, int] = {c: 1 << (c[1] * WIDTH + c[0]) for c in ALL_CELLS}
CELL_AT: tuple[Cell, ...] = ALL_CELLS  # bit index -> cell
FULL = (1 << (WIDTH * HEIGHT)) - 1
_WEST = sum(BIT[(0, y)] for y in range(HEIGHT))  # column A
_EAST = sum(BIT[(WIDTH - 1, y)] for y in range(HEIGHT))  # column Q
BORDER_MASK = sum(BIT[c] for c in BORDER)


def mask_of(cells: Iterable[Cell]) -> int:
    m = 0
    for c in cells:
        m |= BIT[c]
    return m


_BYTES = (WIDTH * HEIGHT + 7) // 8
# per byte of a mask and value of that byte: its cells (a mask is read a byte at a time)
_BYTE_CELLS: tuple[tuple[tuple[Cell, ...], ...], ...] = tuple(
    tuple(tuple(CELL_AT[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < len(CELL_AT)) for b in range(256))
    for k in range(_BYTES)
)


def cells_of(mask: int) -> list[Cell]:
    """The cells of a mask, in scan order."""
    out: list[Cell] = []
    for k, byte in enumerate(mask.to_bytes(_BYTES, "little")):
        if byte:
            out += _BYTE_CELLS[k][byte]
    return out


def shifted(mask: int) -> tuple[int, int, int, int]:
    """For each cell, whether its neighbour to the W, E, N, S is in ``mask`` (on the sheet only)."""
    return ((mask << 1) & ~_WEST & FULL, (mask >> 1) & ~_EAST, (mask << WIDTH) & FULL, mask >> WIDTH)


def grow(mask: int) -> int:
    """``mask`` and every cell orthogonally next to it."""
    return (mask | ((mask & ~_EAST) << 1) | ((mask & ~_WEST) >> 1) | (mask << WIDTH) | (mask >> WIDTH)) & FULL


def flood(seed: int, within: int) -> int:
    """The cells of ``within`` orthogonally connected (inside ``within``) to a cell of ``seed``."""
    region = seed & within
    while True:
        bigger = grow(region) & within
        if bigger == region:
            return region
        region = bigger


def mask_components(mask: int) -> Iterator[int]:
    """Orthogonally connected components of a mask, in scan order of their first cell."""
    while mask:
        part = flood(mask & -mask, mask)
        mask &= ~part
        yield part


@functools.lru_cache(maxsize=RECTS)
def rect_mask(x: int, y: int, w: int, h: int) -> int:
    return mask_of(rect_cells(x, y, w, h))


def on_sheet(cell: Cell) -> bool:
    return 0 <= cell[0] < WIDTH and 0 <= cell[1] < HEIGHT


def scan_key(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[0]


def cell_name(cell: Cell) -> str:
    """``(8, 6) -> "I7"``; a cell off the sheet is written as its coordinates, for messages."""
    x, y = cell
    return f"{COLUMNS[x]}{y + 1}" if on_sheet(cell) else f"({x}, {y})"


def parse_cell(text: str) -> Cell:
    """``"I7" -> (8, 6)`` (case-insensitive); raises `InvalidActionError` when malformed or off the sheet."""
    m = _CELL.match(text.strip())
    if not m:
        raise InvalidActionError("fp.sheet.bad_cell", cell=text)
    column, row = COLUMNS.find(m.group(1).upper()), int(m.group(2)) - 1
    if column < 0 or not 0 <= row < HEIGHT:
        raise InvalidActionError("fp.sheet.off_sheet", cell=text.strip().upper())
    return column, row


def room_type_msg(room_type: str) -> Msg:
    return Msg(f"fp.sheet.room.{ROOM_NAMES[room_type]}")


def feature_msg(kind: str) -> Msg:
    return Msg(f"fp.sheet.feature.{kind}")


# `Room.walls_of` by the bits of the sides a cell lies on (N 1, E 2, S 4, W 8): those sides in N, E, S, W order.
_SIDES: tuple[tuple[str, ...], ...] = tuple(
    tuple(d for i, d in enumerate("NESW") if bits >> i & 1) for bits in range(16))


@functools.lru_cache(maxsize=RECTS)
def rect_cells(x: int, y: int, w: int, h: int) -> frozenset[Cell]:
    return frozenset((i, j) for j in range(y, y + h) for i in range(x, x + w))


@functools.lru_cache(maxsize=RECTS)
def rect_border(x: int, y: int, w: int, h: int) -> frozenset[Cell]:
    return frozenset((i, j) for i, j in rect_cells(x, y, w, h) if i in (x, x + w - 1) or j in (y, y + h - 1))


@dataclass(frozen=True)
class Room:
    type: str
    x: int
    y: int
    w: int
    h: int
    label: Cell

    def cells(self) -> frozenset[Cell]:
        return rect_cells(self.x, self.y, self.w, self.h)

    def wall_cells(self) -> frozenset[Cell]:
        """The room's own cells along its border."""
        return rect_border(self.x, self.y, self.w, self.h)

    def contains(self, cell: Cell) -> bool:
        return self.x <= cell[0] < self.x + self.w and self.y <= cell[1] < self.y + self.h

    def walls_of(self, cell: Cell) -> tuple[str, ...]:
        """The directions (N, E, S, W) in which ``cell`` of this room lies on the room's border."""
        x, y = cell
        return _SIDES[(y == self.y) | (x == self.x + self.w - 1) << 1 | (y == self.y + self.h - 1) << 2
                      | (x == self.x) << 3]

    @property
    def corner(self) -> str:
        return cell_name((self.x, self.y))

    def msg(self) -> Msg:
        """``the Kitchen at C3`` (named by its top-left cell)."""
        return Msg("fp.sheet.room_at", room=room_type_msg(self.type), cell=self.corner)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "x": self.x, "y": self.y, "w": self.w, "h": self.h, "label": list(self.label)}

    @classmethod
    def from_json(cls, d: dict[str, Any], where: v.Where = "room") -> Room:
        """Reads `to_json`; raises `StateError` unless the room lies on the sheet with its label inside."""
        with v.guard(where):
            return _room_from(d, where)


ROOM_KEYS = ("type", "x", "y", "w", "h", "label")
ROOM_KEY_SET = frozenset(ROOM_KEYS)
_ROOM_ITEMS = operator.itemgetter(*ROOM_KEYS)


def _room_from(d: Any, where: v.Where) -> Room:
    if type(d) is dict and d.keys() == ROOM_KEY_SET:  # the usual sound room, accepted in one expression
        t, x, y, w, h, label = _ROOM_ITEMS(d)
        if (t in ROOM_TYPES and type(x) is type(y) is type(w) is type(h) is int and 0 <= x < x + w <= WIDTH
                and 0 <= y < y + h <= HEIGHT and type(label) is list and len(label) == 2
                and type(label[0]) is type(label[1]) is int and x <= label[0] < x + w and y <= label[1] < y + h):
            return Room(t, x, y, w, h, (label[0], label[1]))
    v.as_dict(d, where, ROOM_KEYS)  # else find and name the fault
    x, y = v.require_int(d, "x", 0, WIDTH - 1, where), v.require_int(d, "y", 0, HEIGHT - 1, where)
    room = Room(v.require_str(d, "type", where, choices=ROOM_TYPES), x, y,
                v.require_int(d, "w", 1, WIDTH - x, where), v.require_int(d, "h", 1, HEIGHT - y, where),
                _cell_from(d["label"], v.at(where, "label")))
    v.require(room.contains(room.label), v.at(where, "label"), "outside the room")
    return room


def _cells_json(cells: Iterable[Cell]) -> list[list[int]]:
    return [[x, y] for x, y in sorted(cells, key=scan_key)]


def _cell_from(raw: Any, where: v.Where) -> Cell:
    if type(raw) is list and len(raw) == 2 and type(x := raw[0]) is type(y := raw[1]) is int \
            and 0 <= x < WIDTH and 0 <= y < HEIGHT:
        return x, y  # the usual sound cell, accepted at once
    x, y = v.as_ints(raw, where, 0, max(WIDTH, HEIGHT) - 1, length=2)
    v.require(on_sheet((x, y)), where, f"({x}, {y}) is off the sheet")
    return x, y


def _cells_from(raw: Any, where: v.Where) -> frozenset[Cell]:
    """A stored set of cells: on the sheet, in scan order, each once."""
    cells = [_cell_from(c, (where, i)) for i, c in enumerate(v.as_list(raw, where, max_len=len(ALL_CELLS)))]
    v.ascending(cells, where, scan_key)
    return frozenset(cells)


def _trees_from(raw: Any, where: v.Where) -> tuple[Cell, ...]:
    """Tree anchors in the order drawn, each 3×3 on the sheet (overlaps are checked on the sheet)."""
    anchors = [_cell_from(c, v.at(where, i)) for i, c in enumerate(v.as_list(raw, where, max_len=len(ALL_CELLS)))]
    for i, (x, y) in enumerate(anchors):
        v.require(x + TREE_SIZE <= WIDTH and y + TREE_SIZE <= HEIGHT, v.at(where, i), "a tree off the sheet")
    return tuple(anchors)


def _rooms_from(raw: Any, where: v.Where) -> tuple[Room, ...]:
    """Rooms in the order drawn, each on the sheet (overlaps are checked on the sheet)."""
    return tuple(_room_from(r, (where, i)) for i, r in enumerate(v.as_list(raw, where, max_len=len(ALL_CELLS))))


def _check_apart(parts: Sequence[frozenset[Cell]], owner: dict[Cell, int], where: v.Where, what: str) -> None:
    """No two rooms (or trees) share a cell: the owner lookup then holds every cell of each."""
    if sum(len(p) for p in parts) == len(owner):
        return
    taken: set[Cell] = set()
    for i, cells in enumerate(parts):
        v.require(not cells & taken, v.at(where, i), f"overlaps another {what}")
        taken |= cells


@dataclass(frozen=True)
class Sheet:
    rooms: tuple[Room, ...] = ()  # index = room id, in the order drawn
    trees: tuple[Cell, ...] = ()  # top-left cell of each 3×3 tree, in the order drawn
    doors: frozenset[Cell] = frozenset()
    windows: frozenset[Cell] = frozenset()
    furnishings: frozenset[Cell] = frozenset()
    decks: frozenset[Cell] = frozenset()
    stones: frozenset[Cell] = frozenset()

    @classmethod
    def empty(cls) -> Sheet:
        return cls()

    # --- derived lookups, computed once per sheet value ---------------------------------------------------

    @cached_property
    def room_of(self) -> dict[Cell, int]:
        return {c: i for i, room in enumerate(self.rooms) for c in room.cells()}

    @cached_property
    def room_mask(self) -> int:
        m = 0
        for r in self.rooms:
            m |= rect_mask(r.x, r.y, r.w, r.h)
        return m

    @cached_property
    def blocked_mask(self) -> int:
        """Room cells, feature cells and water: where nothing new goes."""
        return self.room_mask | self.features_mask | mask_of(self.water)

    @cached_property
    def features_mask(self) -> int:
        return mask_of(self.features)

    @cached_property
    def walls_mask(self) -> int:
        return mask_of(self.walls)

    @cached_property
    def labels_mask(self) -> int:
        return mask_of(self.labels)

    @cached_property
    def labels(self) -> frozenset[Cell]:
        return frozenset(room.label for room in self.rooms)

    @cached_property
    def walls(self) -> frozenset[Cell]:
        return frozenset().union(*(room.wall_cells() for room in self.rooms))

    @cached_property
    def tree_of(self) -> dict[Cell, int]:
        return {c: i for i, (x, y) in enumerate(self.trees) for c in rect_cells(x, y, TREE_SIZE, TREE_SIZE)}

    @cached_property
    def features(self) -> dict[Cell, str]:
        """Every cell holding a feature -> its kind (a tree's nine cells included)."""
        out = dict.fromkeys(self.tree_of, "tree")
        for kind, cells in (("door", self.doors), ("window", self.windows), ("furnishing", self.furnishings),
                            ("deck", self.decks), ("stone", self.stones)):
            out.update(dict.fromkeys(cells, kind))
        return out

    @cached_property
    def pool_regions(self) -> tuple[frozenset[Cell], ...]:
        """The pools, in scan order of their first cell; see `rules.floor_plan.geometry.pools`."""
        return _pool_regions(self)

    @cached_property
    def water(self) -> frozenset[Cell]:
        return frozenset().union(*self.pool_regions)

    @cached_property
    def pool_of(self) -> dict[Cell, int]:
        return {c: i for i, pool in enumerate(self.pool_regions) for c in pool}

    # --- JSON ----------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The stored form; the lists of a sheet view (without the derived ``pools``), cells in scan order."""
        return {
            "rooms": [room.to_json() for room in self.rooms],
            "trees": [list(c) for c in self.trees],
            "doors": _cells_json(self.doors),
            "windows": _cells_json(self.windows),
            "furnishings": _cells_json(self.furnishings),
            "decks": _cells_json(self.decks),
            "stones": _cells_json(self.stones),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], where: v.Where = "sheet") -> Sheet:
        """Reads `to_json` (or a sheet view: other keys are ignored); raises `StateError` for anything off the
        sheet, out of order or overlapping (rooms with rooms, trees with trees, features with each other)."""
        with v.guard(where):
            v.as_dict(d, where, SHEET_KEYS, extra_ok=True)
            sheet = cls(rooms=_rooms_from(d["rooms"], v.at(where, "rooms")),
                        trees=_trees_from(d["trees"], v.at(where, "trees")),
                        **{k: _cells_from(d[k], v.at(where, k)) for k in SHEET_KEYS[2:]})
            _check_apart([r.cells() for r in sheet.rooms], sheet.room_of, v.at(where, "rooms"), "room")
            _check_apart([rect_cells(x, y, TREE_SIZE, TREE_SIZE) for x, y in sheet.trees], sheet.tree_of,
                         v.at(where, "trees"), "tree")
            _check_features_apart(sheet, where)
            return sheet


def _check_features_apart(sheet: Sheet, where: v.Where) -> None:
    """One feature per cell and none on a label; doors and windows on walls, furnishings in rooms, trees, decks
    and stones outside (the placement rules that keep the derived lookups one-to-one)."""
    seen = set(sheet.tree_of) | sheet.labels
    v.require(not sheet.tree_of.keys() & sheet.room_of.keys(), v.at(where, "trees"), "a tree inside a room")
    for kind in SHEET_KEYS[2:]:
        cells: frozenset[Cell] = getattr(sheet, kind)
        v.require(not cells & seen, v.at(where, kind), "a cell holding a label or two features")
        seen |= cells
        if kind in ("doors", "windows"):
            v.require(cells <= sheet.walls, v.at(where, kind), "off every room's wall")
        else:
            inside = kind == "furnishings"
            v.require(all((c in sheet.room_of) == inside for c in cells), v.at(where, kind),
                      "outside every room" if inside else "inside a room")


def components(cells: Iterable[Cell]) -> Iterator[frozenset[Cell]]:
    """Orthogonally connected components of ``cells``, in scan order of their first cell."""
    for part in mask_components(mask_of(cells)):
        yield frozenset(cells_of(part))


def _pool_regions(sheet: Sheet) -> tuple[frozenset[Cell], ...]:
    stones = sheet.stones
    if len(stones) < 4:
        return ()
    open_ = FULL & ~mask_of(stones)
    enclosed = open_ & ~flood(BORDER_MASK, open_)
    if not enclosed:
        return ()
    busy = sheet.room_mask | mask_of(sheet.features)
    return tuple(frozenset(cells_of(part)) for part in mask_components(enclosed) if not part & busy)


# --- rooms ------------------------------------------------------------------------------------------------


def _check_room_shape(room: Room) -> None:
    if room.type not in ROOM_TYPES:
        raise InvalidActionError("fp.sheet.bad_room_type", type=room.type)
    if room.w < 1 or room.h < 1:
        raise InvalidActionError("fp.sheet.bad_size", w=room.w, h=room.h)
    size = {"w": room.w, "h": room.h, "cell": cell_name((room.x, room.y))}
    if room.x < 0 or room.y < 0 or room.x + room.w > WIDTH or room.y + room.h > HEIGHT:
        raise IllegalActionError("fp.sheet.room_off_sheet", **size)
    if not room.contains(room.label):
        raise IllegalActionError("fp.sheet.label_outside", label=cell_name(room.label), **size)


def _check_room_space(sheet: Sheet, room: Room) -> None:
    size = {"w": room.w, "h": room.h, "cell": room.corner}
    for other in sheet.rooms:
        if not (other.x < room.x + room.w and room.x < other.x + other.w
                and other.y < room.y + room.h and room.y < other.y + other.h):
            continue
        if other.cells() >= room.cells():
            raise IllegalActionError("fp.sheet.room_inside", other=other.msg(), **size)
        if room.cells() >= other.cells():
            raise IllegalActionError("fp.sheet.room_encloses_room", other=other.msg(), **size)
        first = min(room.cells() & other.cells(), key=scan_key)
        raise IllegalActionError("fp.sheet.room_overlaps", cell=cell_name(first), other=other.msg())
    cells = sorted(room.cells(), key=scan_key)
    for c in cells:
        if c in sheet.features:
            raise IllegalActionError("fp.sheet.room_encloses_feature", cell=cell_name(c),
                                     feature=feature_msg(sheet.features[c]))
    for c in cells:
        if c in sheet.water:
            raise IllegalActionError("fp.sheet.room_on_water", cell=cell_name(c))


def add_room(sheet: Sheet, room: Room) -> Sheet:
    """The sheet with ``room`` drawn; raises when it breaks a placement rule (see the module docstring)."""
    _check_room_shape(room)
    _check_room_space(sheet, room)
    new = Sheet((*sheet.rooms, room), sheet.trees, sheet.doors, sheet.windows, sheet.furnishings, sheet.decks,
                sheet.stones)
    _inherit(new, sheet, _ROOM_KEEPS)
    _grow_rooms(new, sheet, room)
    return new


# The derived lookups (`Sheet`'s cached properties) a new sheet shares with the sheet it was drawn on, worked out
# again for every candidate sheet the planner weighs otherwise. A room is never drawn on a feature or on water,
# and a feature never on water: whatever is drawn (but stones) leaves the pools as they were, since an enclosed
# region holding a room or a feature is no pool (`_pool_regions`) and a pool's water takes neither.
_POOL_KEEPS = ("pool_regions", "water", "pool_of")
_ROOM_PARTS = ("room_of", "room_mask", "labels", "walls", "labels_mask", "walls_mask")
_ROOM_KEEPS = ("tree_of", "features", "features_mask", *_POOL_KEEPS)
_FEATURE_KEEPS = {"tree": (*_ROOM_PARTS, *_POOL_KEEPS), "deck": (*_ROOM_PARTS, "tree_of", *_POOL_KEEPS),
                  "stone": (*_ROOM_PARTS, "tree_of")}
_INNER_KEEPS = (*_ROOM_PARTS, "tree_of", *_POOL_KEEPS)  # doors, windows, furnishings: inside rooms


def _inherit(new: Sheet, old: Sheet, names: Iterable[str]) -> None:
    """Give ``new`` the derived lookups ``names`` of ``old`` that ``old`` has worked out (equal on both)."""
    have, put = old.__dict__, new.__dict__
    for name in names:
        if name in have:
            put[name] = have[name]


def _grow_rooms(new: Sheet, old: Sheet, room: Room) -> None:
    """``new``'s room lookups from ``old``'s, ``new`` being ``old`` and ``room``: the same values (and, for
    ``room_of``, the same order) as worked out afresh."""
    have, put = old.__dict__, new.__dict__
    if "room_of" in have:
        put["room_of"] = {**have["room_of"], **dict.fromkeys(room.cells(), len(old.rooms))}
    rect = rect_mask(room.x, room.y, room.w, room.h)
    if "room_mask" in have:
        put["room_mask"] = have["room_mask"] | rect
    if "blocked_mask" in have:
        put["blocked_mask"] = have["blocked_mask"] | rect
    if "labels" in have:
        put["labels"] = have["labels"] | {room.label}
    if "walls" in have:
        put["walls"] = have["walls"] | room.wall_cells()


def start_spots(die: int) -> list[tuple[int, int, int, int]]:
    """Every (x, y, w, h) the starting living room may take with this die: 6×die either way round, over I7."""
    cx, cy = CENTRE
    return [(x, y, w, h) for w, h in sorted({(START_SIDE, die), (die, START_SIDE)})
            for x in range(max(0, cx - w + 1), min(cx, WIDTH - w) + 1)
            for y in range(max(0, cy - h + 1), min(cy, HEIGHT - h) + 1)]


def start_room(sheet: Sheet, x: int, y: int, w: int, h: int) -> Sheet:
    """The starting living room (one side 6, enclosing I7, label L on I7) on an empty sheet."""
    if sheet.rooms:
        raise IllegalActionError("fp.sheet.start_twice")
    if START_SIDE not in (w, h):
        raise IllegalActionError("fp.sheet.start_size", w=w, h=h)
    room = Room("L", x, y, w, h, CENTRE)
    if not room.contains(CENTRE):
        raise IllegalActionError("fp.sheet.start_centre", w=w, h=h, cell=cell_name((x, y)))
    return add_room(sheet, room)


def _blocked_prefix(sheet: Sheet) -> list[list[int]]:
    """2-D prefix sums of the cells a new room may not take (rooms, features, water)."""
    blocked = sheet.room_of.keys() | sheet.features.keys() | sheet.water
    pre = [[0] * (WIDTH + 1) for _ in range(HEIGHT + 1)]
    for y in range(HEIGHT):
        row, above, out = 0, pre[y], pre[y + 1]
        for x in range(WIDTH):
            row += (x, y) in blocked
            out[x + 1] = above[x + 1] + row
    return pre


def room_fits_somewhere(sheet: Sheet, w: int, h: int) -> bool:
    """Whether a w×h room (either orientation) can be drawn anywhere on the sheet."""
    pre = _blocked_prefix(sheet)
    for rw, rh in {(w, h), (h, w)}:
        for y in range(HEIGHT - rh + 1):
            for x in range(WIDTH - rw + 1):
                if pre[y + rh][x + rw] - pre[y][x + rw] - pre[y + rh][x] + pre[y][x] == 0:
                    return True
    return False


# --- features ---------------------------------------------------------------------------------------------


def _check_free(sheet: Sheet, cell: Cell, kind: str, taken: dict[Cell, str]) -> None:
    name = cell_name(cell)
    if cell in sheet.labels:
        room = sheet.rooms[sheet.room_of[cell]]
        raise IllegalActionError("fp.sheet.on_label", cell=name, room=room.msg())
    other = sheet.features.get(cell) or taken.get(cell)
    if other:
        raise IllegalActionError("fp.sheet.occupied", cell=name, other=feature_msg(other), feature=feature_msg(kind))
    if cell in sheet.water:
        raise IllegalActionError("fp.sheet.on_water", cell=name, feature=feature_msg(kind))


def _check_outside(sheet: Sheet, cell: Cell, kind: str, taken: dict[Cell, str]) -> None:
    if cell in sheet.room_of:
        room = sheet.rooms[sheet.room_of[cell]]
        raise IllegalActionError("fp.sheet.outside_only", cell=cell_name(cell), room=room.msg(),
                                 feature=feature_msg(kind))
    _check_free(sheet, cell, kind, taken)


def _check_inside(sheet: Sheet, cell: Cell, kind: str, taken: dict[Cell, str]) -> None:
    if cell not in sheet.room_of:
        raise IllegalActionError("fp.sheet.inside_only", cell=cell_name(cell), feature=feature_msg(kind))
    if kind in ("door", "window") and cell not in sheet.walls:
        room = sheet.rooms[sheet.room_of[cell]]
        raise IllegalActionError("fp.sheet.not_on_wall", cell=cell_name(cell), room=room.msg(),
                                 feature=feature_msg(kind))
    _check_free(sheet, cell, kind, taken)


def _tree_cells(anchor: Cell) -> list[Cell]:
    x, y = anchor
    if x < 0 or y < 0 or x + TREE_SIZE > WIDTH or y + TREE_SIZE > HEIGHT:
        raise IllegalActionError("fp.sheet.tree_off_sheet", cell=cell_name(anchor))
    return sorted(rect_cells(x, y, TREE_SIZE, TREE_SIZE), key=scan_key)


def _unattached_decks(sheet: Sheet, new: Iterable[Cell]) -> list[Cell]:
    """The cells of ``new`` not joined (through deck sections) to a section touching a room, in scan order."""
    new = set(new)
    attached = {c for c in new if any(n in sheet.room_of or n in sheet.decks for n in NEIGHBOURS[c])}
    stack = list(attached)
    while stack:
        for n in NEIGHBOURS[stack.pop()]:
            if n in new and n not in attached:
                attached.add(n)
                stack.append(n)
    return sorted(new - attached, key=scan_key)


def add_features(sheet: Sheet, kind: str, cells: Iterable[Cell]) -> Sheet:
    """The sheet with one set of features drawn (all or nothing); for trees the cells are top-left anchors."""
    if kind not in FEATURE_KINDS:
        raise InvalidActionError("fp.sheet.bad_kind", kind=kind)
    cells = list(cells)
    if not _all_free(sheet, kind, cells):
        _check_cells(sheet, kind, cells)
    if kind == "deck" and (loose := _unattached_decks(sheet, cells)):
        raise IllegalActionError("fp.sheet.deck_unattached", cell=cell_name(loose[0]))
    return _with(sheet, kind, cells)


def _all_free(sheet: Sheet, kind: str, cells: list[Cell]) -> bool:
    """Whether every cell check of `_check_cells` passes, read on masks at once (the planner draws thousands of
    sets a game, nearly all sound): cells on the sheet, each once, on a free wall (doors, windows), a free room
    cell (furnishings) or a free outside cell (the rest; a tree's nine, apart from the set's other trees).
    False sends the set through the checks one by one, which name the fault."""
    taken = 0
    for c in cells:
        if (bits := BIT.get(c, 0)) == 0:
            return False
        if kind == "tree":
            x, y = c
            if x > WIDTH - TREE_SIZE or y > HEIGHT - TREE_SIZE:
                return False
            bits = rect_mask(x, y, TREE_SIZE, TREE_SIZE)
        if taken & bits:
            return False
        taken |= bits
    if kind in ("door", "window"):
        allowed = sheet.walls_mask & ~(sheet.labels_mask | sheet.features_mask)  # no water in a room
    elif kind == "furnishing":
        allowed = sheet.room_mask & ~(sheet.labels_mask | sheet.features_mask)
    else:
        allowed = FULL & ~sheet.blocked_mask
    return not taken & ~allowed


def _check_cells(sheet: Sheet, kind: str, cells: list[Cell]) -> None:
    """Raise for the first cell of the set that may not take a feature of ``kind``."""
    taken: dict[Cell, str] = {}
    listed: set[Cell] = set()
    for cell in cells:
        if not on_sheet(cell):
            raise IllegalActionError("fp.sheet.off_sheet", cell=cell_name(cell))
        if cell in listed:
            raise IllegalActionError("fp.sheet.cell_twice", cell=cell_name(cell))
        listed.add(cell)
        if kind == "tree":
            for c in _tree_cells(cell):
                _check_outside(sheet, c, kind, taken)
                taken[c] = kind
            continue
        (_check_inside if kind in ("door", "window", "furnishing") else _check_outside)(sheet, cell, kind, taken)
        taken[cell] = kind


def _with(sheet: Sheet, kind: str, cells: list[Cell]) -> Sheet:
    if kind == "tree":
        new = Sheet(sheet.rooms, (*sheet.trees, *cells), sheet.doors, sheet.windows, sheet.furnishings,
                    sheet.decks, sheet.stones)
    else:
        field = {"door": "doors", "window": "windows", "furnishing": "furnishings", "deck": "decks",
                 "stone": "stones"}
        values = {f: getattr(sheet, f) for f in ("doors", "windows", "furnishings", "decks", "stones")}
        values[field[kind]] = values[field[kind]] | frozenset(cells)
        new = Sheet(sheet.rooms, sheet.trees, **values)
    _inherit(new, sheet, _FEATURE_KEEPS.get(kind, _INNER_KEEPS))
    _grow_features(new, sheet, kind, cells)
    return new


def _grow_features(new: Sheet, old: Sheet, kind: str, cells: list[Cell]) -> None:
    """``new``'s feature lookups from ``old``'s, ``new`` being ``old`` and one set of ``kind`` (for trees, their
    anchors): the same values as worked out afresh (``features`` in another order, which no reader depends on)."""
    have, put = old.__dict__, new.__dict__
    drawn = [c for x, y in cells for c in rect_cells(x, y, TREE_SIZE, TREE_SIZE)] if kind == "tree" else cells
    if "tree_of" in have and kind == "tree":
        n = len(old.trees)
        put["tree_of"] = {**have["tree_of"], **{c: n + i for i, (x, y) in enumerate(cells)
                                                for c in rect_cells(x, y, TREE_SIZE, TREE_SIZE)}}
    if "features" in have:
        put["features"] = {**have["features"], **dict.fromkeys(drawn, kind)}
    if "features_mask" in have:
        put["features_mask"] = have["features_mask"] | mask_of(drawn)
    if "blocked_mask" in have and kind != "stone":  # stones may make a pool, whose water blocks too
        put["blocked_mask"] = have["blocked_mask"] | mask_of(drawn)


def free_cells(sheet: Sheet, kind: str) -> list[Cell]:
    """The cells (scan order) where one feature of ``kind`` could go on its own; for trees, the anchors.

    Deck cells are listed when they are free outside cells, attached or not (see `features_fit_somewhere`).
    Read off bit masks (the planner asks for every candidate sheet): walls, room cells or outside cells that hold
    no label, feature or water.
    """
    if kind in ("door", "window"):
        return cells_of(sheet.walls_mask & ~(sheet.labels_mask | sheet.features_mask))  # no water in a room
    if kind == "furnishing":
        return cells_of(sheet.room_mask & ~(sheet.labels_mask | sheet.features_mask))
    open_ = FULL & ~sheet.blocked_mask
    if kind != "tree":
        return cells_of(open_)
    run = open_ & (open_ >> 1) & (open_ >> 2) & _TREE_FITS  # three open cells across, not wrapping a row
    return cells_of(run & (run >> WIDTH) & (run >> 2 * WIDTH))  # ... on three rows (none below the sheet)


_TREE_FITS = mask_of((x, y) for y in range(HEIGHT) for x in range(WIDTH - TREE_SIZE + 1))


def _trees_fit(anchors: list[Cell], count: int) -> bool:
    if count <= 0:
        return True
    for i, (x, y) in enumerate(anchors):
        rest = [(a, b) for a, b in anchors[i + 1:] if abs(a - x) >= TREE_SIZE or abs(b - y) >= TREE_SIZE]
        if len(rest) + 1 >= count and _trees_fit(rest, count - 1):
            return True
    return False


def features_fit_somewhere(sheet: Sheet, kind: str, count: int) -> bool:
    """Whether a set of ``count`` features of ``kind`` can be drawn (for the full-map ending)."""
    cells = free_cells(sheet, kind)
    if kind == "tree":
        return _trees_fit(cells, count)
    if kind == "deck":
        return len(cells) - len(_unattached_decks(sheet, cells)) >= count
    return len(cells) >= count


def sets_fit(sheet: Sheet, sets: Sequence[tuple[str, int]]) -> bool:
    """Whether several sets of features (kind, count) can all be drawn together, e.g. the two dice of a round.

    Doors and windows share the free wall cells, furnishings take any free room cell; decks need cells joined to a
    room, stones any free outside cell (decks first, then stones elsewhere); trees are tried anchor by anchor.
    """
    need = Counter[str]()
    for kind, count in sets:
        need[kind] += count
    if need["tree"]:
        if not _others_fit(sheet, need):
            return False
        rest = [(k, c) for k, c in need.items() if k != "tree"] + [("tree", need["tree"] - 1)]
        return any(sets_fit(add_features(sheet, "tree", [a]), rest) for a in free_cells(sheet, "tree"))
    return _others_fit(sheet, need)


def _others_fit(sheet: Sheet, need: Counter[str]) -> bool:
    walls, rooms, outside = (free_cells(sheet, k) for k in ("door", "furnishing", "stone"))
    on_walls, decks = need["door"] + need["window"], need["deck"]
    if on_walls > len(walls) or on_walls + need["furnishing"] > len(rooms):
        return False
    if decks > len(outside) - len(_unattached_decks(sheet, outside)):
        return False
    return decks + need["stone"] <= len(outside)
