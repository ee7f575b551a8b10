"""The planner's room candidates: free spots for the roll's rooms, a cheap placement score, Double a Room."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import Any

from rules.base import RulesError
from rules.floor_plan.notation import RoomDraw, Step
from rules.floor_plan.planner.context import BONUS_COST, WILD_COST, WILD_EVALS, _Cand, _Ctx
from rules.floor_plan.sheet import (
    FULL,
    HEIGHT,
    NEIGHBOURS,
    ROOM_TYPES,
    WIDTH,
    Cell,
    Room,
    Sheet,
    add_room,
    cells_of,
    grow,
    mask_of,
    rect_mask,
    scan_key,
)


def _free_rects(blocked: set[Cell], w: int, h: int) -> Iterable[tuple[int, int]]:
    pre = [[0] * (WIDTH + 1) for _ in range(HEIGHT + 1)]
    for y in range(HEIGHT):
        row = 0
        for x in range(WIDTH):
            row += (x, y) in blocked
            pre[y + 1][x + 1] = pre[y][x + 1] + row
    for y in range(HEIGHT - h + 1):
        for x in range(WIDTH - w + 1):
            if pre[y + h][x + w] - pre[y][x + w] - pre[y + h][x] + pre[y][x] == 0:
                yield x, y


def _label(sheet: Sheet, x: int, y: int, w: int, h: int) -> Cell:
    """An inner cell when there is one (walls stay free for doors and windows), else a cell on the sheet's edge
    or against another room (the least useful wall)."""
    if w >= 3 and h >= 3:
        return x + 1, y + 1
    cells = sorted(((cx, cy) for cx in range(x, x + w) for cy in range(y, y + h)), key=scan_key)

    def useless(c: Cell) -> int:
        return sum(1 for n in NEIGHBOURS[c] if n in sheet.room_of) + (4 - len(NEIGHBOURS[c]))

    return max(cells, key=useless)


def _touching(sheet: Sheet, x: int, y: int, w: int, h: int) -> dict[int, int]:
    """Room -> how many cells of it line the rectangle's sides (in the order met: top, bottom, left, right)."""
    return _touching_on(_grid(sheet), x, y, w, h)


PAD = WIDTH + 2  # a row of the padded grid (`_grid`)


def _grid(sheet: Sheet) -> list[int]:
    """The sheet's room index per cell (-1: none) on a grid with a border of -1 all round, row by row: the
    candidate scan reads thousands of cells per call, and list indexing is far cheaper than tuple keys."""
    grid = [-1] * (PAD * (HEIGHT + 2))
    for (cx, cy), r in sheet.room_of.items():
        grid[(cy + 1) * PAD + cx + 1] = r
    return grid


def _touching_on(grid: list[int], x: int, y: int, w: int, h: int) -> dict[int, int]:
    """`_touching` read on `_grid` (the same rooms, counts and order)."""
    touching: dict[int, int] = {}
    top, bottom = y * PAD + 1, (y + h + 1) * PAD + 1
    for cx in range(x, x + w):
        if (r := grid[top + cx]) >= 0:
            touching[r] = touching.get(r, 0) + 1
        if (r := grid[bottom + cx]) >= 0:
            touching[r] = touching.get(r, 0) + 1
    for cy in range(y, y + h):
        row = (cy + 1) * PAD
        if (r := grid[row + x]) >= 0:
            touching[r] = touching.get(r, 0) + 1
        if (r := grid[row + x + w + 1]) >= 0:
            touching[r] = touching.get(r, 0) + 1
    return touching


def _room_prescore(ctx: _Ctx, sheet: Sheet, t: str, x: int, y: int, w: int, h: int,
                   touching: dict[int, int] | None = None) -> float:
    """A cheap placement score: wanted type, wanted neighbours, contact (compact houses keep space), size.
    ``touching``: `_touching` of the spot when already known (both room types of a roll share it)."""
    value = ctx.wanted.get(t, 0.0)
    if touching is None:
        touching = _touching(sheet, x, y, w, h)
    contact = sum(touching.values())
    value += min(contact, 8) * 0.12 + (0.0 if touching else -1.0)
    for r in touching:
        other = sheet.rooms[r].type
        pair = ctx.pair_want.get((t, other))
        if pair is None:  # the same few pairs for every spot: worked out once per call
            pair = ctx.pair_want[(t, other)] = _pair_want(ctx, t, other)
        value += pair
    edge = (x == 0) + (y == 0) + (x + w == WIDTH) + (y + h == HEIGHT)
    value += 0.15 * edge
    shape = ctx.shape_want.get((t, w, h))
    if shape is None:
        shape = ctx.shape_want[(t, w, h)] = _shape_want(ctx, t, w, h)
    for points in shape:  # added one by one, as before the memo (the same float sums)
        value += points
    return value


def _shape_want(ctx: _Ctx, t: str, w: int, h: int) -> tuple[float, ...]:
    """What a big or square room of that shape earns, demand by demand."""
    out = []
    for d in ctx.demands:
        big = d.op == "room_size" and w * h >= d.params["min"]
        square = d.op == "square_room" and w == h and t != d.params.get("not")
        if big or square:
            out.append(d.points * 0.8)
    return tuple(out)


def _pair_of(ctx: _Ctx, t: str, other: str) -> float:
    """`_pair_want`, once per call and pair of types (the door scores ask it for every wall cell)."""
    pair = ctx.pair_want.get((t, other))
    if pair is None:
        pair = ctx.pair_want[(t, other)] = _pair_want(ctx, t, other)
    return pair


def _pair_want(ctx: _Ctx, t: str, other: str) -> float:
    value = 0.0
    for d in ctx.demands:
        pair = d.op == "connected" and {t, other} == {d.params["a"], d.params["b"]}
        if pair or (d.op == "connected_same" and t == other):
            value += d.points * 0.3
        elif d.op == "connected_count" and d.params["type"] in (t, other):
            value += d.points * 0.15
        elif d.op in ("chain", "reachable", "courtyard"):
            value += 0.1
    return value


def _dice_variants(ctx: _Ctx) -> list[tuple[tuple[int, int], tuple[int, int] | None]]:
    roll = ctx.s.roll
    assert roll is not None
    out: list[tuple[tuple[int, int], tuple[int, int] | None]] = [(roll, None)]
    if not ctx.board.wild_used:
        for i, die in enumerate(roll):
            for v in range(1, 7):
                if v != die:
                    dice = (v, roll[1]) if i == 0 else (roll[0], v)
                    out.append((dice, (die, v)))
    return out


def _room_options(ctx: _Ctx, sheet: Sheet, dice: tuple[int, int], top: int, above: float | None = None
                  ) -> list[tuple[float, RoomDraw]]:
    """The ``top`` best rooms of the dice by the cheap score (labels chosen only for those); with ``above``, only
    those scoring more than it (a room type and shape that cannot, by `_prescore_bound`, is not scanned)."""
    return [(score, _draw(sheet, spot)) for score, spot in _scored_spots(ctx, sheet, dice, top, above)]


Spot = tuple[int, int, int, int, str]  # x, y, w, h, room type: a room drawn but for its label


def _draw(sheet: Sheet, spot: Spot) -> RoomDraw:
    x, y, w, h, t = spot
    return RoomDraw(x, y, w, h, t, _label(sheet, x, y, w, h))


# The bars under the best bound at which the scan for one best room (Double a Room's second room) looks first.
BEST_BARS = (1.5, 3.0)


def _scored_spots(ctx: _Ctx, sheet: Sheet, dice: tuple[int, int], top: int, above: float | None = None
                  ) -> list[tuple[float, Spot]]:
    """`_room_options` without the labels: the caller labels only the few rooms it keeps of the ``top``.

    The best room alone is first sought among the spots that may pass a bar below the best bound: when one
    passes, the best overall passes (every spot left out scores at most the bar, less than it)."""
    if top == 1 and above is None:
        a, b = dice
        types = sorted({ROOM_TYPES[a - 1], ROOM_TYPES[b - 1]})
        high = max(_prescore_bound(ctx, sheet, t, w, h) for t in types for w, h in {(a, b), (b, a)})
        for drop in BEST_BARS:
            if best := _spots_above(ctx, sheet, dice, 1, high - drop):
                return best
    return _spots_above(ctx, sheet, dice, top, above)


def _spots_above(ctx: _Ctx, sheet: Sheet, dice: tuple[int, int], top: int, above: float | None = None
                 ) -> list[tuple[float, Spot]]:
    """`_scored_spots` by one scan."""
    best = heapq.nsmallest(top, _spot_list(ctx, sheet, dice, above))  # = sorted(...)[:top]: the tuples are unique
    return [(-neg, (x, y, w, h, t)) for neg, y, x, w, h, t in best]


Scored = tuple[float, int, int, int, int, str]  # minus the score, y, x, w, h, room type: best first as tuples sort


def _spot_list(ctx: _Ctx, sheet: Sheet, dice: tuple[int, int], above: float | None = None, lining: int = 0
               ) -> list[Scored]:
    """Every free spot of the dice's rooms scoring above ``above`` (all with None), scored (`Scored`), in no
    particular order; with ``lining``, only the spots whose room would line a cell of it. `_room_prescore` is
    worked out inline, term by term in its order (the same float sums): it runs for every free spot of the roll,
    the bulk of a decision's room scan."""
    a, b = dice
    types = sorted({ROOM_TYPES[a - 1], ROOM_TYPES[b - 1]})
    grid = _grid_of(ctx, sheet)
    halo = grow(sheet.room_mask) & ~sheet.room_mask  # the cells next to a room
    out: list[Scored] = []
    for w, h in sorted({(a, b), (b, a)}):
        kinds = [_kind_terms(ctx, sheet, t, w, h) for t in types
                 if above is None or _prescore_bound(ctx, sheet, t, w, h) > above]
        if not kinds:
            continue
        free = _free_spot_mask(sheet, w, h)
        if above is not None:
            free &= _may_pass(ctx, sheet, kinds, w, h, above)
        if lining:
            free &= _lining(lining, w, h)
        lone = free & ~_lining(halo, w, h)  # the spots lining no room: nothing to read around them
        if lone:
            _lone_spots(out, kinds, lone, w, h, above)
        for x, y in cells_of(free & ~lone):
            touching = _touching_on(grid, x, y, w, h)
            contact = min(sum(touching.values()), 8) * 0.12 + (0.0 if touching else -1.0)
            edge = 0.15 * ((x == 0) + (y == 0) + (x + w == WIDTH) + (y + h == HEIGHT))
            for t, wanted, pairs, shape in kinds:
                score = wanted + contact
                for r in touching:
                    score += pairs[r]
                score += edge
                for points in shape:
                    score += points
                if above is None or score > above:
                    out.append((-score, y, x, w, h, t))
    return out


def _all_spots(ctx: _Ctx, sheet: Sheet, dice: tuple[int, int]) -> list[Scored]:
    """Every free spot of the dice's rooms, scored, best first: once per sheet and dice in a call."""
    hit = ctx.grids.get(("all", id(sheet), dice))
    if hit is None or hit[0] is not sheet:  # the sheet itself (kept alive here), not a reused id
        hit = ctx.grids[("all", id(sheet), dice)] = (sheet, sorted(_spot_list(ctx, sheet, dice)))
    return hit[1]


def _best_beside(ctx: _Ctx, base: Sheet, after: Sheet, room: Room, dice: tuple[int, int]
                 ) -> list[tuple[float, Spot]]:
    """`_scored_spots(ctx, after, dice, 1)` for ``after``, ``base`` with ``room`` drawn (Double a Room's second
    room). A spot clear of the room and of its sides is free on ``base`` too and scores there what it scores on
    ``after``: it lines the same rooms, in the same order (a room changes no feature or water). So the best is
    the first such spot of ``base``'s sorted spots or a spot beside the room scored on ``after``, whichever
    sorts first."""
    rx, ry, rw, rh = room.x, room.y, room.w, room.h
    clear = None
    for scored in _all_spots(ctx, base, dice):
        _, y, x, w, h, _ = scored
        across = x <= rx + rw and rx <= x + w and y < ry + rh and ry < y + h  # overlapping or side by side
        down = x < rx + rw and rx < x + w and y <= ry + rh and ry <= y + h  # ... or one above the other
        if not across and not down:
            clear = scored
            break
    cells = rect_mask(rx, ry, rw, rh)
    beside = _spot_list(ctx, after, dice, lining=grow(cells) & ~cells)
    if clear is not None:
        beside.append(clear)
    if not beside:
        return []
    neg, y, x, w, h, t = min(beside)
    return [(-neg, (x, y, w, h, t))]


def _lone_spots(out: list[tuple[float, int, int, int, int, str]],
                kinds: list[tuple[str, float, list[float], tuple[float, ...]]], lone: int, w: int, h: int,
                above: float | None) -> None:
    """`_spots_above`'s scores of the ``lone`` spots, which line no room: no pair weights, and a contact of
    ``min(0, 8) * 0.12 + -1.0``, exactly -1.0; the same float sums, once per kind and number of edges."""
    by_edges: dict[int, list[tuple[float, str]]] = {}
    for x, y in cells_of(lone):
        edges = (x == 0) + (y == 0) + (x + w == WIDTH) + (y + h == HEIGHT)
        scores = by_edges.get(edges)
        if scores is None:
            edge = 0.15 * edges
            scores = by_edges[edges] = []
            for t, wanted, _, shape in kinds:
                score = wanted + -1.0
                score += edge
                for points in shape:
                    score += points
                scores.append((score, t))
        for score, t in scores:
            if above is None or score > above:
                out.append((-score, y, x, w, h, t))


def _kind_terms(ctx: _Ctx, sheet: Sheet, t: str, w: int, h: int) -> tuple[str, float, list[float], tuple[float, ...]]:
    """The terms of `_room_prescore` for a ``t`` room ``w``×``h`` that do not depend on the spot: how much the
    demands want the type, each room's pair weight with it (by room index: once per sheet and type in a call)
    and the shape's weights."""
    hit = ctx.grids.get(("kind_pairs", id(sheet), t))
    if hit is None or hit[0] is not sheet:  # the sheet itself (kept alive here), not a reused id
        hit = ctx.grids[("kind_pairs", id(sheet), t)] = (sheet, [_pair_of(ctx, t, r.type) for r in sheet.rooms])
    pairs = hit[1]
    shape = ctx.shape_want.get((t, w, h))
    if shape is None:
        shape = ctx.shape_want[(t, w, h)] = _shape_want(ctx, t, w, h)
    return t, ctx.wanted.get(t, 0.0), pairs, shape


# Per room width: the cells where a room that wide may start (its right side on the sheet).
_FITS_ACROSS = [0] + [mask_of((x, y) for y in range(HEIGHT) for x in range(WIDTH - w + 1)) for w in range(1, WIDTH + 1)]


def _free_spots(sheet: Sheet, w: int, h: int) -> list[Cell]:
    """`_free_rects` on bit masks: same spots, same (scan) order."""
    return cells_of(_free_spot_mask(sheet, w, h))


def _free_spot_mask(sheet: Sheet, w: int, h: int) -> int:
    """The free spots (top-left cells) of a ``w``×``h`` room as a mask: a spot is free when the cell and the next
    ``w - 1`` to its right are free (the run), in it and the next ``h - 1`` rows down."""
    free = FULL & ~sheet.blocked_mask
    run = free
    for i in range(1, w):
        run &= free >> i
    run &= _FITS_ACROSS[w]  # a run may not wrap onto the next row
    spots = run
    for j in range(1, h):
        spots &= run >> (j * WIDTH)  # rows below the sheet shift in as 0: no spot hangs off the bottom
    return spots


def _lining(mask: int, w: int, h: int) -> int:
    """The spots whose ``w``×``h`` rectangle holds a cell of ``mask`` (a spot's rectangle lines a room when it
    holds a cell next to it). Bits shifted across a row's end land on columns no such room may start on."""
    across = mask
    for i in range(1, w):
        across |= mask >> i
    out = across
    for j in range(1, h):
        out |= across >> (j * WIDTH)
    return out


def _halos(ctx: _Ctx, sheet: Sheet) -> list[tuple[str, int, int]]:
    """(room type, its number of rooms, the cells next to them) per room type on the sheet, once per call."""
    hit = ctx.grids.get(("halos", id(sheet)))
    if hit is None or hit[0] is not sheet:
        out = []
        for t in sorted({r.type for r in sheet.rooms}):
            rooms = [r for r in sheet.rooms if r.type == t]
            cells = 0
            for r in rooms:
                cells |= rect_mask(r.x, r.y, r.w, r.h)
            out.append((t, len(rooms), grow(cells) & ~cells))
        hit = ctx.grids[("halos", id(sheet))] = (sheet, out)
    return hit[1]


def _may_pass(ctx: _Ctx, sheet: Sheet, kinds: list[tuple[str, float, list[float], tuple[float, ...]]], w: int,
              h: int, above: float) -> int:
    """The spots where some kind's `_room_prescore` may pass ``above``; every other spot scores at most it (the
    Wild's rooms are kept only above the roll's best plus a margin: most spots are far below, and this bound
    skips them without reading their neighbours). A spot's score is at most its type's wish and shape, the most
    contact (0.96), two edges (0.3) and the pair weight of every room of each type whose rooms it may line; one
    that lines no room scores its wish and shape, -1.0 and its edges."""
    lines = [(t, n, _lining(halo, w, h)) for t, n, halo in _halos(ctx, sheet)]
    near = 0
    for _, _, m in lines:
        near |= m
    out = 0
    for t, wanted, _, shape in kinds:
        base = wanted + sum(shape) + 0.15 * 2 + 1e-6  # the margin covers the float sums' order
        if base - 1.0 > above:
            out |= ~near & FULL
        weights = []
        for o, n, m in lines:
            pair = ctx.pair_want.get((t, o))
            if pair is None:
                pair = ctx.pair_want[(t, o)] = _pair_want(ctx, t, o)
            weights.append((n * pair, m))
        out |= _heavy(weights, above - base - 0.96, near, sum(w for w, _ in weights))
    return out


def _heavy(weights: list[tuple[float, int]], need: float, within: int, total: float) -> int:
    """The cells of ``within`` whose weights (the sum over the masks holding them, each weight >= 0; ``total``
    theirs all) may exceed ``need``: the cells of every set of masks whose weights together do."""
    if need < 0 or not within:
        return within
    if not weights or total < need - 1e-9:  # not even every weight left passes (the sums less a rounding)
        return 0
    (weight, mask), rest = weights[0], weights[1:]
    return _heavy(rest, need - weight, within & mask, total - weight) | _heavy(rest, need, within, total - weight)


def _grid_of(ctx: _Ctx, sheet: Sheet) -> list[int]:
    """`_grid` of the sheet, once per planner call (the roll's rooms and the Wild's variants read the same)."""
    hit = ctx.grids.get(id(sheet))
    if hit is None or hit[0] is not sheet:  # the sheet itself (kept alive here), not a reused id
        hit = ctx.grids[id(sheet)] = (sheet, _grid(sheet))
    return hit[1]


def _prescore_bound(ctx: _Ctx, sheet: Sheet, t: str, w: int, h: int) -> float:
    """At least `_room_prescore` of any spot of a ``t`` room ``w``×``h`` on the sheet (every term at its most:
    full contact, every room of the sheet touching it, two edges), plus a margin for float rounding."""
    hit = ctx.grids.get(("pairs", id(sheet), t))
    if hit is None or hit[0] is not sheet:  # once per sheet and type in a call (the same float sum)
        hit = ctx.grids[("pairs", id(sheet), t)] = (sheet, _pairs_bound(ctx, sheet, t))
    pairs = hit[1]
    shape = ctx.shape_want.get((t, w, h))
    if shape is None:
        shape = ctx.shape_want[(t, w, h)] = _shape_want(ctx, t, w, h)
    return ctx.wanted.get(t, 0.0) + 8 * 0.12 + pairs + 0.15 * 2 + sum(shape) + 1e-6


def _pairs_bound(ctx: _Ctx, sheet: Sheet, t: str) -> float:
    """The pair weight of a ``t`` room lining every room of the sheet."""
    pairs = 0.0
    for other in {r.type for r in sheet.rooms}:
        pair = ctx.pair_want.get((t, other))
        if pair is None:
            pair = ctx.pair_want[(t, other)] = _pair_want(ctx, t, other)
        pairs += pair * sum(1 for r in sheet.rooms if r.type == other)
    return pairs


def _pick_varied(options: list[tuple[float, Any]], n: int, spot: Any) -> list[tuple[float, Any]]:
    """Up to n of the options, best first, skipping one near (within 2 cells of) an earlier pick of its kind."""
    out: list[tuple[float, Any]] = []
    for opt in options:
        kind, (x, y) = spot(opt[1])
        if any(kind == k and abs(x - px) + abs(y - py) <= 2 for k, (px, py) in (spot(o[1]) for o in out)):
            continue
        out.append(opt)
        if len(out) >= n:
            break
    return out


def _room_cands(ctx: _Ctx) -> list[_Cand]:
    sheet = ctx.board.sheet
    plain: list[tuple[float, Spot, tuple[int, int] | None]] = []
    wild: list[tuple[float, Spot, tuple[int, int] | None]] = []
    variants = _dice_variants(ctx)  # the roll itself first, then the Wild's
    for dice, w in variants[:1]:  # the roll's 60 best, of all its spots (Double a Room reads them all again)
        plain.extend((-neg, (x, y, ww, h, t), w) for neg, y, x, ww, h, t in _all_spots(ctx, sheet, dice)[:60])
    best_plain = max((o[0] for o in plain), default=-99.0)
    for dice, w in variants[1:]:  # only a Wild room clearly better than the roll's best is worth the Wild
        wild.extend((score, spot, w) for score, spot in _scored_spots(ctx, sheet, dice, 6, best_plain + 1.0))
    wild.sort(key=lambda o: -o[0])
    wild = wild[:WILD_EVALS]

    def at(spot: Spot) -> tuple[str, Cell]:
        return spot[4], (spot[0], spot[1])

    picked = [_draw(sheet, spot) for _, spot in _pick_varied([(sc, sp) for sc, sp, _ in plain], ctx.room_evals, at)]
    out = [_Cand((Step("room", rooms=(rd,)),), f"room:{rd.type}", (rd.x, rd.y)) for rd in picked]
    for _, spot, w in wild:
        rd = _draw(sheet, spot)
        out.append(_Cand((Step("room", rooms=(rd,), wild=w),), f"room:{rd.type}", (rd.x, rd.y), WILD_COST))
    if ctx.board.open_bonus("double_room") is not None:
        out += _double_rooms(ctx, picked[:3])
    return out


def _double_rooms(ctx: _Ctx, firsts: list[RoomDraw]) -> list[_Cand]:
    roll = ctx.s.roll
    assert roll is not None
    out = []
    for rd in firsts:
        try:
            sheet = add_room(ctx.board.sheet, Room(rd.type, rd.x, rd.y, rd.w, rd.h, rd.label))
        except RulesError:
            continue
        second = _best_beside(ctx, ctx.board.sheet, sheet, sheet.rooms[-1], roll)
        for _, spot in second:
            rd2 = _draw(sheet, spot)
            out.append(_Cand((Step("room", rooms=(rd, rd2)),), f"rooms:{rd.type}{rd2.type}", (rd.x, rd.y),
                             BONUS_COST))
    return out
