from __future__ import annotations

import itertools
import logging
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from pathlib import Path

import discord
import pytest
from discord.ext.test import factories as facts

import tests.discord_harness as harness_module
from render import kit
from tests.conftest import FakeClock
from tests.discord_harness import ErrorLog, Harness


@pytest.fixture(autouse=True)
def images_as_png() -> Iterator[None]:
    """The Discord tests post their images as PNG (IMAGE_FORMAT=png): they check what is posted and when, and post
    thousands of images, and WebP's encode costs ~10x the CPU. WebP, the bot's default, is checked where its bytes
    matter: tests/test_render_encoding.py, the terminal's files, the tests below that ask for ``webp``, and the real
    bot process in tests/e2e."""
    kit.use_format("png")
    yield
    kit.use_format("webp")


@pytest.fixture
def webp() -> Iterator[None]:
    """This test posts images as the bot does by default (WebP)."""
    kit.use_format("webp")
    yield


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


class DiscordTime:
    """Discord's clock as the test sets it: every message id the fake gateway makes is a snowflake of
    ``now``, which the test moves on by hand (so elapsed duel times are exact)."""

    def __init__(self) -> None:
        self.now = discord.utils.utcnow()
        self.seq = itertools.count(1)

    def make_id(self) -> int:
        return discord.utils.time_snowflake(self.now) + next(self.seq) % (1 << 22)

    def advance(self, ms: int) -> None:
        self.now += timedelta(milliseconds=ms)


@pytest.fixture
def discord_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[DiscordTime]:
    dt = DiscordTime()
    monkeypatch.setattr(facts, "make_id", dt.make_id)
    monkeypatch.setattr(harness_module, "snowflake", dt.make_id)  # interactions (the Pass button) too
    yield dt
