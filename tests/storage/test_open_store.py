"""open_store: a URL picks the backend; an unknown scheme is refused before anything is created."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import open_store, sqlite_path


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
    with pytest.raises(ValueError, match="postgresql://"):
        await open_store(f"postgresql://{tmp_path}/x")
    assert list(tmp_path.iterdir()) == []
