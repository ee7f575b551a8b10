"""Floating World (co-operative, 1–4 Kitsune against demons): pure rules, notation, the Nightmare phase, a bot.

See ``game.py`` for the rule decisions, ``notation.py`` for the action texts, ``nightmare.py`` for the demons,
``content.py`` for the Dream card vocabulary and ``score.py`` for the rulebook's scoring (9.5).
"""

from __future__ import annotations

from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import State

__all__ = ["FloatingWorld", "State"]
