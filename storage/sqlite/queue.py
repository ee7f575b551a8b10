"""The /queue entries and /challenge rows (migration 0013, docs/matchmaking.md)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from storage.errors import ChallengeClosedError, QueueEntryGoneError
from storage.rows import ChallengeRow, QueueRow
from storage.sqlite.codec import dt as _dt
from storage.sqlite.codec import dumps as _json
from storage.sqlite.codec import loads as _loads
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.statements import fetch_one, run

QUEUE_COLUMNS = "guild_id, user_id, game, players, time, rating, bots_ok, channel_id, name, joined_at"
CHALLENGE_COLUMNS = ("id, guild_id, channel_id, challenger_id, challenged_id, game, options, status, created_at,"
                     " expires_at, message_id, game_id")
# Re-joining updates what is wanted but keeps the first join time (a no-show's partners go back with theirs).
UPSERT_QUEUE = (f"INSERT INTO queue_entries ({QUEUE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET players = excluded.players,"
                " time = excluded.time, rating = excluded.rating, bots_ok = excluded.bots_ok,"
                " channel_id = excluded.channel_id, name = excluded.name,"
                " joined_at = MIN(queue_entries.joined_at, excluded.joined_at)")


_KEY = "guild_id = ? AND user_id = ? AND game = ?"


def take_entries(conn: sqlite3.Connection, take: Sequence[QueueRow], drop: Sequence[QueueRow]) -> None:
    """In the caller's transaction: remove exactly ``take`` (`QueueEntryGoneError` if one of them is gone, and the
    transaction rolls back) and whatever of ``drop`` is there."""
    for r in take:
        if fetch_one(conn, f"SELECT 1 FROM queue_entries WHERE {_KEY}", (r.guild_id, r.user_id, r.game)) is None:
            raise QueueEntryGoneError(f"queue entry ({r.guild_id}, {r.user_id}, {r.game}) is gone")
    for r in (*take, *drop):
        run(conn, f"DELETE FROM queue_entries WHERE {_KEY}", (r.guild_id, r.user_id, r.game))


def accept_challenge(conn: sqlite3.Connection, challenge_id: int, game_id: int) -> None:
    """In the caller's transaction: the open challenge is accepted with its game (`ChallengeClosedError`, and the
    transaction rolls back, if it was not open any more)."""
    if run(conn, "UPDATE challenges SET status = 'accepted', game_id = ? WHERE id = ? AND status = 'open'",
           (game_id, challenge_id)).rowcount != 1:
        raise ChallengeClosedError(f"challenge {challenge_id} is not open")


def queue_row(r: Sequence[Any]) -> QueueRow:
    return QueueRow(r[0], r[1], r[2], r[3], r[4], float(r[5]), bool(r[6]), r[7], r[8], _dt(r[9]))


def challenge_row(r: Sequence[Any]) -> ChallengeRow:
    options = _loads(r[6])
    return ChallengeRow(r[0], r[1], r[2], r[3], r[4], r[5], options if isinstance(options, dict) else {}, r[7],
                        _dt(r[8]), _dt(r[9]), r[10], r[11])


class SqliteQueue(SqliteDb):
    async def put_queue_entries(self, rows: Sequence[QueueRow]) -> None:
        params = [(r.guild_id, r.user_id, r.game, r.players, r.time, r.rating, int(r.bots_ok), r.channel_id,
                   r.name, _ts(r.joined_at)) for r in rows]

        def write(conn: sqlite3.Connection) -> None:
            for p in params:
                run(conn, UPSERT_QUEUE, p)

        await self._write(write)

    async def queue_entries(self, guild_id: int | None = None) -> list[QueueRow]:
        """A server's waiting entries (every server's with None), oldest first."""
        where, params = ("WHERE guild_id = ?", (guild_id,)) if guild_id is not None else ("", ())
        rows = await self._rows(f"SELECT {QUEUE_COLUMNS} FROM queue_entries {where}"
                                " ORDER BY joined_at, user_id, game", params)
        return [queue_row(r) for r in rows]

    async def remove_queue_entries(self, guild_id: int, user_id: int, games: Sequence[str] | None = None) -> int:
        """Remove a member's entries (for these games, or all); how many went."""
        if games is not None and not games:
            return 0
        marks = "" if games is None else f" AND game IN ({', '.join('?' for _ in games)})"
        params = (guild_id, user_id, *(games or ()))

        def write(conn: sqlite3.Connection) -> int:
            return run(conn, f"DELETE FROM queue_entries WHERE guild_id = ? AND user_id = ?{marks}", params).rowcount

        return int(await self._write(write))

    async def insert_challenge(self, row: ChallengeRow) -> int:
        """A new open challenge; `StorageConflictError` when the challenged member has one open already."""
        params = (row.guild_id, row.channel_id, row.challenger_id, row.challenged_id, row.game, _json(row.options),
                  row.status, _ts(row.created_at), _ts(row.expires_at), row.message_id, row.game_id)

        def write(conn: sqlite3.Connection) -> int:
            cur = run(conn, "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenged_id, game,"
                      " options, status, created_at, expires_at, message_id, game_id)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", params)
            return int(cur.lastrowid or 0)

        return int(await self._write(write))

    async def load_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._row(f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,))
        return None if row is None else challenge_row(row)

    async def open_challenges(self, guild_id: int, user_id: int) -> list[ChallengeRow]:
        """The open challenges a member sent or received on a server."""
        rows = await self._rows(f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE guild_id = ? AND status = 'open'"
                                " AND (challenger_id = ? OR challenged_id = ?) ORDER BY id",
                                (guild_id, user_id, user_id))
        return [challenge_row(r) for r in rows]

    async def answer_challenge(self, challenge_id: int, status: str, *, game_id: int | None = None) -> bool:
        """Close an open challenge (accepted, declined, expired, cancelled): False if it was not open any more
        (a double click, an answer racing the expiry)."""

        def write(conn: sqlite3.Connection) -> bool:
            return run(conn, "UPDATE challenges SET status = ?, game_id = COALESCE(?, game_id)"
                       " WHERE id = ? AND status = 'open'", (status, game_id, challenge_id)).rowcount == 1

        return bool(await self._write(write))

    async def set_challenge_game(self, challenge_id: int, game_id: int) -> None:
        await self._write(lambda conn: run(conn, "UPDATE challenges SET game_id = ? WHERE id = ?",
                                           (game_id, challenge_id)))

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._write(lambda conn: run(conn, "UPDATE challenges SET message_id = ? WHERE id = ?",
                                           (message_id, challenge_id)))

    async def due_challenges(self, now: datetime, limit: int = 100) -> list[ChallengeRow]:
        rows = await self._rows(f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'open'"
                                " AND expires_at <= ? ORDER BY expires_at, id LIMIT ?", (_ts(now), limit))
        return [challenge_row(r) for r in rows]
