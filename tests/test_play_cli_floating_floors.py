"""Floating Floors in the terminal: bots play a whole game to a winner; a human types moves, `legal` and `help`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from render.kit import image_ext
from tests.test_play_cli import ROOT, play
from tests.test_play_cli_terminal import keyboard


def test_two_bots_play_to_the_end_and_print_the_winner(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "bot.py", "play", "floating_floors", "--players", "2", "--bots", "2", "--seed", "ff-cli-1",
         "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "Game over. Winner: ⚙ Bot" in out
    assert "recovers Bansen" in out and "rolls" in out
    assert "stands (safe)" in out and "margin" not in out  # tension=bands by default: the band, never the margin
    maps = sorted(tmp_path.glob("floating_floors-*.webp"))
    assert len(maps) >= 10 and all(image_ext(p.read_bytes()) == "webp" for p in maps[:5])
    record = next(tmp_path.glob("floating_floors-*.txt")).read_text()
    assert '[Game "floating_floors"]' in record and '[Status "finished"]' in record


def test_a_human_types_moves_legal_and_help(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    args = ["floating_floors", "--players", "2", "--bots", "1", "--seed", "ff-cli-2", "--out", str(tmp_path)]
    assert play(args, keyboard(["help", "legal", "take zz pool", "quit"])) == 0
    out = capsys.readouterr().out
    assert "take <jutsu> pool" in out and "board <space> [back] [r90]" in out  # help
    assert "take " in out and " pool" in out  # legal
    assert "is not a Jutsu" in out


def test_text_map_has_a_legend_in_english_and_polish() -> None:
    from render.floating_floors import words
    from rules.floating_floors.game import FloatingFloors

    g = FloatingFloors()
    view = g.view(g.new(2, {"chakra": "middle"}, "legend"), None)
    en = words.text_board(view, locale="en").splitlines()
    pl = words.text_board(view, locale="pl").splitlines()
    grid_end = 1 + view["size"][1]  # the column letters, then one line per row
    assert en[grid_end].startswith("key:") and all(f" {mark} " in en[grid_end] for mark in (".", "~", "L", "S", "j"))
    assert "1–2" in en[grid_end]
    assert pl[grid_end].startswith("legenda:") and " ląd " in pl[grid_end]


def test_terminal_prints_the_legend_under_the_map(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    args = ["floating_floors", "--players", "2", "--bots", "1", "--seed", "ff-cli-3", "--out", str(tmp_path)]
    assert play(args, keyboard(["quit"])) == 0
    assert "key: . land  ~ water  L light board space" in capsys.readouterr().out


def test_a_human_previews_a_move_or_several_at_once_with_a_question_mark(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture) -> None:
    """`? <move>` answers with the rules' preview and plays nothing; `a + b` (several actions at once) parses as
    one move, and a refused one says why."""
    args = ["floating_floors", "--players", "2", "--bots", "1", "--seed", "ff-cli-3", "--out", str(tmp_path),
            "--option", "chakra=middle"]
    assert play(args, keyboard(["? take bs pool", "? place ws c1 ne + claim", "quit"])) == 0
    out = capsys.readouterr().out
    assert "What if `take bs pool`" in out
    assert "placements and at most one step" in out
