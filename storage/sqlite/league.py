"""Results and ratings: what a finished game leaves behind (migration 0008), and the reads of /leaderboard,
/profile and /history.

A game's end is written once and with the game: `SqliteStore.save_game` takes a `Finish` and writes it in the
same transaction as the final snapshot (`write_finish`). The results' primary key (game, user) makes a second
write impossible, and a game whose results are already there changes nothing, ratings included. The current
ratings are read inside that write transaction: SQLite runs one write at a time, so two games ending at once
each rate from the other's saved values and neither update is lost.

The rating arithmetic is not here: `Finish.rate` is a pure function (engine/results.py builds it over
league.ratings) from the players' current ratings to their new ones, called once per scope: the game's server,
and 0 for every server together.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from league.ratings import Rating
from storage.rows import GLOBAL, OUTCOMES, Finish, RatingRow, ResultRow
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.statements import fetch, fetch_one, run, run_many

log = logging.getLogger(__name__)

_RESULT_COLUMNS = ("r.game_id, r.user_id, r.guild_id, r.game, r.seat, r.place, r.outcome, r.score, r.rated, r.before,"
                   " r.after, r.finished_at, g.channel_id,"
                   " CASE WHEN json_valid(g.seats) THEN json_array_length(g.seats) ELSE 0 END")
_RATING_COLUMNS = "scope, game, user_id, mu, sigma, games, wins, draws, losses, updated_at"


def _result(row: Sequence[Any]) -> ResultRow:
    (game_id, user_id, guild_id, game, seat, place, outcome, score, rated, before, after, finished, channel,
     players) = row
    return ResultRow(game_id, user_id, guild_id, game, seat, place, outcome, score, bool(rated), before, after,
                     datetime.fromisoformat(finished), channel, players)


def _rating(row: Sequence[Any]) -> RatingRow:
    *head, updated = row
    return RatingRow(*head, updated_at=datetime.fromisoformat(updated))


# --- the write, on the connection's thread inside `save_game`'s transaction ---------------------------------


def write_finish(conn: sqlite3.Connection, finish: Finish) -> bool:
    """Insert the game's results and apply its rating changes; False (nothing written) when the game's results
    are already stored: a game is counted once, whatever retries."""
    if fetch_one(conn, "SELECT 1 FROM results WHERE game_id = ? LIMIT 1", (finish.game_id,)):
        return False
    plans = _plans(conn, finish) if finish.rated and finish.rate is not None else []
    shown: dict[int, tuple[int, int]] = {}
    for scope, current, new in plans:  # the server's first: its display values go into the results
        for user_id, change in _write_ratings(conn, finish, scope, current, new).items():
            shown.setdefault(user_id, change)
    rated = int(bool(plans))
    stamp = _ts(finish.finished_at)
    run_many(
        conn,
        "INSERT INTO results (game_id, user_id, guild_id, game, seat, place, outcome, score, rated, before, after,"
        " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(finish.game_id, r.user_id, finish.guild_id, finish.game, r.seat, r.place, r.outcome, r.score, rated,
          *(shown.get(r.user_id) or (None, None)), stamp) for r in finish.rows])
    return True


Plan = tuple[int, dict[int, Rating], dict[int, Rating]]  # (scope, current ratings, new ratings)


def _plans(conn: sqlite3.Connection, finish: Finish) -> list[Plan]:
    """Every scope's new ratings, all computed before anything is written. A rating bug must not keep a game from
    ending (faults stay local): it is logged and the game's results are stored unrated."""
    assert finish.rate is not None
    users = [r.user_id for r in finish.rows]
    marks = ", ".join("?" for _ in users)
    plans = []
    for scope in [GLOBAL] if finish.guild_id is None else [finish.guild_id, GLOBAL]:
        current = {row[0]: Rating(row[1], row[2], row[3]) for row in fetch(
            conn,
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE scope = ? AND game = ? AND user_id IN ({marks})",
            (scope, finish.game, *users))}
        try:
            new = finish.rate(dict(current))
        except Exception:
            log.exception("game %s (%s): its ratings could not be computed; stored unrated", finish.game_id,
                          finish.game)
            return []
        plans.append((scope, current, new))
    return plans


def _write_ratings(conn: sqlite3.Connection, finish: Finish, scope: int, current: dict[int, Rating],
                   new: dict[int, Rating]) -> dict[int, tuple[int, int]]:
    """Upsert one scope's new ratings with the W/D/L; each player's (display before, display after)."""
    stamp = _ts(finish.finished_at)
    out = {}
    for r in finish.rows:
        after = new.get(r.user_id)
        if after is None:
            continue
        win, draw, loss = (int(r.outcome == o) for o in OUTCOMES)
        run(
            conn, "INSERT INTO ratings (scope, game, user_id, mu, sigma, games, wins, draws, losses, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, game, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, wins = wins + excluded.wins,"
            " draws = draws + excluded.draws, losses = losses + excluded.losses, updated_at = excluded.updated_at",
            (scope, finish.game, r.user_id, after.mu, after.sigma, after.games, win, draw, loss, stamp))
        out[r.user_id] = (current.get(r.user_id, Rating()).display, after.display)
    return out


# --- the store's methods -----------------------------------------------------------------------------------


class SqliteLeague(SqliteDb):
    """Results and ratings."""

    async def record_finish(self, finish: Finish) -> bool:
        """Write a game's results on their own (a repair, a backfill); False when they are already stored. A game
        ending in play writes them with its final save instead (`save_game`'s ``finish``)."""
        return await self._write(lambda conn: write_finish(conn, finish))

    async def results_of(self, user_id: int, *, guild_id: int | None = None, game: str | None = None,
                         limit: int = 20, before: datetime | None = None, offset: int = 0) -> list[ResultRow]:
        """The player's finished games, newest first: on one server or every one, of one game or all; ``before`` a
        time (keyset paging) and/or ``offset`` rows skipped."""
        where, params = ["r.user_id = ?"], [user_id]
        for clause, value in (("r.guild_id = ?", guild_id), ("r.game = ?", game),
                              ("r.finished_at < ?", None if before is None else _ts(before))):
            if value is not None:
                where.append(clause)
                params.append(value)
        rows = await self._rows(
            f"SELECT {_RESULT_COLUMNS} FROM results r JOIN games g ON g.id = r.game_id WHERE {' AND '.join(where)}"
            " ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ? OFFSET ?", (*params, limit, offset))
        return [_result(r) for r in rows]

    async def rating(self, scope: int, game: str, user_id: int) -> RatingRow | None:
        row = await self._row(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE scope = ? AND game = ? AND user_id = ?",
                              (scope, game, user_id))
        return None if row is None else _rating(row)

    async def leaderboard(self, scope: int, game: str, limit: int = 10, offset: int = 0,
                          min_games: int = 0) -> list[RatingRow]:
        """The best by conservative rating (mu − 3σ; the number shown is mu, docs/ratings.md), through the
        ``ratings_board`` index; ties by more games, then the earlier id."""
        rows = await self._rows(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE scope = ? AND game = ? AND games >= ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (scope, game, min_games, limit, offset))
        return [_rating(r) for r in rows]

    async def ratings_of(self, user_id: int, scope: int) -> list[RatingRow]:
        """The player's rating in every game they are rated in, in one scope."""
        rows = await self._rows(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE user_id = ? AND scope = ? ORDER BY game",
                                (user_id, scope))
        return [_rating(r) for r in rows]

    async def record_counts(self, user_id: int, guild_id: int | None) -> dict[str, tuple[int, int, int]]:
        """(wins, draws, losses) per game from every recorded game, rated or not: on one server, or every one."""
        where, params = "user_id = ?", [user_id]
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        rows = await self._rows(
            "SELECT game, SUM(outcome = 'win'), SUM(outcome = 'draw'), SUM(outcome = 'loss') FROM results"
            f" WHERE {where} GROUP BY game ORDER BY game", params)
        return {game: (int(w), int(d), int(lost)) for game, w, d, lost in rows}
