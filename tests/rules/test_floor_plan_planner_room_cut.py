"""The planner fully evaluates only the best few room spots by its cheap placement score (issue 25: a bot
decision's cost is mostly full evaluations; the best 4 played as well as the best 14 over 200 seeded games, see
docs/benchmarks.md "Fourth pass"). Which spots: the roll's own rooms best by `_room_prescore`, varied."""

from __future__ import annotations

from typing import Any

from rules.floor_plan.notation import RoomDraw
from rules.floor_plan.planner import search
from rules.floor_plan.planner.rooms import _pick_varied, _room_options
from tests.rules.fp_helpers import G
from tests.rules.test_floor_plan_planner import play


def _plain_rooms(seed: str, rounds: int, limit: int = 1, best_of: int = 4) -> tuple[list[RoomDraw], list[RoomDraw]]:
    """The roll's single rooms (no Wild) the planner scored fully for ``limit`` suggestions, and the ``best_of``
    best by the cheap score, varied."""
    s = play(seed, rounds)
    assert s.phase != "setup" and s.roll is not None and 0 in G.to_move(s)
    scored: list[RoomDraw] = []
    real = search._score_into

    def spy(ctx: Any, cand: Any, out: Any) -> None:
        step = cand.steps[0]
        if len(cand.steps) == 1 and step.verb == "room" and len(step.rooms) == 1 and step.wild is None:
            scored.append(step.rooms[0])
        real(ctx, cand, out)

    search._score_into = spy  # type: ignore[assignment]
    try:
        search.suggest(G, s, 0, limit=limit)
    finally:
        search._score_into = real  # type: ignore[assignment]
    ctx = search._context(G, s, 0)
    best = _pick_varied(_room_options(ctx, ctx.board.sheet, s.roll, 60), best_of,
                        lambda rd: (rd.type, (rd.x, rd.y)))
    return scored, [rd for _, rd in best]


def test_only_the_best_four_room_spots_by_the_cheap_score_are_fully_evaluated() -> None:
    for seed, rounds in (("room-cut-0", 3), ("room-cut-1", 7), ("room-cut-2", 10)):
        scored, best = _plain_rooms(seed, rounds)
        assert scored == best and 1 <= len(scored) <= 4


def test_a_players_suggestions_still_weigh_the_best_fourteen_room_spots() -> None:
    """"Suggest a move" lists several moves: a variety of room spots, which the bot's cut to four would thin out
    (and the score-event preview's weaker bots pick their alternatives from the same list)."""
    sizes = []
    for seed, rounds in (("room-cut-0", 3), ("room-cut-1", 7), ("room-cut-2", 10)):
        scored, best = _plain_rooms(seed, rounds, limit=4, best_of=14)
        assert scored == best
        sizes.append(len(scored))
    assert max(sizes) > 4, f"the suggestions weighed at most four spots: {sizes}"
