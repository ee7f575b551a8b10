"""Where each backend of the storage contract gets a fresh, empty database.

SQLite: a file in the test's tmp_path. PostgreSQL: a schema of its own in the server FLOORBOARD_TEST_PG_URL names
(the store's connections get it as their search_path), dropped afterwards: a schema is created and migrated in
tens of milliseconds, a database in hundreds. Without the URL the PostgreSQL cases skip, saying how to enable
them; under CI=true they fail instead (CI starts a server: .ci/run).
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

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
