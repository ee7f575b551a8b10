"""Deadline rows of a game in play: each seat's turn clock (reminder, last warning, timeout) and a surface's
action timer (a duel clock). The scheduler (engine/scheduler.py) fires them; this part decides which rows a
change keeps, drops and adds, so that they are written in the same transaction as the change.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from engine import clock
from engine import policies as pol
from engine.book import TableBook
from engine.clock import TURN_KINDS, TURN_REMINDER, TURN_TIMEOUT, TURN_WARNING
from engine.scheduler import Firing
from engine.tables import Notice, Table
from storage import DeadlineRow

LOBBY_EXPIRY = "lobby_expiry"
ACTION_TIMER = "action_timer"  # a surface's timer (a duel clock): applies its action if the game has not moved on


class TurnTimers:
    """The turn clocks over the table book: which deadline rows a change keeps, drops and adds."""

    def __init__(self, book: TableBook, reminder_fraction: float) -> None:
        self.book = book
        self.reminder_fraction = reminder_fraction

    def firings(self) -> dict[str, Firing]:
        """The reminder and the last warning of a turn (its timeout is a move: the engine's)."""
        return {TURN_REMINDER: Firing(self._remind), TURN_WARNING: Firing(self._remind)}

    async def _remind(self, table: Table, d: DeadlineRow) -> Notice | None:
        if d.seat not in table.to_move():
            return None
        due = clock.due_of(self.book.deadlines_of(table.id), d.seat)
        kind = "reminder" if d.kind == TURN_REMINDER else "warning"
        return Notice(kind, table, {"seats": [d.seat], "due": due})

    def clocks(self, table: Table) -> dict[int, datetime]:
        """When each seat's turn runs out, for the seats whose clock runs (from the deadlines loaded with the
        table: no database read)."""
        rows = self.book.deadlines_of(table.id)
        return {d.seat: d.due_at for d in rows if d.kind == TURN_TIMEOUT and d.seat is not None}

    def stale(self, existing: list[DeadlineRow], after: Table, seat: int) -> tuple[list[int], set[int]]:
        """Turn deadlines to drop (the actor's, and any seat no longer to move) and the seats that keep theirs."""
        to_move = after.to_move()
        timed = self.turn_timed(after)
        drop, keep = [], set()
        for d in existing:
            if d.kind not in TURN_KINDS or d.id is None:
                continue
            paused = after.meta.get(pol.PAUSED)  # every human away: no clock runs until one of them is back
            if after.status != "active" or not timed or paused or d.seat == seat or d.seat not in to_move:
                drop.append(d.id)
            else:
                keep.add(d.seat)
        return drop, keep

    def fresh(self, table: Table, *, keep: set[int], limits: dict[int, timedelta] | None = None) -> list[DeadlineRow]:
        """Fresh reminder, last warning and timeout rows for each human to move who has no running clock."""
        # Turn-based games time a turn, simultaneous ones a round: either way each seat to move gets the clock:
        # its time bank, the correspondence days, or the game's own minutes (engine/clock.py).
        if table.status != "active" or not self.turn_timed(table) or table.meta.get(pol.PAUSED):
            return []
        settings = pol.settings_of(table.meta)
        minutes = int(table.options.get("turn_minutes") or table.options.get("round_minutes") or 0)
        now, rows = self.book.now(), []
        away = pol.on_vacation(table.meta)  # a seat on vacation has no clock until it ends
        for seat in table.humans_to_move():
            limit = (limits or {}).get(seat) or clock.limit_for(table.meta, settings, seat, minutes)
            if seat in keep or limit is None or seat in away:
                continue
            rows += [DeadlineRow(table.id, kind, due, seat)
                     for kind, due in clock.steps(now, limit, self.reminder_fraction)]
        return rows

    def restarted(self, table_id: int, seat: int, seconds: float) -> list[DeadlineRow]:
        """The rows of a clock on hold that runs again with ``seconds`` left."""
        return clock.restarted(table_id, seat, seconds, self.book.now(), self.reminder_fraction)

    @staticmethod
    def turn_timed(table: Table) -> bool:
        """A game may suspend the generic turn timer (The Floor's duels keep their own clocks)."""
        timed = getattr(table.rules, "turn_timed", None)
        return table.state is None or timed is None or bool(timed(table.state))

    async def arm_timer(self, table_id: int, *, version: int, seat: int, action: str, due_at: datetime,
                        meta: dict[str, Any] | None = None) -> bool:
        """Apply ``action`` for ``seat`` at ``due_at`` unless the game moves on first (any move drops it). One such
        timer per game: arming replaces the previous one. ``meta`` is surface bookkeeping saved in the same
        write (a clock's base). False, and nothing saved, when the game already moved past ``version``."""
        async with self.book.editing(table_id) as e:
            table = e.table
            if table.status != "active" or table.version != version:
                return False
            drop = [d.id for d in self.book.deadlines_of(table_id) if d.kind == ACTION_TIMER and d.id is not None]
            row = DeadlineRow(table_id, ACTION_TIMER, due_at, seat, {"action": action, "version": version})
            new = replace(table, meta={**table.meta, **meta}) if meta else table
            await e.save(new, drop=drop, add=[row], bump=False)
            return True

    async def timer_due(self, table_id: int) -> datetime | None:
        """When the game's action timer fires (None without one)."""
        await self.book.get(table_id)  # loads its deadlines with it
        rows = [d for d in self.book.deadlines_of(table_id) if d.kind == ACTION_TIMER]
        return min((d.due_at for d in rows), default=None)
