"""A simulated server queue for /queue's matching (docs/matchmaking.md quotes its figures).

    .venv/bin/python tools/queue_sim.py [--hours 8] [--per-hour 30] [--seeds 5]
    .venv/bin/python tools/queue_sim.py --time [--entries 1000]

Simulation: players arrive at random (``--per-hour`` on average) for one of two games at a table of 2 (70%) or 3,
any time control (60%) or one of two named ones, ratings drawn around 1500 (sd 250); matching runs every 5 s as
the scheduler's pass does, with the shipped band (`Band()`) and with a fixed band that never widens (150). Printed,
over ``--seeds`` seeded runs (``queuesim-<i>``): the median and 90th-percentile wait of seated players, the
share never seated by the end, and the median rating spread (highest − lowest) of a table.

``--time``: how long one matching pass takes over a queue of ``--entries`` entries (four games, three sizes, a
narrow band so that few match: the worst case), median of 5 runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.matchmaking import Band, Entry, match

START = datetime(2026, 1, 1, tzinfo=UTC)
TICK = timedelta(seconds=5)


def simulate(seed: str, hours: float, per_hour: float, band: Band) -> tuple[list[float], int, list[float]]:
    """(waits in minutes of seated players, players never seated, rating spreads of tables)."""
    rnd = random.Random(seed)
    now, end = START, START + timedelta(hours=hours)
    waiting: list[Entry] = []
    waits, spreads, next_id = [], [], 1
    p_arrival = per_hour * TICK.total_seconds() / 3600
    while now < end:
        if rnd.random() < p_arrival:
            waiting.append(Entry(next_id, rnd.choice(["a", "b"]), 2 if rnd.random() < 0.7 else 3,
                                 "" if rnd.random() < 0.6 else rnd.choice(["3d", "live"]),
                                 rnd.gauss(1500, 250), now))
            next_id += 1
        for group in match(waiting, now, band):
            seated = {e.user_id for e in group.entries}
            waits += [(now - e.joined_at).total_seconds() / 60 for e in group.entries]
            ratings = [e.rating for e in group.entries]
            spreads.append(max(ratings) - min(ratings))
            waiting = [e for e in waiting if e.user_id not in seated]
        now += TICK
    return waits, len(waiting), spreads


def pctl(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def run_sim(args: argparse.Namespace) -> None:
    for name, band in (("widening (shipped)", Band()), ("fixed 150", Band(base=150, per_minute=0, cap=150))):
        waits, left, spreads, seen = [], 0, [], 0
        for i in range(args.seeds):
            w, n, s = simulate(f"queuesim-{i}", args.hours, args.per_hour, band)
            waits += w
            left += n
            spreads += s
            seen += len(w) + n
        print(f"{name:20} wait median {statistics.median(waits):5.1f} min, p90 {pctl(waits, 0.9):5.1f} min;"
              f" never seated {left / seen:5.1%}; table spread median {statistics.median(spreads):4.0f}")


def run_time(args: argparse.Namespace) -> None:
    rnd = random.Random("queuetime")
    games = ["flying_blades", "floating_world", "floating_floors", "the_floor"]
    runs = []
    for _ in range(5):
        queue = [Entry(i, rnd.choice(games), rnd.choice([2, 3, 4]), rnd.choice(["", "3d", "live"]),
                       rnd.gauss(1500, 300), START - timedelta(seconds=rnd.randint(0, 60)), rnd.random() < 0.3)
                 for i in range(args.entries)]
        t0 = time.perf_counter()
        match(queue, START, Band(base=20, per_minute=1, cap=30))
        runs.append(time.perf_counter() - t0)
    print(f"{args.entries} entries: one matching pass {statistics.median(runs) * 1000:.1f} ms (median of 5)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=8)
    parser.add_argument("--per-hour", type=float, default=30)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--time", action="store_true")
    parser.add_argument("--entries", type=int, default=1000)
    args = parser.parse_args()
    run_time(args) if args.time else run_sim(args)


if __name__ == "__main__":
    main()
