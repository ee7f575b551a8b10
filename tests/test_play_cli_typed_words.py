"""Issue 21 (the first hour): the words players type in their language are the same in Discord and the terminal.
Before, the Polish verbs of Flying Blades, Floor Plan and The Floor were known to the cogs only, so the terminal
refused ``pas`` in a Polish game; now every game's words live below the surface (``rules/<game>/words.py``), the
terminal reads typed moves through the same function as Discord, and the log keeps the English notation."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import terminal
from cogs.floating_floors import FloatingFloorsSurface
from cogs.floating_world import FloatingWorldSurface
from cogs.floor_plan import FloorPlanSurface
from cogs.flying_blades import FlyingBladesSurface
from cogs.the_floor import TheFloorSurface
from rules import GAMES
from rules.floating_world import notation as fw_notation
from rules.floor_plan import words as fp_words
from rules.flying_blades import words as fb_words
from rules.the_floor import words as tf_words
from tests.test_play_cli_terminal import keyboard

# A Polish word for each verb the test types (the words players see on Polish buttons and in /help).
POLISH = {
    "flying_blades": {"attack": "Atak", "pass": "pas", "keep": "zostaw"},
    "floor_plan": {"start": "Pokój startowy", "room": "pokój", "features": "Elementy", "skip": "pomiń"},
    "the_floor": {"pick": "wybierz", "challenge": "Wyzwij", "ready": "gotowy", "keep": "zostaw", "pass": "pas"},
    "floating_world": {"move": "ruch", "land": "kraina", "village": "wioska", "harvest": "zbieraj", "end": "koniec",
                       "heal": "lecz", "buy": "kup"},
}
SURFACES = {"flying_blades": FlyingBladesSurface, "floor_plan": FloorPlanSurface, "the_floor": TheFloorSurface,
            "floating_world": FloatingWorldSurface, "floating_floors": FloatingFloorsSurface}


def saved(db: Path, game: str) -> Any:
    with sqlite3.connect(db) as con:
        (text,) = con.execute("SELECT state FROM games WHERE game = ? ORDER BY id DESC", (game,)).fetchone()
    return GAMES[game].from_json(json.loads(text))


def logged(db: Path) -> list[str]:
    with sqlite3.connect(db) as con:
        return [a for (a,) in con.execute("SELECT action FROM actions WHERE seat = 0 AND source = 'player' "
                                          "ORDER BY game_id, seq")]


def in_polish(game: str, s: Any) -> tuple[str, str] | None:
    """(what a Polish player types, the English notation it stands for) for a move legal now, or None."""
    rules = GAMES[game]
    if game == "the_floor" and s.duel is not None and s.duel.started:
        return "pas", "pass"
    candidates = rules.legal_actions(s, 0) or [rules.bot_action(s, 0)]
    for action in candidates:
        verb, _, rest = action.partition(" ")
        if verb in POLISH[game]:
            if game == "the_floor" and verb in ("pick", "keep"):  # by the name the hand shows
                rest = rules.category_name(s, rest)
            return " ".join([POLISH[game][verb], rest]).strip(), action
    return None


def polish_player(db: Path, game: str, typed: list[tuple[str, str]], moves: int) -> Callable[[str], str]:
    def read(prompt: str) -> str:
        if len(typed) >= moves or (typed and typed[-1][1] == "pass" and game == "the_floor"):
            raise EOFError
        pair = in_polish(game, saved(db, game))
        if pair is None:
            raise EOFError
        typed.append(pair)
        return pair[0]

    return read


@pytest.mark.parametrize(("game", "moves"), [("flying_blades", 3), ("floor_plan", 2), ("the_floor", 40),
                                             ("floating_world", 3)])
def test_a_polish_verb_typed_in_the_terminal_is_played_and_logged_in_english(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, moves: int) -> None:
    argv = [game, "--players", "2", "--bots", "1", "--lang", "pl", "--seed", "typed-words", "--no-images",
            "--out", str(tmp_path)]
    db = tmp_path / "play.db"
    terminal.main([*argv, "--new"], lambda prompt: (_ for _ in ()).throw(EOFError))  # create the save
    typed: list[tuple[str, str]] = []
    assert terminal.main(argv, polish_player(db, game, typed, moves)) == 0
    out = capsys.readouterr().out
    assert typed, out
    played = logged(db)
    # Every Polish line was played (before: "Nieznana akcja pas"…) and the log keeps the English notation.
    assert len(played) == len(typed), (typed, played, out)
    for (polish, english), action in zip(typed, played, strict=True):
        assert action.split()[0] == english.split()[0], (polish, action)
        if english.split()[0] not in ("pass", "pick", "keep"):  # a duel's pass is logged with its time
            assert action == english, (polish, action)
    if game == "the_floor":
        verbs = {a.split()[0] for a in played}
        assert {"pick", "challenge", "ready", "pass"} <= verbs, played


def alias_texts(game: str) -> list[str]:
    """Every alias of the game's tables, typed as a move would be, in several cases."""
    tables: dict[str, list[dict[str, str]]] = {
        "flying_blades": [fb_words.VERB_ALIAS, fb_words.WORD_ALIAS, fb_words.CARD_ALIAS],
        "floor_plan": [fp_words.VERB_ALIAS, fp_words.WORD_ALIAS],
        "the_floor": [tf_words.VERB_ALIAS],
        "floating_world": [fw_notation.ALIASES],
        "floating_floors": [],
    }
    texts = ["pass", "  Pass  ", "attack C3 c4", "keep bomb, dragon", "room C3 4x3 K@D4"]
    for table in tables[game]:
        for alias in table:
            texts += [f"{alias} c3 c4", f"{alias.upper()} E5 z e4", f"zostaw {alias}", f"{alias.title()}",
                      f"pokój C3 4x3 K@D4 {alias} 3=6; zgłoś hosts.1"]
    return texts


@pytest.mark.parametrize("game", sorted(GAMES))
def test_discord_and_the_terminal_read_every_typed_alias_the_same_way(game: str) -> None:
    surface = SURFACES[game]()
    assert surface.game_id == game
    for text in alias_texts(game):
        assert terminal.typed_text(game, text) == surface.normalize(text), text


def running_duel() -> Any:
    """A game of The Floor played by its bot up to the first running duel."""
    rules = GAMES["the_floor"]
    s = rules.new(2, {}, "typed-words")
    for _ in range(300):
        if s.duel is not None and s.duel.started:
            return s
        seat = min(rules.to_move(s))
        s, _ = rules.apply(s, seat, rules.bot_action(s, seat))
    raise AssertionError("no duel started")


@pytest.mark.parametrize(("typed", "action"), [("PAS", "pass 1200"), ("dalej", "pass 1200"),
                                               ("Protest", "dispute 1200"), ("pass", "pass 1200"),
                                               ("Pasta", "answer 1200 Pasta")])
def test_a_duels_pass_in_any_language_is_a_pass_in_the_terminal_as_in_discord(typed: str, action: str) -> None:
    # Before: the terminal took only the English `pass`; `pas` went to the judges as an answer.
    assert GAMES["the_floor"].typed_action(running_duel(), typed, 1200) == action
    assert tf_words.duel_action(typed, 1200) == action  # what Discord's duel reads typed messages with


@pytest.mark.parametrize(("game", "typo", "verb"), [
    ("floor_plan", "pokuj C3 4x3 K@D4", "room"), ("flying_blades", "zostav nic", "keep"),
    ("the_floor", "wybiezr rzeki", "pick"), ("floating_world", "koneic", "end"),
])
def test_a_mistyped_polish_verb_in_the_terminal_gets_did_you_mean(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   game: str, typo: str, verb: str) -> None:
    # Before: the terminal's hint knew the English verbs only: `pokuj` got no "did you mean".
    assert terminal.main([game, "--players", "2", "--bots", "1", "--seed", "typed-words", "--no-images",
                          "--out", str(tmp_path)], keyboard([typo])) == 0
    out = capsys.readouterr().out
    hint = next(line for line in out.splitlines() if f"`{typo.split()[0]}` is not a move." in line)
    assert f"Did you mean `{verb}`?" in hint, hint
