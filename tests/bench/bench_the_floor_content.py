"""The Floor with a server's content at its limits: what ``Engine.act`` costs when a game carries it.

A server may add 50 categories of 300 answers per language and 300 accepted answers to every category (built-in
or its own); the game gets all of it as its ``content`` option (the state keeps it as ``custom``), so a game's
row can reach megabytes. Cases, each on a fresh SQLite file (WAL) through one `Engine`, 2 sides:

- *no server content*: the built-in categories only (the baseline);
- *maxed server content*: 50 × 300 answers of its own and 300 added answers for each of the 192 categories.

Per case: ``engine.act`` over the first ``moves`` actions of a bot-played game (median, p95), the stored size of
the game's row (options + state + meta columns) and of the ``shared_content`` table where there is one, and a cold
load (a new `Engine` on the same file: ``engine.get``) of the game.

Run: ``python -m tests.bench.bench_the_floor_content [--moves 60] [--loads 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import Engine, SeatInfo
from rules.the_floor import TheFloor
from rules.the_floor import content as builtin
from storage import SqliteStore as Store

GAME = "the_floor"
G = TheFloor()
CATEGORIES, ANSWERS = 50, 300  # cogs.utils.the_floor_content: MAX_CATEGORIES, MAX_ANSWERS
WORDS = ("amber", "birch", "cobalt", "dune", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kestrel",
         "lagoon", "meadow", "nectar", "orchid", "pebble", "quartz", "raven", "saffron", "thistle", "umber",
         "velvet", "willow", "yarrow", "zephyr")


def _answer(n: int, tag: str) -> str:
    """A distinct answer of about 40 characters: three words spelling ``n`` in base 25, and a tag."""
    a, b, c = n // 625 % 25, n // 25 % 25, n % 25
    return f"{WORDS[a].title()} {WORDS[b]} {WORDS[c]} of the {tag} list"


def maxed_content(lang: str = "en") -> dict[str, Any]:
    """The largest content a server can give a game in one language (as ``server_content`` builds it)."""
    cats = [{"id": f"server_{i + 1}", "name": f"Server category {i + 1}", "flags": [],
             "answers": [_answer(k, f"c{i}") for k in range(ANSWERS)]} for i in range(CATEGORIES)]
    ids = [c["id"] for c in builtin.categories(lang)] + [c["id"] for c in cats]
    added = {cid: [_answer(k, f"a{j}") for k in range(ANSWERS)] for j, cid in enumerate(ids)}
    return {"categories": cats, "answers": added}


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


async def _play(engine: Engine, options: dict[str, Any], moves: int) -> tuple[int, list[float]]:
    """A 2-player game with ``options``; the act ms of its first ``moves`` bot-chosen actions."""
    table = await engine.open_lobby(GAME, guild_id=1, channel_id=1, host=SeatInfo(1, "Ann"), options=options,
                                    seed="content-bench")
    await engine.join(table.id, SeatInfo(2, "Bo"))
    table = await engine.start(table.id, 1)
    times = []
    for _ in range(moves):
        movers = table.to_move()
        if not movers:
            break
        seat = min(movers)
        action = G.bot_action(table.state, seat)
        start = time.perf_counter()
        table = (await engine.act(table.id, seat + 1, action)).table
        times.append((time.perf_counter() - start) * 1000)
    return table.id, times


def _sizes(db: Path, table_id: int) -> tuple[int, int]:
    """Bytes of the game's options + state + meta columns, and of everything in ``shared_content`` (if any)."""
    with sqlite3.connect(db) as con:
        (row,) = con.execute("SELECT length(CAST(options AS BLOB)) + length(CAST(state AS BLOB))"
                             " + length(CAST(meta AS BLOB)) FROM games WHERE id = ?", (table_id,)).fetchall()
        has = con.execute("SELECT 1 FROM sqlite_master WHERE name = 'shared_content'").fetchall()
        shared = con.execute("SELECT COALESCE(SUM(length(CAST(data AS BLOB))), 0) FROM shared_content"
                             ).fetchone()[0] if has else 0
    return row[0], shared


async def _cold_loads(db: Path, table_id: int, n: int) -> list[float]:
    times = []
    for _ in range(n):
        store = await Store.open(db)
        try:
            start = time.perf_counter()
            await Engine(store).get(table_id)
            times.append((time.perf_counter() - start) * 1000)
        finally:
            await store.close()
    return times


async def case(options: dict[str, Any], moves: int, loads: int, db: Path) -> tuple[list[float], int, int, list[float]]:
    store = await Store.open(db)
    try:
        table_id, acts = await _play(Engine(store), options, moves)
    finally:
        await store.close()
    row, shared = _sizes(db, table_id)
    return acts, row, shared, await _cold_loads(db, table_id, loads)


def report(moves: int = 60, loads: int = 5) -> str:
    content = maxed_content()
    cases = (("no server content", {"lang": "en"}), ("maxed server content", {"lang": "en", "content": content}))
    lines = ["| case | act p50 ms | act p95 ms | act max ms | row bytes | shared_content bytes | cold load p50 ms |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, options) in enumerate(cases):
            acts, row, shared, cold = asyncio.run(case(options, moves, loads, Path(tmp) / f"c{i}.db"))
            lines.append(f"| {label} ({len(acts)} acts) | {statistics.median(acts):.2f} | {_pct(acts, 0.95):.2f} "
                         f"| {max(acts):.2f} | {row:,} | {shared:,} | {statistics.median(cold):.1f} |")
    answers = sum(len(c["answers"]) for c in content["categories"]) + sum(map(len, content["answers"].values()))
    lines.append("")
    lines.append(f"- maxed: {len(content['categories'])} server categories, {len(content['answers'])} categories "
                 f"with added answers, {answers:,} answers in all")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_the_floor_content", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=60, help="timed acts per case (default 60)")
    parser.add_argument("--loads", type=int, default=5, help="cold loads per case (default 5)")
    args = parser.parse_args(argv)
    print(report(args.moves, args.loads))
    return 0


if __name__ == "__main__":
    sys.exit(main())
