"""The fixtures of the storage contract: one case per backend (tests/storage/backends.py), each on a real,
fresh database. Every test in this folder runs against SQLite and PostgreSQL unchanged; PostgreSQL's cases skip
unless FLOORBOARD_TEST_PG_URL is set (and fail under CI=true without it).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Store, open_store
from tests.storage.backends import BACKENDS, fresh_database


@pytest.fixture(params=BACKENDS)
async def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a fresh, empty database (nothing opened it yet)."""
    async with fresh_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    s = await open_store(store_url)
    yield s
    await s.close()
