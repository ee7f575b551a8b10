"""Floating Floors: resetting a collapsed card, by hand or automatically, keeps every state loadable and offers
only the actions `apply` accepts (issue 21).

Before: a floorboard laid during a hand-made reset was counted twice (on the map and still waiting), so the
table could not be loaded after a restart; the automatic reset lost the Jutsu it had no room for; ``reset`` was
listed while the arrangement was half made and then refused.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from rules.base import IllegalActionError, RulesError, StateError
from rules.floating_floors.state import Reset, State, jutsu_total
from tests.rules.ff_helpers import G, apply, fallen, position

SEAT_FALLS = (0, "f03", False, 0)  # card 0 under the plus-shaped board f03 (SLS / LLL / SLS)


def round_trip(s: State) -> State:
    """What a restart does: the state to JSON text and back."""
    again = G.from_json(json.loads(json.dumps(G.to_json(s))))
    assert again == s
    return again


def tipped() -> State:
    """The issue's position: 2 players, card 0 = t10 under f03; ws under b2, wt on the board at b3, the Sun on
    b2. ``move a2`` tips it and seat 1 must reset the card."""
    s = position(boards=(SEAT_FALLS,), pieces=(("ws", "b2", "ground", "c"), ("wt", "b3", "board", "c")),
                 at={0: "b2"})
    s = replace(s, cards=(("t10", "terrain"), *s.cards[1:]))
    s, _ = apply(s, "move a2")
    assert s.phase == "reset" and s.current == 1 and s.reset.board == "f03"
    return s


def test_half_made_manual_reset_round_trips_through_json() -> None:
    s = round_trip(tipped())
    for action in ("place wt b1", "place ws b3", "board b2", "stand 1 b2", "reset"):
        s, _ = apply(s, action)
        s = round_trip(s)
        assert jutsu_total(s) == [10] * 6
    assert s.reset is None and s.boards[0].board == "f03" and s.seats[0].space is not None


def test_a_laid_reset_board_waits_no_more_and_a_doubled_board_is_still_refused() -> None:
    s = tipped()
    for action in ("place wt b1", "place ws b3", "board b2"):
        s, _ = apply(s, action)
    assert s.boards[0].board == "f03" and s.reset.board is None  # on the map, so no longer waiting
    doubled = G.to_json(replace(s, reset=replace(s.reset, board="f03")))
    with pytest.raises(StateError, match="floorboards do not add up"):
        G.from_json(doubled)


def test_timeout_after_laying_the_board_by_hand_gathers_it_once() -> None:
    s = tipped()
    for action in ("place wt b1", "place ws b3", "board b2"):
        s, _ = apply(s, action)
    s, _ = apply(s, "timeout")
    round_trip(s)
    assert s.reset is None and sorted([b.board for b in s.boards] + list(s.deck)).count("f03") == 1


def test_automatic_reset_without_room_puts_the_extra_jutsu_back_in_the_pool() -> None:
    # Challenge 6 (one Jutsu per land space) on a lake side with 4 land spaces: 7 fallen Jutsu cannot all go back
    s = fallen(kinds=("ws",) * 7, card=("t01", "lake"), options={"challenges": "6"})
    round_trip(s)
    s2, _ = apply(s, "reset")
    round_trip(s2)
    assert jutsu_total(s2) == [10] * 6 and sum(1 for p in s2.pieces if p.kind == "ws") <= 4


def test_reset_is_offered_only_when_it_finishes_the_arrangement() -> None:
    s = tipped()
    assert "reset" in G.legal_actions(s, 1)  # nothing placed yet: the automatic arrangement
    for action, ready in (("place wt b1", False), ("place ws b3", False), ("board b2", False),
                          ("stand 1 b2", True)):
        s, _ = apply(s, action)
        assert ("reset" in G.legal_actions(s, 1)) is ready, action
        if not ready:
            with pytest.raises(IllegalActionError):
                apply(s, "reset")


def test_reset_of_a_card_no_jutsu_fell_from_is_offered_and_accepted() -> None:
    s = fallen(kinds=(), ninjas=(0,))
    assert G.legal_actions(s, 1) == ["reset"]
    s2, _ = apply(s, "reset")
    assert s2.reset is None and s2.deck[-1] == "f03" and s2.seats[0].alcove == s2.seats[0].home


def test_a_resigning_players_fallen_ninja_leaves_the_reset() -> None:
    s = fallen(3, kinds=("ws", "ws", "ws"), ninjas=(0, 2))
    s, _ = apply(s, "resign", seat=2)
    assert s.reset.ninjas == (0,) and not any(a.startswith("stand 3") for a in G.legal_actions(s, 1))
    for action in ("place ws b1", "place ws a2", "place ws c2", "board b2", "stand 1 b2"):
        s, _ = apply(s, action)
    s, _ = apply(s, "reset")
    assert s.reset is None and s.seats[2].space is None and s.seats[2].out
    round_trip(s)


# --- every reachable step, at random ------------------------------------------------------------------------

STARTS = (
    tipped,
    lambda: fallen(),
    lambda: fallen(kinds=("bs", "ws", "wt", "wh")),
    lambda: fallen(3, kinds=("ws", "wt", "bh", "bs"), ninjas=(0, 2), board="f06"),
    lambda: fallen(4, kinds=("ws", "bs", "bt", "wh", "wt"), ninjas=(0, 1, 2, 3), board="f11"),
    lambda: fallen(kinds=("ws",) * 6, card=("t01", "lake"), options={"challenges": "6"}),
    lambda: fallen(kinds=("ws", "wt", "bs"), options={"challenges": "5"}),
    lambda: fallen(kinds=("ws", "wt", "wh"), options={"challenges": "5,8"}, seed="shaky"),
    lambda: fallen(kinds=("ws", "ws"), options={"shaky": "all"}, seed="shaky2"),
)


def check_step(s: State) -> None:
    """The state loads back equal; during a reset every listed action is accepted and leads to a loadable
    state (the generic contract test covers the other phases)."""
    round_trip(s)
    if s.phase != "reset":
        return
    legal = G.legal_actions(s, s.current)
    assert legal, "nothing to do in a reset"
    for action in legal:
        try:
            after, _ = G.apply(s, s.current, action)
        except RulesError as e:  # pragma: no cover - the failure message names the action
            pytest.fail(f"{action!r} is offered but refused: {e}")
        round_trip(after)


@settings(max_examples=30, deadline=None)
@given(hs.sampled_from(range(len(STARTS))), hs.data())
def test_every_step_of_a_manual_reset_round_trips_and_offers_only_accepted_actions(start: int,
                                                                                   data: hs.DataObject) -> None:
    s = STARTS[start]()
    for _ in range(25):  # place / board / stand / reset in any legal order, falls and restarts included
        check_step(s)
        if s.phase != "reset":
            break
        action = data.draw(hs.sampled_from(G.legal_actions(s, s.current)))
        s, _ = G.apply(s, s.current, action)
    check_step(s)


@pytest.mark.parametrize("seed", range(6))
def test_random_play_through_collapses_and_resets_stays_loadable(seed: int) -> None:
    """Whole games of random legal moves (random boards fall often), with the odd timeout and resignation: every
    state round-trips, and during a reset every listed action is accepted."""
    r = random.Random(seed)
    players = 2 + seed % 3
    options = ({}, {"shaky": "all"}, {"challenges": "5"}, {"challenges": "3,6"}, {"challenges": "5,8"},
               {"challenges": "1,7"})[seed]
    s = G.new(players, options, f"resets-{seed}")
    resets = 0
    for _ in range(200):
        if s.phase == "over":
            break
        if s.phase == "reset":
            resets += 1
            check_step(s)
        legal = G.legal_actions(s, s.current)
        if s.phase == "navigate" and len(legal) > 1 and r.random() < 0.85:
            legal = [a for a in legal if a != "end"]  # stay on the map: more boards, more falls
        seat, action = s.current, r.choice(legal)
        if r.random() < 0.01:
            action = "timeout"
        elif r.random() < 0.005 and sum(not q.out for q in s.seats) > 2:
            seat, action = r.choice([q.seat for q in s.seats if not q.out]), "resign"
        s, _ = G.apply(s, seat, action)
        round_trip(s)
    assert resets > 0


def test_fallen_helper_keeps_the_box_whole() -> None:
    s = fallen(4, kinds=("ws", "bs"), ninjas=(0, 1))
    assert jutsu_total(s) == [10] * 6 and isinstance(s.reset, Reset)
    round_trip(s)
