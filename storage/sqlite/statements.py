"""Statements that never stay open: each is run to its end and its cursor closed before the next step.

A statement whose result is left unread (``PRAGMA journal_mode=WAL`` returns a row; so does a SELECT read with
``fetchone``) stays in progress for as long as anything holds its cursor, and then SQLite refuses every COMMIT on
the connection ("cannot commit transaction - SQL statements in progress"). When the cursor is freed depends on
who else holds references to it (a test driver, a debugger, a profiler), so every statement in storage/ goes
through these helpers instead of ``conn.execute``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any


def run(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
    """Run one statement to its end and close it; the closed cursor still tells ``rowcount`` and ``lastrowid``."""
    cur = conn.execute(sql, params)
    try:
        cur.fetchall()
    finally:
        cur.close()
    return cur


def run_many(conn: sqlite3.Connection, sql: str, params: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
    cur = conn.executemany(sql, params)
    cur.close()
    return cur


def fetch(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """Every row of a query, the statement finished and closed."""
    cur = conn.execute(sql, params)
    try:
        return cur.fetchall()
    finally:
        cur.close()


def fetch_one(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
    """The first row of a query (None when there is none), the statement closed whatever else it would return."""
    cur = conn.execute(sql, params)
    try:
        return cur.fetchone()
    finally:
        cur.close()
