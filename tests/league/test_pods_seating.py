"""Pods seat everyone: tables of the size asked and one less whenever the field splits that way (issue 22)."""

from __future__ import annotations

import pytest

from league.model import Entrant
from league.pods import PodPlayer, pod_pairing, table_sizes
from league.settings import Settings
from league.tournament import Tournament


def most_seated(n: int, low: int, high: int) -> int:
    """Brute force: the most of n players that tables of low..high seat."""
    reachable = {0}
    for total in range(1, n + 1):
        if any(total - s in reachable for s in range(low, high + 1)):
            reachable.add(total)
    return max(reachable)


@pytest.mark.parametrize("size", [3, 4, 5])
@pytest.mark.parametrize("n", range(3, 41))
def test_pods_seat_everyone_when_the_field_splits_into_tables_of_size_and_one_less(n: int, size: int) -> None:
    sizes, byes = table_sizes(n, size, min_size=size - 1, max_size=size)
    assert byes == n - most_seated(n, size - 1, size)  # no split seats more: the fewest byes
    assert sum(sizes) + byes == n and all(size - 1 <= s <= size for s in sizes)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_pod_settings_default_to_tables_of_the_size_and_one_less(size: int) -> None:
    assert Settings(game="g", format="pods", table_size=size).sizes == (size - 1, size)
    assert Settings(game="g", format="pods", table_size=size, min_size=size).sizes == (size, size)


def test_nine_players_at_tables_of_five_sit_5_and_4_with_no_bye_regression() -> None:
    """`--players 9 --table-size 5` left four players out every round (one table of 5, four byes)."""
    players = [PodPlayer(f"p{i}", 0.0, 1500.0, frozenset(), (), 0) for i in range(9)]
    pairing = pod_pairing(players, 5, min_size=4, max_size=5, rng_seed="t:1")
    assert sorted(len(t) for t in pairing.tables) == [4, 5] and pairing.byes == ()
    t = Tournament("x", Settings(game="flying_blades", format="pods", table_size=5), "s1",
                   entrants=tuple(Entrant(f"p{i}", f"P{i}") for i in range(9)))
    rnd = t.start().pair_next().rounds[-1]
    assert sorted(len(tb.seats) for tb in rnd.tables) == [4, 5] and rnd.byes == ()


def test_pod_bye_defaults_below_a_table_win_and_follows_the_organiser() -> None:
    assert Settings(game="g", format="pods", table_size=4).bye_value == 0.5  # the average table points
    assert Settings(game="g", format="swiss").bye_value == 1.0
    assert Settings(game="g", format="pods", table_size=4, bye_points=0.25).bye_value == 0.25


def test_settings_stored_without_the_new_keys_load_with_the_defaults() -> None:
    old = {"game": "g", "format": "pods", "table_size": 4, "bye_points": 1.0}
    s = Settings.from_json(old)
    assert (s.bye_value, s.tiebreaks) == (1.0, ())
    assert Settings.from_json(Settings(game="g", format="swiss", tiebreaks=("buchholz", "wins")).to_json()) == \
        Settings(game="g", format="swiss", tiebreaks=("buchholz", "wins"))
