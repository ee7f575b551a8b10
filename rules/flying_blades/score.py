"""What each seat has scored so far: read by the game's outcome and by the bot (below the game facade)."""

from __future__ import annotations

from rules.flying_blades.board import CHARS
from rules.flying_blades.state import State


def ninjas_of(s: State, seat: int) -> int:
    return s.board.count(CHARS[seat])


def scores(s: State) -> tuple[float, ...]:
    """2 players: prey eliminated; 3–5 players: ninjas left on the board."""
    if s.players == 2:
        return tuple(float(c) for c in s.captured)
    return tuple(float(ninjas_of(s, i)) for i in range(s.players))
