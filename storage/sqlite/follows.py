"""Spectators' follows (migration 0012): who follows which game, how, and when their last digest went out."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from storage.rows import FollowRow
from storage.sqlite.codec import dt as _dt
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.statements import run

_COLUMNS = "game_id, user_id, guild_id, mode, created_at, last_sent_at, sent_moves"


def _follow(row: Sequence[Any]) -> FollowRow:
    return FollowRow(row[0], row[1], row[2], row[3], _dt(row[4]), None if row[5] is None else _dt(row[5]), row[6])


class SqliteFollows(SqliteDb):
    async def add_follow(self, game_id: int, user_id: int, guild_id: int, mode: str, now: datetime) -> bool:
        """Follow a game; False (nothing changed) when the member already follows it."""
        def write(conn: sqlite3.Connection) -> bool:
            cur = run(conn, "INSERT INTO follows (game_id, user_id, guild_id, mode, created_at) VALUES (?, ?, ?, ?, ?)"
                      " ON CONFLICT (game_id, user_id) DO NOTHING", (game_id, user_id, guild_id, mode, _ts(now)))
            return cur.rowcount > 0

        return await self._write(write)

    async def remove_follows(self, game_id: int, user_ids: Sequence[int] | None = None) -> int:
        """End these members' follows of a game (every follow of it when ``user_ids`` is None): how many ended."""
        if user_ids is not None and not user_ids:
            return 0
        sql, params = "DELETE FROM follows WHERE game_id = ?", [game_id]
        if user_ids is not None:
            sql += f" AND user_id IN ({', '.join('?' for _ in user_ids)})"
            params += list(user_ids)
        return await self._write(lambda conn: run(conn, sql, params).rowcount)

    async def follows_of_game(self, game_id: int) -> list[FollowRow]:
        rows = await self._rows(f"SELECT {_COLUMNS} FROM follows WHERE game_id = ? ORDER BY created_at, user_id",
                                (game_id,))
        return [_follow(r) for r in rows]

    async def follows_of_user(self, user_id: int, guild_id: int | None = None) -> list[FollowRow]:
        """The member's follows, on one server or (None) on every one, oldest first."""
        where, params = "user_id = ?", [user_id]
        if guild_id is not None:
            where, params = where + " AND guild_id = ?", [*params, guild_id]
        rows = await self._rows(f"SELECT {_COLUMNS} FROM follows WHERE {where} ORDER BY created_at, game_id",
                                params)
        return [_follow(r) for r in rows]

    async def mark_follow_sent(self, game_id: int, user_id: int, now: datetime, moves: int) -> None:
        """A digest of the game up to ``moves`` moves went to the member at ``now``."""
        await self._write(lambda conn: run(
            conn, "UPDATE follows SET last_sent_at = ?, sent_moves = ? WHERE game_id = ? AND user_id = ?",
            (_ts(now), moves, game_id, user_id)))
