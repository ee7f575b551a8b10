"""Balance check for Floating World: N seeded games per difficulty played by the bot.

    .venv/bin/python tools/floating_world_sim.py [--games N] [--difficulty easy|normal|hard|all]
                                                 [--players P] [--option key=value ...] [--max-turns T]

Prints, per difficulty: the win rate, the average number of player turns, the loss reasons and the seconds
taken. Seeds are ``sim-<difficulty>-<players>-<i>`` (the first 1,000 are the published balance table in
``docs/floating_world.md``), so a run is reproducible.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.floating_world import FloatingWorld
from rules.floating_world.state import WON

DIFFICULTIES = ("easy", "normal", "hard")


@dataclass
class Result:
    games: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    turns: int = 0
    longest: int = 0
    seconds: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.reasons[WON] / self.games if self.games else 0.0

    @property
    def average_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0


def play(difficulty: str, seed: str, players: int = 1, options: dict | None = None,
         max_actions: int = 20_000) -> tuple[str, int]:
    """One bot game: (reason or "unfinished", player turns)."""
    g = FloatingWorld()
    s = g.new(players, {"difficulty": difficulty, **(options or {})}, seed)
    for _ in range(max_actions):
        if s.phase == "over":
            break
        s, _ = g.apply(s, s.current, g.bot_action(s, s.current))
    return s.reason or "unfinished", s.turn


def simulate(difficulty: str, games: int, players: int = 1, options: dict | None = None) -> Result:
    r, start = Result(), time.perf_counter()
    for i in range(games):
        reason, turns = play(difficulty, f"sim-{difficulty}-{players}-{i}", players, options)
        r.games += 1
        r.reasons[reason] += 1
        r.turns += turns
        r.longest = max(r.longest, turns)
    r.seconds = time.perf_counter() - start
    return r


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--difficulty", choices=(*DIFFICULTIES, "all"), default="all")
    ap.add_argument("--players", type=int, default=1, choices=(1, 2, 3, 4))
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a table option, e.g. boost=on (repeatable)")
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    chosen = DIFFICULTIES if args.difficulty == "all" else (args.difficulty,)
    print(f"{args.games} games, {args.players} player(s), options {options or '{}'}")
    print(f"{'difficulty':10} {'win':>6} {'avg turns':>9} {'longest':>7} {'secs':>6}  losses")
    for difficulty in chosen:
        r = simulate(difficulty, args.games, args.players, options)
        losses = ", ".join(f"{k.removeprefix('fw.outcome.')} {v / r.games:.1%}"
                           for k, v in r.reasons.most_common() if k != WON)
        print(f"{difficulty:10} {r.win_rate:6.1%} {r.average_turns:9.1f} {r.longest:7} {r.seconds:6.1f}  {losses}")


if __name__ == "__main__":
    main()
