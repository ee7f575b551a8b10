"""The rules contract: ``timeout`` is an engine verb of every game (a player sending it is refused by the engine),
and a missed turn is never logged as a move a player could have chosen."""

from __future__ import annotations

from typing import Any

import pytest

from rules.floor_plan import FloorPlan
from rules.flying_blades import FlyingBlades
from rules.the_floor.game import TheFloor


@pytest.mark.parametrize("game", [FlyingBlades(), FloorPlan(), TheFloor()])
def test_every_game_names_timeout_as_an_engine_verb(game: Any) -> None:
    assert sorted(game.ENGINE_VERBS) == ["timeout"]


@pytest.mark.parametrize(("game", "players"), [(FlyingBlades(), 3), (FloorPlan(), 2)])
def test_the_default_action_of_a_turn_game_is_an_engine_verb(game: Any, players: int) -> None:
    s = game.new(players, {}, "contract")
    for seat in sorted(game.to_move(s)):
        assert game.default_action(s, seat) in game.ENGINE_VERBS
