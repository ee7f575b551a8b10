"""The event loop's lag while boards render: in threads (RENDER_WORKERS=0, as before) vs worker processes.

Issue 26 ("Off the event loop"): Pillow holds the GIL for much of a draw and an encode, so a board drawn in a worker
*thread* still stalls the loop that acknowledges every interaction; `render.pool` draws in worker *processes*.
This tool renders ``--images`` boards (a mix of every game's public image, WebP as the bot posts them) with
``--concurrency`` of them in flight at once, while a ticker sleeping 10 ms records how late the loop wakes up;
``--runs`` rounds alternate the modes, and the report gives each figure's median over the runs.

Run: ``nice -n 10 .venv/bin/python -m tools.render_loop_lag [--images 120] [--concurrency 8] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from render import floating_world as fw_draw
from render import kit
from render import pool as render_pool
from render.floating_world import words as fw_words
from rules import GAMES

TICK_S = 0.010
Job = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]


def played_state(game_id: str, players: int, moves: int, seed: str | None = None) -> Any:
    """A seeded state after ``moves`` bot moves (a board with pieces on it to draw)."""
    rules = GAMES[game_id]
    state = rules.new(players, {}, seed or f"lag-{game_id}")
    rng = random.Random(game_id)
    for _ in range(moves):
        seats = sorted(rules.to_move(state))
        if not seats:
            break
        seat = rng.choice(seats)
        state, _ = rules.apply(state, seat, rules.bot_action(state, seat))
    return state


def jobs() -> list[Job]:
    """One of each public image the cogs post after a move, from plain data (as the pool is sent)."""
    names = ["Alice", "Bob", "Carol", "Dave", "Eve"]
    out: list[Job] = []
    for game_id, players in (("flying_blades", 5), ("the_floor", 4), ("floating_floors", 4)):
        view = GAMES[game_id].view(played_state(game_id, players, 8), None)
        mark = view.get("last_action")
        out.append((render_pool.board, (game_id, view), {"names": names[:players], "locale": "en",
                                                          "moves": [mark] if isinstance(mark, dict) else None}))
    view = GAMES["floating_world"].view(played_state("floating_world", 4, 8), None)
    out.append((fw_draw.map_image, (view,), {"locale": "en", "card_names": fw_words.card_names("en"),
                                              "names": names[:4]}))
    return out


async def _ticker(stop: asyncio.Event, lags: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(TICK_S)
        lags.append((time.perf_counter() - start - TICK_S) * 1000)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def one_run(workers: int, work: list[Job], images: int, concurrency: int) -> dict[str, float]:
    pool = render_pool.RenderPool(workers)
    try:
        await asyncio.gather(*(pool.draw(fn, *a, **k) for fn, a, k in work * max(1, workers)))  # warm, untimed
        queue = [work[i % len(work)] for i in range(images)]
        latencies: list[float] = []
        gate = asyncio.Semaphore(concurrency)

        async def one(job: Job) -> None:
            async with gate:
                start = time.perf_counter()
                await pool.draw(job[0], *job[1], **job[2])
                latencies.append((time.perf_counter() - start) * 1000)

        stop, lags = asyncio.Event(), []
        tick = asyncio.create_task(_ticker(stop, lags))
        start = time.perf_counter()
        await asyncio.gather(*(one(j) for j in queue))
        wall = time.perf_counter() - start
        stop.set()
        await tick
    finally:
        pool.shutdown()
    return {"lag_p50": _pct(lags, 0.5), "lag_p99": _pct(lags, 0.99), "lag_max": max(lags),
            "img_p50": _pct(latencies, 0.5), "img_p99": _pct(latencies, 0.99), "per_s": images / wall}


async def first_image(workers: int, job: Job) -> float:
    """Milliseconds from starting a pool to its first image (the workers' start and warm-up included)."""
    start = time.perf_counter()
    pool = render_pool.RenderPool(workers)
    try:
        await pool.draw(job[0], *job[1], **job[2])
        return (time.perf_counter() - start) * 1000
    finally:
        pool.shutdown()


async def main(images: int, concurrency: int, runs: int, workers: int) -> None:
    kit.use_format("webp")
    work = jobs()
    modes = {"threads (RENDER_WORKERS=0)": 0, f"processes (RENDER_WORKERS={workers})": workers}
    results: dict[str, list[dict[str, float]]] = {m: [] for m in modes}
    for _ in range(runs):
        for mode, n in modes.items():
            results[mode].append(await one_run(n, work, images, concurrency))
    print(f"{images} images, {concurrency} in flight, median of {runs} runs (ms unless noted)")
    keys = ("lag_p50", "lag_p99", "lag_max", "img_p50", "img_p99", "per_s")
    print("| mode | " + " | ".join(keys) + " |")
    for mode, rows in results.items():
        print(f"| {mode} | " + " | ".join(f"{statistics.median(r[k] for r in rows):.1f}" for k in keys) + " |")
    print(f"first image after a pool starts ({workers} workers): "
          f"{statistics.median([await first_image(workers, work[0]) for _ in range(runs)]):.0f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=120)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main(args.images, args.concurrency, args.runs, args.workers))
