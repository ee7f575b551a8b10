"""The SQLite connection: its thread, one transaction per call, the numbered migrations, and opening checks.

Each write transaction runs whole as one call on aiosqlite's connection thread (`SqliteDb._write`) and each read
is one call too: every round trip is a hop between threads, and under load those hops, not SQLite, were the cost.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite

from storage.errors import StorageBusyError, StorageConflictError, StorageGoneError, StorageOpenError
from storage.sqlite.codec import dumps as _json
from storage.sqlite.codec import ts as _ts
from storage.sqlite.statements import fetch, run

BUSY_TIMEOUT_MS = 2000  # another process holding the write lock: wait this long, then tell the player to retry
# At start a second process may wait for the first one's migrations, which take longer than a move on a loaded
# machine (seen: over 2 s at load average 9 on 2 cores); a lock held for good is still reported within seconds.
START_BUSY_TIMEOUT_MS = 10_000

log = logging.getLogger(__name__)
T = TypeVar("T")


def _migrations() -> list[tuple[int, str]]:
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        m = re.fullmatch(r"(\d{4})_\w+\.sql", entry.name)
        if m:
            found.append((int(m.group(1)), entry.read_text(encoding="utf-8")))
    return sorted(found)


def _file_id(path: str) -> tuple[int, int] | None:
    if path == ":memory:" or path.startswith("file:"):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_dev, st.st_ino)


def _is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _rollback(conn: sqlite3.Connection) -> None:
    # SQLite rolls some failed transactions back by itself (a full disk, an I/O error): a ROLLBACK then would raise
    # "no transaction is active" and hide the error that matters.
    if conn.in_transaction:
        run(conn, "ROLLBACK")


def _in_transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """``BEGIN IMMEDIATE``, ``fn``, ``COMMIT`` on the connection's own thread; any failure rolls back. Errors map
    to the storage layer's: a constraint → `StorageConflictError`, the write lock held by another process past
    the busy timeout → `StorageBusyError`."""
    try:
        run(conn, "BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if _is_busy(e):
            raise StorageBusyError(str(e)) from e
        raise
    try:
        result = fn(conn)
    except sqlite3.IntegrityError as e:
        _rollback(conn)
        raise StorageConflictError(str(e)) from e
    except sqlite3.OperationalError as e:
        _rollback(conn)
        if _is_busy(e):
            raise StorageBusyError(str(e)) from e
        raise
    except BaseException:
        _rollback(conn)
        raise
    try:
        run(conn, "COMMIT")
    except sqlite3.OperationalError as e:
        _rollback(conn)  # never leave the shared connection inside a transaction
        if _is_busy(e):
            raise StorageBusyError(str(e)) from e
        raise
    return result


def _statements(script: str) -> list[str]:
    """A migration's statements, one by one (``executescript`` would COMMIT the transaction they run in)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending)
            pending = ""
    return statements  # what is left is comments only: complete_statement is true of any real statement's end


def _apply_migrations(conn: sqlite3.Connection, known: list[tuple[int, str]], path: str) -> None:
    """Apply the migrations the file lacks and set its number, in one transaction that holds the write lock
    before it reads the version: a second process starting at the same time waits (the busy timeout), then finds
    the work done, instead of running the same CREATE TABLEs again. A schema newer than this code knows is
    refused (its tables may have changed in ways this code would write wrongly)."""
    latest = known[-1][0]
    run(conn, "BEGIN IMMEDIATE")
    try:
        (current,) = fetch(conn, "PRAGMA user_version")[0]
        if current > latest:
            raise StorageOpenError(path, f"the database's schema is version {current}, newer than this"
                                   f" Floorboard knows ({latest})",
                                   "run the Floorboard version that wrote it, or restore a backup")
        pending = [(number, sql) for number, sql in known if number > current]
        for _, sql in pending:
            for statement in _statements(sql):
                run(conn, statement)
        if pending:
            run(conn, f"PRAGMA user_version={pending[-1][0]}")
    except BaseException:
        _rollback(conn)
        raise
    run(conn, "COMMIT")


def _enter_wal(conn: sqlite3.Connection) -> None:
    """``PRAGMA journal_mode=WAL``, retried while another connection holds the file: SQLite takes the exclusive
    lock that turning a new file to WAL needs without calling the busy handler, so a second process opening the
    same new file at that moment got "database is locked" at once (1 start in 6 with two started together)."""
    deadline = time.monotonic() + START_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            fetch(conn, "PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if not _is_busy(e) or time.monotonic() >= deadline:
                raise
        time.sleep(0.005)  # on the connection's own thread: the event loop goes on


def _configure(conn: sqlite3.Connection) -> None:
    """The connection's settings at start, each PRAGMA's answer read (a PRAGMA that answers is a statement in
    progress until it is: see storage/statements.py)."""
    fetch(conn, f"PRAGMA busy_timeout={START_BUSY_TIMEOUT_MS}")
    # WAL + NORMAL: a commit survives a process crash (not a power cut) at a fraction of FULL's cost.
    _enter_wal(conn)
    fetch(conn, "PRAGMA synchronous=NORMAL")
    fetch(conn, "PRAGMA foreign_keys=ON")


def _open_error(path: str, error: sqlite3.Error) -> StorageOpenError:
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        hint = "another process holds it locked: stop the other bot or tool using it, then start again"
    elif "readonly" in text or "read-only" in text or "unable to open" in text:
        hint = "the file or its folder is not writable by this user: fix the permissions or set DATABASE_PATH"
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        hint = "the file is not a Floorboard database or is damaged: restore a backup or set DATABASE_PATH"
    else:
        hint = "check DATABASE_PATH"
    return StorageOpenError(path, str(error), hint)


class SqliteDb:
    """One connection; aiosqlite runs it on its own thread. The aggregates' mixins (games, deadlines, settings,
    league, tournaments, daily, content) are built on it."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        # One connection is shared by every coroutine: each transaction runs whole as one call on its thread
        # (`_write`), so writes never interleave inside one another's transaction and no read lands inside one.
        self._file_id = _file_id(path)
        self.gone = False

    def _check_file(self) -> None:
        """Refuse writes once the file we opened is no longer the file at ``path`` (deleted or replaced): SQLite
        would go on writing into the unlinked inode and every move would vanish at the next start."""
        if self.gone:
            raise StorageGoneError(self.path)
        if self._file_id is not None and _file_id(self.path) != self._file_id:
            self.gone = True
            log.critical("the database file %s was removed or replaced while running: no more moves are accepted;"
                         " restart the bot to open it again", os.path.abspath(self.path))
            raise StorageGoneError(self.path)

    async def _on_thread(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` on aiosqlite's connection thread: one round trip, however many
        statements ``fn`` runs. The one place aiosqlite's private API is used (0.22.1 is pinned):
        ``Connection._execute`` queues a callable to its worker thread, ``Connection._conn`` is the sqlite3
        connection that thread owns. The thread runs one callable at a time, so nothing another coroutine sends
        (a read) can run between the statements of ``fn``."""
        db: Any = self._db
        return await db._execute(fn, db._conn, *args)

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` as one write transaction (see `_in_transaction`), in one round trip.

        No lock is held on this side: the connection thread runs one callable at a time, so transactions follow
        one another there without a hop back to the event loop between them. A caller cancelled while it waits
        does not stop the transaction: it commits or rolls back as if the caller had stayed."""
        self._check_file()
        return await self._on_thread(_in_transaction, fn)

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._on_thread(fetch, sql, params)  # one round trip: run, read whole, closed

    async def _row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._rows(sql, params)
        return rows[0] if rows else None

    @classmethod
    async def open(cls, path: str | Path) -> Self:
        """Open (or create, with a log line naming it) the database; `StorageOpenError` with a hint when it is
        locked by another process, read-only or not a database. Never leaves a connection thread running."""
        path = str(path)
        if path != ":memory:":
            if not Path(path).exists():
                log.info("no database at %s: creating a new one", os.path.abspath(path))
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StorageOpenError(path, str(e), "check that the folder can be created") from e
        connection = aiosqlite.connect(path, isolation_level=None)
        try:
            db = await connection
        except sqlite3.Error as e:
            # aiosqlite stops its thread without waiting: wait here, or it calls back into a closed event loop.
            thread = getattr(connection, "_thread", None)
            if thread is not None:
                await asyncio.to_thread(thread.join, 5)
            raise _open_error(path, e) from e
        try:
            store = cls(db, path)
            await store._on_thread(_configure)
            await store._migrate()
            await store._probe_write()
            await store._on_thread(fetch, f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # a move waits less than a start
        except StorageOpenError:
            await db.close()
            raise
        except sqlite3.Error as e:
            await db.close()  # aiosqlite's thread would otherwise keep the process alive
            raise _open_error(path, e) from e
        return store

    async def close(self) -> None:
        await self._db.close()

    @classmethod
    async def open_read_only(cls, path: str | Path) -> Self:
        """Open an existing database that this process must never write (the web site): SQLite's ``mode=ro``, no
        migrations, no probe; `StorageOpenError` when it is missing or older than this code (the bot migrates)."""
        path = str(path)
        if not Path(path).is_file():
            raise StorageOpenError(path, "no such database", "give the bot's database (--db PATH or sqlite:///PATH)")
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        try:
            db = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        except sqlite3.Error as e:
            raise _open_error(path, e) from e
        store = cls(db, path)
        try:
            await store._on_thread(fetch, f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            (current,) = await store._row("PRAGMA user_version")
        except sqlite3.Error as e:
            await db.close()
            raise _open_error(path, e) from e
        latest = _migrations()[-1][0]
        if current != latest:
            await db.close()
            raise StorageOpenError(path, f"the database's schema is version {current}, this Floorboard's {latest}",
                                   "start the bot (or a tournament simulation) of this version once to migrate it")
        return store

    async def _probe_write(self) -> None:
        """One real write at start (the time of this start): a database another process holds locked, or one
        that is read-only, is found now, within seconds, instead of at the first player's move. Its errors stay
        sqlite3's: `open` turns them into a `StorageOpenError` with a hint."""
        stamp = _json(_ts(datetime.now(UTC)))

        def probe(conn: sqlite3.Connection) -> None:
            run(conn, "BEGIN IMMEDIATE")
            try:
                run(conn, "INSERT INTO guild_settings (guild_id, key, value) VALUES (0, 'started_at', ?)"
                    " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value", (stamp,))
            except BaseException:
                run(conn, "ROLLBACK")
                raise
            run(conn, "COMMIT")

        await self._on_thread(probe)

    async def _migrate(self) -> None:
        """Apply the numbered migrations the file lacks (see `_apply_migrations`)."""
        await self._on_thread(_apply_migrations, _migrations(), self.path)

    async def schema_version(self) -> int:
        (version,) = await self._row("PRAGMA user_version")
        return version
