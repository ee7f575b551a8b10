"""Helpers for the floor_plan game and demand tests: hand-made sheets and states."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.base import RulesError
from rules.floor_plan import Board, FloorPlan, State
from rules.floor_plan.bot import choose_start
from rules.floor_plan.sheet import Room, Sheet, parse_cell

G = FloorPlan()


def c(name: str) -> tuple[int, int]:
    return parse_cell(name)


def cells(names: str) -> frozenset[tuple[int, int]]:
    return frozenset(c(n) for n in names.split())


def R(type_: str, corner: str, w: int, h: int, label: str | None = None) -> Room:
    x, y = c(corner)
    return Room(type_, x, y, w, h, c(label) if label else (x, y))


def sheet(*rooms: Room, trees: str = "", doors: str = "", windows: str = "", furnishings: str = "",
          decks: str = "", stones: str = "") -> Sheet:
    return Sheet(rooms=tuple(rooms), trees=tuple(c(n) for n in trees.split()), doors=cells(doors),
                 windows=cells(windows), furnishings=cells(furnishings), decks=cells(decks), stones=cells(stones))


def started(players: int = 2, seed: str = "t", clients: tuple[str, str, str] = ("hosts", "swimmer", "step_free"),
            roll: tuple[int, int] | None = (4, 3)) -> State:
    """A game past setup (every seat's bot start), in round 1, with the roll forced when given."""
    s = G.new(players, {"clients": list(clients)}, seed)
    for seat in range(players):
        s, _ = G.apply(s, seat, choose_start(s, seat))
    assert s.phase == "play" and s.round == 1
    if roll is not None:
        s = replace(s, roll=roll, stuck=frozenset())
    return s


def with_sheet(s: State, seat: int, sh: Sheet, **board: object) -> State:
    b = replace(s.boards[seat], sheet=sh, **board)
    return replace(s, boards=(*s.boards[:seat], b, *s.boards[seat + 1:]))


def refused(s: State, seat: int, action: str, error: type[RulesError] = RulesError) -> str:
    with pytest.raises(error) as info:
        G.apply(s, seat, action)
    return str(info.value)


def board(s: State, seat: int) -> Board:
    return s.board(seat, private=True)
