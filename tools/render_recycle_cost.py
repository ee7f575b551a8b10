"""What recycling the render workers costs (issue 25, "Memory"; `render.pool.RenderPool.recycle_after`).

The soak's own draws (`tests.bench.bench_memory`: bots over 25 tables of the five games, each move's image) are
recorded once, then drawn one after the other by a pool of workers: a first pass fills the workers' caches, a
second is the warm figure; then fresh workers take over (`RenderPool._recycle`, timed: fork and warm-up, in its
thread) and the same draws are drawn again by cold workers. Reported: the recycle's wall time, and per draw
the median and the total of the warm and the cold passes (their difference is what one recycle costs in draws).

Run once for figures: ``nice -n 10 .venv/bin/python -m tools.render_recycle_cost [--moves 300] [--workers 2]``.
Timings are noisy on a shared machine: compare the passes of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import Engine
from render import pool as render_pool
from render.pool import RenderPool
from storage import open_store
from tests.bench import bench_memory as bm

Call = tuple[Any, tuple[Any, ...], dict[str, Any]]


async def recorded_draws(moves: int) -> list[Call]:
    """The draws a soak of ``moves`` moves sends to the pool (as plain data), in order."""
    calls: list[Call] = []
    real = render_pool.draw

    async def record(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        calls.append((fn, args, kwargs))
        return await real(fn, *args, **kwargs)

    render_pool.draw = record  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory(prefix="floorboard-recycle-") as tmp:
            store = await open_store(Path(tmp) / "soak.sqlite3")
            play, soak = bm.SoakTables(Engine(store), bm.SOAK_TABLES), bm.Soak()
            try:
                for n in range(moves):
                    await play.step(n, soak)
            finally:
                await store.close()
    finally:
        render_pool.draw = real  # type: ignore[assignment]
    return calls


async def one_pass(pool: RenderPool, calls: list[Call]) -> list[float]:
    out = []
    for fn, args, kwargs in calls:
        began = time.perf_counter()
        await pool.draw(fn, *args, **kwargs)
        out.append((time.perf_counter() - began) * 1000)
    return out


async def main(moves: int, workers: int) -> None:
    calls = await recorded_draws(moves)
    pool = RenderPool(workers, preload=("league.pairing", "cogs.floating_floors"), recycle_after=0)
    try:
        await one_pass(pool, calls)  # fills the caches
        warm = await one_pass(pool, calls)
        began = time.perf_counter()
        await asyncio.to_thread(pool._recycle)
        recycle_ms = (time.perf_counter() - began) * 1000
        cold = await one_pass(pool, calls)
    finally:
        pool.shutdown()
    print(f"{len(calls)} draws, {workers} workers; recycle (fork + warm-up, in a thread): {recycle_ms:.0f} ms")
    for name, times in (("warm", warm), ("cold (fresh workers)", cold)):
        print(f"{name}: median {statistics.median(times):.1f} ms, p90 {statistics.quantiles(times, n=10)[-1]:.1f} ms,"
              f" total {sum(times) / 1000:.2f} s")
    print(f"one recycle costs {(sum(cold) - sum(warm)) / 1000:.2f} s of draw time over the next {len(calls)} draws")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main(args.moves, args.workers))
