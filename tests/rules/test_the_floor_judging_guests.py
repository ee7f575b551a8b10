"""The Floor: judges without a seat (issue 10) — a referee named in the lobby, the thread's spectators when no seat
outside the duel can judge — and the cap on doubtful answers per letter. A member without a seat acts through the
engine's `GUEST_SEAT` with a vote naming them (``judge accept user:<id>``), so their votes are in the log, replay
exactly and survive a save."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

import engine
from engine import replay
from rules.base import IllegalActionError, NotYourTurnError, OptionsError
from rules.the_floor import State
from rules.the_floor.duel import doubts
from rules.the_floor.options import GUEST_SEAT, MAX_GUEST_VOTES
from tests.rules.test_the_floor_judging import (
    doubtful,
    duellists,
    key_of,
    listed,
    neutral,
    runner,
    started,
)
from tests.rules.tf_helpers import G, play

REFEREE, ANN, BEN, CY = 9_000_000_000_000_001, 801, 802, 803
SPECTATORS = {"spectators_judge": True}


def guest(s: State, user: int, vote: str) -> State:
    """A member without a seat votes, as the engine applies it."""
    action = G.guest_action(s, user, f"judge {vote}")
    assert action == f"judge {vote} user:{user}"
    return play(s, (GUEST_SEAT, action))


def closer(s: State) -> int:
    """The seat the vote deadline (``timeout``) is applied for."""
    return sorted(G.to_move(s))[0]


# --- options --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("given,want", [
    ({"referee": REFEREE}, {"referee": REFEREE}), ({"referee": f"<@{REFEREE}>"}, {"referee": REFEREE}),
    ({"referee": f"<@!{REFEREE}>"}, {"referee": REFEREE}), ({"referee": str(REFEREE)}, {"referee": REFEREE}),
    ({"referee": 0}, {}), ({"spectators_judge": "off"}, {"spectators_judge": False}),
    ({"spectators_judge": True}, {"spectators_judge": True}), ({"doubt_cap": 3}, {"doubt_cap": 3}), ({}, {}),
])
def test_judge_options_are_normalized_and_kept_out_unless_given(given: dict[str, Any], want: dict[str, Any]) -> None:
    out = G.normalize_options(2, given)
    assert {k: out[k] for k in ("referee", "spectators_judge", "doubt_cap") if k in out} == want


@pytest.mark.parametrize("bad", [
    {"referee": "bob"}, {"referee": -5}, {"referee": 2**63}, {"referee": True}, {"referee": [1]},
    {"spectators_judge": "maybe"}, {"spectators_judge": 1}, {"doubt_cap": 0}, {"doubt_cap": 11},
    {"doubt_cap": "2"}, {"doubt_cap": 2.0},
])
def test_a_mistyped_judge_option_is_an_options_error(bad: dict[str, Any]) -> None:
    with pytest.raises(OptionsError) as refused:
        G.new(3, bad, "x")
    assert key_of(refused) == f"tf.options.{next(iter(bad))}"


def test_a_game_made_without_the_options_plays_as_before() -> None:
    s = started(2)
    assert (s.referee, s.spectators, s.doubt_cap) == (0, False, 0)


# --- the referee ------------------------------------------------------------------------------------------------


def test_a_referee_decides_alone_when_nobody_outside_the_duel_is_seated() -> None:
    s = doubtful(started(2, referee=REFEREE))
    assert s.duel.judging and G.guests_judge(s), "with a referee the answer waits for a judgment"
    assert G.to_move(s) == frozenset(s.seats_of(1 - s.duel.active)), "the opponent holds the deadline only"
    rejected = guest(s, REFEREE, "reject")
    assert not rejected.duel.judging and rejected.duel.log[-1][2] == "rejected"
    accepted = guest(s, REFEREE, "accept")
    assert not accepted.duel.judging and accepted.duel.log[-1][2] == "judged"


def test_a_referees_vote_decides_alone_over_the_seated_judges() -> None:
    s = doubtful(started(5, referee=REFEREE))
    s = play(s, (G.judge_seats(s)[0], "judge accept"))
    assert s.duel.judging
    s = guest(s, REFEREE, "reject")
    assert not s.duel.judging and s.duel.log[-1][2] == "rejected"


def test_a_referee_lets_the_opponent_dispute_in_trust_mode() -> None:
    s = doubtful(started(2, judging="trust", referee=REFEREE))
    assert s.duel.log[-1][2] == "trusted" and G.disputable(s)
    s = play(s, (runner(s), "dispute 300"))
    s = guest(s, REFEREE, "reject")
    assert s.duel.log[-1][2] == "rejected"


# --- spectators -------------------------------------------------------------------------------------------------


def test_spectators_judge_when_no_seat_outside_the_duel_can_and_the_majority_of_their_votes_decides() -> None:
    s = doubtful(started(2, **SPECTATORS))
    assert s.duel.judging and G.guests_judge(s) and G.judge_seats(s) == []
    s = guest(guest(guest(s, ANN, "reject"), BEN, "reject"), CY, "accept")
    assert s.duel.judging, "nobody knows how many spectators there are: the vote waits for its deadline"
    assert s.duel.guests == ((ANN, False), (BEN, False), (CY, True))
    s = play(s, (closer(s), "timeout"))
    assert not s.duel.judging and s.duel.log[-1][2] == "rejected" and s.duel.guests == ()


@pytest.mark.parametrize("votes,mark", [((), "judged"), (("reject", "accept"), "judged"), (("reject",), "rejected")])
def test_spectators_tie_or_silence_gives_the_benefit_of_the_doubt(votes: tuple[str, ...], mark: str) -> None:
    s = doubtful(started(2, **SPECTATORS))
    for user, vote in zip((ANN, BEN), votes, strict=False):
        s = guest(s, user, vote)
    s = play(s, (closer(s), "timeout"))
    assert s.duel.log[-1][2] == mark


def test_spectators_do_not_vote_while_a_seat_outside_the_duel_can_judge() -> None:
    s = doubtful(started(3, **SPECTATORS))
    assert G.judge_seats(s) == neutral(s) and not G.guests_judge(s)
    with pytest.raises(NotYourTurnError) as refused:
        guest(s, ANN, "accept")
    assert key_of(refused) == "tf.not_a_judge"


def test_a_spectator_votes_once_per_answer() -> None:
    s = guest(doubtful(started(2, **SPECTATORS)), ANN, "reject")
    with pytest.raises(NotYourTurnError) as refused:
        guest(s, ANN, "accept")
    assert key_of(refused) == "tf.already_voted"
    s = play(s, (closer(s), "timeout"))  # rejected: the same letter, a new doubtful answer, a new vote
    s = play(s, (runner(s), f"answer 700 {s.duel.letter}qqq"))
    assert guest(s, ANN, "accept").duel.guests == ((ANN, True),)


def test_spectator_votes_are_bounded() -> None:
    s = doubtful(started(2, **SPECTATORS))
    s = replace(s, duel=replace(s.duel, guests=tuple((1000 + i, True) for i in range(MAX_GUEST_VOTES))))
    with pytest.raises(IllegalActionError) as refused:
        guest(s, ANN, "reject")
    assert key_of(refused) == "tf.votes_full"


def test_without_a_vote_deadline_spectators_do_not_judge() -> None:
    s = doubtful(started(2, vote_seconds=0, **SPECTATORS))
    assert not s.spectators and s.duel.log[-1][2] == "trusted", "nothing would close a vote nobody casts"


def test_a_duellist_bot_waits_for_the_spectators_deadline() -> None:
    s = doubtful(started(2, **SPECTATORS))
    opponent = closer(s)
    assert G.bot_defers(s, opponent, frozenset()), "closing at once would cut the spectators' vote short"
    assert G.default_action(s, opponent) == "timeout"


def test_trust_mode_a_dispute_goes_to_the_spectators() -> None:
    s = doubtful(started(2, judging="trust", **SPECTATORS))
    assert G.disputable(s)
    s = play(s, (runner(s), "dispute 250"))
    s = play(guest(s, ANN, "reject"), (closer(s), "timeout"))
    assert s.duel.log[-1][2] == "rejected"


# --- nobody in the duel votes; forged and stale votes ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_a_seat_never_casts_a_named_vote(players: int) -> None:
    """A named vote is the table's: no seat (a duellist above all) can forge one, or vote as someone else."""
    s = doubtful(started(players, referee=REFEREE, **SPECTATORS))
    for seat in range(s.players):
        with pytest.raises(NotYourTurnError) as refused:
            G.apply(s, seat, f"judge reject user:{REFEREE}")
        assert key_of(refused) == "tf.judge_named"
    for seat in duellists(s):
        with pytest.raises(NotYourTurnError):
            G.apply(s, seat, "judge reject")


def test_a_named_vote_needs_an_open_vote_and_a_right_to_vote() -> None:
    s = started(2, **SPECTATORS)
    with pytest.raises(IllegalActionError) as refused:
        play(s, (GUEST_SEAT, f"judge accept user:{ANN}"))
    assert key_of(refused) == "tf.no_vote"
    with pytest.raises(NotYourTurnError) as refused:
        play(s, (GUEST_SEAT, "resign"))
    assert key_of(refused) == "tf.not_a_judge"
    plain = doubtful(started(3))
    with pytest.raises(NotYourTurnError) as refused:
        play(plain, (GUEST_SEAT, f"judge accept user:{ANN}"))
    assert key_of(refused) == "tf.not_a_judge"


def test_only_a_vote_is_a_members_action() -> None:
    s = doubtful(started(2, **SPECTATORS))
    assert G.guest_action(s, ANN, "judge reject") == f"judge reject user:{ANN}"
    for action in ("resign", "pass", "timeout", f"judge reject user:{BEN}", "nonsense", ""):
        assert G.guest_action(s, ANN, action) is None
    assert G.guest_action(s, 0, "judge accept") is None


def test_the_engines_guest_seat_is_the_rules_one() -> None:
    assert engine.GUEST_SEAT == GUEST_SEAT


# --- the log, replay and storage -------------------------------------------------------------------------------


def test_member_votes_replay_exactly_from_the_log_and_survive_a_save() -> None:
    options = {"referee": REFEREE, **SPECTATORS}
    log: list[tuple[int, str]] = []
    s = G.new(2, options, "s")
    while not (s.duel is not None and s.duel.started):
        seat = min(G.to_move(s))
        action = G.default_action(s, seat)
        log.append((seat, action))
        s = play(s, (seat, action))
    for seat, action in [(runner(s), f"answer 900 {s.duel.letter}zzz"), (GUEST_SEAT, f"judge reject user:{ANN}")]:
        log.append((seat, action))
        s = play(s, (seat, action))
    assert s.duel.guests == ((ANN, False),)
    saved = G.from_json(json.loads(json.dumps(G.to_json(s))))
    assert saved == s, "a vote cast before a restart is still counted"
    assert replay(G, 2, G.normalize_options(2, options), "s", log) == s
    log.append((GUEST_SEAT, f"judge accept user:{REFEREE}"))
    assert replay(G, 2, G.normalize_options(2, options), "s", log).duel.log[-1][2] == "judged"


def test_a_state_saved_before_judges_without_a_seat_still_loads() -> None:
    s = doubtful(started(3))
    data = json.loads(json.dumps(G.to_json(s)))
    for key in ("referee", "spectators", "doubt_cap"):
        del data[key]
    del data["duel"]["guests"]
    loaded = G.from_json(data)
    assert (loaded.referee, loaded.spectators, loaded.doubt_cap, loaded.duel.guests) == (0, False, 0, ())


@pytest.mark.parametrize("guests", [[[ANN, True], [ANN, False]], [[0, True]], [[REFEREE, True]], [[ANN, "yes"]]])
def test_damaged_member_votes_are_refused_on_load(guests: list[Any]) -> None:
    s = doubtful(started(2, referee=REFEREE, **SPECTATORS))
    data = json.loads(json.dumps(G.to_json(s)))
    data["duel"]["guests"] = guests
    with pytest.raises(Exception, match="guests"):
        G.from_json(data)


# --- the cap on doubtful answers ------------------------------------------------------------------------------


def reject_doubtful(s: State, ms: int = 600) -> State:
    """A new doubtful answer (each one different: one already rejected would be refused) that the judges reject."""
    s = play(s, (runner(s), f"answer {ms} {s.duel.letter}zz{'q' * len(s.duel.log)}"))
    return play(s, (G.judge_seats(s)[0], "judge reject"))


def test_after_the_cap_a_doubtful_answer_is_refused_with_the_clock_running() -> None:
    s = reject_doubtful(reject_doubtful(started(3, doubt_cap=2)))
    assert doubts(s.duel) == 2
    before = s
    with pytest.raises(IllegalActionError) as refused:
        G.apply(s, runner(s), f"answer 900 {s.duel.letter}www")
    assert key_of(refused) == "tf.answer.doubt_cap"
    # nothing changed: no vote opened, and the next answer is charged all the time since the letter
    s = play(s, (runner(s), f"answer 4000 {listed(s)}"))
    assert s.duel.clocks[0] == before.duel.clocks[0] - 4000 and not s.duel.judging


def test_the_doubt_cap_counts_per_letter() -> None:
    s = reject_doubtful(reject_doubtful(started(3, doubt_cap=2)))
    s = play(s, (runner(s), "pass 500"))
    assert doubts(s.duel) == 0
    assert doubtful(s).duel.judging, "a new letter: the answer goes to the judges again"


def test_the_doubt_cap_counts_per_duellist() -> None:
    s = reject_doubtful(reject_doubtful(started(3, doubt_cap=2)))
    s = play(s, (runner(s), f"answer 500 {listed(s)}"))  # the other duellist's letter now
    assert doubts(s.duel) == 0 and doubtful(s).duel.judging


def test_with_nobody_to_judge_the_cap_never_refuses() -> None:
    """A doubtful answer nobody can judge stands at once: it never stops the clock, so there is nothing to cap."""
    s = started(2, doubt_cap=1)
    for _ in range(3):
        s = play(s, (runner(s), f"answer 100 {s.duel.letter}zz{s.duel.active}"))
        assert s.duel.log[-1][2] == "trusted"


def test_a_game_without_the_cap_sends_every_doubtful_answer_to_the_judges() -> None:
    s = started(3)
    for _ in range(4):
        s = reject_doubtful(s)
    assert doubts(s.duel) == 4
