"""DeadlineStore contract, several processes on one database (issue 26): "Every deadline fires exactly once in the
cluster: a process claims due deadlines … (a lease with expiry); a process killed mid-claim leaves its claims to be
taken by another after the lease." Each case runs on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta

from storage import Shards, Store, open_store
from tests.storage.rows import NOW, deadline, inserted

LEASE = 60.0


async def _with_due(store: Store, games: int, per_game: int = 1, **kw: object) -> list[int]:
    """``games`` games with ``per_game`` deadlines due at NOW each; the deadline ids."""
    ids = []
    for channel in range(1, games + 1):
        g = await inserted(store, channel, **kw)  # type: ignore[arg-type]
        added = await store.save_game(replace(g, version=2), expect_version=1,
                                      add_deadlines=[deadline(f"k{i}") for i in range(per_game)])
        ids += [d.id for d in added]
    return ids


async def test_two_owners_claiming_at_once_never_get_the_same_deadline(store: Store, store_url: str) -> None:
    ids = await _with_due(store, 6, per_game=5)
    other = await open_store(store_url)  # a second process: its own connection(s) to the same database
    claimed: list[int] = []
    try:
        for n in range(3):  # rounds of concurrent claims by new owners (an owner sees its own claims again)
            a, b = await asyncio.gather(store.claim_due_deadlines(NOW, f"a{n}", LEASE, limit=7),
                                        other.claim_due_deadlines(NOW, f"b{n}", LEASE, limit=7))
            claimed += [d.id for d in a + b]
        assert sorted(claimed) == sorted(ids), "every due row claimed once, none twice"
        assert await store.claim_due_deadlines(NOW, "late", LEASE, limit=100) == []
    finally:
        await other.close()


async def test_a_live_claim_is_not_taken_by_another_owner(store: Store) -> None:
    (did,) = await _with_due(store, 1)
    assert [d.id for d in await store.claim_due_deadlines(NOW, "killed", LEASE)] == [did]
    assert await store.claim_due_deadlines(NOW + timedelta(seconds=LEASE - 1), "survivor", LEASE) == []


async def test_an_expired_claim_is_claimed_again_by_another_owner(store: Store) -> None:
    """The owner was killed mid-claim: once its lease ends, the row is another's to fire (once)."""
    (did,) = await _with_due(store, 1)
    await store.claim_due_deadlines(NOW, "killed", LEASE)
    later = NOW + timedelta(seconds=LEASE)
    assert [d.id for d in await store.claim_due_deadlines(later, "survivor", LEASE)] == [did]
    assert await store.claim_due_deadlines(later, "killed-restarted", LEASE) == []


async def test_claimed_deadlines_come_oldest_first_and_only_when_due(store: Store) -> None:
    a = await inserted(store, 1)
    await store.save_game(replace(a, version=2), expect_version=1, add_deadlines=[
        deadline("late", at=NOW + timedelta(minutes=2)), deadline("second", at=NOW), deadline("first",
                                                                                              at=NOW - timedelta(1))])
    assert [d.kind for d in await store.claim_due_deadlines(NOW, "a", LEASE)] == ["first", "second"]


async def test_a_postponed_deadline_is_released_for_whoever_fires_it_next(store: Store) -> None:
    (did,) = await _with_due(store, 1)
    await store.claim_due_deadlines(NOW, "a", LEASE)
    await store.postpone_deadline(did, NOW + timedelta(seconds=1))
    assert [d.id for d in await store.claim_due_deadlines(NOW + timedelta(seconds=1), "b", LEASE)] == [did]


async def test_claims_keep_to_the_owners_shards_and_guildless_games_go_to_shard_0(store: Store) -> None:
    """Discord's routing: shard_id = (guild_id >> 22) % shard_count."""
    shard = {g: (g >> 22) % 4 for g in (0 << 22, 1 << 22, 2 << 22 | 5, 7 << 22)}  # shards 0, 1, 2, 3
    by_guild = {}
    for channel, guild in enumerate(shard, start=1):
        g = await inserted(store, channel, guild_id=guild)
        (d,) = await store.save_game(replace(g, version=2), expect_version=1, add_deadlines=[deadline()])
        by_guild[guild] = d.id
    g = await inserted(store, 99, guild_id=None)
    (terminal,) = await store.save_game(replace(g, version=2), expect_version=1, add_deadlines=[deadline()])
    low = await store.claim_due_deadlines(NOW, "p0", LEASE, shards=Shards(4, (0, 1)))
    high = await store.claim_due_deadlines(NOW, "p1", LEASE, shards=Shards(4, (2, 3)))
    assert {d.id for d in low} == {by_guild[g] for g in shard if shard[g] in (0, 1)} | {terminal.id}
    assert {d.id for d in high} == {by_guild[g] for g in shard if shard[g] in (2, 3)}


async def test_claims_leave_out_damaged_and_excluded_games(store: Store) -> None:
    await _with_due(store, 3)
    # A zero lease ends at once: the probe claims nothing for good.
    games = [d.game_id for d in await store.claim_due_deadlines(NOW, "probe", 0)]
    await store.mark_damaged(games[0], "bad", NOW)
    claimed = await store.claim_due_deadlines(NOW, "a", LEASE, exclude={games[1]})
    assert [d.game_id for d in claimed] == [games[2]]
