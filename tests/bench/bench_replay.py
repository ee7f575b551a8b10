"""Replay benchmark rows: one ``/replay`` step of a long game rebuilt from its log and drawn (cold: a fresh replay
applies every action up to move N; warm: the replay's checkpoints leave at most `CHECKPOINT` applies), and the
animation of a 200-move game (time, bytes, frames). × floor: PNG-encoding a flat image of the frame's size (for
the animation: once per frame in the file)."""

from __future__ import annotations

import io
import itertools
import time
from typing import Any

from PIL import Image

from engine.replays import Replay, Source
from render.animate import animate_views
from render.registry import renderer
from rules import GAMES
from tests.bench.harness import Row, floor_bytes, floor_ms, measure

GAME, PLAYERS, MOVES = "the_floor", 2, 200  # a real-time game: every step changes the board (clocks, letters)
LIMIT = (10 << 20) - (64 << 10)  # Discord's default upload limit, less the message's own bytes (cogs/replay.py)
NAMES = ["Alice", "Bartłomiej"]


def long_game(seed: str = "bench-replay") -> Source:
    """A bot game of ``MOVES`` actions (the seed's next game if one ends sooner)."""
    rules = GAMES[GAME]
    for k in itertools.count():
        options = rules.normalize_options(PLAYERS, {})
        s, actions = rules.new(PLAYERS, options, f"{seed}-{k}"), []
        while rules.outcome(s) is None and len(actions) < MOVES:
            seat = min(rules.to_move(s))
            action = rules.bot_action(s, seat)
            s, _ = rules.apply(s, seat, action)
            actions.append((seat, action))
        if len(actions) == MOVES:
            return Source(GAME, PLAYERS, options, f"{seed}-{k}", NAMES, actions)
    raise AssertionError("unreachable")


def draw(view: dict[str, Any]) -> bytes:
    image = renderer(GAME).board(view, names=NAMES, locale="en")  # type: ignore[union-attr]
    assert image is not None
    return image


def rows(n: int = 20) -> list[Row]:
    source = long_game()
    rules = GAMES[GAME]
    step_at = MOVES - 7  # near the end, off a checkpoint: the most applies a warm step needs
    size = Image.open(io.BytesIO(draw(Replay(rules, source).step(0, "en").view))).size
    floor, fbytes = floor_ms(size, "RGB"), floor_bytes(size, "RGB")
    cold_med, cold_p95 = measure(lambda: draw(Replay(rules, source).step(step_at, "en").view), n)
    warm = Replay(rules, source)
    warm.state(step_at)
    warm_med, warm_p95 = measure(lambda: draw(warm.step(step_at, "en").view), n)
    image = draw(warm.step(step_at, "en").view)
    views = Replay(rules, source).views()
    start = time.perf_counter()
    made = animate_views(GAME, views, names=NAMES, locale="en", limit=LIMIT)
    took = (time.perf_counter() - start) * 1000
    assert made is not None
    case = f"step {step_at}/{MOVES} {size[0]}×{size[1]}"
    return [
        Row(GAME, f"replay {case}", "cold: log + draw", cold_med, cold_p95, floor, len(image), fbytes),
        Row(GAME, f"replay {case}", "warm: checkpoint + draw", warm_med, warm_p95, floor, len(image), fbytes),
        Row(GAME, f"animation {MOVES} moves → {made.frames} frames {made.width}×{made.height} {made.format}",
            "draw + animate", took, took, floor * made.frames, made.size, fbytes * made.frames),
    ]
