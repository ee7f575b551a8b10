"""Undo: a player takes back their own last action, as long as taking it back changes nothing anyone learned.

The rules say whether one action may be taken back (`Game.undo_blocker`: nothing hidden revealed, no randomness
drawn, the game not ended). The engine adds what only the log knows:
- the action is the seat's last standing one and the seat's own choice (source ``player``: not the clock's
  timeout nor a stand-in bot's move);
- no other seat has acted since, except seats that were already to move when it was made (a simultaneous round:
  their choices could not depend on it) and whose own actions may be taken back too (no round closed since);
- the table's play setting ``undo`` (engine/policies.py): ``own`` (default), ``confirm`` (another player at the
  table says yes first) or ``off``.

The log keeps both rows: the action, then an ``undo`` row of the same seat (source ``player``). Replaying drops the
seat's last standing action at each ``undo`` row (`standing`), so the log still is the game: the undone state is
computed by replaying the log without the action, never restored from a saved snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from engine import clock
from engine import policies as pol
from engine.errors import EngineError, GameOverError, NotSeatedError, StaleVersionError
from engine.log import UNDO
from engine.log import standing as standing  # re-exported: replaying drops undone actions (engine/log.py)
from engine.parts import Parts
from engine.tables import ActResult, Table
from engine.timers import ACTION_TIMER
from rules.base import Event, RulesError
from storage import ActionRow

OWN, OFF, CONFIRM = "own", "off", "confirm"
NOBODY = -1  # no actor's clock to settle or drop: the undoing seat did not use its turn


class UndoRefusedError(EngineError):
    """The action may not be taken back; the message says why (an ``undo.*`` key)."""


@dataclass(frozen=True)
class Plan:
    """An undo that may be applied: the table as checked, the seat, the row taken back and the state without it."""

    table: Table
    seat: int
    row: ActionRow
    state: Any
    needs_confirmation: bool


def standing_rows(rows: Sequence[ActionRow]) -> list[ActionRow]:
    """`standing` on the store's rows (kept whole: their sources and times matter here)."""
    out: list[ActionRow] = []
    for row in rows:
        if row.action != UNDO:
            out.append(row)
            continue
        index = next((i for i in range(len(out) - 1, -1, -1) if out[i].seat == row.seat), None)
        if index is not None:
            del out[index]
    return out


def mode_of(table: Table) -> str:
    return pol.settings_of(table.meta).undo


def others(table: Table, seat: int) -> list[int]:
    """The user ids who may confirm an undo: the other humans still in the game."""
    left = set(table.meta.get(pol.LEFT, ()))
    return [info.user_id for i, info in enumerate(table.seats)
            if i != seat and not info.bot and info.user_id is not None and i not in left]


async def plan(parts: Parts, table_id: int, user_id: int) -> Plan:
    """Check an undo without applying it (the surface asks this before it shows Accept / Decline)."""
    table = await parts.book.get(table_id)
    if table.status != "active":
        raise GameOverError("engine.not_running" if table.status != "lobby" else "engine.not_started")
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeatedError("engine.not_seated")
    mode = mode_of(table)
    if mode == OFF:
        raise UndoRefusedError("undo.off")
    rows = standing_rows(await parts.book.store.actions(table_id))
    index = next((i for i in range(len(rows) - 1, -1, -1) if rows[i].seat == seat), None)
    if index is None:
        raise UndoRefusedError("undo.nothing")
    if rows[index].source != "player":
        raise UndoRefusedError("undo.not_chosen")
    state = _without(table, rows, index)
    return Plan(table, seat, rows[index], state, mode == CONFIRM and bool(others(table, seat)))


def _without(table: Table, rows: list[ActionRow], index: int) -> Any:
    """The state with ``rows[index]`` taken back, replayed from the log; refused when the rules or a later action
    forbid it."""
    rules = table.rules
    state = rules.new(len(table.seats), table.options, table.seed)
    for row in rows[:index]:
        state, _ = rules.apply(state, row.seat, row.action)
    before = state
    waiting = rules.to_move(before)  # seats whose later moves cannot depend on this one
    after, events = rules.apply(before, rows[index].seat, rows[index].action)
    _refuse_if_blocked(table, before, after, events)
    for row in rows[index + 1:]:
        if row.seat not in waiting:
            raise UndoRefusedError("undo.later")
        nxt, events = rules.apply(after, row.seat, row.action)
        _refuse_if_blocked(table, after, nxt, events)
        after = nxt
    state = before
    try:
        for row in rows[index + 1:]:
            state, _ = rules.apply(state, row.seat, row.action)
    except RulesError:  # a later move needed this one after all
        raise UndoRefusedError("undo.later") from None
    return state


def _refuse_if_blocked(table: Table, before: Any, after: Any, events: list[Event]) -> None:
    hook = getattr(table.rules, "undo_blocker", None)
    reason = "undo.reason.unsupported" if hook is None else hook(before, after, events)
    if reason is not None:
        raise UndoRefusedError(reason)


async def undo(parts: Parts, table_id: int, user_id: int, *, interaction_id: int | None = None,
               version: int | None = None, approved_by: int | None = None) -> ActResult:
    """Take back the user's last action, under the table's lock. ``approved_by``: the other player who accepted
    it (``undo=confirm``); ``version``: the table as that player saw it when asked."""
    book = parts.book
    async with book.lock(table_id):
        try:
            return await _undo(parts, table_id, user_id, interaction_id, version, approved_by)
        except EngineError:
            done = None if interaction_id is None else await book.store.action_by_interaction(interaction_id)
            if done is None:
                raise
            table = await book.get(done.game_id)
            return ActResult(table, done.seat, done.action, [], duplicate=True, outcome=table.outcome)


async def _undo(parts: Parts, table_id: int, user_id: int, interaction_id: int | None, version: int | None,
                approved_by: int | None) -> ActResult:
    if version is not None and (await parts.book.get(table_id, seen=version)).version != version:
        raise StaleVersionError("engine.stale")
    p = await plan(parts, table_id, user_id)
    if p.needs_confirmation and approved_by not in others(p.table, p.seat):
        raise UndoRefusedError("undo.needs_confirmation")
    return await _apply(parts, p, user_id, interaction_id)


async def _apply(parts: Parts, p: Plan, user_id: int, interaction_id: int | None) -> ActResult:
    """Save the undone state with its ``undo`` row; every clock is recomputed as after a move, except the undoing
    seat's: a bank is charged (`_bank_back`), a fixed clock runs on to the old deadline (`clock.resumed_limit`)."""
    book, timers = parts.book, parts.timers
    table, now = p.table, book.now()
    after = replace(table, state=p.state, moves=table.moves + 1, outcome=None, status="active",
                    meta=_bank_back(table.meta, p.seat, now - p.row.created_at))
    after = replace(after, meta=clock.waiting_since(after.meta, table.to_move(), after.to_move(), now))
    existing = book.deadlines_of(table.id)
    drop, keep = timers.stale(existing, after, NOBODY)
    drop += [d.id for d in existing if d.kind == ACTION_TIMER and d.id is not None]
    resumed = clock.resumed_limit(table.meta, pol.settings_of(table.meta), p.seat, now)
    add = timers.fresh(after, keep=keep, limits=None if resumed is None else {p.seat: resumed})
    row = ActionRow(table.id, after.moves, p.seat, UNDO, "player", user_id, interaction_id, now)
    saved = await book.save(table, after, action=row, drop=drop, add=add)
    event = Event(UNDO, p.seat, {"action": p.row.action, "seq": p.row.seq})
    return ActResult(saved, p.seat, UNDO, [event], source="player")


def _bank_back(meta: dict[str, Any], seat: int, since: timedelta) -> dict[str, Any]:
    """A time bank gave the seat its bonus when it moved: an undo takes the bonus back, and the time since the
    move counts as thinking time (an undo is no way to refill a clock). A bank capped at that move cannot tell
    how much of the bonus it kept: the whole bonus goes, so the seat never gains by an undo."""
    settings = pol.settings_of(meta)
    limits = clock.bank_limits(settings)
    banks = clock.banks(meta)
    if limits is None or seat not in banks:
        return meta
    left = max(0.0, banks[seat] - limits[1].total_seconds() - max(0.0, since.total_seconds()))
    banks[seat] = left
    return {**meta, clock.BANKS: {str(k): v for k, v in sorted(banks.items())}}
