"""QueueStore contract (issue 27, migration 0013): the /queue entries and /challenge rows, on every backend."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from storage import ChallengeRow, QueueEntryGoneError, QueueRow, StorageConflictError, Store
from tests.storage.rows import NOW, game_row


def entry(user: int, game: str = "nim", *, at=NOW, players: int = 2, guild: int = 10) -> QueueRow:  # type: ignore[no-untyped-def]
    return QueueRow(guild, user, game, players, "", 1500.0, False, 77, f"P{user}", at)


def challenge(challenged: int = 2, *, expires=NOW + timedelta(minutes=10)) -> ChallengeRow:  # type: ignore[no-untyped-def]
    return ChallengeRow(0, 10, 77, 1, challenged, "nim", {"time": "3d"}, "open", NOW, expires)


async def test_rejoining_the_queue_updates_the_entry_but_keeps_the_first_join_time(store: Store) -> None:
    await store.put_queue_entries([entry(1)])
    await store.put_queue_entries([replace(entry(1, at=NOW + timedelta(minutes=5), players=3), bots_ok=True)])
    (row,) = await store.queue_entries(10)
    assert (row.players, row.bots_ok, row.joined_at) == (3, True, NOW)


async def test_a_requeued_no_shows_partner_keeps_the_earlier_join_time(store: Store) -> None:
    await store.put_queue_entries([entry(1, at=NOW + timedelta(minutes=9))])  # joined again meanwhile
    await store.put_queue_entries([entry(1, at=NOW)])  # put back with the first join time
    (row,) = await store.queue_entries(10)
    assert row.joined_at == NOW


async def test_queue_entries_are_listed_per_server_oldest_first(store: Store) -> None:
    await store.put_queue_entries([entry(2, at=NOW + timedelta(seconds=1)), entry(1), entry(3, guild=11)])
    assert [r.user_id for r in await store.queue_entries(10)] == [1, 2]
    assert [r.user_id for r in await store.queue_entries()] == [1, 3, 2]  # by join time, then id


async def test_leaving_removes_one_games_entry_or_every_entry(store: Store) -> None:
    await store.put_queue_entries([entry(1, "nim"), entry(1, "chess"), entry(2)])
    assert await store.remove_queue_entries(10, 1, ["nim"]) == 1
    assert await store.remove_queue_entries(10, 1, ["nim"]) == 0
    assert await store.remove_queue_entries(10, 1) == 1
    assert [r.user_id for r in await store.queue_entries(10)] == [2]


async def test_a_matched_lobby_takes_all_its_entries_with_it_or_none_and_no_lobby(store: Store) -> None:
    """The lobby and its entries leave in one transaction: a member who left meanwhile means no lobby and every
    other entry still waiting; else the match's entries and its members' other games go, the lobby is stored."""
    await store.put_queue_entries([entry(1), entry(2), entry(1, "chess"), entry(4)])
    lobby = game_row(500, status="lobby")
    with pytest.raises(QueueEntryGoneError):
        await store.insert_game(lobby, take=[entry(1), entry(3)], drop=[entry(1, "chess")])
    assert len(await store.queue_entries(10)) == 4
    assert await store.open_game_in_channel(500) is None
    game_id = await store.insert_game(lobby, take=[entry(1), entry(2)], drop=[entry(1, "chess"), entry(9)])
    assert [(r.user_id, r.game) for r in await store.queue_entries(10)] == [(4, "nim")]
    stored = await store.open_game_in_channel(500)
    assert stored is not None and stored.id == game_id


async def test_a_challenge_is_answered_once(store: Store) -> None:
    cid = await store.insert_challenge(challenge())
    assert await store.answer_challenge(cid, "accepted", game_id=5)
    assert not await store.answer_challenge(cid, "declined")  # a double click, or the expiry racing it
    row = await store.load_challenge(cid)
    assert row is not None and (row.status, row.game_id, row.options) == ("accepted", 5, {"time": "3d"})


async def test_a_member_has_one_open_challenge_at_a_time(store: Store) -> None:
    first = await store.insert_challenge(challenge())
    with pytest.raises(StorageConflictError):
        await store.insert_challenge(challenge())
    assert [c.id for c in await store.open_challenges(10, 2)] == [first]
    assert [c.id for c in await store.open_challenges(10, 1)] == [first]
    await store.answer_challenge(first, "declined")
    assert await store.insert_challenge(challenge()) > first


async def test_due_challenges_are_the_open_ones_past_their_expiry(store: Store) -> None:
    due = await store.insert_challenge(challenge(2, expires=NOW))
    await store.insert_challenge(challenge(3))
    answered = await store.insert_challenge(challenge(4, expires=NOW))
    await store.answer_challenge(answered, "declined")
    await store.set_challenge_message(due, 999)
    rows = await store.due_challenges(NOW)
    assert [(c.id, c.message_id) for c in rows] == [(due, 999)]
    assert await store.load_challenge(12345) is None
