"""`/mygames`' data: `Engine.games_of` finds the running games a player sits in (one server, or every server), with
their deadlines and the time of their last move; the store's query reads only open games and survives damaged rows.
"""

from __future__ import annotations

from datetime import UTC, datetime

import orjson
import pytest

from engine import TURN_TIMEOUT, Engine, SeatInfo, Table
from storage import Store
from storage.sqlite import _GAMES_OF_USER

ALICE, BOB, CAROL = 101, 102, 103
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


async def started(engine: Engine, users: tuple[int, ...], *, guild: int = 9, channel: int = 1, bots: int = 0,
                  **options: object) -> Table:
    t = await engine.open_lobby("nim", guild_id=guild, channel_id=channel, host=SeatInfo(users[0], NAMES[users[0]]),
                                options={"pile": 60, **options})
    for user in users[1:]:
        await engine.join(t.id, SeatInfo(user, NAMES[user]))
    for _ in range(bots):
        await engine.add_bot(t.id, users[0])
    return await engine.start(t.id, users[0])


def ids(found: list[tuple[Table, list, datetime]]) -> list[int]:
    return [table.id for table, _, _ in found]


async def test_games_of_lists_the_running_games_a_player_sits_in_on_one_server_or_all(engine: Engine) -> None:
    here = await started(engine, (ALICE, BOB), guild=9, channel=1)
    there = await started(engine, (CAROL, ALICE), guild=8, channel=2)
    others = await started(engine, (BOB, CAROL), guild=9, channel=3)
    await engine.open_lobby("nim", guild_id=9, channel_id=4, host=SeatInfo(ALICE, "Alice"), options={})  # a lobby
    assert ids(await engine.games_of(ALICE, 9)) == [here.id]
    assert ids(await engine.games_of(ALICE, None)) == [here.id, there.id]
    assert ids(await engine.games_of(BOB, None)) == [here.id, others.id]
    assert await engine.games_of(999, None) == []


async def test_a_game_that_ended_is_no_longer_listed(engine: Engine) -> None:
    t = await started(engine, (ALICE, BOB))
    await engine.abort(t.id, ALICE)
    assert await engine.games_of(ALICE, 9) == []


@pytest.mark.sqlite_only(reason="rewrites the row through aiosqlite's connection (store._db)")
async def test_a_bot_seat_is_nobodys_even_with_a_user_id(engine: Engine, store: Store) -> None:
    t = await started(engine, (ALICE, BOB))
    row = await store.load_game(t.id)
    assert row is not None
    seats = [{"user_id": CAROL, "name": "Bot", "bot": True}, *row.seats]  # as a seat played by a bot might read
    await store._db.execute("UPDATE games SET seats = ? WHERE id = ?", (orjson.dumps(seats).decode(), t.id))
    assert await store.games_of_user(CAROL) == []


async def test_waiting_since_is_when_it_became_the_players_move(engine: Engine, clock) -> None:
    lobby = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"), options={})
    await engine.join(lobby.id, SeatInfo(BOB, "Bob"))
    clock.advance(minutes=10)
    t = await engine.start(lobby.id, ALICE)
    started_at = clock.now
    clock.advance(hours=5)
    await engine.set_meta(t.id, note="a surface's bookkeeping")  # a save that is not a move
    assert [since for _, _, since in await engine.games_of(ALICE, 9)] == [started_at]
    assert [since for _, _, since in await engine.games_of(BOB, 9)] == [started_at], "Bob waits for Alice's turn"
    await engine.act(t.id, ALICE, "take 1")
    moved = clock.now
    clock.advance(hours=2)
    await engine.set_meta(t.id, note="a surface's bookkeeping")
    [(_, _, since)] = await engine.games_of(BOB, 9)
    assert since == moved


async def test_in_a_simultaneous_round_the_others_moves_do_not_restart_a_players_wait(clock, store) -> None:
    from rules import GAMES

    engine = Engine(store, games=dict(GAMES), now=clock)
    lobby = await engine.open_lobby("floor_plan", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"))
    await engine.join(lobby.id, SeatInfo(BOB, "Bob"))
    t = await engine.start(lobby.id, ALICE)
    round_start = clock.now
    assert t.to_move() == {0, 1}
    clock.advance(hours=3)
    t = (await engine.act(t.id, ALICE, t.rules.bot_action(t.state, 0))).table
    assert 1 in t.to_move()
    [(_, _, since)] = await engine.games_of(BOB, 9)
    assert since == round_start


async def test_a_game_saved_before_waiting_times_were_kept_falls_back_on_its_last_move(engine: Engine,
                                                                                       clock) -> None:
    opened = clock.now
    lobby = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"), options={})
    await engine.join(lobby.id, SeatInfo(BOB, "Bob"))
    t = await engine.start(lobby.id, ALICE)
    clock.advance(hours=1)
    await engine.set_meta(t.id, turn_since=None)  # as an older row reads
    [(_, _, since)] = await engine.games_of(BOB, 9)
    assert since == opened


async def test_each_game_comes_with_its_turn_deadlines(engine: Engine) -> None:
    timed = await started(engine, (ALICE, BOB), turn_minutes=10)
    untimed = await started(engine, (ALICE, BOB), channel=2)
    found = {table.id: deadlines for table, deadlines, _ in await engine.games_of(ALICE, 9)}
    assert [d.seat for d in found[timed.id] if d.kind == TURN_TIMEOUT] == [0]
    assert [d for d in found[untimed.id] if d.kind == TURN_TIMEOUT] == []


@pytest.mark.sqlite_only(reason="damages rows through aiosqlite's connection (store._db)")
async def test_a_damaged_row_is_left_out_and_the_others_are_still_found(engine: Engine, store: Store) -> None:
    good = await started(engine, (ALICE, BOB), channel=1)
    bad_seats = await started(engine, (ALICE, BOB), channel=2)
    bad_seat = await started(engine, (ALICE, BOB), channel=3)
    bad_state = await started(engine, (ALICE, BOB), channel=4)
    fresh = Engine(store, games=engine.games, now=engine.now)  # nothing cached: every row is read again
    await store._db.execute("UPDATE games SET seats = '[{oops' WHERE id = ?", (bad_seats.id,))
    await store._db.execute(f"UPDATE games SET seats = '[\"{ALICE}\", 5]' WHERE id = ?", (bad_seat.id,))
    await store._db.execute("UPDATE games SET state = '{oops' WHERE id = ?", (bad_state.id,))
    assert [gid for gid, _ in await store.games_of_user(ALICE)] == [good.id, bad_state.id]
    assert ids(await fresh.games_of(ALICE, None)) == [good.id]
    assert bad_state.id in fresh.damaged


@pytest.mark.sqlite_only(reason="SQLite's EXPLAIN QUERY PLAN and INDEXED BY")
async def test_the_query_reads_the_open_games_through_an_index_never_the_whole_table(store: Store) -> None:
    for index, where in (("INDEXED BY games_one_open_per_channel", ""),
                         ("INDEXED BY games_by_guild", " AND g.guild_id = ?")):
        sql = _GAMES_OF_USER.format(index=index, where=where)
        params = (9, "101", 101) if where else ("101", 101)
        plan = " | ".join(row[3] for row in await store._db.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}", params))
        assert "SCAN g USING INDEX" in plan or "SEARCH g USING INDEX" in plan, plan
        assert "USING INDEX sqlite_autoindex_actions_1" in plan  # the last move: one index probe per game


@pytest.mark.sqlite_only(reason="bulk-inserts through aiosqlite's connection (store._db)")
async def test_a_thousand_running_games_find_exactly_the_players_own(store: Store) -> None:
    """1,000 running games (and finished ones) with snowflake-sized ids, one player in a few of them."""
    now = datetime(2026, 1, 1, tzinfo=UTC).isoformat()
    me, rows = 300_000_000_000_000_007, []
    for i in range(1_200):
        users = [300_000_000_000_000_000 + (i * 7 + k) % 400 for k in range(3)]
        seats = [{"user_id": u, "name": f"P{u}", "bot": False} for u in users]
        rows.append(("nim", i % 10, 10_000 + i, users[0], "active" if i < 1_000 else "finished", "{}", "s",
                     orjson.dumps(seats).decode(), now, now))
    await store._db.executemany(
        "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, seats, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    await store._db.commit()
    expected = [i + 1 for i, row in enumerate(rows) if row[4] == "active" and f'"user_id":{me},' in row[7]]
    assert expected and [gid for gid, _ in await store.games_of_user(me)] == expected
    in_guild = [gid for gid in expected if rows[gid - 1][1] == 3]
    assert [gid for gid, _ in await store.games_of_user(me, 3)] == in_guild
