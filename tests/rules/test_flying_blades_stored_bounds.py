"""A stored Flying Blades state is never bounded tighter than play: a timeout ends a turn without counting as a
pass, so a game of missed turns never ends and the turn counter has no limit but what storage holds."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest

from rules.base import StateError
from rules.validate import MAX_COUNTER
from tests.rules.fb_helpers import G


def saved_and_loaded(s: object) -> object:
    """Through the engine's path: ``to_json`` as orjson text, read back by ``from_json``."""
    return G.from_json(orjson.loads(orjson.dumps(G.to_json(s))))


def test_flying_blades_game_past_turn_100000_loads() -> None:
    s = replace(G.new(3, {"cards": "none"}, "turns"), turn=100_000)
    for _ in range(6):  # every seat misses its turn, twice: the game goes on
        s, _ = G.apply(s, s.current, "timeout")
    assert s.phase == "play" and s.turn == 100_006
    assert saved_and_loaded(s) == s


def test_flying_blades_turn_loads_up_to_what_storage_holds() -> None:
    s = replace(G.new(2, {"cards": "none"}, "turns"), turn=MAX_COUNTER)
    assert saved_and_loaded(s) == s
    with pytest.raises(StateError, match="turn"):
        G.from_json({**G.to_json(s), "turn": MAX_COUNTER + 1})
