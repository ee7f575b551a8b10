"""Floating World team balance: N seeded bot games per player count and difficulty (the same bot in every seat).

    nice -n 10 .venv/bin/python tools/fw_team_sim.py [--games N] [--players 1 2 3 4]
                                                     [--difficulty easy normal hard] [--option key=value ...]
                                                     [--solo-presets] [--auto-nightmare]

Prints one row per (players, difficulty): the setup played (spawn divisor, Land defence, extra Wounds, Demon
Strength head start: the preset for that player count unless ``--option`` names a knob), games, win rate, average
and longest length in player turns of the games that ended, the loss causes (Gate destroyed, every Kitsune
dead), the games **stalled** (still going after ``MAX_TURNS`` player turns: counted apart, neither won nor lost,
so one endless game costs seconds, not minutes) and the seconds taken, then the commit measured.
``--solo-presets`` plays every player count on the solo presets (the
setup teams had before the per-player-count presets): the "before" column of docs/floating_world.md.
The Nightmare is what a new table gets (``FloatingWorld.new_game_options``: automatic alone, the bots deciding
with 2–4 players); ``--auto-nightmare`` makes every choice automatic (how the tables before issue 23's decisions
were measured). The header names which.
Seeds are ``team-<difficulty>-<players>-<i>``, so a run is reproducible. One process on purpose: the machine
is shared (``--workers`` is capped at 1).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.floating_world import FloatingWorld  # noqa: E402
from rules.floating_world.options import DIFFICULTY, normalize  # noqa: E402
from rules.floating_world.state import WON  # noqa: E402

DIFFICULTIES = ("easy", "normal", "hard")
KNOBS = ("spawn_divisor", "land_defence", "extra_wounds", "demon_strength")
MAX_TURNS = 2_000  # player turns: the longest finished game measured was 439; past this a game is stalled
STALLED = "stalled"


@dataclass
class Cell:
    games: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    turns: int = 0
    longest: int = 0
    seconds: float = 0.0

    def add(self, reason: str, turns: int) -> None:
        self.games += 1
        self.reasons[reason] += 1
        if reason != STALLED:  # a stalled game's length is the cap's, not the game's
            self.turns += turns
            self.longest = max(self.longest, turns)

    @property
    def ended(self) -> int:
        return self.games - self.reasons[STALLED]

    @property
    def avg_turns(self) -> float:
        return self.turns / self.ended if self.ended else 0.0

    @property
    def stalled(self) -> str:
        return f"{self.reasons[STALLED] / self.games:.1%}" if self.games else "—"

    @property
    def win_rate(self) -> float:
        return self.reasons[WON] / self.games if self.games else 0.0

    def losses(self) -> str:
        return ", ".join(f"{k.removeprefix('fw.outcome.')} {v / self.games:.1%}"
                         for k, v in self.reasons.most_common() if k not in (WON, STALLED))


def table_options(difficulty: str, options: dict | None = None) -> dict:
    """What a new table gets (the rules' ``new_game_options``, as engine.core gives them), then this run's."""
    return {**FloatingWorld.new_game_options, "difficulty": difficulty, **(options or {})}


def play(players: int, difficulty: str, seed: str, options: dict | None = None,
         max_turns: int = MAX_TURNS) -> tuple[str, int]:
    """One game with the bot in every seat, set up as a new table: (outcome reason or "stalled", player turns)."""
    g = FloatingWorld()
    s = g.new(players, table_options(difficulty, options), seed)
    while s.phase != "over" and s.turn <= max_turns:
        seat = next(iter(g.to_move(s)))  # the current player, or the owner of a fleeing Kitsune (6.2)
        s, _ = g.apply(s, seat, g.bot_action(s, seat))
    return (s.reason or STALLED) if s.phase == "over" else STALLED, s.turn


def run_cell(players: int, difficulty: str, games: int, options: dict | None = None) -> Cell:
    cell, start = Cell(), time.perf_counter()
    for i in range(games):
        cell.add(*play(players, difficulty, f"team-{difficulty}-{players}-{i}", options))
    cell.seconds = time.perf_counter() - start
    return cell


def nightmare_mode(options: dict) -> str:
    """The header's words for who decides the Nightmare in this run."""
    raw = table_options("normal", options)["auto_nightmare"]
    return {"solo": "as a new table (automatic alone, the bots decide with 2-4 players)",
            "on": "automatic (auto_nightmare=on)", "off": "the bots decide (auto_nightmare=off)"}.get(raw, raw)


def cell_options(difficulty: str, options: dict, solo_presets: bool) -> dict:
    """The table options of one cell: the solo preset's knobs first when asked, the command line's over them."""
    knobs = dict(zip(KNOBS, DIFFICULTY[difficulty], strict=True)) if solo_presets else {}
    return {**knobs, **options}


def setup(players: int, difficulty: str, options: dict) -> str:
    played = normalize(players, {"difficulty": difficulty, **options})
    return "/".join(str(played[k]) for k in KNOBS)


def commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "rules/floating_world"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out + (" (+ uncommitted rules/floating_world changes)" if dirty else "")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4], choices=(1, 2, 3, 4))
    ap.add_argument("--difficulty", nargs="+", default=list(DIFFICULTIES), choices=DIFFICULTIES)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a table option, e.g. boost=on (repeatable)")
    ap.add_argument("--solo-presets", action="store_true",
                    help="play every player count on the solo presets (before the per-player-count presets)")
    ap.add_argument("--auto-nightmare", action="store_true",
                    help="every Nightmare choice automatic (auto_nightmare=on), as the tables before the decisions")
    ap.add_argument("--workers", type=int, default=1, choices=(1,), help="always 1: the machine is shared")
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    if args.auto_nightmare:
        options["auto_nightmare"] = "on"
    print(f"{args.games} games per cell, options {options or '{}'}, Nightmare {nightmare_mode(options)}, "
          f"commit {commit()}")
    print(f"avg turns and longest count the games that ended; stalled = still going after {MAX_TURNS} player turns")
    print("| players | difficulty | setup | games | win rate | avg turns | longest | losses | stalled | secs |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for players in args.players:
        for difficulty in args.difficulty:
            cell = cell_options(difficulty, options, args.solo_presets)
            c = run_cell(players, difficulty, args.games, cell)
            print(f"| {players} | {difficulty} | {setup(players, difficulty, cell)} | {c.games} | {c.win_rate:.1%} | "
                  f"{c.avg_turns:.1f} | {c.longest} | {c.losses()} | {c.stalled} | {c.seconds:.0f} |", flush=True)


if __name__ == "__main__":
    main()
