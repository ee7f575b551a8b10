"""Tournament rows on PostgreSQL (see storage/sqlite/tournaments.py): versioned like games."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from storage.errors import TournamentConflictError
from storage.postgres.db import Connection, PostgresDb, rowcount, sqlite_shaped
from storage.rows import TournamentRow
from storage.sqlite.codec import dumps as _json
from storage.sqlite.tournaments import _tournament

_COLUMNS = ("id, guild_id, channel_id, organizer_id, name, game, status, data, version, due_at, created_at,"
            " updated_at")


def _tournament_of(record: Any) -> TournamentRow:
    return _tournament(sqlite_shaped(record))


# A game belongs to (tournament id, round, table index); written with the game (storage/postgres/games.py) and
# again when the tournament saves it.
LINK_GAME = ("INSERT INTO tournament_games (game_id, tournament_id, round, table_index) VALUES ($1, $2, $3, $4)"
             " ON CONFLICT (game_id) DO UPDATE SET tournament_id = excluded.tournament_id,"
             " round = excluded.round, table_index = excluded.table_index")

class PostgresTournaments(PostgresDb):
    async def insert_tournament(self, row: TournamentRow) -> int:
        return int(await self._write(lambda conn: conn.fetchval(
            "INSERT INTO tournaments (guild_id, channel_id, organizer_id, name, game, status, data, version, due_at,"
            " created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, $10) RETURNING id",
            row.guild_id, row.channel_id, row.organizer_id, row.name, row.game, row.status, _json(row.data),
            row.due_at, row.created_at, row.updated_at)))

    async def load_tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self._row(f"SELECT {_COLUMNS} FROM tournaments WHERE id = $1", (tournament_id,))
        return None if row is None else _tournament_of(row)

    async def save_tournament(self, row: TournamentRow, *, expect_version: int,
                              link: Sequence[tuple[int, int, int]] = ()) -> None:
        """Write over version ``expect_version`` (`TournamentConflictError` if it moved on), linking the games it
        just created (game id, round, table) in the same transaction."""

        async def write(conn: Connection) -> None:
            status = await conn.execute(
                "UPDATE tournaments SET status = $1, data = $2, version = $3, due_at = $4, updated_at = $5"
                " WHERE id = $6 AND version = $7", row.status, _json(row.data), row.version, row.due_at,
                row.updated_at, row.id, expect_version)
            if rowcount(status) != 1:
                raise TournamentConflictError(row.id)
            await conn.executemany(LINK_GAME, [(g, row.id, r, i) for g, r, i in link])

        await self._write(write)

    async def tournaments_in_guild(self, guild_id: int | None, statuses: Sequence[str]) -> list[TournamentRow]:
        rows = await self._rows(f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id IS NOT DISTINCT FROM $1"
                                " AND status = ANY($2::text[]) ORDER BY id", (guild_id, list(statuses)))
        return [_tournament_of(r) for r in rows]

    async def tournaments_of(self, user_id: int, guild_id: int | None,
                             statuses: Sequence[str] = ("running", "finished")) -> list[TournamentRow]:
        """The server's tournaments the user entered, newest first (the entrants live in each row's JSON)."""
        player = str(user_id)
        rows = await self.tournaments_in_guild(guild_id, statuses)
        return [r for r in reversed(rows) if any(str(e.get("id")) == player for e in r.data.get("entrants", ())
                                                 if isinstance(e, dict))]

    async def due_tournaments(self, now: datetime) -> list[int]:
        rows = await self._rows(
            "SELECT id FROM tournaments WHERE due_at IS NOT NULL AND due_at <= $1 ORDER BY due_at", (now,))
        return [r[0] for r in rows]

    async def running_tournament_ids(self) -> list[int]:
        rows = await self._rows("SELECT id FROM tournaments WHERE status IN ('registration', 'running') ORDER BY id")
        return [r[0] for r in rows]

    async def tournament_round_games(self, tournament_id: int, round_number: int) -> list[int]:
        rows = await self._rows("SELECT game_id FROM tournament_games WHERE tournament_id = $1 AND round = $2"
                                " ORDER BY game_id", (tournament_id, round_number))
        return [r[0] for r in rows]

    async def tournament_of_game(self, game_id: int) -> tuple[int, int, int] | None:
        row = await self._row("SELECT tournament_id, round, table_index FROM tournament_games WHERE game_id = $1",
                              (game_id,))
        return None if row is None else (row[0], row[1], row[2])
