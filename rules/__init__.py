"""Pure game logic. ``GAMES`` maps each game id to its rules object.

The registry is built on first use so that ``rules.base`` and the engine import without loading every game.
"""

from __future__ import annotations

from typing import Any


def _registry() -> dict[str, Any]:
    # lazy: each game's package loads on first use, so rules.base and the engine import without all five
    from rules.floating_floors import FloatingFloors
    from rules.floating_world import FloatingWorld
    from rules.floor_plan import FloorPlan
    from rules.flying_blades import FlyingBlades
    from rules.the_floor import TheFloor

    return {g.id: g for g in (FlyingBlades(), FloorPlan(), TheFloor(), FloatingWorld(), FloatingFloors())}


def __getattr__(name: str) -> Any:
    if name == "GAMES":
        games = _registry()
        globals()["GAMES"] = games
        return games
    raise AttributeError(name)


def bot_choice(game: str, state: Any, seat: int) -> str:
    """The bot's choice for ``seat`` in a game of ``game`` (an id of `GAMES`): what a worker process is sent to
    run instead of a rules object's bound method. A bot's choice depends on the position alone, so the choice
    made on a pickled copy of ``state`` is the one made on ``state`` (tests/test_bot_choice_offloaded.py)."""
    games = globals().get("GAMES") or __getattr__("GAMES")
    return games[game].bot_action(state, seat)


__all__ = ["GAMES", "bot_choice"]
