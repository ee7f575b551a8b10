"""Balance check for Floating Floors: N seeded games per player count, bots in every seat.

    .venv/bin/python tools/floating_floors_sim.py [--games N] [--players 2|3|4|all] [--option key=value ...]
                                                  [--max-turns T]

Prints, per player count: each seat's share of the wins, the average number of player turns, collapses per game,
the longest game, unfinished games, the milliseconds the bots took per action, per player turn (mean) and for
the slowest player turn, and the seconds taken. Seeds are
``ffsim-<players>-<i>``, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.floating_floors.game import FloatingFloors


@dataclass
class Result:
    games: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    turns: int = 0
    collapses: int = 0
    longest: int = 0
    unfinished: int = 0
    actions: int = 0
    bot_seconds: float = 0.0
    slowest_turn: float = 0.0
    seconds: float = 0.0


@dataclass
class Game:
    winner: int | None
    turns: int
    collapses: int
    actions: int
    thinking: float  # seconds the bots spent choosing
    slowest_turn: float  # the most seconds one player turn took to choose


def play(players: int, seed: str, options: dict | None = None, max_turns: int = 400) -> Game:
    """One game with bots in every seat, stopped after ``max_turns`` player turns."""
    g = FloatingFloors()
    s = g.new(players, options or {}, seed)
    collapses = actions = 0
    per_turn: Counter[int] = Counter()
    while s.phase != "over" and s.turn <= max_turns:
        start = time.perf_counter()
        action = g.bot_action(s, s.current)
        per_turn[s.turn] += time.perf_counter() - start
        s, events = g.apply(s, s.current, action)
        actions += 1
        collapses += sum(e.kind == "collapse" for e in events)
    return Game(s.winner, s.turn, collapses, actions, sum(per_turn.values()), max(per_turn.values(), default=0))


def simulate(players: int, games: int, options: dict | None = None, max_turns: int = 400) -> Result:
    r, start = Result(), time.perf_counter()
    for i in range(games):
        game = play(players, f"ffsim-{players}-{i}", options, max_turns)
        r.games += 1
        if game.winner is None:
            r.unfinished += 1
        else:
            r.wins[game.winner] += 1
        r.turns += game.turns
        r.collapses += game.collapses
        r.longest = max(r.longest, game.turns)
        r.actions += game.actions
        r.bot_seconds += game.thinking
        r.slowest_turn = max(r.slowest_turn, game.slowest_turn)
    r.seconds = time.perf_counter() - start
    return r


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--players", choices=("2", "3", "4", "all"), default="all")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a table option, e.g. challenges=1,4 (repeatable)")
    ap.add_argument("--max-turns", type=int, default=400)
    args = ap.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    counts = (2, 3, 4) if args.players == "all" else (int(args.players),)
    print(f"{args.games} games each, options {options or '{}'}, at most {args.max_turns} player turns")
    print(f"{'players':7} {'win shares by seat':28} {'avg turns':>9} {'collapses':>9} {'longest':>7} "
          f"{'unfinished':>10} {'ms/action':>9} {'ms/turn':>7} {'max ms/turn':>11} {'secs':>6}")
    for n in counts:
        r = simulate(n, args.games, options, args.max_turns)
        shares = " ".join(f"{r.wins[seat] / r.games:5.0%}" for seat in range(n))
        print(f"{n:7} {shares:28} {r.turns / r.games:9.1f} {r.collapses / r.games:9.2f} {r.longest:7} "
              f"{r.unfinished:10} {1000 * r.bot_seconds / max(r.actions, 1):9.1f} "
              f"{1000 * r.bot_seconds / max(r.turns, 1):7.0f} {1000 * r.slowest_turn:11.0f} {r.seconds:6.1f}")


if __name__ == "__main__":
    main()
