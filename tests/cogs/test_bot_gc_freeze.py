"""The running bot moves the games its start loaded out of the cyclic GC's reach (``gc.freeze``), so that a full
collection does not walk every running game (0.23 s of CPU per pass with 5,000 loaded: docs/benchmarks.md, Memory).
A test's bot does not: freezing would keep each test's objects from ever being collected.

``gc.freeze`` is replaced by a recorder here, so this process freezes nothing."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

import bot as bot_module
from engine import Engine, SeatInfo
from storage import open_store
from tests.discord_harness import Harness


async def _one_running_game(path: Path) -> int:
    """A running game of The Floor: the one game the start loads (its cog resumes its duels' clocks); other
    games are loaded when first used."""
    store = await open_store(path)
    try:
        engine = Engine(store)
        table = await engine.open_lobby("the_floor", guild_id=1, channel_id=555, host=SeatInfo(1, "Ann"))
        await engine.join(table.id, SeatInfo(2, "Bo"))
        return (await engine.start(table.id, 1)).id
    finally:
        await store.close()


def _record_freezes(monkeypatch: pytest.MonkeyPatch, harness: Harness) -> list[set[int]]:
    """Each call of ``gc.freeze``: the games the engine held at that moment."""
    calls: list[set[int]] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(set(harness.bot.engine.book.cache)))
    return calls


async def test_the_running_bot_freezes_the_games_its_start_loaded(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    game = await _one_running_game(tmp_path / "x.db")
    h = Harness(tmp_path / "x.db")
    h.bot.freeze_gc = True  # as run_bot builds it
    calls = _record_freezes(monkeypatch, h)
    await h.start(monkeypatch)
    try:
        assert calls == [{game}]  # once, after the cogs loaded the running games
    finally:
        await h.close()


async def test_a_test_bot_freezes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    await _one_running_game(tmp_path / "x.db")
    h = Harness(tmp_path / "x.db")
    calls = _record_freezes(monkeypatch, h)
    await h.start(monkeypatch)
    try:
        assert calls == []
    finally:
        await h.close()


def test_run_bot_builds_a_bot_that_freezes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "main.db"))
    built: list[Any] = []

    async def run(bot: Any, token: str) -> None:
        built.append(bot)

    monkeypatch.setattr(bot_module, "run", run)
    assert bot_module.run_bot() == 0
    assert [b.freeze_gc for b in built] == [True]
