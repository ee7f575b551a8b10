"""A stored Floor Plan state is never bounded tighter than play: skipping is always legal in a multiplayer game, so
rounds have no limit but what storage holds (a signed 64-bit integer)."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest

from rules.base import StateError
from rules.validate import MAX_COUNTER
from tests.rules.fp_helpers import G, started


def saved_and_loaded(s: object) -> object:
    """Through the engine's path: ``to_json`` as orjson text, read back by ``from_json``."""
    return G.from_json(orjson.loads(orjson.dumps(G.to_json(s))))


def skip_round(s: object, players: int) -> object:
    for seat in range(players):
        s, _ = G.apply(s, seat, "skip")
    return s


def test_floor_plan_game_past_round_10000_loads() -> None:
    s = replace(started(2, "rounds"), round=10_000)
    s = skip_round(skip_round(s, 2), 2)  # every seat skips: the game goes on
    assert s.phase == "play" and s.round == 10_002
    assert saved_and_loaded(s) == s


def test_floor_plan_round_loads_up_to_what_storage_holds() -> None:
    s = replace(started(2, "rounds"), round=MAX_COUNTER)
    assert saved_and_loaded(s) == s
    with pytest.raises(StateError, match="round"):
        G.from_json({**G.to_json(s), "round": MAX_COUNTER + 1})
