"""The move path: a seat's action checked by the rules and saved with its clocks, results and log row in one write;
and the timeouts, which are moves too (a turn that runs out is logged as the seat's default action, source
``timer``), so a game replays exactly from ``new(seed)`` and its log."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from engine import clock
from engine import policies as pol
from engine import results as res
from engine.book import TableBook
from engine.clock import TURN_KINDS, TURN_TIMEOUT
from engine.scheduler import Firing
from engine.tables import ActResult, Notice, Table
from engine.timers import ACTION_TIMER, TurnTimers
from storage import ActionRow, DeadlineRow


class Moves:
    """Applies actions to the book's tables: players', bots', the clock's."""

    def __init__(self, book: TableBook, timers: TurnTimers) -> None:
        self.book = book
        self.timers = timers

    async def apply(
        self,
        table: Table,
        seat: int,
        action: str,
        *,
        source: str,
        user_id: int | None = None,
        interaction_id: int | None = None,
        meta: dict[str, Any] | None = None,
    ) -> ActResult:
        """Apply ``action`` for ``seat`` (under the game's lock) and save it; `RulesError` saves nothing."""
        rules, now = table.rules, self.book.now()
        text = rules.notation(table.state, action)  # one spelling per move in the log, whatever was typed
        state, events = rules.apply(table.state, seat, text)  # raises RulesError: nothing is saved
        outcome = rules.outcome(state)
        after = replace(
            table, state=state, moves=table.moves + 1, outcome=outcome,
            status="finished" if outcome is not None else "active",
            meta=self.meta_after(table, seat, text, source, meta),
        )
        after = replace(after, meta=clock.waiting_since(after.meta, table.to_move(), after.to_move(), now))
        after, finish = res.settle(table, after, seat, source, now)  # results and ratings, if it ended
        existing = self.book.deadlines_of(table.id)
        if seat >= 0:  # the actor's time bank keeps what was left of this turn, plus the bonus
            settings = pol.settings_of(after.meta)
            after = replace(after, meta=clock.settle(after.meta, settings, seat, clock.due_of(existing, seat), now))
        drop, keep = self.timers.stale(existing, after, seat)
        add = self.timers.fresh(after, keep=keep)
        # An action timer was armed for the position before this move: whatever it was for has changed.
        drop += [d.id for d in existing if d.kind == ACTION_TIMER and d.id is not None]
        row = ActionRow(table.id, after.moves, seat, text, source, user_id, interaction_id, now)
        saved = await self.book.save(table, after, action=row, drop=drop, add=add, finish=finish)
        return ActResult(saved, seat, text, events, outcome=outcome, source=source)

    @staticmethod
    def meta_after(table: Table, seat: int, text: str, source: str, meta: dict[str, Any] | None) -> dict[str, Any]:
        """The absence bookkeeping a move changes: its player is back (missed turns, stand-in, pause cleared), and
        a resignation leaves the seat out of who is waited for."""
        out = table.meta if meta is None else meta
        if source == "player" and seat >= 0 and pol.is_away(out, seat):
            out = pol.came_back(out, seat)
        if text == "resign":
            out = {**out, pol.LEFT: sorted({*out.get(pol.LEFT, ()), seat})}
        return out

    async def back(self, table: Table, seat: int) -> Table:
        """The seat's player is back (under the game's lock): no stand-in, and a paused game's clocks run again."""
        back = replace(table, meta=pol.came_back(table.meta, seat))
        timed = {d.seat for d in self.book.deadlines_of(table.id) if d.kind in TURN_KINDS}
        return await self.book.save(table, back, add=self.timers.fresh(back, keep=timed), bump=False)

    # --- the clock's moves ---------------------------------------------------------------------------------------

    def firings(self, after: Callable[[Notice], Awaitable[None]]) -> dict[str, Firing]:
        """A turn's timeout and a surface's action timer; ``after(notice)``: what follows a timeout (the bots)."""
        timeout = Firing(self._timeout, keeps_row=True, after=after)
        return {TURN_TIMEOUT: timeout, ACTION_TIMER: timeout}

    async def _timeout(self, table: Table, d: DeadlineRow) -> Notice | None:
        stale = d.kind == ACTION_TIMER and d.data.get("version") != table.version
        if table.status != "active" or d.seat is None or d.seat not in table.to_move() or stale:
            await self.book.drop_deadline(d)
            return None
        if d.kind == ACTION_TIMER:
            # apply drops the seat's turn deadlines, this one included, in the same transaction as the move.
            result = await self.apply(table, d.seat, d.data["action"], source="timer")
            return Notice("timeout", result.table, {"result": result, "seat": d.seat})
        result, more, policy = await self._missed_turn(table, d.seat)
        table = (more[-1] if more else result).table
        return Notice("timeout", table, {"result": result, "more": more, "seat": d.seat, "policy": policy})

    async def _missed_turn(self, table: Table, seat: int) -> tuple[ActResult, list[ActResult], str]:
        """A seat's turn deadline passed: the rules' timeout (never a move the player chose) in one write with the
        absence bookkeeping, then what the table's policy does (`policies.after_timeout`)."""
        humans = [s for s, info in enumerate(table.seats) if not info.bot and s not in table.meta.get(pol.LEFT, ())]
        # In a simultaneous round the others' clocks still run: whether they are away too is not known yet.
        pending = {d.seat for d in self.book.deadlines_of(table.id) if d.kind == TURN_TIMEOUT and d.seat != seat}
        meta, policy = pol.after_timeout(table.meta, seat, humans, pending)
        result = await self.apply(table, seat, table.rules.default_action(table.state, seat), source="timer",
                                  meta=meta)
        more = []
        if policy == "forfeit" and result.table.status == "active":
            more.append(await self.apply(result.table, seat, "resign", source="timer"))
        return result, more, policy
