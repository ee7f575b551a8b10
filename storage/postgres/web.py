"""The web site's slugs on PostgreSQL (see storage/sqlite/web.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from storage.postgres.db import Connection, PostgresDb
from storage.rows import WebKey


class PostgresWeb(PostgresDb):
    async def add_web_slugs(self, wanted: Sequence[tuple[WebKey, str]], now: datetime) -> dict[WebKey, str]:
        async def write(conn: Connection) -> dict[WebKey, str]:
            out: dict[WebKey, str] = {}
            for (kind, guild_id, object_id), slug in wanted:
                await conn.execute(
                    "INSERT INTO web_slugs (slug, kind, guild_id, object_id, created_at) VALUES ($1, $2, $3, $4, $5)"
                    " ON CONFLICT (kind, guild_id, object_id) DO NOTHING", slug, kind, guild_id, object_id, now)
                out[(kind, guild_id, object_id)] = await conn.fetchval(
                    "SELECT slug FROM web_slugs WHERE kind = $1 AND guild_id = $2 AND object_id = $3",
                    kind, guild_id, object_id)
            return out

        return await self._write(write)

    async def web_target(self, slug: str) -> WebKey | None:
        row = await self._row("SELECT kind, guild_id, object_id FROM web_slugs WHERE slug = $1", (slug,))
        return None if row is None else (row[0], row[1], row[2])

    async def web_slugs(self, kind: str, guild_id: int, object_ids: Sequence[int]) -> dict[int, str]:
        if not object_ids:
            return {}
        rows = await self._rows("SELECT object_id, slug FROM web_slugs WHERE kind = $1 AND guild_id = $2"
                                " AND object_id = ANY($3::bigint[])", (kind, guild_id, list(object_ids)))
        return {r[0]: r[1] for r in rows}
