"""The `store` fixture of the storage contract: one per backend, each on a real database in tmp_path.

A second backend joins by adding its name to BACKENDS and an opener below (PostgreSQL: skipped unless a URL is
set). Every test in this folder then runs against it unchanged.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Store, open_store

BACKENDS = ("sqlite",)


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    s = await open_store(f"sqlite:///{tmp_path / 'contract.sqlite3'}")
    yield s
    await s.close()
