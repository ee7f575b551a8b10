"""Checks of stored columns as they are read: a value of the wrong type or range is a damaged row, never a crash."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from storage.sqlite.codec import dt as _dt
from storage.sqlite.codec import loads as _load


def _since(text: Any) -> datetime:
    """A stored time, or the epoch when it does not read (the row is damaged: the engine sets it aside)."""
    try:
        return _dt(text)
    except (ValueError, TypeError):
        return datetime.fromtimestamp(0, UTC)


STATUSES = ("lobby", "active", "finished", "aborted")
MAX_INT = 2**63 - 1  # SQLite's INTEGER: a number past it is stored as REAL, and Python would take it as a float
_GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")


def _integer(low: int, *, null: bool = False) -> Callable[[Any], Any]:
    """A check of a stored integer in ``low``..`MAX_INT` (``None`` too when ``null``). ``bool`` and float are
    refused: text or a number past 64 bits in an INTEGER column reads back as them, never as an int."""

    def check(value: Any) -> Any:
        if value is None and null:
            return None
        if type(value) is not int or not low <= value <= MAX_INT:
            raise ValueError(f"{str(value)[:40]!r} is not an integer in {low}..2**63-1")
        return value

    return check


def _one_of(allowed: Sequence[str]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"{str(value)[:40]!r} is not one of {', '.join(allowed)}")
        return str(value)

    return check


def _game_id(value: Any) -> str:
    if not isinstance(value, str) or not _GAME_ID.fullmatch(value):
        raise ValueError(f"{str(value)[:40]!r} is not a game id")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{str(value)[:40]!r} is not text")
    return value


def _json_of(kind: type, *, null: bool = False) -> Callable[[Any], Any]:
    """Decode a JSON column and check that it holds a ``kind`` (an object, a list), or null when ``null``."""

    def decode(text: Any) -> Any:
        if text is None and not null:
            raise ValueError("missing")
        value = _load(text)
        if not (value is None and null) and not isinstance(value, kind):
            raise ValueError(f"not a JSON {'object' if kind is dict else 'array'}")
        return value

    return decode


_SEAT_USER = _integer(1, null=True)


def _seat_problem(seat: Any) -> str | None:
    """What is wrong with one stored seat (`engine.tables.SeatInfo`), or None."""
    if not isinstance(seat, dict):
        return "not an object"
    if "user_id" not in seat or not isinstance(seat.get("name"), str) or not isinstance(seat.get("bot", False), bool):
        return "user_id, name or bot missing or of the wrong type"
    try:
        _SEAT_USER(seat["user_id"])
    except ValueError as e:
        return f"user_id {e}"
    return None


def _moment(text: Any) -> datetime:
    value = _dt(text)
    if value.tzinfo is None:  # compared with aware times everywhere: a naive one would raise at the first use
        raise ValueError(f"{text[:40]!r} has no time zone")
    return value
