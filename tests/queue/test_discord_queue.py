"""/queue and /challenge through the real discord.py paths (tests/discord_harness.py): queue → matched thread →
Ready → the game starts; no-shows dropped and the rest re-queued; challenges accepted, declined, expired; the queue
and its buttons survive a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from discord.ext.test import backend as back

from engine.matchmaking import BOT_WAIT_SETTING
from tests.cogs.conftest import ErrorLog
from tests.conftest import FakeClock
from tests.discord_harness import (
    CHANNELS,
    GUILD_ID,
    USERS,
    Harness,
    Sent,
    command_data,
    forged_message,
    table_of,
)


async def queue(h: Harness, user: str, **options: Any) -> list[Sent]:
    return await h.feed(h.interaction_payload(2, command_data(h, "queue", "join", **options), user,
                                              h.channel(None)))


async def leave(h: Harness, user: str, **options: Any) -> list[Sent]:
    return await h.feed(h.interaction_payload(2, command_data(h, "queue", "leave", **options), user,
                                              h.channel(None)))


async def challenge(h: Harness, user: str, member: str, **options: Any) -> list[Sent]:
    return await h.feed(h.interaction_payload(2, command_data(h, "challenge", member=member, **options), user,
                                              h.channel(None)))


def ready_message(h: Harness) -> Sent:
    return h.with_button("queue:ready:")


async def test_two_queued_players_get_a_thread_with_ready_and_the_game_starts_when_both_press_it(
        harness: Harness) -> None:
    out = await queue(harness, "alice", game="flying_blades")
    assert out[-1].ephemeral and "queue" in out[-1].text
    assert harness.threads == []
    await queue(harness, "bob", game="flying_blades")
    ready = ready_message(harness)
    thread = harness.bot.get_channel(ready.channel_id)
    assert thread.parent_id == CHANNELS["general"]
    assert set(ready.pinged) == {USERS["alice"], USERS["bob"]}
    table = await table_of(harness, thread.id)
    assert table.status == "lobby" and [s.user_id for s in table.seats] == [USERS["alice"], USERS["bob"]]
    refused = await harness.click(ready, "Ready", "carol")
    assert refused[-1].ephemeral and "other players" in refused[-1].text
    await harness.click(ready, "Ready", "alice")
    assert (await table_of(harness, thread.id)).status == "lobby"
    await harness.click(ready, "Ready", "bob")
    assert (await table_of(harness, thread.id)).status == "active"
    assert harness.images([s for s in harness.sent if s.channel_id == thread.id])  # the first board is posted
    assert await harness.bot.engine.matchmaking.waiting(GUILD_ID) == []


async def test_a_bad_queue_request_gets_a_short_reply_and_queues_nothing(harness: Harness) -> None:
    for options, expected in (({"game": "chess"}, "no game called chess"),
                              ({"game": "flying_blades", "players": 9}, "2 to 5 players"),
                              ({"game": "flying_blades", "time": "blitz"}, "not a time control"),
                              ({"game": "flying_blades", "bots": "maybe"}, "bots takes only ok")):
        out = await queue(harness, "alice", **options)
        assert out[-1].ephemeral and expected in out[-1].text, out[-1].text
    assert await harness.bot.engine.matchmaking.waiting(GUILD_ID) == []
    out = await leave(harness, "alice")
    assert out[-1].ephemeral and "not waiting" in out[-1].text


async def test_the_queue_status_message_is_edited_not_reposted_after_a_burst(harness: Harness) -> None:
    await queue(harness, "alice", game="flying_blades", players=3)
    await queue(harness, "bob", game="flying_floors")
    await harness.pass_time(seconds=5)
    (status,) = [s for s in harness.public() if s.embeds and s.embeds[0].get("title") == "Queue"]
    assert "Night of the 27 Ninja" in status.text and "1 waiting" in status.text
    await leave(harness, "alice")
    await leave(harness, "bob")
    edits = await harness.pass_time(seconds=5)
    assert [e.message_id for e in edits] == [status.message_id]  # one edit for the two leaves
    assert "Nobody is waiting" in harness.current(status).text
    assert len([s for s in harness.public() if s.embeds and s.embeds[0].get("title") == "Queue"]) == 1


async def test_a_match_whose_member_left_while_its_thread_was_made_opens_nothing_and_the_other_keeps_waiting(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    cog = harness.bot.get_cog("Queue")
    made = cog.new_thread
    deleted: list[int] = []

    async def alice_leaves_meanwhile(channel: Any, name: str) -> Any:
        thread = await made(channel, name)
        await harness.bot.engine.matchmaking.leave(GUILD_ID, USERS["alice"])
        return thread

    async def delete_channel(http: Any, channel_id: int, *, reason: str | None = None) -> None:
        deleted.append(int(channel_id))

    monkeypatch.setattr(cog, "new_thread", alice_leaves_meanwhile)
    monkeypatch.setattr(back.FakeHttp, "delete_channel", delete_channel)
    await queue(harness, "alice", game="flying_blades")
    await queue(harness, "bob", game="flying_blades")
    with pytest.raises(AssertionError):
        harness.with_button("queue:ready:")  # nobody was pinged to a table
    assert deleted == [int(harness.threads[-1]["id"])]
    assert await harness.bot.engine.table_in_channel(deleted[0]) is None
    waiting = await harness.bot.engine.matchmaking.waiting(GUILD_ID)
    assert [r.user_id for r in waiting] == [USERS["bob"]]


async def test_no_shows_are_dropped_and_the_ready_player_is_requeued_keeping_the_join_time(
        harness: Harness, clock: FakeClock) -> None:
    mm = harness.bot.engine.matchmaking
    await queue(harness, "alice", game="flying_blades")
    (first,) = await mm.waiting(GUILD_ID)
    await queue(harness, "bob", game="flying_blades")
    ready = ready_message(harness)
    await harness.click(ready, "Ready", "alice")
    stale = harness.snapshot(ready)  # a client that still shows the button
    clock.advance(seconds=mm.ready_seconds + 1)
    await harness.bot.engine.run_due()
    await harness.settle()
    table = await harness.bot.engine.last_closed_table_in_channel(ready.channel_id)
    assert table.status == "aborted"
    texts = [s.text for s in harness.sent if s.channel_id == ready.channel_id]
    assert any("did not press Ready" in x and f"<@{USERS['bob']}>" in x for x in texts)
    (back,) = await mm.waiting(GUILD_ID)
    assert (back.user_id, back.joined_at) == (USERS["alice"], first.joined_at)
    assert not harness.current(ready).components  # the closed table's message lost its button
    out = await harness.click(stale, "Ready", "bob")
    assert out[-1].ephemeral and "not waiting" in out[-1].text


async def test_bots_fill_a_bots_ok_entry_after_the_servers_wait(harness: Harness, clock: FakeClock) -> None:
    out = await harness.slash("queuebots", "mod", minutes=2)
    assert "2 minutes" in out[-1].text
    assert await harness.bot.engine.guild_setting(GUILD_ID, BOT_WAIT_SETTING) == 2
    await queue(harness, "alice", game="flying_blades", bots="ok")
    await harness.bot.engine.run_due()
    assert harness.threads == []
    clock.advance(minutes=2)
    await harness.bot.engine.run_due()
    await harness.settle()
    ready = ready_message(harness)
    table = await table_of(harness, ready.channel_id)
    assert [s.bot for s in table.seats] == [False, True]
    await harness.click(ready, "Ready", "alice")
    assert (await table_of(harness, ready.channel_id)).status == "active"


async def test_a_challenge_accepted_opens_the_game_in_a_thread(harness: Harness) -> None:
    await challenge(harness, "alice", "bob", game="flying_blades", options="cards=none")
    offer = harness.with_button("challenge:accept:")
    assert offer.pinged == [USERS["bob"]]
    out = await harness.click(offer, "Accept", "carol")
    assert out[-1].ephemeral and "Only the challenged member" in out[-1].text
    await harness.click(offer, "Accept", "bob")
    assert "accepted" in harness.current(offer).text and not harness.current(offer).components
    thread = harness.threads[-1]
    table = await table_of(harness, int(thread["id"]))
    assert table.status == "active" and [s.user_id for s in table.seats] == [USERS["alice"], USERS["bob"]]
    assert harness.images([s for s in harness.sent if s.channel_id == table.channel_id])  # its first board


async def test_a_game_that_fails_to_open_on_accept_leaves_the_challenge_open_and_tells_both(
        harness: Harness, monkeypatch: pytest.MonkeyPatch, error_log: ErrorLog) -> None:
    """The Accept is saved only with the game it opened: a failure leaves no "accepted" challenge without a game;
    both members are told (pinged) and Accept works again."""
    from storage import StorageError  # lazy: the harness imports the bot first

    await challenge(harness, "alice", "bob", game="flying_blades")
    offer = harness.with_button("challenge:accept:")
    engine = harness.bot.engine
    real = engine.open_table

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise StorageError("injected: the database refused the new game")

    monkeypatch.setattr(engine, "open_table", broken)
    out = await harness.click(offer, "Accept", "bob")
    assert [r.getMessage() for r in error_log.records] == ["could not open the game of challenge 1"]
    error_log.records.clear()  # logged for the operator, as expected
    row = await engine.matchmaking.get_challenge(1)
    assert (row.status, row.game_id) == ("open", None)
    told = [s for s in out if "Could not open the game" in s.text]
    assert told and set(told[-1].pinged) == {USERS["alice"], USERS["bob"]} and "still open" in told[-1].text
    assert harness.current(offer).components  # the buttons stay
    monkeypatch.setattr(engine, "open_table", real)
    await harness.click(offer, "Accept", "bob")
    row = await engine.matchmaking.get_challenge(1)
    assert row.status == "accepted" and row.game_id is not None
    assert (await engine.get(row.game_id)).status == "active"


async def test_a_stale_accept_after_a_decline_changes_nothing(harness: Harness) -> None:
    await challenge(harness, "alice", "bob", game="flying_blades")
    offer = harness.snapshot(harness.with_button("challenge:accept:"))
    await harness.click(offer, "Decline", "bob")
    assert "declined" in harness.messages[offer.message_id].text
    out = await harness.click(offer, "Accept", "bob")  # a client still showing the buttons, a double click
    assert out[-1].ephemeral and "no longer open" in out[-1].text
    assert harness.threads == []


@pytest.mark.parametrize(("member", "expected"), [("alice", "yourself")])
async def test_challenging_yourself_is_refused(harness: Harness, member: str, expected: str) -> None:
    out = await challenge(harness, "alice", member, game="flying_blades")
    assert out[-1].ephemeral and expected in out[-1].text


async def test_someone_already_challenged_cannot_be_challenged_again(harness: Harness) -> None:
    await challenge(harness, "alice", "bob", game="flying_blades")
    out = await challenge(harness, "carol", "bob", game="flying_blades")
    assert out[-1].ephemeral and "already has a challenge" in out[-1].text


async def test_an_unanswered_challenge_expires_and_its_message_says_so(harness: Harness, clock: FakeClock) -> None:
    await challenge(harness, "alice", "bob", game="flying_blades")
    offer = harness.with_button("challenge:accept:")
    clock.advance(minutes=harness.bot.engine.matchmaking.challenge_minutes + 1)
    await harness.bot.engine.run_due()
    await harness.settle()
    assert "expired" in harness.current(offer).text and not harness.current(offer).components


async def test_the_queue_and_a_ready_check_survive_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            clock: FakeClock) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    await queue(old, "carol", game="floating_floors")
    await queue(old, "alice", game="flying_blades")
    await queue(old, "bob", game="flying_blades")
    ready = ready_message(old)
    threads = list(old.threads)
    await old.close()
    new = await Harness(db, now=clock).start(monkeypatch, threads=threads)
    try:
        assert [r.user_id for r in await new.bot.engine.matchmaking.waiting(GUILD_ID)] == [USERS["carol"]]
        new.messages[ready.message_id] = ready
        await new.click(ready, "Ready", "alice")
        await new.click(ready, "Ready", "bob")
        assert (await table_of(new, ready.channel_id)).status == "active"
        await queue(new, "dave", game="floating_floors")
        assert new.with_button("queue:ready:").channel_id != ready.channel_id  # carol's wait went on
    finally:
        await new.close()


async def test_a_member_who_leaves_the_server_leaves_its_queues_and_challenges(harness: Harness) -> None:
    await queue(harness, "bob", game="flying_blades", players=3)
    await challenge(harness, "alice", "bob", game="flying_blades")
    offer = harness.with_button("challenge:accept:")
    harness.bot.dispatch("member_remove", harness.members["bob"])
    await harness.settle()
    assert await harness.bot.engine.matchmaking.waiting(GUILD_ID) == []
    assert "cancelled" in harness.current(offer).text and not harness.current(offer).components


@pytest.mark.parametrize("custom_id", ["queue:ready:999999", "queue:ready:99999999999999999999999",
                                       "challenge:accept:424242", "challenge:decline:0"])
async def test_a_forged_or_stale_queue_button_gets_a_short_reply_and_changes_nothing(harness: Harness,
                                                                                     custom_id: str) -> None:
    await challenge(harness, "alice", "bob", game="flying_blades")
    offer = harness.with_button("challenge:accept:")
    forged = forged_message(harness, offer, {"type": 2, "style": 1, "label": "X", "custom_id": custom_id})
    out = await harness.click(forged, "X", "bob")
    assert len(out) == 1 and out[0].ephemeral and "exist" in out[0].text, out[0].text
    assert harness.threads == []
    assert (await harness.bot.engine.matchmaking.get_challenge(1)).status == "open"


async def test_a_challenge_sent_before_a_restart_is_accepted_after_it(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      clock: FakeClock) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    await challenge(old, "alice", "bob", game="flying_blades")
    offer = old.with_button("challenge:accept:")
    await old.close()
    new = await Harness(db, now=clock).start(monkeypatch)
    try:
        new.messages[offer.message_id] = offer
        await new.click(offer, "Accept", "bob")
        table = await table_of(new, int(new.threads[-1]["id"]))
        assert table.status == "active"
    finally:
        await new.close()


async def test_the_prefix_form_joins_the_queue_and_bare_queue_shows_the_usage(harness: Harness) -> None:
    out = await harness.say("!queue", "alice")
    assert "/queue join" in out[-1].text
    await harness.say("!queue join flying_blades", "alice")
    (row,) = await harness.bot.engine.matchmaking.waiting(GUILD_ID)
    assert (row.user_id, row.game, row.players) == (USERS["alice"], "flying_blades", 2)
