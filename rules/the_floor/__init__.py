"""The Floor: territory quiz with chess-clock duels, 2–10 players (teams past 5 sides). Pure rules.

Notation (canonical form shown; verbs are case-insensitive, extra spaces ignored)::

    pick <category id>              draft (hidden, simultaneous) and the Final's card choice
    challenge B2 B3                 own cell -> orthogonally adjacent cell of another side
    ready                           a duellist side is present; both ready -> the challenger's clock runs
    answer <elapsed ms> <text>      the running side answers; elapsed = ms since the last applied duel action
    pass <elapsed ms>               1 s penalty on top, then a new letter, the same clock still running
    timeout                         the running clock reached zero (the engine's timer)
    judge accept|reject             an answer not on the list, judged by a non-duellist (clock stopped)
    dispute <elapsed ms>            trust mode: the running side disputes the answer just accepted unjudged
    take B3,B4                      the winner's cells of the loser's field (sorted)
    keep <category id>              a field's category after a duel, or a round winner's Final card
    resign

See docs/the_floor.md for the timing scheme, the view shape and the decisions.
"""

from __future__ import annotations

from rules.the_floor.game import TheFloor
from rules.the_floor.state import Duel, Pending, State

__all__ = ["Duel", "Pending", "State", "TheFloor"]
