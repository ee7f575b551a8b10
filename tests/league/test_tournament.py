"""The tournament value (league/tournament.py): registration, every format played to the end with invariants at each
round, drops and late joins, walkovers, re-pairing, awarded results, the export's schema and JSON round-trips."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from league.model import Entrant
from league.settings import Settings, TournamentError
from league.tournament import FINISHED, Tournament

SIZES = {"swiss": 2, "round-robin": 2, "single-elimination": 2, "double-elimination": 2, "pods": 3, "score": 1}


def entered(fmt: str, n: int, *, seed: str = "t", **settings: object) -> Tournament:
    size = int(settings.pop("table_size", SIZES[fmt]))  # type: ignore[call-overload]
    t = Tournament("Cup", Settings(game="flying_blades", format=fmt, table_size=size, **settings), seed=seed)
    for i in range(n):
        t = t.register(Entrant(f"p{i:02d}", f"Player {i}", rating=2000 - 10 * i))
    return t


def play_round(t: Tournament, rng: random.Random) -> Tournament:
    rnd = t.current
    assert rnd is not None
    for i, table in enumerate(rnd.tables):
        if table.decided:
            continue
        if t.fmt == "score":
            t = t.record_scores(rnd.number, {p: float(rng.randint(0, 40)) for p in table.seats})
            continue
        seats = list(table.seats)
        rng.shuffle(seats)
        t = t.record(rnd.number, i, tuple((p,) for p in seats))
    return t


def check_round(t: Tournament) -> None:
    rnd = t.current
    assert rnd is not None
    placed = [p for table in rnd.tables for p in table.seats] + list(rnd.byes)
    assert len(placed) == len(set(placed)), "nobody sits twice in a round"
    if t.fmt not in ("single-elimination", "double-elimination"):
        active = {e.id for e in t.active(rnd.number)}
        assert set(placed) == active, "every active entrant is placed once a round"


def run(t: Tournament, seed: int = 1) -> Tournament:
    rng = random.Random(seed)
    t = t.start()
    for _ in range(200):
        if t.finished:
            break
        t = t.pair_next()
        check_round(t)
        assert Tournament.from_json(t.to_json()) == t
        t = play_round(t, rng)
    return t.close()


@pytest.mark.parametrize(("fmt", "n"), [("swiss", 9), ("swiss", 16), ("round-robin", 5), ("round-robin", 6),
                                        ("pods", 10), ("pods", 12), ("score", 7), ("single-elimination", 7),
                                        ("single-elimination", 16), ("double-elimination", 8),
                                        ("double-elimination", 11)])
def test_every_format_plays_to_the_end_with_every_entrant_ranked(fmt: str, n: int) -> None:
    t = run(entered(fmt, n))
    assert t.status == FINISHED
    standings = t.standings()
    assert sorted(s.player for s in standings) == sorted(e.id for e in t.entrants)
    ranks = [s.rank for s in standings]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_swiss_never_repeats_a_pairing_and_gives_a_bye_at_most_once() -> None:
    t = run(entered("swiss", 11, rounds=5))
    pairs = [frozenset(table.seats) for r in t.rounds for table in r.tables]
    assert len(pairs) == len(set(pairs))
    byes = [p for r in t.rounds for p in r.byes]
    assert len(byes) == len(set(byes)) == 5


def test_round_robin_meets_everyone_once() -> None:
    t = run(entered("round-robin", 6))
    pairs = sorted(tuple(sorted(table.seats)) for r in t.rounds for table in r.tables)
    assert pairs == sorted(combinations(sorted(e.id for e in t.entrants), 2))


def test_pods_avoid_repeated_table_mates() -> None:
    t = run(entered("pods", 12, rounds=4))
    met = [frozenset(pair) for r in t.rounds for table in r.tables for pair in combinations(table.seats, 2)]
    assert len(met) == len(set(met))


def test_a_drawn_elimination_game_sends_the_higher_seed_through_under_the_higher_seed_rule() -> None:
    t = entered("single-elimination", 2, draw_rule="higher_seed").start().pair_next()
    t = t.record(1, 0, (("p00", "p01"),))
    assert t.finished and t.standings()[0].player == "p00"


def test_a_dropped_player_loses_later_tables_by_walkover_and_stays_in_the_standings() -> None:
    t = entered("round-robin", 4).start().pair_next()
    t = play_round(t, random.Random(3)).drop("p03")
    t = t.pair_next()
    walkover = next(table for table in t.current.tables if "p03" in table.seats)
    assert walkover.decided and walkover.forfeited == ("p03",)
    dropped = next(s for s in t.standings() if s.player == "p03")
    assert dropped.dropped


def test_a_late_join_plays_from_the_next_round_with_the_points_given() -> None:
    t = entered("swiss", 6, late_join_rounds=2).start().pair_next()
    t = t.register(Entrant("late", "Late", start_points=0.5))
    assert t.entrant("late").joined_round == 2
    assert "late" not in {p for table in t.current.tables for p in table.seats}
    t = play_round(t, random.Random(1)).pair_next()
    assert "late" in {p for table in t.current.tables for p in table.seats} | set(t.current.byes)
    assert next(s for s in t.standings() if s.player == "late").points >= 0.5


def test_late_joins_are_refused_when_the_tournament_does_not_take_them() -> None:
    t = entered("swiss", 6).start().pair_next()
    with pytest.raises(TournamentError) as err:
        t.register(Entrant("late", "Late"))
    assert err.value.msg.key == "tour.no_late_join"


def test_registration_caps_duplicates_and_check_in() -> None:
    t = entered("swiss", 3, max_players=3, checkin=True)
    with pytest.raises(TournamentError) as err:
        t.register(Entrant("p99", "One too many"))
    assert err.value.msg.key == "tour.full"
    with pytest.raises(TournamentError) as err:
        t.register(Entrant("p00", "Again"))
    assert err.value.msg.key == "tour.already_entered"
    with pytest.raises(TournamentError) as err:
        t.check_in("p00").start()
    assert err.value.msg.key == "tour.not_enough", "only checked-in entrants are paired"
    started = t.check_in("p00").check_in("p01").start()
    assert [e.id for e in started.entrants] == ["p00", "p01"]


def test_a_round_is_re_paired_only_while_nothing_in_it_is_decided() -> None:
    t = entered("swiss", 6).start().pair_next()
    t = t.drop("p05").repair()
    assert "p05" not in {p for table in t.current.tables for p in table.seats}
    t = t.record(1, 0, ((t.current.tables[0].seats[0],), (t.current.tables[0].seats[1],)))
    with pytest.raises(TournamentError) as err:
        t.repair()
    assert err.value.msg.key == "tour.round_started"


def test_a_decided_table_changes_only_by_an_awarded_result() -> None:
    t = entered("swiss", 4).start().pair_next()
    a, b = t.current.tables[0].seats
    t = t.record(1, 0, ((a,), (b,)))
    with pytest.raises(TournamentError):
        t.record(1, 0, ((b,), (a,)))
    t = t.record(1, 0, ((b,), (a,)), override=True)
    assert t.current.tables[0].ranking == ((b,), (a,))


def test_a_ranking_must_place_exactly_the_tables_players() -> None:
    t = entered("swiss", 4).start().pair_next()
    a, _ = t.current.tables[0].seats
    with pytest.raises(TournamentError) as err:
        t.record(1, 0, ((a,), ("stranger",)))
    assert err.value.msg.key == "tour.bad_ranking"


def test_a_score_round_ranks_missing_entrants_last_as_forfeits() -> None:
    t = entered("score", 4).start().pair_next()
    t = t.record_scores(1, {"p00": 10, "p01": 30, "p02": 10}, missing=["p03"])
    assert t.current.tables[0].ranking == (("p01",), ("p00", "p02"), ("p03",))
    assert t.current.tables[0].forfeited == ("p03",)


def test_two_player_formats_refuse_bigger_tables() -> None:
    with pytest.raises(TournamentError) as err:
        Settings(game="flying_blades", format="swiss", table_size=3)
    assert err.value.msg.key == "tour.two_player_format"


def test_the_export_has_the_documented_shape() -> None:
    t = run(entered("pods", 7, rounds=2))
    out = t.export()
    assert {"game", "format", "players", "rounds", "standings"} <= out.keys()
    assert all({"id", "name"} == set(p) for p in out["players"])
    for rnd in out["rounds"]:
        assert {"number", "tables", "byes"} <= rnd.keys()
        for table in rnd["tables"]:
            assert set(p for g in table["ranking"] for p in g) == set(table["seats"])
    assert all({"player", "rank", "points", "tiebreaks"} <= s.keys() for s in out["standings"])


def test_a_late_entrant_gets_the_organisers_points_for_each_missed_round() -> None:
    t = entered("swiss", 6, late_join_rounds=3, late_points=0.5).start().pair_next()
    t = play_round(t, random.Random(2)).pair_next()
    t = play_round(t, random.Random(3))
    t = t.register(Entrant("late", "Late"))
    assert t.entrant("late").joined_round == 3 and t.entrant("late").start_points == 1.0


def test_closed_entries_refuse_a_join_until_reopened_and_only_before_the_start() -> None:
    t = entered("swiss", 2).set_registration(False)
    with pytest.raises(TournamentError) as err:
        t.register(Entrant("late", "Late"))
    assert err.value.msg.key == "tour.registration_closed"
    t = t.set_registration(True).register(Entrant("p99", "Another"))
    assert Tournament.from_json(t.to_json()) == t
    with pytest.raises(TournamentError) as err:
        t.start().set_registration(False)
    assert err.value.msg.key == "tour.already_started"
