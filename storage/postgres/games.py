"""Games on PostgreSQL: their rows, the one transaction a move saves in, actions, shared content, damaged rows and
deadlines. Same semantics as storage/sqlite/games.py and deadlines.py; only the SQL differs.

The version check is the UPDATE's ``WHERE version = $n``: under READ COMMITTED a second writer of the same game
waits for the first's row lock, then re-reads the row, finds the version moved on and updates nothing (the
stale-version refusal), in this process or another.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from storage.errors import StorageConflictError
from storage.postgres.db import Connection, PostgresDb, rowcount, sqlite_shaped
from storage.postgres.league import write_finish
from storage.postgres.queue import accept_challenge, take_entries
from storage.postgres.tournaments import LINK_GAME
from storage.rows import ActionRow, DeadlineRow, Finish, GameRow, QueueRow, Shards
from storage.sqlite.checks import _since
from storage.sqlite.codec import dumps as _json
from storage.sqlite.deadlines import _decoded, _sound_deadlines
from storage.sqlite.games import _action, _game

log = logging.getLogger(__name__)

OPEN_STATUSES = ("lobby", "active")
_GAME_COLUMNS = ("id, game, guild_id, channel_id, host_id, status, options, seed, seats, version, moves, state, meta,"
                 " outcome, created_at, updated_at")
_DEADLINE_COLUMNS = "id, game_id, kind, seat, due_at, data"
_DEADLINES_OF_GAME = f"SELECT {_DEADLINE_COLUMNS} FROM deadlines WHERE game_id = $1 ORDER BY due_at, id"
# Due rows another owner's live lease does not hold, of games on the shards ($4 NULL: any), locked as they are
# read with SKIP LOCKED and marked in the same statement: a second process claiming at once skips them, and one
# that read them before this commits re-checks the WHERE on the new row version and leaves them.
_CLAIM = f"""
WITH due AS (
    SELECT d.id FROM deadlines d JOIN games g ON g.id = d.game_id
    WHERE d.due_at <= $1 AND (d.claim_until IS NULL OR d.claim_until <= $1 OR d.claimed_by = $2)
      AND d.game_id NOT IN (SELECT game_id FROM damaged_games) AND d.game_id <> ALL($3::bigint[])
      AND ($4::bigint IS NULL OR coalesce((g.guild_id >> 22) % $4::bigint, 0) = ANY($5::bigint[]))
    ORDER BY d.due_at, d.id LIMIT $6
    FOR UPDATE OF d SKIP LOCKED)
UPDATE deadlines SET claimed_by = $2, claim_until = $7 FROM due WHERE deadlines.id = due.id
RETURNING {", ".join(f"deadlines.{c}" for c in ("id", "game_id", "kind", "seat", "due_at", "data"))}"""
_ACTION_COLUMNS = "game_id, seq, seat, action, source, user_id, interaction_id, created_at"

# A user's running games (see SqliteGames.games_of_user): ``strpos`` (the id's digits in the seats' text) is the
# cheap test, then the seats are parsed; floorboard_jsonb (migration 0001) makes a damaged row's seats no seats.
_GAMES_OF_USER = """
SELECT g.id, coalesce((SELECT a.created_at FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1),
                      g.created_at)
FROM games g
WHERE g.status = 'active'{where} AND strpos(g.seats, $1) > 0 AND EXISTS (
    SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(floorboard_jsonb(g.seats)) = 'array'
                                            THEN floorboard_jsonb(g.seats) ELSE '[]' END) s
    WHERE jsonb_typeof(s) = 'object' AND s -> 'user_id' = to_jsonb($2::bigint)
      AND coalesce(s -> 'bot', 'false') NOT IN ('true'::jsonb, '1'::jsonb))
ORDER BY g.id"""


def _game_of(record: Any) -> GameRow:
    return _game(sqlite_shaped(record))


def _statuses(statuses: Sequence[str]) -> list[str]:
    return list(statuses)


async def _insert_shared(conn: Connection, row: GameRow) -> None:
    if row.shared:
        # The hash names the content: a row already there holds the same text, so the first writer's stays.
        await conn.executemany("INSERT INTO shared_content (hash, data, created_at) VALUES ($1, $2, $3)"
                               " ON CONFLICT (hash) DO NOTHING",
                               [(digest, text, row.updated_at) for digest, text in row.shared.items()])


async def _insert_deadlines(conn: Connection, game_id: int, deadlines: Iterable[DeadlineRow]) -> list[DeadlineRow]:
    added = []
    for d in deadlines:
        did = await conn.fetchval("INSERT INTO deadlines (game_id, kind, seat, due_at, data)"
                                  " VALUES ($1, $2, $3, $4, $5) RETURNING id",
                                  game_id, d.kind, d.seat, d.due_at, _json(d.data))
        added.append(replace(d, game_id=game_id, id=did))
    return added


def _json_or_none(value: Any) -> str | None:
    return None if value is None else _json(value)


class PostgresGames(PostgresDb):
    # --- games -----------------------------------------------------------------------------------------

    async def insert_game(self, row: GameRow, deadlines: Iterable[DeadlineRow] = (), *,
                          take: Sequence[QueueRow] = (), drop: Sequence[QueueRow] = (),
                          tournament: tuple[int, int, int] | None = None, challenge: int | None = None) -> int:
        values = (row.game, row.guild_id, row.channel_id, row.host_id, row.status, _json(row.options), row.seed,
                  _json(row.seats), row.version, row.moves, _json_or_none(row.state), _json(row.meta),
                  _json_or_none(row.outcome), row.created_at, row.updated_at)
        deadlines = list(deadlines)

        async def write(conn: Connection) -> int:
            await take_entries(conn, take, drop)
            await _insert_shared(conn, row)
            game_id = await conn.fetchval(
                "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, seats, version,"
                " moves, state, meta, outcome, created_at, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id", *values)
            await _insert_deadlines(conn, game_id, deadlines)
            if tournament is not None:
                await conn.execute(LINK_GAME, game_id, *tournament)
            if challenge is not None:
                await accept_challenge(conn, challenge, game_id)
            return int(game_id)

        return await self._write(write)

    async def load_game(self, game_id: int) -> GameRow | None:
        row = await self._row(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = $1", (game_id,))
        return None if row is None else _game_of(row)

    async def load_table(self, game_id: int) -> tuple[GameRow | None, list[DeadlineRow]]:
        """A game's row and its deadlines on one connection; a deadline row that does not decode is left out."""

        async def read(conn: Connection) -> tuple[Any, list[Any]]:
            row = await conn.fetchrow(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = $1", game_id)
            return row, await conn.fetch(_DEADLINES_OF_GAME, game_id)

        row, raw = await self._read(read)
        if row is None:
            return None, []
        return _game_of(row), _sound_deadlines([sqlite_shaped(r) for r in raw], game_id)

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = $1 AND status IN ('lobby', 'active')",
            (channel_id,))
        return None if row is None else _game_of(row)

    async def last_game_in_channel(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None:
        row = await self._row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = $1 AND status = ANY($2::text[])"
            " ORDER BY id DESC LIMIT 1", (channel_id, _statuses(statuses)))
        return None if row is None else _game_of(row)

    async def games_in_guild(self, guild_id: int, statuses: Sequence[str] = OPEN_STATUSES) -> list[GameRow]:
        rows = await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = $1 AND status = ANY($2::text[]) ORDER BY id",
            (guild_id, _statuses(statuses)))
        return [_game_of(r) for r in rows]

    async def game_ids(self, statuses: Sequence[str] | None = None, game: str | None = None) -> list[int]:
        """As SQLite's: ``statuses`` None for any, ``game`` None for every game."""
        where: list[str] = []
        params: list[object] = []
        if statuses is not None:
            params.append(_statuses(statuses))
            where.append(f"status = ANY(${len(params)}::text[])")
        if game is not None:
            params.append(game)
            where.append(f"game = ${len(params)}")
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = await self._rows(f"SELECT id FROM games{clause} ORDER BY id", tuple(params))
        return [r[0] for r in rows]

    async def game_ids_where(self, meta_key: str, *, below_moves: bool, game: str | None = None,
                             statuses: Sequence[str] = ("active",), missing: bool = True) -> list[int]:
        """As SQLite's: ``meta[meta_key]`` missing (JSON null, or meta not JSON: listed, the engine isolates it)
        unless not ``missing``, or (``below_moves``) a number below the move count."""
        value = "floorboard_jsonb(meta) -> $2"
        below = f"(jsonb_typeof({value}) = 'number' AND ({value})::numeric < moves)" if below_moves else "false"
        absent = f"({value} IS NULL OR jsonb_typeof({value}) = 'null')"
        test = f"({absent} OR {below})" if missing else below
        kind = " AND game = $3" if game is not None else ""
        rows = await self._rows(
            f"SELECT id FROM games WHERE status = ANY($1::text[]) AND {test}{kind} ORDER BY id",
            (_statuses(statuses), meta_key, *([game] if game is not None else [])))
        return [r[0] for r in rows]

    async def games_of_user(self, user_id: int, guild_id: int | None = None) -> list[tuple[int, datetime]]:
        """The running games ``user_id`` holds a human seat in, each with the time its position last changed."""
        if guild_id is None:
            rows = await self._rows(_GAMES_OF_USER.format(where=""), (str(user_id), user_id))
        else:
            rows = await self._rows(_GAMES_OF_USER.format(where=" AND g.guild_id = $3"),
                                    (str(user_id), user_id, guild_id))
        return [(gid, _since(sqlite_shaped([when])[0])) for gid, when in rows]

    async def save_game(self, row: GameRow, *, expect_version: int, action: ActionRow | None = None,
                        drop_deadlines: Iterable[int] = (), add_deadlines: Iterable[DeadlineRow] = (),
                        clear_deadlines: bool = False, finish: Finish | None = None) -> list[DeadlineRow]:
        """The snapshot, its action, shared content, deadline changes and (``finish``) results in one
        transaction over version ``expect_version`` (`StorageConflictError` if it moved on)."""
        values = (row.status, _json(row.options), _json(row.seats), row.version, row.moves, _json_or_none(row.state),
                  _json(row.meta), _json_or_none(row.outcome), row.updated_at, row.id, expect_version)
        drops = [deadline_id for deadline_id in drop_deadlines]
        adds = list(add_deadlines)

        async def write(conn: Connection) -> list[DeadlineRow]:
            status = await conn.execute(
                "UPDATE games SET status = $1, options = $2, seats = $3, version = $4, moves = $5, state = $6,"
                " meta = $7, outcome = $8, updated_at = $9 WHERE id = $10 AND version = $11", *values)
            if rowcount(status) != 1:
                raise StorageConflictError(f"game {row.id} is no longer at version {expect_version}")
            if finish is not None:
                await write_finish(conn, finish)
            await _insert_shared(conn, row)
            if action is not None:
                await conn.execute(
                    f"INSERT INTO actions ({_ACTION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    action.game_id, action.seq, action.seat, action.action, action.source, action.user_id,
                    action.interaction_id, action.created_at)
            if clear_deadlines:
                await conn.execute("DELETE FROM deadlines WHERE game_id = $1", row.id)
            if drops:
                await conn.execute("DELETE FROM deadlines WHERE id = ANY($1::bigint[])", drops)
            return await _insert_deadlines(conn, row.id, adds)

        return await self._write(write)

    # --- shared content and actions ----------------------------------------------------------------------

    async def shared_content(self, hashes: Iterable[str]) -> dict[str, str]:
        wanted = sorted(set(hashes))
        if not wanted:
            return {}
        rows = await self._rows("SELECT hash, data FROM shared_content WHERE hash = ANY($1::text[])", (wanted,))
        return {h: data for h, data in rows}

    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self._rows(f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = $1 ORDER BY seq", (game_id,))
        return [_action(sqlite_shaped(r)) for r in rows]

    async def action_by_interaction(self, interaction_id: int) -> ActionRow | None:
        row = await self._row(f"SELECT {_ACTION_COLUMNS} FROM actions WHERE interaction_id = $1", (interaction_id,))
        return None if row is None else _action(sqlite_shaped(row))

    # --- damaged games ---------------------------------------------------------------------------------

    async def mark_damaged(self, game_id: int, reason: str, now: datetime) -> bool:
        """Record that a game's row fails to load; True the first time (its players are to be told once)."""

        async def write(conn: Connection) -> bool:
            status = await conn.execute(
                "INSERT INTO damaged_games (game_id, reason, found_at, notified_at) VALUES ($1, $2, $3, $3)"
                " ON CONFLICT (game_id) DO NOTHING", game_id, reason[:500], now)
            return rowcount(status) == 1

        return await self._write(write)

    async def damaged_games(self) -> dict[int, str]:
        rows = await self._rows("SELECT d.game_id, d.reason FROM damaged_games d JOIN games g ON g.id = d.game_id"
                                " WHERE g.status IN ('lobby', 'active')")
        return {gid: reason for gid, reason in rows}

    async def close_damaged(self, game_id: int, reason: str) -> bool:
        """Abort a damaged game without decoding it: its status and deadlines only; the row stays for export."""

        async def write(conn: Connection) -> bool:
            status = await conn.execute("UPDATE games SET status = 'aborted', version = version + 1 WHERE id = $1"
                                        " AND status IN ('lobby', 'active')", game_id)
            await conn.execute("DELETE FROM deadlines WHERE game_id = $1", game_id)
            await conn.execute("UPDATE damaged_games SET reason = reason || $1 WHERE game_id = $2",
                               f" (closed: {reason})", game_id)
            return rowcount(status) == 1

        return await self._write(write)

    # --- deadlines -------------------------------------------------------------------------------------

    async def deadlines_for(self, game_id: int) -> list[DeadlineRow]:
        raw = await self._rows(_DEADLINES_OF_GAME, (game_id,))
        return _sound_deadlines([sqlite_shaped(r) for r in raw], game_id)

    async def due_deadlines(self, now: datetime, limit: int = 100,
                            exclude: set[int] | frozenset[int] = frozenset()) -> list[DeadlineRow]:
        """Deadlines due by ``now``, oldest first, leaving out damaged games' and the ``exclude``d games'."""
        raw = await self._rows(
            f"SELECT {_DEADLINE_COLUMNS} FROM deadlines WHERE due_at <= $1"
            " AND game_id NOT IN (SELECT game_id FROM damaged_games) AND game_id <> ALL($2::bigint[])"
            " ORDER BY due_at, id LIMIT $3", (now, sorted(exclude), limit))
        rows, broken = _decoded(sqlite_shaped(r) for r in raw)
        for deadline_id in broken:
            await self.postpone_deadline(deadline_id, now + timedelta(hours=1))
        return rows

    async def claim_due_deadlines(self, now: datetime, owner: str, lease_seconds: float, limit: int = 100,
                                  shards: Shards | None = None, exclude: set[int] | frozenset[int] = frozenset(),
                                  ) -> list[DeadlineRow]:
        """As SQLite's: claim the due rows ``owner`` may fire until ``now + lease_seconds``, oldest first. One
        statement, so one transaction and one round trip (see `_CLAIM`)."""
        raw = await self._rows(_CLAIM, (now, owner, sorted(exclude), None if shards is None else shards.count,
                                        [] if shards is None else list(shards.ids), limit,
                                        now + timedelta(seconds=lease_seconds)))
        rows, broken = _decoded(sqlite_shaped(r) for r in raw)
        for deadline_id in broken:
            await self.postpone_deadline(deadline_id, now + timedelta(hours=1))
        return sorted(rows, key=lambda d: (d.due_at, d.id or 0))

    async def next_deadline(self) -> datetime | None:
        row = await self._row(
            "SELECT min(due_at) FROM deadlines WHERE game_id NOT IN (SELECT game_id FROM damaged_games)")
        return row[0]

    async def drop_deadline(self, deadline_id: int) -> None:
        await self._write(lambda conn: conn.execute("DELETE FROM deadlines WHERE id = $1", deadline_id))

    async def postpone_deadline(self, deadline_id: int, due_at: datetime) -> None:
        await self._write(lambda conn: conn.execute("UPDATE deadlines SET due_at = $1, claimed_by = NULL,"
                                                    " claim_until = NULL WHERE id = $2", due_at, deadline_id))
