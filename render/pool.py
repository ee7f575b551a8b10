"""Drawing images off the event loop: in a pool of worker processes (``RENDER_WORKERS``), or in a thread (0).

Pillow holds the GIL for much of a draw and an encode, so a worker *thread* still stalls the event loop that
serves every move; a worker *process* does not. The cogs hand `draw` a module-level function and what it needs,
all picklable (a seat's view dict, names, the locale, the moves to mark: computed on the loop, never the Table),
and get the encoded bytes back, the same bytes as a draw in-process (the renderers are deterministic). The pool
runs other CPU-bound, picklable work the same way: bot seats' choices (`rules.bot_choice`; the bot passes `draw`
to the engine as its ``offload``) and Floating Floors' "what if".

One pool per process (like `render.kit.use_format`): the bot starts it in ``setup_hook`` and stops it on close;
tests and the terminal never start it, so everything draws in a thread as before. Workers come from a
``forkserver`` (a fork of a process running asyncio and discord.py's threads is unsafe) and warm up when they
start (every renderer imported, the fonts read), so the first move after a start is not the slow one.
A worker that dies mid-draw breaks the whole executor (`BrokenProcessPool`): the pool is replaced, a line is
logged and the image drawn again in the new pool, and in a thread if that breaks too: an image is never lost.
Every `RECYCLE_DRAWS` draws fresh workers take over (started in a thread, warm before they do) and the old ones
exit once their queued draws are drawn: a worker's memory (caches, the C heap's fragments) never grows for long.
A worker watches the process that started the pool and exits when it dies without a shutdown (SIGKILL, an OOM
kill); the forkserver then exits too. Nothing else would end them: the workers hold each other's queue pipes and
the forkserver's "alive" pipe open.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

# Imported here so that a worker, which imports this module for its initializer, loads every renderer at start.
import render.floating_world.cards
import render.floor_plan
import render.league
import render.registry  # every game's board
from render import kit

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

START_METHOD = "forkserver"
# Fresh workers after this many draws (docs/benchmarks.md, Memory): a worker's RSS grows by its caches filling
# and by what the C heap (Pillow's image blocks) keeps after frees; a fresh fork of the forkserver starts small.
RECYCLE_DRAWS = 5000
STARTER_WAIT_SECONDS = 30.0  # a close waits this long at most for workers still starting (see RenderPool.shutdown)


def _warm(image_format: str, owner: int | None = None) -> None:
    """A worker's start: the parent's image format, and every font face read once (the renderers are imported
    with this module); a watch on ``owner``, the process that started the pool."""
    if owner is not None:
        threading.Thread(target=_exit_with, args=(owner,), name="render-owner-watch", daemon=True).start()
    kit.use_format(image_format)
    for weight in kit.WEIGHTS:
        for path in kit.font_chain(weight):
            kit.font_file(path, 16)


def _exit_with(owner: int) -> None:
    """Block until process ``owner`` ends, then end this worker (its parent is the forkserver, so no parent-death
    signal reaches it). Linux: a pidfd, woken at once; elsewhere: a look every second."""
    try:
        fd = os.pidfd_open(owner)
    except ProcessLookupError:
        os._exit(0)
    except (AttributeError, OSError):  # no pidfd (not Linux, an old kernel)
        while _alive(owner):
            time.sleep(1.0)
    else:
        select.select([fd], [], [])
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def board(game: str, view: dict[str, Any], *, names: list[str] | None, locale: str,
          moves: list[dict[str, Any]] | None = None) -> bytes | None:
    """A game's public board image (`render.registry`), by game id: what a worker is sent instead of the renderer
    object (a module is not picklable)."""
    drawer = render.registry.renderer(game)
    return None if drawer is None else drawer.board(view, names=names, locale=locale, moves=moves)


def _ready() -> int:
    return os.getpid()


class RenderPool:
    """Worker processes that draw images, or none (``workers`` 0: a thread per draw, as tests and the terminal)."""

    def __init__(self, workers: int = 0, preload: tuple[str, ...] = (), *, background: bool = False,
                 recycle_after: int = RECYCLE_DRAWS) -> None:
        self.workers = workers
        self.preload = preload
        self.replaced = 0  # broken executors replaced so far (logged each time)
        self.recycle_after = recycle_after  # draws by one set of workers before fresh ones take over (0: never)
        self.recycled = 0  # sets of workers retired so far
        self.recycler: threading.Thread | None = None  # the thread starting fresh workers, while it runs
        self._draws = 0
        self.up = threading.Event()  # the workers' pool is up (at once without workers)
        self._lock = threading.Lock()
        self._closed = False
        self._executor: ProcessPoolExecutor | None = None
        self.starter: threading.Thread | None = None
        if workers > 0 and background:
            # The first worker's fork waits for the forkserver to import every renderer (seconds on a busy
            # machine): a thread waits for it, not the event loop; draws go to threads until the pool is up.
            self.starter = threading.Thread(target=self._start_in_background, name="render-pool-start", daemon=True)
            self.starter.start()
            return
        self._executor = self._start() if workers > 0 else None
        self.up.set()

    def _start_in_background(self) -> None:
        try:
            executor = self._start()
        except (OSError, RuntimeError):
            log.exception("the render workers did not start; drawing images in threads")
            return
        with self._lock:
            if self._closed:  # shut down while starting
                executor.shutdown(wait=False, cancel_futures=True)
                return
            self._executor = executor
        self.up.set()
        log.info("render workers up: %d", self.workers)

    @property
    def processes(self) -> bool:
        return self._executor is not None

    def _start(self) -> ProcessPoolExecutor:
        ctx = multiprocessing.get_context(START_METHOD)
        # The forkserver (one per process, started by whoever needs it first) imports these once; every worker
        # is then a cheap fork of it, a replacement too. `preload` names other users of the server (the pairing).
        ctx.set_forkserver_preload([__name__, *self.preload])
        executor = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_warm,
                                       initargs=(kit.image_format(), os.getpid()))
        # Workers start on demand: as many tasks at once start them all now, each warming up in its initializer.
        for _ in range(self.workers):
            executor.submit(_ready)
        return executor

    def worker_pids(self) -> list[int]:
        """The live workers' process ids (tests kill one)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return sorted(processes)

    async def draw(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` off the loop; ``fn`` is a module-level function and every argument picklable."""
        executor = self._executor
        if executor is None:
            return await asyncio.to_thread(fn, *args, **kwargs)
        call = functools.partial(fn, *args, **kwargs)
        loop = asyncio.get_running_loop()
        self._count_draw()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(executor, call)
            except BrokenProcessPool:
                executor = self._replace(executor, fn, attempt)
                if executor is None:
                    break
            except RuntimeError:  # shut down meanwhile: retired (draw in the fresh pool) or the bot is closing
                if self._executor is None:
                    break
                if self._executor is executor:
                    raise
                executor = self._executor
            except asyncio.CancelledError:
                # A pool shut down with this draw queued cancels its future; the caller was not cancelled, and
                # the image is still wanted: it is drawn in a thread (Task.cancelling() tells the two apart).
                task = asyncio.current_task()
                if (task is not None and task.cancelling()) or self._executor is executor:
                    raise
                break
        return await asyncio.to_thread(fn, *args, **kwargs)

    def _count_draw(self) -> None:
        """Every `recycle_after` draws, fresh workers: started in a thread (the loop never waits for a fork), they
        take over once warm; the old ones finish the draws queued to them, then exit."""
        self._draws += 1
        if self.recycle_after <= 0 or self._draws < self.recycle_after or self.recycler is not None:
            return
        self._draws = 0
        self.recycler = threading.Thread(target=self._recycle, name="render-pool-recycle", daemon=True)
        self.recycler.start()

    def _recycle(self) -> None:
        try:
            fresh = self._start()
            concurrent.futures.wait([fresh.submit(_ready) for _ in range(self.workers)], timeout=60)  # warm
        except (OSError, RuntimeError):
            log.exception("fresh render workers did not start; the old ones draw on")
            self.recycler = None
            return
        with self._lock:
            old, retired = self._executor, fresh  # shut down meanwhile: the fresh workers go
            if not self._closed and old is not None:
                self._executor, retired = fresh, old
                self.recycled += 1
            self.recycler = None
        retired.shutdown(wait=False, cancel_futures=retired is fresh)  # the old pool draws what it was sent

    def _replace(self, broken: ProcessPoolExecutor, fn: Callable[..., object],
                 attempt: int) -> ProcessPoolExecutor | None:
        """A worker died: a new pool instead of the broken one (once, however many draws saw it break). Returns
        the pool to draw in again, None after the second break (that draw goes to a thread)."""
        if self._executor is broken:
            self.replaced += 1
            self._executor = self._start()
            broken.shutdown(wait=False, cancel_futures=True)
        how = "drawing it again in a new pool" if attempt == 1 else "drawing it in a thread"
        log.warning("a render worker died while drawing %s: %s", getattr(fn, "__qualname__", fn), how)
        return self._executor if attempt == 1 else None

    def shutdown(self) -> None:
        """Stop the workers (queued draws are cancelled; a draw awaited meanwhile goes to a thread). A start still
        under way is waited for (up to `STARTER_WAIT_SECONDS`): a process that exits while its forkserver is
        being set up leaves the forkserver a traceback about semaphores that are gone (a bot closed seconds after
        its start, when Discord cannot be reached)."""
        starter = self.starter
        if starter is not None and starter is not threading.current_thread():
            starter.join(STARTER_WAIT_SECONDS)
        with self._lock:
            self._closed = True
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


_pool = RenderPool(0)


def start(workers: int, preload: tuple[str, ...] = (), *, background: bool = False) -> RenderPool:
    """Draw in ``workers`` processes from now on (0: in threads); the previous pool, if any, is stopped.
    ``preload``: modules the forkserver imports besides the renderers (see `RenderPool._start`); ``background``:
    return at once and draw in threads until the workers are up (the bot's start)."""
    global _pool
    _pool.shutdown()
    _pool = RenderPool(workers, preload, background=background)
    log.info("drawing images in %s", f"{workers} worker processes" if workers else "threads")
    return _pool


def stop() -> None:
    """Back to threads (the bot's close)."""
    start(0)


def current() -> RenderPool:
    return _pool


async def draw(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Draw with the process's pool (`start`): ``fn(*args, **kwargs)`` in a worker process or a thread."""
    return await _pool.draw(fn, *args, **kwargs)


__all__ = ["RenderPool", "board", "current", "draw", "start", "stop"]
