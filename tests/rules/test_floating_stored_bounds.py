"""A stored Floating World or Floating Floors state is never bounded tighter than play: turns, action counts, the
RNG counter and piece ids grow without limit while timeouts go on, so they load up to what storage holds."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest

from rules.base import StateError
from rules.floating_floors import FloatingFloors
from rules.floating_world import FloatingWorld
from rules.validate import MAX_COUNTER


def saved_and_loaded(game: object, s: object) -> object:
    """Through the engine's path: ``to_json`` as orjson text, read back by ``from_json``."""
    return game.from_json(orjson.loads(orjson.dumps(game.to_json(s))))  # type: ignore[attr-defined]


def test_floating_world_counters_past_a_million_load() -> None:
    game = FloatingWorld()
    s = game.new(2, {}, "bounds")
    s = replace(s, turn=MAX_COUNTER, actions=MAX_COUNTER, counter=MAX_COUNTER,
                kitsune=tuple(replace(k, praise=MAX_COUNTER) for k in s.kitsune))
    assert saved_and_loaded(game, s) == s
    with pytest.raises(StateError, match="turn"):
        game.from_json({**game.to_json(s), "turn": MAX_COUNTER + 1})


def test_floating_floors_counters_past_a_million_load() -> None:
    game = FloatingFloors()
    s = game.new(2, {"chakra": "middle"}, "bounds")
    s = replace(s, turn=MAX_COUNTER, counter=MAX_COUNTER)
    assert saved_and_loaded(game, s) == s
    with pytest.raises(StateError, match="counter"):
        game.from_json({**game.to_json(s), "counter": MAX_COUNTER + 1})
