"""``python bot.py``: clear exits for a missing or rejected token, terminal play dispatch, extension loading
that survives a broken cog, and slash command sync only when the tree changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

import bot as bot_module
from tests.discord_harness import ErrorLog, Harness


@pytest.fixture
def no_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "LOG_LEVEL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "main.db"))
    return tmp_path


def test_missing_token_exits_2_with_instructions(no_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bot_module.main([]) == 2
    err = capsys.readouterr().err
    assert ".env.example" in err and "DISCORD_TOKEN" in err
    assert "./floorboard" in err and "python bot.py" not in err  # the README's launcher, which builds the venv


def test_rejected_token_exits_3(no_env: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")

    async def refuse(self: Any, token: str) -> Any:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", refuse)
    assert bot_module.main([]) == 3
    assert "rejected the token" in capsys.readouterr().err


def test_bad_settings_exit_with_a_message(no_env: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LOG_LEVEL", "chatty")
    assert bot_module.main([]) == 2
    assert "LOG_LEVEL" in capsys.readouterr().err


def test_play_is_dispatched_to_the_terminal_game(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    monkeypatch.setattr("play_cli.main", lambda argv: seen.append(argv) or 0)
    assert bot_module.main(["play", "flying_blades", "--bots", "3"]) == 0
    assert seen == [["flying_blades", "--bots", "3"]]


async def test_a_broken_extension_is_logged_and_the_others_load(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error_log: ErrorLog) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bot_module, "EXTENSIONS", ("cogs.admin", "cogs.does_not_exist", "cogs.lobby"))
    h = await Harness(tmp_path / "x.db").start(monkeypatch)
    try:
        assert set(h.bot.cogs) == {"Admin", "Lobby"}
        assert list(h.bot.failed_extensions) == ["cogs.does_not_exist"]
        assert [r.getMessage() for r in error_log.records] == [
            "extension cogs.does_not_exist failed to load; continuing without it"]
        error_log.records.clear()
    finally:
        await h.close()


async def test_tree_is_synced_only_when_it_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   error_log: ErrorLog) -> None:
    monkeypatch.chdir(tmp_path)
    h = await Harness(tmp_path / "x.db").start(monkeypatch)
    calls: list[Any] = []

    async def sync(*, guild: Any = None) -> list[Any]:
        calls.append(guild)
        return []

    monkeypatch.setattr(h.bot.tree, "sync", sync)
    try:
        assert await h.bot.sync_tree() is True
        assert await h.bot.sync_tree() is False
        h.bot.settings.dev_guild_id = 123
        assert await h.bot.sync_tree() is True  # another scope: its own hash
        assert calls[0] is None and calls[1].id == 123
        await h.bot.unload_extension("cogs.admin")
        h.bot.settings.dev_guild_id = None
        assert await h.bot.sync_tree() is True
        assert len(calls) == 3
    finally:
        await h.close()


async def test_setup_hook_starts_the_scheduler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               error_log: ErrorLog) -> None:
    monkeypatch.chdir(tmp_path)
    h = Harness(tmp_path / "x.db")
    h.bot.run_scheduler = True
    await h.start(monkeypatch)
    try:
        assert h.bot.engine._scheduler is not None
    finally:
        await h.close()
    assert h.bot.engine._scheduler is None and h.bot.store is None


def test_no_voice_library_warnings_at_start(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = ("import logging; logging.basicConfig(level=logging.INFO); import bot, config; "
            f"bot.Floorboard(config.load_settings(_env_file=None, database_path={str(tmp_path / 'x.db')!r}))")
    root = Path(bot_module.__file__).resolve().parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "voice will NOT be supported" not in done.stderr
