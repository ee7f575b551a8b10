"""A row damaged on disk reads back flagged, never as a crash, and the same way on every backend (the checks of
storage/sqlite/checks.py run on PostgreSQL's rows too)."""

from __future__ import annotations

from storage import Store
from tests.storage.backends import execute_raw
from tests.storage.rows import inserted


async def test_a_game_row_with_a_state_that_is_not_json_is_reported_as_undecodable(
        store: Store, store_url: str) -> None:
    row = await inserted(store, 1)
    await execute_raw(store_url, f"UPDATE games SET state = '{{not json', seats = '[7]' WHERE id = {row.id}")
    loaded = await store.load_game(row.id)
    assert loaded.error == ("undecodable row: seat 0: not an object; state: unexpected character, expected a string"
                            " key: line 1 column 2 (char 1)")
    assert (loaded.state, loaded.seats, loaded.options) == (None, [], {"pile": 5})  # what still reads stays
    assert [g.id for g in await store.games_in_guild(10)] == [row.id]  # one bad row never fails a listing
    assert await store.games_of_user(1) == []  # its seats read as no seats
