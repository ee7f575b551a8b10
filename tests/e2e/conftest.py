"""Fixtures of the end-to-end tests: a Discord double on 127.0.0.1 and the real bot process pointed at it.

Every bot started here is SIGKILLed in teardown, whatever happened; every wait is bounded (see driver.WAIT).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.discord_double import DiscordDouble
from tests.e2e.driver import BotProcess, Launch, Table


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    d = await DiscordDouble().start()
    try:
        yield d
    finally:
        await d.stop()


@pytest.fixture
async def launch(double: DiscordDouble, db_path: Path, tmp_path: Path) -> AsyncIterator[Launch]:
    """Starts ``python bot.py`` on the test's database (``db_path``, from tests/conftest.py; the same file again
    after a kill), ready to play."""
    started: list[BotProcess] = []

    async def start() -> BotProcess:
        bot = BotProcess(double, db_path, tmp_path / f"bot-{len(started) + 1}.log")
        started.append(bot)
        return await bot.start()

    try:
        yield start
    finally:
        for bot in started:
            await bot.kill()


@pytest.fixture
async def table(double: DiscordDouble, launch: Launch, db_path: Path) -> Table:
    """A running bot and alice's table-to-be (``Table.open`` opens it)."""
    return Table(double, await launch(), db_path)
