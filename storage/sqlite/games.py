"""Games: their rows, the one transaction a move saves in, their actions, shared content and damaged rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from storage.errors import StorageConflictError
from storage.rows import ActionRow, DeadlineRow, Finish, GameRow, QueueRow
from storage.sqlite.checks import (
    MAX_INT,
    STATUSES,
    _game_id,
    _integer,
    _json_of,
    _moment,
    _one_of,
    _seat_problem,
    _since,
    _text,
)
from storage.sqlite.codec import dt as _dt
from storage.sqlite.codec import dumps as _json
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.deadlines import _DEADLINES_OF_GAME, _insert_deadlines, _sound_deadlines
from storage.sqlite.league import write_finish
from storage.sqlite.queue import accept_challenge, take_entries
from storage.sqlite.statements import fetch, fetch_one, run, run_many
from storage.sqlite.tournaments import link_game

OPEN_STATUSES = ("lobby", "active")


_GAME_COLUMNS = (
    "id, game, guild_id, channel_id, host_id, status, options, seed, seats, version, moves, state, meta, "
    "outcome, created_at, updated_at"
)


def _game(row: sqlite3.Row | tuple[Any, ...]) -> GameRow:
    """A game row, every column checked (type and range) as it is read. A row that fails any check is still
    returned, with ``error`` saying why and safe values in the failed columns (0, empty), so that one damaged row
    never fails a query that lists many, and the engine isolates it instead of acting on it."""
    (gid, game, guild, channel, host, status, options, seed, seats, version, moves, state, meta, outcome,
     created, updated) = row
    errors: list[str] = []

    def column(name: str, decode: Callable[[Any], Any], value: Any, empty: Any) -> Any:
        # The columns that still read stay (who sits at a damaged table is what its players need to be told).
        try:
            return decode(value)
        except (ValueError, TypeError) as e:  # orjson.JSONDecodeError and bad timestamps are ValueErrors
            errors.append(f"{name}: {e}")
            return empty

    seat_list = column("seats", _json_of(list), seats, [])
    problems = [(i, _seat_problem(s)) for i, s in enumerate(seat_list)]
    errors += [f"seat {i}: {problem}" for i, problem in problems if problem is not None]
    epoch = datetime.fromtimestamp(0, UTC)
    decoded = GameRow(
        id=gid, game=column("game", _game_id, game, str(game)),  # id: the rowid, always an integer
        guild_id=column("guild_id", _integer(1, null=True), guild, None),
        # Any 64-bit id: a tournament's table without a surface has a made-up negative one, old terminal saves 0.
        channel_id=column("channel_id", _integer(-MAX_INT), channel, 0),
        host_id=column("host_id", _integer(0), host, 0),  # 0: no human hosts it (bots only)
        status=column("status", _one_of(STATUSES), status, str(status)),
        options=column("options", _json_of(dict), options, {}), seed=column("seed", _text, seed, ""),
        seats=[s for (_, problem), s in zip(problems, seat_list, strict=True) if problem is None],
        version=column("version", _integer(0), version, 0), moves=column("moves", _integer(0), moves, 0),
        state=column("state", _json_of(dict, null=True), state, None), meta=column("meta", _json_of(dict), meta, {}),
        outcome=column("outcome", _json_of(dict, null=True), outcome, None),
        created_at=column("created_at", _moment, created, epoch),
        updated_at=column("updated_at", _moment, updated, epoch),
    )
    if errors:
        decoded.error = "undecodable row: " + "; ".join(errors)
    return decoded


def _action(row: Sequence[Any]) -> ActionRow:
    game_id, seq, seat, action, source, user_id, interaction_id, created = row
    return ActionRow(game_id, seq, seat, action, source, user_id, interaction_id, _dt(created))


# A user's running games. ``instr`` (the id's digits somewhere in the seats' text) is a cheap necessary test, so
# only the few candidate rows are parsed. The CASEs keep a damaged row (seats not JSON, a seat not an object) from
# failing the whole query: json_each and json_extract raise on malformed JSON, and SQLite does not promise to test
# the other terms first. ``status IN (...)`` lets the all-servers query read the open games' partial index only.
_GAMES_OF_USER = """
SELECT g.id, coalesce((SELECT a.created_at FROM actions a WHERE a.game_id = g.id ORDER BY a.seq DESC LIMIT 1),
                      g.created_at)
FROM games g {index}
WHERE g.status IN ('lobby', 'active') AND g.status = 'active'{where} AND CASE WHEN instr(g.seats, ?) THEN EXISTS (
    SELECT 1 FROM json_each(CASE WHEN json_valid(g.seats) THEN g.seats ELSE '[]' END) s
    WHERE CASE WHEN s.type = 'object' THEN json_extract(s.value, '$.user_id') END = ?
      AND NOT coalesce(CASE WHEN s.type = 'object' THEN json_extract(s.value, '$.bot') END, 0)) ELSE 0 END
ORDER BY g.id"""


def _shared_params(row: GameRow) -> list[tuple[str, str, str]]:
    return [(digest, text, _ts(row.updated_at)) for digest, text in row.shared.items()]


def _insert_shared(conn: sqlite3.Connection, params: list[tuple[str, str, str]]) -> None:
    if not params:
        return
    # The hash names the content: a row already there holds the same text, so the first writer's stays.
    run_many(conn, "INSERT INTO shared_content (hash, data, created_at) VALUES (?, ?, ?)"
             " ON CONFLICT (hash) DO NOTHING", params)


class SqliteGames(SqliteDb):
    # --- games -----------------------------------------------------------------------------------------

    async def insert_game(self, row: GameRow, deadlines: Iterable[DeadlineRow] = (), *,
                          take: Sequence[QueueRow] = (), drop: Sequence[QueueRow] = (),
                          tournament: tuple[int, int, int] | None = None, challenge: int | None = None) -> int:
        """A new game's row and deadlines, in one transaction with what comes with it: a matched lobby takes its
        queue entries (``take``, all or `QueueEntryGoneError`; ``drop``, the members' other entries, whatever is
        there); a tournament's game is linked to its (tournament, round, table), so a restart before the
        tournament saves it finds the game it made rather than making another; an accepted challenge is
        answered with its game (`ChallengeClosedError`, nothing written, if it was no longer open)."""
        values = (row.game, row.guild_id, row.channel_id, row.host_id, row.status, _json(row.options), row.seed,
                  _json(row.seats), row.version, row.moves, None if row.state is None else _json(row.state),
                  _json(row.meta), None if row.outcome is None else _json(row.outcome), _ts(row.created_at),
                  _ts(row.updated_at))
        shared = _shared_params(row)
        deadlines = list(deadlines)

        def write(conn: sqlite3.Connection) -> int:
            take_entries(conn, take, drop)
            _insert_shared(conn, shared)
            cur = run(
                conn, "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, seats, version,"
                " moves, state, meta, outcome, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
            game_id = cur.lastrowid
            assert game_id is not None
            _insert_deadlines(conn, game_id, deadlines)
            if tournament is not None:
                link_game(conn, game_id, tournament)
            if challenge is not None:
                accept_challenge(conn, challenge, game_id)
            return game_id

        return await self._write(write)

    async def load_game(self, game_id: int) -> GameRow | None:
        row = await self._row(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def load_table(self, game_id: int) -> tuple[GameRow | None, list[DeadlineRow]]:
        """A game's row and its deadlines, read together in one round trip. A deadline row that does not decode
        is left out (logged): the scheduler sets it aside (`due_deadlines`), and it must not stop the game."""

        def read(conn: sqlite3.Connection) -> tuple[Any, list[Any]]:
            row = fetch_one(conn, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            return row, fetch(conn, _DEADLINES_OF_GAME, (game_id,))

        row, raw = await self._on_thread(read)
        if row is None:
            return None, []
        return _game(row), _sound_deadlines(raw, game_id)

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return None if row is None else _game(row)

    async def last_game_in_channel(self, channel_id: int, statuses: Sequence[str]) -> GameRow | None:
        """The channel's newest game with one of ``statuses`` (a thread's game after it ended)."""
        marks = ", ".join("?" for _ in statuses)
        row = await self._row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT 1",
            (channel_id, *statuses),
        )
        return None if row is None else _game(row)

    async def games_in_guild(self, guild_id: int, statuses: Sequence[str] = OPEN_STATUSES) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status IN ({marks}) ORDER BY id",
            (guild_id, *statuses),
        )
        return [_game(r) for r in rows]

    async def game_ids(self, statuses: Sequence[str] | None = None, game: str | None = None) -> list[int]:
        """Ids of the games with one of ``statuses`` (None: any) of one ``game`` (None: every game), in order."""
        where: list[str] = []
        params: list[str] = []
        if statuses is not None:
            where.append(f"status IN ({', '.join('?' for _ in statuses)})")
            params.extend(statuses)
        if game is not None:
            where.append("game = ?")
            params.append(game)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = await self._rows(f"SELECT id FROM games{clause} ORDER BY id", tuple(params))
        return [r[0] for r in rows]

    async def game_ids_where(self, meta_key: str, *, below_moves: bool, game: str | None = None,
                             statuses: Sequence[str] = ("active",), missing: bool = True) -> list[int]:
        """Ids of games whose ``meta[meta_key]`` is missing (unless not ``missing``) or (``below_moves``) less
        than their move count: the few a restart must look at, found without loading every game."""
        marks = ", ".join("?" for _ in statuses)
        # A row whose meta is not JSON is listed (the engine isolates it on loading), never fatal to the query.
        value = f"CASE WHEN json_valid(meta) THEN json_extract(meta, '$.{meta_key}') END"
        below = f"{value} < moves" if below_moves else "0"
        test = f"({value} IS NULL OR {below})" if missing else f"({below})"
        kind = " AND game = ?" if game is not None else ""
        rows = await self._rows(
            f"SELECT id FROM games WHERE status IN ({marks}) AND {test}{kind} ORDER BY id",
            (*statuses, *([game] if game is not None else [])))
        return [r[0] for r in rows]

    async def games_of_user(self, user_id: int, guild_id: int | None = None) -> list[tuple[int, datetime]]:
        """The running games ``user_id`` holds a (human) seat in, on one server or on all of them: each id with
        the time its position last changed: its last action; before the first one, the lobby's opening (the
        start is not stored apart, and ``updated_at`` moves with every bookkeeping save).

        No index table: the open games' rows are scanned through an index and only those whose seats' text holds
        the id are parsed (`_GAMES_OF_USER`). Measured: every server, 1,000 running and 10,000 finished games,
        about 1.5 ms; one server, well under 1 ms. A damaged row's seats read as no seats."""
        if guild_id is None:  # every server: only the open games' rows are read, through the partial index
            sql = _GAMES_OF_USER.format(index="INDEXED BY games_one_open_per_channel", where="")
        else:
            sql = _GAMES_OF_USER.format(index="INDEXED BY games_by_guild", where=" AND g.guild_id = ?")
        guild = () if guild_id is None else (guild_id,)
        rows = await self._rows(sql, (*guild, str(user_id), user_id))
        return [(gid, _since(text)) for gid, text in rows]

    async def save_game(
        self,
        row: GameRow,
        *,
        expect_version: int,
        action: ActionRow | None = None,
        drop_deadlines: Iterable[int] = (),
        add_deadlines: Iterable[DeadlineRow] = (),
        clear_deadlines: bool = False,
        finish: Finish | None = None,
    ) -> list[DeadlineRow]:
        """Write the new snapshot, its action, its shared content and its deadline changes in one transaction;
        returns the added deadlines with their ids.

        ``expect_version`` is the version the caller loaded: a concurrent writer makes this fail instead of
        silently overwriting a move. ``clear_deadlines`` drops all the game's deadlines before adding. ``finish``:
        the game ended; its results and rating changes are written in this same transaction (once per game).
        """
        values = (row.status, _json(row.options), _json(row.seats), row.version, row.moves,
                  None if row.state is None else _json(row.state), _json(row.meta),
                  None if row.outcome is None else _json(row.outcome), _ts(row.updated_at), row.id, expect_version)
        logged = None if action is None else (
            action.game_id, action.seq, action.seat, action.action, action.source, action.user_id,
            action.interaction_id, _ts(action.created_at))
        shared = _shared_params(row)
        drops = [(deadline_id,) for deadline_id in drop_deadlines]
        adds = list(add_deadlines)

        def write(conn: sqlite3.Connection) -> list[DeadlineRow]:
            cur = run(
                conn,
                "UPDATE games SET status = ?, options = ?, seats = ?, version = ?, moves = ?, state = ?, meta = ?,"
                " outcome = ?, updated_at = ? WHERE id = ? AND version = ?", values)
            if cur.rowcount != 1:
                raise StorageConflictError(f"game {row.id} is no longer at version {expect_version}")
            if finish is not None:
                write_finish(conn, finish)
            _insert_shared(conn, shared)
            if logged is not None:
                run(
                    conn,
                    "INSERT INTO actions (game_id, seq, seat, action, source, user_id, interaction_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", logged)
            if clear_deadlines:
                run(conn, "DELETE FROM deadlines WHERE game_id = ?", (row.id,))
            run_many(conn, "DELETE FROM deadlines WHERE id = ?", drops)
            return _insert_deadlines(conn, row.id, adds)

        return await self._write(write)

    # --- shared content --------------------------------------------------------------------------------

    async def shared_content(self, hashes: Iterable[str]) -> dict[str, str]:
        """The stored JSON text of each of ``hashes`` that is stored (see `GameRow.shared`)."""
        wanted = sorted(set(hashes))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self._rows(f"SELECT hash, data FROM shared_content WHERE hash IN ({marks})", wanted)
        return {h: data for h, data in rows}

    # --- actions ---------------------------------------------------------------------------------------

    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self._rows(
            "SELECT game_id, seq, seat, action, source, user_id, interaction_id, created_at FROM actions"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [_action(r) for r in rows]

    async def action_by_interaction(self, interaction_id: int) -> ActionRow | None:
        row = await self._row(
            "SELECT game_id, seq, seat, action, source, user_id, interaction_id, created_at FROM actions"
            " WHERE interaction_id = ?",
            (interaction_id,),
        )
        return None if row is None else _action(row)


    # --- damaged games ---------------------------------------------------------------------------------

    async def mark_damaged(self, game_id: int, reason: str, now: datetime) -> bool:
        """Record that a game's row fails to load; True the first time (its players are to be told once)."""

        def write(conn: sqlite3.Connection) -> bool:
            cur = run(
                conn, "INSERT INTO damaged_games (game_id, reason, found_at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO NOTHING", (game_id, reason[:500], _ts(now)))
            if cur.rowcount != 1:
                return False
            cur = run(
                conn, "UPDATE damaged_games SET notified_at = ? WHERE game_id = ? AND notified_at IS NULL",
                (_ts(now), game_id))
            return cur.rowcount == 1

        return await self._write(write)

    async def damaged_games(self) -> dict[int, str]:
        rows = await self._rows(
            "SELECT d.game_id, d.reason FROM damaged_games d JOIN games g ON g.id = d.game_id"
            " WHERE g.status IN ('lobby', 'active')")
        return {gid: reason for gid, reason in rows}

    async def close_damaged(self, game_id: int, reason: str) -> bool:
        """Abort a damaged game without decoding it: its status and deadlines only; the row stays for export."""

        def write(conn: sqlite3.Connection) -> bool:
            cur = run(
                conn, "UPDATE games SET status = 'aborted', version = version + 1 WHERE id = ?"
                " AND status IN ('lobby', 'active')", (game_id,))
            run(conn, "DELETE FROM deadlines WHERE game_id = ?", (game_id,))
            run(conn, "UPDATE damaged_games SET reason = reason || ? WHERE game_id = ?",
                (f" (closed: {reason})", game_id))
            return cur.rowcount == 1

        return await self._write(write)
