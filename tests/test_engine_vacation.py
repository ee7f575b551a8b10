"""Vacations (engine/vacation.py): a player's clocks pause in every game of a server, at least 24 hours, within the
server's yearly allowance; what was left of a running clock comes back when the vacation ends (on its own, or
early with /back), and a turn that began meanwhile gets a fresh clock then. Nobody plays for the absent seat."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine import Engine, SeatInfo, Table
from engine import vacation as vac
from storage import StorageError, Store

ALICE, BOB = 101, 102
GUILD = 9


async def started(engine: Engine, channel: int = 1) -> Table:
    t = await engine.open_lobby("nim", guild_id=GUILD, channel_id=channel, host=SeatInfo(ALICE, "Alice"),
                                options={"pile": 60, "days": 3})
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    return await engine.start(t.id, ALICE)


async def clocks(engine: Engine, table: Table) -> dict:
    return engine.clocks(await engine.get(table.id))


async def test_a_vacation_pauses_a_running_clock_and_gives_back_what_was_left(engine: Engine, clock) -> None:
    t = await started(engine)
    clock.advance(days=1)
    until, tables = await vac.go_away(engine, ALICE, GUILD, timedelta(days=2))
    assert [x.id for x in tables] == [t.id] and until == clock.now + timedelta(days=2)
    assert await clocks(engine, t) == {}, "her clock does not run while she is away"
    clock.advance(days=10)  # a clock that ran would have timed out long ago
    notices = await engine.run_due()
    assert [n.kind for n in notices] == ["vacation_over"], "nobody played for her"
    assert await clocks(engine, t) == {0: clock.now + timedelta(days=2)}


async def test_a_turn_that_begins_during_a_vacation_gets_its_clock_when_it_ends(engine: Engine, clock) -> None:
    t = await started(engine)
    await vac.go_away(engine, BOB, GUILD, timedelta(days=1))
    await engine.act(t.id, ALICE, "take 1")  # Bob's turn starts while he is away: no clock for him
    assert await clocks(engine, t) == {}
    clock.advance(days=1, minutes=1)
    await engine.run_due()
    assert await clocks(engine, t) == {1: clock.now + timedelta(days=3)}


async def test_back_ends_a_vacation_early_in_every_game_of_the_server(engine: Engine, clock) -> None:
    first, second = await started(engine, 1), await started(engine, 2)
    await engine.act(second.id, ALICE, "take 1")  # in the second game it is Bob's turn
    await vac.go_away(engine, ALICE, GUILD, timedelta(days=5))
    clock.advance(hours=30)
    back = await vac.come_back(engine, ALICE, GUILD)
    assert sorted(x.id for x in back) == [first.id, second.id]
    assert await clocks(engine, first) == {0: clock.now + timedelta(days=3)}
    assert (await clocks(engine, second)).keys() == {1}
    with pytest.raises(vac.VacationError) as err:
        await vac.come_back(engine, ALICE, GUILD)
    assert err.value.msg.key == "away.not_away"


async def test_a_vacation_is_at_least_a_day_and_one_at_a_time(engine: Engine) -> None:
    await started(engine)
    with pytest.raises(vac.VacationError) as err:
        await vac.go_away(engine, ALICE, GUILD, timedelta(hours=23))
    assert err.value.msg.key == "away.too_short"
    await vac.go_away(engine, ALICE, GUILD, timedelta(days=1))
    with pytest.raises(vac.VacationError) as err:
        await vac.go_away(engine, ALICE, GUILD, timedelta(days=1))
    assert err.value.msg.key == "away.already"


async def test_vacations_stay_within_the_servers_yearly_allowance(engine: Engine, clock) -> None:
    await started(engine)
    await engine.set_guild_setting(GUILD, "vacation_days", 5)
    await vac.go_away(engine, ALICE, GUILD, timedelta(days=3))
    clock.advance(days=3, minutes=1)
    await engine.run_due()
    with pytest.raises(vac.VacationError) as err:
        await vac.go_away(engine, ALICE, GUILD, timedelta(days=3))
    assert err.value.msg.key == "away.over_allowance" and err.value.msg.params["left"] == 2
    await vac.go_away(engine, ALICE, GUILD, timedelta(days=2))
    clock.advance(days=370)  # a year after both, the allowance is whole again
    await engine.run_due()
    await vac.go_away(engine, ALICE, GUILD, timedelta(days=5))


async def test_a_vacation_ends_on_time_after_a_restart(engine: Engine, clock, store: Store, games: dict) -> None:
    t = await started(engine)
    await vac.go_away(engine, ALICE, GUILD, timedelta(days=2))
    again = Engine(store, games=games, now=clock)
    clock.advance(days=2, minutes=1)
    assert [n.kind for n in await again.run_due()] == ["vacation_over"]
    assert (await clocks(again, t)).keys() == {0}


async def test_a_game_that_starts_during_a_vacation_starts_with_the_seat_paused(engine: Engine, clock) -> None:
    await vac.go_away(engine, BOB, GUILD, timedelta(days=2))
    t = await engine.open_lobby("nim", guild_id=GUILD, channel_id=5, host=SeatInfo(BOB, "Bob"),
                                options={"pile": 60, "days": 3})
    await engine.join(t.id, SeatInfo(ALICE, "Alice"))
    t = await engine.start(t.id, BOB)
    assert await clocks(engine, t) == {}, "Bob moves first, and his clock waits for his return"
    clock.advance(days=2, minutes=1)
    assert [n.kind for n in await engine.run_due()] == ["vacation_over"]
    assert (await clocks(engine, t)).keys() == {0}


async def test_a_vacations_end_cut_off_before_its_write_fires_again_and_ends_the_vacation(
        engine: Engine, clock, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The row of a vacation's end goes in the write that restarts the clock: a process that dies (here: the
    write fails) after taking the row and before that write leaves it to fire again, so the vacation still ends."""
    t = await started(engine)
    await vac.go_away(engine, ALICE, GUILD, timedelta(days=2))
    real_save = store.save_game

    async def fails_once(*args, **kwargs):
        monkeypatch.setattr(store, "save_game", real_save)
        raise StorageError("the process died here")

    monkeypatch.setattr(store, "save_game", fails_once)
    clock.advance(days=2, minutes=1)
    assert await engine.run_due() == []
    assert [n.kind for n in await engine.run_due()] == ["vacation_over"], "the row was still there"
    assert (await clocks(engine, t)).keys() == {0}
