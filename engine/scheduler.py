"""The scheduler: one task fires every deadline row that falls due (turn clocks, reminders, action timers,
lobby expiry, vacation ends, the abandoned-games sweep) and tells the listeners (the cogs) what happened.

Deadlines are rows with absolute times, so a restart loses none: the first pass fires what fell due while the
bot was down. Each deadline is on its own: one that fails backs off and never stops the others.

Several bot processes may share one database (issue 26, docs/operations.md): each pass claims the due rows for
a lease (`claim_due_deadlines`) before firing them, so each fires once in the cluster; a process killed mid-pass
leaves its claims to be taken again when the lease ends. A process holding some gateway shards (``shards``)
fires only the deadlines of games in guilds on them (a game without a guild: shard 0's).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from engine.book import TableBook
from engine.errors import DamagedGameError, StorageUnavailableError
from engine.tables import Listeners, Notice, Table
from rules.base import FloorboardError
from storage import DeadlineRow, Shards, StorageError

log = logging.getLogger(__name__)

BACKOFF_FIRST = timedelta(seconds=30)  # a deadline that failed to fire is tried again later, then less often
BACKOFF_MAX = timedelta(hours=1)

# A pass's claim on its due rows lasts this long: a killed process's rows wait at most this for another (or its own
# restart); the pass stops firing at half of it and claims again, so a slow pass never outlives its claim.
LEASE_SECONDS = 60.0
CLAIM_LIMIT = 100  # rows claimed per pass; the rest are claimed by the next pass, at once

Handle = Callable[[Table, DeadlineRow], Awaitable[Notice | None]]


@dataclass(frozen=True)
class Firing:
    """How one kind of deadline row fires: ``handle(table, row)`` runs under the game's lock while the row is
    still set. The row is dropped first unless the handler ``keeps_row`` (it drops or replaces it in its own
    write); ``after(notice)`` runs once the lock is released (the bots move after a timeout)."""

    handle: Handle
    keeps_row: bool = False
    after: Callable[[Notice], Awaitable[None]] | None = None


@dataclass
class Scheduler:
    """Fires the book's due deadline rows through `firings` ({kind: Firing}, filled by the engine's parts: this
    module imports none of them) and the due sources (a tournament's rounds), and tells the listeners."""

    book: TableBook
    listeners: Listeners
    tick_seconds: float
    firings: dict[str, Firing] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    _failures: dict[int, int] = field(default_factory=dict)  # deadline id → failed attempts (for the back-off)
    _due_sources: list[Callable[[], Awaitable[Any]]] = field(default_factory=list)  # more work for each pass
    shards: Shards | None = None  # the gateway shards this process holds; None: every guild (one process)
    # Names this process's claims: unique per run, so a restarted process never takes a claim its killed self left.
    owner: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}")
    lease_seconds: float = LEASE_SECONDS
    _claimed: int = 0  # rows the last pass claimed (none: a due row left is another process's)

    def owns(self, guild_id: int | None) -> bool:
        """Is ``guild_id``'s work this process's (its shard is one this process holds)?"""
        return self.shards is None or self.shards.owns(guild_id)

    async def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name="floorboard-scheduler")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _run(self) -> None:
        # Deadlines are rows: after a restart the first pass fires whatever fell due while the bot was down.
        while True:
            self._claimed = 0
            try:
                await self.run_due()
                nxt = await self.book.store.next_deadline()
            except Exception:
                log.exception("scheduler pass failed")
                nxt = None
            wait = self.tick_seconds
            if nxt is not None:
                until = (nxt - self.book.now()).total_seconds()
                # A row already due that this pass did not claim is another process's (its shard, its live
                # claim): look again at the next tick, not at once in a loop.
                if until > 0 or self._claimed:
                    wait = min(wait, max(0.0, until))
            self.book.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.book.wake.wait(), timeout=wait)

    async def run_due(self) -> list[Notice]:
        """Fire every deadline that is due now; returns the notices sent (tests call this directly).

        Each deadline is on its own: one that fails (a damaged game, a bug) is logged and tried again later with
        a growing back-off, so it never comes first in every pass and never stops the others' timers."""
        notices = []
        book = self.book
        loop = asyncio.get_running_loop()
        claimed = await book.store.claim_due_deadlines(book.now(), self.owner, self.lease_seconds, CLAIM_LIMIT,
                                                       self.shards, exclude=set(book.damaged))
        self._claimed = len(claimed)
        renew_at = loop.time() + self.lease_seconds / 2
        for deadline in claimed:
            if loop.time() > renew_at:  # the rest stay ours; the next pass (at once) claims them anew
                book.wake.set()
                break
            try:
                notice = await self.fire(deadline)
            except DamagedGameError:
                continue  # isolated and announced by get(); its deadlines wait for /abort
            except (StorageError, StorageUnavailableError):  # nothing was written: the row waits, it is not lost
                log.warning("the database is unavailable; deadlines wait for the next pass")
                break
            except FloorboardError:
                log.exception("deadline %s could not be applied", deadline)
                notice = None
                await self._drop_quietly(deadline)
            except Exception:
                log.exception("deadline %s of game %s failed", deadline.id, deadline.game_id)
                await self._back_off(deadline)
                continue
            if deadline.id is not None:
                self._failures.pop(deadline.id, None)
            if notice is not None:
                notices.append(notice)
                await self.listeners.notify(notice)
        for source in self._due_sources:  # deadlines kept elsewhere (a tournament's round): each on its own
            try:
                await source()
            except StorageError:
                log.warning("the database is unavailable; a due source waits for the next pass")
            except Exception:
                log.exception("due source %s failed", getattr(source, "__qualname__", source))
        return notices

    def add_due_source(self, source: Callable[[], Awaitable[Any]]) -> None:
        """``source()`` runs in every scheduler pass (and `run_due`), after the deadline rows."""
        self._due_sources.append(source)

    async def _back_off(self, deadline: DeadlineRow) -> None:
        if deadline.id is None:
            return
        tries = self._failures[deadline.id] = self._failures.get(deadline.id, 0) + 1
        delay = min(BACKOFF_FIRST * 2 ** (tries - 1), BACKOFF_MAX)
        due_at = self.book.now() + delay
        try:
            await self.book.store.postpone_deadline(deadline.id, due_at)
        except Exception:
            log.exception("could not postpone deadline %s", deadline.id)
            return
        self.book.moved_deadline(deadline, due_at)

    async def _drop_quietly(self, deadline: DeadlineRow) -> None:
        try:
            await self.book.drop_deadline(deadline)
        except Exception:
            log.exception("could not drop deadline %s", deadline.id)

    async def _armed(self, deadline: DeadlineRow) -> bool:
        """Is a due deadline still set? The cache knows (a move may have dropped it since it was read); one the
        cache lacks is looked up in the store before it is skipped, so a cache that missed a change cannot stop
        a timer for good."""
        book = self.book
        if any(d.id == deadline.id for d in book.deadlines_of(deadline.game_id)):
            return True
        fresh = await book.store.deadlines_for(deadline.game_id)
        if deadline.game_id in book.cache:
            book.deadlines[deadline.game_id] = fresh
        return any(d.id == deadline.id for d in fresh)

    async def fire(self, d: DeadlineRow) -> Notice | None:
        """Fire one due row through its kind's `Firing`; a kind nobody handles is dropped."""
        assert d.id is not None
        firing = self.firings.get(d.kind)
        async with self.book.lock(d.game_id):
            table = await self.book.get(d.game_id)
            if not await self._armed(d):
                return None
            if firing is None or not firing.keeps_row:
                await self.book.drop_deadline(d)
            notice = None if firing is None else await firing.handle(table, d)
        if notice is not None and firing is not None and firing.after is not None:
            await firing.after(notice)
        return notice
