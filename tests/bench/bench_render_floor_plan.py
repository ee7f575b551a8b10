"""Rendering benchmark rows for floor_plan: the blueprint (early and late) and the round summary (4 players with
thumbnails, 100 players with a leaderboard)."""

from __future__ import annotations

from typing import Any

from render import floor_plan
from tests.bench.bench_render import image_rows
from tests.bench.harness import Row
from tests.views_floor_plan import early_sheet, late_sheet, make_view, summary_sheets

NAMES = ["Alice", "Bartłomiej", "Chidi", "Dagny"]


def _sheets(base: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """``count`` successive sheets: the score changes as in a game, so its text is drawn fresh."""
    return [{**base, "score": i} for i in range(count)]


def rows(n: int = 100) -> list[Row]:
    out: list[Row] = []
    count = 2 * n
    out += image_rows(
        "floor_plan", "sheet early", lambda s: floor_plan.draw_sheet(s, name="Alice"), _sheets(early_sheet(), count), n
    )
    out += image_rows(
        "floor_plan", "sheet late", lambda s: floor_plan.draw_sheet(s, name="Alice"), _sheets(late_sheet(), count), n
    )
    sheets4 = summary_sheets(4)
    views4 = [make_view(4, seed=i, round_no=1 + i % 20) for i in range(count)]
    out += image_rows("floor_plan", "summary 4p", lambda v: floor_plan.draw_summary(v, sheets4, names=NAMES), views4, n)
    names100 = [f"Player {i}" for i in range(100)]
    views100 = [make_view(100, seed=i, viewer=None, round_no=1 + i % 20) for i in range(count)]
    out += image_rows(
        "floor_plan", "summary 100p", lambda v: floor_plan.draw_summary(v, None, names=names100), views100, n
    )
    return out
