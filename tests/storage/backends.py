"""Where each backend of the storage contract gets a fresh, empty database.

SQLite: a file in the test's tmp_path. PostgreSQL: a schema of its own in the server FLOORBOARD_TEST_PG_URL names
(the store's connections get it as their search_path), dropped afterwards: a schema is created and migrated in
tens of milliseconds, a database in hundreds. Without the URL the PostgreSQL cases skip, saying how to enable
them; under CI=true they fail instead (CI starts a server: .ci/run).

The engine's tests (tests/conftest.py) reuse one migrated schema per test process instead, emptied before each
test (`ReusedSchema`): they need an empty database, not a new one (ids from 1 again), which costs a tenth.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from storage import open_store

BACKENDS = ("sqlite", "postgres")
PG_URL_ENV = "FLOORBOARD_TEST_PG_URL"


def pg_server_url() -> str:
    """The test server's URL; skips (fails under CI=true) when none is set."""
    url = os.environ.get(PG_URL_ENV, "").strip()
    if url:
        return url
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {PG_URL_ENV} is not set: the PostgreSQL contract must run in CI (.ci/run)")
    pytest.skip(f"PostgreSQL: set {PG_URL_ENV} to enable (bash tools/pg_cluster.sh start prints one)")


def with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query), ("search_path", schema)]
    return urlunsplit(parts._replace(query=urlencode(query)))


@asynccontextmanager
async def fresh_database(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a new empty database of ``backend``, removed afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'contract.sqlite3'}"
        return
    import asyncpg  # lazy: only the PostgreSQL cases need the driver

    server = pg_server_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield with_search_path(server, schema)
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


class ReusedSchema:
    """One migrated PostgreSQL schema, emptied before each test that uses it: every row of every table but the
    schema's version deleted and its id sequences restarted (ids count from 1, as in a new database)."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.name = f"e_{uuid.uuid4().hex[:16]}"
        self.url = with_search_path(server, self.name)
        self.tables: list[str] = []
        self.sequences: list[str] = []
        self.created = False

    async def create(self) -> None:
        import asyncpg  # lazy: only the PostgreSQL cases need the driver

        admin = await asyncpg.connect(self.server)
        try:
            await admin.execute(f"CREATE SCHEMA {self.name}")
            await (await open_store(self.url)).close()  # migrated once
            self.tables = await _tables_referrers_first(admin, self.name)
            self.sequences = [row[0] for row in await admin.fetch(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = $1 AND c.relkind = 'S' ORDER BY c.relname", self.name)]
            self.created = True
        finally:
            await admin.close()

    async def empty(self) -> None:
        import asyncpg  # lazy: only the PostgreSQL cases need the driver

        # DELETE, not TRUNCATE: a few rows each, and DELETE is 4x faster there (TRUNCATE makes new files)
        sql = "".join([*(f"DELETE FROM {self.name}.{table};" for table in self.tables),
                       *(f"ALTER SEQUENCE {self.name}.{sequence} RESTART;" for sequence in self.sequences)])
        # a connection left holding a lock by a failed test: this test fails in 10 s instead of hanging
        admin = await asyncpg.connect(self.server, server_settings={"lock_timeout": "10000"})
        try:
            await admin.execute(sql)
        finally:
            await admin.close()

    async def drop(self) -> None:
        import asyncpg  # lazy: only the PostgreSQL cases need the driver

        admin = await asyncpg.connect(self.server)
        try:
            await admin.execute(f"DROP SCHEMA IF EXISTS {self.name} CASCADE")
        finally:
            await admin.close()


async def _tables_referrers_first(conn: Any, schema: str) -> list[str]:
    """The schema's tables but its version, each after every table whose foreign keys point at it (the order
    rows can be deleted in)."""
    tables = [row[0] for row in await conn.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_version'", schema)]
    refs = await conn.fetch(
        "SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent FROM pg_constraint c"
        " JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 AND c.contype = 'f'", schema)
    graph: dict[str, set[str]] = {table: set() for table in sorted(tables)}
    for ref in refs:  # a parent is deleted after its children
        child, parent = (name.rsplit(".", 1)[-1] for name in (ref["child"], ref["parent"]))
        if child != parent:
            graph[parent].add(child)
    return list(TopologicalSorter(graph).static_order())


async def execute_raw(url: str, sql: str) -> None:
    """Run one statement behind the store's back (a row damaged on disk, a schema from the future)."""
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            conn.execute(sql)
        return
    import asyncpg  # lazy: only the PostgreSQL cases need the driver

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()
