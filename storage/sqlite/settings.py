"""Server settings, players' settings and their vacations."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import datetime
from typing import Any

import orjson

from storage.sqlite.codec import dt as _dt
from storage.sqlite.codec import dumps as _json
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.statements import run


class SqliteSettings(SqliteDb):
    # --- players: their settings and vacations ------------------------------------------------------------

    async def user_settings(self, user_id: int) -> dict[str, Any]:
        row = await self._row("SELECT data FROM user_settings WHERE user_id = ?", (user_id,))
        value = None if row is None else orjson.loads(row[0])
        return value if isinstance(value, dict) else {}

    async def all_user_settings(self) -> dict[int, dict[str, Any]]:
        """Every player's settings (a few bytes each: the bot keeps them in memory)."""
        out = {}
        for user_id, text in await self._rows("SELECT user_id, data FROM user_settings"):
            with contextlib.suppress(orjson.JSONDecodeError, TypeError):  # one damaged row: that player's defaults
                out[user_id] = orjson.loads(text)
        return out

    async def set_user_settings(self, user_id: int, data: dict[str, Any]) -> None:
        text = _json(data)

        def write(conn: sqlite3.Connection) -> None:
            run(conn, "INSERT INTO user_settings (user_id, data) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET data = excluded.data", (user_id, text))

        await self._write(write)

    async def vacations(self, user_id: int, guild_id: int, since: datetime) -> list[tuple[int, datetime, datetime]]:
        """The player's vacations on a server that end after ``since``: (id, starts, ends), oldest first."""
        rows = await self._rows("SELECT id, starts_at, ends_at FROM vacations WHERE user_id = ? AND guild_id = ?"
                                " AND ends_at > ? ORDER BY starts_at", (user_id, guild_id, _ts(since)))
        return [(r[0], _dt(r[1]), _dt(r[2])) for r in rows]

    async def add_vacation(self, user_id: int, guild_id: int, starts: datetime, ends: datetime) -> int:
        def write(conn: sqlite3.Connection) -> int:
            cur = run(conn, "INSERT INTO vacations (guild_id, user_id, starts_at, ends_at) VALUES (?, ?, ?, ?)",
                      (guild_id, user_id, _ts(starts), _ts(ends)))
            return int(cur.lastrowid or 0)

        return await self._write(write)

    async def end_vacation(self, vacation_id: int, ends: datetime) -> None:
        def write(conn: sqlite3.Connection) -> None:
            run(conn, "UPDATE vacations SET ends_at = ? WHERE id = ?", (_ts(ends), vacation_id))

        await self._write(write)

    async def get_setting(self, guild_id: int, key: str) -> Any:
        row = await self._row("SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
        return None if row is None else orjson.loads(row[0])

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        text = None if value is None else _json(value)

        def write(conn: sqlite3.Connection) -> None:
            if text is None:
                run(conn, "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
            else:
                run(
                    conn, "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value", (guild_id, key, text))

        await self._write(write)
