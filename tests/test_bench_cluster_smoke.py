"""The cluster benchmark (issue 26) is not a timed test: its quick mode runs here on configuration (a), the real
bot on SQLite against the Discord double, so that CI keeps the harness working. No rate or latency is asserted
(docs/operations.md, "Benchmark: one process or several"); what must hold in any run is: nothing lost or doubled,
every clock fired once, the database as asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

import bot
from tests.bench import bench_cluster as bc

pytestmark = pytest.mark.e2e


def test_the_copies_fill_the_database_to_the_stored_and_active_counts_asked(tmp_path: Path) -> None:
    opts = bc.Options.quick(db=tmp_path / "stored.sqlite3", workdir=tmp_path, games=120, active=30)
    path, _ = asyncio.run(bc.build_sqlite(opts))
    with closing(sqlite3.connect(path)) as con:
        assert con.execute("SELECT count(*), sum(status = 'active') FROM games").fetchone() == (120, 30)
        guilds = {g for (g,) in con.execute("SELECT guild_id FROM games WHERE guild_id > 1")}
        assert {(g >> 22) % bc.SHARDS for g in guilds} == set(range(bc.SHARDS)), "copies on every shard"
        assert con.execute("SELECT count(DISTINCT channel_id) FROM games").fetchone() == (120,)
        orphans = con.execute("SELECT count(*) FROM actions a LEFT JOIN games g ON g.id = a.game_id "
                              "WHERE g.id IS NULL").fetchone()
        assert orphans == (0,)
        assert con.execute("SELECT count(*) FROM deadlines WHERE due_at < '2099'").fetchone() == (0,), \
            "a stored game's clock could fall due during the run (in a channel the double does not know)"
        assert con.execute("SELECT count(*) FROM deadlines").fetchone()[0] > 0
    assert asyncio.run(bc.build_sqlite(opts))[1] == 0.0, "the cached file is reused"


@contextlib.contextmanager
def bots_with_a_worker(worker: str, bots: int = 1) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``bots`` processes, each above one child running ``worker`` (a bot process and its render worker), their
    trees up when yielded and killed after."""
    script = f"import subprocess, sys, time; subprocess.run([sys.executable, '-c', {worker!r}]); time.sleep(5)"
    procs = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(bots)]
    try:
        for _ in range(100):
            if len(bc.descendants([p.pid for p in procs])) == 2 * bots:
                break
            time.sleep(0.02)
        yield procs
    finally:
        for p in procs:
            for pid in bc.descendants([p.pid]) - {p.pid}:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            p.kill()
            p.wait()


def test_the_cpu_column_counts_the_render_workers_below_each_bot_process() -> None:
    # The bot's render workers are its forkserver's children: a bot's own pid is not the whole of its CPU. The roots
    # come as a generator (as `offer` passes them), which the walk must read once only.
    with bots_with_a_worker("while True: pass", bots=2) as bots:
        tree = bc.descendants(p.pid for p in bots)
        assert len(tree) == 4 and {p.pid for p in bots} < tree, tree
        before = bc.cpu_seconds(tree)
        time.sleep(0.5)
        after = bc.cpu_seconds(tree)
        spent = {pid: after[pid] - before[pid] for pid in after}
        assert sum(spent[pid] for pid in tree - {p.pid for p in bots}) > 0.1, spent


def test_the_cpu_column_keeps_a_process_that_ends_within_the_window() -> None:
    # A render worker retired after its draws (render.pool.RECYCLE_DRAWS) ends mid-window: read only at the
    # window's end, its whole window's work would be gone.
    spin = "import time\nend = time.process_time() + 0.8\nwhile time.process_time() < end: pass\ntime.sleep(0.3)"
    with bots_with_a_worker(spin) as (bot_process,):
        meter = bc.CpuMeter([bot_process.pid])
        assert len(meter.first) == 2, meter.first
        for _ in range(100):  # sampled as the window goes, until the worker is gone
            meter.sample([bot_process.pid])
            if len(bc.descendants([bot_process.pid])) == 1:
                break
            time.sleep(0.05)
        meter.sample([bot_process.pid])
        assert meter.seconds > 0.2, (meter.first, meter.last)


async def test_the_loop_lag_ticker_logs_a_blocked_loop_only_when_asked(monkeypatch: pytest.MonkeyPatch,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv(bot.LOOP_LAG_ENV, raising=False)
    assert bot.start_loop_lag_log() is None
    monkeypatch.setenv(bot.LOOP_LAG_ENV, "0.1")
    caplog.set_level(logging.INFO, logger="floorboard")
    task = bot.start_loop_lag_log()
    assert task is not None
    try:
        await asyncio.sleep(0.1)
        time.sleep(0.3)  # the loop blocked for 300 ms: a tick waits at least 250 ms too long
        for _ in range(100):
            lags = [float(m[1]) for r in caplog.records if (m := bc.LAG_LINE.search(r.getMessage()))]
            if any(lag >= 250 for lag in lags):
                break
            await asyncio.sleep(0.05)
        assert any(lag >= 250 for lag in lags), lags
    finally:
        task.cancel()


async def test_quick_cluster_run_on_sqlite_loses_doubles_and_misses_nothing(tmp_path: Path) -> None:
    opts = bc.Options.quick(configs="a", workdir=tmp_path, step_s=3.0, hold_s=3.0, kill_s=6.0, rates=(1.0,),
                            games=100, active=20, tables=2, clocks=2, guilds=2)
    text = await bc.run_all(opts)
    first = text.splitlines()[2]
    assert first.startswith("| (a) 1 process, SQLite | 100 (20) |"), text
    cells = [c.strip() for c in first.split("|")[1:-1]]
    lost, doubled, clocks = cells[12], cells[13], cells[14]
    assert (lost, doubled, clocks) == ("0", "0", "0 / 0"), text
    assert "ERROR lines" not in text, text
