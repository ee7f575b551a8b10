"""The engine's queue (engine/matchmaking.py): entries through the store, matched lobbies with a ready check, the
no-show's partners re-queued, challenges answered once and expired."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine import GameNotFoundError, LobbyError, NotSeatedError, PermissionDeniedError, SeatInfo, Table
from engine.matchmaking import BOT_WAIT_SETTING, QUEUE_META, READY_CHECK, QueueError, row_from_json
from storage import ChallengeRow, StorageError
from tests.nim import Nim

GUILD, CHANNEL, THREAD = 10, 20, 30


class Killed(Exception):
    """The bot process stops here (what follows in it never runs)."""


class OtherNim(Nim):
    """A second game to queue for: a member may wait for several at once."""

    id = "other_nim"


@pytest.fixture
def games() -> dict:
    return {"nim": Nim(), "other_nim": OtherNim()}


def member(n: int) -> SeatInfo:
    return SeatInfo(n, f"P{n}")


async def test_a_member_matched_for_one_game_leaves_their_other_queue_entries(engine) -> None:  # type: ignore[no-untyped-def]
    """One seat at a time: matched for nim, member 1 no longer waits for other_nim, so member 3 joining it later
    does not open a second lobby with them."""
    mm = engine.matchmaking
    await mm.join(GUILD, CHANNEL, member(1), "other_nim")
    await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim")
    (match,) = await mm.matches(GUILD)
    assert match.game == "nim" and [r.user_id for r in match.rows] == [1, 2]
    assert await mm.waiting(GUILD) == []  # held for the match
    await mm.open_match(match, THREAD)
    assert await engine.store.queue_entries(GUILD) == []  # taken with the lobby
    await mm.join(GUILD, CHANNEL, member(3), "other_nim")
    assert await mm.matches(GUILD) == []
    assert [r.user_id for r in await mm.waiting(GUILD)] == [3]


async def test_a_member_whose_matched_table_waits_for_ready_is_not_matched_again(engine) -> None:  # type: ignore[no-untyped-def]
    """Queueing again during the ready check waits: no second lobby until the first starts or closes."""
    mm = engine.matchmaking
    await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim")
    table = await mm.open_match((await mm.matches(GUILD))[0], THREAD)
    await mm.join(GUILD, CHANNEL, member(1), "other_nim")
    await mm.join(GUILD, CHANNEL, member(3), "other_nim")
    assert await mm.matches(GUILD) == []
    await mm.ready(table.id, 1)
    await mm.ready(table.id, 2)  # started: member 1 may be matched again (several games may run at once)
    (match,) = await mm.matches(GUILD)
    assert [r.user_id for r in match.rows] == [1, 3]


async def test_a_match_that_cannot_open_leaves_every_entry_waiting_as_it_was(engine) -> None:  # type: ignore[no-untyped-def]
    """Matching writes nothing: released (its thread could not be made), its entries wait again with their first
    join time and are matched on the next pass."""
    mm = engine.matchmaking
    first = await mm.join(GUILD, CHANNEL, member(1), "other_nim")
    await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim")
    (match,) = await mm.matches(GUILD)
    assert len(await engine.store.queue_entries(GUILD)) == 3  # what a restart now would find: all of them
    assert await mm.matches(GUILD) == []  # held: not matched twice
    mm.release(match)
    back = {(r.user_id, r.game): r.joined_at for r in await mm.waiting(GUILD)}
    assert back.keys() == {(1, "nim"), (2, "nim"), (1, "other_nim")}
    assert back[(1, "other_nim")] == first.joined_at
    (again,) = await mm.matches(GUILD)
    assert again == match


async def test_a_match_one_of_whose_members_left_opens_no_lobby_and_the_others_keep_waiting(engine) -> None:  # type: ignore[no-untyped-def]
    mm = engine.matchmaking
    await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "other_nim")
    (match,) = await mm.matches(GUILD)
    assert await mm.leave(GUILD, 1, "nim") == 1  # pressed Leave while the thread was being made
    assert await mm.open_match(match, THREAD) is None
    assert await engine.table_in_channel(THREAD) is None
    assert {(r.user_id, r.game) for r in await mm.waiting(GUILD)} == {(2, "nim"), (2, "other_nim")}


async def test_a_no_shows_ready_partner_is_requeued_for_their_other_games_too(engine, clock) -> None:  # type: ignore[no-untyped-def]
    mm = engine.matchmaking
    await mm.join(GUILD, CHANNEL, member(1), "other_nim")
    await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim")
    table = await mm.open_match((await mm.matches(GUILD))[0], THREAD)
    await mm.ready(table.id, 1)
    clock.advance(seconds=mm.ready_seconds + 1)
    await engine.run_due()
    assert {(r.user_id, r.game) for r in await mm.waiting(GUILD)} == {(1, "nim"), (1, "other_nim")}


async def test_rejoining_the_queue_updates_the_entry_and_keeps_the_place(engine, clock) -> None:  # type: ignore[no-untyped-def]
    mm = engine.matchmaking
    first = await mm.join(GUILD, CHANNEL, member(1), "nim")
    clock.advance(minutes=3)
    again = await mm.join(GUILD, CHANNEL, member(1), "nim", players=3, bots_ok=True)
    assert (again.players, again.bots_ok, again.joined_at) == (3, True, first.joined_at)
    assert len(await mm.waiting(GUILD)) == 1


async def test_a_matched_lobby_saved_before_other_entries_were_kept_expires_as_before(engine, clock) -> None:  # type: ignore[no-untyped-def]
    """A ready check saved without "others" (before this change) loads: its ready members go back, nothing else."""
    mm = engine.matchmaking
    await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim")
    table = await mm.open_match((await mm.matches(GUILD))[0], THREAD)
    old = {k: v for k, v in table.meta[QUEUE_META].items() if k != "others"}
    await engine.set_meta(table.id, **{QUEUE_META: {**old, "ready": [1]}})
    clock.advance(seconds=mm.ready_seconds + 1)
    await engine.run_due()
    assert [(r.user_id, r.game) for r in await mm.waiting(GUILD)] == [(1, "nim")]


@pytest.mark.parametrize(("game", "players", "time", "key"), [
    ("chess", None, None, "queue.unknown_game"), ("nim", 4, None, "queue.bad_players"),
    ("nim", 1, None, "queue.bad_players"), ("nim", 2, "blitz", "queue.bad_time")])
async def test_a_bad_queue_request_is_refused_and_changes_nothing(engine, game, players, time, key) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises((QueueError, GameNotFoundError)) as caught:
        await engine.matchmaking.join(GUILD, CHANNEL, member(1), game, players=players, time=time)
    assert caught.value.msg.key == key
    assert await engine.matchmaking.waiting(GUILD) == []


async def test_a_match_opens_a_lobby_that_starts_when_everyone_is_ready(engine) -> None:  # type: ignore[no-untyped-def]
    mm = engine.matchmaking
    await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim", time="3d")
    (match,) = await mm.matches(GUILD)
    assert await mm.waiting(GUILD) == [] and match.time == "3d"
    table = await mm.open_match(match, THREAD)
    assert [s.user_id for s in table.seats] == [1, 2] and table.status == "lobby"
    assert [d.kind for d in engine.book.deadlines_of(table.id)] == [READY_CHECK]
    with pytest.raises(NotSeatedError):
        await mm.ready(table.id, 3)
    table, started = await mm.ready(table.id, 1)
    assert not started and (await mm.ready(table.id, 1))[1] is False  # a double click changes nothing
    table, started = await mm.ready(table.id, 2)
    assert started and table.status == "active"
    assert READY_CHECK not in [d.kind for d in engine.book.deadlines_of(table.id)]
    with pytest.raises(LobbyError):
        await mm.ready(table.id, 2)


async def test_a_matched_lobby_is_stored_whole_with_its_ready_check_in_one_write(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Seats, the queue's record and the ready check go in with the lobby: a restart right after it opened finds
    the match waiting for Ready, not its first member alone under the ordinary lobby expiry."""
    mm = engine.matchmaking
    await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim")
    (match,) = await mm.matches(GUILD)

    async def no_second_write(*args: object, **kwargs: object) -> None:
        raise AssertionError("the lobby was written twice")

    monkeypatch.setattr(engine.book, "save", no_second_write)
    table = await mm.open_match(match, THREAD)
    row, deadlines = await engine.store.load_table(table.id)  # what a restart reads
    assert [s["user_id"] for s in row.seats] == [1, 2]
    assert [e["user_id"] for e in row.meta[QUEUE_META]["entries"]] == [1, 2]
    assert [d.kind for d in deadlines] == [READY_CHECK]


async def test_no_shows_are_dropped_and_the_ready_players_requeued_with_their_first_join_time(
        engine, clock) -> None:  # type: ignore[no-untyped-def]
    mm = engine.matchmaking
    first = await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim")
    (match,) = await mm.matches(GUILD)
    table = await mm.open_match(match, THREAD)
    await mm.ready(table.id, 1)
    clock.advance(seconds=mm.ready_seconds + 1)
    (notice,) = await engine.run_due()
    assert notice.kind == "queue_no_show" and notice.data == {"dropped": [2], "requeued": [1]}
    assert (await engine.get(table.id)).status == "aborted"
    (back,) = await mm.waiting(GUILD)
    assert (back.user_id, back.joined_at) == (1, first.joined_at)


async def test_a_ready_check_interrupted_before_its_lobby_closed_requeues_the_ready_member_once(
        engine, clock, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The ready member goes back before the lobby closes: a failure (or a restart) between the two leaves the
    check due, and firing it again closes the lobby with one entry back, its first join time kept."""
    mm = engine.matchmaking
    first = await mm.join(GUILD, CHANNEL, member(1), "nim")
    await mm.join(GUILD, CHANNEL, member(2), "nim")
    table = await mm.open_match((await mm.matches(GUILD))[0], THREAD)
    await mm.ready(table.id, 1)
    clock.advance(seconds=mm.ready_seconds + 1)
    close = engine.book.close

    async def database_gone(*args: object, **kwargs: object) -> None:
        raise StorageError("the disk went away")

    monkeypatch.setattr(engine.book, "close", database_gone)
    assert await engine.run_due() == []
    assert (await engine.get(table.id)).status == "lobby"
    assert [(r.user_id, r.joined_at) for r in await mm.waiting(GUILD)] == [(1, first.joined_at)]
    monkeypatch.setattr(engine.book, "close", close)
    clock.advance(seconds=engine.scheduler.lease_seconds + 1)
    (notice,) = await engine.run_due()
    assert notice.kind == "queue_no_show" and (await engine.get(table.id)).status == "aborted"
    assert [(r.user_id, r.joined_at) for r in await mm.waiting(GUILD)] == [(1, first.joined_at)]


async def test_bots_fill_a_bots_ok_entry_after_the_servers_wait(engine, clock) -> None:  # type: ignore[no-untyped-def]
    mm = engine.matchmaking
    await engine.set_guild_setting(GUILD, BOT_WAIT_SETTING, 2)
    await mm.join(GUILD, CHANNEL, member(1), "nim", players=3, bots_ok=True)
    assert await mm.matches(GUILD) == []
    clock.advance(minutes=2)
    (match,) = await mm.matches(GUILD)
    table = await mm.open_match(match, THREAD)
    assert [s.bot for s in table.seats] == [False, True, True]
    _, started = await mm.ready(table.id, 1)
    assert started


async def test_a_challenge_is_answered_once_and_only_by_the_challenged_member(engine) -> None:  # type: ignore[no-untyped-def]
    mm = engine.matchmaking
    with pytest.raises(QueueError):
        await mm.challenge(GUILD, CHANNEL, 1, 1, "nim", {})
    row = await mm.challenge(GUILD, CHANNEL, 1, 2, "nim", {})
    with pytest.raises(QueueError):  # one open challenge per challenged member
        await mm.challenge(GUILD, CHANNEL, 3, 2, "nim", {})
    with pytest.raises(PermissionDeniedError):
        await mm.answer(row.id, 1, True)
    assert (await mm.answer(row.id, 2, True)).status == "accepted"
    with pytest.raises(QueueError):
        await mm.answer(row.id, 2, False)


async def test_an_accept_is_saved_only_with_the_game_it_opened(engine) -> None:  # type: ignore[no-untyped-def]
    """The game and the Accept are one write: a game that fails to open leaves the challenge open; an Accept that
    loses a race (here: the expiry's compare-and-set first) stores no game; and a restart right after the game was
    stored finds the challenge accepted with it (a second Accept could not open another)."""
    mm = engine.matchmaking
    row = await mm.challenge(GUILD, CHANNEL, 1, 2, "nim", {})

    async def failing(_: object) -> object:
        raise LobbyError("lobby.not_found")

    with pytest.raises(LobbyError):
        await mm.accept(row.id, 2, failing)
    assert (await mm.get_challenge(row.id)).status == "open"

    async def open_game(r: ChallengeRow) -> Table:
        return await engine.open_table("nim", guild_id=GUILD, channel_id=THREAD, seats=[member(1), member(2)],
                                       challenge=r.id)

    async def killed_once_stored(r: ChallengeRow) -> Table:
        await open_game(r)
        raise Killed("the bot was killed")

    with pytest.raises(Killed):
        await mm.accept(row.id, 2, killed_once_stored)
    stored = await engine.store.load_challenge(row.id)  # what a restart reads
    game = await engine.table_in_channel(THREAD)
    assert stored.status == "accepted" and game is not None and stored.game_id == game.id
    with pytest.raises(QueueError):
        await mm.accept(row.id, 2, open_game)  # the Accept pressed again after the restart

    late = await mm.challenge(GUILD, CHANNEL, 1, 2, "nim", {})

    async def expired_then_open(r: ChallengeRow) -> Table:
        await engine.store.answer_challenge(r.id, "expired")  # the sweep got there first
        return await open_game(r)

    await engine.abort(game.id, 1, is_admin=True)
    with pytest.raises(QueueError):
        await mm.accept(late.id, 2, expired_then_open)
    assert await engine.table_in_channel(THREAD) is None, "no game stored for an Accept that lost"
    assert (await mm.get_challenge(late.id)).status == "expired"


async def test_a_challenge_expires_and_cannot_be_accepted_afterwards(engine, clock) -> None:  # type: ignore[no-untyped-def]
    mm = engine.matchmaking
    row = await mm.challenge(GUILD, CHANNEL, 1, 2, "nim", {})
    assert await mm.expire_due() == []
    clock.advance(minutes=mm.challenge_minutes, seconds=1)
    assert [c.id for c in await mm.expire_due()] == [row.id]
    with pytest.raises(QueueError):
        await mm.answer(row.id, 2, True)
    assert (await mm.get_challenge(row.id)).status == "expired"
    assert timedelta(minutes=mm.challenge_minutes) == row.expires_at - row.created_at


def test_a_matched_lobbys_entry_saved_with_fewer_keys_loads_with_defaults() -> None:
    """A lobby's stored entries (meta ``queue``) written without the optional keys still re-queue."""
    row = row_from_json({"guild_id": GUILD, "user_id": 1, "game": "nim", "players": 2, "channel_id": CHANNEL,
                         "name": "P1", "joined_at": "2026-01-01T12:00:00+00:00"})
    assert (row.time, row.rating, row.bots_ok) == ("", 1500.0, False)


async def test_ready_on_an_ordinary_lobby_is_refused(engine) -> None:  # type: ignore[no-untyped-def]
    table = await engine.open_lobby("nim", guild_id=GUILD, channel_id=CHANNEL, host=member(1))
    with pytest.raises(LobbyError):
        await engine.matchmaking.ready(table.id, 1)
