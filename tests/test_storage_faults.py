"""A database that cannot serve at start stops the real bot process within seconds, with one line naming the file
and what to do and a distinct exit code (5) — never a traceback, never a process that does not exit."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

import aiosqlite
import aiosqlite.core
import pytest
from aiosqlite.context import contextmanager

from engine import Engine, SeatInfo
from storage import SqliteStore as Store
from storage import StorageOpenError
from storage.sqlite import _open_error
from tests.nim import Nim

ROOT = Path(__file__).resolve().parent.parent
EXIT_STORAGE = 5


def start_bot(db: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    # No network is reached: the database is opened before logging in, so the fake token is never sent.
    env.update(DISCORD_TOKEN="fake-token", DATABASE_PATH=str(db), LOG_LEVEL="WARNING",
               DISCORD_API_URL="http://127.0.0.1:9/api/v10", DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gateway")
    began = time.monotonic()
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    return done, time.monotonic() - began


def check_refused(done: subprocess.CompletedProcess[str], db: Path, words: str) -> None:
    assert done.returncode == EXIT_STORAGE, done.stderr
    assert "Traceback" not in done.stderr
    line = next(x for x in done.stderr.splitlines() if x.startswith("Cannot open the database"))
    assert str(db) in line and words in line


def test_a_file_that_is_not_a_database_stops_the_start_with_exit_5(tmp_path: Path) -> None:
    db = tmp_path / "floorboard.db"
    db.write_bytes(b"this is not a database, just some text someone saved here\n" * 100)
    done, seconds = start_bot(db, tmp_path)
    check_refused(done, db, "restore a backup")
    assert seconds < 30


def test_a_database_locked_by_another_process_stops_the_start_with_exit_5(tmp_path: Path) -> None:
    db = tmp_path / "floorboard.db"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")  # another bot, or a sqlite3 shell left mid-transaction
    try:
        done, seconds = start_bot(db, tmp_path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    check_refused(done, db, "another process holds it locked")
    assert seconds < 30


def test_a_path_that_cannot_be_a_file_stops_the_start_with_exit_5(tmp_path: Path) -> None:
    db = tmp_path / "folder.db"
    db.mkdir()  # a folder where the file should be: SQLite cannot open it
    done, _ = start_bot(db, tmp_path)
    check_refused(done, db, "not writable")


@pytest.mark.parametrize(("message", "words"), [
    ("attempt to write a readonly database", "not writable"),
    ("database is locked", "locked"),
    ("file is not a database", "restore a backup"),
    ("database disk image is malformed", "restore a backup"),
])
def test_each_start_fault_gets_a_hint_an_operator_can_act_on(message: str, words: str) -> None:
    error = _open_error("/srv/floorboard.db", sqlite3.OperationalError(message))
    assert isinstance(error, StorageOpenError) and words in error.hint and error.path == "/srv/floorboard.db"


async def test_a_failed_open_leaves_no_connection_thread_running(tmp_path: Path) -> None:
    import threading

    db = tmp_path / "floorboard.db"
    db.write_bytes(b"garbage" * 1000)
    before = set(threading.enumerate())
    with pytest.raises(StorageOpenError):
        await Store.open(db)
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=5)  # closed: it ends by itself (an open one would keep the process from exiting)
        assert not thread.is_alive(), thread


class KeepingConnection(sqlite3.Connection):
    """A connection whose every cursor something else keeps alive (as a test driver, a debugger or a profiler
    may): a statement whose result was not read then stays in progress for good."""

    kept: ClassVar[list[Any]] = []

    def execute(self, *args: Any) -> sqlite3.Cursor:
        cursor = super().execute(*args)
        self.kept.append(cursor)
        return cursor

    def executemany(self, *args: Any) -> sqlite3.Cursor:
        cursor = super().executemany(*args)
        self.kept.append(cursor)
        return cursor


@pytest.fixture
def cursors_kept_alive(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every cursor, aiosqlite's and sqlite3's, held in a list until the test ends."""
    kept: list[Any] = []
    monkeypatch.setattr(KeepingConnection, "kept", kept)
    connect = sqlite3.connect
    monkeypatch.setattr(aiosqlite.core.sqlite3, "connect",
                        lambda *args, **kw: connect(*args, factory=KeepingConnection, **kw))
    execute = aiosqlite.Connection.execute

    @contextmanager
    async def keeping(self: aiosqlite.Connection, *args: Any) -> aiosqlite.Cursor:
        cursor = await execute(self, *args)
        kept.append(cursor)
        return cursor

    monkeypatch.setattr(aiosqlite.Connection, "execute", keeping)
    return kept


async def test_start_up_succeeds_while_something_else_holds_every_cursor(tmp_path: Path,
                                                                        cursors_kept_alive: list[Any]) -> None:
    for _ in range(2):  # a new database (the migrations), then an existing one
        store = await Store.open(tmp_path / "floorboard.db")  # its start-up probe commits a write
        try:
            await store.set_setting(1, "locale", "pl")
            assert await store.get_setting(1, "locale") == "pl"
            now = datetime.now(UTC)
            assert await store.add_vacation(7, 1, now, now + timedelta(days=1)) > 0
            assert await store.game_ids() == []
        finally:
            await store.close()
    assert cursors_kept_alive  # the connection's statements really went through the keeping connection


async def test_a_whole_game_is_played_and_rated_while_something_else_holds_every_cursor(
        tmp_path: Path, cursors_kept_alive: list[Any]) -> None:
    store = await Store.open(tmp_path / "floorboard.db")
    engine = Engine(store, games={"nim": Nim()})
    try:
        table = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(11, "A"),
                                        options={"pile": 3})
        await engine.join(table.id, SeatInfo(12, "B"))
        table = await engine.start(table.id, 11)
        result = await engine.act(table.id, 11, "take 3")  # the last stone: the game ends, its results written
        assert result.outcome is not None
        assert (await store.load_game(table.id)).status == "finished"
        assert await engine.record(table.id)
    finally:
        await engine.stop()
        await store.close()
