"""Render workers are recycled (issue 25, "Memory"; `render.pool`): after `recycle_after` draws fresh workers take
over, so a worker's memory (its caches filling, the C heap's fragments) never grows for long; no draw is lost on
the way, a draw sent to the retired workers is drawn all the same, and the retired workers exit.

Real processes, one worker per pool; no timing is asserted (a recycle's thread is joined, not waited for).
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import pytest

from render.pool import RECYCLE_DRAWS, RenderPool


def pid() -> int:
    return os.getpid()


async def recycled(pool: RenderPool) -> None:
    """Wait for the recycle a draw started (its thread) to finish."""
    if pool.recycler is not None:
        await asyncio.to_thread(pool.recycler.join, 60)


async def test_after_recycle_after_draws_fresh_workers_draw_and_the_old_ones_exit() -> None:
    pool = RenderPool(1, recycle_after=3)
    try:
        old_executor = pool._executor
        first = [await pool.draw(pid) for _ in range(2)]
        assert pool.recycler is None and pool.recycled == 0  # not before the third draw
        first.append(await pool.draw(pid))
        await recycled(pool)
        assert pool.recycled == 1
        fresh = await pool.draw(pid)
        assert set(first) != {fresh} and len(set(first)) == 1 and fresh != os.getpid()
        assert pool.worker_pids() == [fresh]
        assert isinstance(old_executor, ProcessPoolExecutor)
        manager = old_executor._executor_manager_thread  # it joins the retired workers, then ends
        if manager is not None:
            await asyncio.to_thread(manager.join, 60)
        assert _zombie_or_gone(first[0])
    finally:
        pool.shutdown()


def _zombie_or_gone(process: int) -> bool:
    try:
        with open(f"/proc/{process}/stat") as f:
            return f.read().split(") ", 1)[1].startswith(("Z", "X"))
    except FileNotFoundError:
        return True


async def test_no_draw_is_lost_while_workers_are_recycled() -> None:
    """Many draws at once across several recycles: each is answered by a worker process, none in this one."""
    pool = RenderPool(1, recycle_after=4)
    try:
        for _ in range(3):
            drawn = await asyncio.gather(*(pool.draw(pid) for _ in range(10)))
            assert len(drawn) == 10 and os.getpid() not in drawn
            await recycled(pool)
        assert pool.recycled >= 2
    finally:
        pool.shutdown()


class RetiredWhileSending:
    """An executor the recycle retires at the very moment a draw is sent to it (the draw read the pool's executor
    just before the swap): it hands the pool the fresh workers, shuts itself down, then refuses the draw."""

    def __init__(self, pool: RenderPool, stale: ProcessPoolExecutor, fresh: ProcessPoolExecutor) -> None:
        self.pool, self.stale, self.fresh = pool, stale, fresh

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.pool._executor = self.fresh
        self.stale.shutdown(wait=False)
        return self.stale.submit(fn, *args, **kwargs)  # RuntimeError: cannot schedule new futures after shutdown


async def test_a_draw_sent_to_workers_retired_meanwhile_is_drawn_by_the_fresh_ones() -> None:
    pool = RenderPool(1, recycle_after=0)
    try:
        stale = pool._executor
        assert stale is not None
        fresh = pool._start()
        pool._executor = RetiredWhileSending(pool, stale, fresh)  # type: ignore[assignment]
        drawn = await pool.draw(pid)
        assert drawn != os.getpid() and drawn in pool.worker_pids() and pool._executor is fresh
    finally:
        pool.shutdown()


async def test_recycle_after_0_keeps_the_same_workers() -> None:
    pool = RenderPool(1, recycle_after=0)
    try:
        drawn = {await pool.draw(pid) for _ in range(5)}
        assert len(drawn) == 1 and pool.recycler is None and pool.recycled == 0
    finally:
        pool.shutdown()
    assert RenderPool(0).recycle_after == RECYCLE_DRAWS > 0  # the bot's pools recycle by default


async def test_a_pool_shut_down_while_fresh_workers_start_stops_them_too(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = RenderPool(1, recycle_after=1)
    real_start, started = RenderPool._start, []

    def start_then_close(self: RenderPool) -> ProcessPoolExecutor:
        started.append(real_start(self))
        self.shutdown()  # the bot closes while the fresh workers warm up
        return started[-1]

    monkeypatch.setattr(RenderPool, "_start", start_then_close)
    await pool.draw(pid)
    await recycled(pool)
    assert started and started[0]._shutdown_thread, "the fresh workers were not stopped"
    assert pool.recycled == 0 and not pool.processes
