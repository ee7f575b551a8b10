from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import settings

from engine import Engine
from engine.simulate import FakeClock  # the engine's injected time: moved only by hand
from storage import SqliteStore, Store, open_store
from tests.nim import Nim
from tests.storage.backends import BACKENDS, ReusedSchema, pg_server_url

TESTS = Path(__file__).parent

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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only(reason): this engine test reads SQLite's internals (its file,"
                            " PRAGMAs, raw sqlite3): the `store` fixture gives it SQLite only")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The engine's tests (tests/*.py on the `store` or `engine` fixture) run on every backend, as the storage
    contract does (tests/storage), unless they name the SQLite file (the `db_path` fixture) or are marked
    `sqlite_only`. Tests in subfolders (cogs, rules, e2e) keep SQLite: their own suites choose their backends."""
    if "backend" not in metafunc.fixturenames or metafunc.definition.path.parent != TESTS:
        return
    if "db_path" in metafunc.fixturenames or metafunc.definition.get_closest_marker("sqlite_only"):
        return
    metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The backend the `store` fixture opens: both for the engine's tests (pytest_generate_tests), else SQLite."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The `store` fixture's SQLite file: a test that asks for it reads SQLite's internals, so runs on SQLite only."""
    return tmp_path / "floorboard.db"


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[ReusedSchema]:
    """This test process's PostgreSQL schema for the engine's tests, migrated once (skips without a server)."""
    schema = ReusedSchema(pg_server_url())  # created by the first test that uses it, on that test's event loop
    yield schema
    if schema.created:  # the last test's event loop is gone: a loop of its own, on a thread of its own
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, schema.drop()).result()


@pytest.fixture
async def store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """An empty store of ``backend``: SQLite in a new file (`db_path`), PostgreSQL in this process's schema,
    emptied first (`pg_schema`)."""
    if backend == "sqlite":
        s: Store = await SqliteStore.open(tmp_path / "floorboard.db")
    else:
        schema: ReusedSchema = request.getfixturevalue("pg_schema")
        await (schema.empty() if schema.created else schema.create())
        s = await open_store(schema.url)
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
