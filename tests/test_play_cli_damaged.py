"""A damaged save in the terminal: a row damaged in any column (moves not a number, a version past 64 bits, a
truncated state) is said to be damaged, never a traceback; the notice names the terminal's own way out (`--drop`,
not Discord's /record, /abort or Manage Server) and is printed once per damaged game, not on every start; `--list`
shows it and `--drop` writes its moves to a file and ends it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import terminal
from tests.test_play_cli_terminal import keyboard, running

BOT_GAME = ["flying_blades", "--players", "2", "--bots", "1", "--option", "cards=none", "--no-images"]


def play(tmp_path: Path, *argv: str, typed: list[str] | None = None) -> int:
    return terminal.main([*argv, "--out", str(tmp_path)], keyboard(typed or []))


def saved_then_damaged(tmp_path: Path, fault: str) -> int:
    """A human-and-bot game saved at the human's first prompt, then its row damaged by ``fault``; its table id."""
    assert play(tmp_path, *BOT_GAME) == 0
    (row,) = running(tmp_path / "play.db")
    with sqlite3.connect(tmp_path / "play.db") as db:
        db.execute(fault, (row.id,))
    return row.id


FAULTS = {
    "moves not a number": "UPDATE games SET moves = 'abc' WHERE id = ?",
    "version past 64 bits": "UPDATE games SET version = 99999999999999999999 WHERE id = ?",
    "truncated state": "UPDATE games SET state = substr(state, 1, 30) WHERE id = ?",
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_damaged_save_is_said_once_in_the_terminals_words_never_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    table = saved_then_damaged(tmp_path, FAULTS[fault])
    capsys.readouterr()
    assert play(tmp_path, *BOT_GAME, typed=["pass"]) == terminal.EXIT_ERROR  # not a TypeError, not OverflowError
    first = capsys.readouterr()
    assert "Traceback" not in first.err + first.out
    assert f"(table {table}) is damaged" in first.err and "--drop flying_blades" in first.err
    for discord_only in ("/record", "/abort", "Manage Server"):
        assert discord_only not in first.err + first.out
    assert play(tmp_path, *BOT_GAME, typed=["pass"]) == terminal.EXIT_ERROR  # started again: the notice is not
    again = capsys.readouterr()
    assert "(table" not in again.err and "is damaged" in again.err and "--drop flying_blades" in again.err


def test_the_damaged_notice_is_not_repeated_when_another_game_is_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved_then_damaged(tmp_path, FAULTS["moves not a number"])
    other = ["floor_plan", "--players", "1", "--bots", "1", "--no-images"]
    play(tmp_path, *other)
    assert "damaged" in capsys.readouterr().err  # the first start that meets it says so
    play(tmp_path, *other)
    assert "damaged" not in capsys.readouterr().err  # and no later one


def test_list_shows_a_damaged_save_and_drop_exports_and_ends_it(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    table = saved_then_damaged(tmp_path, FAULTS["version past 64 bits"])
    capsys.readouterr()
    assert play(tmp_path, "--list") == 0
    listed = capsys.readouterr().out
    assert "flying_blades" in listed and "damaged" in listed and "--drop flying_blades" in listed
    assert play(tmp_path, "--drop", "flying_blades") == 0
    out = capsys.readouterr().out
    record = tmp_path / f"flying_blades-{table}.txt"
    text = record.read_text(encoding="utf-8")  # the log is what repairs a game: its moves are kept
    assert str(record) in out and f'[Table "{table}"]' in text and "[Status" in text
    assert running(tmp_path / "play.db") == []
    assert play(tmp_path, *BOT_GAME, typed=["quit"]) == 0  # the same command now starts a new game


def test_drop_names_a_save_that_does_not_exist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert play(tmp_path, *BOT_GAME, typed=["quit"]) == 0
    capsys.readouterr()
    assert play(tmp_path, "--drop", "nosuch") == terminal.EXIT_ERROR
    assert "nosuch" in capsys.readouterr().err and len(running(tmp_path / "play.db")) == 1
