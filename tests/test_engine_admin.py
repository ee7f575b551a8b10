"""Admin tools at the engine level (engine/admin.py), on the toy game: extend a turn's clock, pause and resume,
substitute a player, hand a seat to a bot, adjudicate; each refused on a finished game, logged with who did it,
kept over a restart; the abandoned-games sweep over a fake month; the server's defaults for new lobbies."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from engine import Engine, GameOverError, SeatInfo, Table, replay
from engine import admin as adm
from engine import policies as pol
from storage import Store
from tests.nim import Nim, NimState

ALICE, BOB, CAROL, DAVE, MOD = 101, 102, 103, 104, 999
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}
GUILD = 9


class ScoredNim(Nim):
    """Nim with standings: what each seat has taken so far (the view's ``scores``)."""

    def view(self, s: NimState, seat: int | None) -> dict[str, Any]:
        return {**super().view(s, seat), "scores": [60 - s.pile if i == s.last else 0 for i in range(s.players)]}


@pytest.fixture
def games() -> dict:
    return {"nim": Nim(), "scored": ScoredNim()}


async def started(engine: Engine, users: tuple[int, ...] = (ALICE, BOB), game: str = "nim", channel: int = 1,
                  **options: object) -> Table:
    t = await engine.open_lobby(game, guild_id=GUILD, channel_id=channel, host=SeatInfo(ALICE, "Alice"),
                                options={"pile": 60, "turn_minutes": 10, **options})
    for user in users[1:]:
        await engine.join(t.id, SeatInfo(user, NAMES[user]))
    return await engine.start(t.id, ALICE)


async def rows(store: Store, table: Table, kinds: tuple[str, ...] = ("turn_timeout",)) -> dict[tuple[str, Any], Any]:
    return {(d.kind, d.seat): d.due_at for d in await store.deadlines_for(table.id) if d.kind in kinds}


async def finished(engine: Engine) -> Table:
    t = await started(engine, pile=2)
    await engine.act(t.id, ALICE, "take 2")
    return await engine.get(t.id)


# --- each step -------------------------------------------------------------------------------------------


async def test_extend_pushes_this_turns_clock_back(engine: Engine, clock, store: Store) -> None:
    t = await started(engine)
    before = await rows(store, t, ("turn_timeout", "turn_reminder"))
    await adm.extend(engine, t.id, 5, by=MOD)
    after = await rows(store, t, ("turn_timeout", "turn_reminder"))
    assert {k: v - before[k] for k, v in after.items()} == {k: timedelta(hours=5) for k in before}
    clock.advance(minutes=11)
    assert [n.kind for n in await engine.run_due()] == [], "the old deadline no longer fires"
    assert adm.admin_log(await engine.get(t.id))[-1] | {"at": None} == {"op": "extend", "by": MOD, "at": None,
                                                                       "hours": 5}


async def test_extend_is_refused_without_a_running_clock(engine: Engine) -> None:
    t = await started(engine, turn_minutes=0)
    with pytest.raises(adm.AdminError) as err:
        await adm.extend(engine, t.id, 5, by=MOD)
    assert err.value.msg.key == "gameadmin.no_clock"


async def test_an_admin_pause_stops_the_clocks_and_a_players_move_does_not_end_it(engine: Engine, clock,
                                                                                 store: Store) -> None:
    t = await started(engine)
    clock.advance(minutes=4)  # six minutes left on Alice's clock
    paused = await adm.pause(engine, t.id, by=MOD)
    assert paused.meta[pol.PAUSED] == adm.ADMIN and await rows(store, t, ("turn_timeout", "turn_reminder")) == {}
    clock.advance(days=3)
    assert await engine.run_due() == []
    await engine.act(t.id, ALICE, "take 1")
    table = await engine.get(t.id)
    assert table.meta[pol.PAUSED] == adm.ADMIN and await rows(store, t) == {}, "still paused after a move"


async def test_resume_gives_back_what_was_left_of_the_clock(engine: Engine, clock, store: Store) -> None:
    t = await started(engine)
    clock.advance(minutes=4)
    await adm.pause(engine, t.id, by=MOD)
    clock.advance(hours=5)
    resumed = await adm.resume(engine, t.id, by=MOD)
    assert pol.PAUSED not in resumed.meta
    assert (await rows(store, t))[("turn_timeout", 0)] - clock.now == timedelta(minutes=6)
    assert [e["op"] for e in adm.admin_log(resumed)] == ["pause", "resume"]


async def test_resume_after_a_move_during_the_pause_gives_a_fresh_clock(engine: Engine, clock, store: Store) -> None:
    t = await started(engine)
    clock.advance(minutes=4)
    await adm.pause(engine, t.id, by=MOD)
    await engine.act(t.id, ALICE, "take 1")
    await adm.resume(engine, t.id, by=MOD)
    assert await rows(store, t) == {("turn_timeout", 1): clock.now + timedelta(minutes=10)}


async def test_resume_ends_an_everyone_away_pause_and_pause_twice_is_refused(engine: Engine, clock,
                                                                           store: Store) -> None:
    t = await started(engine)
    for _ in range(2):  # both miss: everyone is away
        clock.advance(minutes=11)
        await engine.run_due()
    assert (await engine.get(t.id)).meta[pol.PAUSED] is True
    await adm.pause(engine, t.id, by=MOD)  # an admin may take an everyone-away pause over
    with pytest.raises(adm.AdminError) as err:
        await adm.pause(engine, t.id, by=MOD)
    assert err.value.msg.key == "gameadmin.already_paused"
    await adm.resume(engine, t.id, by=MOD)
    assert ("turn_timeout", 0) in await rows(store, t)
    with pytest.raises(adm.AdminError) as err:
        await adm.resume(engine, t.id, by=MOD)
    assert err.value.msg.key == "gameadmin.not_paused"


async def test_a_substitute_takes_the_seat_with_a_fresh_clock_and_none_of_the_old_absence(engine: Engine, clock,
                                                                                         store: Store) -> None:
    t = await started(engine, (ALICE, BOB, CAROL), on_timeout="bot")
    clock.advance(minutes=11)
    await engine.run_due()  # Alice misses: a stand-in plays her
    assert (await engine.get(t.id)).standins() == {0}
    await engine.act(t.id, BOB, "take 1")
    table = await adm.substitute(engine, t.id, 0, SeatInfo(DAVE, "Dave"), by=MOD)
    assert table.seats[0] == SeatInfo(DAVE, "Dave") and table.seat_of(ALICE) is None
    assert table.standins() == frozenset() and pol.missed(table.meta) == {}
    assert table.host_id == DAVE, "the host's seat passes the host on"
    await engine.act(t.id, CAROL, "take 1")
    assert await rows(store, t) == {("turn_timeout", 0): clock.now + timedelta(minutes=10)}
    await engine.act(t.id, DAVE, "take 1")  # the newcomer plays the seat
    entry = adm.admin_log(await engine.get(t.id))[-1]
    assert (entry["op"], entry["by"], entry["seat"], entry["old"], entry["new"]) == ("substitute", MOD, 0, ALICE,
                                                                                     DAVE)


async def test_a_substitution_is_not_a_move_the_log_replays(engine: Engine, store: Store) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "take 2")
    await adm.substitute(engine, t.id, 1, SeatInfo(DAVE, "Dave"), by=MOD)
    await engine.act(t.id, DAVE, "take 3")
    actions = [(a.seat, a.action) for a in await store.actions(t.id)]
    assert actions == [(0, "take 2"), (1, "take 3")]
    assert replay(Nim(), 2, t.options, t.seed, actions).pile == 55


async def test_a_substitute_must_not_be_seated_already(engine: Engine) -> None:
    t = await started(engine, (ALICE, BOB, CAROL))
    with pytest.raises(adm.AdminError) as err:
        await adm.substitute(engine, t.id, 0, SeatInfo(BOB, "Bob"), by=MOD)
    assert err.value.msg.key == "gameadmin.already_seated"
    with pytest.raises(adm.AdminError) as err:
        await adm.substitute(engine, t.id, 5, SeatInfo(DAVE, "Dave"), by=MOD)
    assert err.value.msg.key == "gameadmin.no_seat"


async def test_a_seat_handed_to_a_bot_stays_a_bot_and_plays_at_once(engine: Engine, store: Store) -> None:
    t = await started(engine, (ALICE, BOB, CAROL))
    table = await adm.to_bot(engine, t.id, 0, by=MOD)
    assert table.seats[0] == SeatInfo(None, "Alice", True) and table.seat_of(ALICE) is None
    played = await engine.play_bots(t.id)
    assert [(r.seat, r.source) for r in played] == [(0, "bot")]
    assert (await engine.get(t.id)).humans_to_move() == [1]
    with pytest.raises(adm.AdminError) as err:
        await adm.to_bot(engine, t.id, 0, by=MOD)
    assert err.value.msg.key == "gameadmin.already_bot"


async def test_adjudicating_ends_the_game_without_a_winner_and_keeps_the_standings(engine: Engine) -> None:
    t = await started(engine, game="scored")
    await engine.act(t.id, ALICE, "take 3")
    closed = await adm.adjudicate(engine, t.id, by=MOD)
    assert closed.status == "aborted" and closed.outcome is None and closed.meta["closed"] == "adjudicated"
    assert closed.meta[adm.ADJUDICATED] == {"reason": "adjudicated", "by": MOD, "scores": [3.0, 0.0],
                                            "leaders": [0]}


async def test_adjudicating_a_game_without_standings_names_nobody(engine: Engine) -> None:
    t = await started(engine)
    closed = await adm.adjudicate(engine, t.id, by=MOD)
    assert closed.meta[adm.ADJUDICATED]["scores"] is None and closed.meta[adm.ADJUDICATED]["leaders"] == []


@pytest.mark.parametrize("step", ["extend", "pause", "resume", "substitute", "bot", "adjudicate"])
async def test_every_step_is_refused_on_a_finished_game(engine: Engine, step: str) -> None:
    t = await finished(engine)
    calls = {"extend": lambda: adm.extend(engine, t.id, 1, by=MOD), "pause": lambda: adm.pause(engine, t.id, by=MOD),
             "resume": lambda: adm.resume(engine, t.id, by=MOD),
             "substitute": lambda: adm.substitute(engine, t.id, 0, SeatInfo(DAVE, "Dave"), by=MOD),
             "bot": lambda: adm.to_bot(engine, t.id, 0, by=MOD),
             "adjudicate": lambda: adm.adjudicate(engine, t.id, by=MOD)}
    with pytest.raises(GameOverError) as err:
        await calls[step]()
    assert err.value.msg.key == "engine.not_running"


async def test_admin_steps_survive_a_restart(engine: Engine, clock, store: Store, games: dict) -> None:
    t = await started(engine, (ALICE, BOB, CAROL))
    await adm.substitute(engine, t.id, 1, SeatInfo(DAVE, "Dave"), by=MOD)
    await adm.to_bot(engine, t.id, 2, by=MOD)
    clock.advance(minutes=4)
    await adm.pause(engine, t.id, by=MOD)
    again = Engine(store, games=games, now=clock)
    table = await again.get(t.id)
    assert table.seats[1].user_id == DAVE and table.seats[2].bot and table.meta[pol.PAUSED] == adm.ADMIN
    assert [e["op"] for e in adm.admin_log(table)] == ["substitute", "bot", "pause"]
    await adm.resume(again, t.id, by=MOD)
    assert (await rows(store, t))[("turn_timeout", 0)] - clock.now == timedelta(minutes=6)


# --- abandoned games -------------------------------------------------------------------------------------


async def month(engine: Engine, clock, days: int = 31) -> list:
    notices = []
    for _ in range(days):
        clock.advance(days=1)
        notices += await engine.run_due()
    return notices


async def test_a_game_nobody_plays_for_the_servers_days_is_adjudicated_and_the_players_told(
        engine: Engine, clock, store: Store) -> None:
    t = await started(engine, turn_minutes=0)
    await engine.act(t.id, ALICE, "take 1")
    clock.advance(days=10)
    await engine.act(t.id, BOB, "take 1")  # the count starts again at the last human move
    notices = [n for n in await month(engine, clock, 29) if n.kind == "abandoned"]
    assert notices == [] and (await engine.get(t.id)).status == "active"
    (notice,) = [n for n in await month(engine, clock, 2) if n.kind == "abandoned"]
    assert notice.table.status == "aborted" and notice.table.meta["closed"] == "abandoned"
    assert notice.table.meta[adm.ADJUDICATED]["by"] is None and notice.data["days"] == 30
    assert await store.deadlines_for(t.id) == []


async def test_the_sweep_follows_the_servers_abandon_days_and_zero_turns_it_off(engine: Engine, clock) -> None:
    await engine.set_guild_setting(GUILD, "abandon_days", 7)
    t = await started(engine, turn_minutes=0)
    assert [n.table.id for n in await month(engine, clock, 8) if n.kind == "abandoned"] == [t.id]
    await engine.set_guild_setting(GUILD, "abandon_days", 0)
    t2 = await started(engine, turn_minutes=0, channel=2)
    assert await month(engine, clock) == [] and (await engine.get(t2.id)).status == "active"


async def test_arming_sweeps_covers_older_games_and_a_changed_setting(engine: Engine, clock, store: Store) -> None:
    await engine.set_guild_setting(GUILD, "abandon_days", 0)
    t = await started(engine, turn_minutes=0)
    assert await rows(store, t, (adm.ABANDON_CHECK,)) == {}
    await engine.set_guild_setting(GUILD, "abandon_days", 5)
    assert await adm.arm_sweeps(engine, GUILD) == 1
    assert await adm.arm_sweeps(engine, GUILD) == 0, "nothing to change the second time"
    assert [n.kind for n in await month(engine, clock, 6)] == ["abandoned"]


async def test_an_admin_pause_holds_the_sweep_off(engine: Engine, clock) -> None:
    t = await started(engine, turn_minutes=0)
    await adm.pause(engine, t.id, by=MOD)
    assert await month(engine, clock, 60) == [] and (await engine.get(t.id)).status == "active"
    await adm.resume(engine, t.id, by=MOD)
    assert [n.kind for n in await month(engine, clock)] == ["abandoned"]


async def test_the_sweep_survives_a_restart(engine: Engine, clock, store: Store, games: dict) -> None:
    t = await started(engine, turn_minutes=0)
    again = Engine(store, games=games, now=clock)
    assert [n.table.id for n in await month(again, clock) if n.kind == "abandoned"] == [t.id]


# --- the server's defaults for new lobbies ---------------------------------------------------------------


async def test_new_lobbies_use_the_servers_lifetime_and_correspondence_days(engine: Engine, clock,
                                                                            store: Store) -> None:
    await engine.set_guild_setting(GUILD, "lobby_minutes", 90)
    await engine.set_guild_setting(GUILD, "days", 3)
    lobby = await engine.open_lobby("nim", guild_id=GUILD, channel_id=1, host=SeatInfo(ALICE, "Alice"))
    assert lobby.meta[adm.LOBBY_MINUTES] == 90
    assert (await rows(store, lobby, ("lobby_expiry",)))[("lobby_expiry", None)] - clock.now == timedelta(minutes=90)
    assert pol.settings_of(lobby.meta).days == 3
    live = await engine.open_lobby("nim", guild_id=GUILD, channel_id=2, host=SeatInfo(BOB, "Bob"),
                                   options={"turn_minutes": 10})
    assert pol.settings_of(live.meta).days == 0, "a lobby that chose its own clock keeps it"


@pytest.mark.parametrize(("key", "value"), [("days", 4), ("abandon_days", -1), ("lobby_minutes", 0)])
def test_a_bad_server_default_is_refused(key: str, value: int) -> None:
    with pytest.raises(adm.AdminError):
        adm.check_default(key, value)
