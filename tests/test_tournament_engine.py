"""Tournaments through the real engine (engine/tournaments.py): bots play whole tournaments in fake time; human
entrants' games wait for moves, survive a restart, and are adjudicated at the round's deadline; a drop resigns the
running game; the headless simulation's command line prints the standings and writes the export."""

from __future__ import annotations

from datetime import timedelta
from itertools import combinations
from pathlib import Path

import orjson
import pytest

from cli import invoke
from engine import Engine
from engine.simulate import simulate
from engine.tournaments import TOURNAMENT, Director
from league.model import Entrant
from league.settings import Settings
from league.tournament import FINISHED, RUNNING
from rules import GAMES
from storage import SqliteStore as Store

HUMANS = [Entrant(str(100 + i), f"Player {i}", rating=1500 - i) for i in range(6)]


@pytest.fixture
def games() -> dict:
    return dict(GAMES)


async def entered(director: Director, settings: Settings, entrants: list[Entrant]) -> int:
    entry = await director.create(name="Cup", settings=settings, guild_id=9, channel_id=1, organizer_id=1,
                                  seed="cup-secret-seed")
    for e in entrants:
        await director.update(entry.row.id, lambda t, e=e: t.register(e))
    return entry.row.id


async def play_out(engine: Engine, game_id: int) -> None:
    """Every human seat moves as the bot would, until the game ends."""
    for _ in range(5000):
        table = await engine.get(game_id)
        if table.status != "active":
            return
        seat = min(table.to_move())
        await engine.act(game_id, table.seats[seat].user_id, table.rules.bot_action(table.state, seat))


def current_games(director_value: object) -> list[int]:
    rnd = director_value.current  # type: ignore[attr-defined]
    return [t.game_id for t in rnd.tables if t.game_id is not None and not t.decided]


async def test_a_64_player_swiss_of_3_player_pods_is_played_out_by_bots() -> None:
    sim = await simulate(game="flying_blades", fmt="swiss", players=64, table_size=3, rounds=4, seed="pods64")
    t = sim.tournament
    assert t.status == FINISHED and t.fmt == "pods" and len(t.rounds) == 4
    for rnd in t.rounds:
        placed = [p for table in rnd.tables for p in table.seats] + list(rnd.byes)
        assert sorted(placed) == sorted(e.id for e in t.entrants), "every entrant placed once a round"
        assert all(len(table.seats) in (2, 3, 4) and table.decided for table in rnd.tables)
    met = [frozenset(p) for rnd in t.rounds for table in rnd.tables for p in combinations(table.seats, 2)]
    assert len(met) == len(set(met)), "no repeated table-mates"
    assert sim.games == sum(len(r.tables) for r in t.rounds)


async def test_a_16_player_double_elimination_is_played_out_by_bots() -> None:
    sim = await simulate(game="flying_blades", fmt="double-elimination", players=16, table_size=2, seed="de16")
    t = sim.tournament
    assert t.status == FINISHED and t.bracket is not None and t.bracket.finished
    losses: dict[str, int] = {}
    for match in t.bracket.matches:  # a drawn game sends the higher seed through: the bracket knows who lost
        for p in match.losers:
            losses[p] = losses.get(p, 0) + 1
    for rnd in t.rounds:
        assert all(table.decided for table in rnd.tables)
        players = [p for table in rnd.tables for p in table.seats]
        assert len(players) == len(set(players)), "one match a player per round"
    champion = t.standings()[0].player
    assert losses.get(champion, 0) <= 1
    assert all(n == 2 for p, n in losses.items() if p != champion)
    assert 30 <= sim.games <= 31


async def test_a_2_player_swiss_with_an_odd_count_gives_each_bye_once() -> None:
    sim = await simulate(game="flying_blades", fmt="swiss", players=7, table_size=2, rounds=3, seed="odd")
    byes = [p for rnd in sim.tournament.rounds for p in rnd.byes]
    assert len(byes) == 3 == len(set(byes))
    pairs = [frozenset(table.seats) for rnd in sim.tournament.rounds for table in rnd.tables]
    assert len(pairs) == len(set(pairs))


async def test_a_score_event_deals_every_entrant_the_same_game(store: Store, clock, games: dict) -> None:
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    settings = Settings(game="floor_plan", format="score", table_size=1, rounds=1)
    tid = await entered(director, settings, HUMANS[:3])
    entry = await director.start(tid)
    game_ids = list(entry.value.current.extra["games"].values())
    seeds = {(await engine.get(g)).seed for g in game_ids}
    assert len(game_ids) == 3 and len(seeds) == 1
    for g in game_ids:
        await play_out(engine, g)
    await director.settle()
    entry = await director.get(tid)
    assert entry.value.status == FINISHED
    assert sorted(p for group in entry.value.rounds[0].tables[0].ranking for p in group) == sorted(
        e.id for e in HUMANS[:3])


async def test_results_flow_in_across_a_restart_mid_round(db_path: Path, clock, games: dict) -> None:
    store = await Store.open(db_path)
    director = Director(Engine(store, games=games, now=clock))
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=2), HUMANS[:4])
    entry = await director.start(tid)
    first, second = current_games(entry.value)
    await play_out(director.engine, first)
    await director.settle()
    await store.close()

    store = await Store.open(db_path)  # a restart: a new engine and director on the same file
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    assert await director.catch_up() == 1
    await play_out(engine, second)
    await director.settle()
    entry = await director.get(tid)
    assert entry.value.status == RUNNING and len(entry.value.rounds) == 2 and entry.value.rounds[0].complete
    rounds = [(await engine.get(g)).meta[TOURNAMENT]["round"] for g in current_games(entry.value)]
    assert rounds == [2, 2]
    await store.close()


async def test_a_result_missed_in_a_crash_is_found_at_the_next_start(db_path: Path, clock, games: dict) -> None:
    store = await Store.open(db_path)
    director = Director(Engine(store, games=games, now=clock))
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=1), HUMANS[:2])
    (game_id,) = current_games((await director.start(tid)).value)
    await store.close()

    store = await Store.open(db_path)
    await play_out(Engine(store, games=games, now=clock), game_id)  # the game ends with nobody told
    director = Director(Engine(store, games=games, now=clock))
    await director.catch_up()
    assert (await director.get(tid)).value.status == FINISHED
    await store.close()


class Killed(Exception):
    """The bot process stops here (what follows in it never runs)."""


@pytest.mark.parametrize("crash", ["before the tournament saved the game", "before the game started"])
@pytest.mark.parametrize(("game", "fmt", "players"), [("flying_blades", "swiss", 4), ("floor_plan", "score", 3)])
async def test_a_crash_while_a_round_opens_its_games_leaves_one_game_a_table(
        db_path: Path, clock, games: dict, monkeypatch: pytest.MonkeyPatch, crash: str, game: str, fmt: str,
        players: int) -> None:
    """The game is stored linked to its round and table: a restart finds it (and starts it if it had not started)
    instead of opening a second game for the same pairing (a score event: for the same entrant)."""
    store = await Store.open(db_path)
    director = Director(Engine(store, games=games, now=clock))
    settings = Settings(game=game, format=fmt, rounds=1, table_size=1 if fmt == "score" else 2)
    tid = await entered(director, settings, HUMANS[:players])
    save, start_seated = Director._save, Engine.start_seated

    async def killed_at_the_link(self: Director, entry: object, value: object, **kw: object) -> object:
        if kw.get("link"):
            raise Killed("the bot was killed")
        return await save(self, entry, value, **kw)

    async def killed_before_the_start(self: Engine, table_id: int) -> object:
        raise Killed("the bot was killed")

    if crash == "before the tournament saved the game":
        monkeypatch.setattr(Director, "_save", killed_at_the_link)
    else:
        monkeypatch.setattr(Engine, "start_seated", killed_before_the_start)
    with pytest.raises(Killed):
        await director.start(tid)
    (first,) = await store.tournament_round_games(tid, 1)
    await store.close()
    monkeypatch.setattr(Director, "_save", save)
    monkeypatch.setattr(Engine, "start_seated", start_seated)

    store = await Store.open(db_path)  # a restart: a new engine and director on the same file
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    await director.catch_up()
    rnd = (await director.get(tid)).value.current
    game_ids = [int(g) for g in rnd.extra["games"].values()] if fmt == "score" else [t.game_id for t in rnd.tables]
    assert first in game_ids and len(set(game_ids)) == (players if fmt == "score" else players // 2)
    assert sorted(game_ids) == await store.tournament_round_games(tid, 1)
    made = [g for g in await store.games_in_guild(9, ("lobby", "active")) if TOURNAMENT in g.meta]
    assert sorted(g.id for g in made) == sorted(game_ids), "one game a table, none left over"
    assert all(g.status == "active" for g in made)
    await store.close()


async def test_a_second_deciding_game_is_a_new_game_not_the_first_drawn_one(store: Store, clock, games: dict) -> None:
    """Seats swap back for the second deciding game: the first drawn game, linked to the same round and table with
    those very seats, is a replay the round keeps, never a game to take as the table's."""
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    settings = Settings(game="flying_blades", format="single-elimination", round_hours=24)
    tid = await entered(director, settings, HUMANS[:2])
    first = (await director.start(tid)).value.current.tables[0].game_id
    for _ in range(2):  # nobody moves: adjudicated level, a draw, a deciding game with the seats swapped
        clock.advance(hours=25)
        await engine.run_due()
        await director.settle()
    rnd = (await director.get(tid)).value.current
    drawn = [r["game_id"] for r in rnd.extra["replays"]]
    assert len(drawn) == 2 and drawn[0] == first
    assert list(rnd.tables[0].seats) == (await engine.get(first)).meta[TOURNAMENT]["seats"], "swapped back"
    assert rnd.tables[0].game_id not in drawn
    assert (await engine.get(rnd.tables[0].game_id)).status == "active"


async def test_tables_swapped_and_swapped_back_get_new_games_not_the_aborted_ones(store: Store, clock,
                                                                                   games: dict) -> None:
    """A rearranged table's game is aborted and made again; swapped back, the seats are the first game's again,
    and that aborted game (still linked to its round and table) is not taken."""
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=1), HUMANS[:4])
    rnd = (await director.start(tid)).value.current
    first = [t.game_id for t in rnd.tables]
    a, b = rnd.tables[0].seats[0], rnd.tables[1].seats[0]
    await director.rearrange(tid, lambda t: t.swap(a, b, "1"))
    rnd = (await director.rearrange(tid, lambda t: t.swap(a, b, "1"))).value.current
    assert [list(t.seats) for t in rnd.tables] == [(await engine.get(g)).meta[TOURNAMENT]["seats"] for g in first]
    now = [t.game_id for t in rnd.tables]
    assert not set(now) & set(first)
    assert [(await engine.get(g)).status for g in now] == ["active", "active"]
    await director.settle()  # the aborted games' results, taken in the background


async def test_a_crash_while_tables_are_rearranged_leaves_the_new_tables_with_games_and_the_old_ones_aborted(
        db_path: Path, clock, games: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """The new tables are saved before the old games close: killed in between, the next start aborts the old
    games (no table wants them) and makes the new tables' games; no old game is read as a result."""
    store = await Store.open(db_path)
    director = Director(Engine(store, games=games, now=clock))
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=1), HUMANS[:4])
    rnd = (await director.start(tid)).value.current
    first = [t.game_id for t in rnd.tables]
    a, b = rnd.tables[0].seats[0], rnd.tables[1].seats[0]

    async def killed(self: Director, game_id: int) -> None:
        raise Killed("the bot was killed")

    monkeypatch.setattr(Director, "_abort", killed)
    with pytest.raises(Killed):
        await director.rearrange(tid, lambda t: t.swap(a, b, "1"))
    await store.close()
    monkeypatch.undo()

    store = await Store.open(db_path)  # a restart
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    await director.catch_up()
    await director.settle()
    rnd = (await director.get(tid)).value.current
    assert not any(t.decided for t in rnd.tables), "no result taken from an old game"
    now = [t.game_id for t in rnd.tables]
    assert None not in now and not set(now) & set(first)
    assert [(await engine.get(g)).status for g in first] == ["aborted", "aborted"]
    assert [(await engine.get(g)).status for g in now] == ["active", "active"]
    await store.close()


async def test_games_still_running_at_the_round_deadline_are_adjudicated(store: Store, clock, games: dict) -> None:
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=2, round_hours=48),
                        HUMANS[:4])
    entry = await director.start(tid)
    clock.advance(hours=47)
    await engine.run_due()
    assert len((await director.get(tid)).value.rounds) == 1, "not before the deadline"
    clock.advance(hours=2)
    await engine.run_due()
    await director.settle()
    entry = await director.get(tid)
    assert entry.value.rounds[0].complete and len(entry.value.rounds) == 2
    closed = [await engine.get(t.game_id) for t in entry.value.rounds[0].tables]
    assert all(g.status == "aborted" and g.meta["closed"] == "round_deadline" for g in closed)


async def test_a_drop_resigns_the_running_game_and_the_opponent_wins_it(store: Store, clock, games: dict) -> None:
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=2), HUMANS[:2])
    entry = await director.start(tid)
    (game_id,) = current_games(entry.value)
    await director.drop(tid, HUMANS[1].id)
    await director.settle()
    entry = await director.get(tid)
    assert (await engine.get(game_id)).status == "finished"
    assert entry.value.rounds[0].tables[0].ranking[0] == (HUMANS[0].id,)
    assert next(s for s in entry.value.standings() if s.player == HUMANS[1].id).dropped


def test_the_simulate_command_prints_standings_and_writes_the_export(tmp_path: Path, capsys) -> None:
    out = tmp_path / "cup.json"
    code = invoke(["tournament", "simulate", "--game", "flying_blades", "--format", "round-robin", "--players", "4",
                   "--seed", "cli", "--export", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "Bot 1" in printed and "round-robin" in printed
    data = orjson.loads(out.read_bytes())
    assert data["game"] == "flying_blades" and data["format"] == "round-robin"
    assert [p["id"] for p in data["players"]] == ["bot-1", "bot-2", "bot-3", "bot-4"]
    assert len(data["rounds"]) == 3 and all(len(r["tables"]) == 2 for r in data["rounds"])
    assert {s["rank"] for s in data["standings"]} <= {1, 2, 3, 4}


def test_the_simulate_command_refuses_an_unknown_game(capsys) -> None:
    code = invoke(["tournament", "simulate", "--game", "chess", "--format", "swiss", "--players", "4"])
    assert code == 2 and "flying_blades" in capsys.readouterr().err


async def test_a_tournament_game_is_aborted_only_by_an_admin(store: Store, clock, games: dict) -> None:
    from engine import PermissionDeniedError

    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=1), HUMANS[:2])
    (game_id,) = current_games((await director.start(tid)).value)
    host = (await engine.get(game_id)).host_id
    with pytest.raises(PermissionDeniedError) as err:
        await engine.abort(game_id, host)
    assert err.value.msg.key == "engine.tournament_game"
    assert (await engine.abort(game_id, 999, is_admin=True)).status == "aborted"


async def test_a_paused_round_keeps_what_was_left_of_its_clock(store: Store, clock, games: dict) -> None:
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=2, round_hours=48),
                        HUMANS[:4])
    await director.start(tid)
    clock.advance(hours=40)
    assert (await director.pause(tid)).row.due_at is None
    clock.advance(days=5)  # past the round's deadline (the games' own abandoned-games sweep is 30 days)
    await engine.run_due()
    assert len((await director.get(tid)).value.rounds) == 1, "no deadline runs while paused"
    entry = await director.resume(tid)
    assert entry.row.due_at == clock.now + timedelta(hours=8)


async def test_a_round_that_ended_during_a_pause_is_announced_once(store: Store, clock, games: dict) -> None:
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    told: list[str] = []

    async def listen(kind: str, row: object, value: object) -> None:
        told.append(kind)

    director.add_listener(listen)
    # Three players (one game and a bye a round): two players can meet only once, so a second round needs more.
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=2), HUMANS[:3])
    (game_id,) = current_games((await director.start(tid)).value)
    await director.pause(tid)
    await play_out(engine, game_id)
    await director.settle()
    assert told.count("round_closed") == 1 and told.count("round") == 1, "paused: the next round waits"
    await director.resume(tid)
    assert told.count("round_closed") == 1 and told.count("round") == 2


async def test_a_finished_games_record_does_not_give_away_the_tournaments_seed(store: Store, clock,
                                                                              games: dict) -> None:
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    tid = await entered(director, Settings(game="flying_blades", format="swiss", rounds=2), HUMANS[:4])
    entry = await director.start(tid)
    first, second = current_games(entry.value)
    await play_out(engine, first)
    record = await engine.record(first)
    seed = (await engine.get(first)).seed
    assert f'[Seed "{seed}"]' in record, "a finished game proves its own deal"
    assert entry.value.seed not in record and (await engine.get(second)).seed not in record


async def test_a_score_rounds_shared_seed_waits_for_the_tournaments_end(store: Store, clock, games: dict) -> None:
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    tid = await entered(director, Settings(game="floor_plan", format="score", table_size=1, rounds=1), HUMANS[:2])
    entry = await director.start(tid)
    done, other = entry.value.current.extra["games"].values()
    await play_out(engine, done)
    assert "[Seed" not in await engine.record(done), "the other entrant still plays the same deal"
    await play_out(engine, other)
    await director.settle()
    assert (await director.get(tid)).value.status == FINISHED
    assert "[Seed" in await engine.record(done)


async def test_a_floating_world_score_event_deals_every_entrant_the_same_world() -> None:
    # Bots of equal strength (a preview varies them): the same deal then plays out the same way for each.
    sim = await simulate(game="floating_world", fmt="score", players=3, table_size=1, rounds=2, seed="fw-score",
                         varied=False)
    t = sim.tournament
    assert t.status == FINISHED and len(t.rounds) == 2
    for rnd in t.rounds:
        table = rnd.tables[0]
        assert table.scores is not None and set(table.scores) == set(table.seats)
        # The same seeded world and the same deterministic bot: the same game, so the same score, a shared rank.
        assert len(set(table.scores.values())) == 1 and len(table.ranking) == 1


def test_floating_worlds_event_score_ranks_a_faster_seal_above_a_slower_one_and_any_seal_above_a_loss() -> None:
    from dataclasses import replace

    from rules.floating_world import FloatingWorld
    from rules.floating_world import state as st

    g = FloatingWorld()
    s = g.new(1, g.normalize_options(1, {}), "event-score")
    fast, slow = replace(s, reason=st.WON, turn=20), replace(s, reason=st.WON, turn=90)
    lost_late = replace(s, reason="fw.outcome.gate", turn=400)
    assert g.event_score(fast) > g.event_score(slow) > g.event_score(lost_late) > g.event_score(replace(lost_late,
                                                                                                       turn=10))
