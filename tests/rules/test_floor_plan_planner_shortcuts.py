"""The Floor Plan planner's shortcuts (issue 25: a bot decision ≤ 10 ms) answer what the long way answers.

The planner reads the sheet thousands of times a decision; these shortcuts must not change a single choice:
rooms side by side found from their rectangles (the rulebook's rooms are rectangles that never overlap), the
rooms lining a spot read on a padded grid, the Wild's rooms searched only where they can beat the roll's best by
the margin the planner asks, a cheap bound that never undercuts a spot's score, and a demand's count of
witnesses shared by candidate sheets that differ only where the demand does not look, and counted only up to
the three the planner uses. Checked on the sheets of
seeded bot games; tests/rules/test_floor_plan_bot_same_play.py pins a whole game move for move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from rules.base import RulesError
from rules.floor_plan import FloorPlan
from rules.floor_plan import demands as dm
from rules.floor_plan.notation import RoomDraw, Step
from rules.floor_plan.planner.context import _Ctx
from rules.floor_plan.planner.features import (
    _RING_SPOTS,
    _best_doors,
    _cell_scores,
    _cell_sets,
    _deck_sets,
    _door_score,
    _door_scores_kept,
    _feature_cands,
    _furn_score,
    _nearest,
    _ring_spots_open,
    _score_reads,
    _window_score,
    _with_two_doors,
)
from rules.floor_plan.planner.rooms import (
    _free_rects,
    _free_spots,
    _kind_terms,
    _label,
    _may_pass,
    _prescore_bound,
    _room_cands,
    _room_options,
    _room_prescore,
    _touching,
)
from rules.floor_plan.planner.search import _context
from rules.floor_plan.planner.value import (
    BARE_FACTS,
    DOOR_FACTS,
    FACT_PARTS,
    READS,
    ROOM_BLIND,
    ROOM_BLIND_BY_DOORS,
    _adjacent_pairs,
    _adopt_base,
    _assign,
    _count_stock,
    _grown,
    _p_connected,
    _packed,
    _progress,
    _progress_of,
    _rooms_read,
    _stock,
    _used,
)
from rules.floor_plan.sheet import (
    NEIGHBOURS,
    ROOM_TYPES,
    Cell,
    Room,
    Sheet,
    add_features,
    add_room,
    cells_of,
    free_cells,
    mask_of,
    scan_key,
)

FP = FloorPlan()


def _states(seed: str, players: int = 1) -> list[object]:
    s, out = FP.new(players, {}, seed), []
    while FP.outcome(s) is None and len(out) < 40:
        out.append(s)
        actions = [FP.bot_action(s, seat) for seat in sorted(FP.to_move(s))]
        for seat, action in zip(sorted(FP.to_move(s)), actions, strict=True):
            s, _ = FP.apply(s, seat, action)
    return out


def _rolled_contexts(states: list[Any], *, setup: bool = True) -> Iterator[_Ctx]:
    """Seat 0's planner context for each state with a roll (``setup=False``: past the setup's rolls)."""
    for s in states:
        if s.roll is not None and (setup or s.phase != "setup"):
            yield _context(FP, s, 0)


def _cell_pairs(f: dm.Facts) -> set[tuple[int, int]]:
    """The long way: every room cell's neighbours that belong to another room."""
    return {(r, f.owner[n]) for c, r in f.owner.items() for n in NEIGHBOURS[c] if f.owner.get(n, r) != r}


def _cell_touching(sheet: Sheet, x: int, y: int, w: int, h: int) -> dict[int, int]:
    """The long way: the rooms of the cells lining the rectangle, in the order met (top, bottom, left, right)."""
    out: dict[int, int] = {}
    cells = [c for cx in range(x, x + w) for c in ((cx, y - 1), (cx, y + h))]
    cells += [c for cy in range(y, y + h) for c in ((x - 1, cy), (x + w, cy))]
    for c in cells:
        if (r := sheet.room_of.get(c)) is not None:
            out[r] = out.get(r, 0) + 1
    return out


def test_rooms_side_by_side_are_the_rooms_whose_cells_touch() -> None:
    for s in _states("shortcut-a") + _states("shortcut-b", 3)[::3]:
        for board in s.boards:
            f = dm.Facts(board.sheet)
            assert _adjacent_pairs(f) == _cell_pairs(f)


def test_a_spots_lining_rooms_are_read_in_the_order_met() -> None:
    for s in _states("shortcut-a")[::2]:
        sheet = s.boards[0].sheet
        blocked = set(sheet.room_of) | set(sheet.features) | set(sheet.water)
        for w, h in ((1, 1), (2, 5), (6, 3)):
            for x, y in _free_rects(blocked, w, h):
                assert list(_touching(sheet, x, y, w, h).items()) == list(_cell_touching(sheet, x, y, w, h).items())


def test_free_spots_on_bit_masks_are_the_free_rectangles_in_scan_order() -> None:
    """A room's free spots are read off bit masks (a run of free cells across, then down): the same spots in the
    same order as the prefix sums over the set of blocked cells, for every shape on sheets of seeded games."""
    checked = 0
    for s in _states("shortcut-a")[::3] + _states("shortcut-b", 3)[::5]:
        for board in s.boards:
            sheet = board.sheet
            blocked = set(sheet.room_of) | set(sheet.features) | set(sheet.water)
            for w in range(1, 7):
                for h in range(1, 7):
                    assert _free_spots(sheet, w, h) == list(_free_rects(blocked, w, h)), (w, h)
                    checked += 1
    assert checked > 500


def _long_options(ctx: _Ctx, sheet: Sheet, dice: tuple[int, int], top: int) -> list[tuple[float, RoomDraw]]:
    """The long way: every free spot and type scored by `_room_prescore`, sorted, the best labelled."""
    a, b = dice
    blocked = set(sheet.room_of) | set(sheet.features) | set(sheet.water)
    out = [(-_room_prescore(ctx, sheet, t, x, y, w, h), y, x, w, h, t)
           for w, h in sorted({(a, b), (b, a)}) for x, y in _free_rects(blocked, w, h)
           for t in sorted({ROOM_TYPES[a - 1], ROOM_TYPES[b - 1]})]
    return [(-neg, RoomDraw(x, y, w, h, t, _label(sheet, x, y, w, h))) for neg, y, x, w, h, t in sorted(out)[:top]]


def test_the_inline_room_scores_are_the_cheap_scores_bit_for_bit() -> None:
    """The room scan works out `_room_prescore` inline (the spot's terms once, then each type's): the same
    floats, so the same best spots in the same order, as scoring every spot the long way."""
    checked = 0
    for ctx, sheet, dice in _rolled(_states("shortcut-c")[1::2] + _states("shortcut-e")[2::3]):
        assert _room_options(ctx, sheet, dice, 60) == _long_options(ctx, sheet, dice, 60)
        assert _room_options(ctx, sheet, dice, 1) == _long_options(ctx, sheet, dice, 1)  # sought above bars first
        checked += 1
    assert checked > 30


def _rolled(states: list[Any]) -> Iterator[tuple[_Ctx, Sheet, tuple[int, int]]]:
    """(context, seat 0's sheet, dice) for each rolled state and each of a few dice besides its roll."""
    for ctx in _rolled_contexts(states, setup=False):
        for dice in ((1, 6), (2, 2), (3, 4), (6, 5), ctx.s.roll):
            yield ctx, ctx.board.sheet, dice


def test_a_spot_the_wilds_bound_leaves_out_scores_at_most_the_bar() -> None:
    """The Wild's room scan reads only the spots whose score may pass the bar (a bound from the rooms each spot
    may line, by type): every spot it leaves out scores at most the bar, for each room type it weighs."""
    skipped = 0
    for ctx, sheet, (a, b) in _rolled(_states("shortcut-c")[1::2] + _states("shortcut-f")[3::3]):
        for w, h in {(a, b), (b, a)}:
            kinds = [_kind_terms(ctx, sheet, t, w, h) for t in sorted({ROOM_TYPES[a - 1], ROOM_TYPES[b - 1]})]
            free = _free_spots(sheet, w, h)
            best = max((_room_prescore(ctx, sheet, t, x, y, w, h) for x, y in free for t, *_ in kinds),
                       default=0.0)
            for bar in (best - 3.0, best - 1.0, best - 0.3, best, best + 1.0):
                keep = set(cells_of(_may_pass(ctx, sheet, kinds, w, h, bar)))
                for x, y in free:
                    if (x, y) not in keep:
                        skipped += 1
                        assert all(_room_prescore(ctx, sheet, t, x, y, w, h) <= bar for t, *_ in kinds)
    assert skipped > 1000


def test_the_wilds_rooms_are_those_that_beat_the_rolls_best_by_the_margin() -> None:
    """A room the Wild would draw is kept only when its score passes the bar: searching only above the bar gives
    exactly the bar-passing head of the full search, and no spot scores above its type and shape's bound."""
    for ctx in _rolled_contexts(_states("shortcut-c")[1::2], setup=False):
        sheet = ctx.board.sheet
        for dice in ((1, 6), (3, 4), (5, 5), ctx.s.roll):
            full = _room_options(ctx, sheet, dice, 6)
            scores = [sc for sc, _ in full]
            assert all(a >= b for a, b in pairwise(scores))
            for bar in (scores[len(scores) // 2] if scores else 0.0, scores[0] - 0.5 if scores else 0.0, -99.0):
                assert _room_options(ctx, sheet, dice, 6, bar) == [o for o in full if o[0] > bar]
            a, b = dice
            blocked = set(sheet.room_of) | set(sheet.features) | set(sheet.water)
            for w, h in {(a, b), (b, a)}:
                for t in {ROOM_TYPES[a - 1], ROOM_TYPES[b - 1]}:
                    bound = _prescore_bound(ctx, sheet, t, w, h)
                    for x, y in _free_rects(blocked, w, h):
                        assert _room_prescore(ctx, sheet, t, x, y, w, h) < bound


def test_a_demands_stock_is_shared_only_by_sheets_equal_in_what_it_reads() -> None:
    """One planner call counts each demand's disjoint witnesses (and its progress) on every candidate sheet; a
    candidate that changes only parts the demand never reads (windows for a room count, doors for windows) reuses
    them: each shared answer equals the answer made afresh on that sheet."""
    shared: dict[object, object] = {}
    checked = 0
    for ctx in _rolled_contexts(_states("shortcut-d")[2::2]):
        s, sheets = ctx.s, [ctx.board.sheet]
        for cand in _feature_cands(ctx) + _room_cands(ctx)[:3]:
            try:
                sheets.append(FP.run_steps(s, 0, cand.steps)[0].sheet)
            except RulesError:
                continue
        used = ctx.board.used_by_demand()
        for sheet in sheets:
            for d in ctx.demands:
                u = used.get(d.id, frozenset())
                assert _stock(dm.Facts(sheet), d, u, shared) == _count_stock(dm.Facts(sheet), d, u), d.id
                assert _progress(dm.Facts(sheet), d, u, shared) == _progress_of(dm.Facts(sheet), d, u), d.id
                checked += 1
    assert checked > 200


def test_a_capped_packing_counts_what_the_full_packing_counts_up_to_the_cap() -> None:
    """A demand scores once per witness, witnesses disjoint; the planner counts at most three: the search that
    stops at three gives min(3, the full branch and bound's size) for any family, budget and cap."""
    pick = random.Random("packing")
    tokens = [f"t{i}" for i in range(14)]
    for _ in range(400):
        family = [frozenset(pick.sample(tokens, pick.randint(1, 4))) for _ in range(pick.randint(0, 24))]
        budget, cap = pick.choice((3, 20, 300)), pick.randint(1, 5)
        assert _packed(family, cap, budget) == min(cap, len(dm.packing(family, budget=budget)))


def _adopted_candidates(states: list[Any]) -> Iterator[tuple[_Ctx, dm.Facts]]:
    """(context, Facts of a room or feature candidate's sheet with the seat's sheet's facts adopted) for each rolled
    state's candidates that the rules accept."""
    for ctx in _rolled_contexts(states):
        for cand in [*_room_cands(ctx), *_feature_cands(ctx)]:
            try:
                sheet = FP.run_steps(ctx.s, 0, cand.steps)[0].sheet
            except RulesError:
                continue
            f = dm.Facts(sheet)
            _adopt_base(f, ctx.board.sheet)
            yield ctx, f


def test_a_bare_room_leaves_the_demands_on_features_as_they_were() -> None:
    """A room candidate draws one room (two with Double a Room) and nothing else; a room is never drawn on a
    feature or on water, so the demands on windows, furnishings, decks and pools, and those through doors while
    no door lies beside the new room, keep their witnesses: the planner reuses the seat's sheet's answer (and
    its decks, trees, furnishing groups and door links); a feature candidate takes the seat's sheet's facts
    derived from the parts it keeps. Each reused answer (stock and progress, and each adopted fact) equals the
    answer made afresh on the candidate's sheet."""
    reused: dict[str, int] = {}
    adopted: dict[str, int] = {}
    for seed in ("shortcut-e", "shortcut-f", "shortcut-g", "shortcut-h"):
        shared: dict[object, object] = {}
        for ctx, f in _adopted_candidates(_states(seed)[1::2]):
            sheet, base, used = f.sheet, ctx.board.sheet, ctx.board.used_by_demand()
            for name in {*BARE_FACTS, *DOOR_FACTS, *FACT_PARTS}:
                if name in f.__dict__:
                    adopted[name] = adopted.get(name, 0) + 1
                    assert getattr(f, name) == getattr(dm.Facts(sheet), name), name
            if "adjacent_pairs" in f.memo:
                adopted["adjacent_pairs"] = adopted.get("adjacent_pairs", 0) + 1
                assert f.memo["adjacent_pairs"] == _adjacent_pairs(dm.Facts(sheet))
            for d in ctx.demands:
                u = used.get(d.id, frozenset())
                if _rooms_read(f, d, base, ROOM_BLIND | ROOM_BLIND_BY_DOORS) is not sheet.rooms:
                    reused[d.op] = reused.get(d.op, 0) + 1
                assert _stock(f, d, u, shared, base) == _count_stock(dm.Facts(sheet), d, u), d.id
                assert _progress(f, d, u, shared, base) == _progress_of(dm.Facts(sheet), d, u), d.id
    assert sum(reused.values()) > 100 and len(reused) >= 4, reused
    assert len(adopted) == len({*BARE_FACTS, *DOOR_FACTS, *FACT_PARTS}) + 1 and min(adopted.values()) > 20, adopted


def test_a_sheet_with_a_door_beside_a_new_room_is_not_bare_for_demands_through_doors() -> None:
    """A door on a wall next to where a room is drawn joins the two rooms ("a door connects two rooms"): the
    demands through doors are counted afresh on that sheet, the others still reused."""
    base = Sheet.empty()
    base = add_room(base, Room("L", 2, 2, 3, 3, (3, 3)))
    base = add_features(base, "door", [(4, 3)])
    beside = add_room(base, Room("K", 5, 2, 2, 2, (5, 2)))
    apart = add_room(base, Room("K", 10, 8, 2, 2, (10, 8)))
    assert _grown(beside, base) == "bare"
    assert _grown(apart, base) == "bare, no door beside"
    assert _grown(add_features(apart, "window", [(11, 8)]), base) == ""
    assert _grown(base, base) == ""


def test_a_kinds_cell_scores_are_shared_only_by_sheets_equal_in_what_the_demands_make_them_read() -> None:
    """Door, window and furnishing cells are scored once per call for the sheets that agree on the parts the
    score reads with the call's demands and door bonus (no doors without a "rooms with doors" bonus, no outside
    features nobody looks for), and a room candidate's sheet keeps the seat's sheet's door scores away from its
    new room: each shared or kept score equals the score made afresh on that sheet."""
    reads: set[tuple[str, tuple[str, ...]]] = set()
    checked = kept = 0
    for seed in ("shortcut-i", "shortcut-j", "shortcut-k", "shortcut-door-5", "shortcut-door-19", "shortcut-n"):
        for s in _states(seed)[1::3]:
            if s.roll is None:
                continue
            ctx = _context(FP, s, 0)
            cands = [*_room_cands(ctx), *_feature_cands(ctx)]
            cands += _with_two_doors(ctx, cands)
            sheets = [ctx.board.sheet]
            for cand in cands:
                try:
                    sheets.append(FP.run_steps(s, 0, cand.steps)[0].sheet)
                except RulesError:
                    continue
            for kind in ("door", "window", "furnishing"):
                reads.add((kind, _score_reads(ctx, kind)))
                for sheet in sheets:
                    free = free_cells(sheet, kind)
                    score = {"door": _door_score, "window": _window_score, "furnishing": _furn_score}[kind]
                    fresh = {c: score(_context(FP, s, 0), sheet, c) for c in free}
                    shared = _cell_scores(ctx, sheet, kind, free)
                    assert {c: shared[c] for c in free} == fresh, kind
                    kept += len(_door_scores_kept(ctx, sheet)) if kind == "door" and sheet is not sheets[0] else 0
                    checked += len(free)
    assert checked > 5000 and kept > 1000, (checked, kept)
    assert len({r for k, r in reads if k == "door"}) >= 3 and len({r for k, r in reads if k == "window"}) >= 2, reads


def test_the_two_doors_retry_draws_on_the_board_its_candidate_left_what_the_steps_draw() -> None:
    """The Two Doors retry of the best few candidates draws its doors on the board each candidate's scoring left
    (the steps run once), choosing the first of the door sets: the same board as running all the steps afresh."""
    checked = 0
    for seed in ("shortcut-o", "shortcut-p", "shortcut-q", "shortcut-r", "shortcut-s"):
        for s in _states(seed)[2:]:
            if s.roll is None:
                continue
            ctx = _context(FP, s, 0)
            if ctx.board.open_bonus("two_doors") is None:
                continue
            cands = [*_room_cands(ctx), *_feature_cands(ctx)][:6]
            for cand in cands[::2]:
                cand.after = FP.run_steps(s, 0, cand.steps)[0]  # as scored; the others run their steps here
            for cand in _with_two_doors(ctx, cands):
                assert cand.after == FP.run_steps(s, 0, cand.steps)[0]
                base = FP.run_steps(s, 0, cand.steps[:-1])[0].sheet
                assert list(cand.steps[-1].cells) == sorted(next(_cell_sets(ctx, base, "door", 2)), key=scan_key)
                assert _best_doors(ctx, base) == next(_cell_sets(ctx, base, "door", 2))
                checked += 1
    assert checked > 20


def _long_nearest(within: set[Cell], need: list[Cell], k: int) -> list[Cell]:
    """The long way: sorted by the least Manhattan distance to a needed cell, then scan order."""
    return sorted(within, key=lambda c: (min(abs(c[0] - n[0]) + abs(c[1] - n[1]) for n in need) if need else 0,
                                         scan_key(c)))[:k]


def test_spare_stones_are_the_free_cells_nearest_the_ring_in_scan_order() -> None:
    pick = random.Random("nearest")
    cells = [(x, y) for y in range(13) for x in range(17)]
    for _ in range(300):
        within = set(pick.sample(cells, pick.randint(0, 120)))
        need = sorted(pick.sample(sorted(set(cells) - within), pick.randint(0, 8)), key=scan_key)
        k = pick.randint(1, 12)
        assert _nearest(mask_of(within), mask_of(need), k) == _long_nearest(within, need, k)


def test_the_tokens_used_per_demand_are_shared_by_boards_with_the_same_claims() -> None:
    """The claims, the end test and the evaluation of every candidate ask which tokens each demand has used:
    worked out once per claims tuple in a call, the same as the board's own answer after claims or none."""
    checked = 0
    for s in _states("shortcut-t")[8:]:
        if s.roll is None:
            continue
        ctx = _context(FP, s, 0)
        board = ctx.board
        for d in ctx.demands * 2:
            assert _used(ctx, board) == board.used_by_demand()
            try:
                board = FP._claim(s, board, Step("claim", demand=d.id))
            except RulesError:
                continue
            checked += 1
    assert checked > 5


def test_door_scores_kept_on_a_room_candidate_hold_for_lines_of_sight_too() -> None:
    """Under a "door in line with a tree" bonus a door's score reads the cells in line beyond it, which a new
    room may block: the kept scores still equal those made afresh, for many room spots of each roll."""
    checked = 0
    for seed in ("shortcut-door-5", "shortcut-door-19", "shortcut-door-20"):
        for s in _states(seed)[2::2]:
            if s.roll is None:
                continue
            ctx = _context(FP, s, 0)
            assert ctx.layout.door_bonus is not None and ctx.layout.door_bonus.op == "door_line"
            for _, rd in _room_options(ctx, ctx.board.sheet, s.roll, 40):
                sheet = add_room(ctx.board.sheet, Room(rd.type, rd.x, rd.y, rd.w, rd.h, rd.label))
                free = free_cells(sheet, "door")
                fresh = {c: _door_score(_context(FP, s, 0), sheet, c) for c in free}
                assert {c: v for c, v in _cell_scores(ctx, sheet, "door", free).items() if c in fresh} == fresh
                checked += 1
    assert checked > 100


def test_a_claims_witnesses_are_shared_only_by_sheets_equal_in_what_the_demand_reads() -> None:
    """A claim's witnesses (`dm.assign`: a fresh one beside the earlier claims', else all chosen again) are found
    once per call for the candidate sheets that agree on what the demand reads (a bare room included where it
    cannot be seen): each shared answer equals the engine's answer made afresh on that sheet."""
    shared = again = 0
    for seed in ("shortcut-u", "shortcut-v", "shortcut-w"):
        for ctx, f in _adopted_candidates(_states(seed)[6:]):
            sheet = f.sheet
            earlier = {d.id: [c.tokens for c in ctx.board.claims if c.demand == d.id] for d in ctx.demands}
            for d in ctx.demands:
                before = len(ctx.stocks)
                got = _assign(ctx, f, d, earlier[d.id])
                shared += len(ctx.stocks) == before and d.op in READS
                again += bool(earlier[d.id])
                assert got == dm.assign(d, dm.Facts(sheet), earlier[d.id]), d.id
    assert shared > 100 and again > 100, (shared, again)


def _long_deck_sets(sheet: Sheet, count: int) -> list[list[Cell]]:
    """The long way: every attached cell scored by looking around it cell by cell, every seed grown."""
    free = set(free_cells(sheet, "deck"))

    def score(c: Cell) -> float:
        rooms = {sheet.room_of[n] for n in NEIGHBOURS[c] if n in sheet.room_of}
        value = 0.3 * len(rooms)
        value += 1.0 * any((c[0] + dx, c[1] + dy) in sheet.water for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        value += 0.5 * any(sheet.rooms[r].type == "L" for r in rooms)
        value -= 0.05 * sum(1 for n in NEIGHBOURS[c] if n in free)
        return value

    sections = sorted(dm.Facts(sheet).decks, key=len, reverse=True)
    seeds: list[set[Cell]] = [set(sections[0])] if sections else []
    attached = sorted((c for c in free if any(n in sheet.room_of for n in NEIGHBOURS[c])),
                      key=lambda c: (-score(c), scan_key(c)))
    seeds += [{c} for c in attached[:3]]
    out = []
    for seed in seeds:
        group, new = set(seed), [] if seed & set(sheet.decks) else list(seed)
        while len(new) < count:
            best = min((n for c in group for n in NEIGHBOURS[c] if n in free and n not in group),
                       key=lambda c: (-score(c), scan_key(c)), default=None)
            if best is None:
                break
            group.add(best)
            new.append(best)
        if len(new) == count:
            out.append(new)
    return out


def test_deck_sets_scored_on_masks_and_made_lazily_are_the_deck_sets_of_the_long_way() -> None:
    """A deck cell's score reads water around it and living rooms beside it off masks, and the sets are made
    one at a time as asked: all of them are the sets of the long way, in its order."""
    checked = 0
    for seed in ("shortcut-x", "shortcut-y", "shortcut-door-5"):
        for s in _states(seed)[1:]:
            ctx = _context(FP, s, 0)
            for count in (5, 10):
                assert list(_deck_sets(ctx, ctx.board.sheet, "deck", count)) == _long_deck_sets(ctx.board.sheet, count)
                checked += 1
    assert checked > 40


def _long_p_connected(f: dm.Facts, p: dict[str, object], used: frozenset[str]) -> float:
    """The long way: every pair side by side looked at, rooms named by their tokens."""
    same, best = "a" not in p, 0.0
    for r, o in _adjacent_pairs(f):
        if dm.room(r) in used or dm.room(o) in used:
            continue
        ta, tb = f.rooms[r].type, f.rooms[o].type
        if (same and ta == tb) or (not same and (ta, tb) == (p["a"], p["b"])):
            best = 0.7
    if best:
        return best
    free = [i for i in range(len(f.rooms)) if dm.room(i) not in used]
    if same:
        types = [f.rooms[i].type for i in free]
        return 0.3 if len(types) != len(set(types)) else 0.1
    have = {f.rooms[i].type for i in free}
    return 0.15 * (p["a"] in have) + 0.15 * (p["b"] in have)


def test_progress_toward_rooms_joined_stops_at_the_first_pair_side_by_side() -> None:
    pick = random.Random("connected")
    checked = 0
    for s in _states("shortcut-z")[1:]:
        f = dm.Facts(s.boards[0].sheet)
        for p in ({}, {"a": "K", "b": "D"}, {"a": "L", "b": "K"}, {"a": "B", "b": "W"}):
            for _ in range(4):
                used = frozenset(dm.room(i) for i in range(len(f.rooms)) if pick.random() < 0.3)
                assert _p_connected(f, p, used) == _long_p_connected(f, p, used)
                checked += 1
    assert checked > 100


def test_pool_rings_found_on_masks_are_the_ring_spots_the_long_scan_keeps() -> None:
    """A stone set's candidate pools: the spots of every pool shape whose inner cells are free and whose ring is
    free or stones, found per shape on masks, are those the scan of every spot keeps (order aside)."""
    pick = random.Random("rings")
    cells = [(x, y) for y in range(13) for x in range(17)]
    for _ in range(200):
        free = mask_of(pick.sample(cells, pick.randint(60, 221)))
        open_ = free | mask_of(pick.sample(cells, pick.randint(0, 40)))
        long = [(w, h, ring) for w, h, inner, ring in _RING_SPOTS if not inner & ~free and not ring & ~open_]
        assert sorted(_ring_spots_open(free, open_)) == sorted(long)
