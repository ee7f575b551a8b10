"""Floor Plan (roll-and-write): the blueprint sheet, its derived geometry, the game flow and demand scoring.

`FloorPlan` (game.py) implements the rules contract; the notation is documented in notation.py, the client
demands (data/floor_plan/clients.json) are evaluated by demands.py.
"""

from __future__ import annotations

from rules.floor_plan.game import Board, Claim, FloorPlan, State

__all__ = ["Board", "Claim", "FloorPlan", "State"]
