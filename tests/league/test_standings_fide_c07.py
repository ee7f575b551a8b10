"""FIDE C.07 Play-off and Tie-Break Regulations (approved 01/08/2023, applied from 1 September 2023):
Article 6 direct encounter when not every tied player met, and Article 15.2 forfeits in a round robin.
Text: https://handbook.fide.com/chapter/TieBreakRegulations042024"""

from __future__ import annotations

from league.model import Entrant, Ranking, Round, Table
from league.standings import Scoring, Standing, standings


def duel(winner: str, loser: str, *, draw: bool = False, forfeited: tuple[str, ...] = ()) -> Table:
    ranking: Ranking = ((winner, loser),) if draw else ((winner,), (loser,))
    return Table((winner, loser), ranking, forfeited=forfeited)


def entrants(*ids: str) -> list[Entrant]:
    return [Entrant(i, i.upper()) for i in ids]


def by_player(rows: list[Standing]) -> dict[str, Standing]:
    return {s.player: s for s in rows}


DIRECT = Scoring(tiebreaks=("direct",))


def test_c07_6_2_all_tied_met_separate_standings_rank_them_and_article_6_is_reapplied_to_a_sub_tie() -> None:
    """6.2: "If all the tied participants have met each other, the sum of points from these encounters is used to
    produce separate standings"; a sub-group still tied there is ranked again by Art. 6 on its own games."""
    # a, b, c, d all end on 2. Among them: a beat b and c, lost to d; b beat c and d; c beat d: separate standings
    # a 2, b 2, c 1, d 1; then a beat b and c beat d. c and d also beat the outsiders x and y in round 4.
    rounds = [Round(1, (duel("a", "b"), duel("c", "d"))), Round(2, (duel("a", "c"), duel("b", "d"))),
              Round(3, (duel("d", "a"), duel("b", "c"))), Round(4, (duel("c", "x"), duel("d", "y")))]
    rows = by_player(standings(entrants(*"abcdxy"), rounds, DIRECT))
    assert {rows[p].points for p in "abcd"} == {2.0}
    assert [rows[p].tiebreaks["direct"] for p in "abcd"] == [3.0, 2.0, 1.0, 0.0]
    assert [rows[p].rank for p in "abcd"] == [1, 2, 3, 4]


def test_c07_6_3_not_all_met_the_player_alone_on_top_whatever_the_missing_games_ranks_first() -> None:
    """6.3 (Swiss): if not all the tied players met, one who stays alone at the top of the separate standings
    "whatever the outcome of the missing games" ranks first; the others stay tied unless Art. 6 splits them."""
    # a, b, c on 2. a beat b and c; b and c never met: a has 2 among them, b and c at most 1 each: a first.
    rounds = [Round(1, (duel("a", "b"), duel("c", "u"), duel("v", "w"))),
              Round(2, (duel("a", "c"), duel("b", "u"), duel("w", "v"))),
              Round(3, (duel("z", "a"), duel("b", "v"), duel("c", "w")))]
    rows = by_player(standings(entrants("a", "b", "c", "u", "v", "w", "z"), rounds, DIRECT))
    assert {p for p, s in rows.items() if s.points == 2.0} == {"a", "b", "c"}
    assert rows["a"].rank == 1
    assert rows["b"].rank == rows["c"].rank == 2  # they never met: the missing game could go either way
    assert [rows[p].tiebreaks["direct"] for p in "abc"] == [2.0, 0.0, 0.0]


def test_c07_6_3_nobody_is_sure_of_the_top_so_direct_encounter_leaves_the_tie() -> None:
    # a, b, c, d all on 1: a beat b, c beat d, b beat c, d beat a; a-c and b-d missing: anyone could top it.
    rounds = [Round(1, (duel("a", "b"), duel("c", "d"))), Round(2, (duel("b", "c"), duel("d", "a")))]
    rows = standings(entrants(*"abcd"), rounds, DIRECT)
    assert {s.rank for s in rows} == {1} and {s.tiebreaks["direct"] for s in rows} == {0.0}


# a beat b by forfeit, then lost to c; b beat d: a and b tied on 1, c on 2, d on 0.
FORFEIT_BETWEEN_TIED = [Round(1, (duel("a", "b", forfeited=("b",)), duel("c", "d"))),
                        Round(2, (duel("c", "a"), duel("b", "d")))]


def test_c07_6_1_1_a_forfeit_between_tied_swiss_players_is_not_a_direct_encounter() -> None:
    """6.1.1: "Forfeit wins and losses ... are excluded" (outside 15.2): a and b tied, their only game a forfeit."""
    rows = by_player(standings(entrants(*"abcd"), FORFEIT_BETWEEN_TIED, DIRECT))
    assert rows["a"].points == rows["b"].points == 1.0
    assert rows["a"].tiebreaks["direct"] == rows["b"].tiebreaks["direct"] == 0.0


def test_c07_15_2_round_robin_forfeit_is_a_regular_game_for_sonneborn_berger() -> None:
    """15.2: "in round-robin tournaments ... forfeits are treated as regular games": no dummy opponent, the
    forfeiter's real score counts for the winner."""
    # Round robin a, b, c: a beat b, b beat c by forfeit (c did not come), a beat c. a 2, b 1, c 0.
    rounds = [Round(1, (duel("a", "b"),)), Round(2, (duel("b", "c", forfeited=("c",)),)), Round(3, (duel("a", "c"),))]
    rr = by_player(standings(entrants(*"abc"), rounds, Scoring(tiebreaks=("sonneborn_berger",), round_robin=True)))
    swiss = by_player(standings(entrants(*"abc"), rounds, Scoring(tiebreaks=("sonneborn_berger",))))
    assert rr["b"].tiebreaks["sonneborn_berger"] == 0.0  # beat c, who has 0
    assert swiss["b"].tiebreaks["sonneborn_berger"] == 1.0  # Art. 16.4: a win against a dummy holding b's own 1


def test_c07_15_2_round_robin_forfeit_counts_the_real_opponent_not_the_dummy() -> None:
    # a beat c by forfeit; a also beat b; b beat c. a 2, b 1, c 0.
    rounds = [Round(1, (duel("a", "b"),)), Round(2, (duel("b", "c"),)), Round(3, (duel("a", "c", forfeited=("c",)),))]
    rr = by_player(standings(entrants(*"abc"), rounds, Scoring(tiebreaks=("buchholz",), round_robin=True)))
    swiss = by_player(standings(entrants(*"abc"), rounds, Scoring(tiebreaks=("buchholz",))))
    assert rr["a"].tiebreaks["buchholz"] == 1.0 + 0.0  # b's 1 and c's real 0
    assert swiss["a"].tiebreaks["buchholz"] == 1.0 + 2.0  # Art. 16.4: the dummy holds a's own 2
    assert rr["c"].tiebreaks["buchholz"] == 2.0 + 1.0  # c meets a's 2 and b's 1 (swiss: dummy 0 for the forfeit)
    assert swiss["c"].tiebreaks["buchholz"] == 1.0 + 0.0


def test_c07_15_2_round_robin_forfeits_count_in_direct_encounter() -> None:
    rows = by_player(standings(entrants(*"abcd"), FORFEIT_BETWEEN_TIED,
                               Scoring(tiebreaks=("direct",), round_robin=True)))
    assert rows["a"].points == rows["b"].points == 1.0
    assert (rows["a"].tiebreaks["direct"], rows["b"].tiebreaks["direct"]) == (1.0, 0.0)


def test_c07_15_2_a_round_robin_withdrawal_leaves_walkovers_counted_once_as_regular_games() -> None:
    """15.2: in a round robin "forfeits are the only possible unplayed rounds": a player who withdraws after round 1
    loses the later games by walkover, each counted once (before: a walkover and a zero-point dummy round too)."""
    import random

    from tests.league.test_tournament_manual import entered, play

    t = play(entered("round-robin", 4).start().pair_next(), random.Random(1)).drop("p3")
    while not t.finished:
        t = play(t.pair_next(), random.Random(2))
    assert t.scoring.round_robin
    gone = by_player(t.standings())["p3"]
    assert gone.played == 3
    contributions = len(t.rounds)  # one Buchholz contribution a round: the real opponent's score
    rows = by_player(standings(t.entrants, t.rounds, Scoring(tiebreaks=("buchholz",), round_robin=True)))
    scores = {p: s.points for p, s in rows.items()}
    opponents = [o for r in t.rounds for tb in r.tables if "p3" in tb.seats for o in tb.seats if o != "p3"]
    assert len(opponents) == contributions
    assert rows["p3"].tiebreaks["buchholz"] == sum(scores[o] for o in opponents)
