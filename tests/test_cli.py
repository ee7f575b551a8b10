"""The command line (cli.py, click): help by ``--help`` and ``-h``, the bot by default and by ``run``, the
terminal game by ``play``, exit codes kept, and usage errors as the usage and a reason, never a traceback."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import click
import pytest

import bot as bot_module
import cli

ROOT = Path(bot_module.__file__).resolve().parent


@pytest.fixture
def bot_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """bot.run_bot replaced: records each run and exits 5 (a code that is not click's)."""
    runs: list[str] = []
    monkeypatch.setattr(bot_module, "run_bot", lambda: runs.append("run") or 5)
    return runs


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_lists_the_commands_and_the_exit_codes(flag: str, bot_runs: list[str],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.invoke([flag]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: ./floorboard [OPTIONS] [COMMAND]")
    assert "  play  " in out and "  run  " in out
    assert "6 cannot reach Discord" in out and "3 token rejected" in out
    assert "python bot.py" not in out
    assert bot_runs == []


def test_no_command_runs_the_bot_and_keeps_its_exit_code(bot_runs: list[str]) -> None:
    assert cli.main([]) == 5
    assert bot_runs == ["run"]


def test_run_runs_the_bot_and_keeps_its_exit_code(bot_runs: list[str]) -> None:
    assert cli.main(["run"]) == 5
    assert bot_runs == ["run"]


@pytest.mark.parametrize(("argv", "reason"), [
    (["--bogus"], "No such option '--bogus'"),
    (["nosuch"], "No such command 'nosuch'"),
    (["run", "extra"], "unexpected extra argument (extra)"),
])
def test_bad_arguments_print_the_usage_and_the_reason_and_exit_2(
        argv: list[str], reason: str, bot_runs: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("Usage: ./floorboard") and reason in err
    assert "Traceback" not in err and bot_runs == []


def test_play_runs_the_terminal_click_command_with_its_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, int]] = []

    @click.command("play")
    @click.argument("game")
    @click.option("--bots", type=int)
    def play(game: str, bots: int) -> int:
        seen.append((game, bots))
        return 0

    monkeypatch.setitem(sys.modules, "terminal", types.SimpleNamespace(play=play))
    assert cli.main(["play", "floor_plan", "--bots", "1"]) == 0
    assert seen == [("floor_plan", 1)]


def test_play_exit_codes_pass_through(monkeypatch: pytest.MonkeyPatch) -> None:
    @click.command("play")
    @click.pass_context
    def play(ctx: click.Context) -> None:
        ctx.exit(4)

    monkeypatch.setitem(sys.modules, "terminal", types.SimpleNamespace(play=play))
    assert cli.main(["play"]) == 4


def test_a_subcommand_calling_sys_exit_keeps_its_code(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    @click.command("play")
    @click.argument("game")
    def exits(game: str) -> int:
        raise SystemExit("--option expects KEY=VALUE")

    monkeypatch.setitem(sys.modules, "terminal", types.SimpleNamespace(play=exits))
    assert cli.main(["play", "x"]) == 1
    assert "--option expects KEY=VALUE" in capsys.readouterr().err


def test_python_bot_py_help_prints_help_without_loading_the_terminal_game() -> None:
    code = "import sys, cli; code = cli.main(['--help']); assert 'terminal' not in sys.modules; sys.exit(code)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: ./floorboard") and done.stderr == ""
    script = subprocess.run([sys.executable, "bot.py", "--help"], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert (script.returncode, script.stdout) == (0, done.stdout)
