"""Floating Floors: the current bot against today's (commit 2966cfb, frozen in tools/ff_bot_baseline.py).

    nice -n 10 .venv/bin/python tools/ff_bot_report.py [--games 200] [--players 2,3,4] [--tension bands]

Per player count, ``--games`` seeded games (seeds ``ffbots-<players>-<i>``): the current bot plays seat
``i % players`` and the baseline bot every other seat, so the current bot sits in each seat equally often.
The baseline never knew ``tension``: it is shown the same position with ``tension=exact`` (the geometry it
always read), and its action is played on the real state. Prints a markdown table: the current bot's win share
against its fair share (1 / players), the baseline's per seat, game length in player turns, collapses per game
and unfinished games.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.floating_floors.game import FloatingFloors
from rules.floating_floors.state import State

HERE = Path(__file__).resolve().parent


def baseline_choose() -> Callable[[State, int], str]:
    spec = importlib.util.spec_from_file_location("ff_bot_baseline", HERE / "ff_bot_baseline.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["ff_bot_baseline"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module.choose


def exact(s: State) -> State:
    return replace(s, options=replace(s.options, tension="exact"))


def play(players: int, seed: str, tension: str, current_seat: int, old: Callable[[State, int], str],
         max_turns: int) -> tuple[int | None, int, int]:
    g = FloatingFloors()
    s = g.new(players, {"tension": tension, "chakra": "middle"}, seed)
    collapses = 0
    while s.phase != "over" and s.turn <= max_turns:
        seat = s.current
        action = g.bot_action(s, seat) if seat == current_seat else old(exact(s), seat)
        s, events = g.apply(s, seat, action)
        collapses += sum(e.kind == "collapse" for e in events)
    return s.winner, s.turn, collapses


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--tension", default=None, help="exact or bands (default: the game's default)")
    ap.add_argument("--max-turns", type=int, default=200)
    args = ap.parse_args(argv)
    from rules.floating_floors.game import DEFAULT_TENSION

    tension = args.tension or DEFAULT_TENSION
    old = baseline_choose()
    print(f"{args.games} games per player count, tension={tension}, seeds ffbots-P-i, current bot in seat i % P")
    print("| players | current bot wins | fair share | avg turns | longest | collapses/game | unfinished | secs |")
    print("|---|---|---|---|---|---|---|---|")
    for n in (int(p) for p in args.players.split(",")):
        start = time.perf_counter()
        wins = turns = longest = collapses = unfinished = 0
        for i in range(args.games):
            winner, t, c = play(n, f"ffbots-{n}-{i}", tension, i % n, old, args.max_turns)
            wins += winner == i % n
            unfinished += winner is None
            turns += t
            longest = max(longest, t)
            collapses += c
            if (i + 1) % 25 == 0 and i + 1 < args.games:  # a partial row, in case the run is cut short
                print(f"  after {i + 1} games: current bot {wins / (i + 1):.1%}, avg turns {turns / (i + 1):.1f}, "
                      f"collapses/game {collapses / (i + 1):.2f}, unfinished {unfinished}", flush=True)
        print(f"| {n} | {wins / args.games:.1%} | {1 / n:.1%} | {turns / args.games:.1f} | {longest} | "
              f"{collapses / args.games:.2f} | {unfinished} | {time.perf_counter() - start:.0f} |", flush=True)


if __name__ == "__main__":
    main()
