"""LeagueStore contract: a game's results and ratings are written once, with its final save."""

from __future__ import annotations

from dataclasses import replace

from league.ratings import Rating
from storage import GLOBAL, Finish, GameRow, SeatResult, Store
from tests.storage.rows import GUILD, NOW, inserted


def _plus_one(current: dict[int, Rating]) -> dict[int, Rating]:
    return {1: Rating(current.get(1, Rating()).mu + 1, 5.0, 1), 2: Rating(current.get(2, Rating()).mu - 1, 5.0, 1)}


def finish_of(game: GameRow, *, rated: bool = True) -> Finish:
    rows = (SeatResult(1, 0, 1, "win", 1.0), SeatResult(2, 1, 2, "loss", 0.0))
    return Finish(game.id, GUILD, "nim", NOW, rated, rows, _plus_one if rated else None)


async def test_a_finished_games_results_and_ratings_are_written_with_its_final_save(store: Store) -> None:
    game = await inserted(store, 1)
    await store.save_game(replace(game, status="finished", version=2), expect_version=1, finish=finish_of(game))
    assert [(r.game_id, r.outcome, r.players) for r in await store.results_of(1)] == [(game.id, "win", 2)]
    assert (await store.rating(GUILD, "nim", 1)).wins == 1
    assert (await store.rating(GLOBAL, "nim", 2)).losses == 1
    assert [r.user_id for r in await store.leaderboard(GUILD, "nim")] == [1, 2]
    assert [r.game for r in await store.ratings_of(1, GLOBAL)] == ["nim"]
    assert await store.record_counts(2, GUILD) == {"nim": (0, 0, 1)}


async def test_a_games_results_are_counted_once_whatever_retries(store: Store) -> None:
    game = await inserted(store, 1)
    assert await store.record_finish(finish_of(game)) is True
    assert await store.record_finish(finish_of(game)) is False
    assert (await store.rating(GUILD, "nim", 1)).games == 1
    assert len(await store.results_of(1)) == 1


async def test_an_unrated_game_records_results_but_no_ratings(store: Store) -> None:
    game = await inserted(store, 1)
    await store.record_finish(finish_of(game, rated=False))
    assert await store.rating(GUILD, "nim", 1) is None
    assert await store.record_counts(1, None) == {"nim": (1, 0, 0)}
