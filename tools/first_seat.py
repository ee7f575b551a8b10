"""First-seat advantage per game: ``python -m tools.first_seat [--games N] [--game ID ...]``.

Plays two-player games with the same bot in both seats (equal strength) through the real rules, seeds
``first-seat-0`` … ``first-seat-N-1``, and counts who won: seat 0 (moves first), seat 1, or a draw (a shared win,
or nobody). Floating World is co-operative (every seat wins or loses together), so it has no first seat to measure.
The numbers go to docs/tournaments.md; tournaments balance seats because of them.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from rules import GAMES

GAMES_MEASURED = ("flying_blades", "the_floor", "floating_floors", "floor_plan")  # floating_world: co-operative
# Games per id by default: 400 where a game takes milliseconds; fewer where one takes a second or more. Floor Plan
# is simultaneous (both sheets take the same dice), so the same bot in both seats ties: a few games show it.
DEFAULT_GAMES = {"flying_blades": 400, "the_floor": 400, "floating_floors": 100, "floor_plan": 20}
MAX_STEPS = 20_000  # a guard against a game that never ends under bots


@dataclass(frozen=True)
class Tally:
    game: str
    played: int
    first: int  # seat 0 alone won
    second: int  # seat 1 alone won
    draws: int  # both or neither won
    unfinished: int
    seconds: float

    def pct(self, n: int) -> str:
        return f"{100 * n / max(1, self.played):.1f} %"


def play(rules: Any, seed: str, options: dict[str, Any] | None = None) -> tuple[int, ...] | None:
    """One bot-v-bot game; the winners' seats, or None if it did not end within MAX_STEPS actions."""
    state = rules.new(2, dict(options or {}), seed)
    for _ in range(MAX_STEPS):
        outcome = rules.outcome(state)
        if outcome is not None:
            return tuple(outcome.winners)
        movers = sorted(rules.to_move(state))
        if not movers:
            return None
        seat = movers[0]
        state, _events = rules.apply(state, seat, rules.bot_action(state, seat))
    return None


def measure(game: str, games: int) -> Tally:
    rules = GAMES[game]
    began = time.perf_counter()
    first = second = draws = unfinished = 0
    for i in range(games):
        winners = play(rules, f"first-seat-{i}")
        if winners is None:
            unfinished += 1
        elif set(winners) == {0}:
            first += 1
        elif set(winners) == {1}:
            second += 1
        else:
            draws += 1
    return Tally(game, games - unfinished, first, second, draws, unfinished, time.perf_counter() - began)


def markdown(rows: list[Tally]) -> str:
    lines = ["| game | games played | seat 0 (first) wins | seat 1 wins | draws |", "|---|---|---|---|---|"]
    for t in rows:
        lines.append(f"| {t.game} | {t.played} | {t.pct(t.first)} | {t.pct(t.second)} | {t.pct(t.draws)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="games per game id (default: DEFAULT_GAMES)")
    parser.add_argument("--game", action="append", choices=GAMES_MEASURED, help="only these (repeatable)")
    args = parser.parse_args(argv)
    rows = []
    for game in args.game or GAMES_MEASURED:
        tally = measure(game, args.games or DEFAULT_GAMES[game])
        rows.append(tally)
        extra = f", {tally.unfinished} unfinished" if tally.unfinished else ""
        print(f"{game}: {tally.played} played in {tally.seconds:.1f} s{extra}", flush=True)
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
