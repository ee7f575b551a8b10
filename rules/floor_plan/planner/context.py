"""The planner's bounds and weights, the Suggestion it returns and the per-call context it builds on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.floor_plan import demands as dm
from rules.floor_plan.notation import Step
from rules.floor_plan.sheet import Cell
from rules.floor_plan.state import Board, PlanRules, State

# Rooms fully evaluated per call: the best by the cheap placement score, varied. Full evaluation is most of a
# decision's cost; 4 against 14 played as well over 200 seeded games (3 too, but with a worse tail; docs/benchmarks.md,
# Floor Plan fourth pass).
ROOM_EVALS = 4
# A player's "Suggest a move" (and any call for more than the one best move) still weighs the 14 best spots: its
# list offers a variety of room spots, which four evaluations would thin out.
SUGGEST_ROOM_EVALS = 14
WILD_EVALS = 4  # of which may use the Wild
FEATURE_VARIANTS = 3  # feature sets generated per die
TWO_DOORS_EVALS = 4  # candidates retried with the Two Doors bonus
STOCK_CAP = 3  # disjoint witnesses counted per demand
PROGRESS_WEIGHT = 0.45  # a demand half met is worth this share of its points
WILD_COST = 2.5  # the Wild is one per game: spend it only for a clear gain
BONUS_COST = 1.2  # a Double / Two Doors bonus kept is worth about this much later
EARLY_CLAIM = 0.5  # claim at once a demand worth this share of the cards' best (its note opens a bonus)
END_ROUND = 14  # from this round the sixth note is filled as soon as six claims are banked
END_AVERAGE = 4.0  # ... or earlier when the six banked claims average this much
ROOM_WORTH = 0.6  # a room drawn is worth this much before it meets anything
SKIP_COST = 1.0  # drawing nothing wastes the round


@dataclass(frozen=True)
class Suggestion:
    text: str  # the full canonical action text for the seat now (as FloorPlan.apply accepts it)
    points: int  # demand points the action scores at once (claims in it)
    value: float  # the planner's score (higher is better)


@dataclass
class _Cand:
    steps: tuple[Step, ...]
    key: str  # diversity key: what kind of move (room type, feature kinds, ...)
    spot: Cell | None = None
    cost: float = 0.0
    after: Board | None = None  # the board its steps leave, once known (`search._score_into` runs them)


@dataclass
class _Ctx:
    game: PlanRules
    s: State
    seat: int
    board: Board
    demands: list[dm.Demand]
    layout: dm.Client
    wanted: dict[str, float] = field(default_factory=dict)  # room type -> how much the demands want it
    pair_want: dict[tuple[str, str], float] = field(default_factory=dict)  # memo of rooms._pair_want
    shape_want: dict[tuple[str, int, int], tuple[float, ...]] = field(default_factory=dict)  # memo of rooms._shape_want
    stocks: dict[Any, Any] = field(default_factory=dict)  # value._stock shared by candidates with the same parts
    cell_scores: dict[Any, Any] = field(default_factory=dict)  # features._cell_scores per kind and sheet parts
    grids: dict[Any, Any] = field(default_factory=dict)  # rooms._grid_of, rooms._halos: per sheet
    used: dict[int, Any] = field(default_factory=dict)  # value._used: id(claims) -> (claims, used by demand)
    room_evals: int = ROOM_EVALS  # room spots fully evaluated (SUGGEST_ROOM_EVALS when a list is asked for)

    @property
    def round(self) -> int:
        return self.s.round

    @property
    def ops(self) -> frozenset[str]:
        return frozenset(d.op for d in self.demands)
