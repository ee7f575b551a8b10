"""Where ``engine.act``'s time goes under the load of `bench_load`: an instrumented run, for reading, not a table
to track (the instruments cost a few µs per round trip).

Instruments, on the instances only (no project code is changed):
  - every aiosqlite round trip (``Connection._execute``: one ``execute``, ``fetchone`` or ``fetchall``), by the
    store method it serves: time queued behind other coroutines' statements (submitted -> the worker thread
    starts it), time running in SQLite, and the hop back (finished -> the awaiting coroutine resumes);
  - the store methods ``engine.act`` may call (``action_by_interaction`` and ``deadlines_for`` only on rare paths
    now, ``save_game`` on every move): wall time per act;
  - the ``save_game`` transaction, one call on the connection thread: queued behind other calls, running
    (``BEGIN IMMEDIATE`` … ``COMMIT``), and the hop back;
  - CPU seconds of the event-loop thread and of aiosqlite's worker thread over the run.

Run: ``python -m tests.bench.bench_load_profile [--games 1 20 200] [--moves 25] [--turn-minutes M]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import Engine
from storage import SqliteStore as Store
from tests.bench.bench_load import CHAINED, MOVES_PER_GAME, OPTIONS, LoadRun, pct, run_load

ACT_METHODS = ("action_by_interaction", "deadlines_for", "save_game")
TRANSACTION = "save_game"


@dataclass
class ActTrace:
    """What one ``engine.act`` did on the store."""

    hops: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    method_ms: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    txn_ms: tuple[float, float, float] = (0.0, 0.0, 0.0)  # save_game's call: queued, running, hop back


@dataclass
class Trace:
    acts: list[ActTrace] = field(default_factory=list)
    queue_ms: list[float] = field(default_factory=list)
    run_ms: list[float] = field(default_factory=list)
    back_ms: list[float] = field(default_factory=list)


CURRENT: ContextVar[ActTrace | None] = ContextVar("current_act", default=None)
METHOD: ContextVar[str] = ContextVar("store_method", default="other")


def _timed_execute(original: Callable[..., Any], trace: Trace) -> Callable[..., Any]:
    async def execute(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        act = CURRENT.get()
        if act is None:
            return await original(fn, *args, **kwargs)
        marks: list[float] = []

        def run() -> Any:
            marks.append(time.perf_counter())
            try:
                return fn(*args, **kwargs)
            finally:
                marks.append(time.perf_counter())

        submitted = time.perf_counter()
        result = await original(run)
        resumed = time.perf_counter()
        act.hops[METHOD.get()] += 1
        split = ((marks[0] - submitted) * 1000, (marks[1] - marks[0]) * 1000, (resumed - marks[1]) * 1000)
        trace.queue_ms.append(split[0])
        trace.run_ms.append(split[1])
        trace.back_ms.append(split[2])
        if METHOD.get() == TRANSACTION:
            act.txn_ms = split
        return result

    return execute


def _timed_method(store: Store, name: str) -> None:
    original = getattr(store, name)

    async def method(*args: Any, **kwargs: Any) -> Any:
        act, token = CURRENT.get(), METHOD.set(name)
        start = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            METHOD.reset(token)
            if act is not None:
                act.method_ms[name] += (time.perf_counter() - start) * 1000

    setattr(store, name, method)


def instrument(store: Store, trace: Trace) -> Engine:
    """An engine on ``store`` whose acts are traced (instance attributes only)."""
    db: Any = store._db
    db._execute = _timed_execute(db._execute, trace)
    for name in ACT_METHODS:
        _timed_method(store, name)
    engine = Engine(store)
    act = engine.act

    async def traced_act(*args: Any, **kwargs: Any) -> Any:
        one = ActTrace()
        token = CURRENT.set(one)
        try:
            return await act(*args, **kwargs)
        finally:
            CURRENT.reset(token)
            trace.acts.append(one)

    engine.act = traced_act  # type: ignore[method-assign]
    return engine


def _cpu_clock(store: Store) -> Callable[[], float]:
    clock = time.pthread_getcpuclockid(store._db._thread.ident)  # type: ignore[arg-type]
    return lambda: time.clock_gettime(clock)


def _p(samples: Sequence[float]) -> str:
    return f"{pct(samples, 0.5):.3f} / {pct(samples, 0.99):.3f}" if samples else ""


def summary(run: LoadRun, trace: Trace, loop_cpu_s: float, sqlite_cpu_s: float) -> list[str]:
    acts, n = trace.acts, len(trace.acts)
    hops = [sum(a.hops.values()) for a in acts]
    lines = [f"### {run.label}: {run.throughput:,.0f} moves/s, act p50 / p99 {_p(run.act_ms)} ms", ""]
    lines.append("| per act | p50 / p99 ms | mean ms | round trips (mean) |")
    lines.append("|---|---:|---:|---:|")
    lines.append(f"| engine.act | {_p(run.act_ms)} | {statistics.mean(run.act_ms):.3f} | {statistics.mean(hops):.1f} |")
    for name in ACT_METHODS:
        ms = [a.method_ms[name] for a in acts]
        trips = statistics.mean(a.hops[name] for a in acts)
        lines.append(f"| {name} | {_p(ms)} | {statistics.mean(ms):.3f} | {trips:.1f} |")
    for i, what in enumerate(("queued on the connection thread", "running (BEGIN … COMMIT)", "hop back")):
        ms = [a.txn_ms[i] for a in acts]
        lines.append(f"| {TRANSACTION} transaction: {what} | {_p(ms)} | {statistics.mean(ms):.3f} | |")
    lines.append("")
    lines.append("| per round trip | p50 / p99 ms | mean ms |")
    lines.append("|---|---:|---:|")
    for what, ms in (("queued behind other statements", trace.queue_ms), ("running in SQLite", trace.run_ms),
                     ("hop back to the coroutine", trace.back_ms)):
        lines.append(f"| {what} | {_p(ms)} | {statistics.mean(ms):.3f} |")
    lines.append("")
    wall_ms = run.wall_s * 1000 / n
    lines.append(f"Per move: wall {wall_ms:.3f} ms; CPU of the event-loop thread {loop_cpu_s * 1000 / n:.3f} ms, "
                 f"of aiosqlite's thread {sqlite_cpu_s * 1000 / n:.3f} ms.")
    return lines


async def profile(games: int, moves: int, db: Path, options: dict[str, Any] | None = None) -> list[str]:
    store = await Store.open(db)
    trace = Trace()
    try:
        engine = instrument(store, trace)
        sqlite_cpu = _cpu_clock(store)
        loop0, sql0 = time.thread_time(), sqlite_cpu()
        run = await run_load(store, games, moves, mode=CHAINED, engine=engine, options=options)
        loop_s, sql_s = time.thread_time() - loop0, sqlite_cpu() - sql0
    finally:
        await store.close()
    # the set-up (lobbies, joins, starts) is in the CPU figures too: it is < 5 % of the store's work
    return summary(run, trace, loop_s, sql_s)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_load_profile", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[1, 20, 200], help="loads (default 1 20 200)")
    parser.add_argument("--moves", type=int, default=MOVES_PER_GAME, help="moves per game (default 25)")
    parser.add_argument("--turn-minutes", type=int, default=0,
                        help="a turn timer (each move then also drops and adds deadline rows); default none")
    args = parser.parse_args(argv)
    options = {**OPTIONS, "turn_minutes": args.turn_minutes} if args.turn_minutes else None
    for games in args.games:
        with tempfile.TemporaryDirectory() as tmp:
            print("\n".join(asyncio.run(profile(games, args.moves, Path(tmp) / "profile.db", options))))
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
