"""What the end-of-game summary's key moments cost: replaying a finished game's log and naming its moments
(`rules.moments.from_log`, which the bot runs off the loop once per finished game), per game, on seeded bot
playouts. Prints actions, the median time of the replay + moments, and the moments named.

    nice -n 10 .venv/bin/python -m tools.moments_cost [--seeds 3] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rules import GAMES
from rules.moments import from_log

TABLES = (("flying_blades", 3, {}), ("the_floor", 3, {}), ("floor_plan", 2, {}), ("floating_world", 2, {}),
          ("floating_floors", 2, {"shaky": "all"}))


def playout(game: str, players: int, options: dict[str, object], seed: str) -> tuple[dict[str, object],
                                                                                    list[tuple[int, str]]]:
    rules = GAMES[game]
    opts = rules.normalize_options(players, options)
    s, actions = rules.new(players, opts, seed), []
    while rules.outcome(s) is None and len(actions) < 3000:
        seat = min(rules.to_move(s))
        action = rules.bot_action(s, seat)
        s, _ = rules.apply(s, seat, action)
        actions.append((seat, action))
    return opts, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for game, players, options in TABLES:
        for i in range(args.seeds):
            seed = f"cost-{i}"
            opts, actions = playout(game, players, options, seed)
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                named = from_log(game, players, opts, seed, actions, True)
                times.append(time.perf_counter() - start)
            kinds = ", ".join(m.kind for m in named)
            print(f"{game:16} {seed}  {len(actions):5} actions  {statistics.median(times) * 1000:8.1f} ms  {kinds}")


if __name__ == "__main__":
    main()
