"""Challenges and duels: adjacency, clocks driven by the elapsed times in the actions, pass, repeats, judging,
timeouts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.base import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.the_floor import State
from tests.rules.tf_helpers import G, drafted, play


def started(players: int = 2, **options: object) -> State:
    s = drafted(players, "duel", **options)
    seat = s.seats_of(s.current)[0]
    s, _ = G.apply(s, seat, G.default_action(s, seat))
    d = s.duel
    assert d is not None
    return play(s, (s.seats_of(d.challenger)[0], "ready"), (s.seats_of(d.defender)[0], "ready"))


def word(s: State, n: int = 0) -> str:
    """A listed answer of the running duel's category for its letter."""
    d = s.duel
    assert d is not None
    return [a for a in G.categories("en")[d.category]["answers"] if a[0] == d.letter][n]


def seat_of_running(s: State) -> int:
    d = s.duel
    assert d is not None
    return s.seats_of((d.challenger, d.defender)[d.active])[0]


def test_challenge_needs_own_cell_and_orthogonally_adjacent_rival_cell() -> None:
    s = drafted(2, "adj")
    seat = s.seats_of(s.current)[0]
    mine = [c for c in range(25) if s.board[c] == s.current]
    legal = G.legal_actions(s, seat)
    assert legal and all(a.startswith("challenge ") for a in legal)
    for a, b in G.challenges(s, s.current):
        assert s.board[a] == s.current and s.board[b] not in (-1, s.current)
        assert abs(a - b) in (1, 5) and (abs(a - b) == 5 or a // 5 == b // 5)
    assert len(legal) == len(G.challenges(s, s.current)) > 0
    # A1 and A2 belong to different sides in the 2-side layout; A1 and B2 touch only diagonally.
    frm = "A1" if s.board[0] == s.current else "B1"
    diag = "B2" if frm == "A1" else "A2"
    with pytest.raises(IllegalActionError):
        G.apply(s, seat, f"challenge {frm} {diag}")
    other = next(c for c in range(25) if s.board[c] not in (-1, s.current))
    with pytest.raises(IllegalActionError):
        G.apply(s, seat, f"challenge {'ABCDE'[other % 5]}{other // 5 + 1} A3")
    with pytest.raises(InvalidActionError):
        G.apply(s, seat, "challenge Z9 A1")
    with pytest.raises(NotYourTurnError):
        G.apply(s, s.seats_of(1 - s.current)[0], G.legal_actions(s, seat)[0])
    assert mine


def test_duel_starts_when_both_sides_are_ready_with_the_challengers_clock() -> None:
    s = drafted(2, "ready")
    seat = s.seats_of(s.current)[0]
    s = play(s, (seat, G.legal_actions(s, seat)[0]))
    d = s.duel
    assert d is not None and not d.started and G.to_move(s) == frozenset({0, 1})
    with pytest.raises(IllegalActionError):
        G.apply(s, seat, "answer 100 Aalpha0")
    s = play(s, (seat, "ready"))
    assert G.to_move(s) == frozenset({1 - seat})
    s = play(s, (1 - seat, "ready"))
    d = s.duel
    assert d.started and d.active == 0 and d.letter == d.decks[0][0] and d.clocks == (45000, 45000)
    assert G.view(s, None)["duel"]["running"] == d.challenger


def test_a_correct_answer_switches_the_clocks_and_shows_the_opponents_letter() -> None:
    s = started()
    d = s.duel
    s = play(s, (seat_of_running(s), f"answer 3250 {word(s)}"))
    e = s.duel
    assert e.clocks == (45000 - 3250, 45000) and e.active == 1 and e.letter == d.decks[1][0]
    assert e.log[-1][2] == "accepted"


def test_pass_costs_one_second_and_shows_a_new_letter_with_the_clock_running() -> None:
    s = started()
    d = s.duel
    s = play(s, (seat_of_running(s), "pass 2000"))
    e = s.duel
    assert e.clocks[0] == 45000 - 2000 - 1000 and e.active == 0
    assert e.letter == d.decks[0][1] and e.drawn == (2, 0)


def test_timeout_loses_the_duel() -> None:
    s = started()
    d = s.duel
    s, events = G.apply(s, seat_of_running(s), "timeout")
    over = next(e for e in events if e.kind == "duel_over")
    assert over.seat == d.defender and over.data["loser"] == d.challenger
    assert s.duel is None


def test_an_answer_after_the_clock_ran_out_loses() -> None:
    s = started(clock=20)
    d = s.duel
    s, events = G.apply(s, seat_of_running(s), f"answer 20000 {word(s)}")
    assert next(e for e in events if e.kind == "duel_over").data["loser"] == d.challenger


def test_a_pass_that_empties_the_clock_loses() -> None:
    s = started(clock=20)
    s, events = G.apply(s, seat_of_running(s), "pass 19500")
    assert any(e.kind == "duel_over" for e in events)


def test_no_answer_may_be_repeated_within_a_duel() -> None:
    s = started()
    d = s.duel
    letter = d.decks[0][0]
    s = play(s, (seat_of_running(s), f"answer 1000 {word(s)}"))
    # force the defender onto the same letter and try the same answer
    s = replace(s, duel=replace(s.duel, letter=letter))
    before = s
    with pytest.raises(IllegalActionError, match="already"):
        G.apply(s, seat_of_running(s), f"answer 500 {s.duel.given[0]}")
    assert s == before


def test_wrong_letter_and_rejected_answers_are_refused_and_change_nothing() -> None:
    s = started()
    d = s.duel
    wrong = "B" if d.letter != "B" else "C"
    with pytest.raises(IllegalActionError):
        G.apply(s, seat_of_running(s), f"answer 100 {wrong}alpha0")
    with pytest.raises(IllegalActionError):
        G.apply(s, seat_of_running(s), f"answer 100 {d.letter}nonsense")


def test_latency_is_not_charged_the_elapsed_time_comes_from_the_action() -> None:
    s = started()
    seat = seat_of_running(s)
    # a refused answer changes nothing; the next applied action carries all the time since the letter
    with pytest.raises(IllegalActionError):
        G.apply(s, seat, f"answer 100 {s.duel.letter}nonsense")
    s2 = play(s, (seat, f"answer 4321 {word(s)}"))
    assert s2.duel.clocks[0] == 45000 - 4321
    assert play(s, (seat, f"answer 4321 {word(s)}")) == s2  # replaying the same text gives the same clocks


def test_unknown_answer_is_judged_by_non_duellists_with_the_clock_stopped() -> None:
    s = started(3)
    d = s.duel
    seat = seat_of_running(s)
    s = play(s, (seat, f"answer 1500 {d.letter}zzz"))
    e = s.duel
    assert e.judging == f"{d.letter}zzz" and e.clocks[0] == 45000 - 1500
    judge = next(x for x in range(3) if x not in (d.challenger, d.defender))
    assert G.to_move(s) == frozenset(s.seats_of(judge))
    assert G.view(s, None)["duel"]["running"] is None
    with pytest.raises(NotYourTurnError):
        G.apply(s, seat, "judge accept")
    rejected = play(s, (s.seats_of(judge)[0], "judge reject"))
    r = rejected.duel
    assert r.active == 0 and r.letter == d.letter and r.clocks == e.clocks and r.log[-1][2] == "rejected"
    accepted = play(s, (s.seats_of(judge)[0], "judge accept"))
    a = accepted.duel
    assert a.active == 1 and a.given == (f"{d.letter}zzz",) and a.log[-1][2] == "judged"


def test_trust_mode_accepts_unknown_answers_at_once() -> None:
    s = started(2, judging="trust")
    d = s.duel
    s = play(s, (seat_of_running(s), f"answer 1500 {d.letter}zzz"))
    assert s.duel.active == 1 and s.duel.log[-1][2] == "trusted"


def test_any_team_member_may_answer_for_the_side() -> None:
    s = started(6, sides=2)
    d = s.duel
    members = s.seats_of(d.challenger)
    assert len(members) == 3 and G.to_move(s) == frozenset(members)
    s = play(s, (members[2], f"answer 800 {word(s)}"))
    assert s.duel.active == 1


def test_answer_and_pass_notation_is_canonical() -> None:
    s = started()
    assert G.notation(s, "  ANSWER  0900   Aalpha0 ") == "answer 900 Aalpha0"
    assert G.notation(s, "Pass 10") == "pass 10"
    assert G.notation(s, "challenge b2 b3") == "challenge B2 B3"
    assert G.notation(s, "take b3, a1") == "take A1,B3"
    for bad in ("pass", "answer x y", "answer 10", "judge maybe", "take", "fly"):
        with pytest.raises(InvalidActionError):
            G.notation(s, bad)


def test_trust_mode_a_disputed_answer_goes_to_the_judges_with_the_clock_stopped() -> None:
    s = started(3, judging="trust")
    d = s.duel
    first = d.letter
    s = play(s, (seat_of_running(s), f"answer 1500 {d.letter}zzz"))
    opp_letter = s.duel.letter
    disputer = seat_of_running(s)
    s = play(s, (disputer, "dispute 700"))
    e = s.duel
    assert e.judging == f"{first}zzz" and e.active == 0 and e.letter == first and e.given == ()
    assert e.clocks == (45000 - 1500, 45000 - 700)
    judge = next(x for x in range(3) if x not in (d.challenger, d.defender))
    assert G.to_move(s) == frozenset(s.seats_of(judge))
    acc = play(s, (s.seats_of(judge)[0], "judge accept"))
    assert acc.duel.active == 1 and acc.duel.letter == opp_letter and acc.duel.clocks == e.clocks
    rej = play(s, (s.seats_of(judge)[0], "judge reject"))
    assert rej.duel.active == 0 and rej.duel.letter == first


def test_only_the_last_unjudged_answer_can_be_disputed() -> None:
    s = started(2, judging="trust")
    with pytest.raises(IllegalActionError):
        G.apply(s, seat_of_running(s), "dispute 100")
    s = play(s, (seat_of_running(s), f"answer 100 {word(s)}"))
    with pytest.raises(IllegalActionError):
        G.apply(s, seat_of_running(s), "dispute 100")


def test_in_host_mode_the_hosts_own_answer_goes_to_the_players_not_in_the_duel() -> None:
    s = started(3, judging="host")
    d = s.duel
    assert seat_of_running(s) == 0
    s = play(s, (0, f"answer 1500 {d.letter}zzz"))
    judges = G.to_move(s)
    assert 0 not in judges and judges and all(s.seat_side[j] not in (d.challenger, d.defender) for j in judges)


def test_judges_vote_and_the_majority_decides() -> None:
    s = started(5)
    d = s.duel
    s = play(s, (seat_of_running(s), f"answer 1500 {d.letter}zzz"))
    judges = sorted(G.to_move(s))
    assert len(judges) == 3 and all(s.seat_side[j] not in (d.challenger, d.defender) for j in judges)
    s = play(s, (judges[0], "judge reject"))
    assert G.to_move(s) == frozenset(judges[1:]) and s.duel.judging
    with pytest.raises(NotYourTurnError):
        G.apply(s, judges[0], "judge accept")
    s = play(s, (judges[1], "judge accept"), (judges[2], "judge reject"))
    assert not s.duel.judging and s.duel.log[-1][2] == "rejected" and s.duel.active == 0


def test_a_judge_resigning_last_lets_the_cast_votes_decide() -> None:
    s = started(3)
    d = s.duel
    s = play(s, (seat_of_running(s), f"answer 1500 {d.letter}zzz"))
    judge = min(G.to_move(s))
    s = play(s, (judge, "resign"))
    assert G.to_move(s) == frozenset(s.seats_of(d.defender))  # nobody else: the opponent judges
