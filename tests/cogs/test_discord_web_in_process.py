"""WEB_PORT (docs/web.md): the bot serves the read-only web site from its own event loop and store, so one
process is enough; the pages keep their opt-in (a server without /web on is 404); closing the bot stops it."""

from __future__ import annotations

import socket
from pathlib import Path

import aiohttp
import pytest

from engine.web import set_web
from tests.conftest import FakeClock
from tests.discord_harness import GUILD_ID, Harness


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_with_web_port_the_bot_serves_the_pages_of_servers_that_opted_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    monkeypatch.chdir(tmp_path)
    port = free_port()
    harness = Harness(tmp_path / "floorboard.db", now=clock)
    harness.bot.settings.web_port = port
    await harness.start(monkeypatch)
    try:
        store = harness.bot.engine.store
        guild_slug = (await store.add_web_slugs([(("guild", GUILD_ID, GUILD_ID), "serverSlug012345")],
                                                clock()))[("guild", GUILD_ID, GUILD_ID)]
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
            async with http.get(f"/s/{guild_slug}") as closed:
                assert closed.status == 404
            await set_web(store, GUILD_ID, True)
            async with http.get(f"/s/{guild_slug}") as opened:
                assert opened.status == 200 and "Server leaderboards" in await opened.text()
    finally:
        await harness.close()
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/"):
            pass


async def test_without_web_port_the_bot_serves_nothing(harness: Harness) -> None:
    assert harness.bot.web_runner is None
