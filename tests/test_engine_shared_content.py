"""Content fixed for a whole game (a Game's ``shared_fields``: The Floor's server categories and answers) is stored
once in ``shared_content`` and referenced from the game's row: a move rewrites kilobytes, not megabytes; games
with the same content share it; replay, restarts and old rows with inline content still work; a missing shared
row isolates its game only."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
import pytest

import engine.shared as engine_module
from engine import DamagedGameError, Engine, SeatInfo, Table, replay
from engine.shared import SHARED
from rules import GAMES
from rules.the_floor import TheFloor
from storage import SqliteStore as Store
from tests.conftest import FakeClock

G = TheFloor()
CATEGORIES, ANSWERS = 50, 300  # a server's limits (cogs.utils.the_floor_content)
ROW_BOUND = 50_000  # bytes of a game's options + state + meta once its content is shared


def server_content(tag: str = "") -> dict[str, Any]:
    """A server's own categories at their limits, as ``server_content`` hands them to a lobby (> 500 KB)."""
    words = ("amber", "birch", "cobalt", "dune", "ember", "fjord", "garnet", "harbor", "indigo", "juniper")

    def answer(n: int, cat: int) -> str:
        return f"{words[n // 100 % 10].title()} {words[n // 10 % 10]} {words[n % 10]} of list {cat}{tag}"

    cats = [{"id": f"server_{i + 1}", "name": f"Category {i + 1}{tag}", "flags": [],
             "answers": [answer(n, i) for n in range(ANSWERS)]} for i in range(CATEGORIES)]
    return {"categories": cats, "answers": {"countries": ["Freedonia", "Sylvania"]}}


CONTENT = server_content()


@asynccontextmanager
async def running(db_path: Path, clock: FakeClock) -> AsyncIterator[Engine]:
    """An engine on the file, closed however the test ends (an open store's thread would keep pytest running)."""
    engine = Engine(await Store.open(db_path), games=GAMES, now=clock)
    try:
        yield engine
    finally:
        await engine.stop()
        await engine.store.close()


async def floor_game(engine: Engine, channel: int, content: dict[str, Any] | None = CONTENT) -> Table:
    options: dict[str, Any] = {"lang": "en"} if content is None else {"lang": "en", "content": content}
    table = await engine.open_lobby("the_floor", guild_id=1, channel_id=channel, host=SeatInfo(1, "Ann"),
                                    options=options, seed=f"shared-{channel}")
    await engine.join(table.id, SeatInfo(2, "Bo"))
    return await engine.start(table.id, 1)


async def play(engine: Engine, table: Table, moves: int) -> Table:
    """``moves`` actions the rules' bot chooses, each through ``engine.act`` as a player's."""
    for _ in range(moves):
        seat = min(table.to_move())
        table = (await engine.act(table.id, seat + 1, G.bot_action(table.state, seat))).table
    return table


def columns(db_path: Path, table_id: int) -> dict[str, str]:
    with sqlite3.connect(db_path) as db:
        options, state, meta = db.execute("SELECT options, state, meta FROM games WHERE id = ?", (table_id,)).fetchone()
    return {"options": options, "state": state, "meta": meta}


def shared_rows(db_path: Path) -> dict[str, str]:
    with sqlite3.connect(db_path) as db:
        return dict(db.execute("SELECT hash, data FROM shared_content").fetchall())


def size(text: str) -> int:
    return len(text.encode())


async def test_a_game_with_large_server_content_keeps_a_small_row(db_path: Path, clock: FakeClock) -> None:
    async with running(db_path, clock) as engine:
        table = await play(engine, await floor_game(engine, 1), 30)
    stored = columns(db_path, table.id)
    assert size(json.dumps(CONTENT)) > 500_000
    assert size(stored["options"]) + size(stored["state"]) + size(stored["meta"]) < ROW_BOUND
    assert set(json.loads(stored["options"])["content"]) == {SHARED}
    assert set(json.loads(stored["state"])["custom"]) == {SHARED}
    # One row for the options' content (the lobby's options in meta hold the same value) and one for the state's
    # canonical text of it.
    assert len(shared_rows(db_path)) == 2


async def test_two_games_with_the_same_content_store_it_once(db_path: Path, clock: FakeClock) -> None:
    async with running(db_path, clock) as engine:
        first, second = await floor_game(engine, 1), await floor_game(engine, 2)
        await play(engine, second, 5)
    rows = shared_rows(db_path)
    assert len(rows) == 2 and len(set(rows.values())) == 2
    assert sum(orjson.loads(data) == first.options["content"] for data in rows.values()) == 1
    assert sum(orjson.loads(data) == first.state.custom for data in rows.values()) == 1
    references = {json.loads(columns(db_path, t.id)["options"])["content"][SHARED] for t in (first, second)}
    assert len(references) == 1


def spy(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[int]]:
    """Bytes of content sent with each save, and how many values were serialized (to hash or to send)."""
    sent: list[int] = []
    serialized: list[int] = []
    save, canonical = engine.store.save_game, engine_module._canonical

    async def spied_save(row: Any, **kw: Any) -> Any:
        sent.append(sum(map(len, row.shared.values())))
        return await save(row, **kw)

    def spied_canonical(value: Any) -> str:
        serialized.append(1)
        return canonical(value)

    monkeypatch.setattr(engine.store, "save_game", spied_save)
    monkeypatch.setattr(engine_module, "_canonical", spied_canonical)
    return sent, serialized


async def test_the_content_is_hashed_and_sent_once_not_with_every_move(db_path: Path, clock: FakeClock,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    async with running(db_path, clock) as engine:
        table = await floor_game(engine, 1)
        sent, serialized = spy(engine, monkeypatch)
        await play(engine, table, 10)
        assert sent == [0] * 10 and serialized == []
    async with running(db_path, clock) as engine:  # after a restart: known from the load
        sent, serialized = spy(engine, monkeypatch)
        await play(engine, await engine.get(table.id), 3)
        assert sent == [0] * 3 and serialized == []


async def test_the_game_replays_from_its_log_and_survives_a_restart(db_path: Path, clock: FakeClock) -> None:
    async with running(db_path, clock) as engine:
        table = await play(engine, await floor_game(engine, 1), 20)
        log = [(a.seat, a.action) for a in await engine.store.actions(table.id)]
        assert replay(G, 2, table.options, table.seed, log) == table.state

    async with running(db_path, clock) as engine:  # a new engine on the same file: nothing in memory
        loaded = await engine.get(table.id)
        assert loaded.state == table.state and loaded.options == table.options and loaded.meta == table.meta
        assert replay(G, 2, loaded.options, loaded.seed, log) == loaded.state
        assert "Category 50" in await engine.record(table.id)  # the record's header carries the content, as before
        assert (await play(engine, loaded, 5)).moves == table.moves + 5


async def test_a_missing_shared_row_isolates_only_its_game(db_path: Path, clock: FakeClock) -> None:
    async with running(db_path, clock) as engine:
        broken = await floor_game(engine, 1)
        healthy = await floor_game(engine, 2, server_content(" (other)"))
        plain = await floor_game(engine, 3, None)
    gone = json.loads(columns(db_path, broken.id)["options"])["content"][SHARED]
    with sqlite3.connect(db_path) as db:
        db.execute("DELETE FROM shared_content WHERE hash = ?", (gone,))

    async with running(db_path, clock) as engine:
        with pytest.raises(DamagedGameError) as caught:
            await engine.get(broken.id)
        assert gone in caught.value.reason
        assert await engine.store.damaged_games() == {broken.id: engine.damaged[broken.id]}
        for table in (healthy, plain):
            assert (await play(engine, await engine.get(table.id), 3)).moves == 3
        assert [t.id for t in await engine.damaged_tables(1)] == [broken.id]


async def test_shared_content_that_does_not_decode_isolates_its_game(db_path: Path, clock: FakeClock) -> None:
    async with running(db_path, clock) as engine:
        table = await floor_game(engine, 1)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE shared_content SET data = substr(data, 1, 100)")
    async with running(db_path, clock) as engine:
        with pytest.raises(DamagedGameError):
            await engine.get(table.id)


async def test_an_old_row_with_inline_content_loads_and_is_converted_on_its_next_save(db_path: Path,
                                                                                    clock: FakeClock) -> None:
    async with running(db_path, clock) as engine:
        table = await play(engine, await floor_game(engine, 1), 3)
    with sqlite3.connect(db_path) as db:  # as a row was written before shared content existed
        db.execute("UPDATE games SET options = ?, state = ?, meta = ? WHERE id = ?",
                   (json.dumps(table.options), json.dumps(G.to_json(table.state)), json.dumps(table.meta), table.id))
        db.execute("DELETE FROM shared_content")
    assert size(columns(db_path, table.id)["state"]) > 500_000

    async with running(db_path, clock) as engine:
        loaded = await engine.get(table.id)
        assert loaded.state == table.state and loaded.options == table.options and loaded.meta == table.meta
        await play(engine, loaded, 1)
    stored = columns(db_path, table.id)
    assert size(stored["options"]) + size(stored["state"]) + size(stored["meta"]) < ROW_BOUND
    assert len(shared_rows(db_path)) == 2


async def test_games_without_shared_fields_are_stored_as_before(db_path: Path, clock: FakeClock) -> None:
    async with running(db_path, clock) as engine:
        table = await engine.open_lobby("flying_blades", guild_id=1, channel_id=1, host=SeatInfo(1, "A"),
                                        options={"cards": "none"})
        await engine.join(table.id, SeatInfo(2, "B"))
        table = await engine.start(table.id, 1)
    assert shared_rows(db_path) == {} and SHARED not in columns(db_path, table.id)["state"]
