"""Absence is not a move: a missed turn is logged as the rules' timeout, then the table's timeout policy (skip, a
stand-in bot, a forfeit after K misses in a row) decides what more happens; a game whose humans are all away
pauses instead of ending; correspondence days set the clock. Engine-level, on the toy game (its timeout: take 1)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine import LOBBY_OPTIONS, Engine, PermissionDeniedError, SeatInfo, Table
from engine import policies as pol
from engine.policies import PlaySettingsError
from storage import Store

ALICE, BOB, CAROL = 101, 102, 103
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


async def started(engine: Engine, users: tuple[int, ...] = (ALICE, BOB), **options: object) -> Table:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"),
                                options={"pile": 60, "turn_minutes": 10, **options})
    for user in users[1:]:
        await engine.join(t.id, SeatInfo(user, NAMES[user]))
    return await engine.start(t.id, ALICE)


async def miss(engine: Engine, clock, table: Table) -> list:
    """Let the clock of whoever is to move run out."""
    clock.advance(minutes=11)
    return [n for n in await engine.run_due() if n.kind == "timeout"]


async def log(store: Store, table: Table) -> list[tuple[int, str, str]]:
    return [(a.seat, a.action, a.source) for a in await store.actions(table.id)]


async def test_a_missed_turn_is_logged_as_the_rules_timeout_by_the_timer(engine: Engine, clock, store: Store) -> None:
    t = await started(engine)
    (notice,) = await miss(engine, clock, t)
    assert notice.data["policy"] == "skip" and notice.data["seat"] == 0
    assert await log(store, t) == [(0, "take 1", "timer")]
    assert pol.missed((await engine.get(t.id)).meta) == {0: 1}


async def test_a_player_cannot_play_the_clocks_verb(engine: Engine) -> None:
    t = await started(engine)
    with pytest.raises(PermissionDeniedError) as err:
        await engine.act(t.id, ALICE, "timeout")
    assert err.value.msg.key == "engine.timer_only"


async def test_skip_goes_on_without_the_absent_player_and_a_move_of_theirs_brings_them_back(
        engine: Engine, clock, store: Store) -> None:
    t = await started(engine, (ALICE, BOB, CAROL))
    await miss(engine, clock, t)  # Alice misses
    await engine.act(t.id, BOB, "take 2")
    await engine.act(t.id, CAROL, "take 3")
    (notice,) = await miss(engine, clock, t)  # Alice misses again: two in a row
    assert notice.data["policy"] == "skip" and pol.missed(notice.table.meta) == {0: 2}
    await engine.act(t.id, BOB, "take 1")
    await engine.act(t.id, CAROL, "take 1")
    await engine.act(t.id, ALICE, "take 2")  # she is back
    assert pol.missed((await engine.get(t.id)).meta) == {}


async def test_forfeit_resigns_the_seat_at_its_kth_missed_turn_in_a_row(engine: Engine, clock, store: Store) -> None:
    t = await started(engine, (ALICE, BOB, CAROL), on_timeout="forfeit", forfeit_after=2)
    await miss(engine, clock, t)
    await engine.act(t.id, BOB, "take 2")
    await engine.act(t.id, CAROL, "take 3")
    (notice,) = await miss(engine, clock, t)
    assert notice.data["policy"] == "forfeit"
    assert [(r.seat, r.action, r.source) for r in notice.results()] == [(0, "take 1", "timer"), (0, "resign", "timer")]
    table = await engine.get(t.id)
    assert table.meta[pol.LEFT] == [0] and table.status == "finished"  # (a resignation ends a game of Nim)
    assert (await log(store, t))[-2:] == [(0, "take 1", "timer"), (0, "resign", "timer")]


async def test_a_forfeit_counts_missed_turns_in_a_row_only(engine: Engine, clock) -> None:
    t = await started(engine, (ALICE, BOB, CAROL), on_timeout="forfeit", forfeit_after=2)
    await miss(engine, clock, t)
    await engine.act(t.id, BOB, "take 1")
    await engine.act(t.id, CAROL, "take 1")
    await engine.act(t.id, ALICE, "take 1")  # back in time: the count starts again
    await engine.act(t.id, BOB, "take 1")
    await engine.act(t.id, CAROL, "take 1")
    (notice,) = await miss(engine, clock, t)
    assert notice.data["policy"] == "skip" and pol.missed(notice.table.meta) == {0: 1}


async def test_a_bot_stands_in_for_an_absent_player_until_they_come_back(engine: Engine, clock, store: Store) -> None:
    t = await started(engine, (ALICE, BOB, CAROL), on_timeout="bot")
    (notice,) = await miss(engine, clock, t)
    assert notice.data["policy"] == "standin" and notice.table.standins() == {0}
    await engine.act(t.id, BOB, "take 1")
    await engine.act(t.id, CAROL, "take 1")
    played = await engine.play_bots(t.id)  # Alice's seat is the bot's now: no clock waits for her
    assert [(r.seat, r.source) for r in played] == [(0, "bot")]
    assert (await engine.get(t.id)).humans_to_move() == [1]
    await engine.come_back(t.id, ALICE)
    table = await engine.get(t.id)
    assert table.standins() == frozenset() and pol.missed(table.meta) == {}


async def test_a_refused_move_of_an_absent_player_still_brings_them_back(engine: Engine, clock) -> None:
    t = await started(engine, (ALICE, BOB, CAROL), on_timeout="bot")
    await miss(engine, clock, t)
    with pytest.raises(Exception):  # noqa: B017 (not her turn: refused by the rules)
        await engine.act(t.id, ALICE, "take 1")
    assert (await engine.get(t.id)).standins() == frozenset()


async def test_a_game_whose_players_are_all_away_pauses_instead_of_ending(engine: Engine, clock, store: Store) -> None:
    t = await started(engine, on_timeout="bot")
    await miss(engine, clock, t)  # Alice: a stand-in plays her
    (notice,) = await miss(engine, clock, t)  # Bob too: everyone is away
    assert notice.data["policy"] == "pause"
    table = await engine.get(t.id)
    assert table.meta[pol.PAUSED] and table.status == "active" and table.standins() == frozenset()
    assert [d.kind for d in await store.deadlines_for(t.id)] == ["abandon_check"], "no clock runs while all away"
    assert await engine.play_bots(t.id) == [], "and no stand-in plays the game to its end"
    clock.advance(days=29)  # (at 30 days without a move the sweep closes it as abandoned: engine/admin.py)
    assert await engine.run_due() == []
    await engine.act(t.id, ALICE, "take 1")  # one of them is back: the clocks run again
    table = await engine.get(t.id)
    assert not table.meta.get(pol.PAUSED)
    assert {(d.kind, d.seat) for d in await store.deadlines_for(t.id) if d.kind != "abandon_check"} == {
        ("turn_reminder", 1), ("turn_warning", 1), ("turn_timeout", 1)}


async def test_everyone_away_under_forfeit_pauses_rather_than_awarding_the_game(engine: Engine, clock) -> None:
    t = await started(engine, on_timeout="forfeit", forfeit_after=1)
    (notice,) = await miss(engine, clock, t)  # Alice forfeits at once: Bob wins, a normal result of a forfeit
    assert notice.data["policy"] == "forfeit" and notice.table.status == "finished"
    t2 = await engine.open_lobby("nim", guild_id=9, channel_id=2, host=SeatInfo(ALICE, "Alice"),
                                 options={"pile": 60, "turn_minutes": 10, "on_timeout": "forfeit",
                                          "forfeit_after": 2})
    await engine.join(t2.id, SeatInfo(BOB, "Bob"))
    await engine.join(t2.id, SeatInfo(CAROL, "Carol"))
    t2 = await engine.start(t2.id, ALICE)
    for _ in range(3):  # Alice, Bob, Carol each miss once: all away before anyone reaches two
        await miss(engine, clock, t2)
    table = await engine.get(t2.id)
    assert table.meta[pol.PAUSED] and table.status == "active" and pol.LEFT not in table.meta


async def test_correspondence_days_set_the_turn_clock(engine: Engine, clock, store: Store) -> None:
    t = await started(engine, days=3)
    due = {d.kind: d.due_at for d in await store.deadlines_for(t.id)}
    assert due["turn_timeout"] - clock.now == timedelta(days=3)
    clock.advance(days=1, hours=12)
    assert [n.kind for n in await engine.run_due()] == ["reminder"]
    clock.advance(days=1, hours=4, minutes=48)  # a tenth of three days before the end
    assert [n.kind for n in await engine.run_due()] == ["warning"]
    clock.advance(hours=7, minutes=12)
    assert [n.kind for n in await engine.run_due()] == ["timeout"]


@pytest.mark.parametrize(("options", "key"), [
    ({"on_timeout": "nap"}, "engine.options.on_timeout"),
    ({"forfeit_after": 0}, "engine.options.forfeit_after"),
    ({"forfeit_after": "many"}, "engine.options.forfeit_after"),
    ({"days": 4}, "engine.options.days"),
    ({"days": True}, "engine.options.days"),
])
async def test_a_bad_play_setting_is_refused_when_the_lobby_opens(engine: Engine, options: dict, key: str) -> None:
    with pytest.raises(PlaySettingsError) as err:
        await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"), options=options)
    assert err.value.msg.key == key


async def test_play_settings_are_kept_for_a_rematch_and_the_server_default_applies(engine: Engine) -> None:
    t = await started(engine, on_timeout="forfeit", days="7")
    assert pol.settings_of(t.meta) == pol.PlaySettings("forfeit", 3, 7)
    assert t.options == {"pile": 60, "turn_minutes": 10}, "the rules never see the table's play settings"
    assert t.meta[LOBBY_OPTIONS] == {"pile": 60, "turn_minutes": 10, "on_timeout": "forfeit", "days": "7"}
    await engine.set_guild_setting(9, "on_timeout", "bot")
    t2 = await engine.open_lobby("nim", guild_id=9, channel_id=2, host=SeatInfo(BOB, "Bob"))
    assert pol.settings_of(t2.meta).on_timeout == "bot"


async def test_missed_turns_and_stand_ins_survive_a_restart(engine: Engine, clock, store: Store, games: dict) -> None:
    t = await started(engine, (ALICE, BOB, CAROL), on_timeout="bot")
    await miss(engine, clock, t)
    again = Engine(store, games=games, now=clock)
    table = await again.get(t.id)
    assert table.standins() == {0} and pol.missed(table.meta) == {0: 1}
