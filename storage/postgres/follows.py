"""Spectators' follows on PostgreSQL (see storage/sqlite/follows.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from storage.postgres.db import Connection, PostgresDb
from storage.rows import FollowRow

_COLUMNS = "game_id, user_id, guild_id, mode, created_at, last_sent_at, sent_moves"


def _follow(row: Any) -> FollowRow:
    return FollowRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6])


class PostgresFollows(PostgresDb):
    async def add_follow(self, game_id: int, user_id: int, guild_id: int, mode: str, now: datetime) -> bool:
        async def write(conn: Connection) -> bool:
            status = await conn.execute(
                "INSERT INTO follows (game_id, user_id, guild_id, mode, created_at) VALUES ($1, $2, $3, $4, $5)"
                " ON CONFLICT (game_id, user_id) DO NOTHING", game_id, user_id, guild_id, mode, now)
            return not status.endswith(" 0")

        return await self._write(write)

    async def remove_follows(self, game_id: int, user_ids: Sequence[int] | None = None) -> int:
        if user_ids is not None and not user_ids:
            return 0

        async def write(conn: Connection) -> int:
            if user_ids is None:
                status = await conn.execute("DELETE FROM follows WHERE game_id = $1", game_id)
            else:
                status = await conn.execute("DELETE FROM follows WHERE game_id = $1 AND user_id = ANY($2::bigint[])",
                                            game_id, list(user_ids))
            return int(status.rsplit(" ", 1)[-1])

        return await self._write(write)

    async def follows_of_game(self, game_id: int) -> list[FollowRow]:
        rows = await self._rows(f"SELECT {_COLUMNS} FROM follows WHERE game_id = $1 ORDER BY created_at, user_id",
                                (game_id,))
        return [_follow(r) for r in rows]

    async def follows_of_user(self, user_id: int, guild_id: int | None = None) -> list[FollowRow]:
        if guild_id is None:
            rows = await self._rows(f"SELECT {_COLUMNS} FROM follows WHERE user_id = $1 ORDER BY created_at, game_id",
                                    (user_id,))
        else:
            rows = await self._rows(f"SELECT {_COLUMNS} FROM follows WHERE user_id = $1 AND guild_id = $2"
                                    " ORDER BY created_at, game_id", (user_id, guild_id))
        return [_follow(r) for r in rows]

    async def mark_follow_sent(self, game_id: int, user_id: int, now: datetime, moves: int) -> None:
        async def write(conn: Connection) -> None:
            await conn.execute("UPDATE follows SET last_sent_at = $1, sent_moves = $2 WHERE game_id = $3"
                               " AND user_id = $4", now, moves, game_id, user_id)

        await self._write(write)
