"""Reading one game's running tables loads that game's rows only (issue 25: the bot's start, and its memory)."""

from __future__ import annotations

from typing import Any

from engine import Engine, SeatInfo
from engine import admin as adm
from engine.simulate import FakeClock
from rules import GAMES
from storage import SqliteStore as Store
from tests.nim import Nim

ALICE, BOB = 101, 102


async def _started(engine: Engine, game: str, channel: int) -> int:
    t = await engine.open_lobby(game, guild_id=9, channel_id=channel, host=SeatInfo(ALICE, "Alice"))
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    return (await engine.start(t.id, ALICE)).id


def _counting_loads(store: Store) -> list[int]:
    """The ids of the games the engine loads from ``store`` from now on (`TableBook.get` reads `load_table`)."""
    loaded: list[int] = []
    load_table = store.load_table

    async def counted(game_id: int) -> Any:
        loaded.append(game_id)
        return await load_table(game_id)

    store.load_table = counted  # type: ignore[method-assign]
    return loaded


async def test_running_tables_of_one_game_loads_only_that_games_rows(store: Store, clock: FakeClock) -> None:
    """The Floor's start asks for its own running games: the others are neither returned nor loaded (each game
    loaded stays cached in the table book until it ends, so loading every game to filter them cost every game's
    memory)."""
    games: dict[str, Any] = {"nim": Nim(), "flying_blades": GAMES["flying_blades"]}
    writer = Engine(store, games=games, now=clock)
    nims = [await _started(writer, "nim", channel) for channel in (1, 2, 3)]
    blades = await _started(writer, "flying_blades", 4)
    loaded = _counting_loads(store)
    reader = Engine(store, games=games, now=clock)  # a fresh start: nothing cached yet
    assert [t.id for t in await reader.running_tables("flying_blades")] == [blades]
    assert loaded == [blades]
    assert [t.id for t in await reader.running_tables("nim")] == nims
    assert sorted(reader.book.cache) == sorted([blades, *nims])


async def test_the_starts_sweep_check_loads_no_game_whose_sweep_row_is_current(store: Store, clock: FakeClock) -> None:
    """At start every running game gets the abandonment sweep the server asks for; a game whose stored row already
    is that is checked from its row and deadlines, not loaded (a loaded game stays cached until it ends)."""
    games: dict[str, Any] = {"nim": Nim()}
    writer = Engine(store, games=games, now=clock)
    await writer.set_guild_setting(9, "abandon_days", 5)
    ids = [await _started(writer, "nim", channel) for channel in (1, 2)]
    await adm.arm_sweeps(writer)
    loaded = _counting_loads(store)
    reader = Engine(store, games=games, now=clock)
    assert await adm.arm_sweeps(reader) == 0
    assert loaded == [] and reader.book.cache == {}
    await reader.set_guild_setting(9, "abandon_days", 7)
    assert await adm.arm_sweeps(reader) == 2  # a changed setting: each game is loaded and its row re-armed
    assert sorted(loaded) == ids
