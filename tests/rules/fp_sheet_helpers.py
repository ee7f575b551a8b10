"""Small builders for hand-made Floor Plan sheets: cells by name, rooms by notation, features without checks."""

from __future__ import annotations

import pytest

from rules.base import IllegalActionError
from rules.floor_plan.sheet import Cell, Room, Sheet, cell_name, parse_cell


def cells(names: str) -> list[Cell]:
    """``"C3 D4"`` -> ``[(2, 2), (3, 3)]``."""
    return [parse_cell(n) for n in names.split()]


def names(cs) -> list[str]:
    return sorted(cell_name(c) for c in cs)


def room(spec: str) -> Room:
    """``"K C3 4x3 D4"``: type, top-left, size, label (default: the top-left cell)."""
    parts = spec.split()
    (x, y), (w, h) = parse_cell(parts[1]), map(int, parts[2].split("x"))
    return Room(parts[0], x, y, w, h, parse_cell(parts[3]) if len(parts) > 3 else (x, y))


def sheet(*rooms: str, trees: str = "", **features: str) -> Sheet:
    """A sheet built directly (no placement checks): rooms by spec, features as names per field."""
    return Sheet(
        rooms=tuple(room(r) for r in rooms),
        trees=tuple(cells(trees)),
        **{f: frozenset(cells(features.get(f, ""))) for f in ("doors", "windows", "furnishings", "decks", "stones")},
    )


def refused(fn, *args) -> str:
    """The English message of the IllegalActionError that ``fn(*args)`` raises."""
    with pytest.raises(IllegalActionError) as err:
        fn(*args)
    return str(err.value)
