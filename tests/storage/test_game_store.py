"""GameStore and DamageStore contract: rows round-trip, a move saves in one versioned transaction."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from storage import ActionRow, StorageConflictError, Store
from tests.storage.rows import NOW, deadline, game_row, inserted


async def test_a_game_row_reads_back_as_it_was_written(store: Store) -> None:
    row = await inserted(store, 1)
    loaded = await store.load_game(row.id)
    assert loaded == row
    assert await store.load_game(row.id + 1) is None


async def test_a_channel_has_one_open_game_and_a_second_is_refused(store: Store) -> None:
    row = await inserted(store, 1)
    assert (await store.open_game_in_channel(1)).id == row.id
    with pytest.raises(StorageConflictError):
        await inserted(store, 1)


async def test_a_save_over_a_version_that_moved_on_is_refused_and_writes_nothing(store: Store) -> None:
    row = await inserted(store, 1)
    moved = replace(row, version=2, moves=1, state={"pile": 4})
    await store.save_game(moved, expect_version=1)
    stale = replace(row, version=2, moves=1, state={"pile": 3})
    with pytest.raises(StorageConflictError):
        await store.save_game(stale, expect_version=1)
    assert (await store.load_game(row.id)).state == {"pile": 4}


async def test_a_save_writes_its_action_and_deadline_changes_in_the_same_transaction(store: Store) -> None:
    row = await inserted(store, 1)
    action = ActionRow(row.id, 1, 0, "take 1", "player", 1, 777, NOW)
    added = await store.save_game(replace(row, version=2, moves=1), expect_version=1, action=action,
                                  add_deadlines=[deadline()])
    assert [a.action for a in await store.actions(row.id)] == ["take 1"]
    assert (await store.action_by_interaction(777)) == action
    game, deadlines = await store.load_table(row.id)
    assert game is not None and game.version == 2
    assert [d.id for d in deadlines] == [d.id for d in added] and added[0].id is not None


async def test_an_interaction_is_logged_once_and_its_second_save_changes_nothing(store: Store) -> None:
    row = await inserted(store, 1)
    action = ActionRow(row.id, 1, 0, "take 1", "player", 1, 777, NOW)
    await store.save_game(replace(row, version=2), expect_version=1, action=action)
    with pytest.raises(StorageConflictError):
        await store.save_game(replace(row, version=3), expect_version=2, action=replace(action, seq=2))
    assert (await store.load_game(row.id)).version == 2


async def test_shared_content_is_stored_once_and_read_by_hash(store: Store) -> None:
    row = replace(await inserted(store, 1), version=2, shared={"h1": '{"words": [1]}'})
    await store.save_game(row, expect_version=1)
    await store.save_game(replace(row, version=3, shared={"h1": '{"other": 0}'}), expect_version=2)
    assert await store.shared_content(["h1", "missing"]) == {"h1": '{"words": [1]}'}


async def test_the_listings_find_games_by_status_server_user_and_meta(store: Store) -> None:
    a = await inserted(store, 1, users=(1, 2))
    b = await inserted(store, 2, users=(3, 1), status="lobby")
    done = await inserted(store, 3, status="finished")
    assert [g.id for g in await store.games_in_guild(10)] == [a.id, b.id]
    assert await store.game_ids(["finished"]) == [done.id]
    assert (await store.last_game_in_channel(3, ["finished"])).id == done.id
    assert [gid for gid, _ in await store.games_of_user(1)] == [a.id]  # running games only, not lobbies
    assert await store.game_ids_where("announced", below_moves=True) == [a.id]


async def test_game_ids_lists_one_game_kind_by_status_without_the_others(store: Store) -> None:
    """The start asks for one game's running tables (The Floor's clocks): the query filters by game, so the engine
    loads those rows only."""
    nim = await inserted(store, 1)
    other = replace(game_row(2), game="other")
    other = replace(other, id=await store.insert_game(other))
    done = await inserted(store, 3, status="finished")
    assert await store.game_ids(["active"], "nim") == [nim.id]
    assert await store.game_ids(["active"], game="other") == [other.id]
    assert await store.game_ids(None, "nim") == [nim.id, done.id]
    assert await store.game_ids(["active"], "absent") == []
    assert await store.game_ids(["active"]) == [nim.id, other.id]


async def test_a_damaged_game_is_reported_once_listed_and_closed_without_decoding(store: Store) -> None:
    row = await inserted(store, 1)
    assert await store.mark_damaged(row.id, "bad state", NOW) is True
    assert await store.mark_damaged(row.id, "bad state", NOW + timedelta(1)) is False
    assert await store.damaged_games() == {row.id: "bad state"}
    assert await store.close_damaged(row.id, "admin") is True
    assert (await store.load_game(row.id)).status == "aborted"
    assert await store.damaged_games() == {}
