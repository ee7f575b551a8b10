"""Rendering benchmark rows: draw (view -> palette image) and encode (image -> the bytes sent, `kit.encode_image`)
per game and board."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from PIL import Image

from render import flying_blades
from render import kit as common
from tests.bench.harness import Row, best_ratio, best_samples, floor_bytes, floor_ms, measure
from tests.views_flying_blades import make_view, sample_last_moves

NAMES = ["Alice", "Bartłomiej", "Chidi", "Dagny", "Eun-ji"]


def flying_blades_views(players: int, count: int = 5) -> list[dict[str, Any]]:
    """``count`` successive mid-game positions of that size (turn numbers, counts and last moves change as in
    a game, so text that is new each move is drawn fresh), seen by a player with a hand."""
    lasts = sample_last_moves(players)
    return [
        make_view(
            players,
            seed=i,
            empty=25 + i % 30,
            turn=20 + i,
            viewer=0,
            hand=["bomb", "shuriken"],
            last=lasts[i % len(lasts)],
        )
        for i in range(count)
    ]


def image_rows(
    game: str,
    case: str,
    draw: Callable[[dict[str, Any]], Image.Image],
    views: list[dict[str, Any]],
    n: int,
) -> list[Row]:
    """Rows for one renderer: ``render`` (draw), ``encode`` and both in a row, timed over ``views`` (the
    first half for render, the second for render+encode, so that each timed draw sees a position it has not
    drawn before).

    The first few views are drawn untimed first (the process's first image builds the cached background,
    sprites and palette: a once-per-process cost, not a per-move one).
    """
    for view in views[:3]:
        draw(view)
    half = max(1, len(views) // 2)
    first, second = itertools.cycle(views[:half]), itertools.cycle(views[half:] or views)
    render_med, render_p95 = measure(lambda: draw(next(first)), n, warmup=0)
    images = [draw(view) for view in views[:5]]
    image_cycle = itertools.cycle(images)
    encode_med, encode_p95 = measure(lambda: common.encode_image(next(image_cycle)), n)
    both_med, both_p95 = measure(lambda: common.encode_image(draw(next(second))), n, warmup=0)
    sent = [(img, len(common.encode_image(img))) for img in images]
    size = round(sum(b for _, b in sent) / len(sent))
    best = best_ratio(sent, best_samples(n))
    img = images[0]
    floor = floor_ms(img.size, img.mode)
    fbytes = floor_bytes(img.size, img.mode)
    case = f"{case} {img.width}×{img.height} {img.mode}"
    return [
        Row(game, case, "render", render_med, render_p95, floor),
        Row(game, case, "encode", encode_med, encode_p95, floor, size, fbytes, best),
        Row(game, case, "render+encode", both_med, both_p95, floor, size, fbytes, best),
    ]


def rows(n: int = 100) -> list[Row]:
    out: list[Row] = []
    for case, players in (("House 3p", 3), ("Temple 5p", 5)):
        views = flying_blades_views(players, count=2 * n)
        names = NAMES[:players]
        out += image_rows(
            "flying_blades", case, lambda v, names=names: flying_blades.draw(v, names=names), views, n
        )
    return out
