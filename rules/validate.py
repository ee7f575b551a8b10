"""Checks for reading a stored state (a game's ``from_json``).

Every helper returns the value it checked or raises `StateError` naming the field (a path such as
``boards[3].sheet.rooms[0].w``), so that a damaged row is refused when it is loaded, never half-read and never a
crash later. Checks are shape and range only and cost one pass over the JSON: they run on every load, so a
path is kept as nested ``(parent, key)`` tuples (`at`) and spelt out only for the message of a failure.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeAlias

from rules.base import FloorboardError, StateError

MAX_TEXT = 200  # default bound of a stored string
# The bound of a counter (turns, rounds, streams, draws): play can push these without limit (a game of timeouts
# or skips never ends), so a stored bound may only be what storage holds: a signed 64-bit integer (SQLite's
# INTEGER, orjson's widest). A tighter one would refuse a state the rules reached and mark a live table damaged.
MAX_COUNTER = 2**63 - 1
Where: TypeAlias = str | tuple[Any, Any]  # "players", or (parent, key) from `at`
MALFORMED = (KeyError, TypeError, IndexError, AttributeError, ValueError, ArithmeticError, RecursionError,
             FloorboardError)


def show(value: Any) -> str:
    """A short repr for messages: a damaged value may be huge."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def fail(where: Where, problem: str) -> NoReturn:
    raise StateError(f"{spell(where) or 'state'}: {problem}")


@contextmanager
def guard(what: Where) -> Iterator[None]:
    """Turn any other error raised while reading ``what`` into a `StateError` (the row is damaged)."""
    try:
        yield
    except StateError:
        raise
    except MALFORMED as e:
        raise StateError(f"{spell(what)}: malformed state: {show(e)}") from e


def at(where: Where, *keys: str | int) -> Where:
    """The path of keys or indices below ``where`` (cheap: spelt out by `spell` only when a check fails)."""
    for key in keys:
        where = (where, key)
    return where


def spell(where: Where) -> str:
    """``(("boards", 3), "sheet")`` -> ``boards[3].sheet``."""
    if isinstance(where, str):
        return where
    parent, key = where
    base = spell(parent)
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else key


# --- single values ----------------------------------------------------------------------------------------


def as_dict(value: Any, where: Where, keys: Collection[str] = (), extra_ok: bool = False) -> dict[str, Any]:
    """A dict holding every key of ``keys`` and (unless ``extra_ok``) no other key."""
    if type(value) is dict and len(value) == len(keys) and all(k in value for k in keys):
        return value  # the usual case, checked at once
    if not isinstance(value, dict):
        fail(where, f"expected an object, got {show(value)}")
    for key in keys:
        if key not in value:
            fail(at(where, key), "missing")
    if not extra_ok and len(value) != len(keys):
        unknown = sorted(str(k) for k in value if k not in keys)
        fail(where, f"unknown keys {show(unknown)}")
    return value


def as_list(value: Any, where: Where, length: int | None = None, max_len: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        fail(where, f"expected a list, got {show(value)}")
    if length is not None and len(value) != length:
        fail(where, f"expected {length} items, got {len(value)}")
    if max_len is not None and len(value) > max_len:
        fail(where, f"more than {max_len} items ({len(value)})")
    return value


def as_int(value: Any, where: Where, lo: int, hi: int) -> int:
    """An int (never a bool or a float) in lo..hi."""
    if type(value) is int and lo <= value <= hi:
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        fail(where, f"expected an integer, got {show(value)}")
    if not lo <= value <= hi:
        fail(where, f"{show(value)} is not in {lo}..{hi}")
    return value


def as_bool(value: Any, where: Where) -> bool:
    if type(value) is not bool:
        fail(where, f"expected true or false, got {show(value)}")
    return value


def as_str(value: Any, where: Where, max_len: int = MAX_TEXT, choices: Collection[str] | None = None) -> str:
    if not isinstance(value, str):
        fail(where, f"expected a string, got {show(value)}")
    if choices is not None and value not in choices:
        known = ", ".join(map(repr, list(choices)[:8])) + (", ..." if len(choices) > 8 else "")
        fail(where, f"{show(value)} is not one of {known}")
    if len(value) > max_len:
        fail(where, f"longer than {max_len} characters ({len(value)})")
    return value


def as_optional(value: Any, where: Where, check: Callable[..., Any], *args: Any) -> Any:
    """None, or a value passing ``check(value, where, *args)``."""
    return None if value is None else check(value, where, *args)


# --- lists of values ----------------------------------------------------------------------------------------


def as_ints(value: Any, where: Where, lo: int, hi: int, length: int | None = None,
            max_len: int | None = None) -> list[int]:
    items = as_list(value, where, length, max_len)
    return [as_int(v, (where, i), lo, hi) for i, v in enumerate(items)]


def as_bools(value: Any, where: Where, length: int) -> list[bool]:
    return [as_bool(v, (where, i)) for i, v in enumerate(as_list(value, where, length))]


def as_strs(value: Any, where: Where, max_len: int = MAX_TEXT, length: int | None = None,
            max_items: int | None = None, choices: Collection[str] | None = None) -> list[str]:
    items = as_list(value, where, length, max_items)
    return [as_str(v, (where, i), max_len, choices) for i, v in enumerate(items)]


def as_seat_set(value: Any, where: Where, seats: int) -> list[int]:
    """A set of seat (or side) indices in its stored form: ascending, each once."""
    items = as_ints(value, where, 0, seats - 1, max_len=seats)
    ascending(items, where)
    return items


def ascending(items: list[Any], where: Where, key: Callable[[Any], Any] | None = None) -> None:
    """Strictly ascending (sorted, no repeats): the canonical form of a stored set."""
    keys = items if key is None else [key(v) for v in items]
    for i in range(1, len(keys)):
        if not keys[i - 1] < keys[i]:
            fail(at(where, i), f"{show(items[i])} is out of order or repeated")


def distinct(items: list[Any], where: Where) -> None:
    seen: set[Any] = set()
    for i, v in enumerate(items):
        if v in seen:
            fail(at(where, i), f"{show(v)} is repeated")
        seen.add(v)


# --- keyed access: the checks above on ``d[key]`` -------------------------------------------------------------


def require_int(d: dict[str, Any], key: str, lo: int, hi: int, where: Where = "") -> int:
    return as_int(_get(d, key, where), at(where, key), lo, hi)


def require_bool(d: dict[str, Any], key: str, where: Where = "") -> bool:
    return as_bool(_get(d, key, where), at(where, key))


def require_str(d: dict[str, Any], key: str, where: Where = "", max_len: int = MAX_TEXT,
                choices: Collection[str] | None = None) -> str:
    return as_str(_get(d, key, where), at(where, key), max_len, choices)


def require_list(d: dict[str, Any], key: str, where: Where = "", length: int | None = None,
                 max_len: int | None = None) -> list[Any]:
    return as_list(_get(d, key, where), at(where, key), length, max_len)


def require_dict(d: dict[str, Any], key: str, where: Where = "", keys: Collection[str] = (),
                 extra_ok: bool = False) -> dict[str, Any]:
    return as_dict(_get(d, key, where), at(where, key), keys, extra_ok)


def require(condition: bool, where: Where, problem: str) -> None:
    """A check across fields (a cross-reference or an invariant of the rules)."""
    if not condition:
        fail(where, problem)


def _get(d: dict[str, Any], key: str, where: Where) -> Any:
    if not isinstance(d, dict):
        fail(where, f"expected an object, got {show(d)}")
    if key not in d:
        fail(at(where, key), "missing")
    return d[key]
