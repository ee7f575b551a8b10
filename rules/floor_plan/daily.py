"""The Floor Plan daily challenge, the pure part: which day it is, its seed, and the solo game of that day.

One seed per UTC day for the whole bot: ``daily-2026-01-01-<hmac>``, the HMAC of the date under a secret that
only the bot's database holds, so that nobody can compute a day's rolls from the code ahead of the leaderboard.
The game is the solo game (one seat) of ``FloorPlan.new(1, {}, seed)``: the clients are drawn from the seed
and every roll is a stream of it, so every
player on every server faces the same setup die, clients and rolls that day. The async side (one attempt per
player per day, the result, the leaderboards) is `engine.daily`; the Discord surface
`cogs.floor_plan_daily`.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime
from typing import Any

GAME = "floor_plan"
OPTIONS: dict[str, Any] = {}  # solo rules, no round timer (a daily attempt may be finished at leisure)
LEADERBOARD_SIZE = 10


def day_of(now: datetime) -> date:
    """The UTC date of an instant (a naive datetime is taken as UTC)."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    return now.astimezone(UTC).date()


def seed_for(day: date, secret: str) -> str:
    tag = hmac.new(secret.encode(), day.isoformat().encode(), hashlib.sha256).hexdigest()[:16]
    return f"daily-{day.isoformat()}-{tag}"


def daily_seed(now: datetime, secret: str) -> str:
    return seed_for(day_of(now), secret)


def result_of(rules: Any, state: Any) -> tuple[int, str | None]:
    """(final score, rating id) of a finished solo game."""
    outcome = rules.outcome(state)
    if outcome is None:
        raise ValueError("the game is not over")
    return int(outcome.scores[0]), rules.view(state, 0).get("rating")
