"""`db copy`: every table of one store into another (SQLite → PostgreSQL, the upgrade path, and back), verified.

Both ends are opened with `open_store` (so both are migrated to this code's schema) and copied table by table in
batches, parents before children, each batch in one transaction of the target. Each table's rows are counted and
hashed on both ends (`TableSum`: the sum of each row's SHA-256 over its canonical values, so the order rows come in
does not matter); the copy is checked by reading the target back. The target must be empty unless ``replace``
(every table emptied first); a target that already holds exactly the source's rows is left as it is (a second
run is a no-op). The start stamp each store writes when it opens (server 0's ``started_at``) is not data: it is
neither copied nor counted. Row ids are kept; PostgreSQL's identity sequences then continue after the highest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from storage.sqlite.codec import ts as _ts
from storage.store import Store, is_postgres_url, open_store, sqlite_path

BATCH = 2000
_MOD = 2**256
_TIME = "time"
_BOOL = "bool"


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    kinds: dict[str, str]  # columns that are not stored alike: times (ISO text / TIMESTAMPTZ), booleans
    identity: str | None = None  # PostgreSQL's generated column, to continue after the copied ids


def _t(name: str, columns: str, key: str, *, times: str = "", bools: str = "", identity: str | None = None) -> Table:
    kinds = {c: _TIME for c in times.split()} | {c: _BOOL for c in bools.split()}
    return Table(name, tuple(columns.split()), tuple(key.split()), kinds, identity)


# Every table of the schema (migration 0012), parents first. tests/storage/test_copy.py checks that this covers
# every table and column of both backends, so a new migration cannot be forgotten here.
TABLES = (
    _t("games", "id game guild_id channel_id host_id status options seed seats version moves state meta outcome"
       " created_at updated_at", "id", times="created_at updated_at", identity="id"),
    _t("actions", "game_id seq seat action source user_id interaction_id created_at", "game_id seq",
       times="created_at"),
    _t("deadlines", "id game_id kind seat due_at data claimed_by claim_until", "id", times="due_at claim_until",
       identity="id"),
    _t("guild_settings", "guild_id key value", "guild_id key"),
    _t("daily_results", "id day user_id guild_id name game_id score rating started_at finished_at", "id",
       times="started_at finished_at", identity="id"),
    _t("floor_categories", "id guild_id lang name flags answers created_by created_at", "id", times="created_at",
       identity="id"),
    # seq: the order answers were added in (SQLite's rowid, PostgreSQL's seq column).
    _t("floor_answers", "guild_id lang category answer folded added_by created_at seq",
       "guild_id lang category folded", times="created_at", identity="seq"),
    _t("damaged_games", "game_id reason found_at notified_at", "game_id", times="found_at notified_at"),
    _t("shared_content", "hash data created_at", "hash", times="created_at"),
    _t("user_settings", "user_id data", "user_id"),
    _t("vacations", "id guild_id user_id starts_at ends_at", "id", times="starts_at ends_at", identity="id"),
    _t("results", "game_id user_id guild_id game seat place outcome score rated before after finished_at",
       "game_id user_id", times="finished_at", bools="rated"),
    _t("ratings", "scope game user_id mu sigma games wins draws losses updated_at", "scope game user_id",
       times="updated_at"),
    _t("tournaments", "id guild_id channel_id organizer_id name game status data version due_at created_at"
       " updated_at", "id", times="due_at created_at updated_at", identity="id"),
    _t("tournament_games", "game_id tournament_id round table_index", "game_id"),
    _t("web_slugs", "slug kind guild_id object_id created_at", "slug", times="created_at"),
    _t("follows", "game_id user_id guild_id mode created_at last_sent_at sent_moves", "game_id user_id",
       times="created_at last_sent_at"),
    _t("queue_entries", "guild_id user_id game players time rating bots_ok channel_id name joined_at",
       "guild_id user_id game", times="joined_at", bools="bots_ok"),
    _t("challenges", "id guild_id channel_id challenger_id challenged_id game options status message_id game_id"
       " created_at expires_at", "id", times="created_at expires_at", identity="id"),
)


class CopyError(Exception):
    """The copy cannot start (a non-empty target, one database twice) or did not verify; says which table."""


@dataclass(frozen=True)
class TableSum:
    table: str
    rows: int
    checksum: str  # hex: the sum, modulo 2**256, of each row's SHA-256


class _Side:
    """One end of the copy: its store and the SQL dialect it speaks."""

    def __init__(self, store: Store, postgres: bool) -> None:
        self.store, self.postgres = store, postgres
        self.db: Any = store  # the backends' row helpers (`_rows`, `_write`): this module is inside storage/

    def mark(self, n: int) -> str:
        return f"${n}" if self.postgres else "?"

    def column(self, table: Table, column: str) -> str:
        return "rowid" if column == "seq" and table.name == "floor_answers" and not self.postgres else column

    async def batches(self, table: Table) -> Any:
        """The table's rows in canonical form (`_canonical`), in batches, by key (keyset paging)."""
        columns = ", ".join(self.column(table, c) for c in table.columns)
        key = ", ".join(table.key)
        after: tuple[Any, ...] | None = None
        positions = [table.columns.index(k) for k in table.key]
        while True:
            where, params = "", []
            if after is not None:
                marks = ", ".join(self.mark(i + 1) for i in range(len(after)))
                where, params = f" WHERE ({key}) > ({marks})", list(after)
            raw = await self.db._rows(f"SELECT {columns} FROM {table.name}{where} ORDER BY {key}"
                                      f" LIMIT {BATCH}", params)
            if not raw:
                return
            try:
                rows = [_canonical(table, r) for r in raw]
            except (ValueError, TypeError) as e:  # a time SQLite holds as text that is not a time
                raise CopyError(f"{table.name}: a row after key {after} cannot be copied: {e}") from e
            after = tuple(raw[-1][i] for i in positions)
            yield [r for r in rows if not _is_start_stamp(table, r)]

    async def write(self, table: Table, rows: list[tuple[Any, ...]]) -> None:
        if self.postgres:
            records = [_for_postgres(table, r) for r in rows]
            await self.db._write(lambda conn: conn.copy_records_to_table(table.name, records=records,
                                                                         columns=list(table.columns)))
            return
        names = ", ".join(self.column(table, c) for c in table.columns)
        marks = ", ".join("?" for _ in table.columns)
        sql = f"INSERT INTO {table.name} ({names}) VALUES ({marks})"
        await self.db._write(lambda conn: conn.executemany(sql, rows).close())

    async def clear(self) -> None:
        """Empty every table (children first), the start stamp aside."""
        names = [t.name for t in reversed(TABLES)]

        async def pg(conn: Any) -> None:
            for name in names:
                await conn.execute(_clear_sql(name))

        def lite(conn: Any) -> None:
            for name in names:
                conn.execute(_clear_sql(name)).close()

        await self.db._write(pg if self.postgres else lite)

    async def continue_identities(self) -> None:
        if not self.postgres:
            return  # SQLite's INTEGER PRIMARY KEY and rowid go on after the highest by themselves

        async def write(conn: Any) -> None:
            for t in TABLES:
                if t.identity is not None:
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{t.name}', '{t.identity}'),"
                        f" coalesce(max({t.identity}), 0) + 1, false) FROM {t.name}")

        await self.db._write(write)

    async def refresh_statistics(self) -> None:
        """The query planner's statistics of the copied tables: a bulk load leaves PostgreSQL's to autovacuum,
        which may come minutes later, and a bot started on a large copy meanwhile plans its start-up queries
        blind (the cluster benchmark's 100,000-game copy did not log in within 60 s without this)."""
        names = [t.name for t in TABLES]

        async def pg(conn: Any) -> None:
            await conn.execute("ANALYZE " + ", ".join(names))

        def lite(conn: Any) -> None:
            conn.execute("ANALYZE").close()

        await self.db._write(pg if self.postgres else lite)


def _clear_sql(name: str) -> str:
    stamp = " WHERE NOT (guild_id = 0 AND key = 'started_at')" if name == "guild_settings" else ""
    return f"DELETE FROM {name}{stamp}"


def _is_start_stamp(table: Table, row: tuple[Any, ...]) -> bool:
    return table.name == "guild_settings" and row[0] == 0 and row[1] == "started_at"


def _canonical(table: Table, row: Sequence[Any]) -> tuple[Any, ...]:
    """A row as both backends agree on it: times as SQLite's UTC ISO text, booleans as 0/1."""
    out = []
    for column, value in zip(table.columns, row, strict=True):
        kind = table.kinds.get(column)
        if value is None:
            out.append(None)
        elif kind == _TIME:
            out.append(_ts(value if isinstance(value, datetime) else datetime.fromisoformat(value)))
        elif kind == _BOOL:
            out.append(int(bool(value)))
        else:
            out.append(value)
    return tuple(out)


def _for_postgres(table: Table, row: tuple[Any, ...]) -> tuple[Any, ...]:
    convert: dict[str, Callable[[Any], Any]] = {_TIME: datetime.fromisoformat, _BOOL: bool}
    return tuple(value if value is None or column not in table.kinds else convert[table.kinds[column]](value)
                 for column, value in zip(table.columns, row, strict=True))


def _row_hash(row: tuple[Any, ...]) -> int:
    return int.from_bytes(hashlib.sha256(orjson.dumps(row)).digest(), "big")


async def _sums(side: _Side) -> dict[str, TableSum]:
    out = {}
    for table in TABLES:
        count, total = 0, 0
        async for rows in side.batches(table):
            count += len(rows)
            total = (total + sum(_row_hash(r) for r in rows)) % _MOD
        out[table.name] = TableSum(table.name, count, f"{total:064x}")
    return out


def _empty(sums: dict[str, TableSum]) -> bool:
    return all(s.rows == 0 for s in sums.values())


def _same_place(source: str | Path, target: str | Path) -> bool:
    if is_postgres_url(source) or is_postgres_url(target):
        return str(source) == str(target)
    return Path(sqlite_path(source)).resolve() == Path(sqlite_path(target)).resolve()


async def copy_database(source: str | Path, target: str | Path, *, replace: bool = False) -> list[TableSum]:
    """Copy every table of ``source`` into ``target`` (store URLs or SQLite paths) and verify the copy: the row
    count and checksum of each table equal on both ends, read back from the target. `CopyError` when the target
    holds other data and not ``replace``, or when a table does not verify."""
    if _same_place(source, target):
        raise CopyError("the source and the target are the same database")
    if not is_postgres_url(source) and not Path(sqlite_path(source)).is_file():
        raise CopyError(f"no database at {sqlite_path(source)}")  # a mistyped path must not copy an empty one
    src_store, dst_store = await open_store(source), None
    try:
        dst_store = await open_store(target)
        src, dst = _Side(src_store, is_postgres_url(source)), _Side(dst_store, is_postgres_url(target))
        wanted, present = await _sums(src), await _sums(dst)
        if present == wanted:
            return list(wanted.values())  # copied before: nothing to do
        if not _empty(present):
            if not replace:
                busy = ", ".join(f"{s.table} ({s.rows})" for s in present.values() if s.rows)
                raise CopyError(f"the target is not empty: {busy}; copy with --replace to empty it first")
            await dst.clear()
        for table in TABLES:
            async for rows in src.batches(table):
                if rows:
                    await dst.write(table, rows)
        await dst.continue_identities()
        await dst.refresh_statistics()
        copied = await _sums(dst)
        wrong = [f"{t}: {copied[t].rows} rows of {s.rows}" + ("" if copied[t].rows != s.rows else ", checksum differs")
                 for t, s in wanted.items() if copied[t] != s]
        if wrong:
            raise CopyError("the copy does not match the source: " + "; ".join(wrong))
        return list(copied.values())
    finally:
        await src_store.close()
        if dst_store is not None:
            await dst_store.close()
