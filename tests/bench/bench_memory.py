"""Memory (issue 25): the bot's resident size with many active games loaded, and a soak of moves for growth.

Both rows are measured in a fresh child process (``sys.executable -m tests.bench.bench_memory --child ...``), so the
figures are the bot's, not the parent's or pytest's. RSS is ``VmRSS`` from ``/proc/self/status`` (no dependency).

- *load*: ``games`` active games of the five games (player counts 2 and 3 in turn) are created through the `Engine`
  on a real SQLite file (WAL) as players make them (lobby, join, start), each with a few opening moves through
  ``engine.act`` (chosen by the rules' bots on the pure rules, once per seed), then marked posted as the cogs mark
  a game after its board (else the start would load every game to post what a crash left unposted). A fresh child
  then starts the real bot (`Floorboard.setup_hook` through the offline Discord harness, no gateway): that is how
  the bot loads games at start. The Floor's ``cog_load`` asks the engine for The Floor's running games (its
  clocks), which the store lists by game, so only they are parsed and cached in the table book (where a game stays
  until it ends). Reported: RSS with the bot and every cog imported (before), after the start, per game, how
  many games the book holds, and the cost of one full cyclic-GC pass with them resident, before and after
  ``gc.freeze()`` (the bot does not call it: perf-baselines.md's advice).
- *soak*: ``moves`` moves by bots over ``tables`` concurrent tables of the five games through ``engine.act``, each
  chosen in a render worker (as the bot's own bot seats choose theirs, `engine.bots`, and as players choose theirs
  outside the bot) and followed by the image the cogs post for it (`cogs.utils.posting.render_view` through
  `render.registry`; Floor Plan's round summary and Floating World's map from their cogs), drawn in the render
  worker processes as the cogs draw it (``--workers 0``: threads of the measured process for both); a game that
  ends is replaced by a new one in its channel (new seed, new players). After ``warmup`` moves, RSS is sampled every
  ``every`` moves (after a full GC pass, so what is sampled is what stays reachable): first, last, max and the
  least-squares slope per 1,000 moves. ``--trace`` also diffs tracemalloc snapshots and the GC's object counts by
  type between a late sample (half-way, the caches mostly filled) and the end, and prints what grew most.

Run: ``python -m tests.bench memory`` or
``python -m tests.bench.bench_memory [--games 5000] [--moves 10000] [--db PATH (kept, reused)] [--trace]
[--rows load|soak]``. The soak also lists every filled ``functools`` cache (hits, misses, held, bound)."""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import gc
import importlib
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import Engine, SeatInfo, Table
from rules import GAMES
from rules.base import RulesError
from rules.floor_plan.bot import choose_baseline
from storage import open_store
from tests.bench.mem_probe import (
    CacheRow,
    cache_infos,
    clear_caches,
    malloc_trim,
    probe,
    pymalloc_stats,
    rss_by_mapping,
    rss_kb,
)

MIX = ("flying_blades", "floor_plan", "the_floor", "floating_world", "floating_floors")
SEATS = (2, 3)  # game i has SEATS[(i // len(MIX)) % 2] players
OPENING = {"flying_blades": 6, "floor_plan": 2, "the_floor": 8, "floating_world": 8, "floating_floors": 2}
SEEDS = 40  # distinct deals per (game, players) in the load; their openings are worked out once
GAMES_LOADED, SOAK_MOVES, WARMUP, EVERY, SOAK_TABLES = 5000, 10_000, 1000, 1000, 25
SOAK_WORKERS = 2  # render worker processes: the running bot's default on a 2-core machine (`config`)
LOCALES = ("en", "pl")
KB = 1024


def choose(game: str, state: Any, seat: int) -> str:
    """A bot's move. Floor Plan's baseline bot, not its planner: the planner's 30-180 ms per decision would make
    the setup and the soak minutes longer, and which legal move is made does not matter to memory."""
    rules = GAMES[game]
    if game == "floor_plan":
        return choose_baseline(rules, state, seat)  # type: ignore[arg-type]
    return rules.bot_action(state, seat)


def _players(index: int) -> int:
    return SEATS[(index // len(MIX)) % len(SEATS)]


@functools.cache
def opening(game: str, players: int, seed: str, moves: int) -> tuple[tuple[int, str], ...]:
    """The first ``moves`` (seat, action) of a bot game on the pure rules (shorter if it ends)."""
    rules = GAMES[game]
    options = rules.normalize_options(players, dict(getattr(rules, "new_game_options", {})))
    state, out = rules.new(players, options, seed), []
    for _ in range(moves):
        movers = sorted(rules.to_move(state))
        if not movers:
            break
        action = choose(game, state, movers[0])
        state, _ = rules.apply(state, movers[0], action)
        out.append((movers[0], action))
    return tuple(out)


async def new_table(engine: Engine, game: str, players: int, channel: int, seed: str, first_user: int) -> Table:
    """A game opened the way players open one: a lobby, the others join, the host starts it."""
    host = SeatInfo(first_user, f"Player {first_user}")
    table = await engine.open_lobby(game, guild_id=1, channel_id=channel, host=host, seed=seed)
    for user in range(first_user + 1, first_user + players):
        await engine.join(table.id, SeatInfo(user, f"Player {user}"))
    return await engine.start(table.id, first_user)


async def populate(path: Path, games: int, seeds: int = SEEDS) -> dict[str, int]:
    """``games`` active games with their openings played through ``engine.act``; opening moves per game kind."""
    store = await open_store(path)
    engine = Engine(store)
    made: dict[str, int] = dict.fromkeys(MIX, 0)
    try:
        for i in range(games):
            game, players = MIX[i % len(MIX)], _players(i)
            seed = f"mem/{game}/{players}/{(i // len(MIX)) % seeds}"
            table = await new_table(engine, game, players, 10_000 + i, seed, 1 + players * i)
            for seat, action in opening(game, players, seed, OPENING[game]):
                table = (await engine.act(table.id, table.seats[seat].user_id or 0, action)).table
                made[game] += 1
            # Posted, as the cogs mark a game after each board (`cogs.utils.posting.mark_announced`): otherwise the
            # start would load every game to post the boards a crash left unposted, which is not a running bot's start.
            await engine.set_meta(table.id, announced=table.moves)
    finally:
        await store.close()
    return made


# ----------------------------------------------------------------------------------------------- the children

def _gc_pass_ms(runs: int = 3) -> float:
    """One full collection's CPU time (median): the loop's stall on an idle machine, without other processes'
    share of the cores that wall time would add here."""
    times = []
    for _ in range(runs):
        began = time.process_time()
        gc.collect()
        times.append((time.process_time() - began) * 1000)
    return statistics.median(times)


async def load_child(path: Path) -> dict[str, Any]:
    """Start the real bot on ``path`` (offline Discord harness) and measure what its start-up loads."""
    import pytest  # heavy, lazy: only the child that starts the bot needs the harness and its monkeypatch

    import bot
    from tests.discord_harness import Harness
    for name in bot.EXTENSIONS:  # the cogs' imports count as the bot's size before any game is loaded
        importlib.import_module(name)
    gc.collect()
    before, gc_before = rss_kb(), _gc_pass_ms()
    with pytest.MonkeyPatch.context() as mp:
        harness = Harness(path)
        harness.bot.freeze_gc = True  # as run_bot builds the running bot
        await harness.start(mp)
        frozen = gc.get_freeze_count()  # what the start moved out of the GC's reach
        gc.collect()
        after = rss_kb()
        book = harness.bot.engine.book
        cached = sum(1 for t in book.cache.values() if t.status == "active")
        gc_as_started = _gc_pass_ms()
        gc.unfreeze()
        objects, gc_unfrozen = len(gc.get_objects()), _gc_pass_ms()  # as the start left it before it froze
        for table in list(book.cache.values()):  # each game posted once: its public view stays on the cached Table
            table.view(None)
        gc.collect()
        viewed, viewed_objects, gc_viewed = rss_kb(), len(gc.get_objects()), _gc_pass_ms()
        out = {"before_kb": before, "after_kb": after, "viewed_kb": viewed, "viewed_objects": viewed_objects,
               "cached": cached, "objects": objects, "frozen": frozen, "gc_before_ms": gc_before,
               "gc_ms": gc_unfrozen, "frozen_gc_ms": gc_as_started, "viewed_gc_ms": gc_viewed}
        harness.bot.ws = None  # dpytest's fake gateway has no socket to close
        await harness.bot.close()
    return out


@dataclass
class Soak:
    moves: int = 0
    finished: int = 0
    images: int = 0
    samples: list[tuple[int, int]] = field(default_factory=list)  # (moves, RSS KiB) of the process holding the games
    workers: list[tuple[int, list[tuple[int, int]]]] = field(default_factory=list)  # (moves, [(pid, RSS KiB)])
    grown: list[str] = field(default_factory=list)  # tracemalloc: the lines that grew most
    caches: list[CacheRow] = field(default_factory=list)  # see `cache_infos`
    worker_caches: list[CacheRow] = field(default_factory=list)  # a render worker's, at the end
    # RSS KiB with every cache emptied, after a GC pass and malloc_trim: (main, [workers]) once every table has
    # drawn its first image, and at the end. What grows between the two is held by no cache.
    bare: list[tuple[int, list[int]]] = field(default_factory=list)
    freed: list[tuple[int, int, list[int]]] = field(default_factory=list)  # (moves, main, [workers]): KiB trimmed
    cached: int = 0
    locks: int = 0
    full_gc_ms: list[float] = field(default_factory=list)  # the full collections the interpreter ran by itself


async def image(table: Table, locale: str) -> bytes | None:
    """The picture the cogs post after a move, drawn as they draw it (`render.pool`: in the pool's worker processes
    when one is started, as the running bot does, else in a thread); with Floating Floors' board, the previews of
    its menu, which the cog works out in the bot's process for every board it posts."""
    from cogs.floating_floors import menu_options  # lazy: cogs are heavy (discord.py); the soak child only
    from cogs.floating_world import draw_map
    from cogs.floor_plan.posts import draw_summary
    from cogs.utils.play import legal
    from cogs.utils.posting import last_move, render_view
    if table.state is None:
        return None
    if table.game == "floating_floors" and table.status == "active":  # the board's menu: its previews, as posted
        menu_options(table, legal(table, table.state.current), locale)
    if table.game == "floor_plan":
        return await draw_summary(table, None, locale)
    if table.game == "floating_world":
        return await draw_map(table, None, locale)
    mark = last_move(table)
    return await render_view(table, None, locale, [mark] if mark else None)


class FullPasses:
    """A ``gc.callbacks`` hook: the CPU ms of each full collection the interpreter runs by itself (the samples' own
    ``gc.collect()`` are left out by pausing it)."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self.paused = False
        self._began: float | None = None

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2 or self.paused:
            return
        if phase == "start":
            self._began = time.process_time()
        elif self._began is not None:
            self.ms.append((time.process_time() - self._began) * 1000)
            self._began = None


class SoakTables:
    """``tables`` running games in their channels; a game that ends is replaced (new seed, new players)."""

    def __init__(self, engine: Engine, tables: int, mix: tuple[str, ...] = MIX) -> None:
        self.engine, self.tables, self.mix = engine, tables, mix
        self.users, self.seeds = itertools.count(1), itertools.count()
        self.live: list[Table] = []

    async def fresh(self, slot: int) -> Table:
        game, players = self.mix[slot % len(self.mix)], SEATS[next(self.seeds) % len(SEATS)]
        first = next(self.users)
        for _ in range(players - 1):
            next(self.users)
        return await new_table(self.engine, game, players, 20_000 + slot, f"soak/{slot}/{next(self.seeds)}", first)

    async def step(self, n: int, soak: Soak) -> None:
        """Move ``n``: a bot move at the next table through ``engine.act``, then the image the cog posts."""
        if not self.live:
            self.live = [await self.fresh(slot) for slot in range(self.tables)]
        slot = n % self.tables
        table = self.live[slot]
        seat = min(table.to_move())
        # Chosen where the bot's own bot seats think (`engine.bots`: a render worker), as a player's move is chosen
        # outside the bot: the process measured only applies it, saves it and sends its image to be drawn.
        from render import pool as render_pool  # lazy: the soak child only
        action = await render_pool.draw(choose, table.game, table.state, seat)
        try:
            table = (await self.engine.act(table.id, table.seats[seat].user_id or 0, action)).table
        except RulesError:  # a bot move the table refuses (none expected): the slot starts again
            table = await self.engine.abort(table.id, table.host_id)
        soak.images += await image(table, LOCALES[slot % 2]) is not None
        if table.status != "active":
            soak.finished += 1
            table = await self.fresh(slot)
        self.live[slot] = table


Probed = dict[int, tuple[int, int, list[CacheRow]]]  # worker pid: RSS KiB untrimmed, RSS KiB, its caches


async def probe_workers(trim: bool, clear: bool = False) -> Probed:
    """Every render worker's RSS and caches (`mem_probe.probe`, after its own GC pass, and ``malloc_trim`` with
    ``trim``): probes go out two per worker until each worker has answered one."""
    from render import pool as render_pool  # lazy: the soak child only
    pool, seen = render_pool.current(), {}
    for _ in range(8):
        probes = [pool.draw(probe, trim, clear=clear) for _ in range(2 * pool.workers)]
        for pid, untrimmed, kb, caches in await asyncio.gather(*probes):
            seen[pid] = (untrimmed, kb, caches)
        if set(seen) >= set(pool.worker_pids()):
            break
    return {pid: seen[pid] for pid in pool.worker_pids() if pid in seen}


def fill_line(caches: list[CacheRow]) -> str:
    """The bounded caches' fill, ``held/bound`` (``*`` at the bound): a cache still filling is not a leak."""
    return ", ".join(f"{name.rsplit('.', 1)[-1]} {held}/{bound}{'*' if held >= bound else ''}"
                     for name, _, _, held, bound in caches if bound)


async def bare_rss(workers: int) -> tuple[int, list[int]]:
    """RSS KiB of the main process and of each worker with every cache emptied, after GC and ``malloc_trim``."""
    clear_caches()
    gc.collect()
    malloc_trim()
    probed = await probe_workers(True, clear=True) if workers else {}
    return rss_kb(), [kb for _, (_, kb, _) in sorted(probed.items())]


def _sample(soak: Soak, done: int, trim: bool, workers: Probed) -> None:
    gc.collect()
    untrimmed = rss_kb()
    if trim:
        malloc_trim()
    soak.samples.append((done, rss_kb()))
    soak.workers.append((done, [(pid, kb) for pid, (_, kb, _) in sorted(workers.items())]))
    soak.freed.append((done, untrimmed - rss_kb(), [u - kb for _, (u, kb, _) in sorted(workers.items())]))
    rows = [f"moves {done}: main {rss_kb() / KB:.1f} MB, workers "
            + " ".join(f"{kb / KB:.1f}" for _, (_, kb, _) in sorted(workers.items()))
            + f"; malloc_trim freed {soak.freed[-1][1:]} KiB",
            f"  main RSS by mapping KiB: {rss_by_mapping()}",
            f"  main caches: {fill_line(cache_infos())}"]
    rows += [f"  worker caches: {fill_line(caches)}" for _, _, caches in list(workers.values())[:1]]
    print("\n".join(rows), file=sys.stderr, flush=True)


async def soak_child(moves: int, warmup: int, every: int, tables: int, trace: bool, workers: int = 0,
                     trim: bool = False, mix: tuple[str, ...] = MIX, stats: Path | None = None) -> Soak:
    """Bots play ``warmup + moves`` moves over ``tables`` tables with their images; RSS sampled every ``every``.
    ``workers`` render worker processes draw the images as in the running bot (0: threads in this process);
    ``trim``: ``malloc_trim(0)`` at each sample, in this process and in each worker. ``mix``: the games played
    (one alone bisects the growth by game). ``stats``: pymalloc's ``sys._debugmallocstats()`` at a late sample and
    at the end, to ``stats``.half and ``stats``.end."""
    from bot import limit_malloc_arenas
    from render import pool as render_pool  # lazy: the soak child only
    limit_malloc_arenas()  # as `run_bot` does before its first thread
    soak, passes = Soak(), FullPasses()
    render_pool.start(workers, preload=("league.pairing", "cogs.floating_floors"))  # as `Floorboard.setup_hook`
    with tempfile.TemporaryDirectory(prefix="floorboard-mem-") as tmp:
        store = await open_store(Path(tmp) / "soak.sqlite3")
        engine = Engine(store, offload=render_pool.draw)  # as `Floorboard.setup_hook`
        play = SoakTables(engine, tables, mix)
        try:
            for n in range(warmup):
                await play.step(n, soak)
                if n + 1 == min(tables, warmup):
                    soak.bare.append(await bare_rss(workers))
                    print(f"bare after {n + 1} moves: {soak.bare[-1]}", file=sys.stderr, flush=True)
            if trace:
                tracemalloc.start(8)
                late_from = moves // 2 // every * every  # a late sample: the caches mostly filled by then
            gc.callbacks.append(passes)
            for done in range(moves + 1):
                if done % every == 0:
                    passes.paused = True
                    probed = await probe_workers(trim) if workers else {}
                    _sample(soak, done, trim, probed)
                    passes.paused = False
                    if trace and done == late_from:
                        late = (tracemalloc.take_snapshot(), object_counts())
                    if stats and done in (moves // 2 // every * every, moves):
                        summary = pymalloc_stats(stats.with_suffix(".half" if done < moves else ".end"))
                        print(f"pymalloc at {done}: {summary}", file=sys.stderr, flush=True)
                if done < moves:
                    await play.step(warmup + done, soak)
            gc.callbacks.remove(passes)
            soak.moves, soak.full_gc_ms = moves, passes.ms
            soak.cached, soak.locks = len(engine.book.cache), len(engine.book.locks)
            soak.caches = cache_infos()
            soak.worker_caches = next(iter(probed.values()), (0, 0, []))[2] if workers else []
            soak.bare.append(await bare_rss(workers))
            print(f"bare at the end: {soak.bare[-1]}", file=sys.stderr, flush=True)
            if trace:
                soak.grown = traced_growth(*late)
                tracemalloc.stop()
        finally:
            await store.close()
            render_pool.stop()
    return soak


def object_counts() -> collections.Counter[str]:
    """How many objects of each type the GC tracks (after a full pass)."""
    gc.collect()
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


def traced_growth(snapshot: tracemalloc.Snapshot, counts: collections.Counter[str], top: int = 15) -> list[str]:
    """What grew from a late sample to the end: tracemalloc's lines by size and by count, and the GC's types."""
    gc.collect()
    diff = tracemalloc.take_snapshot().compare_to(snapshot, "lineno")
    by_count = sorted(diff, key=lambda d: -d.count_diff)
    types = object_counts()
    types.subtract(counts)
    return (["by size:", *map(str, diff[:top]), "by count:", *map(str, by_count[:top]), "GC-tracked types:"]
            + [f"{name} {n:+,} ({types[name] + counts[name]:,})" for name, n in types.most_common(top)])


def slope_kb(samples: list[tuple[int, int]]) -> float:
    """Least-squares growth of RSS in KiB per 1,000 moves."""
    if len(samples) < 2:
        return 0.0
    xs, ys = [m / 1000 for m, _ in samples], [float(kb) for _, kb in samples]
    return statistics.linear_regression(xs, ys).slope


# ------------------------------------------------------------------------------------------------- the parent

def _child(*args: str) -> dict[str, Any]:
    """Run this module as a child with ``args``; its last stdout line is the JSON result."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "tests.bench.bench_memory", "--child", *args], cwd=root,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"memory child {args[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_load(games: int, db: Path | None = None) -> dict[str, Any]:
    """Populate a database with ``games`` active games (or reuse ``db`` when it exists) and load it in a child."""
    with tempfile.TemporaryDirectory(prefix="floorboard-mem-") as tmp:
        path = db or Path(tmp) / "load.sqlite3"
        made: dict[str, int] | None = None
        if not path.exists():
            made = _child("populate", "--db", str(path), "--games", str(games))
        out = _child("load", "--db", str(path))
        out["games"], out["opening_moves"] = games, made
        return out


def measure_soak(moves: int, warmup: int = WARMUP, every: int = EVERY, tables: int = SOAK_TABLES,
                 trace: bool = False, workers: int = SOAK_WORKERS, trim: bool = False, only: str = "",
                 stats: Path | None = None) -> dict[str, Any]:
    args = ["soak", "--moves", str(moves), "--warmup", str(warmup), "--every", str(every), "--tables", str(tables),
            "--workers", str(workers), "--only", only, *(["--stats", str(stats)] if stats else [])]
    return _child(*args, *(["--trace"] if trace else []), *(["--trim"] if trim else []))


def _mb(kb: float) -> str:
    return f"{kb / KB:.1f}"


def load_markdown(load: dict[str, Any]) -> list[str]:
    per_game = (load["after_kb"] - load["before_kb"]) / max(1, load["cached"])
    return [
        f"| active games in the database / held by the engine after the start | {load['games']:,} / "
        f"{load['cached']:,} |",
        f"| RSS before loading (bot and cogs imported) MB | {_mb(load['before_kb'])} |",
        f"| RSS after the start MB | {_mb(load['after_kb'])} |",
        f"| per active game KB | {per_game:.1f} |",
        f"| objects tracked by the GC after the start | {load['objects']:,} |",
        f"| RSS once every game's public view is computed (a post keeps it on the cached table) MB; per game KB | "
        f"{_mb(load['viewed_kb'])}; {(load['viewed_kb'] - load['before_kb']) / max(1, load['cached']):.1f} |",
        f"| one full GC pass, CPU ms (median of 3): before loading / after the start / with every view computed | "
        f"{load['gc_before_ms']:.0f} / {load['gc_ms']:.0f} / {load['viewed_gc_ms']:.0f} |",
        f"| objects the start moves out of the GC's reach (gc.freeze); a full pass then, CPU ms | "
        f"{load['frozen']:,}; {load['frozen_gc_ms']:.1f} |",
    ]


def rss_rows(who: str, samples: list[tuple[int, int]], every: int) -> list[str]:
    """RSS first / last / max, each step, and the least-squares slope over all samples and the last 6."""
    kbs = [kb for _, kb in samples]
    steps = ", ".join(f"{(b - a) / KB:+.1f}" for a, b in itertools.pairwise(kbs))
    return [
        f"| soak, {who}: RSS first / last / max MB | {_mb(kbs[0])} / {_mb(kbs[-1])} / {_mb(max(kbs))} |",
        f"| soak, {who}: RSS per {every:,} moves, MB (each step) | {steps} |",
        f"| soak, {who}: RSS slope KB per 1,000 moves, all {len(kbs)} samples / the last 6 | "
        f"{slope_kb(samples):+.0f} / {slope_kb(samples[-6:]):+.0f} |",
    ]


def worker_series(soak: dict[str, Any]) -> list[list[tuple[int, int]]]:
    """Each render worker's (moves, RSS KiB) samples, by its place among the live workers at each sample."""
    slots = max((len(ws) for _, ws in soak.get("workers", [])), default=0)
    return [[(done, ws[i][1]) for done, ws in soak["workers"] if i < len(ws)] for i in range(slots)]


def soak_markdown(soak: dict[str, Any]) -> list[str]:
    full, workers = soak["full_gc_ms"], worker_series(soak)
    where = f"{len(workers)} render worker processes" if workers else "threads in the main process"
    lines = [
        f"| soak: moves after a {soak['warmup']:,}-move warm-up (games ended, images drawn in {where}) | "
        f"{soak['moves']:,} ({soak['finished']}, {soak['images']:,}) |",
        *rss_rows("main process", soak["samples"], soak["every"]),
    ]
    for i, series in enumerate(workers):
        lines += rss_rows(f"render worker {i + 1}", series, soak["every"])
    if len(soak.get("bare", [])) == 2:
        (main0, work0), (main1, work1) = soak["bare"]
        lines.append(f"| soak: RSS with every cache emptied (GC, malloc_trim) MB, once every table drew → the end: "
                     f"main / workers | {_mb(main0)} → {_mb(main1)} / "
                     + ", ".join(f"{_mb(a)} → {_mb(b)}" for a, b in zip(work0, work1, strict=False)) + " |")
    if soak.get("trim") and soak.get("freed"):
        main_freed = statistics.median(kb for _, kb, _ in soak["freed"])
        worker_freed = [kb for _, _, kbs in soak["freed"] for kb in kbs]
        lines.append(f"| soak: malloc_trim(0) at each sample freed, median MB: main / a worker | {_mb(main_freed)} / "
                     f"{_mb(statistics.median(worker_freed)) if worker_freed else '-'} |")
    lines += [
        f"| soak: full GC passes the interpreter ran by itself (longest, CPU ms) | {len(full)} "
        f"({max(full, default=0):.0f}) |",
        f"| soak: tables held by the engine / locks at the end ({soak['tables']} running) | {soak['cached']} / "
        f"{soak['locks']} |",
    ]
    for who, key in (("main", "caches"), ("worker", "worker_caches")):
        lines += [f"| soak: {who} cache {name}: hits / misses / held / bound | {hits:,} / {misses:,} / {held:,} / "
                  f"{bound} |" for name, hits, misses, held, bound in soak.get(key, [])[:20]]
    return lines


def markdown(load: dict[str, Any] | None, soak: dict[str, Any] | None) -> str:
    lines = ["| row | figure |", "|---|---|"]
    lines += load_markdown(load) if load else []
    lines += soak_markdown(soak) if soak else []
    return "\n".join(lines)


def report(games: int = GAMES_LOADED, moves: int = SOAK_MOVES, warmup: int = WARMUP, every: int = EVERY,
           tables: int = SOAK_TABLES, db: Path | None = None, trace: bool = False,
           rows: tuple[str, ...] = ("load", "soak"), workers: int = SOAK_WORKERS, trim: bool = False,
           only: str = "", stats: Path | None = None) -> str:
    load = measure_load(games, db) if "load" in rows else None
    soak = measure_soak(moves, warmup, every, tables, trace, workers, trim, only, stats) if "soak" in rows else None
    text = markdown(load, soak)
    if soak and soak.get("grown"):
        text += "\n\ntracemalloc and GC types, a late sample (half-way) → the end:\n" + "\n".join(soak["grown"])
    return text


def _run_child(args: argparse.Namespace) -> dict[str, Any]:
    if args.child == "populate":
        return asyncio.run(populate(Path(args.db), args.games))
    if args.child == "load":
        return asyncio.run(load_child(Path(args.db)))
    mix = tuple(args.only.split(",")) if args.only else MIX
    soak = asyncio.run(soak_child(args.moves, args.warmup, args.every, args.tables, args.trace, args.workers,
                                  args.trim, mix, args.stats))
    return {"moves": soak.moves, "warmup": args.warmup, "finished": soak.finished, "images": soak.images,
            "samples": soak.samples, "workers": soak.workers, "grown": soak.grown, "caches": soak.caches,
            "worker_caches": soak.worker_caches, "bare": soak.bare, "freed": soak.freed, "cached": soak.cached,
            "locks": soak.locks, "full_gc_ms": soak.full_gc_ms, "tables": args.tables, "every": args.every,
            "trim": args.trim}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.bench_memory", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--child", choices=("populate", "load", "soak"), help=argparse.SUPPRESS)
    p.add_argument("--games", type=int, default=GAMES_LOADED)
    p.add_argument("--moves", type=int, default=SOAK_MOVES)
    p.add_argument("--warmup", type=int, default=WARMUP)
    p.add_argument("--every", type=int, default=EVERY)
    p.add_argument("--tables", type=int, default=SOAK_TABLES)
    p.add_argument("--db", type=Path, help="the load's database: populated when absent, kept and reused")
    p.add_argument("--trace", action="store_true", help="diff tracemalloc snapshots over the soak")
    p.add_argument("--rows", default="load,soak", help="the rows to measure: load, soak or both (default)")
    p.add_argument("--workers", type=int, default=SOAK_WORKERS,
                   help="render worker processes in the soak, as the bot's RENDER_WORKERS (0: threads)")
    p.add_argument("--trim", action="store_true", help="malloc_trim(0) at each sample, in every process")
    p.add_argument("--only", default="", help="the soak's games, comma-separated (default: all five)")
    p.add_argument("--stats", type=Path, help="pymalloc's stats at a late sample and the end: STATS.half, .end")
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(_run_child(args)))
        return 0
    print(report(args.games, args.moves, args.warmup, args.every, args.tables, args.db, args.trace,
                 tuple(args.rows.split(",")), args.workers, args.trim, args.only, args.stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
