"""DeadlineStore contract: due deadlines come oldest first, a damaged game's never."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from storage import Store
from tests.storage.rows import NOW, deadline, inserted


async def test_due_deadlines_come_oldest_first_and_leave_out_the_excluded_games(store: Store) -> None:
    a, b = await inserted(store, 1), await inserted(store, 2)
    await store.save_game(replace(a, version=2), expect_version=1,
                          add_deadlines=[deadline(at=NOW + timedelta(minutes=2)), deadline("remind", at=NOW)])
    await store.save_game(replace(b, version=2), expect_version=1, add_deadlines=[deadline(at=NOW)])
    due = await store.due_deadlines(NOW + timedelta(minutes=1))
    assert [(d.game_id, d.kind) for d in due] == [(a.id, "remind"), (b.id, "turn")]
    assert [d.game_id for d in await store.due_deadlines(NOW, exclude={a.id})] == [b.id]
    assert await store.next_deadline() == NOW


async def test_a_dropped_deadline_is_gone_and_a_postponed_one_moves(store: Store) -> None:
    a = await inserted(store, 1)
    first, second = await store.save_game(replace(a, version=2), expect_version=1,
                                          add_deadlines=[deadline(), deadline("remind")])
    await store.drop_deadline(first.id)
    await store.postpone_deadline(second.id, NOW + timedelta(hours=1))
    assert [(d.id, d.due_at) for d in await store.deadlines_for(a.id)] == [(second.id, NOW + timedelta(hours=1))]


async def test_a_damaged_games_deadlines_are_never_due(store: Store) -> None:
    a = await inserted(store, 1)
    await store.save_game(replace(a, version=2), expect_version=1, add_deadlines=[deadline()])
    await store.mark_damaged(a.id, "bad", NOW)
    assert await store.due_deadlines(NOW) == []
    assert await store.next_deadline() is None


async def test_clearing_a_games_deadlines_drops_them_all_before_adding(store: Store) -> None:
    a = await inserted(store, 1)
    await store.save_game(replace(a, version=2), expect_version=1, add_deadlines=[deadline(), deadline("x")])
    await store.save_game(replace(a, version=3), expect_version=2, clear_deadlines=True,
                          add_deadlines=[deadline("lobby", seat=None)])
    assert [d.kind for d in await store.deadlines_for(a.id)] == ["lobby"]
