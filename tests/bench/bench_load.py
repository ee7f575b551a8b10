"""Load: a burst of moves over many running games, all through one `Engine` on one SQLite connection.

Every running game of a bot process shares one `Store` (one aiosqlite connection and its worker thread, which runs
each write transaction whole), and the cogs call ``engine.act`` *before* they acknowledge the interaction
(``/move`` and the buttons defer after it), so when many moves arrive at once their acts queue on that connection
and Discord's 3-second acknowledgement limit comes within reach. This case measures that queue:

- a real SQLite file store (``Store.open`` on a temp file, WAL) and an `Engine` without its scheduler;
- ``games`` running Night of the 27 Ninja tables (``flying_blades``, 2 and 3 seats alternately, ``cards=none``
  so every move is a plain play, no turn timer), each fed ``moves`` moves by its own sequential chain; the
  chains run concurrently, so ``games`` moves are in flight at once. Each move is chosen (seeded) from
  ``rules.legal_actions`` on the table's current state, never ``pass`` while another move exists, and is
  delivered the way discord.py delivers an interaction: a new task per move, with a fresh ``interaction_id``;
- the same moves as a *burst*: all ``games × moves`` arrive at once (worked out ahead on the pure rules from the
  same choices; a game's moves queue on its engine lock in arrival order, so they stay legal);
- per move: ``engine.act`` latency; the *acknowledgement latency* if the handler deferred first (arrival ->
  the moment a task that first does ``await asyncio.sleep(0)``, standing in for the defer call, gets to run);
  and the acknowledgement as the cogs do it today (arrival -> act done);
- while the load runs, a ticker sleeping 10 ms records the event loop's lag (its overshoot);
- throughput (moves per second of wall time) and how many moves exceeded 3 s.

The floor is one bare ``BEGIN IMMEDIATE; UPDATE; COMMIT`` through aiosqlite on the same file, unloaded (median).
Run: ``python -m tests.bench load`` or ``python -m tests.bench.bench_load [--games 200] [--light 20] [--moves 25]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import math
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from engine import ActResult, Engine, SeatInfo, Table
from rules.base import Game
from storage import SqliteStore as Store

GAME = "flying_blades"
OPTIONS: dict[str, Any] = {"cards": "none"}  # no draft: every move is a plain play; no turn timer (the default)
SEATS = (2, 3)  # game i has SEATS[i % 2] players
HEAVY_GAMES, LIGHT_GAMES, MOVES_PER_GAME = 200, 20, 25
ACK_LIMIT_MS = 3000.0  # Discord: an interaction not acknowledged within 3 s fails
TICK_S = 0.010
FLOOR_RUNS = 200
CHAINED, BURST = "chained", "burst"
# (games, mode) of the default report: a lighter load, the load, and the same moves all arriving at once
LOADS = ((LIGHT_GAMES, CHAINED), (HEAVY_GAMES, CHAINED), (HEAVY_GAMES, BURST))
_INTERACTION_IDS = itertools.count(10**15)  # unique across runs in one process, like Discord's snowflakes


@dataclass
class LoadRun:
    """The samples of one load run, and what it did (for the correctness check)."""

    games: int
    moves: int  # per game
    mode: str = CHAINED  # or BURST
    act_ms: list[float] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)  # deferred first: dispatch + sleep(0)
    today_ms: list[float] = field(default_factory=list)  # acted first, as the cogs do: dispatch + act
    lag_ms: list[float] = field(default_factory=list)
    wall_s: float = 0.0
    made: dict[int, list[tuple[int, str]]] = field(default_factory=dict)  # table id -> (seat, action) applied
    start_version: dict[int, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.act_ms)

    @property
    def throughput(self) -> float:
        return self.total / self.wall_s if self.wall_s else 0.0

    @property
    def in_flight(self) -> int:
        return self.games * self.moves if self.mode == BURST else self.games

    @property
    def label(self) -> str:
        return f"{self.games} games × {self.moves} moves, {self.mode} ({self.in_flight:,} in flight)"


# --------------------------------------------------------------------------------------------- setting up

async def open_table(engine: Engine, index: int, channel: int, options: dict[str, Any] | None = None) -> Table:
    """A started ``flying_blades`` table of 2 or 3 humans (user ids 1..n), ``OPTIONS`` unless told."""
    players = SEATS[index % len(SEATS)]
    table = await engine.open_lobby(GAME, guild_id=1, channel_id=channel, options=dict(options or OPTIONS),
                                    seed=f"load-{index}", host=SeatInfo(1, "Player 1"))
    for user in range(2, players + 1):
        await engine.join(table.id, SeatInfo(user, f"Player {user}"))
    return await engine.start(table.id, 1)


def choose(rules: Game, state: Any, rng: random.Random) -> tuple[int, str]:
    """The seat to move and a legal move for it (not ``pass`` while anything else is legal)."""
    movers = rules.to_move(state)
    if not movers:
        raise RuntimeError("a load game ended early: the load needs longer games")
    seat = min(movers)
    legal = rules.legal_actions(state, seat) or []
    plays = [a for a in legal if a != "pass"] or legal
    return seat, rng.choice(plays)


def plan(table: Table, moves: int, index: int) -> list[tuple[int, str]]:
    """The moves `chain` would choose for this table, worked out ahead on the pure rules (for a burst)."""
    rng, state, out = random.Random(index), table.state, []
    for _ in range(moves):
        seat, action = choose(table.rules, state, rng)
        state, _ = table.rules.apply(state, seat, action)
        out.append((seat, action))
    return out


# ------------------------------------------------------------------------------------------------ the load

async def interaction(engine: Engine, table_id: int, user_id: int, action: str, arrival: float,
                      run: LoadRun) -> ActResult:
    """One move as a handler would take it: the defer point (``sleep(0)``), then ``engine.act``."""
    await asyncio.sleep(0)  # the defer call: the earliest moment the interaction could be acknowledged
    acked = time.perf_counter()
    result = await engine.act(table_id, user_id, action, interaction_id=next(_INTERACTION_IDS))
    done = time.perf_counter()
    run.ack_ms.append((acked - arrival) * 1000)
    run.act_ms.append((done - acked) * 1000)
    run.today_ms.append((done - arrival) * 1000)
    return result


def _user(table: Table, seat: int) -> int:
    return table.seats[seat].user_id or 0


async def chain(engine: Engine, table_id: int, index: int, run: LoadRun) -> None:
    """``run.moves`` moves of one game, one after the other, each chosen on the table's current state; each
    arrives as a new task (as discord.py dispatches an interaction)."""
    rng = random.Random(index)
    for _ in range(run.moves):
        table = await engine.get(table_id)
        seat, action = choose(table.rules, table.state, rng)
        arrival = time.perf_counter()
        result = await asyncio.create_task(interaction(engine, table_id, _user(table, seat), action, arrival, run))
        run.made[table_id].append((result.seat, result.action))


async def burst(engine: Engine, tables: Sequence[Table], indexes: Sequence[int], run: LoadRun) -> None:
    """Every move of every game arrives at once (move 1 of each game, then move 2, ...); a game's moves queue
    on its lock in arrival order, so the planned moves stay legal."""
    plans = [plan(t, run.moves, i) for t, i in zip(tables, indexes, strict=True)]
    arrival = time.perf_counter()
    tasks = [(t.id, asyncio.create_task(interaction(engine, t.id, _user(t, p[k][0]), p[k][1], arrival, run)))
             for k in range(run.moves) for t, p in zip(tables, plans, strict=True)]
    await asyncio.gather(*(task for _, task in tasks))
    for table_id, task in tasks:
        run.made[table_id].append((task.result().seat, task.result().action))


async def ticker(stop: asyncio.Event, lags: list[float]) -> None:
    """The event loop's lag: how late a 10 ms sleep wakes up."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(TICK_S)
        lags.append((time.perf_counter() - start - TICK_S) * 1000)


async def _play(engine: Engine, tables: Sequence[Table], indexes: Sequence[int], run: LoadRun) -> None:
    if run.mode == BURST:
        await burst(engine, tables, indexes, run)
    else:
        await asyncio.gather(*(chain(engine, t.id, i, run) for t, i in zip(tables, indexes, strict=True)))


async def run_load(store: Store, games: int, moves: int, *, mode: str = CHAINED, first_index: int = 0,
                   engine: Engine | None = None, options: dict[str, Any] | None = None) -> LoadRun:
    """Open ``games`` tables (untimed), then play ``moves`` moves on each, all games at once. ``engine`` (on
    ``store``) is for the profiler's instrumented one (by default a fresh `Engine`); ``options`` replace
    ``OPTIONS`` (e.g. a turn timer)."""
    engine = engine or Engine(store)
    run = LoadRun(games, moves, mode)
    indexes = range(first_index, first_index + games)
    tables = [await open_table(engine, i, 10_000 + i, options) for i in indexes]
    run.made = {t.id: [] for t in tables}
    run.start_version = {t.id: t.version for t in tables}
    gc.collect()
    stop = asyncio.Event()
    tick = asyncio.create_task(ticker(stop, run.lag_ms))
    start = time.perf_counter()
    try:
        await _play(engine, tables, indexes, run)
    finally:
        run.wall_s = time.perf_counter() - start
        stop.set()
        await tick
    return run


async def floor_commits(path: Path, n: int = FLOOR_RUNS) -> list[float]:
    """ms of one bare ``BEGIN IMMEDIATE; UPDATE; COMMIT`` through aiosqlite on ``path`` (same pragmas)."""
    db = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA busy_timeout=5000")
        (game_id,) = await (await db.execute("SELECT MIN(id) FROM games")).fetchone()  # type: ignore[misc]
        times = []
        for i in range(n + 5):
            start = time.perf_counter()
            await db.execute("BEGIN IMMEDIATE")
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?",
                             (datetime.now(UTC).isoformat(), game_id))
            await db.execute("COMMIT")
            if i >= 5:  # warm-up
                times.append((time.perf_counter() - start) * 1000)
        return times
    finally:
        await db.close()


# ------------------------------------------------------------------------------------------------- figures

def pct(samples: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (as the harness's p95): q in [0, 1]."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _line(load: str, what: str, samples: Sequence[float], floor: float | None, over: bool) -> str:
    p50, p95, p99, top = (pct(samples, q) for q in (0.5, 0.95, 0.99, 1.0))
    ratios = f"{p50 / floor:.1f} | {p99 / floor:.1f}" if floor else " | "
    late = str(sum(1 for s in samples if s > ACK_LIMIT_MS)) if over else ""
    return f"| {load} | {what} | {p50:.2f} | {p95:.2f} | {p99:.2f} | {top:.2f} | {ratios} | {late} |"


def run_lines(run: LoadRun, floor: float) -> list[str]:
    return [
        _line(run.label, "engine.act", run.act_ms, floor, True),
        _line(run.label, "ack if deferred first (dispatch + sleep(0))", run.ack_ms, floor, True),
        _line(run.label, "ack as today (dispatch + act, then defer)", run.today_ms, floor, True),
        _line(run.label, "event-loop lag (10 ms ticker)", run.lag_ms, None, False),
    ]


def markdown(runs: Sequence[LoadRun], floor: Sequence[float]) -> str:
    base = pct(floor, 0.5)
    lines = [
        "| load | measure | p50 ms | p95 ms | p99 ms | max ms | p50 × floor | p99 × floor | > 3 s |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        lines += run_lines(run, base)
    lines.append(_line("floor", "BEGIN IMMEDIATE; UPDATE; COMMIT (aiosqlite, unloaded)", floor, base, False))
    lines.append("")
    for run in runs:
        lines.append(f"- {run.label}: {run.throughput:,.0f} moves/s ({run.total:,} moves in {run.wall_s:.2f} s)")
    lines.append(f"- game: {GAME}, {'/'.join(map(str, SEATS))} seats alternately, options {OPTIONS}, "
                 "no turn timer; one Store (one aiosqlite connection, WAL + synchronous=NORMAL), one Engine")
    return "\n".join(lines)


async def measure(loads: Sequence[tuple[int, str]], moves: int, db: Path) -> tuple[list[LoadRun], list[float]]:
    """Each load in turn (fresh tables each) on one fresh file, then the floor on that file."""
    store = await Store.open(db)
    runs: list[LoadRun] = []
    first = 0
    try:
        for games, mode in loads:
            runs.append(await run_load(store, games, moves, mode=mode, first_index=first))
            first += games
    finally:
        await store.close()
    return runs, await floor_commits(db)


def report(loads: Sequence[tuple[int, str]] = LOADS, moves: int = MOVES_PER_GAME) -> str:
    """The load table, as markdown."""
    with tempfile.TemporaryDirectory() as tmp:
        runs, floor = asyncio.run(measure(loads, moves, Path(tmp) / "load.db"))
    return markdown(runs, floor)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=HEAVY_GAMES, help=f"games under load (default {HEAVY_GAMES})")
    parser.add_argument("--light", type=int, default=LIGHT_GAMES, help=f"games, lighter load (default {LIGHT_GAMES})")
    parser.add_argument("--moves", type=int, default=MOVES_PER_GAME, help="moves per game (default 25)")
    args = parser.parse_args(argv)
    loads = ((args.light, CHAINED), (args.games, CHAINED), (args.games, BURST))
    print(report(loads, args.moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
