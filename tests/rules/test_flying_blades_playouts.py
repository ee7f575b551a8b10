"""Random seeded playouts of every player count, with invariants at every step, plus replay, serialisation
and a hypothesis property test."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.base import RulesError
from rules.flying_blades import State
from rules.flying_blades.board import FILES, geometry
from rules.flying_blades.cards import CARD_IDS
from tests.rules.fb_helpers import G, check_invariants, check_view_hides_cards, next_seat_to_act
from tests.rules.fb_helpers import random_action as random_move

GAMES_PER_COUNT = 200
VERBS = ("attack", "vanish", "shuriken", "double", "triple", "bomb", "dragon", "circle")


def max_steps(players: int) -> int:
    """Every action but a pass eliminates a ninja or spends a card; between two of them at most n−1 passes."""
    return (27 * (3 if players <= 3 else players) + 32 + 1) * players


def random_text(s: State, r: random.Random) -> str:
    geo = geometry(s.players)

    def c() -> str:
        return f"{FILES[int(r.random() * geo.width)]}{1 + int(r.random() * 9)}"

    verb = VERBS[int(r.random() * len(VERBS))]
    if verb == "circle":
        return f"circle {c()}"
    if verb == "dragon":
        return f"dragon {c()} from {c()}"
    return f"{verb} {c()} {c()}"


def check_illegal_refused(s: State, seat: int, legal: list[str], r: random.Random) -> None:
    """A few actions that are not in legal_actions must be refused, leaving the state as it was."""
    tries = [random_text(s, r) for _ in range(2)]
    if s.phase == "draft":
        tries.append("keep " + ",".join(CARD_IDS))
    for action in tries:
        if action in legal:
            continue
        with pytest.raises(RulesError):
            G.apply(s, seat, action)
    others = [x for x in range(s.players) if x not in G.to_move(s)]
    if others:
        with pytest.raises(RulesError):
            G.apply(s, others[0], "pass")


def playout(players: int, seed: str, options: dict, deep: bool) -> tuple[State, list[tuple[int, str]]]:
    r = random.Random(seed)
    s = G.new(players, options, seed)
    log: list[tuple[int, str]] = []
    for step in range(max_steps(players)):
        check_invariants(s)
        if s.phase == "over":
            return s, log
        seat = next_seat_to_act(s)
        if deep or step % 10 == 0:
            legal = G.legal_actions(s, seat)
            check_illegal_refused(s, seat, legal, r)
            assert G.from_json(G.to_json(s)) == s
            check_view_hides_cards(s)
        action = "resign" if r.random() < 0.002 else random_move(s, seat, r)
        s, events = G.apply(s, seat, action)
        assert events
        log.append((seat, action))
    raise AssertionError("the game did not end within the step bound")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_the_invariants_and_end(players: int) -> None:
    variants = ({}, {"cards": "open"}, {"cards": "none"})
    for game in range(GAMES_PER_COUNT):
        seed = f"playout-{players}-{game}"
        s, log = playout(players, seed, variants[game % 3], deep=game < 10)
        assert s.phase == "over" and G.outcome(s) is not None
        if game % 25 == 0:
            replayed = G.new(players, variants[game % 3], seed)
            for seat, action in log:
                replayed, _ = G.apply(replayed, seat, action)
            assert replayed == s, "replaying the log from new(seed) reproduces the state"
            assert G.from_position(G.to_position(s)) == s


def test_apply_never_mutates_the_state() -> None:
    s = G.new(3, {}, "immutable")
    snapshot = G.to_json(s)
    for _ in range(30):
        seat = next_seat_to_act(s)
        action = G.legal_actions(s, seat)[0]
        s2, _ = G.apply(s, seat, action)
        assert G.to_json(s) == snapshot
        s, snapshot = s2, G.to_json(s2)


def test_every_listed_action_is_accepted() -> None:
    s = G.new(3, {}, "all-legal")
    r = random.Random(1)
    for _ in range(60):
        if s.phase == "over":
            break
        seat = next_seat_to_act(s)
        for action in G.legal_actions(s, seat):
            G.apply(s, seat, action)
        s, _ = G.apply(s, seat, random_move(s, seat, r))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=5),
    cards=st.sampled_from(["hidden", "open", "none"]),
    seed=st.text(min_size=1, max_size=12),
    choices=st.lists(st.floats(min_value=0, max_value=1, exclude_max=True), max_size=80),
)
def test_property_any_legal_sequence_keeps_state_consistent_and_serialisable(
    players: int, cards: str, seed: str, choices: list[float]
) -> None:
    s = G.new(players, {"cards": cards}, seed)
    for x in choices:
        if s.phase == "over":
            break
        seat = next_seat_to_act(s)
        legal = G.legal_actions(s, seat)
        s, _ = G.apply(s, seat, legal[int(x * len(legal))])
        check_invariants(s)
    assert G.from_json(G.to_json(s)) == s
    assert G.from_position(G.to_position(s)) == s
    check_view_hides_cards(s)
