from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.conftest import FakeClock
from tests.discord_harness import ErrorLog, Harness


@pytest.fixture
def error_log() -> Iterator[ErrorLog]:
    """Fails the test on any ERROR log record (discord.py only logs exceptions in component callbacks)."""
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
    assert not handler.records, f"ERROR records were logged:\n{handler.report()}"


@pytest.fixture
async def harness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock,
                  error_log: ErrorLog) -> AsyncIterator[Harness]:
    monkeypatch.chdir(tmp_path)
    h = await Harness(tmp_path / "floorboard.db", now=clock).start(monkeypatch)
    yield h
    await h.close()
