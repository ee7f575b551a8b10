"""Issue 21, The Floor's first hour in the terminal: a category is picked by the name the hand shows (any case,
several words), and a stray move is told the terminal's own way to play, never to press a Discord button."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

import terminal
from rules import GAMES
from rules.the_floor import State

RULES = GAMES["the_floor"]


def saved(db: Path) -> State:
    with sqlite3.connect(db) as con:
        (text,) = con.execute("SELECT state FROM games WHERE game = 'the_floor' ORDER BY id DESC").fetchone()
    return RULES.from_json(json.loads(text))


def player(db: Path, typed: list[str], strays: dict[str, list[str]]) -> Callable[[str], str]:
    """Seat 0 at the keyboard: drafts by typing a category's name in capitals (a name of several words when the
    hand has one), then types each stray move once where it does not fit (``challenge`` at the challenge prompt,
    ``ready`` at the Ready prompt), then plays on (challenge, ready) and walks away at the first answer."""
    sent: set[str] = set()

    def read(prompt: str) -> str:
        if len(typed) > 60:
            raise EOFError
        s = saved(db)
        if s.phase == "draft":
            hand = s.hands[s.seat_side[0]]
            names = [RULES.category_name(s, c) for c in hand]
            line = "pick " + next((n for n in names if " " in n), names[0]).upper()
        else:
            d = s.duel
            where = "duel" if d is not None and d.started else "ready" if d is not None else "challenge"
            todo = [x for x in strays.get(where, []) if x not in sent]
            if where == "duel":
                raise EOFError
            if todo:
                line = todo[0]
                sent.add(line)
            else:
                line = "ready" if where == "ready" else RULES.legal_actions(s, 0)[0]
        typed.append(line)
        return line

    return read


def test_draft_picks_by_the_category_name_as_the_hand_shows_it_in_capitals(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    typed: list[str] = []
    argv = ["the_floor", "--players", "2", "--bots", "1", "--seed", "tf-names", "--no-images", "--out", str(tmp_path)]
    db = tmp_path / "play.db"
    terminal.main([*argv, "--new"], lambda prompt: (_ for _ in ()).throw(EOFError))  # create the save
    capsys.readouterr()
    assert terminal.main(argv, player(db, typed, {})) == 0
    out = capsys.readouterr().out
    picks = [line for line in typed if line.startswith("pick ")]
    assert len(picks) >= 6 and any(" " in line[5:] for line in picks)  # names of several words among them
    assert "is not in your hand" not in out and "Usage:" not in out
    assert saved(db).phase != "draft"


def test_stray_moves_are_told_the_terminals_way_never_to_press_a_button(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    typed: list[str] = []
    argv = ["the_floor", "--players", "2", "--bots", "1", "--seed", "tf-stray", "--no-images", "--out", str(tmp_path)]
    db = tmp_path / "play.db"
    terminal.main([*argv, "--new"], lambda prompt: (_ for _ in ()).throw(EOFError))
    capsys.readouterr()
    strays = {"challenge": ["ready", "judge accept user:5"], "ready": ["challenge A1 A2", "judge accept user:5"]}
    assert terminal.main(argv, player(db, typed, strays)) == 0
    out = capsys.readouterr().out
    assert "challenge A1 A2" in typed and "ready" in typed and "judge accept user:5" in typed
    # Before: "Both duellists must press Ready first." and "... vote with the Accept and Reject buttons".
    assert "must press Ready" not in out and "buttons" not in out
    assert "Both duellists must be ready first: type ready." in out
    assert "Seated players vote by typing judge accept or judge reject." in out


def test_a_stray_move_at_the_challenge_prompt_says_type_challenge(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    typed: list[str] = []
    argv = ["the_floor", "--players", "2", "--bots", "1", "--seed", "tf-stray", "--no-images", "--out", str(tmp_path)]
    db = tmp_path / "play.db"
    terminal.main([*argv, "--new"], lambda prompt: (_ for _ in ()).throw(EOFError))
    capsys.readouterr()
    terminal.main(argv, player(db, typed, {"challenge": ["ready"]}))
    out = capsys.readouterr().out
    # Before: "It is your turn to challenge: press Challenge, or type challenge, ..."
    assert "It is your turn to challenge: type challenge" in out and "press Challenge" not in out


def test_the_ready_wait_and_a_pass_outside_a_duel_are_told_the_terminals_way(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typed: list[str] = []
    argv = ["the_floor", "--players", "2", "--bots", "1", "--seed", "tf-stray", "--no-images", "--out", str(tmp_path)]
    db = tmp_path / "play.db"
    terminal.main([*argv, "--new"], lambda prompt: (_ for _ in ()).throw(EOFError))
    capsys.readouterr()
    terminal.main(argv, player(db, typed, {"challenge": ["pass"], "ready": ["dispute"]}))
    out = capsys.readouterr().out
    assert "pass" in typed and "dispute" in typed
    # Before: "Waiting for both sides to press Ready" on the text board, "Usage: pass <elapsed ms>" for a stray pass.
    assert "press Ready" not in out and "Waiting for both duellists to type ready" in out
    assert "<elapsed ms>" not in out and "Usage:" not in out
    assert "pass can be used only in a running duel" in out and "dispute can be used only in a running duel" in out


def test_the_polish_terminal_explains_pass_outside_a_duel_in_polish(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    typed: list[str] = []
    argv = ["the_floor", "--players", "2", "--bots", "1", "--seed", "tf-stray", "--no-images", "--out", str(tmp_path),
            "--lang", "pl"]
    db = tmp_path / "play.db"
    terminal.main([*argv, "--new"], lambda prompt: (_ for _ in ()).throw(EOFError))
    capsys.readouterr()
    terminal.main(argv, player(db, typed, {"challenge": ["pass"]}))
    out = capsys.readouterr().out
    assert "pass (pas) działa tylko w trwającym pojedynku" in out and "<elapsed ms>" not in out
    assert "wpiszą ready" in out
