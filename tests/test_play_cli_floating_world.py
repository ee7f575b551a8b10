"""Floating World in the terminal: a bot plays one Kitsune to the end; a human types moves, `legal` and `help`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from render.kit import image_ext
from rules.floating_world.dice import Roll
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import Kitsune, Options, Work, build
from terminal.captions import fw_decision_lines
from tests.test_play_cli import ROOT, play
from tests.test_play_cli_terminal import keyboard


def test_one_bot_kitsune_plays_to_the_end_and_prints_the_result(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "bot.py", "play", "floating_world", "--players", "1", "--bots", "1", "--seed", "fw-cli-1",
         "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "Game over" in out and ("the world is doomed" in out or "every Kitsune wins" in out)
    assert "The Nightmare of turn 1" in out and "Spawn dice" in out
    maps = sorted(p for p in tmp_path.glob("floating_world-*.webp") if "nightmare" not in p.name)
    nightmares = sorted(tmp_path.glob("floating_world-*-nightmare.webp"))
    assert len(maps) >= 3 and nightmares
    assert all(image_ext(p.read_bytes()) == "webp" for p in [*maps, *nightmares])
    record = next(tmp_path.glob("floating_world-*.txt")).read_text()
    assert '[Game "floating_world"]' in record and '[Status "finished"]' in record


def test_a_human_types_moves_legal_and_help(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    args = ["floating_world", "--players", "2", "--bots", "1", "--seed", "fw-cli-2", "--out", str(tmp_path)]
    assert play(args, keyboard(["help", "legal", "mvoe 1,0", "village", "end"])) == 0
    out = capsys.readouterr().out
    assert "move x,y" in out and "attack <demon>|<player> <stat>" in out and "keep none" in out  # help
    assert "village" in out and "end" in out  # legal
    assert "founds a Village on (0,0)" in out
    assert "Player 1 ends the Dream phase" in out and "The Nightmare of turn 1" in out
    assert "Bot 1" in out  # the bot's turn followed
    assert sorted(tmp_path.glob("floating_world-*-nightmare.webp"))


def test_help_suggests_only_legal_moves_and_never_attacking_a_partner(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    """Was: `help` in a co-op game suggested `attack 2 body` (the partner shares the Gate at the start)."""
    args = ["floating_world", "--players", "2", "--bots", "1", "--seed", "fw-cli-3", "--out", str(tmp_path)]
    assert play(args, keyboard(["help"])) == 0
    out = capsys.readouterr().out
    assert "attack 2" not in out and "to 2`" not in out
    suggested = re.findall(r"now e\.g\. `([^`]+)`", out)
    legal = FloatingWorld().legal_actions(FloatingWorld().new(2, {}, "fw-cli-3"), 0)
    assert suggested and set(suggested) <= set(legal)


def test_a_nightmare_decision_is_typed_with_its_choices_in_the_caption(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture) -> None:
    """Issue 23: 6.4.3 "on any Land that has an empty border and no Kitsune": the table places the spawn. The
    caption names who decides and lists every choice; the typed choice is played."""
    args = ["floating_world", "--players", "2", "--bots", "0", "--seed", "fw-cli-d5", "--out", str(tmp_path)]
    moves = ["land 1,0", "end", "land 0,1", "end", "spawn 0,1"]
    assert play(args, keyboard(moves)) == 0
    out = capsys.readouterr().out
    assert "choose its Land" in out and "Type one of: spawn 0,1, spawn 1,0" in out
    assert re.search(r"appears on \(?0,1", out), out[-1500:]


def test_rule_6_2_the_terminal_asks_the_fleeing_kitsunes_owner(monkeypatch: pytest.MonkeyPatch) -> None:
    """6.2 "Any Kitsune who are somehow on a destroyed Land may move for free": the caption names the fleeing
    Kitsune's owner as the one who decides (the prompt follows `to_move`, the same seat), not the current player."""
    monkeypatch.setattr(Work, "roll", lambda self, count, plus: Roll((6,) * count, plus))
    game = FloatingWorld()
    s = build(2, lands={(1, 0): None, (2, 0): None, (0, 1): None, (1, 1): None}, demons={"oni1": (1, 0)},
              kitsune=[Kitsune(0), Kitsune(1, pos=(2, 0))], options=Options(auto_nightmare=False))
    paused, _ = game.apply(s, 0, "end")  # the Oni shreds 1,0: seat 1's Kitsune on 2,0 is cut off
    assert game.to_move(paused) == {1}
    lines = fw_decision_lines(game.view(paused, None)["pending"], ["Ann", "Ben"], "en")
    assert lines == ["Ben: Ben's Land is gone (6.2): choose where the Kitsune goes, for free.",
                     "Type one of: flee 0,0, flee 1,1"]
