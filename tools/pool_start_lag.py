"""How long the bot's event loop stalls while its render pool starts, as `Floorboard.setup_hook` starts it: waiting
for the forkserver's imports (before: ``background=False``) or in a thread (now: ``background=True``).

``nice -n 5 .venv/bin/python -m tools.pool_start_lag [--runs 3] [--workers 2]``: the two ways alternate in one run,
each start in a fresh process (a process's forkserver imports the renderers once: a second start would not wait);
printed per way: the loop's worst lateness (a 10 ms ticker) from the call until the first draw in a worker, and how
long that took. Figures: docs/benchmarks.md, "Rendering off the loop".
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time

from render import pool as render_pool

TICK = 0.01
PRELOAD = ("league.pairing", "cogs.floating_floors")  # as bot.py


async def one(workers: int, background: bool) -> tuple[float, float]:
    """(worst loop lag ms, seconds until the workers are up) of one pool start."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal worst
        while not stop.is_set():
            expected = loop.time() + TICK
            await asyncio.sleep(TICK)
            worst = max(worst, loop.time() - expected)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)
    began = time.monotonic()
    pool = render_pool.start(workers, preload=PRELOAD, background=background)
    await asyncio.to_thread(pool.up.wait, 120)
    await pool.draw(time.monotonic)  # the first draw in a worker: the pool is really up
    up = time.monotonic() - began
    stop.set()
    await task
    render_pool.stop()
    return worst * 1000, up


def fresh(workers: int, background: bool) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-m", "tools.pool_start_lag", "--child", str(int(background)),
                          "--workers", str(workers)], check=True, capture_output=True, text=True).stdout.split()
    return float(out[-2]), float(out[-1])


def main(runs: int, workers: int) -> None:
    results: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for _ in range(runs):
        for background in (False, True):
            results[background].append(fresh(workers, background))
    print("| pool start | loop lag max ms (median of runs) | first draw in a worker after s |")
    print("|---|---:|---:|")
    for background, label in ((False, "waited for on the loop (before)"), (True, "in a thread (now)")):
        lags, ups = zip(*results[background], strict=True)
        print(f"| {label} | {statistics.median(lags):.0f} | {statistics.median(ups):.1f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--child", type=int, choices=(0, 1), default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is None:
        main(args.runs, args.workers)
    else:
        print(*asyncio.run(one(args.workers, bool(args.child))))
