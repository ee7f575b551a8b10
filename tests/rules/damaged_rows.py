"""Shared helpers for the damaged-state tests of each game. They build damaged rows from a sound one and check the
rules every game's `from_json` must follow: a sound row reads back exactly, a damaged one is refused with a
`StateError` naming the field, and a row with any one leaf replaced is either read back exactly or refused, never
a crash."""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest
from hypothesis import strategies as st

from rules.base import Game, RulesError, StateError

Row = dict[str, Any]
Path = tuple[Any, ...]
Faults = dict[str, tuple[Callable[[], Any], str]]  # fault: (a maker of the damaged row, the field the message names)


def stored(game: Game[Any], s: Any) -> Row:
    """The row as SQLite gives it back: to_json through JSON text."""
    return json.loads(json.dumps(game.to_json(s)))


# --- sound rows and damaged rows --------------------------------------------------------------------------------


def check_round_trips(game: Game[Any], states: Iterable[Any]) -> None:
    """Every state reads back from its stored row exactly, and writes that same row again."""
    for s in states:
        row = stored(game, s)
        back = game.from_json(row)
        assert back == s
        assert game.to_json(back) == row


def check_refused(game: Game[Any], make: Callable[[], Any], field: str) -> None:
    """Reading the row ``make`` builds raises a `StateError` whose message names ``field``."""
    with pytest.raises(StateError) as info:
        game.from_json(make())
    assert field in str(info.value)


def shape_faults(base: Callable[[], Row]) -> Faults:
    """The faults every game refuses alike: a row that is a list, an empty object, or null."""
    return {
        "a list where the state object is expected": (lambda: [base()], "state"),
        "a truncated row": (lambda: {}, "version"),
        "a null row": (lambda: None, "state"),
    }


def node(row: Any, path: str) -> Any:
    """The value at a dotted ``path`` (``a.b.0``; a negative index counts from the end) of the row."""
    for k in path.split(".") if path else []:
        row = row[int(k) if k.lstrip("-").isdigit() else k]
    return row


def edit(base: Callable[[], Row], change: Callable[[Row], Any]) -> Callable[[], Row]:
    """The base row changed in place by ``change`` (whatever it returns is ignored)."""
    def make() -> Row:
        row = base()
        change(row)
        return row

    return make


def put(path: str, value: Any, base: Callable[[], Row]) -> Callable[[], Row]:
    """The base row with ``path`` (``a.b.0``) set to ``value``."""
    parent, _, last = path.rpartition(".")

    def change(row: Row) -> None:
        node(row, parent)[int(last) if last.lstrip("-").isdigit() else last] = value

    return edit(base, change)


# --- any one damaged leaf: read back exactly, or refused --------------------------------------------------------


def leaves(value: Any, path: Path = ()) -> list[Path]:
    """The paths of a JSON value's leaves (scalars and empty containers)."""
    if isinstance(value, dict) and value:
        return [p for k, x in value.items() for p in leaves(x, (*path, k))]
    if isinstance(value, list) and value:
        return [p for i, x in enumerate(value) for p in leaves(x, (*path, i))]
    return [path]


def leaf(value: Any, path: Path) -> Any:
    """The value at ``path`` (a tuple of keys and indices)."""
    for k in path:
        value = value[k]
    return value


def replaced(value: Any, path: Path, new: Any) -> Any:
    """A copy of ``value`` with the leaf at ``path`` replaced by ``new`` (the original is left alone)."""
    if not path:
        return new
    out = copy.copy(value)
    out[path[0]] = replaced(value[path[0]], path[1:], new)
    return out


def json_values(extra_strings: Sequence[str], top: int) -> st.SearchStrategy[Any]:
    """Any JSON value, favouring small integers up to ``top`` and the game's own ``extra_strings``."""
    scalars = (st.none() | st.booleans() | st.integers(-3, top) | st.integers() | st.floats()
               | st.text(max_size=12) | st.sampled_from(list(extra_strings)))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=8)


def replacements(row: Row, path: Path, values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Any of ``values``, another leaf of the row, or the leaf nudged by one or flipped (these often make a sound
    row, so that both outcomes of the property are exercised)."""
    old = leaf(row, path)
    nudged = [old - 1, old + 1] if type(old) is int else [not old] if type(old) is bool else []
    others = st.sampled_from([leaf(row, p) for p in leaves(row)])
    return st.one_of(values, others, *([st.sampled_from(nudged)] if nudged else []))


def draw_damaged_leaf(data: st.DataObject, samples: Sequence[Row],
                      values: st.SearchStrategy[Any]) -> tuple[Row, Path, Any]:
    """One of the sample rows, one of its leaves, and a replacement for that leaf."""
    row = data.draw(st.sampled_from(samples))
    path = data.draw(st.sampled_from(leaves(row)))
    return row, path, data.draw(replacements(row, path, values))


def exercise(game: Game[Any], s: Any, movers: int | None = None) -> None:
    """What the engine and the surface do with a loaded state must not crash either: outcome, every view, and for
    the first ``movers`` seats to move (all of them by default) the legal actions and the default action, which
    may only be refused with a `RulesError`."""
    game.outcome(s)
    for seat in [None, *range(s.players)]:
        json.dumps(game.view(s, seat))
    for seat in sorted(game.to_move(s))[:movers]:
        game.legal_actions(s, seat)
        with contextlib.suppress(RulesError):
            game.apply(s, seat, game.default_action(s, seat))


def check_damaged_leaf(game: Game[Any], row: Row, path: Path, new: Any, exercise: Callable[[Any], None]) -> None:
    """The row with the leaf at ``path`` replaced by ``new`` is refused with a `StateError`, or it reads back to
    exactly that row and ``exercise`` runs on the state it reads as."""
    damaged = replaced(row, path, new)
    try:
        s = game.from_json(damaged)
    except StateError:
        return
    assert game.to_json(s) == damaged
    exercise(s)
