"""The Floor's server content: a server's own categories and the answers it added."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from i18n.text import fold
from storage.errors import DuplicateNameError
from storage.rows import SERVER_CATEGORY_PREFIX, server_category_number
from storage.sqlite.codec import dumps as _json
from storage.sqlite.codec import loads as _load
from storage.sqlite.codec import ts as _ts
from storage.sqlite.db import SqliteDb
from storage.sqlite.statements import run


def _floor_category(row: Sequence[Any]) -> dict[str, Any]:
    cid, name, flags, answers = row
    return {"id": f"{SERVER_CATEGORY_PREFIX}{cid}", "name": name, "flags": _load(flags), "answers": _load(answers)}


class SqliteContent(SqliteDb):
    # --- The Floor: server content ---------------------------------------------------------------------

    async def add_floor_category(self, guild_id: int, lang: str, name: str, flags: Sequence[str],
                                 answers: Sequence[str], user_id: int | None, now: datetime) -> int:
        """Store a server's own category; returns its row id (the game knows it as ``server_<id>``).

        Raises `DuplicateNameError` (nothing written) when the server already has a category of exactly that
        name in that language. Validation (flags, sizes, duplicate answers) is the caller's.
        """
        params = (guild_id, lang, name, _json(list(flags)), _json(list(answers)), user_id, _ts(now))

        def write(conn: sqlite3.Connection) -> int:
            cur = run(
                conn, "INSERT INTO floor_categories (guild_id, lang, name, flags, answers, created_by, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, lang, name) DO NOTHING", params)
            if cur.rowcount != 1:
                raise DuplicateNameError(f"guild {guild_id} already has a {lang} category named {name!r}")
            assert cur.lastrowid is not None
            return cur.lastrowid

        return await self._write(write)

    async def floor_categories(self, guild_id: int, lang: str) -> list[dict[str, Any]]:
        """A server's categories in one language, oldest first: ``{"id": "server_<id>", "name", "flags",
        "answers"}`` each."""
        rows = await self._rows(
            "SELECT id, name, flags, answers FROM floor_categories WHERE guild_id = ? AND lang = ? ORDER BY id",
            (guild_id, lang),
        )
        return [_floor_category(r) for r in rows]

    async def floor_category(self, guild_id: int, category_id: int | str) -> tuple[str, dict[str, Any]] | None:
        """(lang, category) of one of the server's categories by ``server_<id>`` (or the bare number)."""
        number = server_category_number(category_id)
        if number is None:
            return None
        row = await self._row(
            "SELECT lang, id, name, flags, answers FROM floor_categories WHERE guild_id = ? AND id = ?",
            (guild_id, number),
        )
        return None if row is None else (row[0], _floor_category(row[1:]))

    async def remove_floor_category(self, guild_id: int, category_id: int | str) -> bool:
        """Delete one of the server's categories (``server_<id>`` or the bare number) with the answers added to
        it; False when the server has no such category."""
        number = server_category_number(category_id)
        if number is None:
            return False

        def write(conn: sqlite3.Connection) -> bool:
            cur = run(conn, "DELETE FROM floor_categories WHERE guild_id = ? AND id = ?", (guild_id, number))
            if cur.rowcount != 1:
                return False
            run(conn, "DELETE FROM floor_answers WHERE guild_id = ? AND category = ?",
                (guild_id, f"{SERVER_CATEGORY_PREFIX}{number}"))
            return True

        return await self._write(write)

    async def add_floor_answer(self, guild_id: int, lang: str, category: str, answer: str, user_id: int | None,
                               now: datetime, *, key: str | None = None) -> bool:
        """Add an answer to the server's list for a category; False when an answer with the same key (by default
        `i18n.text.fold` of it) is there already."""
        folded = fold(answer) if key is None else key
        params = (guild_id, lang, category, answer, folded, user_id, _ts(now))
        added = await self._write(lambda conn: run(
            conn, "INSERT INTO floor_answers (guild_id, lang, category, answer, folded, added_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, lang, category, folded) DO NOTHING",
            params).rowcount)
        return added == 1

    async def floor_answers(self, guild_id: int, lang: str) -> dict[str, list[str]]:
        """The answers a server added, per category id (built-in or ``server_<id>``), each list oldest first."""
        rows = await self._rows(
            "SELECT category, answer FROM floor_answers WHERE guild_id = ? AND lang = ? ORDER BY category, rowid",
            (guild_id, lang),
        )
        out: dict[str, list[str]] = {}
        for category, answer in rows:
            out.setdefault(category, []).append(answer)
        return out

    async def remove_floor_answer(self, guild_id: int, lang: str, category: str, answer: str, *,
                                  key: str | None = None) -> bool:
        """Remove an added answer (matched by its folded key); False when it is not on the server's list."""
        folded = fold(answer) if key is None else key
        params = (guild_id, lang, category, folded)
        removed = await self._write(lambda conn: run(
            conn, "DELETE FROM floor_answers WHERE guild_id = ? AND lang = ? AND category = ? AND folded = ?",
            params).rowcount)
        return removed == 1
