"""Hand-built Floating Floors positions: a known map, boards, Jutsu and ninjas where a test puts them.

Every builder keeps the box whole (60 Jutsu, 12 floorboards): pieces placed or held come out of the pool and
boards placed come out of the deck, so `state.jutsu_total` and `from_json` accept the result.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.floating_floors import statics
from rules.floating_floors.components import JUTSU_KINDS, KIND_SHAPE
from rules.floating_floors.game import FloatingFloors
from rules.floating_floors.layout import parse_space
from rules.floating_floors.state import Board, Piece, Reset, State

G = FloatingFloors()
ALL_LAND = ("t05", "terrain")  # LLL / LLL / WWL: only the bottom-left two spaces of each card are water
MIDDLE = {"chakra": "middle",  # Chakras in the middle of each side, so a test starts at the first turn
          "tension": "exact"}  # the rules' tests read margins; tests/rules/test_floating_floors_tension.py: bands


def sp(name: str) -> tuple[int, int]:
    space = parse_space(name)
    assert space is not None, name
    return space


def position(players: int = 2, *, seed: str = "t", options: dict[str, Any] | None = None,
             boards: tuple[tuple[int, str, bool, int], ...] = (), pieces: tuple[tuple[str, str, str, str], ...] = (),
             hands: dict[int, tuple[str, ...]] | None = None, at: dict[int, str] | None = None,
             phase: str = "navigate", current: int = 0, alcoves: dict[int, str | None] | None = None,
             **changes: Any) -> State:
    """``boards``: (card, board id, back, turns); ``pieces``: (kind, space, level, offset); ``hands`` replace
    the players' hands; ``at`` puts ninjas on spaces (their centres); ``alcoves`` sets what alcoves hold."""
    s = G.new(players, {**MIDDLE, **(options or {})}, seed)
    pool = [10 - r for r in s.removed]
    cards = tuple(ALL_LAND for _ in s.cards)
    placed = tuple(Board(c, b, back, turns) for c, b, back, turns in sorted(boards))
    deck = tuple(b for b in s.deck if b not in {x.board for x in placed})
    made = []
    for i, (kind, name, level, offset) in enumerate(pieces, start=1):
        x, y = statics.jutsu_position(sp(name), KIND_SHAPE[kind], offset)
        made.append(Piece(i, kind, sp(name), level, x, y))
    seats = list(s.seats)
    for seat, q in enumerate(seats):
        hand = (hands or {}).get(seat, q.hand)
        seats[seat] = replace(q, hand=tuple(sorted(hand)))
    for seat, name in (at or {}).items():
        space = sp(name)
        seats[seat] = replace(seats[seat], alcove=None, space=space, x=space[0] + 0.5, y=space[1] + 0.5)
    for kind in [p.kind for p in made] + [k for q in seats for k in q.hand]:
        pool[JUTSU_KINDS.index(kind)] -= 1
    slots = list(s.alcoves)
    for index, bansen in (alcoves or {}).items():
        slots[index] = bansen
    changes.setdefault("roll", ())
    changes.setdefault("to_take", ())
    return replace(s, cards=cards, boards=placed, deck=deck, pieces=tuple(made), pool=tuple(pool),
                   seats=tuple(seats), phase=phase, current=current, next_piece=len(made) + 1,
                   alcoves=tuple(slots), **changes)


def apply(s: State, action: str, seat: int | None = None) -> tuple[State, list[Any]]:
    return G.apply(s, s.current if seat is None else seat, action)


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def fallen(players: int = 2, *, kinds: tuple[str, ...] = ("ws", "ws", "ws"), ninjas: tuple[int, ...] = (0,),
           board: str | None = "f03", card: tuple[str, str] = ALL_LAND, options: dict[str, Any] | None = None,
           seed: str = "t") -> State:
    """Card 0 just collapsed: ``kinds``, ``board`` and the ninjas of ``ninjas`` wait for seat 1 to reset it.
    The fallen pieces come out of the pool and the deck, as a collapse takes them, so the box stays whole."""
    s = position(players, seed=seed, options=options, phase="reset", current=1,
                 reset=Reset(card=0, by=1, board=board, kinds=tuple(sorted(kinds)), ninjas=ninjas))
    seats = tuple(replace(q, alcove=None, space=None, x=0.0, y=0.0) if q.seat in ninjas else q for q in s.seats)
    pool = list(s.pool)
    for kind in kinds:
        pool[JUTSU_KINDS.index(kind)] -= 1
    return replace(s, cards=(card, *s.cards[1:]), seats=seats, pool=tuple(pool),
                   deck=tuple(b for b in s.deck if b != board))
