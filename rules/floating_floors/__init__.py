"""Floating Floors (2–4 ninjas balancing floorboards on Jutsu): pure rules.

``components.py`` loads and validates the fan-made box (terrain, floorboards, ninjas, Bansen, Jutsu, dice, physics);
``statics.py`` is the deterministic balance model that replaces the players' hands.
"""

from __future__ import annotations

from rules.floating_floors.game import FloatingFloors
from rules.floating_floors.state import State

__all__ = ["FloatingFloors", "State"]
