"""Vacations: a player's clocks pause in every game of a server, within a yearly allowance set per server.

A vacation is a row of its own (storage ``vacations``: who, which server, from, until) and, in each of the
player's running games there, meta of the table: ``vacation`` {seat: until} (no clock is armed for the seat while
it lasts) and ``frozen`` {seat: seconds} (what was left of a clock that was running when it began). A
``vacation_end`` deadline row per game brings the seat back when it ends (restart-safe); ``/back`` ends it early.
The seat's turn is never played for it meanwhile: its clock simply does not run.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from engine import clock
from engine.errors import EngineError
from engine.parts import Parts
from engine.policies import FROZEN, VACATION, on_vacation
from engine.scheduler import Firing
from engine.tables import Notice, Table
from storage import DeadlineRow

__all__ = ["ALLOWANCE_DAYS", "FROZEN", "MIN_VACATION", "VACATION", "VACATION_END", "VacationError", "at_start",
           "come_back", "firings", "freeze", "go_away", "on_vacation", "thaw", "thawed", "used_days"]

VACATION_END = "vacation_end"  # deadline kind: the seat's vacation ends in this game
MIN_VACATION = timedelta(hours=24)
ALLOWANCE_DAYS = 30  # a server's yearly allowance unless it sets ``vacation_days``
YEAR = timedelta(days=365)


class VacationError(EngineError):
    """A vacation that cannot be taken (too short, over the allowance, none to end)."""


def used_days(vacations: list[tuple[int, datetime, datetime]], now: datetime) -> float:
    """Days of the allowance the vacations use within the year up to now (a planned one counts in full)."""
    since = now - YEAR
    return sum(max(timedelta(0), ends - max(starts, since)).total_seconds() for _, starts, ends in vacations) / 86400


async def go_away(parts: Parts, user_id: int, guild_id: int, length: timedelta) -> tuple[datetime, list[Table]]:
    """Start a vacation on a server: (its end, the running games whose clocks it pauses)."""
    if length < MIN_VACATION:
        raise VacationError("away.too_short")
    book = parts.book
    now, store = book.now(), book.store
    taken = await store.vacations(user_id, guild_id, now - YEAR)
    if any(ends > now for _, _, ends in taken):
        raise VacationError("away.already")
    allowance = await parts.guild_setting(guild_id, "vacation_days", ALLOWANCE_DAYS)
    left = float(allowance) - used_days(taken, now)
    if length.total_seconds() / 86400 > left + 1e-9:
        raise VacationError("away.over_allowance", left=max(0, int(left)), allowance=allowance)
    until = now + length
    await store.add_vacation(user_id, guild_id, now, until)
    tables = [await freeze(parts, t.id, seat, until) for t in await book.active_tables(guild_id)
              if (seat := t.seat_of(user_id)) is not None]
    return until, [t for t in tables if t is not None]


async def at_start(parts: Parts, table: Table) -> tuple[Table, list[DeadlineRow]]:
    """A game starting while one of its players is on vacation there: the seat starts paused (its meta and its
    ``vacation_end`` row, saved with the start)."""
    if table.guild_id is None:
        return table, []
    book = parts.book
    now, meta, rows = book.now(), dict(table.meta), []
    for seat, info in enumerate(table.seats):
        if info.bot or info.user_id is None:
            continue
        ends = [e for _, s, e in await book.store.vacations(info.user_id, table.guild_id, now) if s <= now]
        if ends:
            meta[VACATION] = {**(meta.get(VACATION) or {}), str(seat): max(ends).isoformat()}
            rows.append(DeadlineRow(table.id, VACATION_END, max(ends), seat))
    return (replace(table, meta=meta), rows) if rows else (table, [])


async def come_back(parts: Parts, user_id: int, guild_id: int) -> list[Table]:
    """End the player's running vacation on a server early: their clocks run again."""
    book = parts.book
    now = book.now()
    current = [v for v in await book.store.vacations(user_id, guild_id, now) if v[1] <= now]
    if not current:
        raise VacationError("away.not_away")
    for vacation_id, _, _ in current:
        await book.store.end_vacation(vacation_id, now)
    tables = [await thaw(parts, t.id, seat) for t in await book.active_tables(guild_id)
              if (seat := t.seat_of(user_id)) is not None]
    return [t for t in tables if t is not None]


async def freeze(parts: Parts, table_id: int, seat: int, until: datetime) -> Table | None:
    """Pause the seat's clock in one game until ``until`` (None: the game is not running)."""
    async with parts.book.editing(table_id) as e:
        table = e.table
        if table.status != "active":
            return None
        rows = parts.book.deadlines_of(table_id)
        left = clock.time_left(rows, parts.book.now())
        meta = dict(table.meta)
        meta[VACATION] = {**(meta.get(VACATION) or {}), str(seat): until.isoformat()}
        if seat in left:
            meta[FROZEN] = {**(meta.get(FROZEN) or {}), str(seat): left[seat]}
        drop = [d.id for d in rows if d.seat == seat and d.kind in (*clock.TURN_KINDS, VACATION_END)
                and d.id is not None]
        return await e.save(replace(table, meta=meta), drop=drop,
                            add=[DeadlineRow(table_id, VACATION_END, until, seat)], bump=False)


async def thaw(parts: Parts, table_id: int, seat: int) -> Table | None:
    """The seat's vacation ends in one game: its clock runs again with what was left of it (a fresh clock for a
    turn that began during the vacation)."""
    async with parts.book.editing(table_id) as e:
        return await thawed(parts, e.table, seat)


async def thawed(parts: Parts, table: Table, seat: int) -> Table | None:
    """`thaw` under the table's lock (the scheduler's ``vacation_end`` row calls this)."""
    if table.status != "active" or str(seat) not in (table.meta.get(VACATION) or {}):
        return None
    meta = dict(table.meta)
    meta[VACATION] = {k: v for k, v in meta[VACATION].items() if k != str(seat)}
    frozen = dict(meta.get(FROZEN) or {})
    left = frozen.pop(str(seat), None)
    meta[FROZEN] = frozen
    back = replace(table, meta=meta)
    book, timers = parts.book, parts.timers
    rows = book.deadlines_of(table.id)
    drop = [d.id for d in rows if d.seat == seat and d.kind == VACATION_END and d.id is not None]
    timed = {d.seat for d in rows if d.kind in clock.TURN_KINDS and d.seat != seat}
    add = timers.fresh(back, keep=timed | ({seat} if left is not None else set()))
    if left is not None and seat in back.humans_to_move():
        add += timers.restarted(table.id, seat, left)
    return await book.save(table, back, drop=drop, add=add, bump=False)


def firings(parts: Parts) -> dict[str, Firing]:
    """A vacation's end in one game: the seat's clock runs again."""

    async def ended(table: Table, d: DeadlineRow) -> Notice | None:
        # `thawed` drops the row in the write that restarts the clock: a process killed before it leaves the row
        # to fire again (after its claim's lease), so a vacation always ends.
        back = None if d.seat is None else await thawed(parts, table, d.seat)
        if back is None or d.seat is None:
            await parts.book.drop_deadline(d)
            return None
        return Notice("vacation_over", back, {"seats": [d.seat]})

    return {VACATION_END: Firing(ended, keeps_row=True)}
