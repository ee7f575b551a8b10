"""FollowStore contract (issue 27, spectators): a member follows a game once; a game's follows end together; a
digest's bookkeeping is kept per follower. Runs on every backend."""

from __future__ import annotations

from datetime import timedelta

from storage import Store
from tests.storage.rows import NOW


async def test_a_member_follows_a_game_once(store: Store) -> None:
    assert await store.add_follow(7, 100, 10, "dm", NOW)
    assert not await store.add_follow(7, 100, 10, "thread", NOW + timedelta(minutes=1))  # a double click
    [row] = await store.follows_of_game(7)
    assert (row.game_id, row.user_id, row.guild_id, row.mode, row.created_at) == (7, 100, 10, "dm", NOW)
    assert row.last_sent_at is None and row.sent_moves == 0


async def test_a_members_follows_are_listed_per_server_oldest_first(store: Store) -> None:
    await store.add_follow(8, 100, 10, "channel", NOW + timedelta(minutes=1))
    await store.add_follow(7, 100, 10, "dm", NOW)
    await store.add_follow(9, 100, 11, "dm", NOW)
    await store.add_follow(7, 101, 10, "dm", NOW)
    assert [r.game_id for r in await store.follows_of_user(100, 10)] == [7, 8]
    assert sorted(r.game_id for r in await store.follows_of_user(100)) == [7, 8, 9]
    assert await store.follows_of_user(102) == []


async def test_unfollowing_ends_only_the_named_members_follow(store: Store) -> None:
    for user in (100, 101, 102):
        await store.add_follow(7, user, 10, "dm", NOW)
    await store.add_follow(8, 100, 10, "dm", NOW)
    assert await store.remove_follows(7, [100, 999]) == 1
    assert await store.remove_follows(7, []) == 0
    assert sorted(r.user_id for r in await store.follows_of_game(7)) == [101, 102]
    assert await store.remove_follows(7) == 2  # the game ended: every follow of it
    assert await store.follows_of_game(7) == []
    assert [r.game_id for r in await store.follows_of_user(100)] == [8]


async def test_a_digest_sent_is_remembered_per_follower(store: Store) -> None:
    await store.add_follow(7, 100, 10, "dm", NOW)
    await store.add_follow(7, 101, 10, "dm", NOW)
    await store.mark_follow_sent(7, 100, NOW + timedelta(minutes=5), 12)
    rows = {r.user_id: r for r in await store.follows_of_game(7)}
    assert (rows[100].last_sent_at, rows[100].sent_moves) == (NOW + timedelta(minutes=5), 12)
    assert (rows[101].last_sent_at, rows[101].sent_moves) == (None, 0)
