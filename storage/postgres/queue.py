"""The /queue entries and /challenge rows on PostgreSQL (see storage/sqlite/queue.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson

from storage.errors import ChallengeClosedError, QueueEntryGoneError
from storage.postgres.db import Connection, PostgresDb
from storage.rows import ChallengeRow, QueueRow
from storage.sqlite.codec import dumps as _json
from storage.sqlite.queue import CHALLENGE_COLUMNS, QUEUE_COLUMNS

UPSERT_QUEUE = (f"INSERT INTO queue_entries ({QUEUE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
                " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET players = excluded.players,"
                " time = excluded.time, rating = excluded.rating, bots_ok = excluded.bots_ok,"
                " channel_id = excluded.channel_id, name = excluded.name,"
                " joined_at = LEAST(queue_entries.joined_at, excluded.joined_at)")
KEY = "guild_id = $1 AND user_id = $2 AND game = $3"


async def take_entries(conn: Connection, take: Sequence[QueueRow], drop: Sequence[QueueRow]) -> None:
    """In the caller's transaction (see storage/sqlite/queue.py); the rows taken are locked first: a concurrent
    leave waits, then finds them gone."""
    for r in take:
        if await conn.fetchval(f"SELECT 1 FROM queue_entries WHERE {KEY} FOR UPDATE", r.guild_id, r.user_id,
                               r.game) is None:
            raise QueueEntryGoneError(f"queue entry ({r.guild_id}, {r.user_id}, {r.game}) is gone")
    for r in (*take, *drop):
        await conn.execute(f"DELETE FROM queue_entries WHERE {KEY}", r.guild_id, r.user_id, r.game)


async def accept_challenge(conn: Connection, challenge_id: int, game_id: int) -> None:
    """In the caller's transaction (see storage/sqlite/queue.py)."""
    status = await conn.execute("UPDATE challenges SET status = 'accepted', game_id = $1 WHERE id = $2"
                                " AND status = 'open'", game_id, challenge_id)
    if str(status).split()[-1] != "1":
        raise ChallengeClosedError(f"challenge {challenge_id} is not open")


def queue_row(r: Sequence[Any]) -> QueueRow:
    return QueueRow(r[0], r[1], r[2], r[3], r[4], float(r[5]), bool(r[6]), r[7], r[8], r[9])


def challenge_row(r: Sequence[Any]) -> ChallengeRow:
    options = orjson.loads(r[6])
    return ChallengeRow(r[0], r[1], r[2], r[3], r[4], r[5], options if isinstance(options, dict) else {}, r[7],
                        r[8], r[9], r[10], r[11])


class PostgresQueue(PostgresDb):
    async def put_queue_entries(self, rows: Sequence[QueueRow]) -> None:
        params = [(r.guild_id, r.user_id, r.game, r.players, r.time, r.rating, r.bots_ok, r.channel_id, r.name,
                   r.joined_at) for r in rows]

        async def write(conn: Connection) -> None:
            for p in params:
                await conn.execute(UPSERT_QUEUE, *p)

        await self._write(write)

    async def queue_entries(self, guild_id: int | None = None) -> list[QueueRow]:
        where, params = ("WHERE guild_id = $1", (guild_id,)) if guild_id is not None else ("", ())
        rows = await self._rows(f"SELECT {QUEUE_COLUMNS} FROM queue_entries {where}"
                                " ORDER BY joined_at, user_id, game", params)
        return [queue_row(r) for r in rows]

    async def remove_queue_entries(self, guild_id: int, user_id: int, games: Sequence[str] | None = None) -> int:
        if games is not None and not games:
            return 0

        async def write(conn: Connection) -> int:
            if games is None:
                status = await conn.execute("DELETE FROM queue_entries WHERE guild_id = $1 AND user_id = $2",
                                            guild_id, user_id)
            else:
                status = await conn.execute("DELETE FROM queue_entries WHERE guild_id = $1 AND user_id = $2"
                                            " AND game = ANY($3::text[])", guild_id, user_id, list(games))
            return int(status.split()[-1])

        return await self._write(write)

    async def insert_challenge(self, row: ChallengeRow) -> int:
        return int(await self._write(lambda conn: conn.fetchval(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenged_id, game, options, status,"
            " created_at, expires_at, message_id, game_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
            " RETURNING id", row.guild_id, row.channel_id, row.challenger_id, row.challenged_id, row.game,
            _json(row.options), row.status, row.created_at, row.expires_at, row.message_id, row.game_id)))

    async def load_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._row(f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1", (challenge_id,))
        return None if row is None else challenge_row(row)

    async def open_challenges(self, guild_id: int, user_id: int) -> list[ChallengeRow]:
        rows = await self._rows(f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE guild_id = $1"
                                " AND status = 'open' AND (challenger_id = $2 OR challenged_id = $2) ORDER BY id",
                                (guild_id, user_id))
        return [challenge_row(r) for r in rows]

    async def answer_challenge(self, challenge_id: int, status: str, *, game_id: int | None = None) -> bool:
        done = await self._write(lambda conn: conn.execute(
            "UPDATE challenges SET status = $1, game_id = COALESCE($2, game_id) WHERE id = $3 AND status = 'open'",
            status, game_id, challenge_id))
        return str(done).split()[-1] == "1"

    async def set_challenge_game(self, challenge_id: int, game_id: int) -> None:
        await self._write(lambda conn: conn.execute("UPDATE challenges SET game_id = $1 WHERE id = $2",
                                                    game_id, challenge_id))

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._write(lambda conn: conn.execute("UPDATE challenges SET message_id = $1 WHERE id = $2",
                                                    message_id, challenge_id))

    async def due_challenges(self, now: datetime, limit: int = 100) -> list[ChallengeRow]:
        rows = await self._rows(f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'open'"
                                " AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2", (now, limit))
        return [challenge_row(r) for r in rows]
