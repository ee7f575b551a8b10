"""The whole per-move pipeline on real games: parse + apply + save (engine.act on a real SQLite file in WAL),
view, render, encode, and their sum, per board. Moves come from bot-played games replayed through the engine
as if typed by players, so every timed move is a real position and a real commit."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from PIL import Image

from engine import Engine
from render import flying_blades as fb_render
from rules import GAMES
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

STEPS = PIPELINE_STEPS
# images kept for the bytes anchor: every 8th, at most 12 (all of them would hold ~200 MB of pixels at n=100)
KEEP_EVERY, KEEP_MAX = 8, 12


BOT_THINK_MS: dict[int, list[float]] = {}


def bot_game(players: int, seed: str) -> list[tuple[int, str]]:
    """The log of one game the bot plays against itself (its thinking time is kept for the bot row)."""
    rules = GAMES["flying_blades"]
    state = rules.new(players, {}, seed)
    log: list[tuple[int, str]] = []
    while rules.to_move(state):
        seat = min(rules.to_move(state))
        t0 = time.perf_counter()
        action = rules.bot_action(state, seat)
        BOT_THINK_MS.setdefault(players, []).append((time.perf_counter() - t0) * 1000)
        state, _ = rules.apply(state, seat, action)
        log.append((seat, action))
    return log



async def _replay_timed(players: int, n: int, db: Path) -> tuple[dict[str, list[float]], list[int], tuple, list]:
    store = await Store.open(db)
    engine = Engine(store)
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    sizes: list[int] = []
    size_mode: tuple = ()
    kept: list[tuple[Image.Image, int]] = []  # (image, bytes sent) for the bytes anchor
    names = [f"Player {i + 1}" for i in range(players)]
    game_no = 0
    try:
        while len(times["total"]) < n:
            game_no += 1
            seed = f"bench-{players}-{game_no}"
            log = bot_game(players, seed)
            t = await seated_table(engine, "flying_blades", seed, names, game_no)
            for seat, action in log:
                if len(times["total"]) >= n:
                    break
                dts, png, img = await timed_move(engine, t.id, seat, action, fb_render.draw, names)
                for step, dt in zip(STEPS, dts, strict=True):
                    times[step].append(dt)
                if len(sizes) % KEEP_EVERY == 0 and len(kept) < KEEP_MAX:
                    kept.append((img, len(png)))
                sizes.append(len(png))
                size_mode = (img.size, img.mode)
    finally:
        await store.close()
    return times, sizes, size_mode, kept


def rows(n: int = 100) -> list[Row]:
    out: list[Row] = []
    for case, players in (("House 3p", 3), ("Temple 5p", 5)):
        with tempfile.TemporaryDirectory() as tmp:
            fb_render.draw(GAMES["flying_blades"].view(GAMES["flying_blades"].new(players, {}, "warm"), None))
            times, sizes, (size, mode), kept = asyncio.run(_replay_timed(players, n, Path(tmp) / "bench.db"))
        floor, fbytes = floor_ms(size, mode), floor_bytes(size, mode)
        best = best_ratio(kept, best_samples(n))
        label = f"{case} move pipeline"
        for step in STEPS:
            med, p95 = median_p95(times[step])
            image = step in ("encode", "total")
            out.append(Row("flying_blades", label, step, med, p95, floor,
                           round(statistics.mean(sizes)) if image else None, fbytes if image else None,
                           best if image else None))
        med, p95 = median_p95(BOT_THINK_MS[players])
        out.append(Row("flying_blades", f"{case} bot", f"bot decision (max {max(BOT_THINK_MS[players]):.0f})",
                       med, p95))
    return out
