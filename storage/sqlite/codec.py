"""How the store writes times and JSON into columns and reads them back (one place for every aggregate)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson


def ts(dt: datetime) -> str:
    """A time as stored: UTC ISO 8601 with microseconds (sorts as text)."""
    return dt.astimezone(UTC).isoformat(timespec="microseconds")


def dt(text: str) -> datetime:
    return datetime.fromisoformat(text)


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def loads(text: str | None) -> Any:
    return None if text is None else orjson.loads(text)
