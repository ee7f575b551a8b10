"""Absence is not a move: a seat whose deadline passes is logged as the engine's ``timeout``. In setup it draws the
bot's start (the game cannot go on without a living room); in play it draws nothing, like ``skip``."""

from __future__ import annotations

import json
import random

import pytest

from rules.base import Event, InvalidActionError, NotYourTurnError
from rules.floor_plan import State
from rules.floor_plan import notation as nt
from rules.floor_plan.bot import choose_baseline, choose_start
from tests.rules.fp_helpers import G, R, board, refused, sheet, started, with_sheet

KD = (R("K", "A1", 3, 3), R("D", "D1", 3, 3))  # a kitchen and a dining room, side by side


def kd_state(players: int = 2) -> State:
    """Round 1 with seat 0 able to claim hosts.1 (a kitchen and a dining room joined by a door)."""
    s = started(players, clients=("hosts", "swimmer", "flow"))
    return with_sheet(s, 0, sheet(*KD, s.boards[0].sheet.rooms[0], doors="C2"))


def test_a_timeout_in_setup_draws_the_bots_start() -> None:
    s = G.new(2, {}, "setup-timeout")
    s2, events = G.apply(s, 0, "timeout")
    start, _ = G.apply(s, 0, choose_start(s, 0))
    assert board(s2, 0) == board(start, 0) and board(s2, 0).sheet.rooms
    assert events == [Event("timeout", 0, {"round": 0})] and s2.actions[0] == "timeout"
    assert G.to_move(s2) == {1}


def test_a_timeout_in_play_draws_nothing_like_a_skip() -> None:
    s = started(2)
    s2, events = G.apply(s, 0, "timeout")
    assert board(s2, 0) == s.boards[0] and G.to_move(s2) == {1}
    assert events == [Event("timeout", 0, {"round": 1})]
    refused(s2, 0, "skip", NotYourTurnError)  # the seat's round is over, as after a skip
    refused(s2, 0, "timeout", NotYourTurnError)


def test_a_round_closes_on_timeouts_like_on_skips() -> None:
    s = started(3)
    timed_out, skipped = s, s
    for seat in range(3):
        timed_out, events = G.apply(timed_out, seat, "timeout")
        skipped, _ = G.apply(skipped, seat, "skip")
    assert G.to_json(timed_out) == G.to_json(skipped) and timed_out.round == 2
    closed = next(e for e in events if e.kind == "round_closed")
    assert closed.data["claims"] == []


def test_claims_sent_before_a_timeout_still_count_and_the_summary_lists_them() -> None:
    s, _ = G.apply(kd_state(), 0, "claim hosts.1")
    s, _ = G.apply(s, 0, "timeout")
    assert s.actions[0] == "claim hosts.1; timeout" and board(s, 0).notes[0] == 3
    s, events = G.apply(s, 1, "timeout")
    closed = next(e for e in events if e.kind == "round_closed")
    assert closed.data["claims"] == [{"seat": 0, "demands": ["hosts.1"]}]
    assert s.boards[0].notes[0] == 3 and s.round == 2


def test_a_solo_game_left_alone_ends_on_its_bubbles() -> None:
    s = G.new(1, {}, "solo-away")
    while s.phase != "over":
        s, _ = G.apply(s, 0, "timeout")
    assert G.outcome(s).reason == "fp.outcome.bubbles"


def test_players_cannot_send_timeout_through_legal_actions() -> None:
    assert sorted(G.ENGINE_VERBS) == ["timeout"] and "timeout" not in nt.VERBS
    s = kd_state()
    assert G.legal_actions(s, 0) is None  # nothing is listed in Floor Plan; the verb cannot ride along either
    for text in ("claim hosts.1; timeout", "timeout; claim hosts.1", "skip; timeout", "doors C3,D5; timeout"):
        with pytest.raises(InvalidActionError, match="on its own"):
            G.apply(s, 0, text)


def test_the_default_action_is_the_timeout_in_setup_and_in_play() -> None:
    assert G.default_action(G.new(2, {}, "d"), 0) == "timeout"
    assert G.default_action(started(2), 1) == "timeout"


def test_timeout_notation_round_trips() -> None:
    s = started(2)
    assert G.notation(s, " TIMEOUT ") == "timeout" and G.notation(s, G.notation(s, "timeout")) == "timeout"
    with pytest.raises(InvalidActionError):
        G.notation(s, "timeout now")


def test_a_state_after_a_timeout_reads_back_from_json() -> None:
    setup, _ = G.apply(G.new(2, {}, "json"), 1, "timeout")
    claimed, _ = G.apply(G.apply(kd_state(), 0, "claim hosts.1")[0], 0, "timeout")
    for s in (setup, claimed):
        assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s


def test_a_log_with_timeouts_replays_to_the_same_state() -> None:
    seed = "fp-timeouts"
    r = random.Random(seed)
    s = G.new(3, {}, seed)
    log: list[tuple[int, str]] = []
    while s.phase != "over":
        for seat in sorted(G.to_move(s)):
            action = "timeout" if r.random() < 0.25 else choose_baseline(G, s, seat)
            s, _ = G.apply(s, seat, action)
            log.append((seat, G.notation(s, action)))
        assert len(log) < 10_000
    assert sum(action == "timeout" for _, action in log) > 3
    replayed = G.new(3, {}, seed)
    for seat, action in log:
        replayed, _ = G.apply(replayed, seat, action)
    assert replayed == s
