"""Helpers for the flying_blades tests: hand-made positions, random players, invariant checks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules.base import RulesError
from rules.flying_blades import FlyingBlades, State
from rules.flying_blades.board import CHARS, FILES, NINJAS, WARD, geometry, relations
from rules.flying_blades.cards import CARD_IDS

G = FlyingBlades()


def at(players: int = 3, seat: int = 0, extra: str = "", **colours: str) -> State:
    """A position from cells per colour letter, e.g. ``at(3, 0, r="c3 d4", y="c4", extra="hands=bomb|-|-")``;
    built through the position text, so every test also exercises ``from_position``."""
    geo = geometry(players)
    grid = [["#" if geo.index(c, r) in geo.warded else "." for c in range(geo.width)]
            for r in range(geo.height)]
    for ch, cells in colours.items():
        for name in cells.split():
            grid[int(name[1:]) - 1][FILES.index(name[0])] = ch
    rows = "/".join("".join(grid[r]) for r in range(geo.height - 1, -1, -1))
    return G.from_position(f"{rows} {players}p {seat} {extra}".strip())


def cell(s: State, name: str) -> str:
    """The character on a cell: r y b g k, '.' or '#'."""
    geo = geometry(s.players)
    return s.board[geo.index(FILES.index(name[0]), int(name[1:]) - 1)]


def gone(before: State, after: State) -> tuple[int, ...]:
    """Ninjas eliminated per colour between two states."""
    return tuple(b - a for a, b in zip(before.lost, after.lost, strict=True))


def refused(s: State, seat: int, action: str, error: type[RulesError] = RulesError) -> str:
    """Apply an action that must be refused; returns the English message."""
    with pytest.raises(error) as info:
        G.apply(s, seat, action)
    return str(info.value)


def play(s: State, *moves: tuple[int, str]) -> State:
    for seat, action in moves:
        s, _ = G.apply(s, seat, action)
    return s


def random_action(s: State, seat: int, r: random.Random) -> str:
    actions = G.legal_actions(s, seat)
    assert actions, "a seat to move always has a legal action"
    return actions[int(r.random() * len(actions))]


def next_seat_to_act(s: State) -> int:
    return min(G.to_move(s))


def check_invariants(s: State) -> None:
    geo, rel = geometry(s.players), relations(s.players)
    for c in range(rel.colours):
        assert s.board.count(CHARS[c]) == NINJAS - s.lost[c], f"colour {c}: board and eliminations disagree"
    for i in geo.warded:
        assert s.board[i] == WARD
    assert all(ch == WARD for ch in (s.board[i] for i in range(geo.size) if i in geo.warded))
    assert s.board.count(WARD) == len(geo.warded)
    assert sum(s.captured) <= sum(s.lost)
    if s.phase == "over":
        assert G.to_move(s) == frozenset()
        check_outcome(s)
    else:
        assert G.outcome(s) is None
        assert G.to_move(s)


def check_outcome(s: State) -> None:
    o = G.outcome(s)
    assert o is not None
    assert sorted(x for group in o.ranking for x in group) == list(range(s.players))
    assert o.winners == o.ranking[0]
    if s.players == 2:
        assert o.scores == tuple(float(c) for c in s.captured)
    else:
        assert o.scores == tuple(float(s.board.count(CHARS[i])) for i in range(s.players))
    active = [i for i in range(s.players) if not s.resigned[i]]
    best = max(o.scores[i] for i in active)
    if o.reason == "fb.outcome.all_passed":
        assert set(o.winners) == {i for i in active if o.scores[i] == best}
    else:
        assert o.reason == "fb.outcome.last_standing" and len(active) == 1 and o.winners == tuple(active)


def card_strings(value: Any, path: str = "") -> list[str]:
    """The paths in a JSON value whose string equals a card id."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in card_strings(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in card_strings(v, f"{path}[{i}]")]
    return [path] if isinstance(value, str) and value in CARD_IDS else []


def check_view_hides_cards(s: State) -> None:
    for viewer in [None, *range(s.players)]:
        v = G.view(s, viewer)
        assert json.loads(json.dumps(v)) == v
        if s.cards == "open":
            assert v["hands"] == [list(h) for h in s.hands]
            continue
        assert v["hands"] is None
        allowed = {f".hand[{i}]" for i in range(len(s.hands[viewer]))} if viewer is not None else set()
        assert set(card_strings(v)) <= allowed
        assert v["hand"] == (None if viewer is None else list(s.hands[viewer]))
        assert "keep " not in json.dumps(v)
