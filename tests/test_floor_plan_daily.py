"""The Floor Plan daily challenge below Discord: migration 0002, one attempt per player per day, the seed of a
day, results stored once, and the server and global leaderboards."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from engine import Engine, GameOverError
from engine.daily import DailyChallenge, daily_channel
from rules.base import IllegalActionError
from rules.floor_plan import FloorPlan
from rules.floor_plan import daily as fpdaily
from storage import SqliteStore as Store
from storage.sqlite import _migrations
from tests.conftest import FakeClock

FP = FloorPlan()
GUILD_A, GUILD_B = 1001, 1002


@pytest.fixture
async def challenge(store: Store, clock: FakeClock) -> AsyncIterator[DailyChallenge]:
    engine = Engine(store, games={"floor_plan": FP}, now=clock)
    yield DailyChallenge(engine)
    await engine.stop()


async def play_out(ch: DailyChallenge, user_id: int, name: str, guild_id: int) -> None:
    attempt = await ch.open(user_id, name, guild_id)
    for _ in range(200):
        if attempt.table.status != "active":
            return
        await ch.act(attempt, user_id, FP.bot_action(attempt.table.state, 0))
    pytest.fail("the daily game did not end")


# --- migration ----------------------------------------------------------------------------------------------


async def test_migration_0002_upgrades_a_database_made_with_0001(db_path: Path) -> None:
    first = dict(_migrations())[1]
    con = sqlite3.connect(db_path)
    con.executescript(f"BEGIN;\n{first}\nPRAGMA user_version=1;\nCOMMIT;")
    con.execute("INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, seats, created_at,"
                " updated_at) VALUES ('nim', 1, 2, 3, 'lobby', '{}', 's', '[]', '2026-01-01T00:00:00+00:00',"
                " '2026-01-01T00:00:00+00:00')")
    con.commit()
    con.close()
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() >= 2
        assert (await store.load_game(1)).seed == "s"  # type: ignore[union-attr]
        row, created = await store.claim_daily("2026-01-01", 5, 1, "Eve", datetime(2026, 1, 1, tzinfo=UTC))
        assert created and row.score is None and row.game_id is None
    finally:
        await store.close()


@pytest.mark.sqlite_only(reason="reads sqlite_master")
async def test_migration_0002_on_a_fresh_database(store: Store) -> None:
    assert await store.schema_version() >= 2
    cur = await store._db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'daily_results'")
    assert await cur.fetchone() is not None


@pytest.mark.sqlite_only(reason="inserts through aiosqlite's connection and matches SQLite's UNIQUE message")
async def test_a_result_is_stored_once_and_the_day_and_user_are_unique(store: Store) -> None:
    when = datetime(2026, 1, 1, 12, tzinfo=UTC)
    row, created = await store.claim_daily("2026-01-01", 5, GUILD_A, "Eve", when)
    again, created_again = await store.claim_daily("2026-01-01", 5, GUILD_B, "Eve", when)
    assert created and not created_again and again.id == row.id and again.guild_id == GUILD_A
    assert await store.finish_daily(row.id, 30, "capable_contractor", when)
    assert not await store.finish_daily(row.id, 99, None, when + timedelta(hours=1))
    stored = await store.daily_attempt("2026-01-01", 5)
    assert stored is not None and stored.score == 30 and stored.finished_at == when
    with pytest.raises(Exception, match="UNIQUE"):
        await store._db.execute("INSERT INTO daily_results (day, user_id, started_at) VALUES ('2026-01-01', 5, 'x')")


# --- the seed of a day ----------------------------------------------------------------------------------------


def test_the_seed_of_a_day_is_its_utc_date_under_the_bots_secret() -> None:
    assert fpdaily.seed_for(date(2026, 1, 1), "s").startswith("daily-2026-01-01-")
    assert fpdaily.seed_for(date(2026, 1, 1), "s") == fpdaily.seed_for(date(2026, 1, 1), "s")
    # Without the secret nobody can work out the day's rolls ahead of the leaderboard.
    assert fpdaily.seed_for(date(2026, 1, 1), "s") != fpdaily.seed_for(date(2026, 1, 1), "t")
    late = datetime(2026, 1, 1, 23, 30, tzinfo=UTC)
    assert fpdaily.daily_seed(late, "s") == fpdaily.seed_for(date(2026, 1, 1), "s")
    # 00:30 in Warsaw is still 23:30 UTC the day before
    from zoneinfo import ZoneInfo

    assert fpdaily.day_of(datetime(2026, 1, 2, 0, 30, tzinfo=ZoneInfo("Europe/Warsaw"))) == date(2026, 1, 1)
    assert fpdaily.daily_seed(late + timedelta(hours=1), "s") == fpdaily.seed_for(date(2026, 1, 2), "s")


async def test_the_daily_secret_is_made_once_and_kept(challenge: DailyChallenge) -> None:
    first = await challenge.secret()
    assert len(first) >= 32
    fresh = DailyChallenge(challenge.engine)  # a restart: same database, new process
    assert await fresh.secret() == first


async def test_two_players_on_two_servers_get_the_same_game_and_the_next_day_another(
        challenge: DailyChallenge, clock: FakeClock) -> None:
    a = await challenge.open(1, "Ann", GUILD_A)
    b = await challenge.open(2, "Bob", GUILD_B)
    assert a.created and b.created and a.table.id != b.table.id
    assert a.table.seed == b.table.seed == fpdaily.seed_for(date(2026, 1, 1), await challenge.secret())
    assert FP.to_json(a.table.state) == FP.to_json(b.table.state)
    assert a.table.channel_id == daily_channel(a.row) < 0 and a.table.guild_id is None
    assert a.table.state.solo
    clock.advance(days=1)
    c = await challenge.open(1, "Ann", GUILD_A)
    assert c.created and c.table.id != a.table.id
    assert c.table.seed == fpdaily.seed_for(date(2026, 1, 2), await challenge.secret())
    # yesterday's unfinished attempt is still there, and does not block today's
    assert (await challenge.engine.get(a.table.id)).status == "active"


# --- one attempt per player per day ---------------------------------------------------------------------------


@pytest.mark.sqlite_only(reason="counts rows through aiosqlite's connection (store._db)")
async def test_a_second_daily_resumes_then_shows_the_result_never_a_second_game(challenge: DailyChallenge) -> None:
    first = await challenge.open(7, "Eve", GUILD_A)
    await challenge.act(first, 7, FP.bot_action(first.table.state, 0))
    resumed = await challenge.open(7, "Eve", GUILD_A)
    assert not resumed.created and resumed.table.id == first.table.id and resumed.table.moves == 1
    await play_out(challenge, 7, "Eve", GUILD_A)
    done = await challenge.open(7, "Eve", GUILD_B)
    assert not done.created and done.table.id == first.table.id and done.table.status == "finished"
    score, rating = fpdaily.result_of(FP, done.table.state)
    assert done.row.finished and done.row.score == score and done.row.rating == rating and rating
    assert done.row.guild_id == GUILD_A and done.row.game_id == first.table.id
    with pytest.raises(GameOverError):
        await challenge.act(done, 7, "skip")
    cur = await challenge.store._db.execute("SELECT COUNT(*) FROM daily_results WHERE user_id = 7")
    assert (await cur.fetchone())[0] == 1
    cur = await challenge.store._db.execute("SELECT COUNT(*) FROM games")
    assert (await cur.fetchone())[0] == 1


async def test_an_attempt_whose_game_was_not_made_yet_is_repaired(challenge: DailyChallenge,
                                                                   clock: FakeClock) -> None:
    # as if the bot died between writing the attempt and opening its game
    row, _ = await challenge.store.claim_daily("2026-01-01", 8, GUILD_A, "Fay", clock())
    attempt = await challenge.open(8, "Fay", GUILD_A)
    assert not attempt.created and attempt.row.id == row.id and attempt.table.status == "active"
    assert (await challenge.store.daily_attempt("2026-01-01", 8)).game_id == attempt.table.id  # type: ignore[union-attr]


# --- leaderboards ---------------------------------------------------------------------------------------------


async def test_server_and_global_leaderboards_order_by_score_then_earlier_finish(store: Store) -> None:
    t0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
    entries = [  # user, guild, score, minutes after t0
        (1, GUILD_A, 30, 5), (2, GUILD_A, 42, 9), (3, GUILD_B, 42, 3), (4, GUILD_B, 50, 20), (5, GUILD_A, 30, 1),
    ]
    rows = {}
    for user, guild, score, minutes in entries:
        row, _ = await store.claim_daily("2026-01-01", user, guild, f"P{user}", t0)
        await store.finish_daily(row.id, score, None, t0 + timedelta(minutes=minutes))
        rows[user] = await store.daily_by_id(row.id)
    await store.claim_daily("2026-01-01", 6, GUILD_A, "Unfinished", t0)
    other_day, _ = await store.claim_daily("2026-01-02", 1, GUILD_A, "P1", t0)
    await store.finish_daily(other_day.id, 99, None, t0 + timedelta(days=1))

    server = await store.daily_leaderboard("2026-01-01", GUILD_A)
    assert [r.user_id for r in server] == [2, 5, 1]
    everywhere = await store.daily_leaderboard("2026-01-01")
    assert [r.user_id for r in everywhere] == [4, 3, 2, 5, 1]
    assert [r.user_id for r in await store.daily_leaderboard("2026-01-01", limit=2)] == [4, 3]
    assert await store.daily_rank(rows[5], same_guild=True) == (2, 3)
    assert await store.daily_rank(rows[2]) == (3, 5)
    assert await store.daily_rank(rows[4], same_guild=True) == (1, 2)


@pytest.mark.sqlite_only(reason="12 bot-played dailies (15 s on PostgreSQL, CPU-bound); the board's query is in"
                                 " the storage contract on both: tests/storage/test_daily_store.py")
async def test_the_leaderboard_is_capped_at_ten(challenge: DailyChallenge) -> None:
    for user in range(12):
        await play_out(challenge, 100 + user, f"P{user}", GUILD_A if user % 2 else GUILD_B)
    everywhere = await challenge.leaderboard(None)
    server = await challenge.leaderboard(GUILD_A)
    assert len(everywhere) == 10 and len(server) == 6
    assert {r.guild_id for r in server} == {GUILD_A}
    # the same seed for all: every bot-played attempt is the same game, so the ties go to the earlier finish
    keys = [(-r.score, r.finished_at) for r in everywhere]  # type: ignore[operator]
    assert keys == sorted(keys)


async def test_resigning_a_daily_is_refused(challenge: DailyChallenge) -> None:
    attempt = await challenge.open(9, "Gus", GUILD_A)
    with pytest.raises(IllegalActionError):
        await challenge.act(attempt, 9, "resign")
    assert (await challenge.engine.get(attempt.table.id)).status == "active"
    assert not (await challenge.store.daily_attempt("2026-01-01", 9)).finished  # type: ignore[union-attr]


@pytest.mark.sqlite_only(reason="counts rows through aiosqlite's connection (store._db)")
async def test_two_requests_at_once_share_one_attempt_and_one_game(challenge: DailyChallenge) -> None:
    import asyncio

    a, b = await asyncio.gather(challenge.open(11, "Hal", GUILD_A), challenge.open(11, "Hal", GUILD_A))
    assert a.row.id == b.row.id and a.table.id == b.table.id and [a.created, b.created].count(True) == 1
    cur = await challenge.store._db.execute("SELECT COUNT(*) FROM games")
    assert (await cur.fetchone())[0] == 1
