"""Tournament rows: the SQL behind engine/tournaments.py."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from storage.errors import TournamentConflictError
from storage.rows import TournamentRow
from storage.sqlite.codec import dt as _dt
from storage.sqlite.codec import dumps as _json
from storage.sqlite.codec import loads as _load
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.statements import run

_COLUMNS = ("id, guild_id, channel_id, organizer_id, name, game, status, data, version, due_at, created_at,"
            " updated_at")

class SqliteTournaments(SqliteDb):

    async def insert_tournament(self, row: TournamentRow) -> int:

        def write(conn: sqlite3.Connection) -> int:
            cur = run(
                conn, "INSERT INTO tournaments (guild_id, channel_id, organizer_id, name, game, status, data, version,"
                " due_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
                (row.guild_id, row.channel_id, row.organizer_id, row.name, row.game, row.status, _json(row.data),
                 None if row.due_at is None else _ts(row.due_at), _ts(row.created_at), _ts(row.updated_at)))
            return int(cur.lastrowid or 0)

        return await self._write(write)

    async def load_tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self._row(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _tournament(row)

    async def save_tournament(self, row: TournamentRow, *, expect_version: int,
                              link: Sequence[tuple[int, int, int]] = ()) -> None:
        """Write the tournament over version ``expect_version`` (`TournamentConflictError` if it moved on), with
        the games it just created linked to it (game id, round, table) in the same transaction."""

        def write(conn: sqlite3.Connection) -> None:
            cur = run(
                conn, "UPDATE tournaments SET status = ?, data = ?, version = ?, due_at = ?, updated_at = ?"
                " WHERE id = ? AND version = ?",
                (row.status, _json(row.data), row.version, None if row.due_at is None else _ts(row.due_at),
                 _ts(row.updated_at), row.id, expect_version))
            if cur.rowcount != 1:
                raise TournamentConflictError(row.id)
            for game_id, round_number, table in link:
                link_game(conn, game_id, (row.id, round_number, table))

        await self._write(write)

    async def tournaments_in_guild(self, guild_id: int | None, statuses: Sequence[str]) -> list[TournamentRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._rows(f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id IS ? AND status IN ({marks})"
                                " ORDER BY id", (guild_id, *statuses))
        return [_tournament(r) for r in rows]

    async def tournaments_of(self, user_id: int, guild_id: int | None,
                             statuses: Sequence[str] = ("running", "finished")) -> list[TournamentRow]:
        """The server's tournaments (running or finished, newest first) that the user entered. The entrants live
        in each row's JSON, so the rows are scanned: a server holds few tournaments, and this serves /profile only
        (an entrants table would be the index to add at a larger scale)."""
        player = str(user_id)
        rows = await self.tournaments_in_guild(guild_id, statuses)
        return [r for r in reversed(rows) if any(str(e.get("id")) == player for e in r.data.get("entrants", ())
                                                 if isinstance(e, dict))]

    async def due_tournaments(self, now: datetime) -> list[int]:

        rows = await self._rows("SELECT id FROM tournaments WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at",
                                (_ts(now),))
        return [r[0] for r in rows]

    async def running_tournament_ids(self) -> list[int]:
        rows = await self._rows("SELECT id FROM tournaments WHERE status IN ('registration', 'running') ORDER BY id")
        return [r[0] for r in rows]

    async def tournament_round_games(self, tournament_id: int, round_number: int) -> list[int]:
        """The games linked to a round of a tournament (in the order they were made)."""
        rows = await self._rows("SELECT game_id FROM tournament_games WHERE tournament_id = ? AND round = ?"
                                " ORDER BY game_id", (tournament_id, round_number))
        return [r[0] for r in rows]

    async def tournament_of_game(self, game_id: int) -> tuple[int, int, int] | None:
        """(tournament id, round, table index) of a game a tournament created."""
        row = await self._row("SELECT tournament_id, round, table_index FROM tournament_games WHERE game_id = ?",
                              (game_id,))
        return None if row is None else (row[0], row[1], row[2])


def link_game(conn: sqlite3.Connection, game_id: int, where: tuple[int, int, int]) -> None:
    """In the caller's transaction: the game belongs to (tournament id, round, table index)."""
    run(conn, "INSERT OR REPLACE INTO tournament_games (game_id, tournament_id, round, table_index)"
        " VALUES (?, ?, ?, ?)", (game_id, *where))


def _tournament(row: Any) -> TournamentRow:

    tid, guild, channel, organizer, name, game, status, data, version, due, created, updated = row
    return TournamentRow(tid, guild, channel, organizer, name, game, status, _load(data), version,
                         None if due is None else _dt(due), _dt(created), _dt(updated))
