"""More rounds than a field can play are refused or capped, never paired with rematches or second byes
(league/tournament.py: most_rounds, check_rounds, Tournament.start); organiser settings are validated."""

from __future__ import annotations

from collections import Counter

import pytest

from league.settings import Settings, TournamentError, check_rounds, most_rounds
from league.tournament import Tournament
from tests.league.test_tournament import entered, run


def meetings(t: Tournament) -> tuple[Counter[frozenset[str]], Counter[str]]:
    pairs: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for rnd in t.rounds:
        pairs.update(frozenset(table.seats) for table in rnd.tables)
        byes.update(rnd.byes)
    return pairs, byes


@pytest.mark.parametrize(("players", "most"), [(2, 1), (3, 3), (4, 3), (5, 3), (6, 3), (8, 4), (9, 5), (64, 32)])
def test_swiss_allows_half_the_field_rounded_up_and_a_whole_round_robin_up_to_4(players: int, most: int) -> None:
    assert most_rounds(Settings(game="flying_blades", format="swiss"), players) == most


@pytest.mark.parametrize(("players", "rounds"), [(4, 10), (5, 8), (4, 4), (5, 5), (6, 4)])
def test_swiss_rounds_past_the_fields_bound_are_refused(players: int, rounds: int) -> None:
    with pytest.raises(TournamentError) as e:
        check_rounds(Settings(game="flying_blades", format="swiss", rounds=rounds), players)
    assert e.value.msg.key == "tour.too_many_rounds"


@pytest.mark.parametrize("players", range(2, 13))
@pytest.mark.parametrize("seed", range(4))
def test_swiss_at_the_bound_pairs_no_rematch_and_no_second_bye(players: int, seed: int) -> None:
    # Before: 5 players over 5 rounds and 6 over 4 paired rematches in some seeds; the bound stops short of that.
    rounds = most_rounds(Settings(game="flying_blades", format="swiss"), players)
    assert rounds is not None
    t = run(entered("swiss", players, rounds=rounds, seed=f"s{seed}"), seed)
    pairs, byes = meetings(t)
    assert len(t.rounds) == rounds
    assert max(pairs.values()) == 1 and max(byes.values(), default=0) <= 1


def test_pods_rounds_past_meeting_anyone_new_are_refused() -> None:
    # 25 players at tables of exactly 3 (8 tables, a bye): each round a seated player meets 2 others, so after 12
    # rounds all 24 others are met and a 13th would only repeat table-mates.
    sizes = {"game": "flying_blades", "format": "pods", "table_size": 3, "min_size": 3, "max_size": 3}
    assert most_rounds(Settings(**sizes), 25) == 12  # type: ignore[arg-type]
    with pytest.raises(TournamentError):
        check_rounds(Settings(**sizes, rounds=13), 25)  # type: ignore[arg-type]
    check_rounds(Settings(**sizes, rounds=12), 25)  # type: ignore[arg-type]


def test_fixed_formats_and_score_events_have_no_rounds_bound() -> None:
    for fmt, size in (("round-robin", 2), ("single-elimination", 2), ("score", 1)):
        assert most_rounds(Settings(game="floor_plan", format=fmt, table_size=size), 4) is None


def test_a_smaller_checked_in_field_than_the_rounds_need_plays_the_most_rounds_it_can() -> None:
    t = entered("swiss", 8, rounds=7, checkin=True)
    for p in ("p00", "p01", "p02", "p03"):
        t = t.check_in(p)
    started = t.start()
    assert started.planned == 3 and started.settings.rounds == 7  # 4 players: 3 rounds, not 7 with rematches
    pairs, _ = meetings(run(t))
    assert max(pairs.values()) == 1


def test_the_default_pods_rounds_are_capped_where_table_mates_would_repeat() -> None:
    # 6 at tables of 3 (min 3): a player meets 2 a round, so the recommended 3 rounds would only repeat in the 3rd.
    t = entered("pods", 6, table_size=3, min_size=3).start()
    assert t.planned == most_rounds(t.settings, 6) == 2


@pytest.mark.parametrize("settings", [
    {"format": "swiss", "min_size": 2},
    {"format": "pods", "table_size": 4, "min_size": 5},
    {"format": "pods", "table_size": 4, "max_size": 3},
    {"format": "pods", "table_size": 4, "max_size": 11},
    {"format": "pods", "table_size": 4, "min_size": 1},
    {"format": "swiss", "bye_points": 1.5},
    {"format": "swiss", "bye_points": -0.5},
    {"format": "swiss", "rounds": -1},
])
def test_organiser_settings_out_of_range_are_refused(settings: dict[str, object]) -> None:
    with pytest.raises(TournamentError):
        Settings(game="flying_blades", **settings)  # type: ignore[arg-type]


def test_pod_table_sizes_and_bye_value_round_trip_and_old_rows_load_with_defaults() -> None:
    s = Settings(game="flying_blades", format="pods", table_size=4, min_size=3, max_size=5, bye_points=0.5,
                 grand_final_reset=False)
    assert Settings.from_json(s.to_json()) == s
    old = {k: v for k, v in s.to_json().items() if k not in ("min_size", "max_size", "bye_points")}
    assert Settings.from_json(old) == Settings(game="flying_blades", format="pods", table_size=4,
                                               grand_final_reset=False)
