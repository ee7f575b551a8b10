"""Floating World per action and per Nightmare phase (``python -m tests.bench floating_world``): bot-played games
replayed through the engine on a real SQLite file, each move timed through the whole pipeline (parse + apply +
save, the spectator view, the map render, the PNG encode), split into Dream actions and the ``end`` that runs the
Nightmare phase (which also draws the Nightmare image). × floor: the median divided by PNG-encoding a flat image
of the map's size and mode in the same run.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import Engine
from engine.core import new_game_options
from render import floating_world as fw_render
from render import kit as common
from rules.floating_world import FloatingWorld
from storage import SqliteStore as Store
from tests.bench.harness import (
    PIPELINE_STEPS,
    Row,
    best_ratio,
    best_samples,
    floor_bytes,
    floor_ms,
    median_p95,
    seated_table,
    timed_move,
)

GAME = "floating_world"
RULES = FloatingWorld()
NIGHTMARE_VERBS = ("end", "timeout")


def bot_game(players: int, seed: str, limit: int = 4000) -> list[tuple[int, str]]:
    state = RULES.new(players, RULES.normalize_options(players, new_game_options(RULES, {})), seed)
    log: list[tuple[int, str]] = []
    for _ in range(limit):
        if not RULES.to_move(state):
            break
        seat = min(RULES.to_move(state))
        action = RULES.bot_action(state, seat)
        state, _ = RULES.apply(state, seat, action)
        log.append((seat, action))
    return log



async def _replay(players: int, n: int, db: Path) -> tuple[dict[str, dict[str, list[float]]], list[int], tuple, list]:
    store = await Store.open(db)
    engine = Engine(store, games={GAME: RULES})
    kinds = {"action": {s: [] for s in PIPELINE_STEPS}, "nightmare": {s: [] for s in (*PIPELINE_STEPS, "image")}}
    sizes: list[int] = []
    sent: list[tuple[Any, int]] = []  # every 10th map with its bytes: the best-bytes anchor's sample
    size_mode: tuple = ()
    names = [f"Player {i + 1}" for i in range(players)]
    game_no = 0
    try:
        while min(len(k["total"]) for k in kinds.values()) < n and game_no < 50:
            game_no += 1
            seed = f"bench-fw-{players}-{game_no}"
            table = await seated_table(engine, GAME, seed, names, game_no)
            for seat, action in bot_game(players, seed):
                steps, png, img = await timed_move(engine, table.id, seat, action, fw_render.draw_map, names)
                kind = "nightmare" if action.split()[0] in NIGHTMARE_VERBS else "action"
                for step, ms in zip(PIPELINE_STEPS, steps, strict=True):
                    kinds[kind][step].append(ms)
                if kind == "nightmare":  # the Nightmare's own image, posted beside the map
                    view = engine.view(await engine.get(table.id), None)
                    t0 = time.perf_counter()
                    common.encode_png(fw_render.draw_nightmare(view, names=names))
                    kinds[kind]["image"].append((time.perf_counter() - t0) * 1000)
                sizes.append(len(png))
                if len(sizes) % 10 == 1 and len(sent) < 30:
                    sent.append((img, len(png)))
                size_mode = (img.size, img.mode)
                if (await engine.get(table.id)).status != "active":
                    break
    finally:
        await store.close()
    return kinds, sizes, size_mode, sent


def rows(n: int = 60, players: tuple[int, ...] = (1, 3)) -> list[Row]:
    out: list[Row] = []
    for p in players:
        with tempfile.TemporaryDirectory() as tmp:
            kinds, sizes, (size, mode), sent = asyncio.run(_replay(p, n, Path(tmp) / "bench.sqlite3"))
        floor, fbytes = floor_ms(size, mode), floor_bytes(size, mode)
        best = best_ratio(sent, best_samples(n))
        case = f"{p}p map {size[0]}×{size[1]}"
        for kind, steps in kinds.items():
            for step, samples in steps.items():
                if not samples:
                    continue
                med, p95 = median_p95(samples)
                image = step in ("encode", "total")
                out.append(Row(GAME, f"{case} {kind}", step, med, p95, floor,
                               round(statistics.median(sizes)) if image else None, fbytes if image else None,
                               best if image else None))
    return out
