"""The queue's Discord tests use the bot harness of tests/cogs (its fixtures, re-exported here); the engine's queue
tests (test_engine_queue.py) run on both backends, as tests/test_engine*.py do (tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.cogs.conftest import error_log, harness, images_as_png
from tests.storage.backends import BACKENDS

__all__ = ["error_log", "harness", "images_as_png"]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The queue, ready checks and challenges go through the store: each engine test runs on SQLite and PostgreSQL
    (the PostgreSQL cases skip without FLOORBOARD_TEST_PG_URL, as the storage contract's do)."""
    if metafunc.definition.path.name == "test_engine_queue.py" and "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", BACKENDS, indirect=True)
