"""The web site's slugs (migration 0011): made by the bot and the CLI, read by the read-only web process."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from storage.rows import WebKey
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.statements import fetch_one, run


class SqliteWeb(SqliteDb):
    async def add_web_slugs(self, wanted: Sequence[tuple[WebKey, str]], now: datetime) -> dict[WebKey, str]:
        """Give each (kind, guild, object) the proposed slug unless it has one already; every key's slug, in one
        transaction (two writers proposing at once: the first one's slug stays)."""
        stamp = _ts(now)

        def write(conn: sqlite3.Connection) -> dict[WebKey, str]:
            out: dict[WebKey, str] = {}
            for (kind, guild_id, object_id), slug in wanted:
                run(conn, "INSERT INTO web_slugs (slug, kind, guild_id, object_id, created_at) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (kind, guild_id, object_id) DO NOTHING", (slug, kind, guild_id, object_id, stamp))
                (out[(kind, guild_id, object_id)],) = fetch_one(
                    conn, "SELECT slug FROM web_slugs WHERE kind = ? AND guild_id = ? AND object_id = ?",
                    (kind, guild_id, object_id))
            return out

        return await self._write(write)

    async def web_target(self, slug: str) -> WebKey | None:
        row = await self._row("SELECT kind, guild_id, object_id FROM web_slugs WHERE slug = ?", (slug,))
        return None if row is None else (row[0], row[1], row[2])

    async def web_slugs(self, kind: str, guild_id: int, object_ids: Sequence[int]) -> dict[int, str]:
        """The slugs of these objects of one server that have one (the links a page shows)."""
        if not object_ids:
            return {}
        marks = ", ".join("?" for _ in object_ids)
        rows = await self._rows(f"SELECT object_id, slug FROM web_slugs WHERE kind = ? AND guild_id = ?"
                                f" AND object_id IN ({marks})", (kind, guild_id, *object_ids))
        return {r[0]: r[1] for r in rows}
