"""Read-only queries the surfaces show (profile, leaderboard, history, tournaments, a game's log): the one way a
cog or the terminal reads what the store keeps, besides the tables the engine hands out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from storage import (
    GLOBAL,
    ActionRow,
    DailyRow,
    DeadlineRow,
    GameRow,
    GameStore,
    LeagueStore,
    RatingRow,
    ResultRow,
    TournamentRow,
    TournamentStore,
)

# The rows the surfaces show, named here so that no surface imports storage.
__all__ = ["GLOBAL", "ActionRow", "DailyRow", "DeadlineRow", "Profile", "Queries", "QueryStore", "RatingRow",
           "ResultRow", "TournamentRow"]


class QueryStore(GameStore, LeagueStore, TournamentStore, Protocol):
    """What the queries read."""


@dataclass(frozen=True)
class Profile:
    """A player's /profile: ratings on the server and everywhere, W/D/L per game, last games, tournaments."""

    here: dict[str, RatingRow]
    everywhere: dict[str, RatingRow]
    counts: dict[str, tuple[int, int, int]]
    last: list[ResultRow]
    tournaments: list[TournamentRow]


class Queries:
    def __init__(self, store: QueryStore) -> None:
        self.store = store

    async def profile(self, user_id: int, guild_id: int, *, last_games: int) -> Profile:
        here = {r.game: r for r in await self.store.ratings_of(user_id, guild_id)}
        everywhere = {r.game: r for r in await self.store.ratings_of(user_id, GLOBAL)}
        counts = await self.store.record_counts(user_id, guild_id)
        last = await self.store.results_of(user_id, guild_id=guild_id, limit=last_games)
        return Profile(here, everywhere, counts, last, await self.store.tournaments_of(user_id, guild_id))

    async def leaderboard(self, scope: int, game: str, *, limit: int, offset: int = 0) -> list[RatingRow]:
        return await self.store.leaderboard(scope, game, limit=limit, offset=offset)

    async def history(self, user_id: int, *, guild_id: int | None, game: str | None = None, limit: int = 20,
                      before: datetime | None = None, offset: int = 0) -> list[ResultRow]:
        return await self.store.results_of(user_id, guild_id=guild_id, game=game, limit=limit, before=before,
                                          offset=offset)

    async def saved_game(self, game_id: int | None = None, *, channel_id: int | None = None) -> GameRow | None:
        """A game's stored row as it is, damaged or not (a terminal save to drop): by id, or the channel's open one."""
        if game_id is not None:
            return await self.store.load_game(game_id)
        return None if channel_id is None else await self.store.open_game_in_channel(channel_id)

    async def rating(self, scope: int, game: str, user_id: int) -> RatingRow | None:
        return await self.store.rating(scope, game, user_id)

    async def tournaments(self, guild_id: int | None, statuses: Sequence[str]) -> list[TournamentRow]:
        return await self.store.tournaments_in_guild(guild_id, statuses)

    async def actions(self, table_id: int) -> list[ActionRow]:
        """A game's action log, oldest first."""
        return await self.store.actions(table_id)

    async def unposted(self, meta_key: str) -> list[int]:
        """Games whose posts lag their moves (``meta[meta_key]`` below the move count): running ones, also when
        they predate the marker, and finished ones that have it."""
        ids = await self.store.game_ids_where(meta_key, below_moves=True)
        ids += await self.store.game_ids_where(meta_key, below_moves=True, statuses=("finished",), missing=False)
        return sorted(ids)
