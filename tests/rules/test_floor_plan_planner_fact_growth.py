"""The Floor Plan planner's facts grown from the seat's sheet's (issue 25, sixth pass) are the facts worked out afresh.

A candidate's sheet that keeps the seat's sheet's rooms first (the same objects) and all its doors works its door
links out from the seat's sheet's: only new doors and doors next to a room added are looked at again. And the
demands' stocks are counted once per claims tuple for the claims, the end test and the evaluation. Checked on
every room, feature and Two Doors candidate of seeded games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields, replace
from functools import cached_property
from itertools import combinations
from typing import Any

import pytest

from rules.base import RulesError
from rules.floor_plan import FloorPlan
from rules.floor_plan import demands as dm
from rules.floor_plan.notation import Step
from rules.floor_plan.planner.context import _Ctx
from rules.floor_plan.planner.features import _feature_cands, _with_two_doors
from rules.floor_plan.planner.rooms import _room_cands
from rules.floor_plan.planner.value import (
    _adjacent_pairs,
    _adopt_base,
    _after_claim,
    _assign,
    _count_stock,
    _p_connected_count,
    _p_window_walls,
    _p_windows,
    _progress,
    _progress_of,
    _stock,
    _stocks,
    _used,
)
from rules.floor_plan.sheet import BORDER_MASK, FULL, Room, cells_of, mask_components
from rules.floor_plan.state import Board, Claim, evolve
from tests.rules.test_floor_plan_planner_shortcuts import _rolled_contexts, _states  # a solo bot game's first 40 states

FP = FloorPlan()


def _candidate_boards(seeds: tuple[str, ...]) -> Iterator[tuple[_Ctx, Board]]:
    """(context, the board a candidate leaves) for every room, feature and Two Doors candidate of each rolled
    state the rules accept."""
    for seed in seeds:
        for ctx in _rolled_contexts(_states(seed)[1:]):
            cands = [*_room_cands(ctx), *_feature_cands(ctx)]
            for cand in [*cands, *_with_two_doors(ctx, cands)]:
                try:
                    yield ctx, cand.after or FP.run_steps(ctx.s, 0, cand.steps)[0]
                except RulesError:
                    continue


def test_door_links_grown_from_the_seats_sheet_are_the_door_links_worked_out_afresh() -> None:
    grown = redone = 0
    for ctx, board in _candidate_boards(("grow-a", "grow-b", "grow-c")):
        f = dm.Facts(board.sheet)
        _adopt_base(f, ctx.board.sheet)
        if "door_links" in f.__dict__ or "_door_parent" not in f.__dict__:
            continue
        grown += 1
        fresh = dm.Facts(board.sheet)
        assert f.door_links == fresh.door_links
        assert f.links == fresh.links
        assert f.door_rooms == fresh.door_rooms
        base = ctx.board.sheet
        redone += any(d.cell in base.doors and d != o for d in f.door_links for o in dm.facts_of(base).door_links
                      if o.cell == d.cell)  # a door whose link a room added changed
    assert grown > 150 and redone > 5, (grown, redone)


def test_the_stocks_of_a_claims_tuple_are_each_demands_stock() -> None:
    """Counted once per claims tuple (and so again after a claim): each the demand's stock on that board."""
    checked = 0
    for ctx, board in _candidate_boards(("grow-a",)):
        f = dm.Facts(board.sheet)
        for b in (board, replace(board, claims=board.claims[:1]), replace(board, claims=())):
            used = b.used_by_demand()
            want = [_stock(dm.Facts(board.sheet), d, used.get(d.id, frozenset())) for d in ctx.demands]
            assert _stocks(ctx, b, f) == want
            checked += len(b.claims) > 0
    assert checked > 100


def test_the_tokens_and_stocks_seeded_after_a_claim_are_those_of_the_board_it_leaves() -> None:
    """After each claim the planner seeds the board's used tokens (only the claimed demand's worked out again)
    and stocks: the same tokens, in the same order, as `Board.used_by_demand`, and each demand's stock."""
    checked = 0
    for ctx, board in _candidate_boards(("grow-a", "grow-d")):
        f = dm.Facts(board.sheet)
        for _ in range(3):  # up to three claims in a row
            demand = next((d.id for d, k in zip(ctx.demands, _stocks(ctx, board, f), strict=True) if k > 0), None)
            if demand is None or None not in board.notes:
                break
            try:
                after = FP._claim(ctx.s, board, Step("claim", demand=demand))
            except RulesError:
                break
            _after_claim(ctx, f, board, after, demand)
            used = _used(ctx, after)
            assert list(used.items()) == list(after.used_by_demand().items())
            fresh = dm.Facts(board.sheet)
            assert _stocks(ctx, after, f) == [_stock(fresh, d, used.get(d.id, frozenset())) for d in ctx.demands]
            board = after
            checked += 1
    assert checked > 100, checked


def test_a_board_or_claim_evolved_is_the_one_dataclasses_replace_makes() -> None:
    """`evolve` copies the fields without running ``__init__``: equal to `dataclasses.replace`'s (fields, equality
    and hash) for every field changed, on the boards and claims of seeded games; which holds while neither class
    has a ``__post_init__``, a field left out of ``__init__`` or a cached property (its value, kept in the
    instance's ``__dict__``, would be copied stale)."""
    for cls in (Board, Claim):
        assert not hasattr(cls, "__post_init__") and all(f.init for f in fields(cls))
        assert not any(isinstance(v, cached_property) for v in vars(cls).values())
    checked = 0
    for ctx, board in _candidate_boards(("grow-e",)):
        for name, value in (("sheet", ctx.board.sheet), ("notes", (1,) * len(board.notes)), ("wild_used", True),
                            ("claims", board.claims[:1]), ("end_bonus", 3), ("bonus_used", board.bonus_used)):
            made, want = evolve(board, **{name: value}), replace(board, **{name: value})
            assert type(made) is Board and made == want and hash(made) == hash(want)
            assert [getattr(made, f.name) for f in fields(Board)] == [getattr(want, f.name) for f in fields(Board)]
            checked += 1
        for claim in board.claims:
            made_claim = evolve(claim, tokens=frozenset({"room:0"}))
            assert made_claim == replace(claim, tokens=frozenset({"room:0"}))
    assert checked > 100
    with pytest.raises(TypeError):
        evolve(board, sheets=None)


def test_the_tokens_read_from_tables_are_the_tokens_spelt_out() -> None:
    """Cells on the sheet are named and tokened from tables; any other cell (off the sheet, or a list) is spelt
    out as before."""
    cols = "ABCDEFGHIJKLMNOPQ"
    cells: list[Any] = [(x, y) for y in range(-1, 14) for x in range(-1, 17)] + [[3, 4], (16, 12)]
    for c in cells:
        assert dm.cell_name(c) == f"{cols[c[0]]}{c[1] + 1}"
        for prefix in ("door", "window", "deck", "furn", "water", "yard", "stone", "tree"):
            assert dm._token(prefix, c) == f"{prefix}:{cols[c[0]]}{c[1] + 1}"
    region = [(x, 5) for x in range(17)]
    assert dm.cells_tok("yard", region) == frozenset(f"yard:{cols[x]}6" for x in range(17))


def _long_p_connected_count(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    """The long way: every pair side by side looked at for each free room of the type."""
    pairs = _adjacent_pairs(dm.Facts(f.sheet))
    linked = {(a, b) for _, a, b in f.links}
    best = 0.0
    for i in [i for i in f.of_type(p["type"]) if dm.room(i) not in used]:
        near = {o for r, o in pairs if r == i}
        done = sum(1 for o in near if (i, o) in linked)
        best = max(best, (done + 0.5 * (len(near) - done)) / p["min"])
    return best


def test_progress_toward_a_room_joined_to_many_reads_the_rooms_beside_it_by_room() -> None:
    pick = random.Random("connected-count")
    checked = 0
    for ctx, board in _candidate_boards(("grow-a", "grow-f")):
        f = dm.facts_of(board.sheet)
        _adopt_base(f, ctx.board.sheet)
        for t in ("K", "D", "L", "B"):
            used = frozenset(dm.room(i) for i in range(len(f.rooms)) if pick.random() < 0.3)
            for p in ({"type": t, "min": 2}, {"type": t, "min": 3}):
                got = _p_connected_count(f, p, used)
                assert got == _long_p_connected_count(f, p, used)
                checked += got > 0
    assert checked > 100, checked


def test_a_door_onto_a_features_answers_are_shared_only_by_sheets_equal_in_its_doors_and_features() -> None:
    """Doors onto a feature read the doors (their rooms and the cells outside them) and the features outside:
    a candidate that keeps those (a bare room with no door beside it, windows, furnishings) shares the seat's
    sheet's answers, and each shared stock, progress and claim's witnesses equal the answer made afresh."""
    demands = [dm.DEMANDS["entertainer.2"]] + [d for d in dm.DEMANDS.values() if d.op == "door_onto"]
    shared_hits = 0
    for seed in ("onto-a", "onto-b", "onto-c"):
        shared: dict[object, object] = {}
        for ctx, board in _candidate_boards((seed,)):
            ctx.stocks = shared
            for d in demands:
                for used in (frozenset(), frozenset(t for c in board.claims for t in c.tokens)):
                    f, fresh = dm.Facts(board.sheet), dm.Facts(board.sheet)  # no answer kept on the sheet's Facts
                    _adopt_base(f, ctx.board.sheet)
                    before = len(shared)
                    assert _stock(f, d, used, shared, ctx.board.sheet) == _count_stock(fresh, d, used)
                    assert _progress(f, d, used, shared, ctx.board.sheet) == _progress_of(fresh, d, used)
                    shared_hits += len(shared) == before
            assert _assign(ctx, f, demands[0], []) == dm.assign(demands[0], dm.Facts(board.sheet), [])
    assert shared_hits > 100, shared_hits


def _long_window_walls(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> list[frozenset[str]]:
    """The long way: every room's walls met with every window."""
    out = []
    for i, r in enumerate(f.rooms):
        if dm.room(i) in used:
            continue
        sides: dict[str, list[str]] = {}
        for c in sorted(f.sheet.windows & r.wall_cells(), key=lambda c: (c[1], c[0])):
            tok = f"window:{dm.cell_name(c)}"
            if tok not in used:
                for side in r.walls_of(c):
                    sides.setdefault(side, []).append(tok)
        for chosen in combinations(sorted(sides), p["min"]):
            picked = dm._distinct_picks([sides[s] for s in chosen])
            if picked is not None:
                out.append(frozenset({dm.room(i), *picked}))
                break
    return out


def _long_windows(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> list[frozenset[str]]:
    out = []
    for i in f.of_type(p["room"]):
        if dm.room(i) in used:
            continue
        walls = f.rooms[i].wall_cells()
        free = [t for t in (f"window:{dm.cell_name(c)}" for c in sorted(f.sheet.windows, key=lambda c: (c[1], c[0]))
                            if c in walls) if t not in used]
        if len(free) >= p["min"]:
            out.append(frozenset({dm.room(i), *free[: p["min"]]}))
    return out


def test_the_window_demands_read_each_rooms_windows_as_the_long_way_reads_every_window() -> None:
    """Windows grouped by their room (and adopted from the seat's sheet by a candidate that keeps its windows, or
    adds bare rooms): the same witnesses, and the same progress, as meeting every room's walls with every
    window."""
    pick = random.Random("windows")
    checked = 0
    for ctx, board in _candidate_boards(("win-a", "win-b", "win-c")):
        f = dm.Facts(board.sheet)
        _adopt_base(f, ctx.board.sheet)
        fresh = dm.Facts(board.sheet)
        toks = [f"window:{dm.cell_name(c)}" for c in board.sheet.windows] + [dm.room(i) for i in range(len(f.rooms))]
        for _ in range(2):
            used = frozenset(t for t in toks if pick.random() < 0.2)
            for n in (1, 2, 3):
                walls = {"min": n}
                assert list(dm._window_walls(f, walls, used)) == _long_window_walls(fresh, walls, used)
                assert _p_window_walls(f, walls, used) == _long_p_window_walls(fresh, walls, used)
                for t in "LKDB":
                    p = {"room": t, "min": n}
                    assert list(dm._windows(f, p, used)) == _long_windows(fresh, p, used)
                    assert _p_windows(f, p, used) == _long_p_windows(fresh, p, used)
            checked += bool(board.sheet.windows)
    assert checked > 100, checked


def _long_p_windows(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    best = 0
    rooms = [i for i in f.of_type(p["room"]) if dm.room(i) not in used]
    for i in rooms:
        best = max(best, sum(1 for c in f.sheet.windows if c in f.rooms[i].wall_cells()))
    return 0.1 * bool(rooms) + best / p["min"] * 0.8


def _long_p_window_walls(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    best = 0
    for i in [i for i in range(len(f.rooms)) if dm.room(i) not in used]:
        r = f.rooms[i]
        best = max(best, len({s for c in f.sheet.windows if c in r.wall_cells() for s in r.walls_of(c)}))
    return best / p["min"]


def test_courtyards_found_by_one_flood_from_the_edge_are_the_regions_off_the_edge() -> None:
    """The outside regions that do not touch the sheet's edge, in scan order of their first cell: the same list
    as going through every outside region; and a sheet's rooms by cell are its own map."""
    pick = random.Random("yards")
    checked = 0
    for _, board in _candidate_boards(("yard-a", "yard-b")):
        f = dm.Facts(board.sheet)
        rooms = board.sheet.room_mask
        long = [frozenset(cells_of(m)) for m in mask_components(FULL & ~rooms) if not m & BORDER_MASK]
        assert f.courtyards == long
        assert f.owner == {c: i for i, r in enumerate(board.sheet.rooms) for c in r.cells()}
        checked += bool(long)
    for _ in range(300):  # random blocks of "rooms" as masks: many enclosed regions
        rooms = pick.getrandbits(221) & FULL & pick.getrandbits(221)
        open_ = FULL & ~rooms
        long = [frozenset(cells_of(m)) for m in mask_components(open_) if not m & BORDER_MASK]
        view = _MaskSheet(rooms)
        assert dm.Facts(view).courtyards == long
        checked += bool(long)
    assert checked > 150, checked


class _MaskSheet:
    """A sheet-like view with one-cell rooms on ``mask`` (Facts reads its rooms through `owner`)."""

    def __init__(self, mask: int) -> None:
        self.rooms = tuple(Room("K", x, y, 1, 1, (x, y)) for x, y in cells_of(mask))
