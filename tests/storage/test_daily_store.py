"""DailyStore contract: one attempt per player and day, its result stored once, the best first."""

from __future__ import annotations

from datetime import timedelta

from storage import Store
from tests.storage.rows import NOW, inserted

DAY = "2026-11-27"


async def test_a_player_gets_one_attempt_a_day(store: Store) -> None:
    row, created = await store.claim_daily(DAY, 1, 10, "Ann", NOW)
    again, created_again = await store.claim_daily(DAY, 1, 10, "Ann", NOW + timedelta(minutes=5))
    assert (created, created_again) == (True, False) and again.id == row.id
    game = await inserted(store, 1)
    await store.set_daily_game(row.id, game.id)
    assert (await store.daily_attempt(DAY, 1)).game_id == game.id
    assert await store.daily_attempt("2026-11-28", 1) is None


async def test_a_result_is_stored_once_and_the_board_ranks_higher_then_earlier(store: Store) -> None:
    ann, _ = await store.claim_daily(DAY, 1, 10, "Ann", NOW)
    bob, _ = await store.claim_daily(DAY, 2, 11, "Bob", NOW)
    cid, _ = await store.claim_daily(DAY, 3, 10, "Cid", NOW)
    assert await store.finish_daily(ann.id, 50, "good", NOW + timedelta(minutes=3)) is True
    assert await store.finish_daily(ann.id, 99, "best", NOW + timedelta(minutes=4)) is False
    await store.finish_daily(bob.id, 50, None, NOW + timedelta(minutes=2))
    await store.finish_daily(cid.id, 80, None, NOW + timedelta(minutes=9))
    assert [r.name for r in await store.daily_leaderboard(DAY)] == ["Cid", "Bob", "Ann"]
    assert [r.name for r in await store.daily_leaderboard(DAY, 10)] == ["Cid", "Ann"]
    finished = await store.daily_by_id(ann.id)
    assert finished.score == 50 and finished.finished
    assert await store.daily_rank(finished) == (3, 3)
    assert await store.daily_rank(finished, same_guild=True) == (2, 2)
