"""Generic benchmark harness: time a callable, measure the floor, print rows as a markdown table.

Absolute times drift between machines and runs, so every row also carries its ratio to the *floor*: the cost
(and size) of PNG-encoding a flat one-colour image of the same size and mode, measured in the same run.
"""

from __future__ import annotations

import gc
import io
import math
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine import SeatInfo
from render.kit import PNG_COMPRESS_LEVEL, encode_image


@dataclass(frozen=True)
class Row:
    """One measured step. ``floor_ms``/``floor_bytes`` are the flat-image floor it is compared to."""

    game: str
    case: str  # board / position
    step: str  # parse, apply, save, render, encode, ...
    median_ms: float
    p95_ms: float
    floor_ms: float | None = None
    size: int | None = None  # bytes produced (images)
    floor_bytes: int | None = None
    best_ratio: float | None = None  # sent bytes / the best lossless encoding of the same pixels (median of a sample)

    @property
    def ratio(self) -> float | None:
        return self.median_ms / self.floor_ms if self.floor_ms else None

    @property
    def bytes_ratio(self) -> float | None:
        return self.size / self.floor_bytes if self.size and self.floor_bytes else None


def measure(fn: Callable[[], object], n: int = 100, warmup: int = 3) -> tuple[float, float]:
    """(median, p95) in milliseconds of ``n`` calls of ``fn`` after ``warmup`` untimed ones.

    The cyclic GC is paused while timing so that a collection triggered by earlier code does not land on one
    call; the GC's own cost is a separate question.
    """
    for _ in range(warmup):
        fn()
    times = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(n):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1000)
    finally:
        if enabled:
            gc.enable()
    return median_p95(times)


def median_p95(samples: list[float]) -> tuple[float, float]:
    """(median, 95th percentile, nearest rank) of timings."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def flat_image(size: tuple[int, int], mode: str = "P") -> Image.Image:
    """A one-colour image of that size and mode (a 'P' image gets a full palette, like a rendered board)."""
    img = Image.new(mode, size)
    if mode == "P":
        img.putpalette([v for i in range(256) for v in (i, i, i)])
    return img


def encode(img: Image.Image) -> bytes:
    """The floor's encoder: PNG at the renderers' old zlib level, kept as the yardstick even though images are
    now sent as WebP (`render.kit.encode_image`), so ratios stay comparable with earlier runs."""
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def floor_ms(size: tuple[int, int], mode: str = "P", n: int = 50) -> float:
    """Median ms to PNG-encode a flat image of that size and mode (the same settings as the renderers)."""
    img = flat_image(size, mode)
    return measure(lambda: encode(img), n)[0]


def floor_bytes(size: tuple[int, int], mode: str = "P") -> int:
    return len(encode(flat_image(size, mode)))


# ----------------------------------------------------------------------------------------- the bytes anchor

BEST_WEBP = {"lossless": True, "quality": 100, "method": 6}  # libwebp's maximum lossless effort
BEST_OXIPNG_LEVEL = 6  # oxipng's strongest non-zopfli preset: every row filter tried, deflate at its maximum


def best_png(img: Image.Image) -> bytes:
    """The same pixels as a PNG at maximum compression with the best filter per row (oxipng over Pillow's level 9)."""
    import oxipng  # lazy: a dev-only dependency, loaded only when the anchor is measured

    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=9, optimize=True)
    return oxipng.optimize_from_memory(out.getvalue(), level=BEST_OXIPNG_LEVEL)


def best_webp(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="WEBP", **BEST_WEBP)
    return out.getvalue()


def best_bytes(img: Image.Image) -> int:
    """The bytes anchor: the smaller of the best lossless PNG and WebP lossless at maximum effort (Discord shows
    both inline). Slow (seconds per image): measure it on a sample."""
    return min(len(best_png(img)), len(best_webp(img)))


def best_ratio(samples: list[tuple[Image.Image, int]], n: int = 3) -> float | None:
    """Median of sent bytes / `best_bytes` over at most ``n`` (image, bytes sent) pairs spread over ``samples``."""
    if not samples or n < 1:
        return None
    step = max(1, len(samples) // n)
    picked = samples[::step][:n]
    return statistics.median(size / best_bytes(img) for img, size in picked)


def best_samples(n_moves: int) -> int:
    """How many images a row's anchor is measured on: 3, or none in the smoke tests' tiny runs (seconds per image;
    tests/test_bench_anchor.py checks the anchor itself on a small image)."""
    return 3 if n_moves >= 10 else 0


def _num(value: float | None, fmt: str) -> str:
    return "" if value is None else format(value, fmt)


def markdown_table(rows: Iterable[Row]) -> str:
    lines = [
        "| game | case | step | median ms | p95 ms | × floor | bytes | × floor bytes | × best bytes |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.game} | {r.case} | {r.step} | {r.median_ms:.2f} | {r.p95_ms:.2f} | {_num(r.ratio, '.1f')} "
            f"| {_num(r.size, ',')} | {_num(r.bytes_ratio, '.1f')} | {_num(r.best_ratio, '.2f')} |"
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------- move pipelines

PIPELINE_STEPS = ("parse+apply+save", "view", "render", "encode", "total")


async def seated_table(engine: Any, game: str, seed: str, names: list[str], channel: int) -> Any:
    """A started table of ``len(names)`` humans (user ids 1..n, seat i = user i + 1) on a real engine."""
    table = await engine.open_lobby(game, guild_id=1, channel_id=channel, seed=seed, host=SeatInfo(1, names[0]))
    for i in range(1, len(names)):
        await engine.join(table.id, SeatInfo(i + 1, names[i]))
    return await engine.start(table.id, 1)


async def timed_move(engine: Any, table_id: int, seat: int, action: str, draw: Callable[..., Image.Image],
                     names: list[str]) -> tuple[tuple[float, ...], bytes, Image.Image]:
    """One move through the whole pipeline: ``engine.act``, the spectator view, the drawing and the encode (what
    is sent: `render.kit.encode_image`). Returns the ms of each of `PIPELINE_STEPS`, the bytes and the image."""
    t0 = time.perf_counter()
    result = await engine.act(table_id, seat + 1, action)
    t1 = time.perf_counter()
    view = engine.view(result.table, None)
    t2 = time.perf_counter()
    img = draw(view, names=names)
    t3 = time.perf_counter()
    png = encode_image(img)
    t4 = time.perf_counter()
    return tuple(dt * 1000 for dt in (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0)), png, img
