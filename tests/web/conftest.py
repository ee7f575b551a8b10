"""The web site's fixtures: a seeded tournament simulated into a temporary SQLite file (its server opted in, as
`tournament simulate --db` keeps it), served read-only by aiohttp's test server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from engine.simulate import simulate
from rules import GAMES
from storage import ActionRow, GameRow, Store, open_read_only, open_store
from web import make_app
from web.guard import Buckets

GUILD = 1
NOW = datetime(2026, 11, 27, 12, tzinfo=UTC)


@pytest.fixture(scope="session")
def simulated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An 8-player single elimination of flying_blades kept in a database (7 games, a bracket)."""
    import asyncio

    path = tmp_path_factory.mktemp("web") / "web.sqlite3"
    asyncio.run(simulate(game="flying_blades", fmt="single-elimination", players=8, table_size=2, seed="web",
                         database=path, web_guild=GUILD))
    return path


@pytest.fixture
def db_copy(simulated_db: Path, tmp_path: Path) -> Path:
    """A test's own copy (a test may add rows or turn the server's pages off)."""
    target = tmp_path / "web.sqlite3"
    target.write_bytes(simulated_db.read_bytes())
    return target


async def client_for(path: Path, buckets: Buckets | None = None) -> tuple[TestClient[Any, Any], Store]:
    store = await open_read_only(f"sqlite:///{path}")
    client = TestClient(TestServer(make_app(store, buckets)))
    await client.start_server()
    return client, store


@pytest.fixture
async def client(db_copy: Path) -> AsyncIterator[TestClient[Any, Any]]:
    c, store = await client_for(db_copy)
    yield c
    await c.close()
    await store.close()


async def writer(path: Path) -> Store:
    return await open_store(f"sqlite:///{path}")


async def running_game(store: Store, game: str, moves: int, seed: str = "hidden-seed-7f3a",
                       players: int | None = None) -> tuple[int, Any]:
    """A game of ``game`` in the opted-in server, ``moves`` bot moves in, still running: its id and state."""
    rules = GAMES[game]
    players = players or max(2, rules.min_players)
    state = rules.new(players, {}, seed)
    row = GameRow(id=0, game=game, guild_id=GUILD, channel_id=900 + len(game), host_id=11, status="active",
                  options={}, seed=seed, seats=[{"user_id": 11 + i, "name": f"Human {i}", "bot": False}
                                                 for i in range(players)],
                  version=0, moves=0, state=rules.to_json(state), meta={}, outcome=None, created_at=NOW,
                  updated_at=NOW)
    row = replace(row, id=await store.insert_game(row))
    for seq in range(1, moves + 1):
        movers = sorted(rules.to_move(state))
        if not movers:
            break
        seat = movers[0]
        action = rules.bot_action(state, seat)
        state, _ = rules.apply(state, seat, action)
        new = replace(row, version=row.version + 1, moves=seq, state=rules.to_json(state))
        await store.save_game(new, expect_version=row.version,
                              action=ActionRow(row.id, seq, seat, action, "bot", None, None, NOW))
        row = new
    return row.id, state
