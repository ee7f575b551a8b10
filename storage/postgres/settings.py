"""Server settings, players' settings and their vacations on PostgreSQL (see storage/sqlite/settings.py)."""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

import orjson

from storage.postgres.db import PostgresDb
from storage.sqlite.codec import dumps as _json


class PostgresSettings(PostgresDb):
    async def user_settings(self, user_id: int) -> dict[str, Any]:
        row = await self._row("SELECT data FROM user_settings WHERE user_id = $1", (user_id,))
        value = None if row is None else orjson.loads(row[0])
        return value if isinstance(value, dict) else {}

    async def all_user_settings(self) -> dict[int, dict[str, Any]]:
        out = {}
        for user_id, text in await self._rows("SELECT user_id, data FROM user_settings"):
            with contextlib.suppress(orjson.JSONDecodeError, TypeError):  # one damaged row: that player's defaults
                out[user_id] = orjson.loads(text)
        return out

    async def set_user_settings(self, user_id: int, data: dict[str, Any]) -> None:
        text = _json(data)
        await self._write(lambda conn: conn.execute(
            "INSERT INTO user_settings (user_id, data) VALUES ($1, $2)"
            " ON CONFLICT (user_id) DO UPDATE SET data = excluded.data", user_id, text))

    async def vacations(self, user_id: int, guild_id: int, since: datetime) -> list[tuple[int, datetime, datetime]]:
        rows = await self._rows("SELECT id, starts_at, ends_at FROM vacations WHERE user_id = $1 AND guild_id = $2"
                                " AND ends_at > $3 ORDER BY starts_at", (user_id, guild_id, since))
        return [(r[0], r[1], r[2]) for r in rows]

    async def add_vacation(self, user_id: int, guild_id: int, starts: datetime, ends: datetime) -> int:
        return int(await self._write(lambda conn: conn.fetchval(
            "INSERT INTO vacations (guild_id, user_id, starts_at, ends_at) VALUES ($1, $2, $3, $4) RETURNING id",
            guild_id, user_id, starts, ends)))

    async def end_vacation(self, vacation_id: int, ends: datetime) -> None:
        await self._write(lambda conn: conn.execute("UPDATE vacations SET ends_at = $1 WHERE id = $2",
                                                    ends, vacation_id))

    async def get_setting(self, guild_id: int, key: str) -> Any:
        row = await self._row("SELECT value FROM guild_settings WHERE guild_id = $1 AND key = $2", (guild_id, key))
        return None if row is None else orjson.loads(row[0])

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        if value is None:
            await self._write(lambda conn: conn.execute(
                "DELETE FROM guild_settings WHERE guild_id = $1 AND key = $2", guild_id, key))
            return
        text = _json(value)
        await self._write(lambda conn: conn.execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES ($1, $2, $3)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value", guild_id, key, text))
