"""Bisect the memory soak's main-process growth by game (issue 25): each game soaked alone in a fresh child.

The main process of the bot draws nothing (its images are drawn in render worker processes), so each child plays
the soak of `tests.bench.bench_memory` (the same tables, bots, ``engine.act`` on SQLite, the image calls of the
cogs) with ``render.pool.draw`` replaced by the main process's own side of a draw: the arguments are pickled, as
they are sent to a worker, and nothing is drawn; the moves are chosen in a worker process, as the soak's are.
At each sample, after a full GC pass: RSS, pymalloc's arenas and the bytes in its used blocks
(``sys._debugmallocstats``), the GC's object count and the entries the caches hold.
At the start (once every table moved) and at the end, the same with every cache emptied (the ``functools``
caches, The Floor's answer index) and ``malloc_trim``: what grows between those two is held by no cache.

Run: ``nice -n 10 python -m tools.mem_by_game [--games a,b] [--moves 3000] [--warmup 500] [--every 500]``; a
``+`` joins games into one soak (``--games flying_blades+floor_plan+the_floor+floating_world+floating_floors``:
the bench's mix)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.tables import VIEWS
from tests.bench import bench_memory as bm
from tests.bench.mem_probe import (
    cache_infos,
    clear_caches,
    malloc_trim,
    pymalloc_stats,
    rss_by_mapping,
    rss_kb,
    sqlite_memory_kb,
)


def sample(tmp: Path, done: int) -> dict[str, Any]:
    gc.collect()
    stats = pymalloc_stats(tmp / "stats.txt")
    maps = rss_by_mapping()
    return {"moves": done, "rss": rss_kb(), "anon": maps["anon"], "heap": maps["heap"], "files": maps["files"],
            "used": stats["used"] // 1024, "sqlite": sqlite_memory_kb(),
            "arenas": stats["arenas"] // 1024, "objects": len(gc.get_objects()),
            "cached": sum(row[3] for row in cache_infos()), "views": len(VIEWS.entries)}


def bare(tmp: Path, done: int) -> dict[str, Any]:
    clear_caches()  # the functools caches, the engine's views, The Floor's answer indexes
    gc.collect()
    malloc_trim()
    return sample(tmp, done)


def main_process_side() -> Any:
    """Make ``render.pool.draw`` the bot's main process's side of a draw: the arguments pickled as they are sent
    to a worker, nothing drawn; the soak's moves chosen in a worker. Returns the choosing pool (shut it down)."""
    from render import pool as render_pool  # lazy: after the argument parsing, the child only

    chooser = render_pool.RenderPool(1)  # the soak's moves are chosen in a worker, as the bench's soak does

    async def sent(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if fn is bm.choose:
            return await chooser.draw(fn, *args, **kwargs)
        pickle.dumps((fn, args, kwargs))  # what the main process does for a draw in a worker
        return b""

    render_pool.draw = sent  # the cogs' modules call `render_pool.draw` through the module
    return chooser


async def soak(game: str, moves: int, warmup: int, every: int, tables: int) -> dict[str, Any]:
    from bot import limit_malloc_arenas

    limit_malloc_arenas()  # as `run_bot` does before its first thread
    chooser = main_process_side()
    out: dict[str, Any] = {"game": game, "samples": [], "bare": []}
    counts = bm.Soak()
    with tempfile.TemporaryDirectory(prefix="floorboard-mem-") as name:
        tmp = Path(name)
        store = await bm.open_store(tmp / "soak.sqlite3")
        play = bm.SoakTables(bm.Engine(store), tables, tuple(game.split("+")))  # a+b: those games together
        try:
            for n in range(warmup):
                await play.step(n, counts)
                if n + 1 == min(tables, warmup):
                    out["bare"].append(bare(tmp, -warmup + n + 1))
            for done in range(moves + 1):
                if done % every == 0:
                    out["samples"].append(sample(tmp, done))
                    print(game, out["samples"][-1], file=sys.stderr, flush=True)
                if done < moves:
                    await play.step(warmup + done, counts)
            out["caches"] = [row for row in cache_infos() if row[3] >= 64][:12]
            out["bare"].append(bare(tmp, moves))
            out["finished"] = counts.finished
        finally:
            await store.close()
            chooser.shutdown()
    return out


def slope(samples: list[dict[str, Any]], key: str) -> float:
    return bm.slope_kb([(s["moves"], s[key]) for s in samples])


def row(r: dict[str, Any]) -> str:
    s, (b0, b1) = r["samples"], r["bare"]
    mb = bm._mb
    return (f"| {r['game']} | {r['finished']} | {mb(s[0]['rss'])} → {mb(s[-1]['rss'])} | {slope(s, 'rss'):+,.0f} / "
            f"{bm.slope_kb([(x['moves'], x['rss']) for x in s[-4:]]):+,.0f} | {slope(s, 'used'):+,.0f} | "
            f"{slope(s, 'anon'):+,.0f} | {s[0]['objects']:,} → {s[-1]['objects']:,} | "
            f"{s[0]['cached']:,} → {s[-1]['cached']:,} | {mb(b0['rss'])} → {mb(b1['rss'])} | "
            f"{mb(b0['used'])} → {mb(b1['used'])} | {mb(b0['arenas'])} → {mb(b1['arenas'])} |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.mem_by_game", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", default=",".join(bm.MIX))
    p.add_argument("--moves", type=int, default=3000)
    p.add_argument("--warmup", type=int, default=500)
    p.add_argument("--every", type=int, default=500)
    p.add_argument("--tables", type=int, default=bm.SOAK_TABLES)
    p.add_argument("--views", type=int, default=VIEWS.size, help="the engine's view cache bound (experiments)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        VIEWS.size = args.views
        print(json.dumps(asyncio.run(soak(args.games, args.moves, args.warmup, args.every, args.tables))))
        return 0
    rows = []
    for game in args.games.split(","):
        done = subprocess.run([sys.executable, "-m", "tools.mem_by_game", "--child", "--games", game, "--moves",
                               str(args.moves), "--warmup", str(args.warmup), "--every", str(args.every),
                               "--tables", str(args.tables), "--views", str(args.views)],
                              stdout=subprocess.PIPE, text=True, check=True, cwd=Path(__file__).resolve().parents[1])
        result = json.loads(done.stdout.strip().splitlines()[-1])
        rows.append(row(result))
        print(rows[-1], flush=True)
        print("  caches (held ≥ 64):", ", ".join(f"{n.rsplit('.', 1)[-1]} {h}/{b}" for n, _, _, h, b in
                                                 result["caches"]), flush=True)
    print("| game | games ended | RSS first → last MB | RSS slope KB/1,000 moves (all / last 4) | pymalloc used "
          "slope | anon maps slope | GC objects | cache entries | bare RSS MB | bare pymalloc used MB | "
          "bare pymalloc arenas MB |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
