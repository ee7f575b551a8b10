"""Random placements: whatever the placement rules accept keeps the sheet consistent; catalogs hold every key."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.base import IllegalActionError
from rules.floor_plan.geometry import decks, pools, touching_rooms
from rules.floor_plan.sheet import (
    BORDER,
    FEATURE_KINDS,
    HEIGHT,
    ROOM_NAMES,
    ROOM_TYPES,
    WIDTH,
    Room,
    Sheet,
    add_features,
    add_room,
    features_fit_somewhere,
    room_fits_somewhere,
    start_room,
)

ROOT = Path(__file__).resolve().parents[2]

cell = st.tuples(st.integers(0, WIDTH - 1), st.integers(0, HEIGHT - 1))
room_action = st.tuples(st.just("room"), st.sampled_from(ROOM_TYPES), cell, st.integers(1, 6), st.integers(1, 6),
                        st.integers(0, 35))
feature_action = st.tuples(st.just("features"), st.sampled_from(FEATURE_KINDS), st.lists(cell, min_size=1, max_size=3))
diamond_action = st.tuples(st.just("diamond"), cell)  # four stones around a cell: a likely pool
actions = st.lists(st.one_of(room_action, feature_action, diamond_action), min_size=1, max_size=40)


def play(start: tuple[int, int], steps) -> tuple[Sheet, int]:
    s = start_room(Sheet.empty(), start[0], 6 - start[1], 6, 3) if start[1] < 3 else Sheet.empty()
    accepted = 0
    for step in steps:
        water = s.water
        try:
            if step[0] == "room":
                _, kind, (x, y), w, h, k = step
                s = add_room(s, Room(kind, x, y, w, h, (x + k % w, y + k // w % h)))
            elif step[0] == "diamond":
                (x, y) = step[1]
                s = add_features(s, "stone", [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)])
            else:
                s = add_features(s, step[1], step[2])
            accepted += 1
        except IllegalActionError:
            pass
        assert water <= s.water, "a pool shrank"
    return s, accepted


def check(s: Sheet) -> None:
    owner: dict = {}
    for i, room in enumerate(s.rooms):
        for c in room.cells():
            assert c not in owner, "rooms overlap"
            owner[c] = i
        assert room.label in room.cells()
    outside = set(s.decks) | set(s.stones) | set(s.tree_of)
    assert not outside & owner.keys()
    assert (s.doors | s.windows) <= s.walls
    assert s.furnishings <= owner.keys()
    assert not s.labels & s.features.keys()
    assert sum(map(len, (s.doors, s.windows, s.furnishings, s.decks, s.stones))) + 9 * len(s.trees) == len(s.features)
    assert all(touching_rooms(s, d) for d in decks(s))
    for pool in pools(s):
        assert not pool & (owner.keys() | s.features.keys() | set(BORDER))
    assert Sheet.from_json(json.loads(json.dumps(s.to_json()))) == s


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.tuples(st.integers(3, 8), st.integers(0, 4)), actions)
def test_accepted_placements_keep_the_sheet_consistent(start: tuple[int, int], steps) -> None:
    s, _ = play(start, steps)
    check(s)


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.integers(3, 8), st.integers(0, 4)), actions, st.integers(1, 6), st.integers(1, 6))
def test_a_room_fits_somewhere_exactly_when_some_position_is_accepted(start, steps, w: int, h: int) -> None:
    s, _ = play(start, steps)
    accepted = False
    for rw, rh in ((w, h), (h, w)):
        for y in range(HEIGHT - rh + 1):
            for x in range(WIDTH - rw + 1):
                try:
                    add_room(s, Room("K", x, y, rw, rh, (x, y)))
                    accepted = True
                except IllegalActionError:
                    pass
    assert room_fits_somewhere(s, w, h) == accepted


@settings(max_examples=40, deadline=None)
@given(st.tuples(st.integers(3, 8), st.integers(0, 4)), actions, st.sampled_from(("door", "furnishing", "stone")))
def test_single_features_fit_somewhere_exactly_when_some_cell_is_accepted(start, steps, kind: str) -> None:
    s, _ = play(start, steps)
    ok = 0
    for y in range(HEIGHT):
        for x in range(WIDTH):
            try:
                add_features(s, kind, [(x, y)])
                ok += 1
            except IllegalActionError:
                pass
    assert features_fit_somewhere(s, kind, ok)
    assert not features_fit_somewhere(s, kind, ok + 1)


def test_every_sheet_message_key_is_in_both_catalogs() -> None:
    code = (ROOT / "rules" / "floor_plan" / "sheet.py").read_text(encoding="utf-8")
    used = set(re.findall(r"""["'](fp\.sheet\.[a-z_.]+)["']""", code))
    used |= {f"fp.sheet.room.{n}" for n in ROOM_NAMES.values()} | {f"fp.sheet.feature.{k}" for k in FEATURE_KINDS}
    used.discard("fp.sheet.room.")
    assert len(used) > 30
    for locale in ("en", "pl"):
        catalog = json.loads((ROOT / "data" / "i18n" / locale / "floor_plan_sheet.json").read_text(encoding="utf-8"))
        assert sorted(used - set(catalog)) == [], locale
        assert all(k.startswith("fp.sheet.") for k in catalog)


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.integers(3, 8), st.integers(0, 4)), actions, st.lists(cell, min_size=1, max_size=6, unique=True),
       st.randoms(use_true_random=False))
def test_a_set_of_decks_is_accepted_or_refused_whatever_its_order(start, steps, cells, rnd) -> None:
    s, _ = play(start, steps)
    shuffled = list(cells)
    rnd.shuffle(shuffled)
    results = []
    for order in (cells, shuffled):
        try:
            results.append(add_features(s, "deck", order))
        except IllegalActionError:
            results.append(None)
    assert results[0] == results[1]
