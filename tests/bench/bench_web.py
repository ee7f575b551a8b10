"""The web site under load (issue 28): pages a second for a big tournament's page and its longest game's pages,
and the event loop's lag while they are served in the same process (what a bot beside the site would feel).

`python -m tests.bench web` (256 entrants: minutes, most of it the simulation); `report(players=32)` is quicker.
FLOORBOARD_BENCH_WEB_DB=PATH keeps the simulated database at PATH and reuses it on the next run (a before/after
comparison then serves the same data). The game case is a finished 3-player The Floor game of 313 moves.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from engine.simulate import simulate
from engine.web import publish_game
from render import pool as render_pool
from rules import GAMES
from storage import open_read_only, open_store
from tests.web.conftest import running_game
from web import make_app
from web.guard import Buckets

REQUESTS = 200
CONCURRENCY = 8
LONG_GAME = ("the_floor", "a")  # 3 bots: 313 moves to its end
DB_ENV = "FLOORBOARD_BENCH_WEB_DB"


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


async def _database(path: Path, players: int) -> tuple[str, str]:
    """The simulated tournament plus the long game, kept in ``path`` (reused when it exists): their slugs."""
    marker = path.with_suffix(".slugs")
    if path.exists() and marker.exists():
        await (await open_store(f"sqlite:///{path}")).close()  # migrated to this checkout's schema
        tournament, game = marker.read_text().split()
        return tournament, game
    sim = await simulate(game="flying_blades", fmt="swiss", players=players, table_size=2, seed="bench-web",
                         database=path, web_guild=1)
    store = await open_store(f"sqlite:///{path}")
    try:
        game_id, state = await running_game(store, LONG_GAME[0], moves=10_000, seed=LONG_GAME[1],
                                              players=3)
        rules = GAMES[LONG_GAME[0]]
        row = await store.load_game(game_id)
        outcome = rules.outcome(state)
        assert row is not None and outcome is not None
        await store.save_game(_finished(row, outcome.to_json()), expect_version=row.version)
        game = await publish_game(store, 1, game_id)
    finally:
        await store.close()
    assert sim.web_slug and game
    marker.write_text(f"{sim.web_slug} {game}")
    return sim.web_slug, game


def _finished(row: Any, outcome: dict[str, Any]) -> Any:
    return replace(row, status="finished", outcome=outcome, version=row.version + 1)


async def _report(players: int) -> str:
    with tempfile.TemporaryDirectory(prefix="floorboard-web-bench-") as tmp:
        path = Path(os.environ.get(DB_ENV) or Path(tmp) / "web.sqlite3")
        tournament, game_slug = await _database(path, players)
        store = await open_read_only(path)
        client = TestClient(TestServer(make_app(store, Buckets(rate=1e9, burst=1e9))))
        await client.start_server()
        try:
            game_id = (await store.web_target(game_slug) or ("", 0, 0))[2]
            moves = len(await store.actions(game_id))
            games = len(await store.game_ids())
            lines = [f"web: {players}-entrant Swiss ({games} games), a {moves}-move game;"
                     f" {REQUESTS} requests, {CONCURRENCY} at once, loop lag probed every 10 ms",
                     f"{'page':<28} {'pages/s':>8} {'lag median ms':>14} {'lag max ms':>11}"]
            cases = {"tournament": [f"/t/{tournament}"],
                     "tournament (pl and en)": [f"/t/{tournament}?lang=pl", f"/t/{tournament}?lang=en"],
                     "game (each move)": [f"/g/{game_slug}?move={n}" for n in range(moves + 1)],
                     "board image (each move)": [f"/g/{game_slug}/board?move={n}" for n in range(moves + 1)],
                     "board image (one move)": [f"/g/{game_slug}/board?move={moves}"]}  # spectators of a live game
            for name, paths in cases.items():
                rate, median, worst = await _rate(client, paths)
                lines.append(f"{name:<28} {rate:>8.1f} {median:>14.2f} {worst:>11.1f}")
            # Inside the bot (WEB_PORT) the images go to its render workers, off this process's GIL.
            render_pool.start(2)
            try:
                rate, median, worst = await _rate(client, cases["board image (each move)"])
            finally:
                render_pool.stop()
            lines.append(f"{'board image (2 workers)':<28} {rate:>8.1f} {median:>14.2f} {worst:>11.1f}")
            return "\n".join(lines)
        finally:
            await client.close()
            await store.close()


def report(players: int = 256) -> str:
    return asyncio.run(_report(players))
