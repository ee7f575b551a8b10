"""Damage outside the JSON columns of a game row (an integer past 64 bits, text where a number belongs, a seat's user
id stored as text, a naive timestamp, an unknown status) is damage like a truncated state: the row is refused when
it is read, the game is isolated (recorded, its players told once), /abort and /record work on it, and no reader of
game rows (listings, the inbox, the scheduler, the restart's resume query) raises on it or shows it as healthy."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from engine import DamagedGameError
from storage import SqliteStore as Store
from tests.conftest import FakeClock
from tests.test_engine_faults import HOST, OTHER, close_engine, damage, open_engine, timed_game

BROKEN_CHANNEL = 102
HUGE_VERSION = "UPDATE games SET version = 99999999999999999999 WHERE id = ?"  # stored as REAL by SQLite
MOVES_NOT_A_NUMBER = "UPDATE games SET moves = 'abc' WHERE id = ?"
CHANNEL_NOT_A_NUMBER = "UPDATE games SET channel_id = 'abc' WHERE id = ?"
SEAT_USER_ID_AS_TEXT = f"UPDATE games SET seats = json_set(seats, '$[1].user_id', '{OTHER}') WHERE id = ?"

# Every column but the JSON ones, damaged in the ways a hand edit or a bad migration leaves them.
COLUMN_FAULTS = {
    "version past 64 bits": HUGE_VERSION,
    "version negative": "UPDATE games SET version = -1 WHERE id = ?",
    "version as text": "UPDATE games SET version = 'v2' WHERE id = ?",
    "moves not a number": MOVES_NOT_A_NUMBER,
    "moves a fraction": "UPDATE games SET moves = 1.5 WHERE id = ?",
    "moves past 64 bits": "UPDATE games SET moves = 1e30 WHERE id = ?",
    "channel_id not a number": CHANNEL_NOT_A_NUMBER,
    "channel_id past 64 bits": "UPDATE games SET channel_id = 1e30 WHERE id = ?",
    "guild_id as text": "UPDATE games SET guild_id = 'one' WHERE id = ?",
    "guild_id negative": "UPDATE games SET guild_id = -5 WHERE id = ?",
    "host_id as text": f"UPDATE games SET host_id = '{HOST}x' WHERE id = ?",
    "host_id past 64 bits": "UPDATE games SET host_id = 1e19 WHERE id = ?",
    "game id not an id": "UPDATE games SET game = 'Flying Blades!' WHERE id = ?",
    "seat user id as text": SEAT_USER_ID_AS_TEXT,
    "seat user id past 64 bits": "UPDATE games SET seats = json_set(seats, '$[1].user_id', 1e30) WHERE id = ?",
    "seat without a name": "UPDATE games SET seats = json_remove(seats, '$[1].name') WHERE id = ?",
    "seat's bot flag not a boolean": "UPDATE games SET seats = json_set(seats, '$[0].bot', 'no') WHERE id = ?",
    "seat not an object": "UPDATE games SET seats = json_set(seats, '$[1]', 8) WHERE id = ?",
    "meta not an object": "UPDATE games SET meta = '[1]' WHERE id = ?",
    "meta not JSON": "UPDATE games SET meta = '{' WHERE id = ?",
    "options not an object": "UPDATE games SET options = '\"cards\"' WHERE id = ?",
    "outcome not an object": "UPDATE games SET outcome = '3' WHERE id = ?",
    "created_at without a time zone": "UPDATE games SET created_at = '2020-01-01T00:00:00' WHERE id = ?",
    "updated_at a number": "UPDATE games SET updated_at = 5 WHERE id = ?",
}


def unchecked(db_path: Path, table_id: int, sql: str) -> None:
    """``damage`` with the schema's CHECK constraints off, as an older schema or another tool would leave it."""
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA ignore_check_constraints = ON")
        db.execute(sql, (table_id,))


@pytest.fixture
async def two_games(db_path: Path, clock: FakeClock) -> tuple[int, int]:
    engine, _ = await open_engine(db_path, clock)
    healthy, broken = await timed_game(engine, 101), await timed_game(engine, BROKEN_CHANNEL)
    await close_engine(engine)
    return healthy, broken


@pytest.mark.parametrize("fault", list(COLUMN_FAULTS))
async def test_damage_in_any_column_of_a_game_row_isolates_that_game_once(
        db_path: Path, clock: FakeClock, two_games: tuple[int, int], fault: str) -> None:
    healthy, broken = two_games
    damage(db_path, broken, COLUMN_FAULTS[fault])
    engine, recorder = await open_engine(db_path, clock)
    with pytest.raises(DamagedGameError):
        await engine.get(broken)
    with pytest.raises(DamagedGameError):
        await engine.act(broken, HOST, "pass")
    assert [t.id for t in await engine.active_tables(1)] == [healthy]
    assert [t.id for t in await engine.running_tables()] == [healthy]
    assert [t.id for t, _, _ in await engine.games_of(HOST, 1)] == [healthy]
    assert recorder.kinds() == [("damaged", broken)]
    record = await engine.record(broken)  # the export works on it as on any damaged game
    assert '[Status "active (damaged)"]' in record
    await close_engine(engine)


@pytest.mark.parametrize("fault", list(COLUMN_FAULTS))
async def test_no_reader_of_game_rows_raises_on_a_damaged_column(
        db_path: Path, clock: FakeClock, two_games: tuple[int, int], fault: str) -> None:
    healthy, broken = two_games
    damage(db_path, broken, COLUMN_FAULTS[fault])
    store = await Store.open(db_path)
    try:
        row = await store.load_game(broken)
        assert row is not None and row.error is not None
        assert (await store.load_table(broken))[0].error is not None
        assert all(r.error is not None for r in await store.games_in_guild(1) if r.id == broken)
        assert (await store.games_in_guild(1))[0].id == healthy
        channel_row = await store.open_game_in_channel(BROKEN_CHANNEL)
        assert channel_row is None or channel_row.error is not None
        await store.last_game_in_channel(BROKEN_CHANNEL, ("active",))
        await store.games_of_user(HOST, 1)
        await store.games_of_user(OTHER)
        await store.game_ids_where("announced", below_moves=True)
        await store.due_deadlines(clock() + timedelta(days=1))
        await store.deadlines_for(broken)
    finally:
        await store.close()


async def test_a_status_outside_the_known_set_is_damage(db_path: Path, clock: FakeClock,
                                                        two_games: tuple[int, int]) -> None:
    _, broken = two_games
    unchecked(db_path, broken, "UPDATE games SET status = 'paused' WHERE id = ?")
    engine, _ = await open_engine(db_path, clock)
    with pytest.raises(DamagedGameError):
        await engine.get(broken)
    await close_engine(engine)


async def test_meta_that_is_not_json_does_not_break_the_restarts_resume_query(
        db_path: Path, clock: FakeClock, two_games: tuple[int, int]) -> None:
    healthy, broken = two_games
    damage(db_path, broken, "UPDATE games SET meta = '{' WHERE id = ?")
    store = await Store.open(db_path)
    try:
        # The damaged one is listed (so that the engine isolates it when it loads it), never fatal to the query.
        assert broken in await store.game_ids_where("announced", below_moves=True)
        assert healthy in await store.game_ids_where("announced", below_moves=True)
    finally:
        await store.close()


async def test_version_past_64_bits_is_damage_and_the_game_is_ended_by_abort(
        db_path: Path, clock: FakeClock, two_games: tuple[int, int]) -> None:
    _, broken = two_games
    damage(db_path, broken, HUGE_VERSION)
    engine, recorder = await open_engine(db_path, clock)
    with pytest.raises(DamagedGameError):
        await engine.table_in_channel(BROKEN_CHANNEL)  # what /play, /move and /gameadmin all look up first
    await engine.abort_damaged(broken, HOST)
    assert await engine.table_in_channel(BROKEN_CHANNEL) is None  # the channel is free for a new game
    assert recorder.kinds() == [("damaged", broken)]
    await close_engine(engine)


async def test_moves_not_a_number_stops_only_its_timer_without_a_type_error(
        db_path: Path, clock: FakeClock, two_games: tuple[int, int], caplog: pytest.LogCaptureFixture) -> None:
    healthy, broken = two_games
    damage(db_path, broken, MOVES_NOT_A_NUMBER)
    engine, recorder = await open_engine(db_path, clock)
    for _ in range(2):
        clock.advance(minutes=11)
        await engine.run_due()
    assert not [r for r in caplog.records if r.exc_info is not None]  # no traceback, pass after pass
    assert recorder.kinds().count(("damaged", broken)) == 1
    assert recorder.kinds().count(("timeout", healthy)) == 2
    await close_engine(engine)


async def test_channel_id_not_a_number_is_listed_as_damaged_not_as_running(
        db_path: Path, clock: FakeClock, two_games: tuple[int, int]) -> None:
    healthy, broken = two_games
    damage(db_path, broken, CHANNEL_NOT_A_NUMBER)
    engine, _ = await open_engine(db_path, clock)
    assert [t.id for t in await engine.active_tables(1)] == [healthy]
    assert [t.id for t in await engine.damaged_tables(1)] == [broken]
    assert [t.id for t, _, _ in await engine.games_of(OTHER)] == [healthy]
    await close_engine(engine)


async def test_a_seat_user_id_stored_as_text_is_damage_not_a_stranger(
        db_path: Path, clock: FakeClock, two_games: tuple[int, int]) -> None:
    _, broken = two_games
    damage(db_path, broken, SEAT_USER_ID_AS_TEXT)
    engine, recorder = await open_engine(db_path, clock)
    with pytest.raises(DamagedGameError):  # not NotSeatedError ("You are not playing in this game")
        await engine.act(broken, OTHER, "pass")
    (shell,) = await engine.damaged_tables(1)
    assert [s.user_id for s in shell.seats] == [HOST]  # the seats that still read are told; the text one is not
    assert recorder.kinds() == [("damaged", broken)]
    await close_engine(engine)
