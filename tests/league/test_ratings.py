"""Ratings over openskill PlackettLuce; expected numbers come from /work/shared/notes/tournament-libraries.md."""

from __future__ import annotations

import pytest

from league.ratings import Rating, rate_coop, rate_scores, rate_table, rate_teams, win_probability


def test_winner_goes_up_and_loser_goes_down() -> None:
    after = rate_table({}, (("a",), ("b",)))
    assert after["a"].mu > 25.0 > after["b"].mu


def test_draw_between_equals_leaves_mu_unchanged() -> None:
    after = rate_table({}, (("a", "b"),))
    assert after["a"].mu == pytest.approx(25.0) and after["b"].mu == pytest.approx(25.0)
    assert after["a"].sigma < 25 / 3


def test_four_player_tie_for_second_matches_the_measured_case() -> None:
    # notes: ranks [1, 2, 2, 4] -> A 27.80, B and C 24.69, D 22.83
    after = rate_table({}, (("a",), ("b", "c"), ("d",)))
    assert [after[p].mu for p in "abcd"] == pytest.approx([27.80, 24.69, 24.69, 22.83], abs=0.01)


def test_scores_give_the_same_update_as_the_equivalent_ranking() -> None:
    # notes: scores [30, 20, 20, 5] give the same result as ranks [1, 2, 2, 4]
    by_scores = rate_scores({}, {"a": 30.0, "b": 20.0, "c": 20.0, "d": 5.0})
    by_rank = rate_table({}, (("a",), ("b", "c"), ("d",)))
    for p in "abcd":
        assert (by_scores[p].mu, by_scores[p].sigma) == pytest.approx((by_rank[p].mu, by_rank[p].sigma))
        assert by_scores[p].games == 1


def test_team_win_matches_the_measured_two_vs_two_case() -> None:
    # notes: a 2v2 win moves the winners to 26.96 and the losers to 23.04
    after = rate_teams({}, [["a", "b"], ["c", "d"]], [1, 2])
    assert [after[p].mu for p in "abcd"] == pytest.approx([26.96, 26.96, 23.04, 23.04], abs=0.01)


def test_team_draw_leaves_mu_unchanged() -> None:
    after = rate_teams({}, [["a", "b"], ["c", "d"]], [1, 1])
    assert [after[p].mu for p in "abcd"] == pytest.approx([25.0] * 4)


def test_newcomer_displays_1500() -> None:
    assert Rating().display == 1500


def test_display_is_ordinal_scaled_by_60_around_1500() -> None:
    # 60 × (30 − 3 × 5) + 1500 = 2400
    assert Rating(mu=30.0, sigma=5.0).display == 2400


def test_sigma_shrinks_and_games_count_with_every_game() -> None:
    ratings: dict[str, Rating] = {}
    sigmas = []
    for _ in range(3):
        ratings = rate_table(ratings, (("a",), ("b",)))
        sigmas.append(ratings["b"].sigma)
    assert 25 / 3 > sigmas[0] > sigmas[1] > sigmas[2]
    assert ratings["a"].games == ratings["b"].games == 3


def test_provisional_flag_flips_at_the_threshold() -> None:
    assert Rating(games=9).provisional()
    assert not Rating(games=10).provisional()
    assert not Rating(games=4).provisional(threshold=4)


def test_rating_does_not_mutate_its_input() -> None:
    before = {"a": Rating(27.0, 7.0, 5), "z": Rating(20.0, 6.0, 2)}
    snapshot = dict(before)
    after = rate_table(before, (("b",), ("a",)))
    assert before == snapshot
    assert after["z"] == before["z"]  # players not at the table are carried over unchanged
    assert after["b"].games == 1 and after["a"].games == 6


def test_rating_the_same_table_twice_gives_the_same_output() -> None:
    start = {"a": Rating(27.0, 7.0, 5), "b": Rating(23.0, 8.0, 1)}
    ranking = (("b",), ("a",), ("c",))
    assert rate_table(start, ranking) == rate_table(start, ranking)


def test_coop_win_lifts_the_team_and_leaves_the_game_fixed() -> None:
    game = Rating(30.0, 2.0)
    won, lost = rate_coop({}, ["a", "b"], True, game), rate_coop({}, ["a", "b"], False, game)
    assert won["a"].mu > 25.0 > lost["a"].mu
    assert won["a"] == won["b"] and won["a"].games == 1
    assert set(won) == {"a", "b"}  # the virtual opponent is never stored


def test_coop_difficulty_is_per_seat_so_an_average_team_faces_an_even_match_at_any_size() -> None:
    # an even match moves mu the same distance up on a win as down on a loss; a single virtual opponent would not
    for size in (1, 2, 4):
        team = [str(i) for i in range(size)]
        won, lost = rate_coop({}, team, True, Rating()), rate_coop({}, team, False, Rating())
        assert won["0"].mu - 25.0 == pytest.approx(25.0 - lost["0"].mu)
        assert won["0"].mu > 25.0


def test_win_probability_is_even_between_equals_and_favours_the_stronger() -> None:
    assert win_probability({}, ["a", "b", "c"]) == pytest.approx({"a": 1 / 3, "b": 1 / 3, "c": 1 / 3})
    odds = win_probability({"a": Rating(30.0, 3.0)}, ["a", "b"])
    assert odds["a"] > 0.5 > odds["b"]
    assert sum(odds.values()) == pytest.approx(1.0)


def test_a_table_of_one_leaves_ratings_unchanged() -> None:
    before = {"a": Rating(26.0, 8.0, 3)}
    assert rate_table(before, (("a",),)) == before
    assert win_probability(before, ["a"]) == {"a": 1.0}
