"""Time controls: how long a seat has for its move, and the reminders before the clock runs out.

Three controls, all per seat and per turn (a simultaneous round gives every seat its own clock):
- live: the game's own minutes (``turn_minutes``, Floor Plan's ``round_minutes``);
- correspondence: ``days=N`` per move (a play setting, engine/policies.py);
- a time bank: ``bank_days`` to start with, ``bonus_hours`` added after every move, never above ``cap_days``
  (lichess-style "10 days, +36 h, cap 10 days"). The bank is in the table's meta (seconds per seat) and is
  settled when the seat moves: what was left of this turn's clock plus the bonus, capped.

Reminders escalate, each a deadline row (restart-safe, dropped with the turn): a reminder at
``reminder_fraction`` of the time, a last warning shortly before the end (`warning_before`), then the timeout.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from storage import DeadlineRow

TURN_REMINDER = "turn_reminder"
TURN_WARNING = "turn_warning"  # the last warning before the clock runs out
TURN_TIMEOUT = "turn_timeout"
TURN_KINDS = (TURN_REMINDER, TURN_WARNING, TURN_TIMEOUT)  # the deadline rows of one seat's turn
BANKS = "banks"  # meta: {seat: seconds left in the seat's bank}
TURN_DUE = "turn_due"  # meta: {seat: when its last turn would have run out} (a fixed clock; an undo resumes it)
UNDO_GRACE = timedelta(minutes=1)  # an undo made after the old deadline still leaves time to play the move again
WARNING_SHARE = 0.1  # the last warning comes when a tenth of the time is left...
WARNING_MAX = timedelta(hours=12)  # ...but never earlier than 12 h before the end
WARNING_MIN = timedelta(minutes=1)  # and not at all for a clock shorter than this


def bank_limits(settings: Any) -> tuple[timedelta, timedelta, timedelta] | None:
    """(start, bonus, cap) of a time bank, or None when the table has no bank."""
    if not settings.bank_days:
        return None
    return (timedelta(days=settings.bank_days), timedelta(hours=settings.bonus_hours),
            timedelta(days=settings.cap_days or settings.bank_days))


def banks(meta: dict[str, Any]) -> dict[int, float]:
    raw = meta.get(BANKS) or {}
    return {int(k): float(v) for k, v in raw.items() if str(k).isdigit() and isinstance(v, int | float)}


def limit_for(meta: dict[str, Any], settings: Any, seat: int, minutes: int) -> timedelta | None:
    """The time the seat has for this turn: its bank, the correspondence days, or the game's minutes."""
    bank = bank_limits(settings)
    if bank is not None:
        return timedelta(seconds=banks(meta).get(seat, bank[0].total_seconds()))
    if settings.days:
        return timedelta(days=settings.days)
    return timedelta(minutes=minutes) if minutes > 0 else None


def settle(meta: dict[str, Any], settings: Any, seat: int, due: datetime | None, now: datetime) -> dict[str, Any]:
    """The seat moved (or timed out) with its clock due at ``due``: its bank keeps what was left plus the bonus,
    capped. A fixed clock (minutes, days) remembers ``due`` instead, for an undo. Unchanged for a seat that had no
    clock running."""
    bank = bank_limits(settings)
    if due is None:
        return meta
    if bank is None:
        return {**meta, TURN_DUE: {**(meta.get(TURN_DUE) or {}), str(seat): due.isoformat()}}
    _, bonus, cap = bank
    left = max(timedelta(0), due - now)
    settled = {**banks(meta), seat: min(cap, left + bonus).total_seconds()}
    return {**meta, BANKS: {str(k): v for k, v in sorted(settled.items())}}


def warning_before(limit: timedelta) -> timedelta | None:
    """How long before the end the last warning comes (None: the clock is too short for one)."""
    if limit < 2 * WARNING_MIN:
        return None
    return max(WARNING_MIN, min(WARNING_MAX, limit * WARNING_SHARE))


def steps(start: datetime, limit: timedelta, reminder_fraction: float) -> list[tuple[str, datetime]]:
    """The turn's deadlines in order: (kind, when) for the reminder, the last warning and the timeout."""
    out = [(TURN_REMINDER, start + limit * reminder_fraction)]
    before = warning_before(limit)
    if before is not None and limit - before > limit * reminder_fraction:
        out.append((TURN_WARNING, start + limit - before))
    out.append((TURN_TIMEOUT, start + limit))
    return out


def time_left(rows: Iterable[Any], now: datetime) -> dict[int, float]:
    """Seconds left on each running clock (from the turns' ``turn_timeout`` rows), for a clock put on hold."""
    return {d.seat: max(0.0, (d.due_at - now).total_seconds()) for d in rows
            if d.kind == TURN_TIMEOUT and d.seat is not None}


def restarted(table_id: int, seat: int, seconds: float, now: datetime, reminder_fraction: float,
              ) -> list[DeadlineRow]:
    """The deadline rows of a clock on hold that runs again with ``seconds`` left."""
    return [DeadlineRow(table_id, kind, due, seat)
            for kind, due in steps(now, timedelta(seconds=seconds), reminder_fraction)]


TURN_SINCE = "turn_since"  # meta: {seat: when it became that seat's move} (the inbox's "waiting since")


def waiting_since(meta: dict[str, Any], before: frozenset[int], after: frozenset[int], now: datetime,
                  ) -> dict[str, Any]:
    """The seats to move after a change, each with the time it became their move: kept for a seat that was
    already to move (a partial step in a simultaneous round does not restart its wait), ``now`` for the others."""
    old = meta.get(TURN_SINCE) or {}
    since = {str(s): old[str(s)] if s in before and str(s) in old else now.isoformat() for s in sorted(after)}
    return {**meta, TURN_SINCE: since}


def since_of(meta: dict[str, Any], seat: int) -> datetime | None:
    raw = (meta.get(TURN_SINCE) or {}).get(str(seat))
    try:
        return datetime.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        return None


def resumed_limit(meta: dict[str, Any], settings: Any, seat: int, now: datetime) -> timedelta | None:
    """After an undo, a fixed clock runs on from where the undone move stopped it (an undo never buys a fresh
    turn), with `UNDO_GRACE` at least; None for a bank (settled by the undo itself) or an unknown deadline."""
    raw = (meta.get(TURN_DUE) or {}).get(str(seat))
    if bank_limits(settings) is not None or not isinstance(raw, str):
        return None
    try:
        due = datetime.fromisoformat(raw)
    except ValueError:
        return None
    return max(UNDO_GRACE, due - now)


def due_of(rows: Iterable[Any], seat: int) -> datetime | None:
    """When the seat's turn runs out (its ``turn_timeout`` row), if its clock runs."""
    return next((d.due_at for d in rows if d.kind == TURN_TIMEOUT and d.seat == seat), None)
