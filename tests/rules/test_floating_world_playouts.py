"""Seeded bot playouts for 1–4 players with invariants after every action; replay and JSON round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from rules.floating_world import nightmare as nm
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import GATE, State, neighbours

G = FloatingWorld()
TURN_LIMIT = 600  # player turns; the 1,000-game balance runs end by turn ~300 (docs/floating_world.md)


def check_invariants(s: State) -> None:
    lands = s.land_map()
    for t in ("oni", "tengu", "gaki"):
        assert sum(1 for d in s.demons if d.type == t) <= 4
    for c, land in lands.items():
        if land.village is not None:
            assert all(n not in lands or lands[n].village is None for n in neighbours(c)), c
    for k in s.kitsune:
        assert k.praise >= 0 and k.wounds >= 0
        for x in (k.body, k.mind, k.spirit):
            assert x.dice >= 1 and 0 <= x.pips < 3
        assert (k.pos is not None) == k.on_map
    assert all(d.at in lands for d in s.demons)
    if s.phase != "over":
        reach = nm.distances(lands, [GATE])
        assert set(reach) == set(lands)  # every Land connected to the Gate after each Nightmare


def playout(players: int, seed: str, options: dict | None = None, limit: int = 12_000) -> tuple[State, list]:
    s = G.new(players, options or {}, seed)
    log = []
    while s.phase != "over" and len(log) < limit:
        seat = next(iter(G.to_move(s)))
        action = G.bot_action(s, seat)
        s, _ = G.apply(s, seat, action)
        log.append((seat, action))
        check_invariants(s)
        assert s.turn <= TURN_LIMIT, f"{seed}: no end by turn {TURN_LIMIT} (a stall?)"
    return s, log


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_bots_play_to_a_win_or_a_loss(players: int, seed: str) -> None:
    s, _ = playout(players, f"{seed}{players}")
    assert s.phase == "over" and G.outcome(s) is not None and s.turn <= TURN_LIMIT


@pytest.mark.parametrize("options", [{"vengeful": "on"}, {"boost": "on", "quick_start": "on"},
                                     {"difficulty": "hard", "extra_wounds": 2, "scoring": "on", "final_fox": "on"}])
def test_variants_play_out(options: dict) -> None:
    for seed in ("v1", "v2"):
        s, _ = playout(3, seed, options)
        assert s.phase == "over" and s.turn <= TURN_LIMIT


def test_replay_from_seed_and_actions_and_json_round_trip() -> None:
    s, log = playout(2, "replay")
    r = G.new(2, {}, "replay")
    for i, (seat, action) in enumerate(log):
        r, _ = G.apply(r, seat, action)
        if i % 7 == 0:
            d = json.loads(json.dumps(G.to_json(r)))
            assert G.from_json(d) == r
            json.dumps(G.view(r, seat))
    assert r == s


def test_legal_actions_are_all_accepted() -> None:
    s = G.new(2, {"boost": "on"}, "legal")
    for _ in range(40):
        if s.phase != "dream":
            break
        seat = s.current
        legal = G.legal_actions(s, seat)
        assert (legal and "end" in legal) or s.harvest is not None or s.pending is not None
        assert G.bot_action(s, seat) in legal or G.bot_action(s, seat).startswith("haunt")
        s, _ = G.apply(s, seat, G.bot_action(s, seat))


def test_damaged_json_is_refused() -> None:
    from rules.base import StateError

    d = G.to_json(G.new(1, {}, "d"))
    d["lands"] = [[0, 0, "gate", 7]]
    with pytest.raises(StateError):
        G.from_json(d)


@settings(max_examples=15, deadline=None)
@given(hs.integers(0, 10_000), hs.integers(1, 4))
def test_property_any_seed_keeps_the_invariants(seed: int, players: int) -> None:
    s, _ = playout(players, str(seed), limit=300)
    check_invariants(s)


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_solo_games_end_within_the_turn_limit(difficulty: str) -> None:
    for i in range(8):
        s, _ = playout(1, f"limit-{difficulty}-{i}", {"difficulty": difficulty})
        assert s.phase == "over" and s.turn <= TURN_LIMIT
