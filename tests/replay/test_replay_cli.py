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


def test_a_terminal_save_replays_into_a_gif_and_frames(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``./floorboard replay --save NAME [--out DIR] --gif FILE``: the save as `play` keeps it in OUT/play.db."""
    from tests.test_play_cli import play
    from tests.test_play_cli_terminal import keyboard

    args = ["flying_blades", "--players", "2", "--bots", "1", "--seed", "cli-replay", "--option", "cards=none",
            "--out", str(tmp_path), "--no-images"]
    assert play(args, keyboard(["pass"])) == 0
    capsys.readouterr()
    gif = tmp_path / "game.gif"
    assert cli.main(["replay", "--save", "flying_blades", "--out", str(tmp_path), "--gif", str(gif),
                     "--frames", str(tmp_path / "frames")]) == 0
    assert gif.read_bytes().startswith(b"GIF89a") and "frames" in capsys.readouterr().out
    assert len(list((tmp_path / "frames").iterdir())) >= 2
    assert cli.main(["replay", "1", "--db", str(tmp_path / "play.db")]) == 0  # the same game by its id
    assert "passed" in capsys.readouterr().out
    assert cli.main(["replay", "--save", "nosuch", "--out", str(tmp_path)]) == 2


@pytest.mark.parametrize("argv", [["replay", "--record", "/nonexistent/game.txt"],
                                  ["replay", str(2**70), "--db", "DB"], ["replay"]])
def test_a_missing_record_an_impossible_id_or_no_game_exits_2_with_one_line(
        argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "bot.db"
    db.write_bytes(b"")
    assert cli.main([str(db) if a == "DB" else a for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
