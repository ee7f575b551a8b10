"""The daily challenge's attempts and their leaderboard on PostgreSQL (see storage/sqlite/daily.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from storage.postgres.db import Connection, PostgresDb, rowcount, sqlite_shaped
from storage.rows import DailyRow
from storage.sqlite.daily import _DAILY_COLUMNS, _daily


def _daily_of(record: Any) -> DailyRow:
    return _daily(sqlite_shaped(record))


class PostgresDaily(PostgresDb):
    async def claim_daily(self, day: str, user_id: int, guild_id: int | None, name: str,
                          started_at: datetime) -> tuple[DailyRow, bool]:
        """The player's attempt for ``day``: a new row (True), or the one already there (False)."""

        async def write(conn: Connection) -> tuple[Any, bool]:
            status = await conn.execute(
                "INSERT INTO daily_results (day, user_id, guild_id, name, started_at) VALUES ($1, $2, $3, $4, $5)"
                " ON CONFLICT (day, user_id) DO NOTHING", day, user_id, guild_id, name, started_at)
            row = await conn.fetchrow(
                f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE day = $1 AND user_id = $2", day, user_id)
            return row, rowcount(status) == 1

        row, created = await self._write(write)
        return _daily_of(row), created

    async def daily_attempt(self, day: str, user_id: int) -> DailyRow | None:
        row = await self._row(f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE day = $1 AND user_id = $2",
                              (day, user_id))
        return None if row is None else _daily_of(row)

    async def daily_by_id(self, daily_id: int) -> DailyRow | None:
        row = await self._row(f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE id = $1", (daily_id,))
        return None if row is None else _daily_of(row)

    async def set_daily_game(self, daily_id: int, game_id: int) -> None:
        await self._write(lambda conn: conn.execute("UPDATE daily_results SET game_id = $1 WHERE id = $2",
                                                    game_id, daily_id))

    async def finish_daily(self, daily_id: int, score: int, rating: str | None, finished_at: datetime) -> bool:
        """Store the result once: False (and nothing changed) when the attempt already has one."""
        status = await self._write(lambda conn: conn.execute(
            "UPDATE daily_results SET score = $1, rating = $2, finished_at = $3 WHERE id = $4"
            " AND finished_at IS NULL", score, rating, finished_at, daily_id))
        return rowcount(status) == 1

    async def daily_leaderboard(self, day: str, guild_id: int | None = None, limit: int = 10) -> list[DailyRow]:
        rows = await self._rows(
            f"SELECT {_DAILY_COLUMNS} FROM daily_results WHERE day = $1 AND finished_at IS NOT NULL"
            " AND ($2::bigint IS NULL OR guild_id = $2) ORDER BY score DESC, finished_at, id LIMIT $3",
            (day, guild_id, limit))
        return [_daily_of(r) for r in rows]

    async def daily_rank(self, row: DailyRow, *, same_guild: bool = False) -> tuple[int, int] | None:
        """(place, finishers) of a finished attempt among the day's (its server's) finished attempts."""
        if row.score is None or row.finished_at is None:
            return None
        total, better = await self._row(
            "SELECT count(*), count(*) FILTER (WHERE score > $1 OR (score = $1 AND (finished_at < $2"
            " OR (finished_at = $2 AND id < $3)))) FROM daily_results WHERE day = $4 AND finished_at IS NOT NULL"
            " AND (NOT $5 OR guild_id IS NOT DISTINCT FROM $6)",
            (row.score, row.finished_at, row.id, row.day, same_guild, row.guild_id))
        return int(better) + 1, int(total)
