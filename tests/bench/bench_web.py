"""The web site under load (issue 28): pages a second for a big tournament's page and its longest game's pages,
and the event loop's lag while they are served in the same process (what a bot beside the site would feel).

`python -m tests.bench web` (256 entrants: minutes, most of it the simulation); `report(players=32)` is quicker.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from engine.simulate import simulate
from storage import open_read_only
from web import make_app
from web.guard import Buckets

REQUESTS = 200
CONCURRENCY = 8


async def _lag_probe(samples: list[float], stop: asyncio.Event, period: float = 0.01) -> None:
    while not stop.is_set():
        then = time.perf_counter()
        await asyncio.sleep(period)
        samples.append(time.perf_counter() - then - period)


async def _rate(client: TestClient, paths: list[str]) -> tuple[float, float, float]:  # type: ignore[type-arg]
    """(pages a second, median and max loop lag in ms) for REQUESTS requests over ``paths``, CONCURRENCY at once."""
    lags: list[float] = []
    stop = asyncio.Event()
    probe = asyncio.create_task(_lag_probe(lags, stop))
    queue = [paths[i % len(paths)] for i in range(REQUESTS)]
    began = time.perf_counter()

    async def worker() -> None:
        while queue:
            response = await client.get(queue.pop())
            assert response.status == 200, response.status
            await response.read()

    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    seconds = time.perf_counter() - began
    stop.set()
    await probe
    return REQUESTS / seconds, 1000 * statistics.median(lags or [0]), 1000 * max(lags or [0])


async def _report(players: int) -> str:
    with tempfile.TemporaryDirectory(prefix="floorboard-web-bench-") as tmp:
        path = Path(tmp) / "web.sqlite3"
        sim = await simulate(game="flying_blades", fmt="swiss", players=players, table_size=2, seed="bench-web",
                             database=path, web_guild=1)
        store = await open_read_only(path)
        client = TestClient(TestServer(make_app(store, Buckets(rate=1e9, burst=1e9))))
        await client.start_server()
        try:
            longest = max([(len(await store.actions(g)), g) for g in await store.game_ids()])
            game_slug = (await store.web_slugs("game", 1, [longest[1]]))[longest[1]]
            lines = [f"web: {players}-entrant Swiss ({sim.games} games), longest game {longest[0]} moves;"
                     f" {REQUESTS} requests, {CONCURRENCY} at once, loop lag probed every 10 ms",
                     f"{'page':<28} {'pages/s':>8} {'lag median ms':>14} {'lag max ms':>11}"]
            cases = {"tournament": [f"/t/{sim.web_slug}"],
                     "game (each move)": [f"/g/{game_slug}?move={n}" for n in range(longest[0] + 1)],
                     "board image (each move)": [f"/g/{game_slug}/board?move={n}" for n in range(longest[0] + 1)]}
            for name, paths in cases.items():
                rate, median, worst = await _rate(client, paths)
                lines.append(f"{name:<28} {rate:>8.1f} {median:>14.2f} {worst:>11.1f}")
            return "\n".join(lines)
        finally:
            await client.close()
            await store.close()


def report(players: int = 256) -> str:
    return asyncio.run(_report(players))
