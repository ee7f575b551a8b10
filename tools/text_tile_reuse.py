"""How often the paletted kit's text tiles are reused over a soak, and what an LRU of each size would hit (issue 25).

Plays the memory benchmark's soak (`tests.bench.bench_memory`: bots over 25 tables, each move followed by the image
the cogs post) while recording every text tile asked of each palette, then replays each palette's sequence of keys
through LRUs of several sizes. Splits the keys into text with a digit (counts, clocks, scores: they change from move
to move) and text without one (labels, names), to choose a bound for each.

Run once for figures: ``nice -n 10 .venv/bin/python -m tools.text_tile_reuse --moves 3000``.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import OrderedDict, defaultdict
from typing import Any

from render.kit import paletted as kit
from tests.bench import bench_memory

SIZES = (128, 256, 512, 1024, 2048, 4096)


def lru_hits(keys: list[Any], size: int) -> int:
    cache: OrderedDict[Any, None] = OrderedDict()
    hits = 0
    for key in keys:
        if key in cache:
            hits += 1
            cache.move_to_end(key)
        else:
            cache[key] = None
            if len(cache) > size:
                cache.popitem(last=False)
    return hits


def record() -> dict[int, list[tuple[Any, ...]]]:
    """Wrap every `Paletted` made from now on so that its text tiles' keys are logged per palette."""
    seen: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    init = kit.Paletted.__init__

    def logged_init(self: kit.Paletted, palette: Any) -> None:
        init(self, palette)
        cached, log = self.text_tile, seen[id(self)]

        def text_tile(*key: Any) -> Any:
            log.append(key)
            return cached(*key)

        self.text_tile = text_tile  # type: ignore[method-assign]

    kit.Paletted.__init__ = logged_init  # type: ignore[method-assign]
    return seen


def names() -> dict[int, str]:
    """The games' palettes by the id of their (cached) `Paletted`."""
    import importlib  # lazy: only once the soak imported them
    out = {}
    for module in ("render.flying_blades", "render.the_floor.sprites", "render.floor_plan.tiles",
                   "render.floating_world.palette"):
        out[id(importlib.import_module(module).paletted())] = module.split(".")[1]
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--moves", type=int, default=3000)
    args = p.parse_args()
    seen = record()
    asyncio.run(bench_memory.soak_child(args.moves, 0, args.moves, bench_memory.SOAK_TABLES, False))
    print(f"{args.moves} moves; per palette: requests, distinct keys, hit rate at LRU sizes {SIZES}")
    for n, keys in seen.items():
        for kind, part in (("digit", [k for k in keys if any(c.isdigit() for c in k[0])]),
                           ("other", [k for k in keys if not any(c.isdigit() for c in k[0])])):
            if not part:
                continue
            rates = " ".join(f"{lru_hits(part, s) / len(part):.2f}" for s in SIZES)
            print(f"{names().get(n, n)} {kind}: {len(part):,} requests, {len(set(part)):,} distinct; hits {rates}")


if __name__ == "__main__":
    main()
