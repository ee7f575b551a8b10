"""PostgreSQL through asyncpg: the backend for more than one bot process (issue 26). `PostgresStore` implements
`storage.store.Store` with SqliteStore's semantics (one transaction per move, the version check, the same errors,
the same checks of rows as they are read), built from one mixin per aggregate over `PostgresDb` (the pool).
Opened by `storage.open_store("postgresql://user@host:port/db")`; migrations in storage/migrations/postgres/.
"""

from __future__ import annotations

from storage.postgres.content import PostgresContent
from storage.postgres.daily import PostgresDaily
from storage.postgres.db import POOL_SIZE, PostgresDb
from storage.postgres.follows import PostgresFollows
from storage.postgres.games import PostgresGames
from storage.postgres.league import PostgresLeague
from storage.postgres.queue import PostgresQueue
from storage.postgres.settings import PostgresSettings
from storage.postgres.tournaments import PostgresTournaments
from storage.postgres.web import PostgresWeb


class PostgresStore(PostgresGames, PostgresSettings, PostgresLeague, PostgresTournaments, PostgresDaily,
                    PostgresContent, PostgresWeb, PostgresFollows, PostgresQueue, PostgresDb):
    """Every aggregate over one small pool: `PostgresStore.open(url)`, or `storage.open_store(url)`."""


__all__ = ["POOL_SIZE", "PostgresDb", "PostgresStore"]
