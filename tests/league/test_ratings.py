"""Ratings over openskill PlackettLuce; expected numbers come from /work/shared/notes/tournament-libraries.md."""

from __future__ import annotations

import random
import statistics

import pytest

from league.ratings import Rating, rate_coop, rate_scores, rate_table, rate_teams, win_probability


def test_winner_goes_up_and_loser_goes_down() -> None:
    after = rate_table({}, (("a",), ("b",)))
    assert after["a"].mu > 25.0 > after["b"].mu


def test_draw_between_equals_leaves_mu_unchanged() -> None:
    after = rate_table({}, (("a", "b"),))
    assert after["a"].mu == pytest.approx(25.0) and after["b"].mu == pytest.approx(25.0)
    assert after["a"].sigma < 25 / 3


def test_tying_for_second_moves_mu_between_a_clean_second_and_a_clean_third() -> None:
    # openskill alone rated a tie for 2nd exactly as a clean 3rd (24.69) and the last player as if it beat someone
    shared = rate_table({}, (("a",), ("b", "c"), ("d",)))
    clean = rate_table({}, (("a",), ("b",), ("c",), ("d",)))
    assert clean["c"].mu < shared["b"].mu == shared["c"].mu < clean["b"].mu
    assert shared["b"].mu == pytest.approx((clean["b"].mu + clean["c"].mu) / 2)
    assert shared["d"].mu == pytest.approx(clean["d"].mu)  # last is last, however the players above it tied


def test_a_tie_among_unequal_players_is_rated_as_the_mean_of_its_tie_breaks() -> None:
    start = {"a": Rating(30.0, 4.0, 9), "b": Rating(22.0, 6.0, 3), "c": Rating(26.0, 8.0, 1), "d": Rating()}
    shared = rate_table(start, (("c",), ("a", "b"), ("d",)))
    one = rate_table(start, (("c",), ("a",), ("b",), ("d",)))
    other = rate_table(start, (("c",), ("b",), ("a",), ("d",)))
    for p in "abcd":
        assert shared[p].mu == pytest.approx((one[p].mu + other[p].mu) / 2)
        assert shared[p].sigma == pytest.approx((one[p].sigma + other[p].sigma) / 2)
        assert shared[p].games == start[p].games + 1


def test_five_way_tie_leaves_displayed_ratings_unchanged_for_equal_players() -> None:
    before = {p: Rating(27.0, 5.0, 12) for p in "abcde"}
    after = rate_table(before, (tuple("abcde"),))
    assert all(after[p].display == before[p].display for p in "abcde")
    assert all(after[p].sigma < before[p].sigma for p in "abcde")  # the tie still tells something


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


def test_display_is_mu_on_an_elo_like_scale_whatever_sigma() -> None:
    # 400 / ln 10 / (√2 · 25/6) ≈ 29.48 points per mu: 200 points ≈ 76% to win between settled players
    assert Rating(mu=30.0, sigma=5.0).display == Rating(mu=30.0, sigma=1.0).display == 1647
    assert Rating(mu=20.0).display == 1353


def test_leaderboard_order_stays_conservative() -> None:
    assert Rating(mu=30.0, sigma=5.0).conservative == pytest.approx(15.0)


def test_sigma_shrinks_and_games_count_with_every_game() -> None:
    ratings: dict[str, Rating] = {}
    sigmas = []
    for _ in range(3):
        ratings = rate_table(ratings, (("a",), ("b",)))
        sigmas.append(ratings["b"].sigma)
    assert 25 / 3 > sigmas[0] > sigmas[1] > sigmas[2]
    assert ratings["a"].games == ratings["b"].games == 3


def test_provisional_mark_while_sigma_is_high() -> None:
    assert Rating().provisional()
    assert Rating(sigma=6.6, games=40).provisional()  # many games, still uncertain
    assert not Rating(sigma=6.4, games=5).provisional()
    assert not Rating(sigma=7.0).provisional(threshold=7.0)


def test_provisional_mark_goes_after_about_a_dozen_games_of_two() -> None:
    ratings: dict[str, Rating] = {}
    games = 0
    while ratings.get("a", Rating()).provisional():
        ratings = rate_table(ratings, (("a",), (f"x{games}",)) if games % 2 else ((f"x{games}",), ("a",)))
        games += 1
    assert 8 <= games <= 16


def _equal_field(seed: int, games: int) -> dict[str, Rating]:
    """Ten players of equal strength at random tables of 2 to 5 in random order: everyone is a 50% player."""
    rng = random.Random(f"fifty/{seed}")
    ids = [f"p{i}" for i in range(10)]
    ratings: dict[str, Rating] = {}
    for _ in range(games):
        table = rng.sample(ids, rng.choice((2, 3, 4, 5)))
        ratings = rate_table(ratings, tuple((p,) for p in table))
    return ratings


def test_a_fifty_percent_players_displayed_rating_does_not_drift_upward() -> None:
    # the old display (mu − 3σ) showed such players 700+ points up after 50 games each; mu stays put on average
    for games in (50, 200):
        shown = [r.display for seed in range(20) for r in _equal_field(seed, games).values()]
        assert statistics.fmean(shown) == pytest.approx(1500, abs=10)
        assert statistics.fmean(r.games for seed in range(3) for r in _equal_field(seed, games).values()) > 10


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
