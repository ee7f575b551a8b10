"""A move's board drawn by a render worker process (issue 26, `render.pool`) posts the image a thread would have
drawn, and a dead worker loses no image. The rest of the Discord suite draws in threads (RENDER_WORKERS=0)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogs.utils.posting import last_move, render_view
from render import pool as render_pool
from render.pool import RenderPool
from tests.conftest import FakeClock
from tests.discord_harness import USERS, Harness, start_table, table_of


@pytest.fixture
def worker_pool(harness: Harness) -> Iterator[RenderPool]:
    """One worker process for this test (the harness's bot started the threads' pool in its setup_hook)."""
    pool = render_pool.start(1)
    yield pool
    render_pool.stop()


async def move_and_expected(h: Harness, channel_id: int) -> tuple[list[bytes], bytes]:
    """Alice's move: the images it posted, and the board a thread draws of the table after it."""
    table = await table_of(h, channel_id)
    legal = table.rules.legal_actions(table.state, table.seat_of(USERS["alice"]))
    action = next((a for a in legal if a.startswith("attack")), "pass")
    out = await h.slash("move", "alice", channel_id, action=action)
    table = await table_of(h, channel_id)
    mark = last_move(table)
    pool = render_pool.current()
    try:
        render_pool._pool = RenderPool(0)  # the same call, drawn in a thread here
        expected = await render_view(table, None, "en", [mark] if mark else None)
    finally:
        render_pool._pool = pool
    assert expected is not None
    return h.images(out), expected


async def test_a_board_drawn_by_a_worker_process_is_the_board_a_thread_draws(
        harness: Harness, worker_pool: RenderPool) -> None:
    channel_id = await start_table(harness, joiners=["bob"], options="cards=none")
    posted, expected = await move_and_expected(harness, channel_id)
    assert posted == [expected]
    assert worker_pool.replaced == 0


async def test_a_dead_render_worker_loses_no_board(harness: Harness, worker_pool: RenderPool) -> None:
    channel_id = await start_table(harness, joiners=["bob"], options="cards=none")
    (pid,) = worker_pool.worker_pids()
    os.kill(pid, signal.SIGKILL)
    posted, expected = await move_and_expected(harness, channel_id)
    assert posted == [expected]
    assert worker_pool.replaced == 1


async def test_the_bot_starts_its_render_workers_at_setup_and_stops_them_on_close(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    monkeypatch.chdir(tmp_path)
    h = Harness(tmp_path / "floorboard.db", now=clock)
    h.bot.settings = h.bot.settings.model_copy(update={"render_workers": 1})  # RENDER_WORKERS=1
    await h.start(monkeypatch)
    try:
        pool = render_pool.current()
        assert pool.processes and len(pool.worker_pids()) == 1
        assert h.bot.engine.bots.offload is render_pool.draw  # bot seats think in the workers too
        channel_id = await start_table(h, joiners=["bob"], options="cards=none")
        posted, expected = await move_and_expected(h, channel_id)
        assert posted == [expected]
    finally:
        await h.close()
    assert not render_pool.current().processes
