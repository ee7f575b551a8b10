"""``python bot.py``: clear exits for a missing or rejected token and for a Discord that cannot be reached
(retried first), terminal play dispatch, extension loading that survives a broken cog, and slash command sync
only when the tree changed."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

import bot as bot_module
import cli
from config import load_settings
from tests.discord_harness import ErrorLog, Harness
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.driver import ROOT, WAIT, BotProcess


@pytest.fixture
def no_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "LOG_LEVEL", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "main.db"))
    return tmp_path


def test_missing_token_exits_2_with_instructions(no_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert ".env.example" in err and "DISCORD_TOKEN" in err
    assert "./floorboard" in err and "python bot.py" not in err  # the README's launcher, which builds the venv


def test_rejected_token_exits_3(no_env: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")

    async def refuse(self: Any, token: str) -> Any:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", refuse)
    assert cli.main([]) == 3
    assert "rejected the token" in capsys.readouterr().err


@pytest.mark.parametrize(("code", "exit_code", "says"), [(4004, 3, "rejected the token"),
                                                         (4014, 4, "Message Content intent")])
def test_a_gateway_refusal_exits_with_its_code_in_one_message(
        code: int, exit_code: int, says: str, no_env: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "a.token")

    async def refused(bot: Any, token: str) -> None:
        await bot.close()
        if code == 4014:  # discord.py turns this close code into its own exception
            raise discord.PrivilegedIntentsRequired(None)
        raise discord.ConnectionClosed(types.SimpleNamespace(close_code=code), shard_id=None)

    monkeypatch.setattr(bot_module, "run", refused)
    assert cli.main([]) == exit_code
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_bad_settings_exit_with_a_message(no_env: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LOG_LEVEL", "chatty")
    assert cli.main([]) == 2
    assert "LOG_LEVEL" in capsys.readouterr().err


def test_play_is_dispatched_to_the_terminal_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import click

    import cli

    seen = []

    @click.command("play", context_settings={"ignore_unknown_options": True})
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def play(args: tuple[str, ...]) -> int:
        seen.append(list(args))
        return 7

    monkeypatch.setattr(cli, "play_command", lambda: play)
    assert cli.main(["play", "flying_blades", "--bots", "3"]) == 7
    assert seen == [["flying_blades", "--bots", "3"]]


# --- reaching Discord at start ---------------------------------------------------------------------------------


def test_retry_waits_double_up_to_30_seconds() -> None:
    settings = load_settings(_env_file=None, connect_attempts=8, connect_retry_seconds=2)
    assert bot_module.retry_delays(settings) == [2, 4, 8, 16, 30, 30, 30]
    assert bot_module.retry_delays(load_settings(_env_file=None, connect_attempts=1)) == []


@pytest.mark.parametrize("error", [OSError("unreachable"), TimeoutError(), discord.GatewayNotFound(),
                                   discord.DiscordServerError(type("R", (), {"status": 503, "reason": "x"})(), "")])
def test_network_failures_and_5xx_are_transient(error: BaseException) -> None:
    assert bot_module.is_transient(error)


def test_a_rejected_token_and_a_4xx_are_not_transient() -> None:
    forbidden = discord.Forbidden(type("R", (), {"status": 403, "reason": "x"})(), "")
    assert not bot_module.is_transient(discord.LoginFailure("Improper token has been passed."))
    assert not bot_module.is_transient(forbidden)


async def test_a_transient_failure_is_retried_until_it_succeeds(caplog: pytest.LogCaptureFixture) -> None:
    settings = load_settings(_env_file=None, connect_attempts=4, connect_retry_seconds=2)
    failures = [OSError("down"), TimeoutError()]
    slept: list[float] = []

    async def step() -> None:
        if failures:
            raise failures.pop(0)

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    await bot_module.with_retries(settings, step, sleep=sleep)
    assert slept == [2, 4]
    assert [r.getMessage() for r in caplog.records if r.name == "floorboard"] == [
        "cannot reach Discord (down); retrying in 2 s, attempt 2 of 4",
        "cannot reach Discord (timed out); retrying in 4 s, attempt 3 of 4"]


async def test_a_failure_that_is_not_transient_is_not_retried() -> None:
    calls = 0

    async def step() -> None:
        nonlocal calls
        calls += 1
        raise discord.LoginFailure("no")

    with pytest.raises(discord.LoginFailure):
        await bot_module.with_retries(load_settings(_env_file=None), step, sleep=lambda s: asyncio.sleep(0))
    assert calls == 1


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port bound on 127.0.0.1 but not listening: every connection to it is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield s.getsockname()[1]


async def run_bot_process(env: dict[str, str], db: Path) -> tuple[int, str]:
    """``python bot.py`` with ``env`` (and a quick retry schedule) to its exit: (exit code, stderr)."""
    env = {**os.environ, "DATABASE_PATH": str(db), "LOG_LEVEL": "INFO", "CONNECT_ATTEMPTS": "3",
           "CONNECT_RETRY_SECONDS": "0.01", "DEV_GUILD_ID": "", "PYTHONUNBUFFERED": "1", **env}
    proc = await asyncio.create_subprocess_exec(sys.executable, "bot.py", cwd=ROOT, env=env,
                                                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout=WAIT * 3)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, err.decode(errors="replace")


def retries(err: str) -> list[str]:
    return [line[line.index("cannot reach"):] for line in err.splitlines() if "cannot reach Discord" in line]


@pytest.mark.e2e
async def test_an_unreachable_api_is_retried_then_exits_6_in_one_line(closed_port: int, tmp_path: Path) -> None:
    code, err = await run_bot_process({"DISCORD_TOKEN": "some.token",
                                       "DISCORD_API_URL": f"http://127.0.0.1:{closed_port}/api/v10"},
                                      tmp_path / "x.db")
    assert code == 6, err
    assert "Traceback" not in err
    said = retries(err)
    assert [line.split("; ")[-1] for line in said] == ["retrying in 0.01 s, attempt 2 of 3",
                                                       "retrying in 0.02 s, attempt 3 of 3"]
    assert all(f"127.0.0.1:{closed_port}" in line for line in said)
    last = err.strip().splitlines()[-1]
    assert last.startswith("Cannot reach Discord (") and "gave up after 3 attempts" in last


@pytest.mark.e2e
async def test_an_unreachable_gateway_is_retried_then_exits_6(closed_port: int, tmp_path: Path) -> None:
    double = await DiscordDouble().start()
    try:
        code, err = await run_bot_process({"DISCORD_TOKEN": double.token, "DISCORD_API_URL": double.api_url,
                                           "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{closed_port}/gateway"},
                                          tmp_path / "x.db")
    finally:
        await double.stop()
    assert code == 6, err
    assert "Traceback" not in err and len(retries(err)) == 2
    assert err.strip().splitlines()[-1].startswith("Cannot reach Discord (")


@pytest.mark.e2e
async def test_a_token_the_api_rejects_exits_3_in_one_line(tmp_path: Path) -> None:
    double = await DiscordDouble().start()
    try:
        code, err = await run_bot_process({"DISCORD_TOKEN": "not.the.token", "DISCORD_API_URL": double.api_url,
                                           "DISCORD_GATEWAY_URL": double.gateway_url}, tmp_path / "x.db")
    finally:
        await double.stop()
    assert code == 3, err
    assert "Traceback" not in err and not retries(err)
    assert err.strip().splitlines()[-1].startswith("Discord rejected the token (login failed).")
    assert [(method, status) for method, _, status in double.requests] == [("GET", 401)]  # asked once


@pytest.mark.e2e
async def test_a_reachable_discord_is_joined_with_one_identify(tmp_path: Path) -> None:
    double = await DiscordDouble().start()
    bot = BotProcess(double, tmp_path / "x.db", tmp_path / "bot.log")
    try:
        await bot.start()  # waits (bounded) for "logged in as"
        assert len(double.identifies) == 1 and not retries(bot.log())  # the gateway probe never identifies
    finally:
        await bot.kill()
        await double.stop()


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
