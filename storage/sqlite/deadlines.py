"""Deadlines: the clocks, reminders and timers the scheduler fires."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from storage.rows import DeadlineRow, Shards
from storage.sqlite.checks import MAX_INT, _integer, _json_of, _moment, _text
from storage.sqlite.codec import dt as _dt
from storage.sqlite.codec import dumps as _json
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.statements import fetch, run

log = logging.getLogger(__name__)

_DEADLINES_OF_GAME = "SELECT id, game_id, kind, seat, due_at, data FROM deadlines WHERE game_id = ? ORDER BY due_at, id"


def _insert_deadlines(conn: sqlite3.Connection, game_id: int, deadlines: Iterable[DeadlineRow]) -> list[DeadlineRow]:
    """Insert (on the connection's thread); the added rows with their ids."""
    added = []
    for d in deadlines:
        cur = run(conn, "INSERT INTO deadlines (game_id, kind, seat, due_at, data) VALUES (?, ?, ?, ?, ?)",
                  (game_id, d.kind, d.seat, _ts(d.due_at), _json(d.data)))
        added.append(replace(d, game_id=game_id, id=cur.lastrowid))
    return added


def _deadline(row: Sequence[Any]) -> DeadlineRow:
    """A deadline row, every column checked as a game row's are; ValueError when one fails."""
    did, game_id, kind, seat, due, data = row
    return DeadlineRow(game_id=_integer(1)(game_id), kind=_text(kind), due_at=_moment(due),
                       seat=_integer(-MAX_INT, null=True)(seat), data=_json_of(dict)(data), id=did)


def _sound_deadlines(raw: Iterable[Sequence[Any]], game_id: int) -> list[DeadlineRow]:
    """A game's deadline rows that decode; a damaged one is left out (logged): the scheduler sets it aside
    (`SqliteStore.due_deadlines`), and it must not stop the game."""
    deadlines = []
    for r in raw:
        try:
            deadlines.append(_deadline(r))
        except (ValueError, TypeError):
            log.error("deadline row %s of game %s is damaged; left out: %r", r[0], game_id, r)
    return deadlines


def _claimable(now: datetime, owner: str, limit: int, shards: Shards | None,
               exclude: set[int] | frozenset[int]) -> tuple[str, tuple[Any, ...]]:
    """The due rows ``owner`` may claim: not damaged nor excluded, not under another owner's live lease, and (with
    ``shards``) of games in guilds on those shards (a game without a guild: shard 0's)."""
    marks = ", ".join("?" for _ in exclude)
    sql = ("SELECT d.id, d.game_id, d.kind, d.seat, d.due_at, d.data FROM deadlines d JOIN games g ON g.id = d.game_id"
           " WHERE d.due_at <= ? AND (d.claim_until IS NULL OR d.claim_until <= ? OR d.claimed_by = ?)"
           " AND d.game_id NOT IN (SELECT game_id FROM damaged_games)"
           f"{f' AND d.game_id NOT IN ({marks})' if exclude else ''}")
    params: tuple[Any, ...] = (_ts(now), _ts(now), owner, *sorted(exclude))
    if shards is not None:
        ids = ", ".join("?" for _ in shards.ids)
        sql += f" AND (CASE WHEN g.guild_id IS NULL THEN 0 ELSE (g.guild_id >> 22) % ? END) IN ({ids})"
        params += (shards.count, *shards.ids)
    return sql + " ORDER BY d.due_at, d.id LIMIT ?", (*params, limit)


def _decoded(raw: Iterable[Sequence[Any]]) -> tuple[list[DeadlineRow], list[int]]:
    """The rows that decode, and the ids of those that do not (damaged: postponed by the caller)."""
    rows, broken = [], []
    for r in raw:
        try:
            rows.append(_deadline(r))
        except (ValueError, TypeError):  # a damaged deadline row: set aside, never in the way of the others
            log.error("deadline row %s is damaged; postponed by an hour: %r", r[0], r)
            broken.append(r[0])
    return rows, broken


class SqliteDeadlines(SqliteDb):
    async def deadlines_for(self, game_id: int) -> list[DeadlineRow]:
        return _sound_deadlines(await self._rows(_DEADLINES_OF_GAME, (game_id,)), game_id)

    async def due_deadlines(self, now: datetime, limit: int = 100, exclude: set[int] | frozenset[int] = frozenset(),
                            ) -> list[DeadlineRow]:
        """Deadlines due by ``now``, oldest first, leaving out damaged games' and the ``exclude``d games'."""
        marks = ", ".join("?" for _ in exclude)
        raw = await self._rows(
            "SELECT id, game_id, kind, seat, due_at, data FROM deadlines WHERE due_at <= ?"
            " AND game_id NOT IN (SELECT game_id FROM damaged_games)"
            f"{f' AND game_id NOT IN ({marks})' if exclude else ''} ORDER BY due_at, id LIMIT ?",
            (_ts(now), *sorted(exclude), limit),
        )
        rows, broken = _decoded(raw)
        for deadline_id in broken:
            await self.postpone_deadline(deadline_id, now + timedelta(hours=1))
        return rows

    async def claim_due_deadlines(self, now: datetime, owner: str, lease_seconds: float, limit: int = 100,
                                  shards: Shards | None = None, exclude: set[int] | frozenset[int] = frozenset(),
                                  ) -> list[DeadlineRow]:
        """Claim the due deadlines ``owner`` may fire (see `_claimable`) until ``now + lease_seconds``, oldest
        first: read and marked in one write transaction, so two processes never claim the same row (SQLite's
        write lock orders them). A claim whose lease ended (its owner was killed) is claimable again."""
        sql, params = _claimable(now, owner, limit, shards, exclude)
        if not await self._rows(sql, params):  # the usual pass: nothing due, no write lock taken
            return []
        until = _ts(now + timedelta(seconds=lease_seconds))

        def claim(conn: sqlite3.Connection) -> list[Any]:
            raw = fetch(conn, sql, params)
            marks = ", ".join("?" for _ in raw)
            run(conn, f"UPDATE deadlines SET claimed_by = ?, claim_until = ? WHERE id IN ({marks})",
                (owner, until, *(r[0] for r in raw)))
            return raw

        rows, broken = _decoded(await self._write(claim))
        for deadline_id in broken:
            await self.postpone_deadline(deadline_id, now + timedelta(hours=1))
        return rows

    async def next_deadline(self) -> datetime | None:
        (due,) = await self._row(
            "SELECT MIN(due_at) FROM deadlines WHERE game_id NOT IN (SELECT game_id FROM damaged_games)")
        try:
            return None if due is None else _dt(due)
        except ValueError:
            return None

    async def drop_deadline(self, deadline_id: int) -> None:
        await self._write(lambda conn: run(conn, "DELETE FROM deadlines WHERE id = ?", (deadline_id,)).rowcount)

    async def postpone_deadline(self, deadline_id: int, due_at: datetime) -> None:
        """Move a deadline that failed to fire later (a back-off), so it does not come first in every pass; its
        claim is released (whoever is due to fire it then claims it again)."""
        params = (_ts(due_at), deadline_id)
        await self._write(lambda conn: run(conn, "UPDATE deadlines SET due_at = ?, claimed_by = NULL,"
                                                 " claim_until = NULL WHERE id = ?", params).rowcount)
