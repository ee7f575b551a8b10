"""open_store: a URL picks the backend; an unknown scheme is refused before anything is created."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage import StorageOpenError, open_store, sqlite_path
from tests.storage.backends import execute_raw


async def test_a_sqlite_url_opens_a_migrated_database_at_its_path(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    try:
        assert await store.schema_version() > 0
        assert (tmp_path / "a.sqlite3").exists()
    finally:
        await store.close()


def test_a_bare_path_is_a_sqlite_file_as_database_path_always_was() -> None:
    assert sqlite_path("data/floorboard.db") == "data/floorboard.db"
    assert sqlite_path("sqlite:///data/floorboard.db") == "data/floorboard.db"


async def test_an_unknown_scheme_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mysql://: use sqlite:///path or postgresql://"):
        await open_store(f"mysql://{tmp_path}/x")
    assert list(tmp_path.iterdir()) == []


async def test_a_postgresql_url_opens_postgresql_and_never_a_sqlite_folder_named_after_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26: `open_store('postgresql://…')` used to create a folder named `postgresql:` with a SQLite file in
    it. Now it is PostgreSQL's: no server listening there is a `StorageOpenError` naming DATABASE_URL."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StorageOpenError) as refused:
        await open_store("postgresql://floorboard:secret@127.0.0.1:1/floorboard")
    assert "DATABASE_URL" in refused.value.hint and "secret" not in str(refused.value)
    assert list(tmp_path.iterdir()) == []


async def test_a_schema_newer_than_the_code_knows_is_refused_with_a_clear_message(store_url: str) -> None:
    store = await open_store(store_url)
    known = await store.schema_version()
    await store.close()
    future = known + 1
    await execute_raw(store_url, f"PRAGMA user_version = {future}" if store_url.startswith("sqlite")
                      else f"UPDATE schema_version SET version = {future}")
    with pytest.raises(StorageOpenError, match=f"schema is version {future}, newer than this Floorboard knows"
                       f" \\({known}\\)") as refused:
        await open_store(store_url)
    assert "restore a backup" in refused.value.hint


async def test_two_processes_opening_a_new_database_at_once_both_find_it_migrated(store_url: str) -> None:
    """Two bot processes started together on an empty database: one migrates, the other waits and finds the work
    done (SQLite's second opener used to fail with "table games already exists")."""
    first, second = await asyncio.gather(open_store(store_url), open_store(store_url))
    try:
        assert await first.schema_version() == await second.schema_version() > 0
    finally:
        await first.close()
        await second.close()


async def test_a_new_sqlite_file_another_connection_holds_for_a_moment_is_turned_to_wal_once_it_lets_go(
        tmp_path: Path) -> None:
    """SQLite turns a file to WAL under an exclusive lock it takes without waiting (no busy handler): the opener
    retries, so the second of two bots started together no longer fails with "database is locked"."""
    db = tmp_path / "new.sqlite3"
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # a rollback-journal file's write lock, as the first opener briefly holds
    release = asyncio.get_running_loop().call_later(0.3, holder.execute, "ROLLBACK")
    try:
        store = await open_store(f"sqlite:///{db}")
    finally:
        release.cancel()
        holder.close()
    try:
        assert await store.schema_version() > 0
        assert (await store._row("PRAGMA journal_mode"))[0] == "wal"
    finally:
        await store.close()
