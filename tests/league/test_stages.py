"""Multi-stage events (league/stages.py): a Swiss or pods stage then a top cut, groups then a playoff; seeds,
the third-place match, final places, refusals, old stored tournaments, a restart between stages, and a seeded
simulated run of each plan."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cli import invoke
from engine import Engine
from engine.simulate import simulate
from engine.tournaments import Director
from league import elimination as elim
from league import stages as stg
from league.model import Entrant
from league.settings import Settings, TournamentError
from league.tournament import FINISHED, Tournament
from rules import GAMES
from storage import SqliteStore as Store


def entrants(n: int) -> list[Entrant]:
    return [Entrant(f"p{i}", f"P{i}", rating=2000 - 10 * i) for i in range(1, n + 1)]


def started(settings: Settings, n: int) -> Tournament:
    t = Tournament("Cup", settings, seed="stages")
    for e in entrants(n):
        t = t.register(e)
    return t.start()


def play_round(t: Tournament) -> Tournament:
    """Pair the next round; at every table the better-numbered player wins (p1 beats everyone)."""
    t = t.pair_next()
    rnd = t.current
    assert rnd is not None
    for i, table in enumerate(rnd.tables):
        if not table.decided:
            t = t.record(rnd.number, i, tuple((p,) for p in sorted(table.seats, key=lambda p: int(p[1:]))))
    return t


def first_stage(settings: Settings, n: int) -> Tournament:
    t = started(settings, n)
    while not t.playoff_due:
        t = play_round(t)
    return t


def played_out(settings: Settings, n: int) -> Tournament:
    t = started(settings, n)
    while not t.finished:
        t = play_round(t)
    return t.close()


def ranks(t: Tournament) -> dict[str, int]:
    return {s.player: s.rank for s in t.standings()}


# --- top cut ----------------------------------------------------------------------------------------------------


def test_a_top_cut_of_8_is_seeded_by_the_swiss_standings_1_v_8_and_4_v_5() -> None:
    """Issue 22: "a top cut (top 4/8/16 ...), seeded by the Swiss standings"."""
    t = first_stage(Settings(game="flying_blades", format="swiss", rounds=4, top_cut=8), 12)
    order = [s.player for s in t.standings()]
    t = t.pair_next()
    assert t.stages[1].seeds == tuple(order[:8]) and t.stages[1].first_round == 5
    assert t.bracket is not None
    first = {m.id: m.slots for m in t.bracket.matches if m.id.startswith("W1-")}
    s = order
    assert first == {"W1-1": (s[0], s[7]), "W1-2": (s[3], s[4]), "W1-3": (s[1], s[6]), "W1-4": (s[2], s[5])}
    assert {p for table in t.current.tables for p in table.seats} == set(s[:8]), "the playoff's round 1 is paired"


def test_a_player_who_dropped_in_the_swiss_is_not_cut_the_next_one_is() -> None:
    t = started(Settings(game="flying_blades", format="swiss", rounds=3, top_cut=4), 8)
    t = play_round(t).drop("p1")
    while not t.playoff_due:
        t = play_round(t)
    order = [s.player for s in t.standings() if s.player != "p1"]
    assert t.next_stage().stages[1].seeds == tuple(order[:4])


def test_the_third_place_match_decides_3rd_and_4th() -> None:
    """Issue 22: "a 3rd-place match": the semi-final losers play beside the final; its winner is 3rd."""
    t = played_out(Settings(game="flying_blades", format="swiss", rounds=3, top_cut=4), 8)
    assert t.bracket is not None
    third = t.bracket.match(elim.THIRD)
    final = t.bracket.match("W2-1")
    assert third.play_round == final.play_round and third.winner is not None
    (fourth,) = third.losers
    (second,) = final.losers
    r = ranks(t)
    assert (r[final.winner], r[second], r[third.winner], r[fourth]) == (1, 2, 3, 4)


def test_without_a_third_place_match_the_semi_final_losers_share_3rd() -> None:
    t = played_out(Settings(game="flying_blades", format="swiss", rounds=3, top_cut=4, third_place=False), 8)
    assert t.bracket is not None and all(m.id != elim.THIRD for m in t.bracket.matches)
    assert sorted(ranks(t).values())[:4] == [1, 2, 3, 3]


def test_players_not_cut_are_ranked_below_the_cut_by_their_first_stage_standing() -> None:
    t = first_stage(Settings(game="flying_blades", format="swiss", rounds=3, top_cut=4), 10)
    points = {s.player: s.points for s in t.standings()}
    swiss = [s.player for s in t.standings()]
    while not t.finished:
        t = play_round(t)
    final = t.close().standings()
    assert {s.player: s.points for s in final} == points, "one meaning for points: the first stage's"
    assert [s.player for s in final[4:]] == swiss[4:]
    assert [s.rank for s in final[4:]] == list(range(5, 11))
    assert sorted(s.player for s in final) == sorted(e.id for e in t.entrants), "every entrant ranked once"


def test_a_double_elimination_cut_plays_to_a_champion() -> None:
    t = played_out(Settings(game="flying_blades", format="swiss", rounds=3, top_cut=4, cut_format="double"), 6)
    assert t.stages[1].format == "double-elimination" and t.status == FINISHED
    assert t.standings()[0].player == "p1" and len(t.standings()) == 6


# --- groups -----------------------------------------------------------------------------------------------------


def test_groups_are_snake_seeded_by_rating() -> None:
    """A B C D D C B A: each pool's total seed strength is as even as the order allows."""
    ids = [f"p{i}" for i in range(1, 13)]
    assert stg.snake(ids, 3) == (("p1", "p6", "p7", "p12"), ("p2", "p5", "p8", "p11"), ("p3", "p4", "p9", "p10"))
    t = started(Settings(game="flying_blades", format="round-robin", groups=2), 8)
    assert t.stages[0].groups == (("p1", "p4", "p5", "p8"), ("p2", "p3", "p6", "p7"))
    assert t.planned == 3, "4-player pools: 3 rounds, played side by side"
    t = play_round(t)
    pool = {p: g for g, members in enumerate(t.stages[0].groups) for p in members}
    assert all(pool[a] == pool[b] for a, b in (table.seats for table in t.current.tables)), "pool mates only"


def test_the_group_playoff_is_cross_seeded_a1_v_b2_and_b1_v_a2() -> None:
    t = first_stage(Settings(game="flying_blades", format="round-robin", groups=2, advance=2), 8)
    t = t.pair_next()
    assert t.bracket is not None
    # Pool A is p1 p4 p5 p8 and B p2 p3 p6 p7; the better number wins, so A1 = p1, A2 = p4, B1 = p2, B2 = p3.
    assert t.bracket.match("W1-1").slots == ("p1", "p3") and t.bracket.match("W1-2").slots == ("p2", "p4")


def test_four_pools_never_pair_pool_mates_in_the_playoffs_first_round() -> None:
    tables = [["a1", "a2"], ["b1", "b2"], ["c1", "c2"], ["d1", "d2"]]
    bracket = elim.single_elimination(stg.cross_seeds(tables, 2))
    firsts = [m.slots for m in bracket.matches if m.round == 1]
    assert ("a1", "b2") in firsts and all(a[0] != b[0] for a, b in firsts)


def test_a_group_stage_ranks_non_advancing_players_by_place_then_points() -> None:
    t = played_out(Settings(game="flying_blades", format="round-robin", groups=2, advance=2), 8)
    r = ranks(t)
    assert r["p5"] == r["p6"] == 5 and r["p8"] == r["p7"] == 7, "pool 3rds tie at 5th, 4ths at 7th"
    assert sorted(r, key=r.get)[:4] == ["p1", "p2", "p3", "p4"]


# --- refusals and stored values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("settings", "key"), [
    ({"format": "swiss", "top_cut": 5}, "tour.bad_top_cut"),
    ({"format": "round-robin", "top_cut": 4}, "tour.cut_needs_swiss"),
    ({"format": "single-elimination", "top_cut": 4}, "tour.cut_needs_swiss"),
    ({"format": "swiss", "groups": 2}, "tour.groups_need_round_robin"),
    ({"format": "round-robin", "groups": 2, "top_cut": 4}, "tour.cut_and_groups"),
    ({"format": "round-robin", "groups": 1, "advance": 1}, "tour.playoff_too_small"),
    ({"format": "swiss", "top_cut": 4, "cut_format": "triple"}, "tour.bad_cut_format"),
    ({"format": "swiss", "top_cut": 8, "max_players": 6}, "tour.cut_too_large"),
    ({"format": "round-robin", "groups": 3, "max_players": 8}, "tour.groups_too_small"),
])
def test_a_bad_stage_plan_is_refused_when_the_settings_are_made(settings: dict, key: str) -> None:
    with pytest.raises(TournamentError) as caught:
        Settings(game="flying_blades", **settings)
    assert caught.value.msg.key == key


@pytest.mark.parametrize(("settings", "n", "key"), [
    ({"format": "swiss", "top_cut": 8}, 6, "tour.cut_too_large"),
    ({"format": "round-robin", "groups": 3}, 8, "tour.groups_too_small"),
    ({"format": "round-robin", "groups": 2, "advance": 3}, 6, "tour.advance_whole_group"),
])
def test_a_field_the_stage_plan_cannot_fill_is_refused_at_the_start(settings: dict, n: int, key: str) -> None:
    with pytest.raises(TournamentError) as caught:
        started(Settings(game="flying_blades", **settings), n)
    assert caught.value.msg.key == key


def test_a_tournament_stored_without_stage_keys_loads_unchanged() -> None:
    t = play_round(started(Settings(game="flying_blades", format="swiss", rounds=3), 6))
    old = t.to_json()
    del old["stages"]
    for key in ("top_cut", "cut_format", "third_place", "groups", "advance"):
        del old["settings"][key]
    loaded = Tournament.from_json(old)
    assert loaded == t and loaded.stages == () and not loaded.playoff_due
    assert "stages" in loaded.export() and loaded.export()["stages"] == []


def test_a_multi_stage_tournament_round_trips_through_json_and_exports_its_stages() -> None:
    t = played_out(Settings(game="flying_blades", format="swiss", rounds=3, top_cut=4), 6)
    assert Tournament.from_json(t.to_json()) == t
    out = t.export()
    assert out["format"] == "swiss" and {"rounds", "standings", "matches", "players"} <= out.keys()
    assert [s["format"] for s in out["stages"]] == ["swiss", "single-elimination"]
    assert out["stages"][0]["rounds"] == [1, 2, 3] and out["stages"][1]["rounds"] == [4, 5]


# --- through the engine -----------------------------------------------------------------------------------------


HUMANS = [Entrant(str(100 + i), f"Player {i}", rating=1500 - i) for i in range(6)]


async def award_round(director: Director, tid: int) -> None:
    entry = await director.get(tid)
    rnd = entry.value.current
    assert rnd is not None
    for i, table in enumerate(rnd.tables):
        if not table.decided:
            await director.award(tid, rnd.number, i, tuple((p,) for p in table.seats))


async def test_a_restart_between_stages_builds_the_playoff_from_the_stored_swiss(db_path: Path, clock,
                                                                                   games: dict) -> None:
    store = await Store.open(db_path)
    director = Director(Engine(store, games=games, now=clock))
    entry = await director.create(name="Cup", settings=Settings(game="nim", format="swiss", rounds=2, top_cut=4),
                                  guild_id=9, channel_id=1, organizer_id=1, seed="cup-secret")
    tid = entry.row.id
    for e in HUMANS:
        await director.update(tid, lambda t, e=e: t.register(e))
    await director.start(tid)
    await award_round(director, tid)
    await director.pause(tid)  # the stop: stage 1's last result comes in, nothing after it
    await award_round(director, tid)
    value = (await director.get(tid)).value
    assert value.playoff_due and len(value.rounds) == 2 and value.bracket is None
    swiss = [s.player for s in value.standings()]
    await store.close()

    store = await Store.open(db_path)
    director = Director(Engine(store, games=games, now=clock))
    told: list[tuple[str, int]] = []

    async def listen(kind: str, row: object, t: Tournament) -> None:
        told.append((kind, len(t.stages)))

    director.add_listener(listen)
    await director.catch_up()
    entry = await director.resume(tid)
    value = entry.value
    assert [k for k, _ in told] == ["cut", "round"] and told[0][1] == 2
    assert value.stages[1].seeds == tuple(swiss[:4]) and value.current is not None and value.current.number == 3
    assert {frozenset(t.seats) for t in value.current.tables} == {frozenset((swiss[0], swiss[3])),
                                                                  frozenset((swiss[1], swiss[2]))}
    assert all(t.game_id is not None for t in value.current.tables)
    await award_round(director, tid)  # the semi-finals
    await award_round(director, tid)  # the final and the third-place match
    value = (await director.get(tid)).value
    assert value.status == FINISHED and len(value.standings()) == 6
    await store.close()


@pytest.mark.parametrize(("fmt", "players", "table_size", "plan"), [
    ("swiss", 6, 2, {"top_cut": 4}),
    ("swiss", 8, 2, {"top_cut": 4, "cut_format": "double"}),
    ("pods", 9, 3, {"top_cut": 4, "rounds": 2}),
    ("round-robin", 6, 2, {"groups": 2, "advance": 2}),
])
async def test_a_seeded_simulation_of_each_stage_plan_plays_to_the_end(fmt: str, players: int, table_size: int,
                                                                      plan: dict) -> None:
    settings = Settings(game="flying_blades", format=fmt, table_size=table_size, **plan)
    sim = await simulate(game="flying_blades", fmt=fmt, players=players, table_size=table_size, seed="stages",
                         settings=settings)
    t = sim.tournament
    assert t.status == FINISHED and len(t.stages) == 2 and t.bracket is not None and t.bracket.finished
    table = t.standings()
    assert sorted(s.player for s in table) == sorted(e.id for e in t.entrants)
    assert table[0].rank == 1 and [s.rank for s in table] == sorted(s.rank for s in table)
    assert {s.player for s in table[:len(t.stages[1].seeds)]} == set(t.stages[1].seeds), "the playoff ranks first"


# --- deciding games (a drawn elimination game replayed) ---------------------------------------------------------


async def test_a_deciding_game_made_at_the_round_deadline_gets_a_whole_round_not_the_10_minute_retry(
        store: Store, clock) -> None:
    """Before: the deciding game of a draw adjudicated at the deadline was itself adjudicated 10 minutes later."""
    engine = Engine(store, games=dict(GAMES), now=clock)
    director = Director(engine)
    told: list[str] = []

    async def listen(kind: str, row: object, t: Tournament) -> None:
        told.append(kind)

    director.add_listener(listen)
    entry = await director.create(name="Cup", settings=Settings(game="flying_blades", format="single-elimination",
                                                                round_hours=24),
                                  guild_id=9, channel_id=1, organizer_id=1, seed="cup-secret")
    for e in HUMANS[:2]:
        await director.update(entry.row.id, lambda t, e=e: t.register(e))
    await director.start(entry.row.id)
    clock.advance(hours=25)  # nobody moved: the game is adjudicated level, a draw, and replayed
    await engine.run_due()
    await director.settle()
    entry = await director.get(entry.row.id)
    rnd = entry.value.current
    assert rnd is not None and rnd.extra.get("replays") and rnd.tables[0].game_id is not None
    assert entry.row.due_at == clock() + timedelta(hours=24)
    assert told.count("replay") == 1, "the deciding game is posted like a round's game"
    clock.advance(minutes=11)
    await engine.run_due()
    await director.settle()
    assert (await engine.get(rnd.tables[0].game_id)).status == "active"


# --- the simulate command ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "words"), [
    (["--format", "swiss", "--players", "6", "--top-cut", "8"], "larger than the field of 6"),
    (["--format", "round-robin", "--players", "8", "--top-cut", "4"], "follows a Swiss or pods stage"),
    (["--format", "round-robin", "--players", "8", "--groups", "3"], "at least 3 players each"),
    (["--format", "swiss", "--players", "8", "--groups", "2"], "Groups are round-robin pools"),
    (["--format", "swiss", "--players", "8", "--top-cut", "4", "--export", "{tmp}/x.trf"], "TRF describes"),
])
def test_simulate_refuses_a_bad_stage_plan_before_the_first_game_with_exit_2(
        args: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "simulate", "--game", "flying_blades", *(a.format(tmp=tmp_path) for a in args)]
    assert invoke(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and not list(tmp_path.iterdir())
