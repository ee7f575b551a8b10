"""A Floor Plan bot seat thinks off the event loop (issue 25): its planner runs for milliseconds per seat and a
100-player round has many bot seats, so the engine's bot path hands `bot_action` to a worker thread and the loop
(and Discord's heartbeat) stays free."""

from __future__ import annotations

import threading

import pytest

from engine import Engine, SeatInfo
from rules import GAMES
from rules.floor_plan import FloorPlan
from storage import Store


@pytest.fixture
async def engine(store: Store, clock) -> Engine:
    yield Engine(store, games=GAMES, now=clock)


async def test_bot_seats_choose_their_actions_off_the_event_loop(engine: Engine,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    loop_thread = threading.get_ident()
    threads: list[int] = []
    choose = FloorPlan.bot_action

    def spy(self: FloorPlan, s: object, seat: int) -> str:
        threads.append(threading.get_ident())
        return choose(self, s, seat)

    monkeypatch.setattr(FloorPlan, "bot_action", spy)
    seats = [SeatInfo(user_id=None, name=f"Bot {i + 1}", bot=True) for i in range(1)]
    table = await engine.open_table("floor_plan", guild_id=None, channel_id=1, seats=seats)
    await engine.play_bots(table.id)
    assert len(threads) >= 2  # the setup and a round at least
    assert loop_thread not in threads
