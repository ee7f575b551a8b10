"""The daily challenge's attempts and their leaderboard."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from storage.rows import DailyRow
from storage.sqlite.codec import dt as _dt
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.statements import fetch_one, run

_DAILY_COLUMNS = "id, day, user_id, guild_id, name, game_id, score, rating, started_at, finished_at"


def _daily(row: Sequence[Any]) -> DailyRow:
    did, day, user_id, guild_id, name, game_id, score, rating, started, finished = row
    return DailyRow(did, day, user_id, guild_id, name, game_id, score, rating, _dt(started),
                    None if finished is None else _dt(finished))


class SqliteDaily(SqliteDb):
    # --- daily challenge -------------------------------------------------------------------------------

    async def claim_daily(self, day: str, user_id: int, guild_id: int | None, name: str,
                          started_at: datetime) -> tuple[DailyRow, bool]:
        """The player's attempt for ``day``: a new row (True), or the one already there (False)."""

        def write(conn: sqlite3.Connection) -> tuple[Any, bool]:
            cur = run(
                conn, "INSERT INTO daily_results (day, user_id, guild_id, name, started_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (day, user_id) DO NOTHING",
                (day, user_id, guild_id, name, _ts(started_at)),
            )
            row = fetch_one(conn, f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE day = ? AND user_id = ?",
                            (day, user_id))
            return row, cur.rowcount == 1

        row, created = await self._write(write)
        assert row is not None
        return _daily(row), created

    async def daily_attempt(self, day: str, user_id: int) -> DailyRow | None:
        row = await self._row(f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE day = ? AND user_id = ?",
                              (day, user_id))
        return None if row is None else _daily(row)

    async def daily_by_id(self, daily_id: int) -> DailyRow | None:
        row = await self._row(f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE id = ?", (daily_id,))
        return None if row is None else _daily(row)

    async def set_daily_game(self, daily_id: int, game_id: int) -> None:
        await self._write(lambda conn: run(
            conn, "UPDATE daily_results SET game_id = ? WHERE id = ?", (game_id, daily_id)).rowcount)

    async def finish_daily(self, daily_id: int, score: int, rating: str | None, finished_at: datetime) -> bool:
        """Store the result once: False (and nothing changed) when the attempt already has one."""
        params = (score, rating, _ts(finished_at), daily_id)
        changed = await self._write(lambda conn: run(
            conn,
            "UPDATE daily_results SET score = ?, rating = ?, finished_at = ? WHERE id = ? AND finished_at IS NULL",
            params).rowcount)
        return changed == 1

    async def daily_leaderboard(self, day: str, guild_id: int | None = None, limit: int = 10) -> list[DailyRow]:
        """The day's finished attempts, best first (higher score, then the earlier finish); one server's when
        ``guild_id`` is given, every server's otherwise."""
        where, params = "day = ? AND finished_at IS NOT NULL", [day]
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._rows(
            f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE {where} ORDER BY score DESC, finished_at, id LIMIT ?",
            (*params, limit),
        )
        return [_daily(r) for r in rows]

    async def daily_rank(self, row: DailyRow, *, same_guild: bool = False) -> tuple[int, int] | None:
        """(place, finishers) of a finished attempt among the day's (its server's) finished attempts."""
        if row.score is None or row.finished_at is None:
            return None
        where, params = "day = ? AND finished_at IS NOT NULL", [row.day]
        if same_guild:
            where += " AND guild_id IS ?"
            params.append(row.guild_id)
        finished = _ts(row.finished_at)
        total, better = await self._row(
            f"SELECT COUNT(*), SUM(score > ? OR (score = ? AND (finished_at < ? OR (finished_at = ? AND id < ?))))"
            f" FROM daily_results WHERE {where}",
            (row.score, row.score, finished, finished, row.id, *params),
        )
        return int(better or 0) + 1, int(total)
