"""Client demands as data (``data/floor_plan/clients.json``) and the evaluator that finds their witnesses.

A demand is one small record of an ``op`` and its parameters. A *witness* is the set of sheet elements a
fulfilled demand uses, as tokens: ``room:3`` (room id), ``tree:0`` (tree index), ``door:C3``, ``window:C3``,
``furn:C3``, ``deck:C3``, ``water:C3`` (every water cell of a pool: stones are never tokens, so they may be
reused when they make a new pool) and ``yard:C3`` (the cells of a courtyard). A demand may be scored again and
again, each time with a witness disjoint from every element already used *for that demand*.

Decisions beyond the adaptation: a courtyard is an outside region that does not reach the sheet's edge; a room
"has a door" when a door lies on its wall or connects into it; a Layout "house of 6+ rooms" uses any six
rooms; "every room reachable" uses every room, so it scores once (the adaptation sets no minimum: a lone
living room with an exterior door meets it; ``min`` is optional and the cards do not use it); "windows on two
walls" counts any wall a window lies on (edge and shared walls too). A claim takes a witness from a largest
set of disjoint ones (bounded search; rooms <= ~40 per sheet), so that scoring a demand once never blocks a
repeat another choice allows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from pathlib import Path
from typing import Any, NamedTuple

from rules.floor_plan import geometry as geo
from rules.floor_plan.sheet import BIT, BORDER_MASK, FULL, Sheet, cells_of, flood, grow, mask_components, mask_of

DATA = Path(__file__).resolve().parents[2] / "data" / "floor_plan"
KINDS = ("build", "design", "layout")
ROOM_TYPES = ("C", "W", "B", "K", "D", "L")
WIDTH, HEIGHT = 17, 13
COLS = "ABCDEFGHIJKLMNOPQ"
MAX_CHAIN_STEPS = 20_000
MAX_CANDIDATES = 400  # witnesses listed per claim (chains and courtyards can have many)
MAX_PACKING_STEPS = 20_000  # branch-and-bound nodes when choosing a witness that keeps repeats possible
MAX_NAMED_TRIES = 20  # witnesses covering the named cells tried when earlier claims must be chosen again

Cell = tuple[int, int]
Witness = frozenset[str]

# op -> (required parameters, optional parameters)
OPS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "room_count": (frozenset({"min"}), frozenset({"type"})),
    "connected": (frozenset({"a", "b"}), frozenset()),
    "connected_same": (frozenset(), frozenset()),
    "connected_count": (frozenset({"type", "min"}), frozenset()),
    "room_types": (frozenset({"types"}), frozenset()),
    "room_size": (frozenset({"min"}), frozenset()),
    "square_room": (frozenset(), frozenset({"not"})),
    "courtyard": (frozenset({"min"}), frozenset()),
    "window_sees": (frozenset({"room", "sees"}), frozenset()),
    "arrangement": (frozenset({"room", "min"}), frozenset({"unique"})),
    "furnished": (frozenset({"min"}), frozenset()),
    "pool": (frozenset({"min"}), frozenset()),
    "deck_pool": (frozenset(), frozenset()),
    "window_walls": (frozenset({"min"}), frozenset()),
    "windows": (frozenset({"room", "min"}), frozenset()),
    "deck": (frozenset({"min"}), frozenset()),
    "door_onto": (frozenset({"room", "feature"}), frozenset()),
    "reachable": (frozenset(), frozenset({"min"})),
    "exterior_doors": (frozenset({"min"}), frozenset()),
    "deck_rooms": (frozenset({"min"}), frozenset()),
    "chain": (frozenset({"min"}), frozenset()),
}
# ``max``: at most this many instances score (balance: an open sheet can hold a door per wall).
BONUS_OPS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "doored_rooms": (frozenset({"min"}), frozenset({"max"})),
    "door_outside": (frozenset({"feature"}), frozenset({"max"})),
    "door_line": (frozenset({"feature"}), frozenset({"max"})),
}
SEEN_KINDS = ("tree", "pool", "deck", "stone")
OUTSIDE_FEATURES = ("stone", "deck", "tree")


def cell_name(c: Cell) -> str:
    try:
        return _NAMES[c]  # the sheet's cells, named once (the demands' tokens name thousands a decision)
    except (KeyError, TypeError):
        return f"{COLS[c[0]]}{c[1] + 1}"


_NAMES: dict[Cell, str] = {(x, y): f"{COLS[x]}{y + 1}" for y in range(HEIGHT) for x in range(WIDTH)}
_TOKENS: dict[str, dict[Cell, str]] = {}  # per prefix ("door", "deck", ...): the sheet's cells' tokens


def _token(prefix: str, c: Cell) -> str:
    """``f"{prefix}:{cell_name(c)}"``, the sheet's cells' read from a table."""
    table = _TOKENS.get(prefix)
    if table is None:
        table = _TOKENS[prefix] = {cell: f"{prefix}:{name}" for cell, name in _NAMES.items()}
    try:
        return table[c]
    except (KeyError, TypeError):
        return f"{prefix}:{cell_name(c)}"


def name_cell(name: str) -> Cell:
    return COLS.index(name[0]), int(name[1:]) - 1


@dataclass(frozen=True)
class Demand:
    id: str  # "<client>.<n>", n from 1
    client: str
    points: int
    op: str
    params: dict[str, Any] = field(hash=False, compare=False)


@dataclass(frozen=True)
class DoorBonus:
    points: int
    op: str
    params: dict[str, Any] = field(hash=False, compare=False)


@dataclass(frozen=True)
class Client:
    id: str
    kind: str
    demands: tuple[Demand, ...]
    door_bonus: DoorBonus | None

    @property
    def name_key(self) -> str:
        return f"fp.client.{self.id}"


def _check_params(where: str, raw: dict[str, Any], ops: dict[str, tuple[frozenset[str], frozenset[str]]]) -> None:
    op = raw.get("op")
    if op not in ops:
        raise ValueError(f"clients.json: {where}: unknown op {op!r}")
    required, optional = ops[op]
    keys = set(raw) - {"op", "points"}
    if not required <= keys or not keys <= required | optional:
        raise ValueError(f"clients.json: {where}: {op} takes {sorted(required)} (+ {sorted(optional)})")
    points = raw.get("points")
    if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= 10:
        raise ValueError(f"clients.json: {where}: bad points {points!r}")
    for key in ("min", "max"):
        if key in raw and (not isinstance(raw[key], int) or isinstance(raw[key], bool) or raw[key] < 1):
            raise ValueError(f"clients.json: {where}: bad {key} {raw[key]!r}")
    for key in ("type", "a", "b", "room", "not"):
        if key in raw and raw[key] not in ROOM_TYPES:
            raise ValueError(f"clients.json: {where}: bad room type {raw[key]!r}")
    if "types" in raw and (not raw["types"] or any(t not in ROOM_TYPES for t in raw["types"])):
        raise ValueError(f"clients.json: {where}: bad types {raw['types']!r}")
    if "sees" in raw and raw["sees"] not in SEEN_KINDS:
        raise ValueError(f"clients.json: {where}: bad sees {raw['sees']!r}")
    if "feature" in raw and raw["feature"] not in OUTSIDE_FEATURES:
        raise ValueError(f"clients.json: {where}: bad feature {raw['feature']!r}")
    if "unique" in raw and not isinstance(raw["unique"], bool):
        raise ValueError(f"clients.json: {where}: unique must be true or false")


def parse_clients(raw: Any) -> dict[str, Client]:
    """Validate the raw JSON of the client cards: five of each kind; Build and Design have two demands, Layout
    one demand and a Door Bonus."""
    if not isinstance(raw, dict) or set(raw) != set(KINDS):
        raise ValueError(f"clients.json: expected the keys {KINDS}")
    out: dict[str, Client] = {}
    for kind in KINDS:
        cards = raw[kind]
        if not isinstance(cards, list) or len(cards) != 5:
            raise ValueError(f"clients.json: {kind} needs 5 clients")
        for card in cards:
            cid = card.get("id") if isinstance(card, dict) else None
            if not isinstance(cid, str) or not cid.replace("_", "").isalpha() or cid in out:
                raise ValueError(f"clients.json: bad or repeated client id {cid!r}")
            allowed = {"id", "demands"} | ({"door_bonus"} if kind == "layout" else set())
            if set(card) != allowed:
                raise ValueError(f"clients.json: {cid}: expected the keys {sorted(allowed)}")
            want = 1 if kind == "layout" else 2
            if not isinstance(card["demands"], list) or len(card["demands"]) != want:
                raise ValueError(f"clients.json: {cid}: a {kind} client has {want} demand(s)")
            demands = []
            for n, d in enumerate(card["demands"], 1):
                _check_params(f"{cid}.{n}", d, OPS)
                params = {k: v for k, v in d.items() if k not in ("op", "points")}
                demands.append(Demand(f"{cid}.{n}", cid, d["points"], d["op"], params))
            bonus = None
            if kind == "layout":
                b = card["door_bonus"]
                _check_params(f"{cid}.door_bonus", b, BONUS_OPS)
                bonus = DoorBonus(b["points"], b["op"], {k: v for k, v in b.items() if k not in ("op", "points")})
            out[cid] = Client(cid, kind, tuple(demands), bonus)
    return out


def load_clients(path: Path = DATA / "clients.json") -> dict[str, Client]:
    return parse_clients(json.loads(path.read_text(encoding="utf-8")))


def load_earlier_points(path: Path = DATA / "earlier_points.json") -> dict[str, frozenset[int]]:
    """Points demands scored in earlier releases (``{"points": {"hosts.2": [4]}}``): claims stored at those values
    still load, and keep their points, when the cards were tuned under a running game."""
    raw = json.loads(path.read_text(encoding="utf-8"))["points"]
    out = {demand: frozenset(values) for demand, values in raw.items()}
    for demand, values in out.items():
        if demand not in DEMANDS or not all(isinstance(p, int) and 1 <= p <= 10 for p in values):
            raise ValueError(f"earlier_points.json: bad entry {demand!r}: {sorted(values)!r}")
    return out


CLIENTS = load_clients()
DEMANDS: dict[str, Demand] = {d.id: d for c in CLIENTS.values() for d in c.demands}
EARLIER_POINTS = load_earlier_points()


def by_kind(kind: str) -> list[str]:
    return [c.id for c in CLIENTS.values() if c.kind == kind]


# --- facts about one sheet ----------------------------------------------------------------------------------


class Facts:
    """The derived geometry of one sheet, computed on first use."""

    def __init__(self, sheet: Any) -> None:
        self.sheet = sheet
        self.memo: dict[Any, Any] = {}  # callers' results about this sheet (the planner's stock per demand)

    def adopt(self, parent: Facts, names: Iterable[str]) -> None:
        """Take the derived facts ``names`` from ``parent``, the Facts of a sheet the caller knows to agree with
        this one on them (the planner's room candidates: the seat's sheet with a bare room added)."""
        for name in names:
            if name not in self.__dict__:  # where cached_property keeps its value
                self.__dict__[name] = getattr(parent, name)

    @cached_property
    def rooms(self) -> tuple[Any, ...]:
        return tuple(self.sheet.rooms)

    @cached_property
    def owner(self) -> dict[Cell, int]:
        if isinstance(self.sheet, Sheet):
            return self.sheet.room_of  # the same map, which the sheet keeps (and grows room by room); read only
        return {c: i for i, r in enumerate(self.rooms) for c in r.cells()}

    @cached_property
    def pools(self) -> list[frozenset[Cell]]:
        return list(geo.pools(self.sheet))

    @cached_property
    def decks(self) -> list[frozenset[Cell]]:
        return list(geo.decks(self.sheet))

    @cached_property
    def door_links(self) -> list[Any]:
        parent = self.__dict__.get("_door_parent")
        if parent is not None:
            return self._door_links_from(parent)
        return sorted(geo.door_links(self.sheet), key=lambda d: (d.cell[1], d.cell[0]))

    def doors_from(self, parent: Facts) -> None:
        """Work `door_links` out (when asked) from ``parent``'s: the caller knows ``parent``'s sheet to hold a first
        part of this sheet's rooms (the same objects) and some of its doors (the planner's candidates)."""
        self.__dict__["_door_parent"] = parent

    def _door_links_from(self, parent: Facts) -> list[Any]:
        """A door's link reads only the rooms on its cell and next to it: the parent's doors keep their links but
        those next to a room added (its cells were outside or off every room before); the others are new doors."""
        sheet, base = self.sheet, parent.sheet
        redo = set(sheet.doors - base.doors)
        kept = []
        added = sheet.room_mask & ~base.room_mask
        near = added and grow(added)
        for d in parent.door_links:
            if near and BIT[d.cell] & near:
                redo.add(d.cell)
            else:
                kept.append(d)
        fresh = geo.door_links(_Doors(frozenset(redo), sheet.room_of))  # the long way's code, on those doors only
        return sorted([*kept, *fresh], key=lambda d: (d.cell[1], d.cell[0]))

    @cached_property
    def window_views(self) -> list[Any]:
        return list(geo.window_views(self.sheet))

    @cached_property
    def arrangements(self) -> list[Any]:
        return list(geo.arrangements(self.sheet))

    @cached_property
    def outside_regions(self) -> list[frozenset[Cell]]:
        return list(geo.outside_regions(self.sheet))

    @cached_property
    def courtyards(self) -> list[frozenset[Cell]]:
        """The outside regions that do not touch the sheet's edge, in the order of `outside_regions`."""
        rooms = self.sheet.room_mask if isinstance(self.sheet, Sheet) else mask_of(self.owner)
        open_ = FULL & ~rooms
        enclosed = open_ & ~flood(BORDER_MASK & open_, open_)  # one flood in from the whole edge, not region by region
        return [frozenset(cells_of(m)) for m in mask_components(enclosed)]

    @cached_property
    def window_rooms(self) -> dict[int, tuple[Cell, ...]]:
        """Room id -> the windows in it, in scan order (the window demands read each room's own)."""
        owner = self.sheet.room_of if isinstance(self.sheet, Sheet) else self.owner
        out: dict[int, list[Cell]] = {}
        for c in sorted(self.sheet.windows, key=lambda c: (c[1], c[0])):
            if (i := owner.get(c)) is not None:
                out.setdefault(i, []).append(c)
        return {i: tuple(cells) for i, cells in out.items()}

    @cached_property
    def tree_cells(self) -> dict[Cell, int]:
        return {(x + dx, y + dy): i for i, (x, y) in enumerate(self.sheet.trees) for dx in range(3) for dy in range(3)}

    def touching(self, cells: Iterable[Cell]) -> frozenset[int]:
        out = set()
        for x, y in cells:
            for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if c in self.owner:
                    out.add(self.owner[c])
        return frozenset(out)

    def of_type(self, t: str | None) -> list[int]:
        return [i for i, r in enumerate(self.rooms) if t is None or r.type == t]

    @cached_property
    def links(self) -> list[tuple[str, int, int]]:
        """(door token, room, other room) for every door joining two rooms, both directions."""
        out = []
        for d in self.door_links:
            for o in sorted(d.others):
                out.append((_token("door", d.cell), d.room, o))
                out.append((_token("door", d.cell), o, d.room))
        return out

    @cached_property
    def door_rooms(self) -> dict[int, set[str]]:
        """Room id -> the doors on its wall or connecting into it."""
        out: dict[int, set[str]] = {}
        for d in self.door_links:
            tok = _token("door", d.cell)
            for r in {d.room, *d.others}:
                out.setdefault(r, set()).add(tok)
        return out


class _Doors(NamedTuple):
    """What `geometry.door_links` reads of a sheet: some of its doors, and its rooms by cell."""

    doors: frozenset[Cell]
    room_of: dict[Cell, int]


def room(i: int) -> str:
    return f"room:{i}"


def cells_tok(prefix: str, cells: Iterable[Cell]) -> frozenset[str]:
    return frozenset([_token(prefix, c) for c in cells])


def _free(used: frozenset[str], *toks: str) -> bool:
    return not any(t in used for t in toks)


# --- candidates per op: (facts, params, used) -> witnesses disjoint from ``used`` -----------------------------
# Each op lists every way the sheet meets it (bounded), not just the first one, so that a claim can pick a
# witness that leaves later claims of the same demand possible (see `witness`). Where the elements a demand
# uses are interchangeable (any N rooms, any N exterior doors, the furnishings of one room), one candidate per
# choice that matters is enough: which of equal elements is taken cannot block a later claim.

Cands = Iterator[Witness]


def _room_count(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    free = [room(i) for i in f.of_type(p.get("type")) if room(i) not in used]
    if len(free) >= p["min"]:
        yield frozenset(free[: p["min"]])


def _room_types(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    # One room per type (types are distinct in the data, so rooms of one type are interchangeable).
    out = []
    for t in p["types"]:
        free = [room(i) for i in f.of_type(t) if room(i) not in used and room(i) not in out]
        if not free:
            return
        out.append(free[0])
    yield frozenset(out)


def _connected(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for door, a, b in f.links:
        ta, tb = f.rooms[a].type, f.rooms[b].type
        ok = ta == tb if p.get("same") else (ta, tb) == (p["a"], p["b"])
        if ok and a != b and _free(used, door, room(a), room(b)):
            yield frozenset({door, room(a), room(b)})


def _connected_same(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    return _connected(f, {"same": True}, used)


def _connected_count(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for i in f.of_type(p["type"]):
        if room(i) in used:
            continue
        doors: dict[int, list[str]] = {}  # other room -> the free doors to it
        for door, a, b in f.links:
            if a == i and b != i and _free(used, door, room(b)):
                doors.setdefault(b, []).append(door)
        for others in combinations(sorted(doors), p["min"]):
            picked = _distinct_picks([doors[b] for b in others])
            if picked is not None:
                yield frozenset({room(i), *(room(b) for b in others), *picked})


def _distinct_picks(options: list[list[str]]) -> list[str] | None:
    """One element per option list, all different (a corner door may touch two rooms, a corner window lie
    on two walls, yet each is one element)."""
    if not options:
        return []
    for door in options[0]:
        rest = _distinct_picks([[d for d in o if d != door] for o in options[1:]])
        if rest is not None:
            return [door, *rest]
    return None


def _room_size(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for i, r in enumerate(f.rooms):
        if r.w * r.h >= p["min"] and room(i) not in used:
            yield frozenset({room(i)})


def _square_room(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for i, r in enumerate(f.rooms):
        if r.w == r.h and r.type != p.get("not") and room(i) not in used:
            yield frozenset({room(i)})


def _courtyard(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for region in f.courtyards:  # the outside regions off the sheet's edge
        yard = cells_tok("yard", region)
        if yard & used:
            continue
        rooms = [room(i) for i in sorted(f.touching(region)) if room(i) not in used]
        for chosen in combinations(rooms, p["min"]):
            yield yard | frozenset(chosen)


def _seen_tokens(f: Facts, seen: Any) -> frozenset[str]:
    if seen.kind == "tree":
        return frozenset({f"tree:{seen.ident}"})
    if seen.kind == "pool":
        return cells_tok("water", f.pools[seen.ident])
    return frozenset({f"{seen.kind}:{cell_name(tuple(seen.ident))}"})


def _window_sees(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for v in f.window_views:
        if f.rooms[v.room].type != p["room"]:
            continue
        base = {room(v.room), _token("window", v.cell)}
        if base & used:
            continue
        for seen in v.sees:
            if seen.kind == p["sees"]:
                toks = _seen_tokens(f, seen)
                if not toks & used:
                    yield frozenset(base) | toks


def _arrangement(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for a in f.arrangements:
        if f.rooms[a.room].type != p["room"] or len(a.cells) < p["min"]:
            continue
        if p.get("unique") and not a.unique:
            continue
        toks = cells_tok("furn", a.cells) | {room(a.room)}
        if not toks & used:
            yield toks


def _furnished(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for i, r in enumerate(f.rooms):
        if room(i) in used:
            continue
        cells = sorted((c for c in f.sheet.furnishings if c in r.cells()), key=lambda c: (c[1], c[0]))
        free = [t for t in (_token("furn", c) for c in cells) if t not in used]
        if len(free) >= p["min"]:
            yield frozenset({room(i), *free[: p["min"]]})


def _pool(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for pool in f.pools:
        toks = cells_tok("water", pool)
        if len(pool) >= p["min"] and not toks & used:
            yield toks


def _around(cell: Cell, diagonal: bool) -> list[Cell]:
    x, y = cell
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonal else [])
    return [(x + dx, y + dy) for dx, dy in steps]


def _deck_pool(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    """A pool's orthogonal rim is all stones, so a deck section touches a pool when it is next to water
    diagonally (at an open corner of the rim) or orthogonally next to a stone of the rim."""
    for pool in f.pools:
        water = cells_tok("water", pool)
        if water & used:
            continue
        rim = {n for c in pool for n in _around(c, False) if n in f.sheet.stones}
        for c in sorted(f.sheet.decks, key=lambda c: (c[1], c[0])):
            tok = _token("deck", c)
            if tok not in used and (any(n in pool for n in _around(c, True))
                                    or any(n in rim for n in _around(c, False))):
                yield water | {tok}


def _window_walls(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    """A window is drawn on a wall of its room (rulebook: "on any wall inside of any room"), whatever lies
    beyond it: a wall on the sheet's edge or shared with another room counts too. A corner window lies on two
    walls but is one window, so each wall gets its own window (a small matching per room)."""
    for i, windows in sorted(f.window_rooms.items()):  # a room holds the windows on its walls (none: no witness)
        if room(i) in used:
            continue
        r = f.rooms[i]
        walls = r.wall_cells()
        sides: dict[str, list[str]] = {}  # wall side -> the free windows on it
        for c in (c for c in windows if c in walls):
            tok = _token("window", c)
            if tok not in used:
                for side in r.walls_of(c):
                    sides.setdefault(side, []).append(tok)
        for chosen in combinations(sorted(sides), p["min"]):
            picked = _distinct_picks([sides[s] for s in chosen])
            if picked is not None:
                yield frozenset({room(i), *picked})
                break  # the windows of one room serve only that room: one choice per room is enough


def _windows(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for i in f.of_type(p["room"]):
        if room(i) in used:
            continue
        walls = f.rooms[i].wall_cells()
        free = [t for t in (_token("window", c) for c in f.window_rooms.get(i, ()) if c in walls) if t not in used]
        if len(free) >= p["min"]:
            yield frozenset({room(i), *free[: p["min"]]})


def _deck(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for deck in f.decks:
        toks = cells_tok("deck", deck)
        if len(deck) >= p["min"] and not toks & used:
            yield toks


def _feature_cells(f: Facts, feature: str) -> frozenset[Cell]:
    if feature == "tree":
        return frozenset(f.tree_cells)
    return frozenset(f.sheet.decks if feature == "deck" else f.sheet.stones)


def _door_onto(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    target = _feature_cells(f, p["feature"])
    for d in f.door_links:
        if f.rooms[d.room].type != p["room"]:
            continue
        door = _token("door", d.cell)
        if not _free(used, door, room(d.room)):
            continue
        for c in sorted(d.outside & target, key=lambda c: (c[1], c[0])):
            tok = _token(p["feature"], c) if p["feature"] != "tree" else f"tree:{f.tree_cells[c]}"
            if tok not in used:
                yield frozenset({door, room(d.room), tok})


def _reachable(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    n = len(f.rooms)
    if n < p.get("min", 1) or any(room(i) in used for i in range(n)):
        return
    for d in f.door_links:
        if not d.outside or _token("door", d.cell) in used:
            continue
        seen, doors, frontier = {d.room}, [_token("door", d.cell)], [d.room]
        while frontier:
            cur = frontier.pop()
            for door, a, b in f.links:
                if a == cur and b not in seen and door not in used:
                    seen.add(b)
                    doors.append(door)
                    frontier.append(b)
        if len(seen) == n:
            yield frozenset({*(room(i) for i in range(n)), *doors})
            return  # it uses every room: it scores once, whichever doors it names


def _exterior_doors(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    free = [t for t in (_token("door", d.cell) for d in f.door_links if d.outside) if t not in used]
    if len(free) >= p["min"]:
        yield frozenset(free[: p["min"]])


def _deck_rooms(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    for deck in f.decks:
        toks = cells_tok("deck", deck)
        if toks & used:
            continue
        rooms = [room(i) for i in sorted(f.touching(deck)) if room(i) not in used]
        for chosen in combinations(rooms, p["min"]):
            yield toks | frozenset(chosen)


def _chain(f: Facts, p: dict[str, Any], used: Witness) -> Cands:
    """Every path of ``min`` distinct rooms joined by doors (bounded depth-first search)."""
    adj: dict[int, list[tuple[str, int]]] = {}
    for door, a, b in f.links:
        if a != b and _free(used, door, room(a), room(b)):
            adj.setdefault(a, []).append((door, b))
    steps = 0

    def walk(path: list[int], doors: list[str]) -> Cands:
        nonlocal steps
        steps += 1
        if len(path) == p["min"]:
            yield frozenset({*(room(i) for i in path), *doors})
            return
        if steps > MAX_CHAIN_STEPS:
            return
        for door, b in adj.get(path[-1], []):
            if b not in path and door not in doors:
                yield from walk([*path, b], [*doors, door])

    for start in sorted(adj):
        yield from walk([start], [])


FINDERS: dict[str, Any] = {
    "room_count": _room_count, "connected": _connected, "connected_same": _connected_same,
    "connected_count": _connected_count, "room_types": _room_types, "room_size": _room_size,
    "square_room": _square_room, "courtyard": _courtyard, "window_sees": _window_sees,
    "arrangement": _arrangement, "furnished": _furnished, "pool": _pool, "deck_pool": _deck_pool,
    "window_walls": _window_walls, "windows": _windows, "deck": _deck, "door_onto": _door_onto,
    "reachable": _reachable, "exterior_doors": _exterior_doors, "deck_rooms": _deck_rooms, "chain": _chain,
}
assert set(FINDERS) == set(OPS)


RECENT_FACTS = 64  # sheets whose Facts are kept (the planner's ~25 candidate sheets of one decision and more)
_recent: dict[int, tuple[Any, Facts]] = {}  # id(sheet) -> (the sheet itself, kept alive so no id is reused, Facts)


def facts_of(sheet: Any) -> Facts:
    """The sheet's Facts, shared by the calls about one sheet object: the planner's evaluation of a candidate
    sheet and the claims it makes on it (`assign`) read its geometry once. Facts are derived from the (frozen)
    sheet alone, so sharing them changes no answer."""
    if isinstance(sheet, Facts):
        return sheet
    hit = _recent.get(id(sheet))
    if hit is not None and hit[0] is sheet:
        return hit[1]
    f = Facts(sheet)
    if len(_recent) >= RECENT_FACTS:
        _recent.clear()  # bounded; clear() is one atomic step for the bot's threads (no eviction order kept)
    _recent[id(sheet)] = (sheet, f)
    return f


def _facts(sheet: Any) -> Facts:
    return facts_of(sheet)


def candidates(demand: Demand | str, sheet: Any, used: Iterable[str] = ()) -> list[Witness]:
    """Every witness of the demand disjoint from ``used``, each once, in the order found (at most
    ``MAX_CANDIDATES``)."""
    d = DEMANDS[demand] if isinstance(demand, str) else demand
    out: dict[Witness, None] = {}
    for cand in FINDERS[d.op](_facts(sheet), d.params, frozenset(used)):
        out.setdefault(cand)
        if len(out) >= MAX_CANDIDATES:
            break
    return list(out)


def packing(cands: list[Witness], budget: int = MAX_PACKING_STEPS) -> list[Witness]:
    """A largest set of pairwise disjoint candidates (branch and bound; when the budget runs out, the best
    found so far, which is at least the greedy packing since the first branch tried is greedy)."""
    best: list[Witness] = []
    steps = 0

    def grow(chosen: list[Witness], rest: list[Witness]) -> None:
        nonlocal best, steps
        steps += 1
        if len(chosen) > len(best):
            best = list(chosen)
        if steps > budget or len(chosen) + len(rest) <= len(best):
            return
        head, tail = rest[0], rest[1:]
        grow([*chosen, head], [c for c in tail if c.isdisjoint(head)])
        grow(chosen, tail)

    grow([], cands)
    return best


def witness(demand: Demand | str, sheet: Any, used: Iterable[str] = (), named: Iterable[Cell] = ()) -> Witness | None:
    """An unused witness of the demand on the sheet (or a `Facts`), or None.

    Of all the witnesses it takes one of a largest set of disjoint ones: a player scoring the demand again must
    use other rooms and features, so the first match found could block a repeat another choice allows. With
    ``named`` cells (the player's own choice) only witnesses covering every named cell are considered."""
    f = _facts(sheet)
    cands = _covering(f, candidates(demand, f, used), named)
    if not cands:
        return None
    return packing(cands)[0]


def _covering(f: Facts, cands: list[Witness], named: Iterable[Cell]) -> list[Witness]:
    want = set(named)
    return [c for c in cands if want <= set(witness_cells(f.sheet, c))] if want else cands


# How the engine finds a claim's witnesses when it names no cells (`assign`); the planner passes one that shares
# the answer among its candidate sheets.
Assigner = Callable[[Demand, Any, list[Witness]], "tuple[Witness, ...] | None"]


def assign(demand: Demand | str, sheet: Any, earlier: Iterable[Witness] = (),
           named: Iterable[Cell] = ()) -> tuple[Witness, ...] | None:
    """Witnesses for the earlier claims of the demand and one more, pairwise disjoint, or None.

    The earlier witnesses are kept when a new one fits beside them. Otherwise they are chosen again: on paper a
    player writes only the points, so a repeat is legal whenever the sheet *now* holds one more disjoint witness
    than claims (a room drawn later may free the elements an earlier claim had to take)."""
    f = _facts(sheet)
    earlier = list(earlier)
    used = frozenset().union(*earlier)
    found = witness(demand, f, used, named)
    if found is not None:
        return (*earlier, found)
    if not earlier:
        return None
    # Earlier witnesses first: the packing tries them first, so they are kept where they can be.
    found_all = candidates(demand, f)
    pool = [e for e in earlier if e in found_all] + [c for c in found_all if c not in earlier]
    for new in (_covering(f, pool, named)[:MAX_NAMED_TRIES] if named else [None]):
        rest = pool if new is None else [c for c in pool if c.isdisjoint(new)]
        chosen = packing(rest)
        if len(chosen) >= len(earlier) + (new is None):
            return _reassign(earlier, chosen, new)
    return None


def _reassign(earlier: list[Witness], chosen: list[Witness], new: Witness | None) -> tuple[Witness, ...]:
    """The chosen witnesses in the place of the earlier claims (an earlier one kept where it was chosen
    again), then the new one (the next chosen, unless named)."""
    left = [c for c in chosen if c not in earlier]
    placed = [e if e in chosen else left.pop(0) for e in earlier]
    return (*placed, new if new is not None else left.pop(0))


def claimable(sheet: Any, clients: Iterable[str], used: dict[str, Iterable[str]],
              claimed: dict[str, list[Witness]] | None = None) -> list[str]:
    """The demand ids of the clients that could be scored now (``used``: demand id -> tokens used for it;
    ``claimed``: demand id -> its earlier witnesses, to ask whether choosing them again would make room)."""
    f = _facts(sheet)
    return [d.id for cid in clients for d in CLIENTS[cid].demands if _can_score(f, d, used, claimed or {})]


def _can_score(f: Facts, d: Demand, used: dict[str, Iterable[str]], claimed: dict[str, list[Witness]]) -> bool:
    if next(FINDERS[d.op](f, d.params, frozenset(used.get(d.id, ()))), None) is not None:
        return True  # the cheap answer: one fresh witness beside the earlier ones
    return bool(claimed.get(d.id)) and assign(d, f, claimed[d.id]) is not None


# --- door bonuses ---------------------------------------------------------------------------------------------


def _door_line(f: Facts, d: Any, feature: str) -> bool:
    target = _feature_cells(f, feature)
    x0, y0 = d.cell
    for ox, oy in sorted(d.outside):
        dx, dy = ox - x0, oy - y0
        x, y = ox, oy
        while 0 <= x < WIDTH and 0 <= y < HEIGHT and (x, y) not in f.owner:
            if (x, y) in target:
                return True
            if (x, y) in f.tree_cells:
                break
            x, y = x + dx, y + dy
    return False


def door_bonus_count(client: Client | str, sheet: Any) -> int:
    """How many instances of the Layout client's Door Bonus the sheet holds, at most its ``max`` (0 for other
    clients)."""
    c = CLIENTS[client] if isinstance(client, str) else client
    if c.door_bonus is None:
        return 0
    f, b = _facts(sheet), c.door_bonus
    if b.op == "doored_rooms":
        count = sum(1 for doors in f.door_rooms.values() if len(doors) >= b.params["min"])
    elif b.op == "door_outside":
        target = _feature_cells(f, b.params["feature"])
        count = sum(1 for d in f.door_links if d.outside & target)
    else:
        count = sum(1 for d in f.door_links if d.outside and _door_line(f, d, b.params["feature"]))
    return min(count, b.params.get("max", count))


# --- witnesses as cells -------------------------------------------------------------------------------------


def witness_cells(sheet: Any, tokens: Iterable[str]) -> list[Cell]:
    """The cells a witness covers (rooms: all their cells; trees: their 3×3), sorted row by row."""
    out: set[Cell] = set()
    for tok in tokens:
        kind, _, ref = tok.partition(":")
        if kind == "room":
            out |= set(sheet.rooms[int(ref)].cells())
        elif kind == "tree":
            x, y = sheet.trees[int(ref)]
            out |= {(x + dx, y + dy) for dx in range(3) for dy in range(3)}
        else:
            out.add(name_cell(ref))
    return sorted(out, key=lambda c: (c[1], c[0]))


__all__ = ["CLIENTS", "DEMANDS", "Client", "Demand", "Facts", "assign", "candidates", "claimable",
           "door_bonus_count", "packing", "witness", "witness_cells"]
