"""Absence is not a move: a missed turn is the engine's ``timeout``, never a pass the player chose, so the
"every player passed in succession" ending only ever follows chosen passes; in the draft a timeout keeps the
bot's choice."""

from __future__ import annotations

import json
import random

import pytest

from rules.base import Event, InvalidActionError, NotYourTurnError
from rules.flying_blades import Last, State
from rules.flying_blades import notation as nt
from rules.flying_blades.bot import choose_keep
from rules.flying_blades.state import ALL_PASSED
from tests.rules.fb_helpers import (
    G,
    at,
    card_strings,
    check_invariants,
    check_view_hides_cards,
    next_seat_to_act,
    play,
    random_action,
    refused,
)


def no_cards(players: int = 3, seed: str = "absent") -> State:
    return G.new(players, {"cards": "none"}, seed)


# --- in play ----------------------------------------------------------------------------------------------------


def test_a_timeout_is_not_a_pass_so_absent_players_do_not_end_the_game() -> None:
    s = play(no_cards(), (0, "pass"), (1, "pass"))
    s, events = G.apply(s, 2, "timeout")
    assert s.phase == "play" and G.outcome(s) is None
    assert s.passed == (True, True, False), "the timeout neither counts as a pass nor clears the others' passes"
    assert events == [Event("timeout", 2, {}), Event("turn", 0, {})]
    assert G.view(s, None)["passes"] == 2
    s = play(s, (0, "pass"), (1, "pass"), (2, "pass"))  # the absent player comes back and chooses to pass
    assert s.phase == "over" and s.reason == ALL_PASSED


def test_three_timeouts_in_a_row_do_not_end_a_three_player_game() -> None:
    s = no_cards()
    for turn in range(30):  # ten rounds of nobody there
        s = play(s, (s.current, "timeout"))
        assert s.phase == "play" and s.current == (turn + 1) % 3
    assert s.passed == (False, False, False) and s.turn == 30 and s.last == Last(2, "timeout")


def test_a_timeout_does_not_break_the_others_run_of_passes() -> None:
    s = play(no_cards(), (0, "pass"), (1, "timeout"), (2, "pass"), (0, "pass"))
    assert s.phase == "play" and s.passed == (True, False, True)
    s = play(s, (1, "pass"))
    assert s.phase == "over" and s.reason == ALL_PASSED


def test_a_move_after_a_timeout_clears_the_passes_as_always() -> None:
    s = at(3, 0, r="c3 c5", y="c4 e4", b="e5 d4", extra="passed=0,1,1")
    s = play(s, (0, "timeout"))
    assert s.passed == (False, True, True) and s.current == 1
    move = next(a for a in G.legal_actions(s, 1) if a != "pass")
    s = play(s, (1, move))
    assert s.passed == (False, False, False)


def test_a_timeout_ends_only_the_turn_of_the_seat_to_move() -> None:
    s = no_cards()
    assert refused(s, 1, "timeout", NotYourTurnError) == "It is red's turn, not yours (yellow)."
    s = play(s, (1, "resign"))
    refused(s, 1, "timeout", NotYourTurnError)
    s = play(s, (0, "timeout"))
    assert s.current == 2, "the resigned seat is skipped as after a pass"


def test_a_timeout_after_a_resignation_can_still_end_the_game_only_through_chosen_passes() -> None:
    s = play(no_cards(), (0, "pass"), (1, "pass"), (2, "timeout"))
    s = play(s, (0, "resign"))  # red leaves; yellow passed by choice, blue never did
    assert s.phase == "play" and s.current == 1
    s = play(s, (1, "timeout"), (2, "pass"))
    assert s.phase == "over" and s.reason == ALL_PASSED


def test_the_last_move_of_a_timeout_names_no_cells() -> None:
    s = play(no_cards(), (0, "timeout"))
    assert G.view(s, 1)["last_action"] == {"seat": 0, "action": "timeout", "from": None, "to": None, "removed": []}


# --- in the draft ----------------------------------------------------------------------------------------------


def test_a_timeout_in_the_draft_keeps_the_bots_choice() -> None:
    s = G.new(3, {}, "draft-timeout")
    kept = tuple(sorted(choose_keep(s.hands[1], 3)))
    s2, events = G.apply(s, 1, "timeout")
    assert s2.hands[1] == kept and s2.drafted == (False, True, False) and s2.phase == "draft"
    assert events == [Event("timeout", 1, {"kept": len(kept)})]
    assert s2 == G.apply(s, 1, nt.USAGE["timeout"])[0]
    keep, _ = G.apply(s, 1, G.bot_action(s, 1))
    assert keep.hands == s2.hands, "the same cards as the bot's own keep"


def test_a_draft_timeout_shows_no_card_in_events_or_views() -> None:
    s = G.new(3, {}, "draft-secret")
    s2, events = G.apply(s, 0, "timeout")
    assert not card_strings([e.data for e in events])
    assert G.view(s2, 1)["last_action"]["action"] == "timeout"
    check_view_hides_cards(s2)


def test_the_last_draft_timeout_starts_the_play() -> None:
    s = play(G.new(2, {}, "draft-start"), (0, G.bot_action(G.new(2, {}, "draft-start"), 0)))
    s, events = G.apply(s, 1, "timeout")
    assert s.phase == "play" and [e.kind for e in events] == ["timeout", "draft_done"]


def test_a_seat_that_has_kept_cannot_time_out_again_in_the_draft() -> None:
    s = play(G.new(3, {}, "draft-twice"), (0, "timeout"))
    refused(s, 0, "timeout", NotYourTurnError)


# --- the contract --------------------------------------------------------------------------------------------


def test_players_cannot_send_timeout_through_legal_actions() -> None:
    assert sorted(G.ENGINE_VERBS) == ["timeout"]
    draft = G.new(3, {}, "listed")
    played = no_cards()
    for s in (draft, played):
        for seat in G.to_move(s):
            assert "timeout" not in G.legal_actions(s, seat)
    assert "timeout" not in nt.VERBS, "nor offered in errors, hints or typed verbs"


def test_the_default_action_is_the_timeout_in_every_phase() -> None:
    assert G.default_action(G.new(3, {}, "d"), 2) == "timeout"
    assert G.default_action(no_cards(), 0) == "timeout"


def test_timeout_notation_round_trips() -> None:
    s = no_cards()
    assert G.notation(s, "  TimeOut ") == "timeout" and G.notation(s, G.notation(s, "timeout")) == "timeout"
    with pytest.raises(InvalidActionError):
        G.notation(s, "timeout c3")


def test_a_state_after_a_timeout_reads_back_from_json_and_position() -> None:
    for s in (play(no_cards(), (0, "pass"), (1, "timeout")), play(G.new(3, {}, "json"), (2, "timeout"))):
        assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s
        assert G.from_position(G.to_position(s)) == s


def playout_with_timeouts(players: int, seed: str, options: dict) -> tuple[State, list[tuple[int, str]]]:
    """Random legal moves with one seat in five missing its turn."""
    r = random.Random(seed)
    s = G.new(players, options, seed)
    log: list[tuple[int, str]] = []
    for _ in range(20_000):
        check_invariants(s)
        if s.phase == "over":
            return s, log
        seat = next_seat_to_act(s)
        action = "timeout" if r.random() < 0.2 else random_action(s, seat, r)
        s, _ = G.apply(s, seat, action)
        log.append((seat, action))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_log_with_timeouts_replays_to_the_same_state(players: int) -> None:
    for game, options in enumerate(({}, {"cards": "open"}, {"cards": "none"})):
        seed = f"timeouts-{players}-{game}"
        s, log = playout_with_timeouts(players, seed, options)
        assert any(action == "timeout" for _, action in log)
        if s.reason == ALL_PASSED:  # the last action before the end is always a chosen pass or a resignation
            assert log[-1][1] in ("pass", "resign")
        replayed = G.new(players, options, seed)
        for seat, action in log:
            replayed, _ = G.apply(replayed, seat, action)
        assert replayed == s
        assert G.from_json(G.to_json(s)) == s
