"""The PostgreSQL connection pool: one transaction per call, the numbered migrations, opening checks, and the
mapping of asyncpg's errors onto the storage layer's (the engine catches one set for every backend).

Rows are checked as they are read exactly as SQLite's are: each record is put in the shape a SQLite row has
(times as the ISO text SQLite stores) and decoded by storage/sqlite's readers, so a damaged row is reported the
same way, word for word, whichever backend holds it.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from importlib import resources
from typing import Any, Self, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage.errors import StorageBusyError, StorageConflictError, StorageError, StorageOpenError
from storage.sqlite.codec import dumps as _json
from storage.sqlite.codec import ts as _ts

log = logging.getLogger(__name__)
T = TypeVar("T")

POOL_SIZE = 4  # a small pool: one bot process rarely has more than a few transactions in flight at once
LOCK_TIMEOUT_MS = 2000  # a row or lock held by another process past this: StorageBusyError, as SQLite's busy timeout
MIGRATION_LOCK = 0x466C6F6F72  # pg_advisory_xact_lock key: one process migrates, the others wait and find it done

Connection = asyncpg.Connection


def _migrations() -> list[tuple[int, str]]:
    found = []
    for entry in resources.files("storage.migrations").joinpath("postgres").iterdir():
        m = re.fullmatch(r"(\d{4})_\w+\.sql", entry.name)
        if m:
            found.append((int(m.group(1)), entry.read_text(encoding="utf-8")))
    return sorted(found)


def shown_url(url: str) -> str:
    """The URL without its password (it is logged and shown)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def sqlite_shaped(record: Sequence[Any]) -> tuple[Any, ...]:
    """A record as SQLite returns the same row: times as the UTC ISO text it stores (for storage/sqlite's
    readers, which check every column)."""
    return tuple(_ts(v) if isinstance(v, datetime) else v for v in record)


def rowcount(status: str) -> int:
    """The row count of a command status (``UPDATE 1``, ``INSERT 0 1``, ``DELETE 3``)."""
    return int(status.rsplit(" ", 1)[-1])


_BUSY = (asyncpg.LockNotAvailableError, asyncpg.DeadlockDetectedError, asyncpg.SerializationError)
# The server or the connection to it went away: the request is refused (the player is told to retry), never a crash.
_UNREACHABLE = (asyncpg.PostgresConnectionError, asyncpg.CannotConnectNowError, asyncpg.AdminShutdownError,
                asyncpg.InterfaceError, OSError, TimeoutError)


async def _mapped(work: Awaitable[T]) -> T:
    try:
        return await work
    except asyncpg.IntegrityConstraintViolationError as e:
        raise StorageConflictError(str(e)) from e
    except _BUSY as e:
        raise StorageBusyError(str(e)) from e
    except _UNREACHABLE as e:
        raise StorageError(f"PostgreSQL: {e}") from e


def _open_error(url: str, error: BaseException) -> StorageOpenError:
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        hint = "the database does not exist: create it (createdb NAME) or fix DATABASE_URL"
    elif isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        hint = "the server refused the user or password: check DATABASE_URL"
    elif isinstance(error, asyncpg.ReadOnlySQLTransactionError):
        hint = "the server accepts no writes (a standby?): point DATABASE_URL at the primary"
    elif isinstance(error, OSError | TimeoutError | asyncpg.CannotConnectNowError):
        hint = "no PostgreSQL server answers there: start it, or check the host and port in DATABASE_URL"
    else:
        hint = "check DATABASE_URL"
    return StorageOpenError(shown_url(url), str(error) or type(error).__name__, hint)


async def _keep_session(conn: Connection) -> None:
    """The pool's reset of a released connection. asyncpg's default sends one more round trip on every release
    (unlock all, CLOSE ALL, UNLISTEN, RESET ALL), measured at about 1 ms of a 1.3 ms read here; the store never
    changes session state (no SET, LISTEN, cursor or session-level lock), and an open transaction is still
    rolled back by asyncpg before this is called."""


class PostgresDb:
    """A small asyncpg pool. The aggregates' mixins (games, deadlines, settings, league, tournaments, daily,
    content) are built on it, as SQLite's are on `SqliteDb`."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.path = shown_url(url)
        self.gone = False  # SQLite's replaced-file guard has no PostgreSQL counterpart; kept for the interface

    async def _write(self, fn: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``fn(connection)`` as one transaction on a pooled connection. As with SQLite, a caller cancelled
        while it waits does not stop the transaction: it commits or rolls back as if the caller had stayed."""

        async def transaction() -> T:
            async with self._pool.acquire() as conn, conn.transaction():
                return await fn(conn)

        task = asyncio.ensure_future(_mapped(transaction()))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved even if the caller left
        return await asyncio.shield(task)

    async def _read(self, fn: Callable[[Connection], Awaitable[T]]) -> T:
        """Several reads on one connection, each statement its own snapshot as SQLite's reads are (no BEGIN and
        COMMIT: two round trips fewer; the engine reads a game under its lock)."""

        async def read() -> T:
            async with self._pool.acquire() as conn:
                return await fn(conn)

        return await _mapped(read())

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await _mapped(self._pool.fetch(sql, *params))

    async def _row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await _mapped(self._pool.fetchrow(sql, *params))

    @classmethod
    async def open(cls, url: str) -> Self:
        """Connect, migrate, and write once (a server that refuses writes is found now, not at the first move);
        `StorageOpenError` with a hint when any of it fails. Never leaves a pool open."""
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, timeout=10, reset=_keep_session,
                server_settings={"lock_timeout": str(LOCK_TIMEOUT_MS), "timezone": "UTC"})
        except (asyncpg.PostgresError, OSError, TimeoutError, ValueError) as e:
            raise _open_error(url, e) from e
        store = cls(pool, url)
        try:
            await store._migrate()
            await store._probe_write()
        except StorageOpenError:
            await pool.close()
            raise
        except (asyncpg.PostgresError, OSError, TimeoutError) as e:
            await pool.close()
            raise _open_error(url, e) from e
        return store

    async def close(self) -> None:
        await self._pool.close()

    @classmethod
    async def open_read_only(cls, url: str) -> Self:
        """A pool whose every transaction is read-only (the web site): no migrations, no probe; the schema must be
        this code's (the bot migrates it)."""
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, timeout=10, reset=_keep_session,
                server_settings={"default_transaction_read_only": "on", "timezone": "UTC"})
        except (asyncpg.PostgresError, OSError, TimeoutError, ValueError) as e:
            raise _open_error(url, e) from e
        store = cls(pool, url)
        try:
            current = await store.schema_version()
        except (asyncpg.PostgresError, OSError, TimeoutError) as e:
            await pool.close()
            raise _open_error(url, e) from e
        latest = _migrations()[-1][0]
        if current != latest:
            await pool.close()
            raise StorageOpenError(store.path, f"the database's schema is version {current}, this Floorboard's"
                                   f" {latest}", "start the bot of this version once to migrate it")
        return store

    async def _probe_write(self) -> None:
        stamp = _json(_ts(datetime.now(UTC)))
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, key, value) VALUES (0, 'started_at', $1)"
                " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value", stamp)

    async def _migrate(self) -> None:
        """Apply the numbered migrations the schema lacks and record the last number, all in one transaction under
        an advisory lock (two processes starting at once: one migrates, the other finds it done). A schema newer
        than this code knows is refused."""
        known = _migrations()
        latest = known[-1][0]
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            current = await _version(conn)
            if current > latest:
                raise StorageOpenError(
                    self.path, f"the database's schema is version {current}, newer than this Floorboard knows"
                    f" ({latest})", "run the Floorboard version that wrote it, or restore a backup")
            pending = [(number, sql) for number, sql in known if number > current]
            for _, sql in pending:
                await conn.execute(sql)
            if pending:
                await conn.execute("DELETE FROM schema_version")
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", pending[-1][0])

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await _version(conn)


async def _version(conn: Connection) -> int:
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))
