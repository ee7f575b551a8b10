"""Floating Floors: which ``tension`` setting keeps the risk of a balance game? Bot games per setting.

    nice -n 10 .venv/bin/python tools/ff_tension_sim.py [--games N] [--players 2,3,4]
                                                      [--setting exact --setting bands:0.2 ...]

A setting is ``exact`` (today's previews, pure statics) or ``bands:T`` (``tension=bands`` with shaky checks
below margin T: `statics.BAND_SHAKY_BELOW` is set to T for the run). Bots in every seat; seeds
``fftension-<players>-<i>`` are the same for every setting, so the settings play the same deals. Prints one
markdown table: per setting and player count the mean game length in player turns, collapses per game, the
share of games with any collapse, each seat's win share, and unfinished games (stopped at ``--max-turns``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.floating_floors import statics
from rules.floating_floors.game import FloatingFloors

DEFAULT_SETTINGS = ("exact", "bands:0.15", "bands:0.2", "bands:0.3")


@dataclass
class Tally:
    games: int = 0
    turns: int = 0
    collapses: int = 0
    with_collapse: int = 0
    unfinished: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    seconds: float = 0.0


def play(players: int, seed: str, tension: str, max_turns: int) -> tuple[int | None, int, int]:
    """(winner, player turns, collapses) of one game with bots in every seat."""
    g = FloatingFloors()
    s = g.new(players, {"tension": tension, "chakra": "middle"}, seed)
    collapses = 0
    while s.phase != "over" and s.turn <= max_turns:
        s, events = g.apply(s, s.current, g.bot_action(s, s.current))
        collapses += sum(e.kind == "collapse" for e in events)
    return s.winner, s.turn, collapses


def run(setting: str, players: int, games: int, max_turns: int) -> Tally:
    tension, _, threshold = setting.partition(":")
    saved = statics.BAND_SHAKY_BELOW
    statics.BAND_SHAKY_BELOW = float(threshold) if threshold else saved
    tally, start = Tally(), time.perf_counter()
    try:
        for i in range(games):
            winner, turns, collapses = play(players, f"fftension-{players}-{i}", tension, max_turns)
            tally.games += 1
            tally.turns += turns
            tally.collapses += collapses
            tally.with_collapse += collapses > 0
            tally.unfinished += winner is None
            if winner is not None:
                tally.wins[winner] += 1
    finally:
        statics.BAND_SHAKY_BELOW = saved
    tally.seconds = time.perf_counter() - start
    return tally


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--setting", action="append", default=[])
    ap.add_argument("--max-turns", type=int, default=200)
    args = ap.parse_args(argv)
    settings = args.setting or list(DEFAULT_SETTINGS)
    print(f"{args.games} games per setting and player count (seeds fftension-P-i), chakra=middle, "
          f"at most {args.max_turns} player turns")
    print("| setting | players | avg turns | collapses/game | games with a collapse | win share by seat "
          "| unfinished | secs |")
    print("|---|---|---|---|---|---|---|---|")
    for n in (int(p) for p in args.players.split(",")):
        for setting in settings:
            t = run(setting, n, args.games, args.max_turns)
            shares = " / ".join(f"{t.wins[seat] / t.games:.0%}" for seat in range(n))
            print(f"| {setting} | {n} | {t.turns / t.games:.1f} | {t.collapses / t.games:.2f} | "
                  f"{t.with_collapse / t.games:.0%} | {shares} | {t.unfinished} | {t.seconds:.0f} |", flush=True)


if __name__ == "__main__":
    main()
