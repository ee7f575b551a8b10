from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from engine import Engine
from engine.simulate import FakeClock  # the engine's injected time: moved only by hand
from storage import SqliteStore as Store
from tests.nim import Nim

# Speed is the benchmark's business (tests/bench), never a test's: no per-example deadline anywhere.
settings.register_profile("floorboard", deadline=None)
settings.load_profile("floorboard")


@pytest.fixture(autouse=True)
def root_logging() -> Iterator[None]:
    """Each test gets the root logger as it found it: a test that starts the bot configures logging onto its
    captured stderr, which is closed when that test ends, and every later ERROR would print "Logging error"."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "floorboard.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path)
    yield s
    await s.close()


@pytest.fixture
def games() -> dict:
    return {"nim": Nim()}


@pytest.fixture
async def engine(store: Store, clock: FakeClock, games: dict) -> AsyncIterator[Engine]:
    e = Engine(store, games=games, now=clock, lobby_minutes=30)
    yield e
    await e.stop()
