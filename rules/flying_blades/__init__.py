"""Night of the 27 Ninja (House and Temple of the Flying Blades): pure rules, notation, positions and a bot.

Notation (canonical lowercase; parsing ignores case and extra spaces)::

    keep bomb,shuriken,shuriken   keep none          (draft: a sub-multiset of the dealt hand, price ≤ 10)
    attack c3 c4    vanish c3 h8    shuriken c3 c7    double c3 c5    triple c3 c6
    dragon e5 from e4    circle e5    bomb e5 e8    pass    resign
    timeout                                          (the engine's alone: the seat's turn deadline passed)

Decisions beyond the rulebook: a seat whose ninjas are all gone still takes its turns and can only pass; a
resigned seat's ninjas stay on the board (still prey, never moving), the seat is skipped and counts as
having passed; resigned seats share the last place of the ranking. ``legal_actions`` lists every affordable
keep in the draft and never lists ``resign`` (always accepted while the game runs). Absence is not a move: a
``timeout`` ends the seat's turn without counting as a pass (nor breaking the others' run of passes), so the game
never ends as "every player passed" because players were away; in the draft it keeps the bot's choice.
"""

from __future__ import annotations

from rules.flying_blades.game import FlyingBlades
from rules.flying_blades.state import Last, State

__all__ = ["FlyingBlades", "Last", "State"]
