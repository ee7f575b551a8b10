"""Time controls and escalating reminders (engine/clock.py): a time bank that keeps what was left plus a bonus,
capped; correspondence days; a reminder, a last warning and the timeout, each a deadline row of the turn."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine import Engine, SeatInfo, Table
from engine import clock as clk
from engine import policies as pol
from engine.policies import PlaySettingsError
from storage import Store

ALICE, BOB = 101, 102


async def started(engine: Engine, **options: object) -> Table:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"),
                                options={"pile": 60, **options})
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    return await engine.start(t.id, ALICE)


async def due(store: Store, table: Table, seat: int) -> datetime:
    rows = await store.deadlines_for(table.id)
    return next(d.due_at for d in rows if d.kind == "turn_timeout" and d.seat == seat)


async def test_a_time_bank_starts_full_and_keeps_what_was_left_plus_the_bonus(engine: Engine, clock,
                                                                              store: Store) -> None:
    t = await started(engine, bank_days=2, bonus_hours=12, cap_days=3)
    assert await due(store, t, 0) - clock.now == timedelta(days=2)
    clock.advance(days=1)
    await engine.act(t.id, ALICE, "take 1")  # 1 day left + 12 h
    assert clk.banks((await engine.get(t.id)).meta) == {0: timedelta(hours=36).total_seconds()}
    await engine.act(t.id, BOB, "take 1")  # Bob's first move: his full bank, spent at once, +12 h
    assert await due(store, t, 0) - clock.now == timedelta(hours=36)


async def test_a_time_bank_never_grows_above_its_cap(engine: Engine, clock, store: Store) -> None:
    t = await started(engine, bank_days=2, bonus_hours=36)
    clock.advance(minutes=1)
    await engine.act(t.id, ALICE, "take 1")
    await engine.act(t.id, BOB, "take 1")
    assert await due(store, t, 0) - clock.now == timedelta(days=2), "the cap is the starting bank"


async def test_a_timeout_empties_the_bank_but_the_bonus_is_still_added(engine: Engine, clock, store: Store) -> None:
    t = await started(engine, bank_days=1, bonus_hours=6)
    clock.advance(days=1)
    (notice,) = [n for n in await engine.run_due() if n.kind == "timeout"]
    assert notice.data["seat"] == 0
    await engine.act(t.id, BOB, "take 1")
    assert await due(store, t, 0) - clock.now == timedelta(hours=6)


async def test_the_bank_survives_a_restart(engine: Engine, clock, store: Store, games: dict) -> None:
    t = await started(engine, bank_days=2, bonus_hours=12)
    clock.advance(hours=6)
    await engine.act(t.id, ALICE, "take 1")
    again = Engine(store, games=games, now=clock)
    assert clk.banks((await again.get(t.id)).meta) == {0: timedelta(days=2).total_seconds()}


@pytest.mark.parametrize(("options", "key"), [
    ({"bonus_hours": 36}, "engine.options.bank_needed"),
    ({"bank_days": 10, "days": 3}, "engine.options.one_clock"),
    ({"bank_days": 10, "cap_days": 5}, "engine.options.cap_below_bank"),
    ({"bank_days": 0.5}, "engine.options.range"),
    ({"bank_days": 31}, "engine.options.range"),
])
def test_a_time_bank_that_cannot_work_is_refused(options: dict, key: str) -> None:
    from tests.nim import Nim

    with pytest.raises(PlaySettingsError) as err:
        pol.parse_settings(Nim(), options)
    assert err.value.msg.key == key


def test_the_last_warning_comes_a_tenth_before_the_end_between_a_minute_and_twelve_hours() -> None:
    assert clk.warning_before(timedelta(minutes=1)) is None
    assert clk.warning_before(timedelta(minutes=10)) == timedelta(minutes=1)
    assert clk.warning_before(timedelta(days=1)) == timedelta(hours=2, minutes=24)
    assert clk.warning_before(timedelta(days=14)) == timedelta(hours=12)


def test_a_turns_steps_are_a_reminder_a_last_warning_and_the_timeout_in_order() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    kinds = clk.steps(start, timedelta(days=3), 0.5)
    assert [k for k, _ in kinds] == ["turn_reminder", "turn_warning", "turn_timeout"]
    assert [when - start for _, when in kinds] == [timedelta(hours=36), timedelta(hours=64, minutes=48),
                                                  timedelta(days=3)]
    assert [k for k, _ in clk.steps(start, timedelta(seconds=90), 0.5)] == ["turn_reminder", "turn_timeout"]


@pytest.mark.parametrize(("preset", "days", "bank"), [
    ("3d", 3, (0, 0, 0)), ("14d", 14, (0, 0, 0)), ("bank", 0, (10, 36, 10)), ("bank-short", 0, (3, 24, 5)),
    ("live", 0, (0, 0, 0)),
])
def test_a_named_time_control_spells_out_its_clock(preset: str, days: int, bank: tuple[int, int, int]) -> None:
    from tests.nim import Nim

    s = pol.parse_settings(Nim(), {"time": preset.upper() if preset == "bank" else preset})
    assert (s.days, (s.bank_days, s.bonus_hours, s.cap_days)) == (days, bank)


def test_numbers_given_beside_a_named_time_control_adjust_it() -> None:
    from tests.nim import Nim

    s = pol.parse_settings(Nim(), {"time": "bank", "bonus_hours": 12})
    assert (s.bank_days, s.bonus_hours, s.cap_days) == (10, 12, 10)
    with pytest.raises(PlaySettingsError) as err:
        pol.parse_settings(Nim(), {"time": "3d", "bank_days": 5})
    assert err.value.msg.key == "engine.options.one_clock", "a preset and a second clock are still two clocks"


def test_an_unknown_time_control_names_the_choices() -> None:
    from tests.nim import Nim

    with pytest.raises(PlaySettingsError) as err:
        pol.parse_settings(Nim(), {"time": "4d"})
    assert err.value.msg.key == "engine.options.time"
    assert "3d" in err.value.msg.params["allowed"] and "bank" in err.value.msg.params["allowed"]


async def test_a_named_correspondence_clock_gives_the_seat_its_days(engine: Engine, clock, store: Store) -> None:
    t = await started(engine, time="5d")
    assert await due(store, t, 0) - clock.now == timedelta(days=5)


async def test_time_live_keeps_the_servers_default_days_away(engine: Engine) -> None:
    from engine import admin as adm

    await engine.set_guild_setting(9, "days", 3)
    chosen, _, _ = await adm.lobby_defaults(engine, 9, {"time": "live"})
    assert "days" not in chosen
    chosen, _, _ = await adm.lobby_defaults(engine, 9, {})
    assert chosen["days"] == 3
