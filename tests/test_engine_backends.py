"""The engine's tests run on both backends (tests/conftest.py): on PostgreSQL they share one migrated schema per
test process, emptied before each test, so every test must still find what a new database holds. And the
differences between the backends found on the way, each checked on both."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Engine, SeatInfo
from storage import open_store
from tests.storage.backends import BACKENDS, ReusedSchema, execute_raw, fresh_database
from tests.storage.rows import NOW, deadline, game_row


async def test_an_emptied_postgresql_schema_reads_as_a_new_database_with_ids_from_1(pg_schema: ReusedSchema,
                                                                                     clock, games) -> None:
    await (pg_schema.empty() if pg_schema.created else pg_schema.create())
    store = await open_store(pg_schema.url)
    try:
        engine = Engine(store, games=games, now=clock)
        t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(1, "A"),
                                    options={"turn_minutes": 5})
        await engine.join(t.id, SeatInfo(2, "B"))
        await engine.act((await engine.start(t.id, 1)).id, 1, "take 1")
        await store.set_setting(9, "locale", "pl")
        await store.set_user_settings(1, {"hints": False})
        await engine.stop()
    finally:
        await store.close()
    await pg_schema.empty()
    store = await open_store(pg_schema.url)
    try:
        assert await store.game_ids() == [] and await store.get_setting(9, "locale") is None
        assert await store.user_settings(1) == {} and await store.due_deadlines(NOW.replace(year=2100)) == []
        assert await store.insert_game(game_row(1), [deadline()]) == 1, "ids count from 1 again"
        assert [d.id for d in await store.deadlines_for(1)] == [1]
    finally:
        await store.close()


@pytest.mark.parametrize("backend_name", BACKENDS)
async def test_a_servers_answers_come_in_code_point_order_whatever_the_databases_collation(
        backend_name: str, tmp_path: Path) -> None:
    """SQLite orders text by code point. A PostgreSQL database created under a language's collation (en_US.UTF-8,
    the default on many servers) orders "science" before "sci-fi": a server's categories came in another order (in
    its admins' listing and in the content a new game takes) after a move to PostgreSQL."""
    async with fresh_database(backend_name, tmp_path) as url:
        store = await open_store(url)
        try:
            if backend_name == "postgres":  # this database's text columns ordered as a language's dictionary does
                await execute_raw(url, "CREATE COLLATION dictionary (provider = icu, locale = 'und-u-ka-shifted')")
                await execute_raw(url, "ALTER TABLE floor_answers ALTER COLUMN category TYPE TEXT COLLATE dictionary")
            for category in ("science", "sci-fi", "top_10", "top10"):
                assert await store.add_floor_answer(9, "en", category, f"answer {category}", None, NOW)
            assert list(await store.floor_answers(9, "en")) == ["sci-fi", "science", "top10", "top_10"]
        finally:
            await store.close()
