"""Size the main process's bounded caches by what it asks of them (issue 25, memory): the hit rate each would have
at each bound.

The bot's main process applies moves, saves them and works out previews and menus; it draws no image and makes no
bot's choice (both happen in the render worker processes). Its rules and i18n caches were sized for the bots'
look-ahead. This plays the memory soak's mix (`tests.bench.bench_memory`, 25 tables, the main process's side of
each draw as in `tools.mem_by_game`) with every ``functools`` LRU of the rules, i18n, engine and cogs modules
wrapped to record the keys it is asked, then replays each cache's keys through an LRU of each bound: hits, and the
entries held at the end.

Run: ``nice -n 10 python -m tools.cache_sizing [--moves 11000] [--games a+b]``."""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.bench import bench_memory as bm
from tests.bench.mem_probe import project_caches
from tools.mem_by_game import main_process_side
from tools.text_tile_reuse import lru_hits

BOUNDS = (64, 128, 256, 512, 1024, 2048, 4096, 8192)
PREFIXES = ("rules", "i18n", "engine", "cogs", "league")


def record_keys() -> dict[str, list[int]]:
    """Wrap every bounded ``functools`` cache of the loaded project modules, in every module that holds it, so
    that each call records its key's hash before the cache answers it."""
    import cogs.floating_floors  # the menu's previews: loaded before wrapping
    import cogs.utils.posting  # noqa: F401

    keys: dict[str, list[int]] = collections.defaultdict(list)
    wrapped: dict[int, Any] = {}
    found = list(project_caches(PREFIXES))
    for name, attr, obj in found:
        if obj.cache_info().maxsize is None or id(obj) in wrapped:
            continue
        seen = keys[f"{name}.{attr}"]

        def logged(*args: Any, _cached: Any = obj, _seen: list[int] = seen, **kwargs: Any) -> Any:
            _seen.append(hash(functools._make_key(args, kwargs, False)))
            return _cached(*args, **kwargs)

        wrapped[id(obj)] = logged
    for name, attr, obj in found:  # in every module that holds it: `from x import f` copies too
        if id(obj) in wrapped:
            setattr(sys.modules[name], attr, wrapped[id(obj)])
    return keys


async def play(games: str, moves: int, tables: int) -> None:
    chooser = main_process_side()
    counts = bm.Soak()
    with tempfile.TemporaryDirectory(prefix="floorboard-sizing-") as name:
        store = await bm.open_store(Path(name) / "soak.sqlite3")
        tables_ = bm.SoakTables(bm.Engine(store), tables, tuple(games.split("+")))
        try:
            for n in range(moves):
                await tables_.step(n, counts)
        finally:
            await store.close()
            chooser.shutdown()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.cache_sizing", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", default="+".join(bm.MIX))
    p.add_argument("--moves", type=int, default=11_000)
    p.add_argument("--tables", type=int, default=bm.SOAK_TABLES)
    args = p.parse_args(argv)
    keys = record_keys()
    asyncio.run(play(args.games, args.moves, args.tables))
    print(f"| cache | asks | distinct | {' | '.join(f'hits at {b:,}' for b in BOUNDS)} |")
    for name, stream in sorted(keys.items(), key=lambda kv: -len(set(kv[1]))):
        if len(stream) < 100:
            continue
        distinct = len(set(stream))
        cells = [f"{lru_hits(stream, bound) / len(stream):.1%} ({min(bound, distinct):,})"  # an LRU holds this many
                 for bound in BOUNDS]
        print(f"| {name} | {len(stream):,} | {distinct:,} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
