"""The terminal as a new user meets it (issue 21, "The first hour, again"): the opening board printed once, Floor
Plan's final sheets at game over, a typo of a verb answered with "did you mean"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import terminal
from rules import GAMES
from tests.test_play_cli_terminal import keyboard


def run(tmp_path: Path, *argv: str, typed: list[str] | None = None) -> int:
    return terminal.main([*argv, "--out", str(tmp_path), "--no-images", "--seed", "first-hour"],
                         keyboard(typed or []))


# --- the opening state --------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_opening_state_is_printed_once_before_the_first_prompt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    shown: list[int | None] = []
    prompts: list[int] = []
    real_show, real_read = terminal.TerminalGame.show, keyboard([])

    def show(self: terminal.TerminalGame, table: Any, seat: int | None) -> None:
        if not prompts:
            shown.append(seat)
        real_show(self, table, seat)

    def read(prompt: str) -> str:
        prompts.append(len(shown))
        return real_read(prompt)

    monkeypatch.setattr(terminal.TerminalGame, "show", show)
    assert terminal.main([game, "--players", "2", "--bots", "1", "--out", str(tmp_path), "--no-images",
                          "--seed", "first-hour"], read) == 0
    assert prompts and len(shown) == 1, shown


@pytest.mark.parametrize("game", ["floor_plan", "floating_world", "floating_floors"])
def test_the_opening_board_text_appears_once_in_what_the_player_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str) -> None:
    assert run(tmp_path, game, "--players", "2", "--bots", "1") == 0
    out = capsys.readouterr().out
    first_line = {"floor_plan": "Floor Plan · Setup", "floating_world": "Turn 1 · Demon Strength",
                  "floating_floors": "   a b c d e f g h i"}[game]
    assert out.count(first_line) == 1, out


def test_a_bot_only_game_still_shows_its_opening_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "floating_world", "--players", "1", "--bots", "1") == 0
    assert "Turn 1 · Demon Strength" in capsys.readouterr().out


# --- Floor Plan at game over --------------------------------------------------------------------------------


def test_floor_plan_at_game_over_shows_the_final_sheet_not_no_blueprint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "floor_plan", "--players", "1", "--bots", "1") == 0
    out = capsys.readouterr().out
    final = out[out.rindex("Floor Plan · Round"):]
    assert "No blueprint to show." not in final
    assert "Bot 1 — Score" in final and "    A B C D E F G H I J K L M N O P Q" in final, final


# --- a mistyped verb: the hint Discord's typed moves give, in the terminal too -------------------------------


@pytest.mark.parametrize(("game", "typo", "verb"), [
    ("flying_blades", "atack d3 e3", "attack"), ("floor_plan", "strat G5 6x3", "start"),
    ("the_floor", "pikc x", "pick"), ("floating_world", "atack oni mind", "attack"),
    ("floating_floors", "tkae bt pool", "take"),
])
def test_a_mistyped_verb_in_the_terminal_gets_did_you_mean_and_a_move_legal_now(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, typo: str, verb: str) -> None:
    assert run(tmp_path, game, "--players", "2", "--bots", "1", typed=[typo]) == 0
    out = capsys.readouterr().out
    hint = next(line for line in out.splitlines() if f"`{typo.split()[0]}` is not a move." in line)
    assert f"Did you mean `{verb}`?" in hint and "Moves now: `" in hint, hint


def test_the_terminals_typo_hint_is_in_polish_with_lang_pl(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "flying_blades", "--players", "2", "--bots", "1", "--lang", "pl",
               typed=["keep none", "atack d3 e3"]) == 0
    out = capsys.readouterr().out
    assert "`atack` to nie ruch." in out and "`attack`" in out, out


def test_a_refused_move_with_a_real_verb_keeps_the_rules_own_reason(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "flying_blades", "--players", "2", "--bots", "1", typed=["keep none", "attack z9 z8"]) == 0
    out = capsys.readouterr().out
    assert "is not a move" not in out and "Did you mean" not in out
