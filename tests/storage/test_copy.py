"""`db copy` (storage/copy.py): every table from SQLite into PostgreSQL and back, counted and checksummed."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import cli
from storage import ActionRow, Store, open_store
from storage.copy import TABLES, CopyError, Table, _Side, copy_database
from tests.storage.backends import fresh_database
from tests.storage.rows import NOW, deadline, inserted
from tests.storage.test_league_store import finish_of
from tests.storage.test_tournament_store import tournament


async def _columns(store: Store, url: str) -> dict[str, set[str]]:
    db: Any = store  # the backend's own row reader: the schema as the database reports it
    if url.startswith("sqlite"):
        names = [r[0] for r in await db._rows("SELECT name FROM sqlite_master WHERE type = 'table'")]
        out = {n: {r[1] for r in await db._rows(f"PRAGMA table_info({n})")} for n in names}
        out["floor_answers"].add("seq")  # its rowid
        return out
    rows = await db._rows("SELECT table_name, column_name FROM information_schema.columns"
                          " WHERE table_schema = current_schema() AND table_name <> 'schema_version'")
    out = {}
    for table, column in rows:
        out.setdefault(table, set()).add(column)
    return out


async def test_the_copy_knows_every_table_and_column_of_the_schema(store: Store, store_url: str) -> None:
    """A migration that adds a table or a column must add it to the copy too, or this fails."""
    assert await _columns(store, store_url) == {t.name: set(t.columns) for t in TABLES}


async def _fill(store: Store) -> int:
    """One of everything, a finished rated game and a damaged row among them."""
    game = await inserted(store, 1)
    await store.save_game(replace(game, version=2, moves=1, shared={"h1": '{"words": ["żółw"]}'}), expect_version=1,
                          action=ActionRow(game.id, 1, 0, "take 1", "player", 1, 777, NOW),
                          add_deadlines=[deadline(), deadline("remind", at=NOW + timedelta(minutes=5))])
    done = await inserted(store, 2)
    await store.save_game(replace(done, status="finished", version=2), expect_version=1, finish=finish_of(done))
    broken = await inserted(store, 3)
    await store.mark_damaged(broken.id, "bad state", NOW)
    await store.set_setting(10, "locale", "pl")
    await store.set_user_settings(7, {"quiet": [22, 7]})
    await store.add_vacation(7, 10, NOW, NOW + timedelta(days=2))
    daily, _ = await store.claim_daily("2026-11-27", 1, 10, "Ann", NOW)
    await store.finish_daily(daily.id, 50, "good", NOW + timedelta(minutes=3))
    number = await store.add_floor_category(10, "en", "Birds", ["easy"], ["robin"], 1, NOW)
    for answer in ("Owl", "Hawk", "Crow"):
        await store.add_floor_answer(10, "en", f"server_{number}", answer, 1, NOW, key=answer.lower())
    tid = await store.insert_tournament(tournament())
    row = await store.load_tournament(tid)
    await store.save_tournament(replace(row, status="running", version=1), expect_version=0, link=[(done.id, 1, 0)])
    return game.id


async def test_a_sqlite_database_copied_into_postgresql_and_back_keeps_every_row(tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    back = f"sqlite:///{tmp_path / 'back.sqlite3'}"
    store = await open_store(source)
    game_id = await _fill(store)
    await store.close()
    async with fresh_database("postgres", tmp_path) as pg:
        there = await copy_database(source, pg)
        assert {s.table: s.rows for s in there if s.rows} == {
            "games": 3, "actions": 1, "deadlines": 2, "guild_settings": 1, "daily_results": 1, "floor_categories": 1,
            "floor_answers": 3, "damaged_games": 1, "shared_content": 1, "user_settings": 1, "vacations": 1,
            "results": 2, "ratings": 4, "tournaments": 1, "tournament_games": 1}
        assert await copy_database(pg, back) == there  # and back: every count and checksum equal
        assert await copy_database(source, pg) == there  # a second run finds it done and changes nothing
        copied = await open_store(pg)
        try:
            original = await open_store(source)
            assert await copied.load_table(game_id) == await original.load_table(game_id)
            assert await copied.floor_answers(10, "en") == await original.floor_answers(10, "en")
            await original.close()
            assert await inserted(copied, 9) is not None  # new ids go on after the copied ones
        finally:
            await copied.close()


async def test_a_copy_into_a_database_holding_other_rows_is_refused_unless_replacing(tmp_path: Path) -> None:
    source, target = f"sqlite:///{tmp_path / 'a.sqlite3'}", f"sqlite:///{tmp_path / 'b.sqlite3'}"
    for url, channel in ((source, 1), (target, 2)):
        store = await open_store(url)
        await inserted(store, channel)
        await store.close()
    with pytest.raises(CopyError, match=r"the target is not empty: games \(1\).*--replace"):
        await copy_database(source, target)
    copied = await copy_database(source, target, replace=True)
    assert next(s.rows for s in copied if s.table == "games") == 1
    store = await open_store(target)
    try:
        assert (await store.open_game_in_channel(1)) is not None and await store.open_game_in_channel(2) is None
    finally:
        await store.close()
    with pytest.raises(CopyError, match="the same database"):
        await copy_database(source, str(tmp_path / "a.sqlite3"))


async def test_a_copy_that_lost_or_changed_a_row_is_reported_by_table(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    source, target = f"sqlite:///{tmp_path / 'a.sqlite3'}", f"sqlite:///{tmp_path / 'b.sqlite3'}"
    store = await open_store(source)
    await _fill(store)
    await store.close()
    write = _Side.write

    async def lossy(self: _Side, table: Table, rows: list[tuple[Any, ...]]) -> None:
        if table.name == "deadlines":
            rows = rows[1:]
        if table.name == "user_settings":
            rows = [(7, '{"quiet": [0, 0]}')]
        await write(self, table, rows)

    monkeypatch.setattr(_Side, "write", lossy)
    with pytest.raises(CopyError, match=r"deadlines: 1 rows of 2; user_settings: 1 rows of 1, checksum differs"):
        await copy_database(source, target)


async def _made(path: Path) -> None:
    store = await open_store(path)
    await inserted(store, 1)
    await store.close()


def test_floorboard_db_copy_prints_each_tables_count_and_refuses_a_non_empty_target(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    assert cli.invoke(["db", "copy", "--from", str(source), "--to", str(target)]) == 1
    assert f"no database at {source}" in capsys.readouterr().err and not target.exists()
    asyncio.run(_made(source))
    assert cli.invoke(["db", "copy", "--from", str(source), "--to", str(target)]) == 0
    out = capsys.readouterr().out
    assert "games" in out and "Copied: every table's row count and checksum are equal" in out
    assert cli.invoke(["db", "copy", "--from", str(source), "--to", str(target)]) == 0  # done before: a no-op
    other = tmp_path / "c.sqlite3"
    assert cli.invoke(["db", "copy", "--from", str(target), "--to", "mysql://x/y"]) == 1
    assert "unsupported store URL mysql://" in capsys.readouterr().err
    assert not other.exists()


async def test_a_copy_leaves_the_targets_planner_statistics_fresh(tmp_path: Path) -> None:
    """A bot started on a big copy must not plan its start-up queries blind until autovacuum comes round: the copy
    analyses what it wrote (PostgreSQL: `reltuples` is -1 on a table never analysed; SQLite: `sqlite_stat1`)."""
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    back = f"sqlite:///{tmp_path / 'back.sqlite3'}"
    store = await open_store(source)
    await _fill(store)
    await store.close()
    async with fresh_database("postgres", tmp_path) as pg:
        await copy_database(source, pg)
        copied: Any = await open_store(pg)
        try:
            (tuples,) = await copied._rows("SELECT reltuples FROM pg_class WHERE relname = 'games'"
                                           " AND relnamespace = current_schema()::regnamespace")
            assert tuples[0] == 3
        finally:
            await copied.close()
        await copy_database(pg, back)
    lite: Any = await open_store(back)
    try:
        assert await lite._rows("SELECT tbl FROM sqlite_stat1 WHERE tbl = 'games'")
    finally:
        await lite.close()
