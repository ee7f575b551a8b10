"""The Floor Plan planner's feature-set shortcuts (issue 25, sixth pass) answer what the long way answers.

A tree anchor with no room beside it is scored by its edges alone (read off a mask of the anchors whose 3×3 lines
a room); a stone set's rings tied on value are listed cell by cell only when their first cell may place them
among the few tried. Each is checked against the straightforward computation on the sheets of seeded games
(and random masks), with the demands and door bonus that make a tree's score read its neighbours.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import replace

from rules.base import RulesError
from rules.floor_plan import FloorPlan
from rules.floor_plan import demands as dm
from rules.floor_plan.planner.context import FEATURE_VARIANTS, _Ctx
from rules.floor_plan.planner.features import (
    _best_doors,
    _cell_scores,
    _cell_sets,
    _clustered,
    _door_score,
    _door_scores_kept_outside,
    _feature_cands,
    _first_by_cell,
    _is_feature,
    _nearest,
    _pool_want,
    _ring_spots_open,
    _spread,
    _stone_sets,
    _tree_sets,
)
from rules.floor_plan.planner.rooms import _pair_of, _pair_want
from rules.floor_plan.planner.search import _context
from rules.floor_plan.sheet import (
    HEIGHT,
    NEIGHBOURS,
    ROOM_TYPES,
    STEPS,
    WIDTH,
    Cell,
    Sheet,
    cells_of,
    free_cells,
    mask_of,
    scan_key,
)
from tests.rules.test_floor_plan_planner_shortcuts import _rolled_contexts, _states  # a solo bot game's first 40 states

FP = FloorPlan()


def _contexts(seeds: tuple[str, ...]) -> Iterator[_Ctx]:
    """Each rolled state's context as dealt, then with a demand and a door bonus that look at trees (a tree's
    score then reads the rooms beside it)."""
    for seed in seeds:
        for ctx in _rolled_contexts(_states(seed)[1:]):
            yield _context(FP, ctx.s, 0)
            ctx.demands = [*ctx.demands, dm.DEMANDS["nature_lover.1"]]
            ctx.layout = dm.CLIENTS["garden_paths"]
            yield ctx


def _long_tree_sets(ctx: _Ctx, sheet: Sheet, count: int) -> list[list[Cell]]:
    """The long way: every anchor scored on the rooms next to any of its nine cells."""
    want_view = [d for d in ctx.demands if d.op == "window_sees" and d.params["sees"] == "tree"]
    line = ctx.layout.door_bonus is not None and ctx.layout.door_bonus.params.get("feature") == "tree"

    def score(a: Cell) -> float:
        cells = [(a[0] + dx, a[1] + dy) for dx in range(3) for dy in range(3)]
        near = {sheet.room_of[n] for c in cells for n in NEIGHBOURS[c] if n in sheet.room_of}
        value = 0.0
        for d in want_view:
            value += 2.0 * sum(1 for r in near if sheet.rooms[r].type == d.params["room"])
        value += 1.0 * bool(near) * line
        edge = (a[0] == 0) + (a[1] == 0) + (a[0] == WIDTH - 3) + (a[1] == HEIGHT - 3)
        return value + 0.5 * edge - 0.1 * len(near)

    ranked = sorted(free_cells(sheet, "tree"), key=lambda a: (-score(a), scan_key(a)))
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


def test_tree_anchors_away_from_rooms_are_scored_by_their_edges_as_the_long_way_scores_them() -> None:
    checked = 0
    for ctx in _contexts(("trees-a", "trees-b")):
        sheet = ctx.board.sheet
        for count in (1, 2, 3):
            assert _tree_sets(ctx, sheet, "tree", count) == _long_tree_sets(ctx, sheet, count), count
            checked += 1
    assert checked > 100


def _long_stone_sets(ctx: _Ctx, sheet: Sheet, count: int) -> list[list[Cell]]:
    """The long way: every ring spot valued and listed cell by cell, all sorted."""
    free = set(free_cells(sheet, "stone"))
    free_mask, stones_mask = mask_of(free), mask_of(sheet.stones)
    spots = []
    for w, h, ring in _ring_spots_open(free_mask, free_mask | stones_mask):
        need = ring & ~stones_mask
        spots.append((w * h * 1.0 - need.bit_count() * 0.3 + _pool_want(ctx, w * h), need))
    rings = sorted(((v, cells_of(need)) for v, need in spots), key=lambda r: (-r[0], r[1]))
    out: list[list[Cell]] = []
    for _, need in rings[:FEATURE_VARIANTS * 2]:
        if len(need) > count:
            chosen = need[:count]
        else:
            chosen = list(need) + _nearest(free_mask & ~mask_of(need), mask_of(need), count - len(need))
        if len(chosen) == count and chosen not in out:
            out.append(chosen)
        if len(out) >= FEATURE_VARIANTS:
            break
    return out


def test_stone_sets_list_only_the_rings_that_may_be_tried_and_make_the_long_ways_sets() -> None:
    checked = 0
    for ctx in _contexts(("stones-a", "stones-b")):
        sheet = ctx.board.sheet
        for count in (6, 12):
            assert _stone_sets(ctx, sheet, "stone", count) == _long_stone_sets(ctx, sheet, count), count
            checked += 1
    assert checked > 60


def test_the_rings_first_by_cell_hold_the_first_few_by_value_and_cells() -> None:
    """On random families with many ties (and rings needing no cell), the kept spots hold the first ``k`` of
    the full sort by (value down, cells), in that order."""
    pick = random.Random("first-by-cell")
    cells = [(x, y) for y in range(HEIGHT) for x in range(WIDTH)]
    for _ in range(400):
        spots = [(pick.choice((1.0, 2.5, 2.5, 3.1)), 0 if pick.random() < 0.05 else mask_of(pick.sample(cells, 3)))
                 for _ in range(pick.randint(0, 30))]
        k = pick.randint(1, 8)
        values = sorted((v for v, _ in spots), reverse=True)
        least = values[k - 1] if len(spots) > k else -math.inf

        def key(spot: tuple[float, int]) -> tuple[float, list[Cell]]:
            return -spot[0], cells_of(spot[1])

        kept = _first_by_cell(spots, least, k)
        assert sorted(kept, key=key)[:k] == sorted(spots, key=key)[:k]


def test_a_door_scores_pair_weight_read_from_the_calls_memo_is_the_pair_weight() -> None:
    """The door scores read each pair of room types' weight from the call's memo (filled by any reader)."""
    checked = 0
    for ctx in _contexts(("trees-a",)):
        for t in ROOM_TYPES:
            for o in ROOM_TYPES:
                assert _pair_of(ctx, t, o) == _pair_want(ctx, t, o)
                assert _pair_of(ctx, t, o) == _pair_want(ctx, t, o)  # the memo's answer
                checked += 1
    assert checked > 500


def _long_clustered(cells: list[Cell], count: int) -> list[Cell]:
    """The long way: the group grown one cell at a time, every cell looked at against the group's list."""
    if not cells:
        return []
    group = [cells[0]]
    allowed = set(cells)
    while len(group) < count:
        nxt = [c for c in cells if c not in group and any(n in group for n in NEIGHBOURS[c]) and c in allowed]
        if not nxt:
            return cells[:count]
        group.append(nxt[0])
    return group


def test_furnishings_clustered_on_a_set_of_the_group_are_the_long_ways_group() -> None:
    pick = random.Random("clustered")
    cells = [(x, y) for y in range(HEIGHT) for x in range(WIDTH)]
    for _ in range(500):
        x, y = pick.randrange(WIDTH - 4), pick.randrange(HEIGHT - 4)
        room = [c for c in cells if x <= c[0] < x + 5 and y <= c[1] < y + 5 and pick.random() < 0.6]
        pick.shuffle(room)
        for count in (1, 3, 4, 6):
            assert _clustered(room, count) == _long_clustered(room, count)


def _long_cell_sets(ctx: _Ctx, sheet: Sheet, kind: str, count: int) -> list[list[Cell]]:
    """The long way: the free cells ranked by score down, then scan order, spelt out in the key."""
    free = free_cells(sheet, kind)
    if len(free) < count:
        return []
    scores = _cell_scores(ctx, sheet, kind, free)
    ranked = sorted(free, key=lambda c: (-scores[c], scan_key(c)))
    out = [_spread(ranked, count, kind)]
    by_room: dict[int, list[Cell]] = {}
    for c in ranked:
        by_room.setdefault(sheet.room_of[c], []).append(c)
    for r in sorted(by_room, key=lambda r: -sum(scores[c] for c in by_room[r][:count]))[:FEATURE_VARIANTS]:
        group = _long_clustered(by_room[r], count) if kind == "furnishing" else by_room[r]
        if len(group) >= count:
            out.append(group[:count])
    return out


def test_cell_sets_ranked_by_score_with_ties_in_scan_order_are_the_long_ways_sets() -> None:
    """Doors, windows and furnishings: the cells ranked by their scores down, equal scores in scan order (the
    free cells' own order, kept by a stable sort), make the long way's sets; the best two doors too."""
    checked = 0
    for ctx in _contexts(("cells-a", "cells-b")):
        sheet = ctx.board.sheet
        for kind in ("door", "window", "furnishing"):
            for count in (2, 3, 4):
                assert list(_cell_sets(ctx, sheet, kind, count)) == _long_cell_sets(ctx, sheet, kind, count)
                checked += 1
        assert _best_doors(ctx, sheet) == (_long_cell_sets(ctx, sheet, "door", 2) or [None])[0]
    assert checked > 200


def test_door_scores_kept_beside_no_new_outside_feature_are_the_scores_made_afresh() -> None:
    """A feature candidate that draws trees, decks or stones (same rooms and doors) keeps the seat's sheet's door
    scores away from what it drew: each kept score equals the door's score worked out afresh on its sheet."""
    kept = 0
    for ctx in _contexts(("doors-a", "doors-b", "shortcut-door-5", "shortcut-door-19")):
        for cand in _feature_cands(ctx):
            try:
                sheet = FP.run_steps(ctx.s, 0, cand.steps)[0].sheet
            except RulesError:
                continue
            free = set(free_cells(sheet, "door"))
            fresh = _context(FP, ctx.s, 0)  # no memo, the same demands and door bonus
            fresh.demands, fresh.layout = ctx.demands, ctx.layout
            for c, v in _door_scores_kept_outside(ctx, sheet).items():
                if c in free:
                    assert v == _door_score(fresh, sheet, c), c
                    kept += 1
    assert kept > 1000, kept


def _long_door_score(ctx: _Ctx, sheet: Sheet, c: Cell) -> float:
    """The long way (before the door bonus): every demand looked at for each wall cell."""
    r = sheet.room_of[c]
    t = sheet.rooms[r].type
    others = {sheet.room_of[n] for n in NEIGHBOURS[c] if n in sheet.room_of and sheet.room_of[n] != r}
    outside = [(side, n) for side in sheet.rooms[r].walls_of(c)
               for n in [(c[0] + STEPS[side][0], c[1] + STEPS[side][1])]
               if 0 <= n[0] < WIDTH and 0 <= n[1] < HEIGHT and n not in sheet.room_of]
    value = 0.0
    for o in others:
        value += 0.5 + 2 * _pair_want(ctx, t, sheet.rooms[o].type)
    if outside:
        for d in ctx.demands:
            if d.op == "exterior_doors":
                value += 1.2
            elif d.op == "reachable":
                value += 0.8
            elif d.op == "door_onto" and t == d.params["room"]:
                value += 1.0 + 2.0 * any(_is_feature(sheet, n, d.params["feature"]) for _, n in outside)
    return value


def test_a_door_scores_demand_terms_listed_once_per_call_are_the_terms_of_every_demand() -> None:
    """Without a door bonus a door's score is its neighbours' pair weights and the terms of the demands a door
    opening outside scores for: the same float, term by term, as looking at every demand for each cell."""
    checked = 0
    for seed in ("doors-a", "doors-b", "doors-c"):
        for ctx in _rolled_contexts(_states(seed)[1::2]):
            ctx.layout = replace(ctx.layout, door_bonus=None)
            ctx.demands = [*ctx.demands, *(dm.DEMANDS[i] for i in ("step_free.1", "entertainer.2", "garden_paths.1"))]
            sheet = ctx.board.sheet
            for c in free_cells(sheet, "door"):
                assert _door_score(ctx, sheet, c) == _long_door_score(ctx, sheet, c), c
                checked += 1
    assert checked > 500
