"""Floating Floors: the current bot against today's (commit 2966cfb, frozen in tools/ff_bot_baseline.py).

    nice -n 10 .venv/bin/python tools/ff_bot_report.py [--games 200] [--players 2,3,4] [--tension bands]

Per player count, ``--games`` seeded games (seeds ``ffbots-<players>-<i>``) with the options the engine gives a new
game (``engine.core.new_game_options``: ``tension=bands`` and its default shaky threshold) unless ``--tension``
says otherwise. The current bot plays seat ``i % players`` and the baseline bot every other seat, so the current
bot sits in each seat equally often. The baseline never knew ``tension``: it is shown the same position with
``tension=exact`` (the geometry it always read), and its action is played on the real state. Games are played
round-robin over the player counts (game i of every count, then game i + 1), so a run cut short still has
figures for each. Prints a markdown table: the current bot's win share with its 95% Wilson interval against its
fair share (1 / players), game length in player turns (mean, median, longest), collapses per game (all, on the
current bot's actions, on each baseline seat's), the current bot's combined actions (``+``) per game and
unfinished games.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import new_game_options
from rules.floating_floors.game import FloatingFloors
from rules.floating_floors.state import State

HERE = Path(__file__).resolve().parent
Z95 = statistics.NormalDist().inv_cdf(0.975)


def baseline_choose() -> Callable[[State, int], str]:
    spec = importlib.util.spec_from_file_location("ff_bot_baseline", HERE / "ff_bot_baseline.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["ff_bot_baseline"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module.choose


def exact(s: State) -> State:
    return replace(s, options=replace(s.options, tension="exact"))


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share (sound near 0 and for small n, unlike p ± z·se)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * (p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) ** 0.5 / (1 + Z95 ** 2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    players: int
    wins: int = 0
    unfinished: int = 0
    collapses: int = 0
    own_collapses: int = 0  # on the current bot's own actions
    combos: int = 0
    secs: float = 0.0
    turns: list[int] = field(default_factory=list)

    def row(self) -> str:
        n = len(self.turns)
        lo, hi = wilson(self.wins, n)
        return (f"| {self.players} | {n} | {self.wins / n:.1%} | {lo:.1%}–{hi:.1%} | {1 / self.players:.1%} | "
                f"{statistics.fmean(self.turns):.1f} | {statistics.median(self.turns):g} | {max(self.turns)} | "
                f"{self.collapses / n:.2f} | {self.own_collapses / n:.2f} | "
                f"{(self.collapses - self.own_collapses) / n / (self.players - 1):.2f} | {self.combos / n:.2f} | "
                f"{self.unfinished} | {self.secs / n:.0f} |")


HEADER = ("| players | games | current bot wins | 95% CI | fair share | avg turns | median | longest | collapses/game "
          "| by the current bot | by each baseline seat | its combos/game | unfinished | secs/game |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def play(players: int, seed: str, options: dict, current_seat: int, old: Callable[[State, int], str],
         max_turns: int) -> tuple[int | None, int, int, int, int]:
    """(winner, player turns, collapses, those on the current bot's actions, its combined actions) of a game."""
    g = FloatingFloors()
    s = g.new(players, dict(options), seed)
    collapses = own = combos = 0
    while s.phase != "over" and s.turn <= max_turns:
        seat = s.current
        action = g.bot_action(s, seat) if seat == current_seat else old(exact(s), seat)
        combos += seat == current_seat and "+" in action
        s, events = g.apply(s, seat, action)
        fell = sum(e.kind == "collapse" for e in events)
        collapses += fell
        own += fell if seat == current_seat else 0
    return s.winner, s.turn, collapses, own, combos


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="start at round N (finish a run that was cut short)")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--tension", default=None, help="exact or bands (default: a new game's)")
    ap.add_argument("--max-turns", type=int, default=200)
    ap.add_argument("--every", type=int, default=10, help="print the table so far every N rounds")
    args = ap.parse_args(argv)
    options = new_game_options(FloatingFloors, {"tension": args.tension} if args.tension else {})
    old = baseline_choose()
    tallies = [Tally(int(p)) for p in args.players.split(",")]
    print(f"{args.games} games per player count, options {options}, seeds ffbots-P-i, current bot in seat i % P",
          flush=True)
    for i in range(args.first, args.games):
        for t in tallies:
            start = time.perf_counter()
            winner, turns, collapses, own, combos = play(t.players, f"ffbots-{t.players}-{i}", options, i % t.players,
                                                    old, args.max_turns)
            t.secs += time.perf_counter() - start
            t.wins += winner == i % t.players
            t.unfinished += winner is None
            t.turns.append(turns)
            t.collapses += collapses
            t.own_collapses += own
            t.combos += combos
        if (i + 1) % args.every == 0 or i + 1 == args.games:  # the table so far, in case the run is cut short
            print(f"\nafter {i + 1} rounds:\n{HEADER}", *(t.row() for t in tallies), sep="\n", flush=True)


if __name__ == "__main__":
    main()
