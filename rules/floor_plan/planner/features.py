"""The planner's feature candidates: a few sets per die (doors, windows, trees, decks, stones, pools), Two Doors."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from rules.base import RulesError
from rules.floor_plan.geometry import decks
from rules.floor_plan.notation import FeatureSet, Step
from rules.floor_plan.planner.context import BONUS_COST, FEATURE_VARIANTS, _Cand, _Ctx
from rules.floor_plan.planner.rooms import _lining, _pair_of
from rules.floor_plan.sheet import (
    BIT,
    CELL_AT,
    FEATURE_KINDS,
    FULL,
    HEIGHT,
    NEIGHBOURS,
    STEPS,
    WIDTH,
    Cell,
    Sheet,
    add_features,
    cells_of,
    free_cells,
    grow,
    mask_of,
    scan_key,
)

# --- feature sets ----------------------------------------------------------------------------------------------


def _feature_cands(ctx: _Ctx) -> list[_Cand]:
    roll = ctx.s.roll
    assert roll is not None
    sheet = ctx.board.sheet
    a, b = roll
    out: list[_Cand] = []
    doubles = [False, True] if ctx.board.open_bonus("double_feature") is not None else [False]
    for dbl in doubles:
        for first, second in ((a, b), (b, a)) if a != b else ((a, b),):
            for fs, after in _sets_and_sheets(ctx, sheet, first, dbl, FEATURE_VARIANTS if not dbl else 1):
                if FEATURE_KINDS[first - 1] == "tree":  # trees are numbered in the order drawn: the set's order
                    after = add_features(sheet, "tree", fs.cells)
                rest = _sets_for(ctx, after, second, False, 1)
                sets = tuple(sorted((fs, *rest), key=lambda x: x.die))  # canonical order (stable on a double)
                key = "features:" + ",".join(sorted(FEATURE_KINDS[x.die - 1] for x in sets))
                out.append(_Cand((Step("features", sets=sets),), key, min(fs.cells, key=scan_key),
                                 BONUS_COST if dbl else 0.0))
    return out


def _sets_for(ctx: _Ctx, sheet: Sheet, die: int, double: bool, limit: int | None = None) -> list[FeatureSet]:
    """The die's feature sets the rules accept on the sheet, best first (the first ``limit`` of them)."""
    return [fs for fs, _ in _sets_and_sheets(ctx, sheet, die, double, limit)]


def _sets_and_sheets(ctx: _Ctx, sheet: Sheet, die: int, double: bool, limit: int | None = None
                     ) -> list[tuple[FeatureSet, Sheet]]:
    """`_sets_for`, each with the sheet it leaves (drawn in the maker's order: for trees, not the set's)."""
    kind = FEATURE_KINDS[die - 1]
    count = die * (2 if double else 1)
    maker = {"tree": _tree_sets, "deck": _deck_sets, "stone": _stone_sets}.get(kind, _cell_sets)
    out = []
    for cells in maker(ctx, sheet, kind, count):
        if limit is not None and len(out) >= limit:
            break
        try:
            after = add_features(sheet, kind, cells)
        except RulesError:
            continue
        out.append((FeatureSet(die, double, tuple(sorted(cells, key=scan_key))), after))
    return out


# The makers of a die's feature sets yield them best first, lazily: the second die of a roll takes only the first
# the rules accept, so the rest (a few rooms' best cells, new deck sections) is mostly never worked out.


def _cell_sets(ctx: _Ctx, sheet: Sheet, kind: str, count: int) -> Iterator[list[Cell]]:
    """Doors, windows, furnishings: the best-scored cells overall, and the best within each of a few rooms."""
    free = free_cells(sheet, kind)
    if len(free) < count:
        return
    scores = _cell_scores(ctx, sheet, kind, free)
    ranked = sorted(free, key=scores.__getitem__, reverse=True)  # best first, ties in scan order (`free`'s)
    yield _spread(ranked, count, kind)
    by_room: dict[int, list[Cell]] = {}
    for c in ranked:
        by_room.setdefault(sheet.room_of[c], []).append(c)
    rooms = sorted(by_room, key=lambda r: -sum(scores[c] for c in by_room[r][:count]))
    for r in rooms[:FEATURE_VARIANTS]:
        cells = by_room[r]
        if kind == "furnishing":
            cells = _clustered(cells, count)
        if len(cells) >= count:
            yield cells[:count]


# The sheet parts each kind's cell score may read (water comes from the rooms and the outside features): a sheet
# that shares them, object for object, scores a cell the same, e.g. the doors of a roll's second die on each
# sheet its windows leave. `_score_reads` keeps only those the call's demands and door bonus make it read.
_SCORE_READS = {"door": ("rooms", "doors", "decks", "stones", "trees"),
                "window": ("rooms", "windows", "decks", "stones", "trees"),
                "furnishing": ("rooms", "furnishings")}
_PART_OF = {"deck": "decks", "stone": "stones", "tree": "trees"}


def _score_reads(ctx: _Ctx, kind: str) -> tuple[str, ...]:
    """The parts of `_SCORE_READS` a ``kind`` cell's score reads with the call's demands, once per call: a door
    reads the doors only for a "rooms with doors" bonus, and an outside feature only when a demand or the bonus
    looks for it out of a door (a line of sight stops at trees); a window reads the windows only for the window
    demands and the outside only for its views. Fewer parts: more sheets share a kind's scores."""
    hit = ctx.cell_scores.get(("reads", kind))
    if hit is None:
        hit = ctx.cell_scores[("reads", kind)] = _reads_of(ctx, kind)
    return hit


def _reads_of(ctx: _Ctx, kind: str) -> tuple[str, ...]:
    if kind == "furnishing":
        return _SCORE_READS[kind]
    parts = {"rooms"}
    if kind == "door":
        looks = {d.params["feature"] for d in ctx.demands if d.op == "door_onto"}
        b = ctx.layout.door_bonus
        if b is not None and b.op == "doored_rooms":
            parts.add("doors")
        elif b is not None:  # door_outside, door_line
            looks |= {b.params["feature"], "tree"} if b.op == "door_line" else {b.params["feature"]}
        parts |= {_PART_OF[f] for f in looks}
    else:
        if any(d.op in ("windows", "window_walls") for d in ctx.demands):
            parts.add("windows")
        for d in ctx.demands:
            if d.op == "window_sees":  # a pool's water: the stones, and the trees and decks that may fill it
                sees = d.params["sees"]
                parts |= {"trees", "decks", "stones"} if sees == "pool" else {"trees", _PART_OF[sees]}
    return tuple(p for p in _SCORE_READS[kind] if p in parts)


def _cell_scores(ctx: _Ctx, sheet: Sheet, kind: str, free: list[Cell]) -> dict[Cell, float]:
    """Each free cell's score for ``kind``, shared by the call's sheets with the same parts (`_score_reads`)."""
    parts = tuple(getattr(sheet, name) for name in _score_reads(ctx, kind))
    key = (kind, *map(id, parts))
    hit = ctx.cell_scores.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], parts, strict=True)):  # kept alive: ids not reused
        hit = ctx.cell_scores[key] = (parts, _door_scores_kept(ctx, sheet) if kind == "door" else {}, {})
    scores, doors = hit[1], hit[2]  # doors: `_doors_of` per room (every door cell of a room asks)
    for c in free:
        if c not in scores:
            if kind == "door":
                scores[c] = _door_score(ctx, sheet, c, doors)
            else:
                scores[c] = (_window_score if kind == "window" else _furn_score)(ctx, sheet, c)
    return scores


def _door_scores_kept(ctx: _Ctx, sheet: Sheet) -> dict[Cell, float]:
    """The seat's sheet's door scores that hold on ``sheet`` when it is that sheet with bare rooms added (a room
    candidate, retried with Two Doors) and the same other parts a door's score reads: a door's score reads its
    room, the rooms and outside cells next to it, the doors of those rooms (a new room holds none) and, for a
    door line, the cells in line beyond it. Every cell of the seat's sheet's walls keeps its score unless a new
    room lies next to it (or, for a door line, in its row or column)."""
    base = ctx.board.sheet
    if sheet.rooms is base.rooms:
        return _door_scores_kept_outside(ctx, sheet)
    n = len(base.rooms)
    if len(sheet.rooms) <= n or any(a is not b for a, b in zip(sheet.rooms, base.rooms, strict=False)) or any(
            getattr(sheet, p) is not getattr(base, p) for p in _score_reads(ctx, "door") if p != "rooms"):
        return {}
    new = sheet.rooms[n:]
    near = mask_of(c for r in new for c in r.cells())
    near = grow(near)
    line = ctx.layout.door_bonus is not None and ctx.layout.door_bonus.op == "door_line"
    base_scores = _cell_scores(ctx, base, "door", free_cells(base, "door"))
    return {c: v for c, v in base_scores.items() if not BIT[c] & near and not (
        line and any(r.x <= c[0] < r.x + r.w or r.y <= c[1] < r.y + r.h for r in new))}


def _door_scores_kept_outside(ctx: _Ctx, sheet: Sheet) -> dict[Cell, float]:
    """The seat's sheet's door scores that hold on ``sheet`` when it is that sheet with features drawn outside
    (trees, decks, stones; and any inside) and the same rooms and, where the score reads them, doors: without a
    door line, a door's score reads outside features only on the cells next to it. Every cell keeps its score
    unless a feature was drawn next to it."""
    base = ctx.board.sheet
    b = ctx.layout.door_bonus
    if sheet is base or (b is not None and b.op == "door_line") or (
            "doors" in _score_reads(ctx, "door") and sheet.doors is not base.doors):
        return {}
    if base.features_mask & ~sheet.features_mask:  # not drawn on the seat's sheet
        return {}
    near = grow(sheet.features_mask & ~base.features_mask)
    base_scores = _cell_scores(ctx, base, "door", free_cells(base, "door"))
    return {c: v for c, v in base_scores.items() if not BIT[c] & near}


def _spread(ranked: list[Cell], count: int, kind: str) -> list[Cell]:
    """The top cells, but a door's neighbour on the same wall adds little: skip adjacent ones when possible."""
    if kind == "furnishing":
        return ranked[:count]
    out: list[Cell] = []
    for c in ranked:
        if all(abs(c[0] - o[0]) + abs(c[1] - o[1]) > 1 for o in out):
            out.append(c)
        if len(out) == count:
            return out
    return ranked[:count]


def _clustered(cells: list[Cell], count: int) -> list[Cell]:
    """``count`` orthogonally connected cells grown from the best one (an arrangement), else the best ones."""
    if not cells:
        return []
    group, inside = [cells[0]], {cells[0]}
    while len(group) < count:  # the first cell (in the given order) next to the group
        nxt = next((c for c in cells if c not in inside and any(n in inside for n in NEIGHBOURS[c])), None)
        if nxt is None:
            return cells[:count]
        group.append(nxt)
        inside.add(nxt)
    return group


def _outside_of(sheet: Sheet, c: Cell) -> list[tuple[str, Cell]]:
    """(direction, the outside cell beyond the wall) for each side of a wall cell that opens outside."""
    room_of = sheet.room_of
    out = []
    x, y = c
    for side in sheet.rooms[room_of[c]].walls_of(c):
        dx, dy = STEPS[side]
        n = (x + dx, y + dy)
        if 0 <= n[0] < WIDTH and 0 <= n[1] < HEIGHT and n not in room_of:
            out.append((side, n))
    return out


def _doors_of(sheet: Sheet, r: int, memo: dict[int, int] | None = None) -> int:
    """Doors in room ``r`` or on a neighbour's wall next to it (``memo``: the counts already made on this sheet)."""
    if memo is not None:
        if r not in memo:
            memo[r] = _doors_of(sheet, r)
        return memo[r]
    room = sheet.rooms[r]
    return sum(1 for c in sheet.doors if c in room.cells()) + sum(
        1 for c in sheet.doors for n in NEIGHBOURS[c] if room.contains(n) and not room.contains(c))


def _door_score(ctx: _Ctx, sheet: Sheet, c: Cell, doors: dict[int, int] | None = None) -> float:
    room_of, rooms = sheet.room_of, sheet.rooms
    r = room_of[c]
    t = rooms[r].type
    others = {o for n in NEIGHBOURS[c] if (o := room_of.get(n, r)) != r}  # in the order met, as the long way
    outside = _outside_of(sheet, c)
    value = 0.0
    for o in others:
        value += 0.5 + 2 * _pair_of(ctx, t, rooms[o].type)
    if outside:
        for op, p in _door_demands(ctx):  # the demands a door outside adds to, in their order
            if op == "exterior_doors":
                value += 1.2
            elif op == "reachable":
                value += 0.8
            elif t == p["room"]:
                value += 1.0 + 2.0 * any(_is_feature(sheet, n, p["feature"]) for _, n in outside)
    b = ctx.layout.door_bonus
    if b is not None:
        if b.op == "doored_rooms":
            have = _doors_of(sheet, r, doors)
            value += 1.5 if have < b.params["min"] else 0.2
            value += sum(1.0 for o in others if _doors_of(sheet, o, doors) < b.params["min"])
        elif b.op == "door_outside":
            value += 2.5 * any(_is_feature(sheet, n, b.params["feature"]) for _, n in outside)
            value += 0.4 * bool(outside)
        elif b.op == "door_line":
            value += 0.5 * bool(outside) + 2.0 * any(_sees(sheet, n, side, b.params["feature"]) for side, n in outside)
    return value


def _door_demands(ctx: _Ctx) -> list[tuple[str, dict[str, Any]]]:
    """(op, params) of the call's demands a door opening outside scores for (exterior doors, reachable rooms,
    doors onto a feature), in the demands' order: once per call, not once per wall cell."""
    hit = ctx.cell_scores.get(("door_demands",))
    if hit is None:
        hit = ctx.cell_scores[("door_demands",)] = [
            (d.op, d.params) for d in ctx.demands if d.op in ("exterior_doors", "reachable", "door_onto")]
    return hit


def _is_feature(sheet: Sheet, c: Cell, feature: str) -> bool:
    if feature == "tree":
        return c in sheet.tree_of
    return c in (sheet.decks if feature == "deck" else sheet.stones)


def _sees(sheet: Sheet, start: Cell, side: str, kind: str) -> bool:
    """Whether a straight line out of a wall, from ``start`` outward, meets ``kind`` before a room or a tree."""
    dx, dy = STEPS[side]
    x, y = start
    while 0 <= x < WIDTH and 0 <= y < HEIGHT and (x, y) not in sheet.room_of:
        if kind == "pool" and (x, y) in sheet.water:
            return True
        if kind != "pool" and _is_feature(sheet, (x, y), kind):
            return True
        if (x, y) in sheet.tree_of:
            return False
        x, y = x + dx, y + dy
    return False


def _window_score(ctx: _Ctx, sheet: Sheet, c: Cell) -> float:
    r = sheet.room_of[c]
    room = sheet.rooms[r]
    outside = _outside_of(sheet, c)
    windows = [w for w in sheet.windows if room.contains(w)]
    value = 0.0
    for d in ctx.demands:
        if d.op == "windows" and room.type == d.params["room"]:
            value += 1.5 + 0.5 * len(windows)
        elif d.op == "window_walls":
            sides = {s for w in windows for s in room.walls_of(w)}
            if windows and not set(room.walls_of(c)) <= sides:
                value += 2.5
            else:
                value += 0.3
        elif d.op == "window_sees" and room.type == d.params["room"]:
            seen = any(_sees(sheet, n, side, d.params["sees"]) for side, n in outside)
            value += 3.0 if seen else 0.6 * bool(outside)
    return value


def _furn_score(ctx: _Ctx, sheet: Sheet, c: Cell) -> float:
    room = sheet.rooms[sheet.room_of[c]]
    inside = sum(1 for f in sheet.furnishings if room.contains(f))
    value = 0.0
    for d in ctx.demands:
        if d.op == "furnished":
            value += 1.0 + 0.4 * min(inside, d.params["min"])
        elif d.op == "arrangement" and room.type == d.params["room"]:
            value += 1.5 + 0.5 * any(n in sheet.furnishings for n in NEIGHBOURS[c])
    # Inner cells first: walls stay free for doors and windows.
    return value + 0.2 * (c not in sheet.walls)


def _tree_sets(ctx: _Ctx, sheet: Sheet, kind: str, count: int) -> list[list[Cell]]:
    anchors = free_cells(sheet, "tree")
    want_view = [d for d in ctx.demands if d.op == "window_sees" and d.params["sees"] == "tree"]
    line = ctx.layout.door_bonus is not None and ctx.layout.door_bonus.params.get("feature") == "tree"

    touching = _lining(grow(sheet.room_mask) & ~sheet.room_mask, 3, 3)

    def score(a: Cell) -> float:
        if not BIT[a] & touching:  # no room beside the tree: the terms below come to its edges alone
            return 0.5 * ((a[0] == 0) + (a[1] == 0) + (a[0] == WIDTH - 3) + (a[1] == HEIGHT - 3))
        cells = [(a[0] + dx, a[1] + dy) for dx in range(3) for dy in range(3)]
        near = {sheet.room_of[n] for c in cells for n in NEIGHBOURS[c] if n in sheet.room_of}
        value = 0.0
        for d in want_view:
            value += 2.0 * sum(1 for r in near if sheet.rooms[r].type == d.params["room"])
        value += 1.0 * bool(near) * line
        edge = (a[0] == 0) + (a[1] == 0) + (a[0] == WIDTH - 3) + (a[1] == HEIGHT - 3)
        return value + 0.5 * edge - 0.1 * len(near)

    ranked = sorted(anchors, key=score, reverse=True)  # best first, ties in scan order (the anchors')
    out = []
    for first in ranked[:FEATURE_VARIANTS]:
        chosen = [first]
        for a in ranked:
            if len(chosen) == count:
                break
            if all(abs(a[0] - o[0]) >= 3 or abs(a[1] - o[1]) >= 3 for o in chosen):
                chosen.append(a)
        if len(chosen) == count:
            out.append(chosen)
    return out


def _deck_sets(ctx: _Ctx, sheet: Sheet, kind: str, count: int) -> Iterator[list[Cell]]:
    """Grow the largest section, or start a new one at the best spots (touching rooms, pools, a living room)."""
    free = set(free_cells(sheet, "deck"))
    scores: dict[Cell, float] = {}  # the sheet and the free cells stay as they are: each cell's score once
    water = _around_mask(mask_of(sheet.water))
    living = grow(mask_of(c for r in sheet.rooms if r.type == "L" for c in r.cells()))

    def score(c: Cell) -> float:
        if c not in scores:
            scores[c] = _deck_score(sheet, free, c, water, living)
        return scores[c]

    def grown(seed: set[Cell]) -> list[Cell]:
        group = set(seed)
        new: list[Cell] = [] if seed & sheet.decks else list(seed)
        frontier = {n for c in group for n in NEIGHBOURS[c] if n in free and n not in group}
        while len(new) < count and frontier:
            best = min(frontier, key=lambda c: (-score(c), scan_key(c)))  # the first of the sorted frontier
            group.add(best)
            new.append(best)
            frontier.discard(best)
            frontier.update(n for n in NEIGHBOURS[best] if n in free and n not in group)
        return new

    sections = sorted(_sheet_decks(sheet), key=len, reverse=True)
    if sections and len(new := grown(set(sections[0]))) == count:
        yield new
    attached = sorted(cells_of(mask_of(free) & grow(sheet.room_mask)), key=score, reverse=True)  # ties: scan order
    for c in attached[:FEATURE_VARIANTS]:
        if len(new := grown({c})) == count:
            yield new


def _around_mask(mask: int) -> int:
    """``mask`` and its cells' eight neighbours."""
    across = mask | ((mask & ~_EAST_COLUMN) << 1) | ((mask & ~_WEST_COLUMN) >> 1)
    return (across | (across << WIDTH) | (across >> WIDTH)) & FULL


_WEST_COLUMN = mask_of((0, y) for y in range(HEIGHT))
_EAST_COLUMN = mask_of((WIDTH - 1, y) for y in range(HEIGHT))


def _deck_score(sheet: Sheet, free: set[Cell], c: Cell, water: int, living: int) -> float:
    """``water``: the cells next to water or on it, diagonals too; ``living``: those next to a living room."""
    rooms = {sheet.room_of[n] for n in NEIGHBOURS[c] if n in sheet.room_of}
    value = 0.3 * len(rooms)
    value += 1.0 * bool(BIT[c] & water)
    value += 0.5 * bool(BIT[c] & living)
    value -= 0.05 * sum(1 for n in NEIGHBOURS[c] if n in free)  # hug walls: open space stays usable
    return value


def _sheet_decks(sheet: Sheet) -> list[frozenset[Cell]]:

    return list(decks(sheet))


def _stone_sets(ctx: _Ctx, sheet: Sheet, kind: str, count: int) -> list[list[Cell]]:
    """Rings around free outside cells (a pool), finishing a ring already begun first; spare stones next to the
    ring (the next pool) or on the edge."""
    free = set(free_cells(sheet, "stone"))
    free_mask = mask_of(free)
    stones_mask = mask_of(sheet.stones)
    open_mask = free_mask | stones_mask
    wants: dict[int, float] = {}
    spots = []
    for w, h, ring in _ring_spots_open(free_mask, open_mask):
        need = ring & ~stones_mask
        if w * h not in wants:
            wants[w * h] = _pool_want(ctx, w * h)
        spots.append((w * h * 1.0 - need.bit_count() * 0.3 + wants[w * h], need))
    tried = FEATURE_VARIANTS * 2
    # The best `tried` by (value, cells): only the spots valued at least the tried-th best can be among them.
    least = sorted((v for v, _ in spots), reverse=True)[tried - 1] if len(spots) > tried else -math.inf
    rings = sorted(((v, cells_of(need)) for v, need in _first_by_cell(spots, least, tried)),
                   key=lambda r: (-r[0], r[1]))
    out = []
    for _, need in rings[:tried]:  # each need in scan order
        if len(need) > count:
            chosen = need[:count]
        else:
            chosen = list(need) + _nearest(free_mask & ~mask_of(need), mask_of(need), count - len(need))
        if len(chosen) == count and chosen not in out:
            out.append(chosen)
        if len(out) >= FEATURE_VARIANTS:
            break
    return out


def _first_by_cell(spots: list[tuple[float, int]], least: float, k: int) -> list[tuple[float, int]]:
    """The spots valued at least ``least`` that may be among the first ``k`` by (value down, the need's cells in
    scan order as a list), without listing every need's cells (many rings tie on value): a spot whose value and
    first cell come after those of ``k`` others comes after each of them (a list sorts by its first item first;
    no cell, an empty list, sorts before any)."""
    top = [(v, need) for v, need in spots if v >= least]
    if len(top) <= k:
        return top
    keys = [(-v, CELL_AT[(need & -need).bit_length() - 1] if need else (-1, -1)) for v, need in top]
    cut = sorted(keys)[k - 1]
    return [spot for spot, key in zip(top, keys, strict=True) if key <= cut]


def _nearest(within: int, need: int, k: int) -> list[Cell]:
    """The ``k`` cells of ``within`` nearest to ``need`` (Manhattan distance; the first in scan order when none is
    needed), ties in scan order: the rings of cells one step further out, grown on masks (on the sheet, a
    shortest path of steps is as long as the Manhattan distance)."""
    if not need:
        return cells_of(within)[:k]
    out: list[Cell] = []
    reached, ring = need, need
    while len(out) < k and ring:
        out += cells_of(ring & within)[:k - len(out)]
        grown = grow(reached)
        reached, ring = grown, grown & ~reached
    return out


def _ring_spots_open(free: int, open_: int) -> list[tuple[int, int, int]]:
    """(w, h, ring) of `_RING_SPOTS` whose inner cells are all free and whose ring is all free or stones, the
    spots found on masks for each shape at once: the inner cells a run of ``w`` free cells across on ``h`` rows,
    the ring's top and bottom rows a run of ``w`` open cells, its sides a column of ``h`` open cells."""
    out = []
    for w, h in _POOL_SHAPES:
        inner = _runs(free, w, h)
        across, down = _runs(open_, w, 1), _runs(open_, 1, h)
        spots = inner & (across << WIDTH) & (across >> (h * WIDTH)) & (down << 1) & (down >> w) & _RING_AT[w, h]
        out += [(w, h, _RING_OF[w, h, c]) for c in cells_of(spots)]
    return out


def _runs(mask: int, w: int, h: int) -> int:
    """The cells from which ``w`` cells across and ``h`` rows down are all in ``mask`` (none wrapping a row)."""
    run = mask
    for i in range(1, w):
        run &= mask >> i
    run &= _STARTS_ACROSS[w]
    out = run
    for j in range(1, h):
        out &= run >> (j * WIDTH)
    return out


_STARTS_ACROSS = {w: mask_of((x, y) for y in range(HEIGHT) for x in range(WIDTH - w + 1)) for w in (1, 2, 3)}


def _ring_spots() -> list[tuple[int, int, int, int]]:
    """(w, h, inner cells, the ring of cells around them) as masks, for every pool shape and spot tried."""
    out = []
    for w, h in ((2, 2), (1, 2), (2, 1), (1, 1), (2, 3), (3, 2)):
        for x in range(1, WIDTH - w):
            for y in range(1, HEIGHT - h):
                inner = {(x + i, y + j) for i in range(w) for j in range(h)}
                ring = {n for c in inner for n in NEIGHBOURS[c] if n not in inner}
                out.append((w, h, mask_of(inner), mask_of(ring)))
    return out


_RING_SPOTS = _ring_spots()
_POOL_SHAPES = ((2, 2), (1, 2), (2, 1), (1, 1), (2, 3), (3, 2))
# per shape: the cells a ring's inner top-left corner may take (the ring on the sheet); its ring by that cell
_RING_AT = {(w, h): mask_of((x, y) for x in range(1, WIDTH - w) for y in range(1, HEIGHT - h)) for w, h in _POOL_SHAPES}
_RING_OF = {(w, h, cells_of(inner)[0]): ring for w, h, inner, ring in _RING_SPOTS}


def _pool_want(ctx: _Ctx, size: int) -> float:
    value = 0.0
    for d in ctx.demands:
        if d.op == "pool":
            value += d.points * (1.0 if size >= d.params["min"] else 0.3)
        elif d.op in ("deck_pool", "window_sees") and d.params.get("sees", "pool") == "pool":
            value += 0.5
    return value


# --- the Two Doors bonus ---------------------------------------------------------------------------------------


def _with_two_doors(ctx: _Ctx, best: list[_Cand]) -> list[_Cand]:
    """The best few candidates again with the Two Doors bonus: the best two doors (`_cell_sets`' first set) drawn
    on the board each leaves (kept from its scoring: the steps run once), as the rules' `_doors` step would."""
    if ctx.board.open_bonus("two_doors") is None:
        return []
    out = []
    for cand in best:
        try:
            after = cand.after or ctx.game.run_steps(ctx.s, ctx.seat, cand.steps)[0]
            cells = _best_doors(ctx, after.sheet)
            if cells is None:
                continue
            doors = Step("doors", cells=tuple(sorted(cells, key=scan_key)))
            drawn = ctx.game._doors(after, doors)
        except RulesError:
            continue  # as the steps with the doors would be refused
        out.append(_Cand((*cand.steps, doors), cand.key + "+doors", cand.spot, cand.cost + BONUS_COST, drawn))
    return out


def _best_doors(ctx: _Ctx, sheet: Sheet) -> list[Cell] | None:
    """The first of `_cell_sets` for two doors (the best-scored free wall cells, spread), without the others."""
    free = free_cells(sheet, "door")
    if len(free) < 2:
        return None
    scores = _cell_scores(ctx, sheet, "door", free)
    return _spread(sorted(free, key=scores.__getitem__, reverse=True), 2, "door")  # ties in scan order
