"""The scheduler: one task fires every deadline row that falls due (turn clocks, reminders, action timers,
lobby expiry, vacation ends, the abandoned-games sweep) and tells the listeners (the cogs) what happened.

Deadlines are rows with absolute times, so a restart loses none: the first pass fires what fell due while the
bot was down. Each deadline is on its own: one that fails backs off and never stops the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from engine import admin as adm
from engine import clock
from engine import policies as pol
from engine import vacation as vac
from engine.clock import TURN_REMINDER, TURN_TIMEOUT, TURN_WARNING
from engine.errors import DamagedGameError
from engine.tables import ActResult, Listener, Notice, Table
from engine.timers import ACTION_TIMER, LOBBY_EXPIRY
from rules.base import FloorboardError
from storage import DeadlineRow, StorageError, Store

log = logging.getLogger(__name__)

BACKOFF_FIRST = timedelta(seconds=30)  # a deadline that failed to fire is tried again later, then less often
BACKOFF_MAX = timedelta(hours=1)


class Scheduler:
    """Mixed into `Engine` (engine/core.py), which owns the attributes below."""

    store: Store
    tick_seconds: float
    damaged: dict[int, str]
    _listeners: list[Listener]
    _wake: asyncio.Event
    _scheduler: asyncio.Task[None] | None
    _failures: dict[int, int]
    _due_sources: list[Callable[[], Awaitable[Any]]]
    _deadlines: dict[int, list[DeadlineRow]]
    _cache: dict[int, Table]

    if TYPE_CHECKING:
        def now(self) -> datetime: ...
        def _lock(self, table_id: int) -> asyncio.Lock: ...
        async def get(self, table_id: int) -> Table: ...
        async def _close(self, table: Table, status: str, *, reason: str) -> Table: ...
        async def _apply(self, table: Table, seat: int, action: str, **kw: Any) -> ActResult: ...
        async def play_bots(self, table_id: int) -> list[ActResult]: ...

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def _notify(self, notice: Notice) -> None:
        for listener in self._listeners:
            try:
                await listener(notice)
            except Exception:
                log.exception("listener failed on %s for table %s", notice.kind, notice.table.id)

    async def start_scheduler(self) -> None:
        if self._scheduler is None:
            self._scheduler = asyncio.create_task(self._run_scheduler(), name="floorboard-scheduler")

    async def stop(self) -> None:
        if self._scheduler is not None:
            self._scheduler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._scheduler
            self._scheduler = None

    async def _run_scheduler(self) -> None:
        # Deadlines are rows: after a restart the first pass fires whatever fell due while the bot was down.
        while True:
            try:
                await self.run_due()
                nxt = await self.store.next_deadline()
            except Exception:
                log.exception("scheduler pass failed")
                nxt = None
            wait = self.tick_seconds
            if nxt is not None:
                wait = min(wait, max(0.0, (nxt - self.now()).total_seconds()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def run_due(self) -> list[Notice]:
        """Fire every deadline that is due now; returns the notices sent (tests call this directly).

        Each deadline is on its own: one that fails (a damaged game, a bug) is logged and tried again later with
        a growing back-off, so it never comes first in every pass and never stops the others' timers."""
        notices = []
        for deadline in await self.store.due_deadlines(self.now(), exclude=set(self.damaged)):
            try:
                notice = await self._fire(deadline)
            except DamagedGameError:
                continue  # isolated and announced by get(); its deadlines wait for /abort
            except StorageError:
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
                await self._notify(notice)
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
        due_at = self.now() + delay
        try:
            await self.store.postpone_deadline(deadline.id, due_at)
        except Exception:
            log.exception("could not postpone deadline %s", deadline.id)
            return
        self._cached_deadline(deadline, due_at)

    async def _drop_quietly(self, deadline: DeadlineRow) -> None:
        try:
            await self._drop_deadline(deadline)
        except Exception:
            log.exception("could not drop deadline %s", deadline.id)

    async def _drop_deadline(self, deadline: DeadlineRow) -> None:
        if deadline.id is not None:
            await self.store.drop_deadline(deadline.id)
            self._cached_deadline(deadline, None)

    def _cached_deadline(self, deadline: DeadlineRow, due_at: datetime | None) -> None:
        """Mirror the scheduler's change to one deadline in its table's cache: dropped (None) or moved."""
        rows = self._deadlines.get(deadline.game_id)
        if rows is None:
            return
        if due_at is None:
            rows = [d for d in rows if d.id != deadline.id]
        else:
            rows = [replace(d, due_at=due_at) if d.id == deadline.id else d for d in rows]
        self._deadlines[deadline.game_id] = rows

    async def _armed(self, deadline: DeadlineRow) -> bool:
        """Is a due deadline still set? The cache knows (a move may have dropped it since it was read); one the
        cache lacks is looked up in the store before it is skipped, so a cache that missed a change cannot stop
        a timer for good."""
        if any(d.id == deadline.id for d in self._deadlines.get(deadline.game_id, ())):
            return True
        fresh = await self.store.deadlines_for(deadline.game_id)
        if deadline.game_id in self._cache:
            self._deadlines[deadline.game_id] = fresh
        return any(d.id == deadline.id for d in fresh)

    async def _fire(self, d: DeadlineRow) -> Notice | None:
        assert d.id is not None
        if d.kind in (TURN_TIMEOUT, ACTION_TIMER):
            notice = await self._fire_timeout(d)
            if notice is not None:
                notice.data["bots"] = await self.play_bots(d.game_id)
            return notice
        async with self._lock(d.game_id):
            table = await self.get(d.game_id)
            if not await self._armed(d):
                return None
            if d.kind == LOBBY_EXPIRY and table.status == "lobby":
                return Notice("lobby_expired", await self._close(table, "aborted", reason="expired"))
            await self._drop_deadline(d)
            if d.kind == adm.ABANDON_CHECK:
                return await adm.swept(self, table, d)
            if d.kind == vac.VACATION_END and d.seat is not None:
                back = await vac.thawed(self, table, d.seat)
                return None if back is None else Notice("vacation_over", back, {"seats": [d.seat]})
            if d.kind in (TURN_REMINDER, TURN_WARNING) and d.seat in table.to_move():
                due = clock.due_of(self._deadlines.get(table.id, []), d.seat)
                kind = "reminder" if d.kind == TURN_REMINDER else "warning"
                return Notice(kind, table, {"seats": [d.seat], "due": due})
        return None

    async def _fire_timeout(self, d: DeadlineRow) -> Notice | None:
        async with self._lock(d.game_id):
            table = await self.get(d.game_id)
            if not await self._armed(d):
                return None
            stale = d.kind == ACTION_TIMER and d.data.get("version") != table.version
            if table.status != "active" or d.seat is None or d.seat not in table.to_move() or stale:
                await self._drop_deadline(d)
                return None
            if d.kind == ACTION_TIMER:
                # _apply drops the seat's turn deadlines, this one included, in the same transaction as the move.
                result = await self._apply(table, d.seat, d.data["action"], source="timer")
                return Notice("timeout", result.table, {"result": result, "seat": d.seat})
            result, more, policy = await self._missed_turn(table, d.seat)
        table = (more[-1] if more else result).table
        return Notice("timeout", table, {"result": result, "more": more, "seat": d.seat, "policy": policy})

    async def _missed_turn(self, table: Table, seat: int) -> tuple[ActResult, list[ActResult], str]:
        """A seat's turn deadline passed: the rules' timeout (never a move the player chose) in one write with the
        absence bookkeeping, then what the table's policy does (`policies.after_timeout`)."""
        humans = [s for s, info in enumerate(table.seats) if not info.bot and s not in table.meta.get(pol.LEFT, ())]
        # In a simultaneous round the others' clocks still run: whether they are away too is not known yet.
        pending = {d.seat for d in self._deadlines.get(table.id, []) if d.kind == TURN_TIMEOUT and d.seat != seat}
        meta, policy = pol.after_timeout(table.meta, seat, humans, pending)
        result = await self._apply(table, seat, table.rules.default_action(table.state, seat), source="timer",
                                   meta=meta)
        more = []
        if policy == "forfeit" and result.table.status == "active":
            more.append(await self._apply(result.table, seat, "resign", source="timer"))
        return result, more, policy
