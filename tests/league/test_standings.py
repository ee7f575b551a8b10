"""Standings and tie-breaks on small hand-computed events (expected values worked out in the comments)."""

from __future__ import annotations

import pytest

from league.model import Entrant, Ranking, Round, Table
from league.standings import (
    PODS,
    ROUND_ROBIN,
    SCORE_EVENT,
    SWISS,
    Scoring,
    Standing,
    score_event_ranking,
    standings,
    table_points,
)


def duel(winner: str, loser: str, *, draw: bool = False, forfeited: tuple[str, ...] = ()) -> Table:
    ranking: Ranking = ((winner, loser),) if draw else ((winner,), (loser,))
    return Table((winner, loser), ranking, forfeited=forfeited)


def pod(*ranking: tuple[str, ...]) -> Table:
    return Table(tuple(p for group in ranking for p in group), tuple(ranking))


def entrants(*ids: str) -> list[Entrant]:
    return [Entrant(i, i.upper()) for i in ids]


def by_player(rows: list[Standing]) -> dict[str, Standing]:
    return {s.player: s for s in rows}


# --- table points ------------------------------------------------------------------------------------------------


def test_two_player_table_scores_win_draw_loss_as_one_half_zero() -> None:
    assert table_points(duel("a", "b")) == {"a": 1.0, "b": 0.0}
    assert table_points(duel("a", "b", draw=True)) == {"a": 0.5, "b": 0.5}


def test_three_player_pod_scores_one_half_zero() -> None:
    assert table_points(pod(("a",), ("b",), ("c",))) == {"a": 1.0, "b": 0.5, "c": 0.0}


def test_tied_players_share_the_pairwise_points() -> None:
    # b and c: 0 against a, 1/2 against each other, 1 against d, over 3 table-mates = 1/2
    assert table_points(pod(("a",), ("b", "c"), ("d",))) == {"a": 1.0, "b": 0.5, "c": 0.5, "d": 0.0}


def test_forfeiter_scores_zero_whatever_the_ranking_says() -> None:
    table = Table(("a", "b"), (("a",), ("b",)), forfeited=("a",))
    assert table_points(table) == {"a": 0.0, "b": 1.0}


def test_double_forfeit_scores_zero_for_both() -> None:
    assert table_points(Table(("a", "b"), (("a", "b"),), forfeited=("a", "b"))) == {"a": 0.0, "b": 0.0}


def test_undecided_table_scores_nothing_yet() -> None:
    assert table_points(Table(("a", "b"))) == {}


def test_solo_table_scores_zero() -> None:
    assert table_points(Table(("a",), (("a",),))) == {"a": 0.0}


# --- Swiss: Buchholz, cut-1, Sonneborn-Berger, byes, drops --------------------------------------------------------


def swiss_with_draw_bye_and_drop() -> tuple[list[Entrant], list[Round]]:
    """4 players; d drops after round 2 so round 3 has a bye (a).

    R1 a>b, c=d   R2 a=c, b>d   R3 c>b, bye a.
    Points: a 1+.5+1 = 2.5, b 0+1+0 = 1, c .5+.5+1 = 2, d .5+0 = .5.
    """
    people = [Entrant("a", "A"), Entrant("b", "B"), Entrant("c", "C"), Entrant("d", "D", dropped_after=2)]
    rounds = [Round(1, (duel("a", "b"), duel("c", "d", draw=True))),
              Round(2, (duel("a", "c", draw=True), duel("b", "d"))),
              Round(3, (duel("c", "b"),), byes=("a",))]
    return people, rounds


def test_points_add_table_points_and_byes() -> None:
    rows = by_player(standings(*swiss_with_draw_bye_and_drop(), Scoring()))
    assert {p: s.points for p, s in rows.items()} == {"a": 2.5, "b": 1.0, "c": 2.0, "d": 0.5}
    assert (rows["a"].played, rows["a"].wins, rows["a"].byes) == (2, 1, 1)


def test_buchholz_dummy_opponent_for_own_unplayed_rounds_and_withdrawn_rounds_as_draws_fide_c07_16_3_16_4() -> None:
    rows = by_player(standings(*swiss_with_draw_bye_and_drop(), Scoring()))
    # d withdrew after round 2: round 3 is a zero-point bye followed by nothing (16.2.5), a draw for the opponents'
    # tie-breaks (16.3.2), so d counts 0.5 + 0.5 = 1 for b and c; for d's own tie-breaks a dummy with d's .5 (16.4).
    # a: b 1 + c 2 + bye (own 2.5) = 5.5;  b: a 2.5 + d 1 + c 2 = 5.5;  c: d 1 + a 2.5 + b 1 = 4.5;
    # d: c 2 + b 1 + dummy .5 = 3.5
    assert {p: s.tiebreaks["buchholz"] for p, s in rows.items()} == {"a": 5.5, "b": 5.5, "c": 4.5, "d": 3.5}


def test_buchholz_cut1_cuts_only_voluntarily_unplayed_rounds_first_fide_c07_16_5() -> None:
    rows = by_player(standings(*swiss_with_draw_bye_and_drop(), Scoring()))
    # a's pairing-allocated bye is no VUR: cut the least significant value, b's 1 -> 4.5 (it was 3 when the bye was
    # cut first);  b cuts d 1 -> 4.5;  c cuts d 1 -> 3.5;  d's round after withdrawing is a VUR: cut its .5 -> 3
    assert {p: s.tiebreaks["buchholz_cut1"] for p, s in rows.items()} == {"a": 4.5, "b": 4.5, "c": 3.5, "d": 3.0}


def test_buchholz_cut1_keeps_a_pairing_allocated_bye_worth_more_than_an_opponent_regression_7_players_s1() -> None:
    """`tournament simulate --players 7 --seed s1`: bot-7 (2.5 points, one bye) got 2.5; FIDE C.07 gives 4.0.

    g's record as there: beat a (1 point), drew b (1.5 points), a pairing-allocated bye. Buchholz 1 + 1.5 + dummy
    (own 2.5) = 5; cut-1 takes the lowest, a's 1, not the bye: 4.
    """
    people = entrants("a", "b", "g", "x", "y")
    rounds = [Round(1, (duel("g", "a"), duel("b", "x", draw=True)), byes=("y",)),
              Round(2, (duel("b", "g", draw=True), duel("a", "y", draw=True)), byes=("x",)),
              Round(3, (duel("y", "x"), duel("b", "a", draw=True)), byes=("g",))]
    rows = by_player(standings(people, rounds, Scoring()))
    assert (rows["g"].points, rows["a"].points, rows["b"].points) == (2.5, 1.0, 1.5)
    assert (rows["g"].tiebreaks["buchholz"], rows["g"].tiebreaks["buchholz_cut1"]) == (5.0, 4.0)


def test_buchholz_cut1_cuts_a_forfeit_loss_first_but_not_a_forfeit_win_fide_c07_16_1_2() -> None:
    # R1 a>b by b's forfeit   R2 a>c, b>d   R3 c>d, b=a: a 2.5, b 1.5, c 1, d 0
    rounds = [Round(1, (duel("a", "b", forfeited=("b",)), duel("c", "d"))),
              Round(2, (duel("a", "c"), duel("b", "d"))),
              Round(3, (duel("c", "d"), duel("a", "b", draw=True)))]
    rows = by_player(standings(entrants("a", "b", "c", "d"), rounds, Scoring()))
    # a: dummy (own 2.5, forfeit win: no VUR) + c 2 + b 1.5 = 6, cut the lowest b 1.5 -> 4.5
    assert (rows["a"].tiebreaks["buchholz"], rows["a"].tiebreaks["buchholz_cut1"]) == (6.0, 4.5)
    # b: dummy (own 1.5, forfeit loss: a VUR) + d 0 + a 2.5 = 4, cut the VUR 1.5 although d's 0 is lower -> 2.5
    assert (rows["b"].tiebreaks["buchholz"], rows["b"].tiebreaks["buchholz_cut1"]) == (4.0, 2.5)


def test_sonneborn_berger_weighs_opponents_by_result() -> None:
    rows = by_player(standings(*swiss_with_draw_bye_and_drop(), Scoring()))
    # a: beat b 1 + drew c 2/2 + bye 2.5×1 = 4.5;  b: beat d (adjusted 1) 1;  c: drew d .5 + drew a 1.25 + beat b 1
    # = 2.75;  d: drew c 1 + zero-point dummy 0
    assert {p: s.tiebreaks["sonneborn_berger"] for p, s in rows.items()} == {"a": 4.5, "b": 1.0, "c": 2.75, "d": 1.0}


def test_dropped_entrant_stays_in_standings_flagged() -> None:
    rows = standings(*swiss_with_draw_bye_and_drop(), Scoring())
    assert [(s.player, s.rank, s.dropped) for s in rows] == [
        ("a", 1, False), ("c", 2, False), ("b", 3, False), ("d", 4, True)]


def test_bye_points_are_configurable() -> None:
    rows = by_player(standings(*swiss_with_draw_bye_and_drop(), Scoring(bye_points=0.5)))
    assert rows["a"].points == 2.0
    # the bye's Sonneborn-Berger share follows: b 1 + c 1 + own 2 × .5 = 3
    assert rows["a"].tiebreaks["sonneborn_berger"] == 3.0


def test_buchholz_breaks_a_tie_on_points() -> None:
    # R1 a>b, c>d   R2 a>c, d>b: a 2, c 1, d 1, b 0.  c met a(2)+d(1) = 3, d met c(1)+b(0) = 1
    rounds = [Round(1, (duel("a", "b"), duel("c", "d"))), Round(2, (duel("a", "c"), duel("d", "b")))]
    rows = standings(entrants("a", "b", "c", "d"), rounds, Scoring(tiebreaks=SWISS))
    assert [(s.player, s.rank) for s in rows] == [("a", 1), ("c", 2), ("d", 3), ("b", 4)]
    assert (rows[1].tiebreaks["buchholz_cut1"], rows[2].tiebreaks["buchholz_cut1"]) == (2.0, 1.0)


# --- forfeits and late joins --------------------------------------------------------------------------------------


def test_forfeit_counts_as_a_dummy_opponent_for_both_players() -> None:
    # R1 a>b by b's forfeit, c>d   R2 c>a, b=d: a 1, b .5, c 2, d .5
    rounds = [Round(1, (duel("a", "b", forfeited=("b",)), duel("c", "d"))),
              Round(2, (duel("c", "a"), duel("b", "d", draw=True)))]
    rows = by_player(standings(entrants("a", "b", "c", "d"), rounds, Scoring()))
    assert rows["a"].points == 1.0 and rows["b"].points == 0.5
    # a: unplayed (own 1) + c 2 = 3, cut the unplayed 1 -> 2;  b: unplayed (own .5) + d .5 = 1
    assert (rows["a"].tiebreaks["buchholz"], rows["a"].tiebreaks["buchholz_cut1"]) == (3.0, 2.0)
    assert rows["b"].tiebreaks["buchholz"] == 1.0
    # a: forfeit win own 1×1 + lost to c = 1;  b: forfeit loss 0 + drew d .5×.5 = .25
    assert (rows["a"].tiebreaks["sonneborn_berger"], rows["b"].tiebreaks["sonneborn_berger"]) == (1.0, 0.25)
    assert (rows["a"].wins, rows["a"].played, rows["b"].played) == (1, 2, 2)


def test_late_join_starts_with_start_points() -> None:
    people = [*entrants("a", "b", "c"), Entrant("e", "E", joined_round=2, start_points=0.5)]
    rounds = [Round(1, (duel("a", "b"),), byes=("c",)), Round(2, (duel("e", "a"), duel("c", "b")))]
    rows = by_player(standings(people, rounds, Scoring()))
    assert {p: s.points for p, s in rows.items()} == {"a": 1.0, "b": 0.0, "c": 2.0, "e": 1.5}
    assert (rows["e"].played, rows["e"].byes) == (1, 0)


def test_undecided_tables_are_ignored() -> None:
    rounds = [Round(1, (duel("a", "b"), Table(("c", "d"))))]
    rows = by_player(standings(entrants("a", "b", "c", "d"), rounds, Scoring()))
    assert (rows["c"].points, rows["c"].played, rows["c"].tiebreaks["buchholz"]) == (0.0, 0, 0.0)
    assert rows["a"].tiebreaks["buchholz"] == 0.0  # b has 0 points


# --- shared ranks -------------------------------------------------------------------------------------------------


def test_complete_ties_share_a_rank_and_show_by_id() -> None:
    # b and c tie at .5 with equal Buchholz (1 + .5 + 0) and SB (.5 × .5): ranks 1, 2, 2, 4
    rows = standings(entrants("d", "c", "b", "a"), [Round(1, (pod(("a",), ("c", "b"), ("d",)),))], Scoring())
    assert [(s.player, s.rank) for s in rows] == [("a", 1), ("b", 2), ("c", 2), ("d", 4)]


def test_no_tiebreaks_ranks_by_points_only() -> None:
    rounds = [Round(1, (duel("a", "b", draw=True),))]
    rows = standings(entrants("b", "a"), rounds, Scoring(tiebreaks=()))
    assert [(s.player, s.rank, s.tiebreaks) for s in rows] == [("a", 1, {}), ("b", 1, {})]


def test_unknown_tiebreak_is_rejected() -> None:
    with pytest.raises(ValueError, match="median"):
        Scoring(tiebreaks=("median",))


# --- round robin: direct encounter -------------------------------------------------------------------------------


def test_direct_encounter_orders_players_tied_who_met() -> None:
    # R1 a>b, c>d   R2 a>c, b>d   R3 d>a, b>c: a 2, b 2, c 1, d 1; a beat b, c beat d
    rounds = [Round(1, (duel("a", "b"), duel("c", "d"))), Round(2, (duel("a", "c"), duel("b", "d"))),
              Round(3, (duel("d", "a"), duel("b", "c")))]
    rows = standings(entrants("a", "b", "c", "d"), rounds, Scoring(tiebreaks=("direct",)))
    assert [(s.player, s.rank, s.tiebreaks["direct"]) for s in rows] == [
        ("a", 1, 1.0), ("b", 2, 0.0), ("c", 3, 1.0), ("d", 4, 0.0)]


def test_direct_encounter_is_zero_unless_all_tied_players_met() -> None:
    # R1 a>b, c>d   R2 b>c, d>a: all on 1, but a never met c, nor b d
    rounds = [Round(1, (duel("a", "b"), duel("c", "d"))), Round(2, (duel("b", "c"), duel("d", "a")))]
    rows = standings(entrants("a", "b", "c", "d"), rounds, Scoring(tiebreaks=("direct",)))
    assert [(s.rank, s.tiebreaks["direct"]) for s in rows] == [(1, 0.0)] * 4


def test_direct_encounter_applies_among_players_still_tied_after_earlier_tiebreaks() -> None:
    # Same event. SB a: beat b 2 + c 1 = 3, b: beat d 1 + c 1 = 2, c: beat d 1 = 1, d: beat a 2 = 2. SB splits
    # both ties on points first, so each direct group is a single player and scores 0 (not a's 1 over b).
    rounds = [Round(1, (duel("a", "b"), duel("c", "d"))), Round(2, (duel("a", "c"), duel("b", "d"))),
              Round(3, (duel("d", "a"), duel("b", "c")))]
    rows = standings(entrants("a", "b", "c", "d"), rounds, Scoring(tiebreaks=ROUND_ROBIN))
    assert [(s.player, s.tiebreaks["sonneborn_berger"], s.tiebreaks["direct"]) for s in rows] == [
        ("a", 3.0, 0.0), ("b", 2.0, 0.0), ("d", 2.0, 0.0), ("c", 1.0, 0.0)]


# --- pods -------------------------------------------------------------------------------------------------------


def pod_event() -> list[Round]:
    """6 players, 3-player pods, 2 rounds.

    R1 a>b>c, d>e>f   R2 e>a>f, (b=d)>c.
    Points: a 1+.5 = 1.5, b .5+.75 = 1.25, c 0, d 1+.75 = 1.75, e .5+1 = 1.5, f 0.
    """
    return [Round(1, (pod(("a",), ("b",), ("c",)), pod(("d",), ("e",), ("f",)))),
            Round(2, (pod(("e",), ("a",), ("f",)), pod(("b", "d"), ("c",))))]


def test_pod_points_follow_the_pairwise_rule() -> None:
    rows = by_player(standings(entrants(*"abcdef"), pod_event(), Scoring(tiebreaks=PODS)))
    assert {p: s.points for p, s in rows.items()} == {"a": 1.5, "b": 1.25, "c": 0.0, "d": 1.75, "e": 1.5, "f": 0.0}


def test_opponents_points_average_table_mates_once_per_table() -> None:
    rows = by_player(standings(entrants(*"abcdef"), pod_event(), Scoring(tiebreaks=PODS)))
    # a: b 1.25 + c 0 + e 1.5 + f 0 = 2.75 / 4;  e: d 1.75 + f 0 + a 1.5 + f 0 = 3.25 / 4
    # c: a 1.5 + b 1.25 + b 1.25 + d 1.75 = 5.75 / 4;  f: d 1.75 + e 1.5 + e 1.5 + a 1.5 = 6.25 / 4
    got = {p: s.tiebreaks["opponents_points"] for p, s in rows.items()}
    assert (got["a"], got["e"], got["c"], got["f"]) == (0.6875, 0.8125, 1.4375, 1.5625)


def test_pod_tiebreaks_order_the_field() -> None:
    rows = standings(entrants(*"abcdef"), pod_event(), Scoring(tiebreaks=PODS))
    assert [(s.player, s.rank) for s in rows] == [("d", 1), ("e", 2), ("a", 3), ("b", 4), ("f", 5), ("c", 6)]
    got = by_player(rows)
    assert {p: s.tiebreaks["firsts"] for p, s in got.items()} == {
        "a": 1.0, "b": 0.0, "c": 0.0, "d": 1.0, "e": 1.0, "f": 0.0}  # b shares first in R2: not a sole first
    assert (got["a"].tiebreaks["table_points_avg"], got["d"].tiebreaks["table_points_avg"]) == (0.75, 0.875)


def test_pod_buchholz_and_sonneborn_berger_use_every_table_mate() -> None:
    rows = by_player(standings(entrants(*"abcdef"), pod_event(), Scoring(tiebreaks=("buchholz", "sonneborn_berger"))))
    # SB a: beat b 1.25 + beat c 0 + lost to e + beat f 0 = 1.25;  e: lost to d + beat f 0 + beat a 1.5 + f 0 = 1.5
    # SB b: lost to a + beat c 0 + drew d 1.75/2 + beat c 0 = .875
    assert (rows["a"].tiebreaks["buchholz"], rows["e"].tiebreaks["buchholz"]) == (2.75, 3.25)
    assert {p: rows[p].tiebreaks["sonneborn_berger"] for p in "abe"} == {"a": 1.25, "b": 0.875, "e": 1.5}


# --- score events -----------------------------------------------------------------------------------------------


def test_score_event_ranking_groups_equal_scores() -> None:
    scores = {"a": 10.0, "b": 30.0, "c": 10.0}
    assert score_event_ranking(scores) == (("b",), ("a", "c"))
    assert score_event_ranking(scores, higher_is_better=False) == (("a", "c"), ("b",))


def test_score_event_best_round_breaks_a_tie_on_points() -> None:
    # R1 b 30 > c 20 > a 10   R2 a 40 > c 20 > b 5: everyone on 1 point; best rounds a 40, b 30, c 20
    r1, r2 = {"a": 10.0, "b": 30.0, "c": 20.0}, {"a": 40.0, "b": 5.0, "c": 20.0}
    rounds = [Round(n, (Table(("a", "b", "c"), score_event_ranking(s), scores=s),)) for n, s in ((1, r1), (2, r2))]
    rows = standings(entrants("a", "b", "c"), rounds, Scoring(tiebreaks=SCORE_EVENT))
    assert [(s.player, s.rank, s.points, s.tiebreaks) for s in rows] == [
        ("a", 1, 1.0, {"best_round": 40.0, "total_score": 50.0}),
        ("b", 2, 1.0, {"best_round": 30.0, "total_score": 35.0}),
        ("c", 3, 1.0, {"best_round": 20.0, "total_score": 40.0})]
