"""One bad row harms no other game: a damaged game is set aside (logged, its players told once, exportable and
abortable), the scheduler survives any failure of one deadline with a back-off, and storage faults during play
are refused cleanly with nothing half-applied."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine import (
    DamagedGameError,
    Engine,
    Notice,
    PermissionDeniedError,
    SeatInfo,
    StorageUnavailableError,
)
from engine.scheduler import BACKOFF_FIRST
from rules import GAMES
from storage import SqliteStore as Store
from tests.conftest import FakeClock

HOST, OTHER = 7, 8


class Recorder:
    def __init__(self) -> None:
        self.notices: list[Notice] = []

    async def __call__(self, notice: Notice) -> None:
        self.notices.append(notice)

    def kinds(self) -> list[tuple[str, int]]:
        return [(n.kind, n.table.id) for n in self.notices]


async def open_engine(db_path: Path, clock: FakeClock) -> tuple[Engine, Recorder]:
    engine = Engine(await Store.open(db_path), games=GAMES, now=clock)
    recorder = Recorder()
    engine.add_listener(recorder)
    return engine, recorder


async def close_engine(engine: Engine) -> None:
    await engine.stop()
    await engine.store.close()


async def timed_game(engine: Engine, channel_id: int) -> int:
    """A 2-human Night of the 27 Ninja game without cards, each turn timed at 10 minutes."""
    table = await engine.open_lobby("flying_blades", guild_id=1, channel_id=channel_id, host=SeatInfo(HOST, "Host"),
                                    options={"cards": "none", "turn_minutes": 10}, seed=f"s{channel_id}")
    await engine.join(table.id, SeatInfo(OTHER, "Other"))
    return (await engine.start(table.id, HOST)).id


def damage(db_path: Path, table_id: int, sql: str = "UPDATE games SET state = substr(state, 1, 40) WHERE id = ?",
           ) -> None:
    """What a truncated write or a hand edit leaves behind, written by another connection."""
    with sqlite3.connect(db_path) as db:
        db.execute(sql, (table_id,))


@pytest.fixture
async def two_games(db_path: Path, clock: FakeClock) -> AsyncIterator[tuple[int, int]]:
    engine, _ = await open_engine(db_path, clock)
    healthy, broken = await timed_game(engine, 101), await timed_game(engine, 102)
    await close_engine(engine)
    yield healthy, broken


async def test_a_truncated_state_stops_only_its_own_game_after_a_restart(db_path: Path, clock: FakeClock,
                                                                          two_games: tuple[int, int]) -> None:
    healthy, broken = two_games
    damage(db_path, broken)
    engine, recorder = await open_engine(db_path, clock)
    clock.advance(minutes=11)
    await engine.run_due()
    assert ("timeout", healthy) in recorder.kinds()  # the healthy game's timer fired
    assert recorder.kinds().count(("damaged", broken)) == 1  # its players are told, once
    with pytest.raises(DamagedGameError):
        await engine.get(broken)
    assert [t.id for t in await engine.active_tables(1)] == [healthy]
    assert [t.id for t in await engine.damaged_tables(1)] == [broken]
    clock.advance(minutes=11)
    await engine.run_due()
    assert recorder.kinds().count(("damaged", broken)) == 1
    assert recorder.kinds().count(("timeout", healthy)) == 2
    await close_engine(engine)

    engine, recorder = await open_engine(db_path, clock)  # told once across restarts too
    with pytest.raises(DamagedGameError):
        await engine.get(broken)
    assert recorder.kinds() == []
    await close_engine(engine)


@pytest.mark.parametrize("fault", [
    "UPDATE games SET state = '{' WHERE id = ?",
    "UPDATE games SET state = '[]' WHERE id = ?",
    "UPDATE games SET seats = 'null' WHERE id = ?",
    "UPDATE games SET game = 'no_such_game' WHERE id = ?",
    "UPDATE games SET created_at = 'yesterday' WHERE id = ?",
    "UPDATE games SET state = json_set(state, '$.players', 99) WHERE id = ?",
])
async def test_any_undecodable_row_is_isolated_with_its_id(db_path: Path, clock: FakeClock, fault: str,
                                                           two_games: tuple[int, int],
                                                           caplog: pytest.LogCaptureFixture) -> None:
    healthy, broken = two_games
    damage(db_path, broken, fault)
    engine, recorder = await open_engine(db_path, clock)
    assert [t.id for t in await engine.running_tables()] == [healthy]
    assert any(f"game {broken}" in r.getMessage() and "damaged" in r.getMessage() for r in caplog.records)
    assert recorder.kinds() == [("damaged", broken)]
    record = await engine.record(broken)  # the export still works: the log is what repairs a game
    assert '[Status "active (damaged)"]' in record and "[Seed" not in record
    await close_engine(engine)


async def test_a_damaged_game_is_aborted_by_its_host_or_an_admin_only(db_path: Path, clock: FakeClock,
                                                                       two_games: tuple[int, int]) -> None:
    healthy, broken = two_games
    damage(db_path, broken)
    engine, _ = await open_engine(db_path, clock)
    with pytest.raises(DamagedGameError):
        await engine.get(broken)
    with pytest.raises(PermissionDeniedError):
        await engine.abort_damaged(broken, OTHER)
    await engine.abort_damaged(broken, OTHER, is_admin=True)
    assert await engine.damaged_tables(1) == []
    assert await engine.store.deadlines_for(broken) == []
    assert (await engine.store.load_game(broken)).status == "aborted"
    assert (await engine.get(healthy)).status == "active"
    await close_engine(engine)


async def test_the_scheduler_survives_a_failing_deadline_and_backs_it_off(db_path: Path, clock: FakeClock,
                                                                          two_games: tuple[int, int],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    healthy, broken = two_games
    engine, recorder = await open_engine(db_path, clock)
    real_fire = engine._fire

    async def fire(d: Any) -> Any:
        if d.game_id == broken:
            raise RuntimeError("a bug in one game's timer")
        return await real_fire(d)

    monkeypatch.setattr(engine, "_fire", fire)
    clock.advance(minutes=11)
    await engine.run_due()
    assert ("timeout", healthy) in recorder.kinds()
    later = [d.due_at for d in await engine.store.deadlines_for(broken)]
    assert later and all(due >= clock.now + BACKOFF_FIRST for due in later)
    clock.advance(seconds=BACKOFF_FIRST.total_seconds())
    await engine.run_due()  # second failure: twice the wait
    assert all(d.due_at >= clock.now + 2 * BACKOFF_FIRST for d in await engine.store.deadlines_for(broken))
    monkeypatch.setattr(engine, "_fire", real_fire)
    clock.advance(hours=1)
    await engine.run_due()
    assert ("timeout", broken) in recorder.kinds()  # fixed: it fires at last
    await close_engine(engine)


async def test_the_scheduler_loop_keeps_running_after_an_exception(db_path: Path, clock: FakeClock,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    engine, _ = await open_engine(db_path, clock)
    calls = 0

    async def run_due() -> list[Notice]:
        nonlocal calls
        calls += 1
        raise RuntimeError("boom")

    import asyncio

    monkeypatch.setattr(engine, "run_due", run_due)
    engine.tick_seconds = 0.01
    await engine.start_scheduler()
    for _ in range(200):
        if calls >= 3:
            break
        await asyncio.sleep(0.01)
    assert calls >= 3
    await close_engine(engine)


async def test_a_database_locked_by_another_process_refuses_the_move_and_applies_nothing(
        db_path: Path, clock: FakeClock, two_games: tuple[int, int]) -> None:
    healthy, _ = two_games
    engine, _ = await open_engine(db_path, clock)
    before = await engine.get(healthy)
    seat = sorted(before.to_move())[0]
    user = before.seats[seat].user_id
    action = before.rules.legal_actions(before.state, seat)[0]
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with pytest.raises(StorageUnavailableError) as caught:
            await engine.act(healthy, user, action)
        assert "busy" in str(caught.value)
    finally:
        other.execute("ROLLBACK")
        other.close()
    after = await engine.get(healthy)
    assert after.version == before.version and len(await engine.store.actions(healthy)) == 0
    await engine.act(healthy, user, action)  # the lock is gone: the same move goes through once
    assert len(await engine.store.actions(healthy)) == 1
    await close_engine(engine)


async def test_a_database_file_removed_while_running_refuses_moves(db_path: Path, clock: FakeClock,
                                                                   two_games: tuple[int, int],
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    healthy, _ = two_games
    engine, _ = await open_engine(db_path, clock)
    table = await engine.get(healthy)
    seat = sorted(table.to_move())[0]
    db_path.unlink()
    with pytest.raises(StorageUnavailableError) as caught:
        await engine.act(healthy, table.seats[seat].user_id, table.rules.legal_actions(table.state, seat)[0])
    assert "unavailable" in str(caught.value)
    assert any("removed or replaced" in r.getMessage() and r.levelname == "CRITICAL" for r in caplog.records)
    await close_engine(engine)


async def test_a_missing_database_is_created_with_a_log_line_naming_it(tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    import logging

    caplog.set_level(logging.INFO)
    path = tmp_path / "new" / "fresh.db"
    store = await Store.open(path)
    await store.close()
    assert path.exists()
    assert any(str(path) in r.getMessage() and "creating" in r.getMessage() for r in caplog.records)



async def test_a_restart_looks_only_at_games_whose_posts_lag_their_moves(db_path: Path, clock: FakeClock,
                                                                          two_games: tuple[int, int]) -> None:
    posted, lagging = two_games
    engine, _ = await open_engine(db_path, clock)
    for table_id in (posted, lagging):
        table = await engine.get(table_id)
        seat = sorted(table.to_move())[0]
        await engine.act(table_id, table.seats[seat].user_id, table.rules.legal_actions(table.state, seat)[0])
    await engine.set_meta(posted, announced=1)
    await engine.set_meta(lagging, announced=0)  # the bot stopped after saving the move, before posting it
    assert await engine.store.game_ids_where("announced", below_moves=True) == [lagging]
    assert await engine.store.game_ids_where("announced", below_moves=True, statuses=("finished",),
                                             missing=False) == []
    await engine.abort(lagging, HOST)
    assert await engine.store.game_ids_where("announced", below_moves=True, statuses=("aborted",),
                                             missing=False) == [lagging]
    await close_engine(engine)
