"""A new game gets the rules' new-game defaults; a stored game replays with the defaults it was made under."""

from __future__ import annotations

import pytest

from engine import Engine, SeatInfo
from engine.core import new_game_options
from rules import GAMES
from storage import Store


@pytest.fixture
async def engine(store: Store, clock) -> Engine:
    e = Engine(store, games=GAMES, now=clock)
    yield e


def bots(n: int) -> list[SeatInfo]:
    return [SeatInfo(user_id=None, name=f"Bot {i + 1}", bot=True) for i in range(n)]


@pytest.mark.parametrize(("players", "asked"), [(1, "on"), (3, "off")])
async def test_a_new_floating_world_table_decides_the_nightmare_and_a_solo_player_not(
        engine: Engine, players: int, asked: str) -> None:
    table = await engine.open_table("floating_world", guild_id=None, channel_id=1, seats=bots(players))
    assert table.options["auto_nightmare"] == asked


async def test_a_new_floating_floors_game_gets_the_tension_bands(engine: Engine) -> None:
    table = await engine.open_table("floating_floors", guild_id=None, channel_id=1, seats=bots(2))
    assert table.options["tension"] == "bands"
    kept = await engine.open_table("floating_floors", guild_id=None, channel_id=2, seats=bots(2),
                                   options={"tension": "exact"})
    assert kept.options["tension"] == "exact"


@pytest.mark.parametrize(("game", "key", "then"), [("floating_world", "auto_nightmare", "on"),
                                                   ("floating_floors", "tension", "exact")])
def test_options_stored_before_a_new_option_replay_as_they_were_played(game: str, key: str, then: str) -> None:
    """Undo and records call ``rules.new`` with the stored options; without the key, the old behaviour."""
    rules = GAMES[game]
    stored = {k: v for k, v in rules.normalize_options(2, new_game_options(rules, {})).items() if k != key}
    assert rules.normalize_options(2, stored)[key] == then
