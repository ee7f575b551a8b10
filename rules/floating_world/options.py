"""Floating World's options: difficulty presets (per player count), the switches, and their normalization.

Below the game facade: the stored-state reader normalizes a saved game's options without importing `game.py`.
"""

from __future__ import annotations

from typing import Any

from rules.base import (
    OptionsError,
)

# spawn divisor, Land defence, extra Wounds, Demon Strength steps at the start; solo: normal is the rulebook
DIFFICULTY = {"easy": (4, 10, 1, 0), "normal": (4, 10, 0, 0), "hard": (5, 10, 0, 1)}
# A team seals later than a lone fox (Praise is earned per turn and never handed over) while a Nightmare follows
# every turn: on the rulebook's setup the team bot won 28–38%. 9.1's levers, measured (tools/fw_team_sim.py,
# docs/floating_world.md): a spawn die per 3 Lands (all sixes rarer, 8.2) and Land defence 14 bring normal to the
# solo band; easy adds a die per 2 Lands and a Wound, hard the head start on the Demon Strength track.
TEAM_DIFFICULTY = {"easy": (2, 14, 1, 0), "normal": (3, 14, 0, 0), "hard": (3, 14, 0, 1)}
# Smaller teams seal later still (fewer Dream phases a round to pass Items and hunt): on the 4-player setup normal
# won 46.6% (2) and 46.2% (3) against 51.4% (4), 1,000 games each. 9.1's "let Kitsune survive more Wounds" brings
# them to the middle of the band: two extra Wounds for 2 players, one for 3 (easy keeps at least as many).
# With the bots deciding the Nightmare (what a new table plays) 3 players on 3/14/1/0 won 41.9% (1,000 games), and
# no Nightmare rule measured moved them more than the noise: a spawn die per 2 Lands with Land defence 13 (one
# below easy's) brings them to the band's middle (tools/fw_team_sim.py, docs/floating_world.md).
PAIR_DIFFICULTY = {**TEAM_DIFFICULTY, "easy": (2, 14, 2, 0), "normal": (3, 14, 2, 0)}
TRIO_DIFFICULTY = {**TEAM_DIFFICULTY, "normal": (2, 13, 1, 0)}
DIFFICULTY_BY_PLAYERS = {1: DIFFICULTY, 2: PAIR_DIFFICULTY, 3: TRIO_DIFFICULTY, 4: TEAM_DIFFICULTY}
SWITCHES = ("boost", "quick_start", "vengeful", "scoring", "final_fox", "auto_nightmare")
NEW_GAME_NIGHTMARE = "solo"  # what a new game gets (engine.core.new_game_options): automatic alone, a table decides
OPTION_KEYS = ("difficulty", "spawn_divisor", "land_defence", "extra_wounds", "demon_strength", *SWITCHES)


def _int_option(options: dict[str, Any], key: str, lo: int, hi: int, default: int) -> int:
    raw = options.get(key, default)
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw)
    if not isinstance(raw, int) or isinstance(raw, bool) or not lo <= raw <= hi:
        raise OptionsError(f"fw.options.{key}", value=repr(raw), min=lo, max=hi)
    return raw


def normalize(players: Any, options: Any) -> dict[str, Any]:
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
        raise OptionsError("fw.options.players", count=players, min=1, max=4)
    options = dict(options or {})
    for key in sorted(set(options) - set(OPTION_KEYS)):
        raise OptionsError("fw.options.unknown", option=key, known=", ".join(OPTION_KEYS))
    difficulty = options.get("difficulty", "normal")
    if difficulty not in DIFFICULTY:
        raise OptionsError("fw.options.difficulty", value=repr(difficulty), allowed=", ".join(DIFFICULTY))
    # The preset fills only the knobs the player left out; a stored game's options name every knob, so it
    # replays with its own setup whatever the presets become.
    divisor, defence, wounds, strength = DIFFICULTY_BY_PLAYERS[players][difficulty]
    out: dict[str, Any] = {
        "difficulty": difficulty, "spawn_divisor": _int_option(options, "spawn_divisor", 2, 5, divisor),
        "land_defence": _int_option(options, "land_defence", 10, 14, defence),
        "extra_wounds": _int_option(options, "extra_wounds", 0, 2, wounds),
        "demon_strength": _int_option(options, "demon_strength", 0, 3, strength),
    }
    for key in SWITCHES:
        # Absent, the Nightmare is automatic: a game made before the option replays exactly from its log. New games
        # get ``solo`` from the lobby and the terminal (automatic alone, a table decides), resolved here by players.
        raw = options.get(key, "on" if key == "auto_nightmare" else "off")
        if key == "auto_nightmare" and raw == "solo":
            raw = "on" if players == 1 else "off"
        value = {True: "on", False: "off", "on": "on", "off": "off"}.get(raw) if isinstance(raw, bool | str) else None
        if value is None:
            raise OptionsError("fw.options.switch", option=key, value=repr(raw))
        out[key] = value
    return out
