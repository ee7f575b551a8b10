"""Images drawn off the event loop in worker processes (issue 26, "Off the event loop"; `render.pool`).

Real processes, few of them: one pool of two workers for the module. The pool draws the same bytes as the
process itself for every game's image; a worker killed mid-draw is replaced and the image drawn all the same;
``RENDER_WORKERS=0`` (tests, the terminal) draws in a thread; the setting defaults to one worker per core.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from config import MAX_DEFAULT_RENDER_WORKERS, load_settings
from render import floating_world as fw_draw
from render import floor_plan as fp_draw
from render import kit
from render import league as league_draw
from render import pool as render_pool
from render.floating_world import words as fw_words
from render.pool import RenderPool
from rules import GAMES
from tests import test_render_league as league_data
from tools.render_loop_lag import played_state

SEED = "pool-seed"
NAMES = ["Alice", "Bob", "Carol"]


@pytest.fixture(scope="module")
def pool() -> Iterator[RenderPool]:
    kit.use_format("webp")  # what the bot posts; the workers take the format the parent has when they start
    pool = RenderPool(2)
    yield pool
    pool.shutdown()


def played(game_id: str, players: int, moves: int) -> tuple[Any, Any]:
    """The game's rules and a state after ``moves`` bot moves from a fixed seed (a board with pieces on it)."""
    return GAMES[game_id], played_state(game_id, players, moves, SEED)


def every_image() -> list[tuple[str, Callable[..., Any], tuple[Any, ...], dict[str, Any]]]:
    """(label, function, args, kwargs) of every kind of image the cogs post after a move, from plain data."""
    out: list[tuple[str, Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
    for game_id in ("flying_blades", "the_floor", "floating_floors"):
        rules, state = played(game_id, 3, 6)
        view = rules.view(state, None)
        mark = view.get("last_action")
        out.append((game_id, render_pool.board, (game_id, view),
                    {"names": NAMES, "locale": "pl", "moves": [mark] if isinstance(mark, dict) else None}))
    rules, state = played("floating_world", 2, 6)
    view = rules.view(state, None)
    out.append(("floating_world map", fw_draw.map_image, (view,),
                {"locale": "en", "card_names": fw_words.card_names("en"), "names": NAMES[:2]}))
    out.append(("floating_world nightmare", fw_draw.nightmare_image, (view,), {"locale": "en", "names": NAMES[:2]}))
    rules, state = played("floor_plan", 2, 4)
    out.append(("floor_plan sheet", fp_draw.render_sheet, (rules.sheet_view(state, 0, 0),),
                {"name": "Alice", "locale": "en"}))
    out.append(("tournament standings", league_draw.standings_image, (league_data.standings(12),), {"locale": "pl"}))
    out.append(("tournament bracket", league_draw.bracket_image, (league_data.double_elim(8),), {"locale": "en"}))
    return out


async def test_a_worker_process_draws_the_same_bytes_as_the_bot_process_for_every_game(pool: RenderPool) -> None:
    images = every_image()
    drawn = await asyncio.gather(*(pool.draw(fn, *args, **kwargs) for _, fn, args, kwargs in images))
    for (label, fn, args, kwargs), data in zip(images, drawn, strict=True):
        assert data == fn(*args, **kwargs), label
        assert kit.image_ext(data) == "webp", label  # the bot's format reached the workers


def draw_unless_first(pid_file: str, marker: str) -> bytes:
    """Runs in a worker: the first call waits to be killed (it writes its pid first); a call once ``marker``
    exists draws at once."""
    if Path(marker).exists():
        return b"drawn again"
    Path(pid_file).write_text(str(os.getpid()))
    for _ in range(1200):  # a minute at most, so that a test that failed to kill it still ends
        time.sleep(0.05)
    return b"never killed"


async def test_a_worker_killed_mid_draw_is_replaced_and_the_image_is_drawn_again(
        pool: RenderPool, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    pid_file, marker = tmp_path / "pid", tmp_path / "killed"
    replaced = pool.replaced
    task = asyncio.create_task(pool.draw(draw_unless_first, str(pid_file), str(marker)))
    while not pid_file.exists() or not pid_file.read_text():
        await asyncio.sleep(0.01)
    marker.touch()
    with caplog.at_level(logging.WARNING, logger="render.pool"):
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
        assert await task == b"drawn again"
    assert pool.replaced == replaced + 1
    assert "render worker died" in caplog.text
    images = every_image()[:1]  # the new pool draws as the old one did
    assert [await pool.draw(fn, *args, **kwargs) for _, fn, args, kwargs in images] == \
        [fn(*args, **kwargs) for _, fn, args, kwargs in images]


def where() -> tuple[int, int]:
    return os.getpid(), threading.get_ident()


async def test_render_workers_0_draws_in_a_thread_of_this_process() -> None:
    pool = RenderPool(0)
    pid, thread = await pool.draw(where)
    assert pid == os.getpid() and thread != threading.get_ident()
    assert not pool.processes


async def test_a_draw_after_shutdown_is_drawn_in_a_thread() -> None:
    pool = RenderPool(1)
    pool.shutdown()
    assert (await pool.draw(where))[0] == os.getpid()


def test_render_workers_defaults_to_one_per_core_at_most_four(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RENDER_WORKERS", raising=False)
    expected = max(1, min(os.cpu_count() or 1, MAX_DEFAULT_RENDER_WORKERS))
    assert load_settings(_env_file=None).render_workers == expected
    monkeypatch.setenv("RENDER_WORKERS", "")  # .env.example's empty line: the default
    assert load_settings(_env_file=None).render_workers == expected
    monkeypatch.setenv("RENDER_WORKERS", "0")
    assert load_settings(_env_file=None).render_workers == 0
    monkeypatch.setenv("RENDER_WORKERS", "-1")
    with pytest.raises(ValueError, match="render_workers"):
        load_settings(_env_file=None)


async def test_the_module_pool_draws_in_threads_until_started_and_after_stop() -> None:
    assert (await render_pool.draw(where))[0] == os.getpid()
    pool = render_pool.start(1)
    try:
        assert render_pool.current() is pool
        pid, _ = await render_pool.draw(where)
        assert pid != os.getpid() and pid in pool.worker_pids()
    finally:
        render_pool.stop()
    assert not render_pool.current().processes


async def test_a_pool_started_in_the_background_returns_at_once_and_draws_in_threads_until_its_workers_are_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's start no longer waits for the forkserver's imports (seconds, the loop blocked): the pool comes up
    in a thread, and a move meanwhile gets its image drawn in a thread of the bot's process."""
    release = threading.Event()
    real_start = RenderPool._start

    def held_start(self: RenderPool) -> Any:
        release.wait(60)
        return real_start(self)

    monkeypatch.setattr(RenderPool, "_start", held_start)
    pool = RenderPool(1, background=True)  # returns although its start is held
    try:
        assert not pool.up.is_set() and not pool.processes
        assert (await pool.draw(where))[0] == os.getpid()
        release.set()
        assert await asyncio.to_thread(pool.up.wait, 60)
        pid, _ = await pool.draw(where)
        assert pid != os.getpid() and pid in pool.worker_pids()
    finally:
        release.set()
        pool.shutdown()


async def test_a_pool_shut_down_while_starting_in_the_background_stops_its_workers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    release, started = threading.Event(), []
    real_start = RenderPool._start

    def held_start(self: RenderPool) -> Any:
        release.wait(60)
        started.append(real_start(self))
        return started[-1]

    monkeypatch.setattr(RenderPool, "_start", held_start)
    pool = RenderPool(1, background=True)
    pool.shutdown()
    release.set()
    assert pool.starter is not None
    await asyncio.to_thread(pool.starter.join, 60)
    assert not pool.processes and (await pool.draw(where))[0] == os.getpid()
    assert started and started[0]._shutdown_thread, "the executor started after the shutdown was shut down"
