"""The Floor's server content on PostgreSQL (see storage/sqlite/content.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from i18n.text import fold
from storage.errors import DuplicateNameError
from storage.postgres.db import Connection, PostgresDb, rowcount
from storage.rows import SERVER_CATEGORY_PREFIX, server_category_number
from storage.sqlite.codec import dumps as _json
from storage.sqlite.content import _floor_category


class PostgresContent(PostgresDb):
    async def add_floor_category(self, guild_id: int, lang: str, name: str, flags: Sequence[str],
                                 answers: Sequence[str], user_id: int | None, now: datetime) -> int:
        """Store a server's own category; its row id. `DuplicateNameError` when the name is taken (per language)."""

        async def write(conn: Connection) -> int:
            number = await conn.fetchval(
                "INSERT INTO floor_categories (guild_id, lang, name, flags, answers, created_by, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guild_id, lang, name) DO NOTHING RETURNING id",
                guild_id, lang, name, _json(list(flags)), _json(list(answers)), user_id, now)
            if number is None:
                raise DuplicateNameError(f"guild {guild_id} already has a {lang} category named {name!r}")
            return int(number)

        return await self._write(write)

    async def floor_categories(self, guild_id: int, lang: str) -> list[dict[str, Any]]:
        rows = await self._rows("SELECT id, name, flags, answers FROM floor_categories WHERE guild_id = $1"
                                " AND lang = $2 ORDER BY id", (guild_id, lang))
        return [_floor_category(r) for r in rows]

    async def floor_category(self, guild_id: int, category_id: int | str) -> tuple[str, dict[str, Any]] | None:
        number = server_category_number(category_id)
        if number is None:
            return None
        row = await self._row("SELECT lang, id, name, flags, answers FROM floor_categories WHERE guild_id = $1"
                              " AND id = $2", (guild_id, number))
        return None if row is None else (row[0], _floor_category(row[1:]))

    async def remove_floor_category(self, guild_id: int, category_id: int | str) -> bool:
        number = server_category_number(category_id)
        if number is None:
            return False

        async def write(conn: Connection) -> bool:
            status = await conn.execute("DELETE FROM floor_categories WHERE guild_id = $1 AND id = $2",
                                        guild_id, number)
            if rowcount(status) != 1:
                return False
            await conn.execute("DELETE FROM floor_answers WHERE guild_id = $1 AND category = $2",
                               guild_id, f"{SERVER_CATEGORY_PREFIX}{number}")
            return True

        return await self._write(write)

    async def add_floor_answer(self, guild_id: int, lang: str, category: str, answer: str, user_id: int | None,
                               now: datetime, *, key: str | None = None) -> bool:
        folded = fold(answer) if key is None else key
        status = await self._write(lambda conn: conn.execute(
            "INSERT INTO floor_answers (guild_id, lang, category, answer, folded, added_by, created_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guild_id, lang, category, folded) DO NOTHING",
            guild_id, lang, category, answer, folded, user_id, now))
        return rowcount(status) == 1

    async def floor_answers(self, guild_id: int, lang: str) -> dict[str, list[str]]:
        # COLLATE "C": code-point order as SQLite's, whatever collation the database was created with
        rows = await self._rows("SELECT category, answer FROM floor_answers WHERE guild_id = $1 AND lang = $2"
                                ' ORDER BY category COLLATE "C", seq', (guild_id, lang))
        out: dict[str, list[str]] = {}
        for category, answer in rows:
            out.setdefault(category, []).append(answer)
        return out

    async def remove_floor_answer(self, guild_id: int, lang: str, category: str, answer: str, *,
                                  key: str | None = None) -> bool:
        folded = fold(answer) if key is None else key
        status = await self._write(lambda conn: conn.execute(
            "DELETE FROM floor_answers WHERE guild_id = $1 AND lang = $2 AND category = $3 AND folded = $4",
            guild_id, lang, category, folded))
        return rowcount(status) == 1
