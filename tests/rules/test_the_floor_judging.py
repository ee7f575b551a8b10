"""The Floor: who judges a doubtful answer (never a duellist; the majority of the votes cast), what happens
with nobody neutral present, why judging cannot freeze the clock, and mistyped options (issue 10)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.base import IllegalActionError, NotYourTurnError, OptionsError
from rules.the_floor import State
from tests.rules.tf_helpers import G, drafted, play


def started(players: int, **options: Any) -> State:
    """The first duel of a game, both sides Ready (side 0, the host's, challenges)."""
    s = drafted(players, "judging", **options)
    seat = s.seats_of(s.current)[0]
    s = play(s, (seat, G.default_action(s, seat)))
    d = s.duel
    assert d is not None
    return play(s, (s.seats_of(d.challenger)[0], "ready"), (s.seats_of(d.defender)[0], "ready"))


def duel_between(players: int, chal: int, defe: int, **options: Any) -> State:
    """A started duel that ``chal`` challenged against ``defe``: earlier turns are played by the timers."""
    s = drafted(players, "judging", **options)
    for _ in range(2000):
        if s.phase == "play" and s.duel is None and not s.pending and s.current == chal:
            targets = [(a, b) for a, b in G.challenges(s, chal) if s.board[b] == defe]
            if targets:
                a, b = targets[0]
                names = ["ABCDE"[c % 5] + str(c // 5 + 1) for c in (a, b)]
                s = play(s, (s.seats_of(chal)[0], f"challenge {names[0]} {names[1]}"))
                return play(s, (s.seats_of(chal)[0], "ready"), (s.seats_of(defe)[0], "ready"))
        seat = min(G.to_move(s))
        s = play(s, (seat, G.default_action(s, seat)))
    raise AssertionError("no such duel")


def runner(s: State) -> int:
    d = s.duel
    assert d is not None
    return s.seats_of((d.challenger, d.defender)[d.active])[0]


def listed(s: State, n: int = 0) -> str:
    d = s.duel
    assert d is not None
    return [a for a in G.categories("en")[d.category]["answers"] if a[0] == d.letter][n]


def doubtful(s: State, ms: int = 1500) -> State:
    """The running side answers something on no list."""
    d = s.duel
    assert d is not None
    return play(s, (runner(s), f"answer {ms} {d.letter}zzz"))


def neutral(s: State) -> list[int]:
    d = s.duel
    assert d is not None
    return [i for i in range(s.players) if s.seat_side[i] not in (d.challenger, d.defender)]


def duellists(s: State) -> list[int]:
    d = s.duel
    assert d is not None
    return [i for i in range(s.players) if s.seat_side[i] in (d.challenger, d.defender)]


def key_of(error: pytest.ExceptionInfo[Any]) -> str:
    return error.value.msg.key


# --- 1. nobody judges a duel they play ------------------------------------------------------------------------


def test_host_mode_a_duelling_host_never_judges_the_opponents_answer() -> None:
    s = started(3, judging="host")
    assert s.seat_side[0] == s.duel.challenger  # the host challenges: the defender's answer is in doubt
    s = play(s, (runner(s), f"answer 1000 {listed(s)}"))
    s = doubtful(s)
    assert s.duel.judging and G.to_move(s) == frozenset(neutral(s)) and 0 not in G.judge_seats(s)
    with pytest.raises(NotYourTurnError) as refused:
        G.apply(s, 0, "judge reject")
    assert key_of(refused) == "tf.judge_own_duel"


def test_host_mode_a_host_outside_the_duel_judges_alone() -> None:
    s = duel_between(3, 1, 2, judging="host")
    assert s.seat_side[0] not in (s.duel.challenger, s.duel.defender)
    s = doubtful(s)
    assert G.judge_seats(s) == [0]
    assert play(s, (0, "judge reject")).duel.log[-1][2] == "rejected"


@pytest.mark.parametrize("mode", ["vote", "host", "trust"])
def test_with_nobody_outside_the_duel_a_doubtful_answer_gets_the_benefit_of_the_doubt(mode: str) -> None:
    s = started(2, judging=mode)
    s = play(s, (runner(s), f"answer 1000 {listed(s)}"))  # the defender (not the host) answers next
    d = s.duel
    s = doubtful(s)
    assert not s.duel.judging and s.duel.log[-1] == (1, f"{d.letter}zzz", "trusted") and s.duel.active == 0
    assert not G.disputable(s)
    with pytest.raises(IllegalActionError) as refused:  # a dispute would hand the decision to the opponent
        G.apply(s, runner(s), "dispute 300")
    assert key_of(refused) == "tf.no_judges"


def test_trust_mode_a_dispute_is_decided_by_the_majority_not_the_first_vote() -> None:
    s = doubtful(started(5, judging="trust"))
    assert s.duel.log[-1][2] == "trusted" and G.disputable(s)
    s = play(s, (runner(s), "dispute 400"))
    judges = G.judge_seats(s)
    assert judges == neutral(s) and len(judges) == 3
    s = play(s, (judges[0], "judge reject"))
    assert s.duel.judging, "one vote of three does not decide"
    accepted = play(s, (judges[1], "judge accept"), (judges[2], "judge accept"))
    assert not accepted.duel.judging and accepted.duel.log[-1][2] == "judged"
    rejected = play(s, (judges[1], "judge reject"))
    assert not rejected.duel.judging and rejected.duel.log[-1][2] == "rejected"


@pytest.mark.parametrize("mode", ["vote", "trust", "host"])
def test_a_duellists_vote_is_refused_and_never_counted(mode: str) -> None:
    s = started(3, judging=mode)
    s = doubtful(s)
    if mode == "trust":
        s = play(s, (runner(s), "dispute 100"))
    for seat in duellists(s):
        with pytest.raises(NotYourTurnError) as refused:
            G.apply(s, seat, "judge reject")
        assert key_of(refused) == "tf.judge_own_duel"
    assert s.duel.votes == ()


def test_team_members_of_a_duelling_side_never_judge() -> None:
    s = doubtful(started(6, sides=3))
    assert G.judge_seats(s) == neutral(s) and len(neutral(s)) == 2
    assert all(seat not in G.to_move(s) for seat in duellists(s))


def test_a_judge_votes_once() -> None:
    s = doubtful(started(5))
    judge = G.judge_seats(s)[0]
    s = play(s, (judge, "judge accept"))
    with pytest.raises(NotYourTurnError) as refused:
        G.apply(s, judge, "judge reject")
    assert key_of(refused) == "tf.already_voted"


def test_the_vote_closes_as_soon_as_the_remaining_judges_cannot_change_it() -> None:
    s = doubtful(started(5))
    judges = G.judge_seats(s)
    assert len(judges) == 3
    early = play(s, (judges[0], "judge accept"), (judges[1], "judge accept"))
    assert not early.duel.judging and early.duel.log[-1][2] == "judged"
    split = play(s, (judges[0], "judge accept"), (judges[1], "judge reject"))
    assert split.duel.judging and G.judge_seats(split) == [judges[2]], "the last judge breaks the tie"


@pytest.mark.parametrize("votes,mark", [(("reject",), "rejected"), (("reject", "accept"), "judged"),
                                        (("accept",), "judged"), ((), "judged")])
def test_at_the_vote_deadline_the_majority_of_the_votes_cast_decides(votes: tuple[str, ...], mark: str) -> None:
    s = doubtful(started(5))
    judges = G.judge_seats(s)
    for seat, vote in zip(judges, votes, strict=False):
        s = play(s, (seat, f"judge {vote}"))
    s = play(s, (G.judge_seats(s)[0], "timeout"))
    assert not s.duel.judging and s.duel.log[-1][2] == mark


def test_a_state_saved_while_the_opponent_judged_can_only_be_closed_and_accepts() -> None:
    """Under the old rules a two-player dispute went to the opponent; such a saved state still loads and moves:
    the opponent may not vote, only the vote deadline (``timeout``) closes it, in the answerer's favour."""
    s = started(2)
    d = s.duel
    s = replace(s, duel=replace(d, judging=f"{d.letter}zzz"))
    s = G.from_json(json.loads(json.dumps(G.to_json(s))))
    opponent = s.seats_of(d.defender)[0]
    assert G.to_move(s) == frozenset({opponent}) and G.legal_actions(s, opponent) == ["timeout"]
    with pytest.raises(NotYourTurnError):
        G.apply(s, opponent, "judge reject")
    assert G.default_action(s, opponent) == G.bot_action(s, opponent) == "timeout"
    s = play(s, (opponent, "timeout"))
    assert not s.duel.judging and s.duel.log[-1][2] == "judged" and s.duel.active == 1


# --- 2. judging cannot freeze the clock -----------------------------------------------------------------------


def test_an_answer_the_judges_rejected_is_refused_at_once_with_the_clock_running() -> None:
    s = doubtful(started(3))
    answer = s.duel.judging
    s = play(s, (G.judge_seats(s)[0], "judge reject"))
    before = s
    for again in (answer, f"  {answer.lower()} "):
        with pytest.raises(IllegalActionError) as refused:
            G.apply(s, runner(s), f"answer 2000 {again}")
        assert key_of(refused) == "tf.answer.judged_out"
    # nothing changed: no vote reopened, and the next answer is charged all the time since the letter
    s = play(s, (runner(s), f"answer 5000 {listed(s)}"))
    assert s.duel.clocks[0] == before.duel.clocks[0] - 5000 and not s.duel.judging


def test_trust_mode_a_rejected_dispute_cannot_be_trusted_again() -> None:
    s = doubtful(started(3, judging="trust"))
    s = play(s, (runner(s), "dispute 100"))
    answer = s.duel.judging
    s = play(s, (G.judge_seats(s)[0], "judge reject"))
    with pytest.raises(IllegalActionError) as refused:
        G.apply(s, runner(s), f"answer 900 {answer}")
    assert key_of(refused) == "tf.answer.judged_out"


def test_the_opponent_cannot_repeat_an_answer_judged_in_the_duel() -> None:
    s = doubtful(started(3))
    answer, letter = s.duel.judging, s.duel.letter
    accepted = play(s, (G.judge_seats(s)[0], "judge accept"))
    same_letter = replace(accepted, duel=replace(accepted.duel, letter=letter))
    with pytest.raises(IllegalActionError) as refused:
        G.apply(same_letter, runner(same_letter), f"answer 900 {answer}")
    assert key_of(refused) == "tf.answer.repeat"
    rejected = play(s, (G.judge_seats(s)[0], "judge reject"))
    rejected = play(rejected, (runner(rejected), f"answer 900 {listed(rejected)}"))
    same_letter = replace(rejected, duel=replace(rejected.duel, letter=letter))
    with pytest.raises(IllegalActionError) as refused:
        G.apply(same_letter, runner(same_letter), f"answer 900 {answer}")
    assert key_of(refused) == "tf.answer.judged_out"


# --- 3. mistyped options --------------------------------------------------------------------------------------

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
OPTION_NAMES = ("sides", "lang", "clock", "judging", "kids", "content", "turn_minutes", "ready_minutes",
                "vote_seconds", "draft_minutes")


@pytest.mark.parametrize("bad", [
    {"lang": ["en"]}, {"judging": ["vote"]}, {"lang": {"en": 1}}, {"clock": {"seconds": 30}}, {"sides": [2]},
    {"kids": "yes"}, {"vote_seconds": 20.0}, {"content": []}, {"content": 0}, {"content": "x"},
    {"content": {"categories": [{"id": [1]}]}}, {"content": {"categories": ["server_1"]}},
    {"content": {"categories": [{"id": "server_1", "name": "n", "flags": [[1]], "answers": ["a"]}]}},
    {"content": {"categories": [{"id": "server_1", "name": "n", "answers": ["a"], "variants": {"a": 5}}]}},
    {"content": {"answers": {"cats": "Persian"}}}, {"content": {"answers": [["cats", ["Persian"]]]}},
    {1: 2}, {("clock",): 30},
])
def test_a_mistyped_option_is_an_options_error(bad: dict[Any, Any]) -> None:
    with pytest.raises(OptionsError):
        G.normalize_options(3, bad)
    with pytest.raises(OptionsError):
        G.new(3, bad, "x")


@pytest.mark.parametrize("options", [["clock", 30], "clock=30", 30])
def test_options_that_are_not_a_mapping_are_an_options_error(options: Any) -> None:
    with pytest.raises(OptionsError) as refused:
        G.normalize_options(3, options)
    assert key_of(refused) == "tf.options.shape"


@pytest.mark.parametrize("players", ["3", 3.0, None, [3], True])
def test_a_mistyped_player_count_is_an_options_error(players: Any) -> None:
    with pytest.raises(OptionsError):
        G.normalize_options(players, {})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(OPTION_NAMES), value=JSONISH, players=st.integers(2, 10))
def test_any_json_value_for_any_option_is_accepted_or_an_options_error(name: str, value: Any, players: int) -> None:
    try:
        out = G.normalize_options(players, {name: value})
    except OptionsError as e:
        assert e.msg.key.startswith("tf.options.")
        return
    assert json.loads(json.dumps(out)) == out  # what is accepted is plain JSON, stored as it is


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.dictionaries(st.sampled_from(OPTION_NAMES), JSONISH, max_size=4))
def test_any_json_options_make_a_game_or_an_options_error(options: dict[str, Any]) -> None:
    try:
        G.new(3, options, "fuzz")
    except OptionsError as e:  # any other exception fails the test
        assert e.msg.key.startswith("tf.options.")
