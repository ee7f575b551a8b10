"""Results and ratings on PostgreSQL (see storage/sqlite/league.py for what they are).

SQLite runs one write at a time, so two games ending at once rate from each other's saved values. PostgreSQL
runs them side by side: `write_finish` first takes a transaction-scoped advisory lock per game kind, so finishes of
one game kind (the ratings they read and write) follow one another across every process, and a retry of an
already-counted game waits for the first and then finds its results (False), never a key conflict.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from league.ratings import Rating
from storage.postgres.db import Connection, PostgresDb, sqlite_shaped
from storage.rows import GLOBAL, OUTCOMES, Finish, RatingRow, ResultRow
from storage.sqlite.league import _rating, _result

log = logging.getLogger(__name__)

RATINGS_LOCK = 0x52617465  # pg_advisory_xact_lock(RATINGS_LOCK, hashtext(game)): one finish per game kind at a time

_RESULT_COLUMNS = ("r.game_id, r.user_id, r.guild_id, r.game, r.seat, r.place, r.outcome, r.score, r.rated, r.before,"
                   " r.after, r.finished_at, g.channel_id,"
                   " coalesce(CASE WHEN jsonb_typeof(floorboard_jsonb(g.seats)) = 'array'"
                   " THEN jsonb_array_length(floorboard_jsonb(g.seats)) END, 0)")
_RATING_COLUMNS = "scope, game, user_id, mu, sigma, games, wins, draws, losses, updated_at"

Plan = tuple[int, dict[int, Rating], dict[int, Rating]]  # (scope, current ratings, new ratings)


async def write_finish(conn: Connection, finish: Finish) -> bool:
    """Insert the game's results and apply its rating changes (inside the caller's transaction); False, nothing
    written, when the game's results are already stored."""
    await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", RATINGS_LOCK, finish.game)
    if await conn.fetchval("SELECT 1 FROM results WHERE game_id = $1 LIMIT 1", finish.game_id):
        return False
    plans = await _plans(conn, finish) if finish.rated and finish.rate is not None else []
    shown: dict[int, tuple[int, int]] = {}
    for scope, current, new in plans:  # the server's first: its display values go into the results
        for user_id, change in (await _write_ratings(conn, finish, scope, current, new)).items():
            shown.setdefault(user_id, change)
    await conn.executemany(
        "INSERT INTO results (game_id, user_id, guild_id, game, seat, place, outcome, score, rated, before, after,"
        " finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        [(finish.game_id, r.user_id, finish.guild_id, finish.game, r.seat, r.place, r.outcome, r.score, bool(plans),
          *(shown.get(r.user_id) or (None, None)), finish.finished_at) for r in finish.rows])
    return True


async def _plans(conn: Connection, finish: Finish) -> list[Plan]:
    """Every scope's new ratings, computed before anything is written; a rating bug stores the game unrated."""
    assert finish.rate is not None
    users = [r.user_id for r in finish.rows]
    plans = []
    for scope in [GLOBAL] if finish.guild_id is None else [finish.guild_id, GLOBAL]:
        current = {row[0]: Rating(row[1], row[2], row[3]) for row in await conn.fetch(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE scope = $1 AND game = $2"
            " AND user_id = ANY($3::bigint[])", scope, finish.game, users)}
        try:
            new = finish.rate(dict(current))
        except Exception:
            log.exception("game %s (%s): its ratings could not be computed; stored unrated", finish.game_id,
                          finish.game)
            return []
        plans.append((scope, current, new))
    return plans


async def _write_ratings(conn: Connection, finish: Finish, scope: int, current: dict[int, Rating],
                         new: dict[int, Rating]) -> dict[int, tuple[int, int]]:
    out = {}
    for r in finish.rows:
        after = new.get(r.user_id)
        if after is None:
            continue
        win, draw, loss = (int(r.outcome == o) for o in OUTCOMES)
        await conn.execute(
            "INSERT INTO ratings (scope, game, user_id, mu, sigma, games, wins, draws, losses, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (scope, game, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, wins = ratings.wins + excluded.wins,"
            " draws = ratings.draws + excluded.draws, losses = ratings.losses + excluded.losses,"
            " updated_at = excluded.updated_at",
            scope, finish.game, r.user_id, after.mu, after.sigma, after.games, win, draw, loss, finish.finished_at)
        out[r.user_id] = (current.get(r.user_id, Rating()).display, after.display)
    return out


def _result_of(record: Sequence[Any]) -> ResultRow:
    return _result(sqlite_shaped(record))


def _rating_of(record: Sequence[Any]) -> RatingRow:
    return _rating(sqlite_shaped(record))


class PostgresLeague(PostgresDb):
    async def record_finish(self, finish: Finish) -> bool:
        return await self._write(lambda conn: write_finish(conn, finish))

    async def results_of(self, user_id: int, *, guild_id: int | None = None, game: str | None = None,
                         limit: int = 20, before: datetime | None = None, offset: int = 0) -> list[ResultRow]:
        where, params = ["r.user_id = $1"], [user_id]
        for column, value in (("r.guild_id", guild_id), ("r.game", game), ("r.finished_at", before)):
            if value is not None:
                params.append(value)
                where.append(f"{column} {'<' if column == 'r.finished_at' else '='} ${len(params)}")
        n = len(params)
        rows = await self._rows(
            f"SELECT {_RESULT_COLUMNS} FROM results r JOIN games g ON g.id = r.game_id WHERE {' AND '.join(where)}"
            f" ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ${n + 1} OFFSET ${n + 2}", (*params, limit, offset))
        return [_result_of(r) for r in rows]

    async def rating(self, scope: int, game: str, user_id: int) -> RatingRow | None:
        row = await self._row(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE scope = $1 AND game = $2 AND user_id = $3",
            (scope, game, user_id))
        return None if row is None else _rating_of(row)

    async def leaderboard(self, scope: int, game: str, limit: int = 10, offset: int = 0,
                          min_games: int = 0) -> list[RatingRow]:
        rows = await self._rows(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE scope = $1 AND game = $2 AND games >= $3"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT $4 OFFSET $5",
            (scope, game, min_games, limit, offset))
        return [_rating_of(r) for r in rows]

    async def ratings_of(self, user_id: int, scope: int) -> list[RatingRow]:
        rows = await self._rows(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE user_id = $1 AND scope = $2 ORDER BY game", (user_id, scope))
        return [_rating_of(r) for r in rows]

    async def record_counts(self, user_id: int, guild_id: int | None) -> dict[str, tuple[int, int, int]]:
        rows = await self._rows(
            "SELECT game, count(*) FILTER (WHERE outcome = 'win'), count(*) FILTER (WHERE outcome = 'draw'),"
            " count(*) FILTER (WHERE outcome = 'loss') FROM results"
            " WHERE user_id = $1 AND ($2::bigint IS NULL OR guild_id = $2) GROUP BY game ORDER BY game",
            (user_id, guild_id))
        return {game: (int(w), int(d), int(lost)) for game, w, d, lost in rows}
