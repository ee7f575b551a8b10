"""The planner: the best few actions for a seat's roll, scored by progress toward the game's demands.

Used by the bot (its first suggestion is the bot's action) and shown to players as suggestions. Per call it
builds a bounded set of candidates — every legal spot of each room the roll allows (the Wild and Double a Room
when open) ranked by a cheap placement score, of which only the best few are evaluated, the best few feature
sets per die (Double a Feature when open),
the Two Doors bonus on the best few — and evaluates each on the sheet it leaves (`_evaluate`): the demands it
banks (disjoint witnesses still unclaimed), partial progress toward every unmet demand, Door Bonus instances,
minus the cost of a bonus spent. Claims follow a policy (`_claim_plan`): demands worth half the cards' best at
once (a filled note opens its bonus), the rest and the sixth note only when six claims are banked and the round
is late enough (or they are worth a lot).

Pure and deterministic for a state: no randomness is needed (ties break on the canonical text). Bounded: about a
dozen full evaluations per call (ROOM_EVALS, WILD_EVALS, FEATURE_VARIANTS, TWO_DOORS_EVALS); the benchmark
(`python -m tests.bench floor_plan`, row ``suggest``) times it.
"""

from __future__ import annotations

from rules.floor_plan.planner.context import Suggestion
from rules.floor_plan.planner.search import suggest

__all__ = ["Suggestion", "suggest"]
