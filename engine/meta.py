"""Keys of a game's meta that several engine parts read (a tournament's link, the lobby's own options), and the
one question asked of them below the Director: may a closed game's record show its seed?"""

from __future__ import annotations

from typing import Any

from engine.tables import Table
from league.tournament import CANCELLED, FINISHED

TOURNAMENT = "tournament"  # a game's meta: {"id", "round", "table", "seats": [entrant ids in seat order]}
LOBBY_OPTIONS = "lobby_options"  # meta: the options as the lobby set them, before defaults were filled in


async def seed_shown(store: Any, table: Table) -> bool:
    """May a closed tournament game's record show its seed? Not while others still play the same deal (a score
    event's round): only once its tournament is over."""
    info = table.meta.get(TOURNAMENT)
    if not isinstance(info, dict) or not info.get("shared_seed") or not isinstance(info.get("id"), int):
        return True
    row = await store.load_tournament(info["id"])
    return row is None or row.status in (FINISHED, CANCELLED)
