"""The terminal mode: the same engine and renderer without Discord."""

from __future__ import annotations

import asyncio
import concurrent.futures
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import terminal
from render.kit import image_ext
from rules import GAMES
from storage import SqliteStore as Store
from tests.test_play_cli_terminal import keyboard

ROOT = Path(__file__).resolve().parent.parent


def test_three_bots_play_to_the_end_unattended_and_exit_zero(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "bot.py", "play", "flying_blades", "--players", "3", "--bots", "3", "--seed", "cli-1",
         "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Game over" in proc.stdout
    pngs = sorted(tmp_path.glob("flying_blades-*.webp"))
    assert len(pngs) >= 2 and all(image_ext(p.read_bytes()) == "webp" for p in pngs)
    record = next(tmp_path.glob("flying_blades-*.txt")).read_text()
    assert '[Game "flying_blades"]' in record


def play(argv: list[str], read: Callable[[str], str]) -> int:
    """``main`` in a thread of its own: it runs its own event loop, as the terminal does."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(terminal.main, argv, read).result()


async def test_a_human_move_is_checked_saved_and_resumed(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    args = ["flying_blades", "--players", "2", "--bots", "1", "--seed", "cli-2", "--option", "cards=none",
            "--out", str(tmp_path), "--no-images"]
    assert play(args, keyboard(["help", "atack a1 a2", "legal"])) == 0
    out = capsys.readouterr().out
    assert "Saved as “flying_blades”" in out
    store = await Store.open(tmp_path / "play.db")
    try:
        (game_id,) = await store.game_ids()
        assert await store.actions(game_id) == []  # the typo changed nothing
    finally:
        await store.close()
    # Same command again: the game is resumed and a legal move is accepted.
    rules = GAMES["flying_blades"]
    state = None

    async def first_legal() -> str:
        nonlocal state
        s = await Store.open(tmp_path / "play.db")
        try:
            row = await s.load_game((await s.game_ids())[0])
            state = rules.from_json(row.state)
        finally:
            await s.close()
        return rules.legal_actions(state, 0)[0]

    move = await first_legal()
    assert play(args, keyboard([move])) == 0
    assert "Resuming Night of the 27 Ninja, table 1, 0 moves in" in capsys.readouterr().out
    s = await Store.open(tmp_path / "play.db")
    try:
        actions = await s.actions((await s.game_ids())[0])
        assert (actions[0].seat, actions[0].action) == (0, move)
        assert any(a.source == "bot" for a in actions)
    finally:
        await s.close()


def typing_like(rules: Any, store_path: Path, typed: list[str], what: Callable[[Any], str]) -> Callable[[str], str]:
    """A keyboard that types ``what(state)`` for seat 0, reading the saved game (the terminal's own database)."""

    async def choose() -> str:
        s = await Store.open(store_path)
        try:
            row = await s.load_game((await s.game_ids())[0])
            return what(rules.from_json(row.state))
        finally:
            await s.close()

    def read(prompt: str) -> str:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            action = pool.submit(asyncio.run, choose()).result()
        typed.append(action)
        return action

    return read


async def test_floor_plan_in_the_terminal_a_human_and_a_bot(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Floor Plan has no list of legal moves and no one-image board: the terminal still plays it to the end."""
    args = ["floor_plan", "--players", "2", "--bots", "1", "--seed", "cli-fp", "--out", str(tmp_path)]
    rules = GAMES["floor_plan"]
    typed: list[str] = []
    bot_like = typing_like(rules, tmp_path / "play.db", typed, lambda state: rules.bot_action(state, 0))

    def read(prompt: str) -> str:  # the human types what the rules' bot would choose, after one typo
        if not typed:
            typed.append("rooom A1")
            return "rooom A1"
        return bot_like(prompt)

    assert play(args, read) == 0
    out = capsys.readouterr().out
    assert "Game over" in out and "Record written" in out
    assert len(typed) > 5
    record = next(tmp_path.glob("floor_plan-*.txt")).read_text()
    assert '[Game "floor_plan"]' in record and "0 start " in record


async def test_the_floor_in_the_terminal_answers_are_typed_plainly_and_timed(tmp_path: Path,
                                                                              capsys: pytest.CaptureFixture) -> None:
    """In a duel the human types just the answer (or ``pass``); the terminal measures the time and logs
    ``answer <ms> <text>``, so the record replays the clocks. The game runs to the Final's winner."""
    args = ["the_floor", "--players", "2", "--bots", "1", "--seed", "cli-tf", "--option", "clock=120",
            "--option", "ready_minutes=0", "--out", str(tmp_path), "--no-images"]
    rules = GAMES["the_floor"]

    def as_typed(state: Any) -> str:
        action = rules.bot_action(state, 0)
        d = state.duel
        if d is not None and d.started and not d.judging:  # typed as a person would: no clock reading
            parts = action.split(maxsplit=2)
            return parts[2] if parts[0] == "answer" else parts[0]
        return action

    typed: list[str] = []
    assert play(args, typing_like(rules, tmp_path / "play.db", typed, as_typed)) == 0
    out = capsys.readouterr().out
    assert "Game over" in out
    record = next(tmp_path.glob("the_floor-*.txt")).read_text()
    plain = [a for a in typed if a.split()[0] not in ("pick", "challenge", "ready", "take", "keep", "judge")]
    assert plain, "the human answered in a duel"
    assert any(line.startswith("0 answer ") or line.startswith("0 pass ") for line in record.splitlines())
