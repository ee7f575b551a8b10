"""SQLite through aiosqlite: WAL, numbered migrations, and one transaction per move.

The engine speaks to storage through plain rows (`GameRow`, `ActionRow`, `DeadlineRow`) so that another backend
(PostgreSQL through asyncpg, for a sharded deployment) can implement the same methods. Times are stored as
ISO-8601 UTC text, JSON columns through orjson.

Each write transaction runs whole as one call on aiosqlite's connection thread (`SqliteStore._write`) and each read
is one call too: every round trip is a hop between threads, and under load those hops, not SQLite, were the cost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite
import orjson

from i18n.text import fold
from storage.codec import dt as _dt
from storage.codec import dumps as _json
from storage.codec import loads as _load
from storage.codec import ts as _ts
from storage.league import Finish, LeagueStore, write_finish
from storage.statements import fetch, fetch_one, run, run_many
from storage.tournaments import TournamentStore

OPEN_STATUSES = ("lobby", "active")
BUSY_TIMEOUT_MS = 2000  # another process holding the write lock: wait this long, then tell the player to retry

log = logging.getLogger(__name__)
T = TypeVar("T")


class StorageConflictError(Exception):
    """A write lost a race: the channel already has an open game, or the version moved on."""


class StorageError(Exception):
    """The database cannot serve a request; nothing was written."""


class StorageBusyError(StorageError):
    """Another process holds the database's write lock past the bounded wait."""


class StorageGoneError(StorageError):
    """The database file was removed or replaced while the bot ran: writes would vanish, so none are accepted."""


class StorageOpenError(StorageError):
    """The database cannot be opened at start (locked, read-only, not a database)."""

    def __init__(self, path: str, reason: str, hint: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason, self.hint = path, reason, hint


class DuplicateNameError(StorageConflictError):
    """A server already has a The Floor category of that name in that language."""


@dataclass
class GameRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    seed: str
    seats: list[dict[str, Any]]
    version: int
    moves: int
    state: dict[str, Any] | None
    meta: dict[str, Any]
    outcome: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    error: str | None = None  # why the row failed to decode (a damaged row); its JSON columns are then empty
    # Content written once, in the same transaction as the row (hash -> its JSON text), into ``shared_content``:
    # what the row's JSON columns reference (as ``{"$shared": hash}``) and the store may not hold yet.
    shared: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    seat: int
    action: str
    source: str
    user_id: int | None
    interaction_id: int | None
    created_at: datetime


@dataclass(frozen=True)
class DeadlineRow:
    game_id: int
    kind: str
    due_at: datetime
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    id: int | None = None


@dataclass(frozen=True)
class DailyRow:
    """One player's daily-challenge attempt (``daily_results``); ``score`` is None until its game is over."""

    id: int
    day: str
    user_id: int
    guild_id: int | None
    name: str
    game_id: int | None
    score: int | None
    rating: str | None
    started_at: datetime
    finished_at: datetime | None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


def _since(text: Any) -> datetime:
    """A stored time, or the epoch when it does not read (the row is damaged: the engine sets it aside)."""
    try:
        return _dt(text)
    except (ValueError, TypeError):
        return datetime.fromtimestamp(0, UTC)


def _migrations() -> list[tuple[int, str]]:
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        m = re.fullmatch(r"(\d{4})_\w+\.sql", entry.name)
        if m:
            found.append((int(m.group(1)), entry.read_text(encoding="utf-8")))
    return sorted(found)


_GAME_COLUMNS = (
    "id, game, guild_id, channel_id, host_id, status, options, seed, seats, version, moves, state, meta, "
    "outcome, created_at, updated_at"
)


STATUSES = ("lobby", "active", "finished", "aborted")
MAX_INT = 2**63 - 1  # SQLite's INTEGER: a number past it is stored as REAL, and Python would take it as a float
_GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")


def _integer(low: int, *, null: bool = False) -> Callable[[Any], Any]:
    """A check of a stored integer in ``low``..`MAX_INT` (``None`` too when ``null``). ``bool`` and float are
    refused: text or a number past 64 bits in an INTEGER column reads back as them, never as an int."""

    def check(value: Any) -> Any:
        if value is None and null:
            return None
        if type(value) is not int or not low <= value <= MAX_INT:
            raise ValueError(f"{str(value)[:40]!r} is not an integer in {low}..2**63-1")
        return value

    return check


def _one_of(allowed: Sequence[str]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"{str(value)[:40]!r} is not one of {', '.join(allowed)}")
        return str(value)

    return check


def _game_id(value: Any) -> str:
    if not isinstance(value, str) or not _GAME_ID.fullmatch(value):
        raise ValueError(f"{str(value)[:40]!r} is not a game id")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{str(value)[:40]!r} is not text")
    return value


def _json_of(kind: type, *, null: bool = False) -> Callable[[Any], Any]:
    """Decode a JSON column and check that it holds a ``kind`` (an object, a list), or null when ``null``."""

    def decode(text: Any) -> Any:
        if text is None and not null:
            raise ValueError("missing")
        value = _load(text)
        if not (value is None and null) and not isinstance(value, kind):
            raise ValueError(f"not a JSON {'object' if kind is dict else 'array'}")
        return value

    return decode


_SEAT_USER = _integer(1, null=True)


def _seat_problem(seat: Any) -> str | None:
    """What is wrong with one stored seat (`engine.tables.SeatInfo`), or None."""
    if not isinstance(seat, dict):
        return "not an object"
    if "user_id" not in seat or not isinstance(seat.get("name"), str) or not isinstance(seat.get("bot", False), bool):
        return "user_id, name or bot missing or of the wrong type"
    try:
        _SEAT_USER(seat["user_id"])
    except ValueError as e:
        return f"user_id {e}"
    return None


def _moment(text: Any) -> datetime:
    value = _dt(text)
    if value.tzinfo is None:  # compared with aware times everywhere: a naive one would raise at the first use
        raise ValueError(f"{text[:40]!r} has no time zone")
    return value


def _game(row: sqlite3.Row | tuple[Any, ...]) -> GameRow:
    """A game row, every column checked (type and range) as it is read. A row that fails any check is still
    returned, with ``error`` saying why and safe values in the failed columns (0, empty), so that one damaged row
    never fails a query that lists many, and the engine isolates it instead of acting on it."""
    (gid, game, guild, channel, host, status, options, seed, seats, version, moves, state, meta, outcome,
     created, updated) = row
    errors: list[str] = []

    def column(name: str, decode: Callable[[Any], Any], value: Any, empty: Any) -> Any:
        # The columns that still read stay (who sits at a damaged table is what its players need to be told).
        try:
            return decode(value)
        except (ValueError, TypeError) as e:  # orjson.JSONDecodeError and bad timestamps are ValueErrors
            errors.append(f"{name}: {e}")
            return empty

    seat_list = column("seats", _json_of(list), seats, [])
    problems = [(i, _seat_problem(s)) for i, s in enumerate(seat_list)]
    errors += [f"seat {i}: {problem}" for i, problem in problems if problem is not None]
    epoch = datetime.fromtimestamp(0, UTC)
    decoded = GameRow(
        id=gid, game=column("game", _game_id, game, str(game)),  # id: the rowid, always an integer
        guild_id=column("guild_id", _integer(1, null=True), guild, None),
        # Any 64-bit id: a tournament's table without a surface has a made-up negative one, old terminal saves 0.
        channel_id=column("channel_id", _integer(-MAX_INT), channel, 0),
        host_id=column("host_id", _integer(0), host, 0),  # 0: no human hosts it (bots only)
        status=column("status", _one_of(STATUSES), status, str(status)),
        options=column("options", _json_of(dict), options, {}), seed=column("seed", _text, seed, ""),
        seats=[s for (_, problem), s in zip(problems, seat_list, strict=True) if problem is None],
        version=column("version", _integer(0), version, 0), moves=column("moves", _integer(0), moves, 0),
        state=column("state", _json_of(dict, null=True), state, None), meta=column("meta", _json_of(dict), meta, {}),
        outcome=column("outcome", _json_of(dict, null=True), outcome, None),
        created_at=column("created_at", _moment, created, epoch),
        updated_at=column("updated_at", _moment, updated, epoch),
    )
    if errors:
        decoded.error = "undecodable row: " + "; ".join(errors)
    return decoded


def _action(row: Sequence[Any]) -> ActionRow:
    game_id, seq, seat, action, source, user_id, interaction_id, created = row
    return ActionRow(game_id, seq, seat, action, source, user_id, interaction_id, _dt(created))


_DAILY_COLUMNS = "id, day, user_id, guild_id, name, game_id, score, rating, started_at, finished_at"


def _daily(row: Sequence[Any]) -> DailyRow:
    did, day, user_id, guild_id, name, game_id, score, rating, started, finished = row
    return DailyRow(did, day, user_id, guild_id, name, game_id, score, rating, _dt(started),
                    None if finished is None else _dt(finished))


SERVER_CATEGORY_PREFIX = "server_"


def server_category_number(category_id: int | str) -> int | None:
    """The ``floor_categories`` row id of ``12`` or ``"server_12"``; None for anything else (a built-in id)."""
    if isinstance(category_id, int):
        return category_id
    text = category_id.strip().lower().removeprefix(SERVER_CATEGORY_PREFIX)
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


def _floor_category(row: Sequence[Any]) -> dict[str, Any]:
    cid, name, flags, answers = row
    return {"id": f"{SERVER_CATEGORY_PREFIX}{cid}", "name": name, "flags": _load(flags), "answers": _load(answers)}


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


_DEADLINES_OF_GAME = "SELECT id, game_id, kind, seat, due_at, data FROM deadlines WHERE game_id = ? ORDER BY due_at, id"
# A user's running games. ``instr`` (the id's digits somewhere in the seats' text) is a cheap necessary test, so
# only the few candidate rows are parsed. The CASEs keep a damaged row (seats not JSON, a seat not an object) from
# failing the whole query: json_each and json_extract raise on malformed JSON, and SQLite does not promise to test
# the other terms first. ``status IN (...)`` lets the all-servers query read the open games' partial index only.
_GAMES_OF_USER = """
SELECT g.id, coalesce((SELECT a.created_at FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1),
                      g.created_at)
FROM games g {index}
WHERE g.status IN ('lobby', 'active') AND g.status = 'active'{where} AND CASE WHEN instr(g.seats, ?) THEN EXISTS (
    SELECT 1 FROM json_each(CASE WHEN json_valid(g.seats) THEN g.seats ELSE '[]' END) s
    WHERE CASE WHEN s.type = 'object' THEN json_extract(s.value, '$.user_id') END = ?
      AND NOT coalesce(CASE WHEN s.type = 'object' THEN json_extract(s.value, '$.bot') END, 0)) ELSE 0 END
ORDER BY g.id"""


def _insert_deadlines(conn: sqlite3.Connection, game_id: int, deadlines: Iterable[DeadlineRow]) -> list[DeadlineRow]:
    """Insert (on the connection's thread); the added rows with their ids."""
    added = []
    for d in deadlines:
        cur = run(conn, "INSERT INTO deadlines (game_id, kind, seat, due_at, data) VALUES (?, ?, ?, ?, ?)",
                  (game_id, d.kind, d.seat, _ts(d.due_at), _json(d.data)))
        added.append(replace(d, game_id=game_id, id=cur.lastrowid))
    return added


def _shared_params(row: GameRow) -> list[tuple[str, str, str]]:
    return [(digest, text, _ts(row.updated_at)) for digest, text in row.shared.items()]


def _insert_shared(conn: sqlite3.Connection, params: list[tuple[str, str, str]]) -> None:
    if not params:
        return
    # The hash names the content: a row already there holds the same text, so the first writer's stays.
    run_many(conn, "INSERT INTO shared_content (hash, data, created_at) VALUES (?, ?, ?)"
             " ON CONFLICT (hash) DO NOTHING", params)


def _configure(conn: sqlite3.Connection) -> None:
    """The connection's settings at start, each PRAGMA's answer read (a PRAGMA that answers is a statement in
    progress until it is: see storage/statements.py)."""
    fetch(conn, f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    # WAL + NORMAL: a commit survives a process crash (not a power cut) at a fraction of FULL's cost.
    fetch(conn, "PRAGMA journal_mode=WAL")
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


def _deadline(row: Sequence[Any]) -> DeadlineRow:
    """A deadline row, every column checked as a game row's are; ValueError when one fails."""
    did, game_id, kind, seat, due, data = row
    return DeadlineRow(game_id=_integer(1)(game_id), kind=_text(kind), due_at=_moment(due),
                       seat=_integer(-MAX_INT, null=True)(seat), data=_json_of(dict)(data), id=did)


def _sound_deadlines(raw: Iterable[Sequence[Any]], game_id: int) -> list[DeadlineRow]:
    """A game's deadline rows that decode; a damaged one is left out (logged): the scheduler sets it aside
    (`SqliteStore.due_deadlines`), and it must not stop the game."""
    deadlines = []
    for r in raw:
        try:
            deadlines.append(_deadline(r))
        except (ValueError, TypeError):
            log.error("deadline row %s of game %s is damaged; left out: %r", r[0], game_id, r)
    return deadlines


class SqliteStore(LeagueStore, TournamentStore):
    """The embedded default backend. One connection; aiosqlite runs it on its own thread. Results and ratings:
    storage/league.py."""

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
    async def open(cls, path: str | Path) -> SqliteStore:
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
        except sqlite3.Error as e:
            await db.close()  # aiosqlite's thread would otherwise keep the process alive
            raise _open_error(path, e) from e
        return store

    async def close(self) -> None:
        await self._db.close()

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
        current = await self.schema_version()
        for number, sql in _migrations():
            if number <= current:
                continue
            script = f"BEGIN;\n{sql}\nPRAGMA user_version={number};\nCOMMIT;"
            await self._on_thread(lambda conn, script=script: conn.executescript(script).close())

    async def schema_version(self) -> int:
        (version,) = await self._row("PRAGMA user_version")
        return version

    # --- games -----------------------------------------------------------------------------------------

    async def insert_game(self, row: GameRow, deadlines: Iterable[DeadlineRow] = ()) -> int:
        values = (row.game, row.guild_id, row.channel_id, row.host_id, row.status, _json(row.options), row.seed,
                  _json(row.seats), row.version, row.moves, None if row.state is None else _json(row.state),
                  _json(row.meta), None if row.outcome is None else _json(row.outcome), _ts(row.created_at),
                  _ts(row.updated_at))
        shared = _shared_params(row)
        deadlines = list(deadlines)

        def write(conn: sqlite3.Connection) -> int:
            _insert_shared(conn, shared)
            cur = run(
                conn, "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, seats, version,"
                " moves, state, meta, outcome, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
            game_id = cur.lastrowid
            assert game_id is not None
            _insert_deadlines(conn, game_id, deadlines)
            return game_id

        return await self._write(write)

    async def load_game(self, game_id: int) -> GameRow | None:
        row = await self._row(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def load_table(self, game_id: int) -> tuple[GameRow | None, list[DeadlineRow]]:
        """A game's row and its deadlines, read together in one round trip. A deadline row that does not decode
        is left out (logged): the scheduler sets it aside (`due_deadlines`), and it must not stop the game."""

        def read(conn: sqlite3.Connection) -> tuple[Any, list[Any]]:
            row = fetch_one(conn, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            return row, fetch(conn, _DEADLINES_OF_GAME, (game_id,))

        row, raw = await self._on_thread(read)
        if row is None:
            return None, []
        return _game(row), _sound_deadlines(raw, game_id)

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return None if row is None else _game(row)

    async def last_game_in_channel(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None:
        """The channel's newest game with one of ``statuses`` (a thread's game after it ended)."""
        marks = ", ".join("?" for _ in statuses)
        row = await self._row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT 1",
            (channel_id, *statuses),
        )
        return None if row is None else _game(row)

    async def games_in_guild(self, guild_id: int, statuses: Sequence[str] = OPEN_STATUSES) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status IN ({marks}) ORDER BY id",
            (guild_id, *statuses),
        )
        return [_game(r) for r in rows]

    async def game_ids(self, statuses: Sequence[str] | None = None) -> list[int]:
        if statuses is None:
            rows = await self._rows("SELECT id FROM games ORDER BY id")
        else:
            marks = ", ".join("?" for _ in statuses)
            rows = await self._rows(f"SELECT id FROM games WHERE status IN ({marks}) ORDER BY id", tuple(statuses))
        return [r[0] for r in rows]

    async def game_ids_where(self, meta_key: str, *, below_moves: bool, game: str | None = None,
                             statuses: Sequence[str] = ("active",), missing: bool = True) -> list[int]:
        """Ids of games whose ``meta[meta_key]`` is missing (unless not ``missing``) or (``below_moves``) less
        than their move count: the few a restart must look at, found without loading every game."""
        marks = ", ".join("?" for _ in statuses)
        # A row whose meta is not JSON is listed (the engine isolates it on loading), never fatal to the query.
        value = f"CASE WHEN json_valid(meta) THEN json_extract(meta, '$.{meta_key}') END"
        below = f"{value} < moves" if below_moves else "0"
        test = f"({value} IS NULL OR {below})" if missing else f"({below})"
        kind = " AND game = ?" if game is not None else ""
        rows = await self._rows(
            f"SELECT id FROM games WHERE status IN ({marks}) AND {test}{kind} ORDER BY id",
            (*statuses, *([game] if game is not None else [])))
        return [r[0] for r in rows]

    async def games_of_user(self, user_id: int, guild_id: int | None = None) -> list[tuple[int, datetime]]:
        """The running games ``user_id`` holds a (human) seat in, on one server or on all of them: each id with
        the time its position last changed: its last action; before the first one, the lobby's opening (the
        start is not stored apart, and ``updated_at`` moves with every bookkeeping save).

        No index table: the open games' rows are scanned through an index and only those whose seats' text holds
        the id are parsed (`_GAMES_OF_USER`). Measured: every server, 1,000 running and 10,000 finished games,
        about 1.5 ms; one server, well under 1 ms. A damaged row's seats read as no seats."""
        if guild_id is None:  # every server: only the open games' rows are read, through the partial index
            sql = _GAMES_OF_USER.format(index="INDEXED BY games_one_open_per_channel", where="")
        else:
            sql = _GAMES_OF_USER.format(index="INDEXED BY games_by_guild", where=" AND g.guild_id = ?")
        guild = () if guild_id is None else (guild_id,)
        rows = await self._rows(sql, (*guild, str(user_id), user_id))
        return [(gid, _since(text)) for gid, text in rows]

    async def save_game(
        self,
        row: GameRow,
        *,
        expect_version: int,
        action: ActionRow | None = None,
        drop_deadlines: Iterable[int] = (),
        add_deadlines: Iterable[DeadlineRow] = (),
        clear_deadlines: bool = False,
        finish: Finish | None = None,
    ) -> list[DeadlineRow]:
        """Write the new snapshot, its action, its shared content and its deadline changes in one transaction;
        returns the added deadlines with their ids.

        ``expect_version`` is the version the caller loaded: a concurrent writer makes this fail instead of
        silently overwriting a move. ``clear_deadlines`` drops all the game's deadlines before adding. ``finish``:
        the game ended; its results and rating changes are written in this same transaction (once per game).
        """
        values = (row.status, _json(row.options), _json(row.seats), row.version, row.moves,
                  None if row.state is None else _json(row.state), _json(row.meta),
                  None if row.outcome is None else _json(row.outcome), _ts(row.updated_at), row.id, expect_version)
        logged = None if action is None else (
            action.game_id, action.seq, action.seat, action.action, action.source, action.user_id,
            action.interaction_id, _ts(action.created_at))
        shared = _shared_params(row)
        drops = [(deadline_id,) for deadline_id in drop_deadlines]
        adds = list(add_deadlines)

        def write(conn: sqlite3.Connection) -> list[DeadlineRow]:
            cur = run(
                conn,
                "UPDATE games SET status = ?, options = ?, seats = ?, version = ?, moves = ?, state = ?, meta = ?,"
                " outcome = ?, updated_at = ? WHERE id = ? AND version = ?", values)
            if cur.rowcount != 1:
                raise StorageConflictError(f"game {row.id} is no longer at version {expect_version}")
            if finish is not None:
                write_finish(conn, finish)
            _insert_shared(conn, shared)
            if logged is not None:
                run(
                    conn,
                    "INSERT INTO actions (game_id, seq, seat, action, source, user_id, interaction_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", logged)
            if clear_deadlines:
                run(conn, "DELETE FROM deadlines WHERE game_id = ?", (row.id,))
            run_many(conn, "DELETE FROM deadlines WHERE id = ?", drops)
            return _insert_deadlines(conn, row.id, adds)

        return await self._write(write)

    # --- shared content --------------------------------------------------------------------------------

    async def shared_content(self, hashes: Iterable[str]) -> dict[str, str]:
        """The stored JSON text of each of ``hashes`` that is stored (see `GameRow.shared`)."""
        wanted = sorted(set(hashes))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self._rows(f"SELECT hash, data FROM shared_content WHERE hash IN ({marks})", wanted)
        return {h: data for h, data in rows}

    # --- actions ---------------------------------------------------------------------------------------

    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self._rows(
            "SELECT game_id, seq, seat, action, source, user_id, interaction_id, created_at FROM actions"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [_action(r) for r in rows]

    async def action_by_interaction(self, interaction_id: int) -> ActionRow | None:
        row = await self._row(
            "SELECT game_id, seq, seat, action, source, user_id, interaction_id, created_at FROM actions"
            " WHERE interaction_id = ?",
            (interaction_id,),
        )
        return None if row is None else _action(row)

    # --- deadlines -------------------------------------------------------------------------------------

    async def deadlines_for(self, game_id: int) -> list[DeadlineRow]:
        return _sound_deadlines(await self._rows(_DEADLINES_OF_GAME, (game_id,)), game_id)

    async def due_deadlines(self, now: datetime, limit: int = 100, exclude: set[int] | frozenset[int] = frozenset(),
                            ) -> list[DeadlineRow]:
        """Deadlines due by ``now``, oldest first, leaving out damaged games' and the ``exclude``d games'."""
        marks = ", ".join("?" for _ in exclude)
        raw = await self._rows(
            "SELECT id, game_id, kind, seat, due_at, data FROM deadlines WHERE due_at <= ?"
            " AND game_id NOT IN (SELECT game_id FROM damaged_games)"
            f"{f' AND game_id NOT IN ({marks})' if exclude else ''} ORDER BY due_at, id LIMIT ?",
            (_ts(now), *sorted(exclude), limit),
        )
        rows, broken = [], []
        for r in raw:
            try:
                rows.append(_deadline(r))
            except (ValueError, TypeError):  # a damaged deadline row: set aside, never in the way of the others
                log.error("deadline row %s is damaged; postponed by an hour: %r", r[0], r)
                broken.append(r[0])
        for deadline_id in broken:
            await self.postpone_deadline(deadline_id, now + timedelta(hours=1))
        return rows

    async def next_deadline(self) -> datetime | None:
        (due,) = await self._row(
            "SELECT MIN(due_at) FROM deadlines WHERE game_id NOT IN (SELECT game_id FROM damaged_games)")
        try:
            return None if due is None else _dt(due)
        except ValueError:
            return None

    async def drop_deadline(self, deadline_id: int) -> None:
        await self._write(lambda conn: run(conn, "DELETE FROM deadlines WHERE id = ?", (deadline_id,)).rowcount)

    async def postpone_deadline(self, deadline_id: int, due_at: datetime) -> None:
        """Move a deadline that failed to fire later (a back-off), so it does not come first in every pass."""
        params = (_ts(due_at), deadline_id)
        await self._write(lambda conn: run(conn, "UPDATE deadlines SET due_at = ? WHERE id = ?", params).rowcount)

    # --- damaged games ---------------------------------------------------------------------------------

    async def mark_damaged(self, game_id: int, reason: str, now: datetime) -> bool:
        """Record that a game's row fails to load; True the first time (its players are to be told once)."""

        def write(conn: sqlite3.Connection) -> bool:
            cur = run(
                conn, "INSERT INTO damaged_games (game_id, reason, found_at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO NOTHING", (game_id, reason[:500], _ts(now)))
            if cur.rowcount != 1:
                return False
            cur = run(
                conn, "UPDATE damaged_games SET notified_at = ? WHERE game_id = ? AND notified_at IS NULL",
                (_ts(now), game_id))
            return cur.rowcount == 1

        return await self._write(write)

    async def damaged_games(self) -> dict[int, str]:
        rows = await self._rows(
            "SELECT d.game_id, d.reason FROM damaged_games d JOIN games g ON g.id = d.game_id"
            " WHERE g.status IN ('lobby', 'active')")
        return {gid: reason for gid, reason in rows}

    async def close_damaged(self, game_id: int, reason: str) -> bool:
        """Abort a damaged game without decoding it: its status and deadlines only; the row stays for export."""

        def write(conn: sqlite3.Connection) -> bool:
            cur = run(
                conn, "UPDATE games SET status = 'aborted', version = version + 1 WHERE id = ?"
                " AND status IN ('lobby', 'active')", (game_id,))
            run(conn, "DELETE FROM deadlines WHERE game_id = ?", (game_id,))
            run(conn, "UPDATE damaged_games SET reason = reason || ? WHERE game_id = ?",
                (f" (closed: {reason})", game_id))
            return cur.rowcount == 1

        return await self._write(write)

    # --- settings --------------------------------------------------------------------------------------

    # --- players: their settings and vacations ------------------------------------------------------------

    async def user_settings(self, user_id: int) -> dict[str, Any]:
        row = await self._row("SELECT data FROM user_settings WHERE user_id = ?", (user_id,))
        value = None if row is None else orjson.loads(row[0])
        return value if isinstance(value, dict) else {}

    async def all_user_settings(self) -> dict[int, dict[str, Any]]:
        """Every player's settings (a few bytes each: the bot keeps them in memory)."""
        out = {}
        for user_id, text in await self._rows("SELECT user_id, data FROM user_settings"):
            with contextlib.suppress(orjson.JSONDecodeError, TypeError):  # one damaged row: that player's defaults
                out[user_id] = orjson.loads(text)
        return out

    async def set_user_settings(self, user_id: int, data: dict[str, Any]) -> None:
        text = _json(data)

        def write(conn: sqlite3.Connection) -> None:
            run(conn, "INSERT INTO user_settings (user_id, data) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET data = excluded.data", (user_id, text))

        await self._write(write)

    async def vacations(self, user_id: int, guild_id: int, since: datetime) -> list[tuple[int, datetime, datetime]]:
        """The player's vacations on a server that end after ``since``: (id, starts, ends), oldest first."""
        rows = await self._rows("SELECT id, starts_at, ends_at FROM vacations WHERE user_id = ? AND guild_id = ?"
                                " AND ends_at > ? ORDER BY starts_at", (user_id, guild_id, _ts(since)))
        return [(r[0], _dt(r[1]), _dt(r[2])) for r in rows]

    async def add_vacation(self, user_id: int, guild_id: int, starts: datetime, ends: datetime) -> int:
        def write(conn: sqlite3.Connection) -> int:
            cur = run(conn, "INSERT INTO vacations (guild_id, user_id, starts_at, ends_at) VALUES (?, ?, ?, ?)",
                      (guild_id, user_id, _ts(starts), _ts(ends)))
            return int(cur.lastrowid or 0)

        return await self._write(write)

    async def end_vacation(self, vacation_id: int, ends: datetime) -> None:
        def write(conn: sqlite3.Connection) -> None:
            run(conn, "UPDATE vacations SET ends_at = ? WHERE id = ?", (_ts(ends), vacation_id))

        await self._write(write)

    async def get_setting(self, guild_id: int, key: str) -> Any:
        row = await self._row("SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
        return None if row is None else orjson.loads(row[0])

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        text = None if value is None else _json(value)

        def write(conn: sqlite3.Connection) -> None:
            if text is None:
                run(conn, "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
            else:
                run(
                    conn, "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value", (guild_id, key, text))

        await self._write(write)

    # --- daily challenge -------------------------------------------------------------------------------

    async def claim_daily(self, day: str, user_id: int, guild_id: int | None, name: str,
                          started_at: datetime) -> tuple[DailyRow, bool]:
        """The player's attempt for ``day``: a new row (True), or the one already there (False)."""

        def write(conn: sqlite3.Connection) -> tuple[Any, bool]:
            cur = run(
                conn, "INSERT INTO daily_results (day, user_id, guild_id, name, started_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (day, user_id) DO NOTHING",
                (day, user_id, guild_id, name, _ts(started_at)),
            )
            row = fetch_one(conn, f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE day = ? AND user_id = ?",
                            (day, user_id))
            return row, cur.rowcount == 1

        row, created = await self._write(write)
        assert row is not None
        return _daily(row), created

    async def daily_attempt(self, day: str, user_id: int) -> DailyRow | None:
        row = await self._row(f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE day = ? AND user_id = ?",
                              (day, user_id))
        return None if row is None else _daily(row)

    async def daily_by_id(self, daily_id: int) -> DailyRow | None:
        row = await self._row(f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE id = ?", (daily_id,))
        return None if row is None else _daily(row)

    async def set_daily_game(self, daily_id: int, game_id: int) -> None:
        await self._write(lambda conn: run(
            conn, "UPDATE daily_results SET game_id = ? WHERE id = ?", (game_id, daily_id)).rowcount)

    async def finish_daily(self, daily_id: int, score: int, rating: str | None, finished_at: datetime) -> bool:
        """Store the result once: False (and nothing changed) when the attempt already has one."""
        params = (score, rating, _ts(finished_at), daily_id)
        changed = await self._write(lambda conn: run(
            conn,
            "UPDATE daily_results SET score = ?, rating = ?, finished_at = ? WHERE id = ? AND finished_at IS NULL",
            params).rowcount)
        return changed == 1

    async def daily_leaderboard(self, day: str, guild_id: int | None = None, limit: int = 10) -> list[DailyRow]:
        """The day's finished attempts, best first (higher score, then the earlier finish); one server's when
        ``guild_id`` is given, every server's otherwise."""
        where, params = "day = ? AND finished_at IS NOT NULL", [day]
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._rows(
            f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE {where} ORDER BY score DESC, finished_at, id LIMIT ?",
            (*params, limit),
        )
        return [_daily(r) for r in rows]

    async def daily_rank(self, row: DailyRow, *, same_guild: bool = False) -> tuple[int, int] | None:
        """(place, finishers) of a finished attempt among the day's (its server's) finished attempts."""
        if row.score is None or row.finished_at is None:
            return None
        where, params = "day = ? AND finished_at IS NOT NULL", [row.day]
        if same_guild:
            where += " AND guild_id IS ?"
            params.append(row.guild_id)
        finished = _ts(row.finished_at)
        total, better = await self._row(
            f"SELECT COUNT(*), SUM(score > ? OR (score = ? AND (finished_at < ? OR (finished_at = ? AND id < ?))))"
            f" FROM daily_results WHERE {where}",
            (row.score, row.score, finished, finished, row.id, *params),
        )
        return int(better or 0) + 1, int(total)

    # --- The Floor: server content ---------------------------------------------------------------------

    async def add_floor_category(self, guild_id: int, lang: str, name: str, flags: Sequence[str],
                                 answers: Sequence[str], user_id: int | None, now: datetime) -> int:
        """Store a server's own category; returns its row id (the game knows it as ``server_<id>``).

        Raises `DuplicateNameError` (nothing written) when the server already has a category of exactly that
        name in that language. Validation (flags, sizes, duplicate answers) is the caller's.
        """
        params = (guild_id, lang, name, _json(list(flags)), _json(list(answers)), user_id, _ts(now))

        def write(conn: sqlite3.Connection) -> int:
            cur = run(
                conn, "INSERT INTO floor_categories (guild_id, lang, name, flags, answers, created_by, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, lang, name) DO NOTHING", params)
            if cur.rowcount != 1:
                raise DuplicateNameError(f"guild {guild_id} already has a {lang} category named {name!r}")
            assert cur.lastrowid is not None
            return cur.lastrowid

        return await self._write(write)

    async def floor_categories(self, guild_id: int, lang: str) -> list[dict[str, Any]]:
        """A server's categories in one language, oldest first: ``{"id": "server_<id>", "name", "flags",
        "answers"}`` each."""
        rows = await self._rows(
            "SELECT id, name, flags, answers FROM floor_categories WHERE guild_id = ? AND lang = ? ORDER BY id",
            (guild_id, lang),
        )
        return [_floor_category(r) for r in rows]

    async def floor_category(self, guild_id: int, category_id: int | str) -> tuple[str, dict[str, Any]] | None:
        """(lang, category) of one of the server's categories by ``server_<id>`` (or the bare number)."""
        number = server_category_number(category_id)
        if number is None:
            return None
        row = await self._row(
            "SELECT lang, id, name, flags, answers FROM floor_categories WHERE guild_id = ? AND id = ?",
            (guild_id, number),
        )
        return None if row is None else (row[0], _floor_category(row[1:]))

    async def remove_floor_category(self, guild_id: int, category_id: int | str) -> bool:
        """Delete one of the server's categories (``server_<id>`` or the bare number) with the answers added to
        it; False when the server has no such category."""
        number = server_category_number(category_id)
        if number is None:
            return False

        def write(conn: sqlite3.Connection) -> bool:
            cur = run(conn, "DELETE FROM floor_categories WHERE guild_id = ? AND id = ?", (guild_id, number))
            if cur.rowcount != 1:
                return False
            run(conn, "DELETE FROM floor_answers WHERE guild_id = ? AND category = ?",
                (guild_id, f"{SERVER_CATEGORY_PREFIX}{number}"))
            return True

        return await self._write(write)

    async def add_floor_answer(self, guild_id: int, lang: str, category: str, answer: str, user_id: int | None,
                               now: datetime, *, key: str | None = None) -> bool:
        """Add an answer to the server's list for a category; False when an answer with the same key (by default
        `i18n.text.fold` of it) is there already."""
        folded = fold(answer) if key is None else key
        params = (guild_id, lang, category, answer, folded, user_id, _ts(now))
        added = await self._write(lambda conn: run(
            conn, "INSERT INTO floor_answers (guild_id, lang, category, answer, folded, added_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, lang, category, folded) DO NOTHING",
            params).rowcount)
        return added == 1

    async def floor_answers(self, guild_id: int, lang: str) -> dict[str, list[str]]:
        """The answers a server added, per category id (built-in or ``server_<id>``), each list oldest first."""
        rows = await self._rows(
            "SELECT category, answer FROM floor_answers WHERE guild_id = ? AND lang = ? ORDER BY category, rowid",
            (guild_id, lang),
        )
        out: dict[str, list[str]] = {}
        for category, answer in rows:
            out.setdefault(category, []).append(answer)
        return out

    async def remove_floor_answer(self, guild_id: int, lang: str, category: str, answer: str, *,
                                  key: str | None = None) -> bool:
        """Remove an added answer (matched by its folded key); False when it is not on the server's list."""
        folded = fold(answer) if key is None else key
        params = (guild_id, lang, category, folded)
        removed = await self._write(lambda conn: run(
            conn, "DELETE FROM floor_answers WHERE guild_id = ? AND lang = ? AND category = ? AND folded = ?",
            params).rowcount)
        return removed == 1
