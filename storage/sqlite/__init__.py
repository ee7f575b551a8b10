"""The embedded default backend: SQLite through aiosqlite, WAL, numbered migrations, one transaction per move.

`SqliteStore` is one implementation of `storage.store.Store`, built from one mixin per aggregate over `SqliteDb`
(the connection thread). Times are stored as ISO-8601 UTC text, JSON columns through orjson.
"""

from __future__ import annotations

from storage.sqlite.content import SqliteContent
from storage.sqlite.daily import SqliteDaily
from storage.sqlite.db import BUSY_TIMEOUT_MS, SqliteDb, _migrations, _open_error
from storage.sqlite.deadlines import SqliteDeadlines
from storage.sqlite.follows import SqliteFollows
from storage.sqlite.games import _GAMES_OF_USER, OPEN_STATUSES, SqliteGames
from storage.sqlite.league import SqliteLeague
from storage.sqlite.queue import SqliteQueue
from storage.sqlite.settings import SqliteSettings
from storage.sqlite.tournaments import SqliteTournaments
from storage.sqlite.web import SqliteWeb


class SqliteStore(SqliteGames, SqliteDeadlines, SqliteSettings, SqliteLeague, SqliteTournaments, SqliteDaily,
                  SqliteContent, SqliteWeb, SqliteFollows, SqliteQueue, SqliteDb):
    """Every aggregate over one connection: `SqliteStore.open(path)`, or `storage.open_store("sqlite:///path")`."""


__all__ = ["BUSY_TIMEOUT_MS", "OPEN_STATUSES", "_GAMES_OF_USER", "SqliteDb", "SqliteStore", "_migrations",
           "_open_error"]
