"""The engine around the rules: lobbies, turns, versions, duplicates, races, deadlines, bots, records."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from engine import (
    ChannelBusyError,
    Engine,
    GameOverError,
    LobbyError,
    NotSeatedError,
    PermissionDeniedError,
    SeatInfo,
    StaleVersionError,
    Table,
    replay,
)
from rules.base import IllegalActionError, InvalidActionError, NotYourTurnError, OptionsError
from storage import SqliteStore as Store
from storage import StorageError

ALICE, BOB, CAROL = 101, 102, 103


async def started(engine: Engine, *, channel: int = 1, options: dict | None = None, bots: int = 0) -> Table:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=channel, host=SeatInfo(ALICE, "Alice"),
                                options=options)
    if not bots:
        await engine.join(t.id, SeatInfo(BOB, "Bob"))
    for _ in range(bots):
        await engine.add_bot(t.id, ALICE)
    return await engine.start(t.id, ALICE)


async def test_lobby_host_takes_seat_zero_and_others_join_in_order(engine: Engine) -> None:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"))
    t = await engine.join(t.id, SeatInfo(BOB, "Bob"))
    assert [s.name for s in t.seats] == ["Alice", "Bob"]
    assert t.seat_of(BOB) == 1 and t.status == "lobby" and t.state is None


async def test_a_lobby_opened_with_its_other_seats_is_stored_whole_in_one_write(engine: Engine, monkeypatch) -> None:
    """A rematch's bots (or a match's players) are seated as the lobby is stored: a restart right after finds
    them all, not the host alone. Too many seats, or a member twice, and nothing is stored."""
    async def no_second_write(*args: object, **kwargs: object) -> None:
        raise AssertionError("the lobby was written twice")

    monkeypatch.setattr(engine.book, "save", no_second_write)
    bots = [SeatInfo(None, "Bot 1", True), SeatInfo(None, "Bot 2", True)]
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"), others=bots)
    row, deadlines = await engine.store.load_table(t.id)  # what a restart reads
    assert row is not None and [(s["name"], s["bot"]) for s in row.seats] == [
        ("Alice", False), ("Bot 1", True), ("Bot 2", True)]
    assert [d.kind for d in deadlines] == ["lobby_expiry"]
    with pytest.raises(LobbyError) as err:
        await engine.open_lobby("nim", guild_id=9, channel_id=2, host=SeatInfo(BOB, "Bob"), others=[*bots, bots[0]])
    assert err.value.msg.key == "engine.lobby_full"
    with pytest.raises(LobbyError) as err:
        await engine.open_lobby("nim", guild_id=9, channel_id=2, host=SeatInfo(BOB, "Bob"),
                                others=[SeatInfo(BOB, "Bob")])
    assert err.value.msg.key == "engine.lobby_already_joined"
    assert await engine.table_in_channel(2) is None


async def test_lobby_refuses_double_join_full_table_and_unknown_options(engine: Engine) -> None:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"))
    with pytest.raises(LobbyError):
        await engine.join(t.id, SeatInfo(ALICE, "Alice"))
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    await engine.add_bot(t.id, BOB)
    with pytest.raises(LobbyError) as err:
        await engine.join(t.id, SeatInfo(CAROL, "Carol"))
    assert err.value.msg.key == "engine.lobby_full"
    with pytest.raises(OptionsError):
        await engine.open_lobby("nim", guild_id=9, channel_id=2, host=SeatInfo(ALICE, "A"), options={"x": 1})


async def test_only_the_host_starts_and_only_with_enough_players(engine: Engine) -> None:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"))
    with pytest.raises(LobbyError) as err:
        await engine.start(t.id, ALICE)
    assert err.value.msg.key == "engine.lobby_not_enough"
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    with pytest.raises(PermissionDeniedError):
        await engine.start(t.id, BOB)
    t = await engine.start(t.id, ALICE)
    assert t.status == "active" and t.state is not None
    with pytest.raises(LobbyError) as err:
        await engine.join(t.id, SeatInfo(CAROL, "Carol"))
    assert err.value.msg.key == "engine.lobby_not_open"


async def test_host_leaving_a_lobby_closes_it_and_a_player_leaving_frees_the_seat(engine: Engine) -> None:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"))
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    t = await engine.leave(t.id, BOB)
    assert len(t.seats) == 1
    t = await engine.leave(t.id, ALICE)
    assert t.status == "aborted"
    assert await engine.table_in_channel(1) is None


async def test_second_game_in_a_busy_channel_is_refused(engine: Engine) -> None:
    await started(engine)
    with pytest.raises(ChannelBusyError):
        await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(CAROL, "Carol"))
    other = await engine.open_lobby("nim", guild_id=9, channel_id=2, host=SeatInfo(CAROL, "Carol"))
    assert other.channel_id == 2
    assert {t.channel_id for t in await engine.active_tables(9)} == {1, 2}


async def test_a_finished_game_frees_its_channel(engine: Engine) -> None:
    t = await started(engine, options={"pile": 1})
    r = await engine.act(t.id, ALICE, "take 1")
    assert r.table.status == "finished" and r.outcome is not None and r.outcome.winners == (0,)
    again = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(BOB, "Bob"))
    assert again.status == "lobby"


async def test_wrong_turn_is_refused_and_changes_nothing(engine: Engine, store: Store) -> None:
    t = await started(engine)
    with pytest.raises(NotYourTurnError):
        await engine.act(t.id, BOB, "take 1")
    with pytest.raises(NotSeatedError):
        await engine.act(t.id, CAROL, "take 1")
    assert (await engine.get(t.id)).version == t.version
    assert await store.actions(t.id) == []


async def test_illegal_or_malformed_action_changes_nothing(engine: Engine, store: Store) -> None:
    t = await started(engine)
    with pytest.raises(IllegalActionError):
        await engine.act(t.id, ALICE, "take 4")
    with pytest.raises(InvalidActionError):
        await engine.act(t.id, ALICE, "grab 1")
    row = await store.load_game(t.id)
    assert row is not None and row.version == t.version and row.state == {"players": 2, "pile": 10, "turn": 0,
                                                                           "last": None, "resigned": []}


async def test_stale_version_is_refused(engine: Engine) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "take 1", version=t.version)
    with pytest.raises(StaleVersionError):
        await engine.act(t.id, BOB, "take 1", version=t.version)
    assert (await engine.get(t.id)).moves == 1


async def test_the_same_interaction_delivered_twice_is_applied_once(engine: Engine, store: Store) -> None:
    t = await started(engine)
    first = await engine.act(t.id, ALICE, "take 2", version=t.version, interaction_id=555)
    second = await engine.act(t.id, ALICE, "take 2", version=t.version, interaction_id=555)
    assert not first.duplicate and second.duplicate
    assert second.action == "take 2" and second.table.version == first.table.version
    assert [a.action for a in await store.actions(t.id)] == ["take 2"]


async def test_two_moves_racing_on_one_game_apply_exactly_one(engine: Engine, store: Store) -> None:
    t = await started(engine)
    results = await asyncio.gather(
        engine.act(t.id, ALICE, "take 1", version=t.version, interaction_id=1),
        engine.act(t.id, ALICE, "take 3", version=t.version, interaction_id=2),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, Exception)]
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(ok) == 1 and len(errors) == 1
    assert isinstance(errors[0], StaleVersionError | NotYourTurnError)
    assert len(await store.actions(t.id)) == 1


async def test_two_engines_on_one_database_cannot_both_write_the_same_version(db_path, clock, games) -> None:
    a_store, b_store = await Store.open(db_path), await Store.open(db_path)
    try:
        a = Engine(a_store, games=games, now=clock)
        b = Engine(b_store, games=games, now=clock)
        t = await started(a)
        await b.get(t.id)  # b caches version 1
        await a.act(t.id, ALICE, "take 1")
        with pytest.raises(StaleVersionError):
            await b.act(t.id, ALICE, "take 1")  # b's stale snapshot must not overwrite a's move
        fresh = await b.get(t.id)
        assert fresh.moves == 1
    finally:
        await a_store.close()
        await b_store.close()


async def test_resign_ends_a_two_player_game_for_the_other(engine: Engine) -> None:
    t = await started(engine)
    r = await engine.resign(t.id, BOB)
    assert r.outcome is not None and r.outcome.winners == (0,) and r.table.status == "finished"
    with pytest.raises(GameOverError):
        await engine.act(t.id, ALICE, "take 1")


async def test_abort_is_for_the_host_or_an_admin(engine: Engine) -> None:
    t = await started(engine)
    with pytest.raises(PermissionDeniedError):
        await engine.abort(t.id, BOB)
    t = await engine.abort(t.id, BOB, is_admin=True)
    assert t.status == "aborted"
    with pytest.raises(GameOverError):
        await engine.abort(t.id, ALICE)


async def test_bots_move_until_a_human_is_to_move(engine: Engine) -> None:
    t = await started(engine, bots=1)
    await engine.act(t.id, ALICE, "take 1")
    results = await engine.play_bots(t.id)
    assert [r.seat for r in results] == [1] and results[0].source == "bot"
    assert (await engine.get(t.id)).to_move() == frozenset({0})


async def test_lobby_expires_at_its_deadline(engine: Engine, clock) -> None:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"))
    clock.advance(minutes=29)
    assert await engine.run_due() == []
    clock.advance(minutes=2)
    notices = await engine.run_due()
    assert [n.kind for n in notices] == ["lobby_expired"]
    assert (await engine.get(t.id)).status == "aborted"


async def test_turn_timer_reminds_warns_then_applies_the_default_action(engine: Engine, clock, store: Store) -> None:
    t = await started(engine, options={"turn_minutes": 10})
    seen = []

    async def listener(notice):
        seen.append(notice.kind)

    engine.add_listener(listener)
    clock.advance(minutes=5)
    assert [n.data["seats"] for n in await engine.run_due()] == [[0]]
    clock.advance(minutes=4)  # the last warning: a tenth of the time left (at least a minute)
    (warning,) = await engine.run_due()
    assert warning.kind == "warning" and warning.data["due"] == clock.now + timedelta(minutes=1)
    clock.advance(minutes=1)
    (timeout,) = await engine.run_due()
    assert timeout.kind == "timeout" and timeout.data["result"].action == "take 1"
    assert seen == ["reminder", "warning", "timeout"]
    (row,) = await store.actions(t.id)
    assert row.source == "timer" and row.seat == 0
    # Bob is now on the clock, with a fresh timer of his own.
    assert {(d.kind, d.seat) for d in await store.deadlines_for(t.id) if d.kind != "abandon_check"} == {
        ("turn_reminder", 1), ("turn_warning", 1), ("turn_timeout", 1)}


async def test_a_timeout_whose_write_fails_is_kept_and_applied_at_the_next_pass(
        engine: Engine, clock, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Absence is still recorded when the database fails at the moment the timeout is applied: the row is not
    dropped with the failed write (it was, as if the deadline could not be applied), so the next pass applies it."""
    t = await started(engine, options={"turn_minutes": 10})
    real_save = store.save_game

    async def fails_once(*args, **kwargs):
        monkeypatch.setattr(store, "save_game", real_save)
        raise StorageError("the database went away for a moment")

    clock.advance(minutes=10)
    monkeypatch.setattr(store, "save_game", fails_once)
    assert "timeout" not in [n.kind for n in await engine.run_due()]
    assert [n.kind for n in await engine.run_due()] == ["timeout"]
    (row,) = await store.actions(t.id)
    assert row.source == "timer" and row.seat == 0


async def test_a_move_in_time_cancels_the_timer(engine: Engine, clock, store: Store) -> None:
    t = await started(engine, options={"turn_minutes": 10})
    clock.advance(minutes=9)
    await engine.act(t.id, ALICE, "take 1")
    clock.advance(minutes=2)
    assert [n.kind for n in await engine.run_due()] == []
    assert (await engine.get(t.id)).moves == 1


async def test_deadlines_fire_after_a_restart(db_path, clock, games) -> None:
    s1 = await Store.open(db_path)
    e1 = Engine(s1, games=games, now=clock)
    t = await started(e1, options={"turn_minutes": 10})
    await s1.close()  # the bot goes down with Alice's timer running
    clock.advance(hours=3)
    s2 = await Store.open(db_path)
    try:
        e2 = Engine(s2, games=games, now=clock)
        kinds = [n.kind for n in await e2.run_due()]
        assert "timeout" in kinds
        assert (await e2.get(t.id)).moves == 1
    finally:
        await s2.close()


async def test_scheduler_task_fires_due_deadlines_by_itself(engine: Engine, clock) -> None:
    engine.tick_seconds = 0.01
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"))
    fired = asyncio.Event()

    async def listener(notice):
        fired.set()

    engine.add_listener(listener)
    await engine.start_scheduler()
    clock.advance(hours=1)
    await asyncio.wait_for(fired.wait(), timeout=5)
    assert (await engine.get(t.id)).status == "aborted"


async def test_record_has_a_header_and_one_action_a_line(engine: Engine) -> None:
    t = await started(engine, options={"pile": 3})
    await engine.act(t.id, ALICE, "take   2")
    await engine.act(t.id, BOB, "take 1")
    text = await engine.record(t.id)
    head, _, body = text.partition("\n\n")
    assert '[Game "nim"]' in head and '[Seat1 "Bob"]' in head and '[Winners "1"]' in head
    assert body.splitlines() == ["0 take 2", "1 take 1"]


async def test_every_stored_game_rebuilds_from_its_action_log(engine: Engine, store: Store, games) -> None:
    for channel in range(1, 4):
        t = await started(engine, channel=channel, options={"pile": 7 + channel})
        for _ in range(channel):
            await engine.act(t.id, ALICE, "take 1")
            await engine.act(t.id, BOB, "take 2")
    for game_id in await store.game_ids():
        row = await store.load_game(game_id)
        assert row is not None and row.state is not None
        rules = games[row.game]
        log = [(a.seat, a.action) for a in await store.actions(game_id)]
        rebuilt = replay(rules, len(row.seats), row.options, row.seed, log)
        assert rules.to_json(rebuilt) == row.state


async def test_lobby_actions_shown_on_an_old_lobby_are_refused(engine: Engine) -> None:
    t = await engine.open_lobby("nim", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"))
    shown = t.version
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    with pytest.raises(StaleVersionError):
        await engine.start(t.id, ALICE, version=shown)  # the host saw the lobby before Bob sat down
    with pytest.raises(StaleVersionError):
        await engine.add_bot(t.id, ALICE, version=shown)
    started_table = await engine.start(t.id, ALICE, version=(await engine.get(t.id)).version)
    assert started_table.status == "active"


async def test_surface_bookkeeping_does_not_make_buttons_stale(engine: Engine) -> None:
    t = await started(engine)
    t2 = await engine.set_meta(t.id, status_message_id=12345)
    assert t2.version == t.version and t2.meta["status_message_id"] == 12345
    await engine.act(t.id, ALICE, "take 1", version=t.version)  # a button drawn before set_meta still works


async def test_the_log_keeps_the_canonical_spelling_of_a_move(engine: Engine, store: Store) -> None:
    t = await started(engine)
    result = await engine.act(t.id, ALICE, "  TAKE   2 ")
    assert result.action == "take 2"
    assert [a.action for a in await store.actions(t.id)] == ["take 2"]


async def test_an_action_timer_applies_its_action_when_due(engine: Engine, clock, store: Store) -> None:
    t = await started(engine)
    assert await engine.arm_timer(t.id, version=t.version, seat=0, action="take 2",
                                  due_at=clock.now + timedelta(seconds=30))
    clock.advance(seconds=29)
    assert await engine.run_due() == []
    clock.advance(seconds=1)
    (notice,) = await engine.run_due()
    assert notice.kind == "timeout" and notice.data["result"].action == "take 2"
    (row,) = await store.actions(t.id)
    assert row.source == "timer" and row.action == "take 2"


async def test_a_move_drops_the_action_timer_armed_before_it(engine: Engine, clock, store: Store) -> None:
    t = await started(engine)
    await engine.arm_timer(t.id, version=t.version, seat=0, action="take 2", due_at=clock.now + timedelta(seconds=5))
    await engine.act(t.id, ALICE, "take 1")
    assert [d for d in await store.deadlines_for(t.id) if d.kind == "action_timer"] == []
    clock.advance(seconds=10)
    assert await engine.run_due() == []
    assert (await engine.get(t.id)).moves == 1


async def test_an_action_timer_for_an_old_version_is_not_armed_and_rearming_replaces(engine: Engine, clock,
                                                                                     store: Store) -> None:
    t = await started(engine)
    assert not await engine.arm_timer(t.id, version=t.version + 1, seat=0, action="take 1", due_at=clock.now)
    await engine.arm_timer(t.id, version=t.version, seat=0, action="take 1", due_at=clock.now + timedelta(seconds=9))
    await engine.arm_timer(t.id, version=t.version, seat=0, action="take 2", due_at=clock.now + timedelta(seconds=3))
    (row,) = [d for d in await store.deadlines_for(t.id) if d.kind == "action_timer"]
    assert row.data["action"] == "take 2" and await engine.timer_due(t.id) == clock.now + timedelta(seconds=3)
    assert (await engine.get(t.id)).version == t.version  # arming is bookkeeping: buttons stay valid
