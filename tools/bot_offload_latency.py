"""How long a bot seat's choice takes as the engine awaits it: in a thread of this process (the engine's default)
or in a render worker process (the bot's ``offload``, `render.pool.draw`), on the same positions.

    python -m tools.bot_offload_latency [--positions 60] [--workers 2]

Positions come from games the bots play from fixed seeds (every game; Floor Plan with its planner), played out in
a process of their own. Wall ms per choice, median and p95, the two modes taking turns on each position so that a
busy minute of the machine hits both alike. The
worker's figure includes pickling the position there and back; its caches are warm after the first pass (a worker
lives for `render.pool.RECYCLE_DRAWS` calls).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import rules
from render.pool import RenderPool

CASES = (("flying_blades", 5), ("floor_plan", 4), ("the_floor", 3), ("floating_world", 3), ("floating_floors", 4))


def positions(game: str, players: int, count: int) -> list[tuple[Any, int]]:
    g = rules.GAMES[game]
    out: list[tuple[Any, int]] = []
    seed = 0
    while len(out) < count:
        state = g.new(players, g.normalize_options(players, {}), f"latency/{game}/{seed}")
        seed += 1
        while g.outcome(state) is None and g.to_move(state) and len(out) < count:
            seat = min(g.to_move(state))
            out.append((state, seat))
            state, _ = g.apply(state, seat, g.bot_action(state, seat))
    return out


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


async def measure(count: int, workers: int) -> list[str]:
    # The positions are played out in a process of their own: the bots' choices there fill caches that neither
    # side of the comparison may start with (in the bot, a position's choice is made once, cold).
    maker = RenderPool(1)
    try:
        made = {case: await maker.draw(positions, *case, count) for case in CASES}
    finally:
        maker.shutdown()
    pool = RenderPool(workers)
    rows = ["| game | players | thread median / p95 ms | worker median / p95 ms |", "|---|---:|---:|---:|"]
    try:
        for game, players in CASES:
            seen = made[game, players]
            for state, seat in seen[:5]:  # the worker's first calls (imports done, caches cold) are not timed
                await pool.draw(rules.bot_choice, game, state, seat)
            thread: list[float] = []
            worker: list[float] = []
            g = rules.GAMES[game]
            for state, seat in seen:
                began = time.perf_counter()
                a = await asyncio.to_thread(g.bot_action, state, seat)
                thread.append((time.perf_counter() - began) * 1000)
                began = time.perf_counter()
                b = await pool.draw(rules.bot_choice, game, state, seat)
                worker.append((time.perf_counter() - began) * 1000)
                assert a == b, (game, seat, a, b)
            rows.append(f"| {game} | {players} | {statistics.median(thread):.2f} / {p95(thread):.2f} | "
                        f"{statistics.median(worker):.2f} / {p95(worker):.2f} |")
            print(rows[-1], flush=True)
    finally:
        pool.shutdown()
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=60)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    print("\n".join(asyncio.run(measure(args.positions, args.workers))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
