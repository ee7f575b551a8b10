"""Spectators in Discord (issue 27): the Spectate button, /follow and /unfollow, the DM digest and its rate limit,
/mygames' followed section, ``spectators=no``, and bad input (unknown game, another server's, a forged button,
a double click, a seated player, a finished game)."""

from __future__ import annotations

from engine.policies import PlaySettings, settings_of
from tests.discord_harness import (
    CHANNELS,
    USERS,
    Harness,
    Sent,
    forged_message,
    resign,
    start_table,
    table_of,
)
from tests.follow.conftest import Spectating

OTHER_GUILD = 710000000000000999


def dms(h: Harness, seen: Spectating, user: str, sent: list[Sent] | None = None) -> list[Sent]:
    return [s for s in (h.sent if sent is None else sent) if seen.dm_channels.get(s.channel_id) == USERS[user]]


async def follows(h: Harness, table_id: int) -> dict[int, str]:
    return {r.user_id: r.mode for r in await h.bot.engine.store.follows_of_game(table_id)}


async def play_one(h: Harness, table_id: int) -> None:
    """The seat to move plays its bot's move, posted as a player's move is (`after_move`)."""
    from cogs.utils.posting import after_move  # lazy: the harness imports the bot first

    table = await h.bot.engine.get(table_id)
    seat = min(table.to_move())
    action = table.rules.bot_action(table.state, seat)
    result = await h.bot.engine.act(table_id, table.seats[seat].user_id, action)
    await after_move(h.bot, result, "en", channel=h.bot.get_channel(table.channel_id))
    await h.settle()


async def test_the_spectate_button_adds_the_member_to_the_games_thread(harness: Harness,
                                                                        spectating: Spectating) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    status = harness.with_button("spectate:")
    reply = (await harness.click(status, "spectate:", "carol"))[-1]
    assert reply.ephemeral and "added to its thread" in reply.text
    assert spectating.thread_members == [(channel_id, USERS["carol"])]
    assert await follows(harness, (await table_of(harness, channel_id)).id) == {USERS["carol"]: "thread"}


async def test_a_double_click_on_spectate_follows_once(harness: Harness, spectating: Spectating) -> None:
    await start_table(harness, joiners=["bob"])
    status = harness.with_button("spectate:")
    await harness.click(status, "spectate:", "carol")
    again = (await harness.click(status, "spectate:", "carol"))[-1]
    assert again.ephemeral and "already follow" in again.text
    assert len(spectating.thread_members) == 1


async def test_a_seated_player_is_refused_as_a_follower(harness: Harness, spectating: Spectating) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    reply = (await harness.slash("follow", "bob", "general", game=table.id))[-1]
    assert reply.ephemeral and "You play in game" in reply.text
    assert await follows(harness, table.id) == {} and not spectating.thread_members


async def test_an_unknown_game_or_another_servers_is_refused_alike(harness: Harness, spectating: Spectating) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    elsewhere = await harness.bot.engine.open_lobby("flying_blades", guild_id=OTHER_GUILD, channel_id=42,
                                                    host=table.seats[0])
    for game in (999, elsewhere.id):
        reply = (await harness.slash("follow", "carol", "general", game=game))[-1]
        assert reply.ephemeral and reply.text == f"There is no game #{game} on this server."
        assert await follows(harness, game) == {}


async def test_a_forged_spectate_button_changes_nothing(harness: Harness, spectating: Spectating) -> None:
    await start_table(harness, joiners=["bob"])
    status = harness.with_button("spectate:")
    for forged_id in ("spectate:99999999999999999999999", "spectate:777"):
        forged = forged_message(harness, status, {"type": 2, "style": 2, "label": "x", "custom_id": forged_id})
        reply = (await harness.click(forged, forged_id, "carol"))[-1]
        assert reply.ephemeral and "There is no game" in reply.text
    assert not spectating.thread_members


async def test_a_game_closed_to_spectators_has_no_spectate_button_and_refuses_follow(
        harness: Harness, spectating: Spectating) -> None:
    channel_id = await start_table(harness, joiners=["bob"], options="spectators=no")
    table = await table_of(harness, channel_id)
    assert settings_of(table.meta).spectators is False
    assert not [s for s in harness.sent if any(c.startswith("spectate:") for c in harness.current(s).custom_ids())]
    reply = (await harness.slash("follow", "carol", "general", game=table.id))[-1]
    assert reply.ephemeral and "closed it to spectators" in reply.text
    assert await follows(harness, table.id) == {}


async def test_a_bad_spectators_option_is_refused_before_the_lobby_opens(harness: Harness) -> None:
    reply = (await harness.slash("play", "alice", game="flying_blades", options="spectators=maybe"))[-1]
    assert "spectators=maybe: use spectators=yes or spectators=no." in reply.text
    assert await harness.bot.engine.table_in_channel(CHANNELS["general"]) is None


def test_play_settings_saved_before_the_spectators_option_load_open_to_spectators() -> None:
    old = {"on_timeout": "skip", "forfeit_after": 3, "days": 0, "rated": True, "reveal": True}
    assert PlaySettings.from_json(old).spectators is True
    assert PlaySettings.from_json({**old, "spectators": False}).spectators is False


async def test_follows_of_a_game_that_was_closed_to_spectators_stop(harness: Harness, spectating: Spectating) -> None:
    """A game saved open whose settings now say no (e.g. an admin's repair): the next board ends its follows and
    takes the thread followers out."""
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    await harness.click(harness.with_button("spectate:"), "spectate:", "carol")
    await harness.slash("follow", "dave", "general", game=table.id, dm=True)
    closed = {**table.meta["play"], "spectators": False}
    await harness.bot.engine.set_meta(table.id, play=closed)
    before = len(dms(harness, spectating, "dave"))
    await play_one(harness, table.id)
    assert await follows(harness, table.id) == {}
    assert spectating.thread_removals == [(channel_id, USERS["carol"])]
    assert len(dms(harness, spectating, "dave")) == before


async def test_a_dm_digest_is_sent_at_most_once_per_window_and_coalesces_moves(harness: Harness,
                                                                                spectating: Spectating) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    reply = (await harness.slash("follow", "carol", "general", game=table.id, dm=True))[-1]
    assert "at most one message every 10 minutes" in reply.text
    assert len(dms(harness, spectating, "carol")) == 1  # the board as it is now
    await play_one(harness, table.id)
    await play_one(harness, table.id)
    assert len(dms(harness, spectating, "carol")) == 1  # within the window: nothing yet
    await harness.pass_time(minutes=10)
    digests = dms(harness, spectating, "carol")
    assert len(digests) == 2  # both moves in one message, when the window is over
    moved = await table_of(harness, channel_id)
    assert f"move {moved.moves}" in digests[-1].text and digests[-1].pngs()
    await harness.pass_time(minutes=10)
    assert len(dms(harness, spectating, "carol")) == 2  # nothing new: nothing sent


async def test_closed_dms_end_the_follow_without_retrying(harness: Harness, spectating: Spectating,
                                                          refuse_closed_dms: None) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    spectating.closed_dms.add(USERS["carol"])
    reply = (await harness.slash("follow", "carol", "general", game=table.id, dm=True))[-1]
    assert "cannot send you direct messages" in reply.text
    assert await follows(harness, table.id) == {}
    spectating.closed_dms.clear()
    await harness.slash("follow", "dave", "general", game=table.id, dm=True)
    spectating.closed_dms.add(USERS["dave"])  # dave closes his DMs later
    harness.clock.advance(minutes=10)  # type: ignore[attr-defined]
    await play_one(harness, table.id)
    assert await follows(harness, table.id) == {}
    harness.clock.advance(minutes=10)  # type: ignore[attr-defined]
    await play_one(harness, table.id)  # no follow left: nothing is tried again
    assert len(dms(harness, spectating, "dave")) == 1


async def test_a_finished_games_follows_end_with_its_last_board(harness: Harness, spectating: Spectating) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    await harness.slash("follow", "carol", "general", game=table.id, dm=True)
    await resign(harness, "bob", channel_id)
    last = dms(harness, spectating, "carol")[-1]
    assert "is over; your follow has ended" in last.text and last.pngs()
    assert await follows(harness, table.id) == {}
    reply = (await harness.slash("follow", "carol", "general", game=table.id))[-1]
    assert "is over" in reply.text and await follows(harness, table.id) == {}


async def test_unfollow_ends_a_follow_and_says_when_there_was_none(harness: Harness, spectating: Spectating) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    await harness.slash("follow", "carol", "general", game=table.id, dm=True)
    assert "no longer follow" in (await harness.slash("unfollow", "carol", "general", game=table.id))[-1].text
    assert "do not follow" in (await harness.slash("unfollow", "carol", "general", game=table.id))[-1].text
    assert await follows(harness, table.id) == {}


async def test_unfollow_of_a_game_in_a_thread_takes_the_follower_out_of_the_thread(
        harness: Harness, spectating: Spectating) -> None:
    """A thread follower was added to the game's thread: /unfollow must take them out again, or Discord keeps
    showing (and notifying) every board they asked to stop."""
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    await harness.click(harness.with_button("spectate:"), "spectate:", "carol")
    assert "no longer follow" in (await harness.slash("unfollow", "carol", "general", game=table.id))[-1].text
    assert spectating.thread_removals == [(channel_id, USERS["carol"])]
    assert await follows(harness, table.id) == {}


async def test_unfollow_of_a_dm_follow_touches_no_thread(harness: Harness, spectating: Spectating) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    await harness.slash("follow", "carol", "general", game=table.id, dm=True)
    await harness.slash("unfollow", "carol", "general", game=table.id)
    assert spectating.thread_removals == []


async def test_mygames_lists_followed_games_in_their_own_section(harness: Harness, spectating: Spectating) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    await harness.slash("follow", "carol", "general", game=table.id, dm=True)
    inbox = (await harness.slash("mygames", "carol", "general"))[-1]
    assert "Games you follow** (1)" in inbox.text and f"#{table.id}]" in inbox.text
    assert "Your move" not in inbox.text
    players = (await harness.slash("mygames", "bob", "general"))[-1]
    assert "Games you follow" not in players.text
