"""The short write path: a move is one call on the store's connection thread (its whole transaction), nothing of
another coroutine runs inside a transaction, duplicates are found without a read on every move, and the engine's
cached deadlines stay right across restarts and the scheduler's drops and back-offs."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from engine import Engine, SeatInfo, Table
from engine.scheduler import BACKOFF_FIRST
from storage import SqliteStore as Store
from storage import StorageConflictError
from tests.bench import bench_load
from tests.conftest import FakeClock
from tests.nim import Nim

ALICE, BOB = 101, 102


async def started(engine: Engine, *, channel: int = 1, options: dict[str, Any] | None = None) -> Table:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=channel, host=SeatInfo(ALICE, "Alice"),
                                options=options)
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    return await engine.start(t.id, ALICE)


def count_calls(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the callables sent to the connection thread from now on (one entry per round trip)."""
    calls: list[str] = []
    db: Any = store._db
    original = db._execute

    async def execute(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        calls.append(getattr(fn, "__name__", repr(fn)))
        return await original(fn, *args, **kwargs)

    monkeypatch.setattr(db, "_execute", execute)
    return calls


@pytest.mark.sqlite_only(reason="counts calls to SQLite's connection thread (store._db._execute)")
@pytest.mark.parametrize("options", [None, {"turn_minutes": 10}])
async def test_a_move_is_one_round_trip_with_or_without_a_turn_timer(engine: Engine, store: Store,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     options: dict[str, Any] | None) -> None:
    t = await started(engine, options=options)
    calls = count_calls(store, monkeypatch)
    await engine.act(t.id, ALICE, "take 1", version=t.version, interaction_id=1)
    await engine.act(t.id, BOB, "take 1", interaction_id=2)
    assert calls == ["_in_transaction", "_in_transaction"]
    if options:  # the timer moved to Alice: Bob's rows dropped, hers added, in those same transactions
        assert {(d.kind, d.seat) for d in await store.deadlines_for(t.id) if d.kind != "abandon_check"} == {
            ("turn_reminder", 0), ("turn_warning", 0), ("turn_timeout", 0)}


async def test_nothing_runs_on_the_connection_inside_another_transaction(db_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(db_path)
    db: Any = store._db
    original, inside = db._execute, []

    async def execute(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        def run() -> Any:
            inside.append(db._conn.in_transaction)  # on the connection's thread, as the callable starts
            return fn(*args, **kwargs)

        return await original(run)

    monkeypatch.setattr(db, "_execute", execute)
    try:
        stop = asyncio.Event()

        async def reader() -> None:
            while not stop.is_set():
                for gid in await store.game_ids():
                    await store.load_game(gid)
                    await store.actions(gid)
                await asyncio.sleep(0)

        readers = [asyncio.create_task(reader()) for _ in range(3)]
        run = await bench_load.run_load(store, 6, 5)
        stop.set()
        await asyncio.gather(*readers)
        assert run.total == 30 and len(inside) > 100 and not any(inside)
    finally:
        await store.close()


@pytest.mark.sqlite_only(reason="passes sqlite3 callables to SQLite's writer (store._write)")
async def test_a_failed_write_rolls_back_and_the_next_one_goes_through(store: Store) -> None:
    def half_done(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO guild_settings (guild_id, key, value) VALUES (5, 'a', '1')")
        raise RuntimeError("a bug between two statements")

    with pytest.raises(RuntimeError):
        await store._write(half_done)
    assert await store.get_setting(5, "a") is None
    with pytest.raises(StorageConflictError):  # a constraint: the unique key
        await store._write(lambda conn: conn.executemany(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (5, 'b', '1')", [(), ()]))
    assert await store.get_setting(5, "b") is None
    await store.set_setting(5, "a", 2)
    assert await store.get_setting(5, "a") == 2


async def test_the_unique_index_refuses_a_reused_interaction_answered_as_a_duplicate(engine: Engine,
                                                                                      store: Store) -> None:
    first, second = await started(engine, channel=1), await started(engine, channel=2)
    await engine.act(first.id, ALICE, "take 2", interaction_id=77)
    again = await engine.act(second.id, ALICE, "take 2", interaction_id=77)  # no look-up before: the index refuses
    assert again.duplicate and again.table.id == first.id and again.action == "take 2"
    assert len(await store.actions(first.id)) == 1 and await store.actions(second.id) == []
    assert (await engine.get(second.id)).version == second.version


async def test_a_redelivered_move_without_a_version_is_a_duplicate_not_an_error(engine: Engine,
                                                                                 store: Store) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "take 2", interaction_id=5)
    again = await engine.act(t.id, ALICE, "take 2", interaction_id=5)  # not Alice's turn any more
    assert again.duplicate and len(await store.actions(t.id)) == 1


async def test_cached_deadlines_are_right_after_a_restart(db_path: Path, clock: FakeClock) -> None:
    games = {"nim": Nim()}
    store = await Store.open(db_path)
    engine = Engine(store, games=games, now=clock)
    try:
        t = await started(engine, options={"turn_minutes": 10})
        await engine.act(t.id, ALICE, "take 1")
    finally:
        await store.close()

    store = await Store.open(db_path)
    try:
        engine = Engine(store, games=games, now=clock)
        await engine.act(t.id, BOB, "take 1")  # drops Bob's rows, loaded with the table, and arms Alice's
        assert {(d.kind, d.seat) for d in await store.deadlines_for(t.id) if d.kind != "abandon_check"} == {
            ("turn_reminder", 0), ("turn_warning", 0), ("turn_timeout", 0)}
        clock.advance(minutes=10)
        (notice,) = [n for n in await engine.run_due() if n.kind == "timeout"]
        assert notice.data["seat"] == 0
        assert {(d.kind, d.seat) for d in await store.deadlines_for(t.id) if d.kind != "abandon_check"} == {
            ("turn_reminder", 1), ("turn_warning", 1), ("turn_timeout", 1)}
    finally:
        await store.close()


async def test_a_timer_due_but_dropped_by_a_move_before_it_fires_is_skipped(engine: Engine, store: Store,
                                                                              clock: FakeClock) -> None:
    t = await started(engine, options={"turn_minutes": 10})
    clock.advance(minutes=10)
    due = await store.due_deadlines(clock.now)  # the scheduler has read them ...
    await engine.act(t.id, ALICE, "take 1")  # ... and the move lands before they fire
    assert [await engine._fire(d) for d in due if d.kind == "turn_timeout"] == [None]
    assert [(a.seat, a.source) for a in await store.actions(t.id)] == [(0, "player")]


async def test_the_schedulers_back_off_and_drop_reach_the_cache(engine: Engine, store: Store, clock: FakeClock,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    t = await started(engine)
    await engine.arm_timer(t.id, version=t.version, seat=0, action="take 2", due_at=clock.now)
    real_fire = engine._fire

    async def broken(d: Any) -> Any:
        raise RuntimeError("a bug in this timer")

    monkeypatch.setattr(engine, "_fire", broken)
    await engine.run_due()
    assert await engine.timer_due(t.id) == clock.now + BACKOFF_FIRST  # the cache saw the postponement
    monkeypatch.setattr(engine, "_fire", real_fire)
    clock.advance(seconds=BACKOFF_FIRST.total_seconds())
    (notice,) = await engine.run_due()
    assert notice.kind == "timeout" and await engine.timer_due(t.id) is None
    assert [d.kind for d in await store.deadlines_for(t.id)] == ["abandon_check"]


async def test_a_deadline_the_cache_missed_still_fires(engine: Engine, store: Store, clock: FakeClock) -> None:
    t = await started(engine)
    await engine.arm_timer(t.id, version=t.version, seat=0, action="take 3", due_at=clock.now + timedelta(seconds=1))
    engine._deadlines[t.id] = []  # as if the cache had missed a change: the store is looked up before skipping
    clock.advance(seconds=1)
    (notice,) = await engine.run_due()
    assert notice.kind == "timeout" and notice.data["result"].action == "take 3"
