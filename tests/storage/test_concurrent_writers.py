"""Two writers on one database (two stores: two processes' connections), on every backend: one move per version,
and no rating update lost when two games end at once."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from league.ratings import Rating
from storage import Finish, SeatResult, StorageConflictError, Store, open_store
from tests.storage.rows import GUILD, NOW, inserted


async def test_two_writers_saving_over_one_version_apply_exactly_one_move_per_version(
        store: Store, store_url: str) -> None:
    other = await open_store(store_url)
    try:
        game = await inserted(store, 1)
        applied = []
        for version in range(1, 11):
            tries = [s.save_game(replace(game, version=version + 1, moves=version, state={"by": n}),
                                 expect_version=version) for n, s in enumerate((store, other))]
            outcomes = await asyncio.gather(*tries, return_exceptions=True)
            assert sum(isinstance(o, StorageConflictError) for o in outcomes) == 1, outcomes
            applied.append(next(n for n, o in enumerate(outcomes) if not isinstance(o, BaseException)))
        final = await other.load_game(game.id)
        assert (final.version, final.moves, final.state) == (11, 10, {"by": applied[-1]})
    finally:
        await other.close()


def _plus_one(current: dict[int, Rating]) -> dict[int, Rating]:
    return {u: Rating(current.get(u, Rating()).mu + 1, 5.0, current.get(u, Rating()).games + 1) for u in (1, 2)}


async def test_two_games_ending_at_once_through_two_writers_both_count_in_the_ratings(
        store: Store, store_url: str) -> None:
    other = await open_store(store_url)
    try:
        games = [await inserted(store, channel) for channel in range(1, 7)]
        rows = (SeatResult(1, 0, 1, "win", 1.0), SeatResult(2, 1, 2, "loss", 0.0))
        await asyncio.gather(*(s.save_game(replace(g, status="finished", version=2), expect_version=1,
                                           finish=Finish(g.id, GUILD, "nim", NOW, True, rows, _plus_one))
                               for s, g in zip((store, other) * 3, games, strict=True)))
        winner = await store.rating(GUILD, "nim", 1)
        assert (winner.games, winner.wins, winner.mu) == (6, 6, Rating().mu + 6)
    finally:
        await other.close()
