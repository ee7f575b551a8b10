"""``./floorboard replay``: a record file replays (and draws) identically; an unknown game or an unwritable path
exits 2 with one line."""

from __future__ import annotations

from pathlib import Path

import pytest

import cli
from rules import GAMES
from tests.replay.test_replay_steps import playout, record_text


def test_a_record_file_replays_step_by_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, final = playout("flying_blades", 2, "replay-a", cap=10)
    path = tmp_path / "game.txt"
    path.write_text(record_text(source, final), encoding="utf-8")
    assert cli.main(["replay", "--record", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(source.actions) + 1 and "keep" in out[1]  # a finished game's record: revealed
    assert GAMES  # the registry loaded


def test_an_unknown_game_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", "42", "--db", str(tmp_path / "none.db")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_an_unwritable_gif_path_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, final = playout("flying_blades", 2, "replay-a", cap=4)
    path = tmp_path / "game.txt"
    path.write_text(record_text(source, final), encoding="utf-8")
    assert cli.main(["replay", "--record", str(path), "--gif", str(tmp_path / "no" / "such" / "x.gif")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
