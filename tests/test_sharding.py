"""Several bot processes sharing one database (issue 26, "Processes that share the database"): shard settings,
one slash-command syncer, each process firing only its guilds' deadlines and each deadline once, and a process's
cached game found stale when another process moved it. Two Engines on one database stand for two processes; the
PostgreSQL cases run when FLOORBOARD_TEST_PG_URL is set (tests/storage/backends.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord.ext import commands
from pydantic import ValidationError

from bot import Floorboard, make_bot
from config import Settings, load_settings
from engine import Engine, SeatInfo, StaleVersionError, Table
from storage import Shards, Store, open_store
from tests.conftest import FakeClock
from tests.nim import Nim
from tests.storage.backends import BACKENDS, fresh_database

ALICE, BOB = 101, 102
SHARD_0, SHARD_1 = 2 << 22, 3 << 22  # guilds Discord routes to shards 0 and 1 of 2: (guild_id >> 22) % 2


# --- settings and the bot ------------------------------------------------------------------------------------------

def test_shard_ids_are_read_as_ranges_and_lists_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "8")
    monkeypatch.setenv("SHARD_IDS", "0-2,6")
    assert Settings(_env_file=None).shard_list == (0, 1, 2, 6)  # type: ignore[call-arg]


@pytest.mark.parametrize(("given", "says"), [
    ({"shard_count": 4, "shard_ids": "2-5"}, "SHARD_IDS 4 is outside SHARD_COUNT=4"),
    ({"shard_ids": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"shard_count": 4, "shard_ids": "3-1"}, "from the lower number to the higher"),
    ({"shard_count": 4, "shard_ids": "one"}, "e.g. 0-3 or 0,2"),
    ({"shard_count": 0}, "shard_count"),
])
def test_a_shard_setting_that_cannot_be_held_is_refused_in_one_line(given: dict[str, Any], says: str) -> None:
    with pytest.raises(ValidationError, match=says):
        load_settings(_env_file=None, **given)


def test_the_empty_shard_settings_env_example_ships_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SHARD_COUNT", "SHARD_IDS", "SYNC_COMMANDS"):
        monkeypatch.setenv(name, "")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (settings.shard_count, settings.shard_ids, settings.sync_commands) == (None, None, None)


def test_unset_shards_leave_one_plain_bot_that_syncs_its_commands() -> None:
    settings = load_settings(_env_file=None)
    assert (settings.sharded, settings.shard_list, settings.syncs_commands) == (False, None, True)


@pytest.mark.parametrize(("ids", "held", "syncs"), [("0-1", [0, 1], True), ("2,3", [2, 3], False)])
async def test_a_sharded_process_is_an_auto_sharded_bot_holding_exactly_its_shards_and_only_shard_0s_syncs(
        ids: str, held: list[int], syncs: bool) -> None:
    """'Slash commands are synced by one process only.'"""
    async with make_bot(load_settings(_env_file=None, shard_count=4, shard_ids=ids)) as bot:  # as run() does
        assert isinstance(bot, commands.AutoShardedBot) and isinstance(bot, Floorboard)
        assert (bot.shard_count, bot.shard_ids) == (4, held)
        assert bot.sync_commands is syncs


async def test_sync_commands_set_overrides_the_shard_0_default() -> None:
    async with make_bot(load_settings(_env_file=None, shard_count=2, shard_ids="1", sync_commands="true")) as bot:
        assert bot.sync_commands is True


async def test_without_shard_settings_the_bot_is_not_auto_sharded() -> None:
    async with make_bot(load_settings(_env_file=None)) as bot:
        assert not isinstance(bot, commands.AutoShardedBot) and bot.sync_commands is True


# --- two processes on one database ----------------------------------------------------------------------------------

@pytest.fixture(params=BACKENDS)
async def url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    async with fresh_database(request.param, tmp_path) as u:
        yield u


@pytest.fixture
async def stores(url: str) -> AsyncIterator[tuple[Store, Store]]:
    a, b = await open_store(url), await open_store(url)
    yield a, b
    await a.close()
    await b.close()


def _engines(stores: tuple[Store, Store], clock: FakeClock, *shards: Shards | None) -> tuple[Engine, Engine]:
    games = {"nim": Nim()}
    a, b = (Engine(s, games=games, now=clock) for s in stores)
    for engine, held in zip((a, b), shards or (None, None), strict=True):
        engine.scheduler.shards = held
    return a, b


async def _started(engine: Engine, *, guild: int | None, channel: int, options: dict[str, Any] | None = None,
                   ) -> Table:
    t = await engine.open_lobby("nim", guild_id=guild, channel_id=channel, host=SeatInfo(ALICE, "Alice"),
                                options=options)
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    return await engine.start(t.id, ALICE)


async def _timer_actions(store: Store, table_id: int) -> list[tuple[int, int]]:
    return [(a.seq, a.seat) for a in await store.actions(table_id) if a.source == "timer"]


async def test_a_move_on_a_game_another_process_moved_is_refused_as_stale_once_then_played_on_the_new_version(
        stores: tuple[Store, Store], clock: FakeClock) -> None:
    """Issue 26: 'two processes acting on one game at once apply exactly one move per version; the other gets the
    stale-version refusal it gets today.' Here process B holds the game cached at the version before A's move."""
    a, b = _engines(stores, clock)
    t = await _started(a, guild=SHARD_0, channel=1)
    await b.get(t.id)  # B has it cached
    await a.act(t.id, ALICE, "take 1")  # A moves it on: B's cache is now stale
    with pytest.raises(StaleVersionError):  # Alice clicks her old message again; B's stale copy would take it
        await b.act(t.id, ALICE, "take 1", version=t.version)
    moved = await b.act(t.id, BOB, "take 1")  # B dropped its cache and reloaded: the move lands on A's
    assert moved.table.version == t.version + 2
    assert [(x.seq, x.seat) for x in await stores[0].actions(t.id)] == [(1, 0), (2, 1)], "nothing applied twice"


async def test_a_click_on_a_message_newer_than_the_cached_game_reloads_it_instead_of_refusing_forever(
        stores: tuple[Store, Store], clock: FakeClock) -> None:
    """The player clicks the message process A posted after its move (version v+1) and the interaction reaches
    process B, whose cache is at v: B reloads the game and plays the move, not 'this message is out of date'."""
    a, b = _engines(stores, clock)
    t = await _started(a, guild=SHARD_0, channel=1)
    await b.get(t.id)
    after_a = (await a.act(t.id, ALICE, "take 1")).table
    moved = await b.act(t.id, BOB, "take 1", version=after_a.version)
    assert moved.table.version == after_a.version + 1
    assert [(x.seq, x.seat) for x in await stores[1].actions(t.id)] == [(1, 0), (2, 1)]


async def test_each_process_fires_only_the_deadlines_of_guilds_on_its_shards(
        stores: tuple[Store, Store], clock: FakeClock) -> None:
    """Discord's routing, shard_id = (guild_id >> 22) % shard_count; a game without a guild is shard 0's."""
    low, high = _engines(stores, clock, Shards(2, (0,)), Shards(2, (1,)))
    on_0 = await _started(low, guild=SHARD_0, channel=1, options={"turn_minutes": 10})
    on_1 = await _started(low, guild=SHARD_1, channel=2, options={"turn_minutes": 10})
    terminal = await _started(low, guild=None, channel=3, options={"turn_minutes": 10})
    clock.advance(minutes=10)
    fired_high = {n.table.id for n in await high.run_due() if n.kind == "timeout"}
    fired_low = {n.table.id for n in await low.run_due() if n.kind == "timeout"}
    assert (fired_low, fired_high) == ({on_0.id, terminal.id}, {on_1.id})


async def test_two_processes_passing_at_once_fire_each_timeout_once(stores: tuple[Store, Store],
                                                                    clock: FakeClock) -> None:
    """'Every deadline fires exactly once in the cluster' — here two processes hold the same shard (a rolling
    restart overlaps), so both see every due row."""
    a, b = _engines(stores, clock)
    tables = [await _started(a, guild=SHARD_0, channel=n, options={"turn_minutes": 10}) for n in range(1, 7)]
    clock.advance(minutes=10)
    await asyncio.gather(a.run_due(), b.run_due())
    for t in tables:
        assert await _timer_actions(stores[0], t.id) == [(1, 0)], f"game {t.id}: one timeout, once"


async def test_a_killed_processs_claimed_deadlines_fire_after_its_lease_and_not_before(
        stores: tuple[Store, Store], clock: FakeClock) -> None:
    """'A process killed mid-claim leaves its claims to be taken by another after the lease.'"""
    a, b = _engines(stores, clock)
    t = await _started(a, guild=SHARD_0, channel=1, options={"turn_minutes": 10})
    clock.advance(minutes=10)
    claimed = await stores[0].claim_due_deadlines(clock(), a.scheduler.owner, a.scheduler.lease_seconds)
    assert claimed  # ... and A is killed before firing them
    assert [n for n in await b.run_due() if n.kind == "timeout"] == []
    clock.advance(seconds=a.scheduler.lease_seconds)
    assert [n.table.id for n in await b.run_due() if n.kind == "timeout"] == [t.id]
    assert await _timer_actions(stores[1], t.id) == [(1, 0)]
