"""Manual control before a round is paired (issue 22): a requested half-point bye, ... Every change is logged in
the tournament value and shown in the JSON export under ``manual_changes``."""

from __future__ import annotations

import random

import pytest

from league import export as ex
from league.model import Entrant
from league.settings import Settings, TournamentError
from league.tournament import Tournament


def entered(fmt: str = "swiss", n: int = 6, **settings: object) -> Tournament:
    size = 3 if fmt == "pods" else 2
    t = Tournament("Cup", Settings(game="flying_blades", format=fmt, table_size=size, **settings), seed="m")
    for i in range(n):
        t = t.register(Entrant(f"p{i}", f"Player {i}", rating=2000 - 10 * i))
    return t


def play(t: Tournament, rng: random.Random) -> Tournament:
    rnd = t.current
    assert rnd is not None
    for i, table in enumerate(rnd.tables):
        if not table.decided:
            seats = list(table.seats)
            rng.shuffle(seats)
            t = t.record(rnd.number, i, tuple((p,) for p in seats))
    return t


def seated(t: Tournament) -> set[str]:
    rnd = t.current
    assert rnd is not None
    return {p for table in rnd.tables for p in table.seats} | set(rnd.byes)


def test_requested_half_bye_sits_the_round_out_and_scores_the_setting() -> None:
    t = entered(rounds=3).start().request_bye("p2", 2, by="org")
    rng = random.Random(1)
    t = play(t.pair_next(), rng)
    before = {s.player: s.points for s in t.standings()}["p2"]
    t = t.pair_next()
    assert "p2" not in seated(t) and t.current is not None and t.current.half_byes == ("p2",)
    p2 = {s.player: s for s in play(t, rng).standings()}["p2"]
    assert p2.points == before + 0.5 and p2.half_byes == 1


def test_half_bye_value_is_the_organisers_setting() -> None:
    t = entered(rounds=2, half_bye_points=0.0).start().request_bye("p0", 1, by="p0").pair_next()
    t = play(t, random.Random(2))
    assert {s.player: s.points for s in t.standings()}["p0"] == 0.0


def test_half_bye_is_a_voluntary_unplayed_round_cut_first_by_buchholz_cut1() -> None:
    t = entered(rounds=3).start().request_bye("p1", 2, by="p1")
    rng = random.Random(3)
    for _ in range(3):
        t = play(t.pair_next(), rng)
    p1 = {s.player: s for s in t.standings()}["p1"]
    # FIDE C.07 16.5: the requested bye's dummy contribution (the player's own points) is the one cut.
    assert p1.tiebreaks["buchholz_cut1"] == pytest.approx(p1.tiebreaks["buchholz"] - p1.points)


def test_half_bye_must_be_asked_before_its_round_is_paired() -> None:
    t = entered(rounds=3).start().pair_next()
    with pytest.raises(TournamentError) as err:
        t.request_bye("p0", 1, by="org")
    assert err.value.msg.key == "tour.round_paired"


def test_half_byes_per_entrant_are_capped_by_the_setting() -> None:
    t = entered(rounds=3).start().request_bye("p0", 2, by="p0")
    with pytest.raises(TournamentError) as err:
        t.request_bye("p0", 3, by="p0")
    assert err.value.msg.key == "tour.half_byes_used"
    two = entered(rounds=3, max_half_byes=2).start().request_bye("p0", 2, by="p0").request_bye("p0", 3, by="p0")
    assert len(two.bye_requests) == 2


def test_half_bye_refused_for_a_round_past_the_event_or_twice_for_the_same_round() -> None:
    t = entered(rounds=3, max_half_byes=2).start()
    with pytest.raises(TournamentError) as err:
        t.request_bye("p0", 4, by="p0")
    assert err.value.msg.key == "tour.no_round"
    with pytest.raises(TournamentError) as err:
        t.request_bye("p0", 2, by="p0").request_bye("p0", 2, by="p0")
    assert err.value.msg.key == "tour.half_bye_already"


@pytest.mark.parametrize("fmt", ["round-robin", "single-elimination"])
def test_half_bye_refused_where_the_schedule_is_fixed(fmt: str) -> None:
    with pytest.raises(TournamentError) as err:
        entered(fmt, 4).start().request_bye("p0", 1, by="p0")
    assert err.value.msg.key == "tour.no_half_bye"


def test_half_bye_in_pods_seats_everyone_else() -> None:
    t = entered("pods", 7, rounds=2).start().request_bye("p3", 1, by="org").pair_next()
    assert "p3" not in seated(t) and seated(t) == {f"p{i}" for i in range(7)} - {"p3"}


def test_half_bye_is_logged_and_shown_in_every_export() -> None:
    t = entered(rounds=2).start().request_bye("p4", 1, by="org-9").pair_next()
    t = play(t, random.Random(4))
    data = ex.json_export(t)
    assert data["manual_changes"] == [{"action": "half_bye", "players": ["p4"], "round": 1, "by": "org-9"}]
    assert data["rounds"][0]["half_byes"] == ["p4"]
    assert {"game", "format", "name", "status", "players", "rounds", "standings"} <= data.keys()
    row = next(r for r in ex.crosstable(t) if r.player == "p4")
    assert row.cells[0].result == "H"
    trf_line = next(line for line in ex.trf(t).splitlines() if "Player 4" in line)
    assert trf_line[91:99] == "0000 - H"


def test_half_bye_request_and_log_round_trip_through_json_and_old_records_load() -> None:
    t = entered(rounds=2).start().request_bye("p4", 2, by="org").pair_next()
    assert Tournament.from_json(t.to_json()) == t
    old = t.to_json()
    for key in ("bye_requests", "log"):
        del old[key]
    for key in ("half_bye_points", "max_half_byes"):
        del old["settings"][key]
    loaded = Tournament.from_json(old)
    assert loaded.log == () and loaded.settings.half_bye_points == 0.5 and loaded.settings.max_half_byes == 1


# --- re-admitting a player who left ----------------------------------------------------------------------------------


def test_readmitted_player_is_paired_again_from_the_next_round_with_their_points() -> None:
    rng = random.Random(5)
    t = play(entered(rounds=3).start().pair_next(), rng)
    points = {s.player: s.points for s in t.standings()}["p1"]
    t = t.drop("p1")
    t = play(t.pair_next(), rng)
    assert "p1" not in seated(t)
    t = t.readmit("p1", by="org").pair_next()
    assert "p1" in seated(t)
    p1 = {s.player: s for s in play(t, rng).standings()}["p1"]
    assert not p1.dropped and p1.played == 2
    assert p1.points >= points and t.entrant("p1").missed == (2,)


def test_readmitted_players_missed_round_is_unplayed_and_cut_first_by_buchholz_cut1() -> None:
    rng = random.Random(6)
    t = play(entered(rounds=3).start().pair_next(), rng).drop("p2")
    t = play(t.pair_next(), rng).readmit("p2", by="org")
    t = play(t.pair_next(), rng)
    p2 = {s.player: s for s in t.standings()}["p2"]
    assert p2.tiebreaks["buchholz_cut1"] == pytest.approx(p2.tiebreaks["buchholz"] - p2.points)
    row = next(r for r in ex.crosstable(t) if r.player == "p2")
    assert row.cells[1].result == "" and row.cells[2].result in ("1", "=", "0")
    trf_line = next(line for line in ex.trf(t).splitlines() if "Player 2" in line)
    assert trf_line[101:109] == "0000 - Z"


def test_readmit_dropped_during_an_open_round_misses_no_round() -> None:
    t = entered(rounds=3).start().pair_next().drop("p0").readmit("p0", by="org")
    assert t.entrant("p0").missed == () and t.entrant("p0").dropped_after is None


def test_readmit_is_only_for_a_player_who_left_and_not_in_a_bracket() -> None:
    t = entered(rounds=3).start()
    with pytest.raises(TournamentError) as err:
        t.readmit("p0", by="org")
    assert err.value.msg.key == "tour.not_dropped"
    bracket = entered("single-elimination", 4).start().pair_next().drop("p0")
    with pytest.raises(TournamentError) as err:
        bracket.readmit("p0", by="org")
    assert err.value.msg.key == "tour.no_readmit"


def test_readmit_is_logged_and_round_trips_through_json() -> None:
    t = play(entered(rounds=3).start().pair_next(), random.Random(7)).drop("p3").readmit("p3", by="org-1")
    assert Tournament.from_json(t.to_json()) == t
    assert ex.json_export(t)["manual_changes"] == [{"action": "readmit", "players": ["p3"], "round": 2,
                                                    "by": "org-1"}]


# --- forbidding a pairing (same team or clan) ------------------------------------------------------------------------


def met_pairs(t: Tournament) -> set[frozenset[str]]:
    return {frozenset((a, b)) for rnd in t.rounds for table in rnd.tables for a in table.seats for b in table.seats
            if a != b}


@pytest.mark.parametrize("seed", range(6))
def test_forbidden_pair_never_meets_in_swiss(seed: int) -> None:
    # p0 v p3 is round 1's top board for 6 players by rating (top half against bottom half): forbid exactly it.
    t = entered(n=6, rounds=3).forbid("p3", "p0", by="org").start()
    rng = random.Random(seed)
    for _ in range(3):
        t = play(t.pair_next(), rng)
    assert frozenset(("p0", "p3")) not in met_pairs(t)


@pytest.mark.parametrize("seed", range(6))
def test_forbidden_pair_never_shares_a_pod(seed: int) -> None:
    t = entered("pods", 9, rounds=2).start().forbid("p0", "p1", by="org")
    rng = random.Random(seed)
    for _ in range(2):
        t = play(t.pair_next(), rng)
    assert frozenset(("p0", "p1")) not in met_pairs(t)


def test_allow_undoes_forbid_and_both_are_logged() -> None:
    t = entered(n=4, rounds=2).forbid("p0", "p2", by="org").allow("p2", "p0", by="org2")
    assert t.forbidden == ()
    assert [(x["action"], x["players"], x["by"]) for x in t.export()["manual_changes"]] == [
        ("forbid", ["p0", "p2"], "org"), ("allow", ["p0", "p2"], "org2")]
    t = t.start().pair_next()
    assert frozenset(("p0", "p2")) in met_pairs(t), "allowed again: round 1 pairs them by rating as usual"


def test_forbid_refuses_twice_self_strangers_and_fixed_formats() -> None:
    t = entered(n=4).forbid("p0", "p1", by="org")
    for args, key in ((("p1", "p0"), "tour.already_forbidden"), (("p2", "p2"), "tour.forbid_self"),
                      (("p0", "zz"), "tour.not_entered")):
        with pytest.raises(TournamentError) as err:
            t.forbid(*args, by="org")
        assert err.value.msg.key == key
    with pytest.raises(TournamentError) as err:
        t.allow("p2", "p3", by="org")
    assert err.value.msg.key == "tour.not_forbidden"
    with pytest.raises(TournamentError) as err:
        entered("round-robin", 4).forbid("p0", "p1", by="org")
    assert err.value.msg.key == "tour.no_forbid"


def test_forbidden_pairs_round_trip_through_json_and_show_in_the_export() -> None:
    t = entered(n=4).forbid("p0", "p1", by="org").start().pair_next()
    assert Tournament.from_json(t.to_json()) == t
    assert ex.json_export(t)["forbidden_pairs"] == [["p0", "p1"]]


# --- swapping two players, forcing a pairing (the current round, before any game is decided) -----------------------


def tables_of(t: Tournament) -> list[tuple[str, ...]]:
    assert t.current is not None
    return [table.seats for table in t.current.tables]


def test_swap_moves_each_player_to_the_others_seat_and_clears_both_games() -> None:
    t = entered(n=6, rounds=3).start().pair_next()
    t = t.linked(1, 0, 101).linked(1, 1, 102).linked(1, 2, 103)
    first, second, third = tables_of(t)
    out = t.swap(first[0], second[1], by="org")
    assert tables_of(out) == [(second[1], first[1]), (second[0], first[0]), third]
    assert [table.game_id for table in out.current.tables] == [None, None, 103]
    assert out.log[-1] == {"action": "swap", "players": [first[0], second[1]], "round": 1, "by": "org"}


def test_force_pairs_the_two_and_their_opponents_together() -> None:
    t = entered(n=6, rounds=3).start().pair_next()
    (a, c), (b, d), third = tables_of(t)
    out = t.force(a, b, by="org")
    assert {frozenset(x) for x in tables_of(out)} == {frozenset((a, b)), frozenset((c, d)), frozenset(third)}
    assert out.log[-1] == {"action": "force", "players": [a, b], "round": 1, "by": "org"}


def test_force_in_pods_seats_the_two_at_one_table() -> None:
    t = entered("pods", 6, rounds=2).start().pair_next()
    a, b = tables_of(t)[0][0], tables_of(t)[1][0]
    out = t.force(a, b, by="org")
    assert any({a, b} <= set(table) for table in tables_of(out))
    assert sorted(p for table in tables_of(out) for p in table) == sorted(f"p{i}" for i in range(6))


def test_swap_and_force_refused_once_a_game_of_the_round_is_decided() -> None:
    t = entered(n=6, rounds=3).start().pair_next()
    (a, _), (b, _), _ = tables_of(t)
    t = t.record(1, 2, tuple((p,) for p in tables_of(t)[2]))
    for step in (t.swap, t.force):
        with pytest.raises(TournamentError) as err:
            step(a, b, by="org")
        assert err.value.msg.key == "tour.round_started"


def test_swap_refuses_table_mates_players_not_seated_and_fixed_formats() -> None:
    t = entered(n=5, rounds=3).start().pair_next()
    (a, c), _ = tables_of(t)
    bye = t.current.byes[0]
    for args, key in (((a, c), "tour.same_table"), ((a, bye), "tour.not_seated")):
        with pytest.raises(TournamentError) as err:
            t.swap(*args, by="org")
        assert err.value.msg.key == key
    with pytest.raises(TournamentError) as err:
        t.force(a, c, by="org")
    assert err.value.msg.key == "tour.already_together"
    with pytest.raises(TournamentError) as err:
        entered("round-robin", 4).start().pair_next().swap("p0", "p1", by="org")
    assert err.value.msg.key == "tour.no_rearrange"
