"""Storage: migrations, WAL, one transaction per move, and a game that survives the process being killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine import Engine, SeatInfo, replay
from storage import SqliteStore as Store
from storage.sqlite import _migrations
from tests.nim import Nim

ROOT = Path(__file__).resolve().parent.parent


async def test_migrations_are_numbered_and_applied_once(db_path: Path) -> None:
    numbers = [n for n, _ in _migrations()]
    assert numbers == list(range(1, len(numbers) + 1))
    s = await Store.open(db_path)
    assert await s.schema_version() == numbers[-1]
    await s.close()
    s = await Store.open(db_path)  # reopening must not re-run a migration (it would fail on CREATE TABLE)
    assert await s.schema_version() == numbers[-1]
    await s.close()


@pytest.mark.sqlite_only(reason="PRAGMA journal_mode")
async def test_database_runs_in_wal_mode(store: Store) -> None:
    cur = await store._db.execute("PRAGMA journal_mode")
    assert (await cur.fetchone())[0] == "wal"


async def test_guild_settings_round_trip_and_clear(store: Store) -> None:
    await store.set_setting(1, "locale", "pl")
    assert await store.get_setting(1, "locale") == "pl"
    await store.set_setting(1, "locale", None)
    assert await store.get_setting(1, "locale") is None


KILLER = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    sys.path.insert(0, {root!r})
    from engine import Engine, SeatInfo
    from storage import SqliteStore as Store
    from tests.nim import Nim

    async def main():
        store = await Store.open({db!r})
        engine = Engine(store, games={{"nim": Nim()}})
        t = await engine.open_lobby("nim", guild_id=1, channel_id=1, host=SeatInfo(1, "A"), options={{"pile": 30}})
        await engine.join(t.id, SeatInfo(2, "B"))
        await engine.start(t.id, 1)
        for i in range(6):
            await engine.act(t.id, 1 + i % 2, "take 1")
        print("six", flush=True)
        # Killed between two moves: no close, no checkpoint, no chance to flush anything.
        os.kill(os.getpid(), signal.SIGKILL)

    asyncio.run(main())
    """
)


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
async def test_process_killed_between_two_moves_resumes_intact(tmp_path: Path) -> None:
    db = tmp_path / "killed.db"
    script = tmp_path / "killer.py"
    script.write_text(KILLER.format(root=str(ROOT), db=str(db)))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert "six" in proc.stdout
    store = await Store.open(db)
    try:
        engine = Engine(store, games={"nim": Nim()})
        (table,) = [await engine.get(i) for i in await store.game_ids()]
        assert table.status == "active" and table.moves == 6 and table.state.pile == 24
        log = [(a.seat, a.action) for a in await store.actions(table.id)]
        assert replay(Nim(), 2, table.options, table.seed, log) == table.state
        result = await engine.act(table.id, 1, "take 2")  # the game goes on
        assert result.table.state.pile == 22
    finally:
        await store.close()


async def test_last_game_in_channel_is_the_newest_closed_one_of_that_channel(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "channel.db")
    engine = Engine(store, games={"nim": Nim()})
    try:
        ids: list[int] = []
        for channel in (7, 7, 8):
            table = await engine.open_lobby("nim", guild_id=1, channel_id=channel, host=SeatInfo(1, "A"),
                                            options={"pile": 30})
            before = await engine.last_closed_table_in_channel(channel)
            assert (before.id if before else None) == (ids[-1] if channel == 7 and ids else None), \
                "the open game is not the last closed one"
            ids.append(table.id)
            await engine.abort(table.id, 1)
        assert (await engine.last_closed_table_in_channel(7)).id == ids[1]
        assert (await engine.last_closed_table_in_channel(8)).id == ids[2]
        assert await engine.last_closed_table_in_channel(9) is None
    finally:
        await engine.stop()
        await store.close()
