"""/play and its lobby: threads, the Join / Leave / Add bot / Start buttons, bad input, /abort, /games,
rematch, languages."""

from __future__ import annotations

import pytest

from tests.discord_harness import (
    CHANNELS,
    USERS,
    Harness,
    check_png,
    open_table,
    resign,
    start_table,
    table_of,
)


async def test_play_opens_a_lobby_in_a_new_thread_with_persistent_buttons(harness: Harness) -> None:
    out = await harness.slash("play", "alice", game="flying_blades")
    lobby = harness.with_button("Join")
    assert lobby.channel_id != CHANNELS["general"]
    thread = harness.bot.get_channel(lobby.channel_id)
    assert thread is not None and thread.parent_id == CHANNELS["general"]
    pointer = [s for s in out if s.kind == "followup"][-1]
    assert pointer.channel_id == CHANNELS["general"] and f"<#{thread.id}>" in pointer.text and pointer.public
    table = await table_of(harness, thread.id)
    assert table.status == "lobby" and table.seat_of(USERS["alice"]) == 0
    assert lobby.labels() == ["Join", "Leave", "Add bot", "Start"]
    assert lobby.custom_ids() == [f"flying_blades:lobby:{a}:{table.id}:{table.version}"
                                  for a in ("join", "leave", "bot", "start")]
    assert "(host)" in lobby.text and "2–5" in lobby.text


async def test_play_with_threads_off_opens_the_lobby_in_the_channel(harness: Harness) -> None:
    out = await harness.slash("threads", "mod", enabled=False)
    assert "channel" in out[-1].text
    await harness.slash("play", "alice", game="flying_blades", options="cards=open turn_minutes=30")
    lobby = harness.with_button("Join")
    assert lobby.channel_id == CHANNELS["general"] and lobby.kind == "followup"
    table = await table_of(harness, CHANNELS["general"])
    assert table.options == {"cards": "open", "turn_minutes": 30}
    out = await harness.slash("play", "bob", game="flying_blades")
    assert [s.ephemeral for s in out if s.kind != "defer"] == [True]
    assert "already has a game" in out[-1].text


async def test_play_with_bad_options_says_why_and_opens_nothing(harness: Harness) -> None:
    for options, expected in (("cards=maybe", "cards option cannot be"), ("colour=red", "Unknown option"),
                              ("turn_minutes", "name=value")):
        out = await harness.slash("play", "alice", game="flying_blades", options=options)
        assert len(out) == 1 and out[0].ephemeral and expected in out[0].text, out[0].text
    assert harness.threads == []
    assert await harness.bot.engine.active_tables(harness.guild.id) == []


async def test_prefix_play_of_an_unknown_game_lists_the_games(harness: Harness) -> None:
    out = await harness.say("!play chess", "alice")
    assert len(out) == 1 and "no game called chess" in out[0].text and "flying_blades" in out[0].text
    assert harness.threads == []


async def test_prefix_play_opens_a_lobby_too(harness: Harness) -> None:
    out = await harness.say("!play flying_blades cards=none", "bob")
    lobby = harness.with_button("Join")
    table = await table_of(harness, lobby.channel_id)
    assert table.host_id == USERS["bob"] and table.options == {"cards": "none"}
    assert any(f"<#{lobby.channel_id}>" in s.text for s in out if s.channel_id == CHANNELS["general"])


async def test_lobby_buttons_join_leave_add_bot_and_refusals(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness)
    out = await harness.click(lobby, "Join", "bob")
    assert [s.kind for s in out] == ["update"] and f"<@{USERS['bob']}>" in out[0].text
    out = await harness.click(lobby, "Join", "bob")
    assert out[0].ephemeral and "already at this table" in out[0].text
    out = await harness.click(lobby, "Leave", "carol")
    assert out[0].ephemeral and "not playing" in out[0].text
    out = await harness.click(lobby, "Start", "bob")
    assert out[0].ephemeral and "Only the host" in out[0].text
    stale = harness.snapshot(lobby)  # the lobby as a client shows it now
    await harness.click(lobby, "Add bot", "alice")
    table = await table_of(harness, channel_id)
    assert [s.name for s in table.seats] == ["Alice", "Bob", "Bot 1"]
    out = await harness.click(stale, "Add bot", "alice")  # a second click on the same (now old) lobby
    assert out[0].ephemeral and "has changed" in out[0].text
    assert len((await table_of(harness, channel_id)).seats) == 3
    await harness.click(lobby, "Leave", "bob")
    table = await table_of(harness, channel_id)
    assert [s.name for s in table.seats] == ["Alice", "Bot 1"]


async def test_start_needs_enough_players(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness)
    out = await harness.click(lobby, "Start", "alice")
    assert out[0].ephemeral and "At least 2 players" in out[0].text
    assert (await table_of(harness, channel_id)).status == "lobby"


async def test_start_posts_the_first_board_and_pings_the_choosers(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness, joiners=["bob"], bots=1)
    out = await harness.click(lobby, "Start", "alice")
    update = out[0]
    assert update.kind == "update" and update.custom_ids() == ["spectate:1"] and "playing" in update.text
    board = [s for s in out if s.kind == "message"]
    assert len(board) == 1 and board[0].channel_id == channel_id
    check_png(board[0].pngs()[0])
    assert "has started" in board[0].text and "Bot 1 has chosen" in board[0].text
    assert sorted(board[0].pinged) == [USERS["alice"], USERS["bob"]]
    assert board[0].labels() == ["Show my hand", "Choose cards"]


async def test_host_leaving_closes_the_lobby(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness, joiners=["bob"])
    shown = harness.snapshot(lobby)
    out = await harness.click(lobby, "Leave", "alice")
    assert out[0].kind == "update" and out[0].components == [] and "closed" in out[0].text
    assert await harness.bot.engine.table_in_channel(channel_id) is None
    out = await harness.click(shown, "Join", "carol")  # a client still showing the open lobby
    assert out[0].ephemeral and "lobby is closed" in out[0].text


async def test_abort_refused_for_a_non_host_allowed_for_host_and_manager(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    out = await harness.slash("abort", "bob", channel_id)
    assert out[0].ephemeral and "Only the host" in out[0].text
    assert (await table_of(harness, channel_id)).status == "active"
    out = await harness.slash("abort", "mod", channel_id)
    assert any(o.public and "cancelled by" in o.text for o in out)  # then the game's summary (cogs/utils/summary)
    assert await harness.bot.engine.table_in_channel(channel_id) is None
    out = await harness.slash("abort", "alice", channel_id)
    assert out[0].ephemeral and "no game in this channel" in out[0].text


async def test_prefix_abort_by_the_host(harness: Harness) -> None:
    channel_id, _ = await open_table(harness)
    out = await harness.say("!abort", "alice", channel_id)
    assert "cancelled" in out[-1].text
    assert await harness.bot.engine.table_in_channel(channel_id) is None


async def test_games_lists_running_games_with_links(harness: Harness) -> None:
    out = await harness.slash("games", "carol")
    assert out[-1].ephemeral and "No games" in out[-1].text
    first, _ = await open_table(harness)
    second = await start_table(harness, host="bob", bots=1)
    out = await harness.slash("games", "carol", "other")
    text = out[-1].text
    assert f"<#{first}>" in text and f"<#{second}>" in text
    assert "waiting for players" in text and "playing" in text


async def test_rematch_opens_a_new_lobby_with_the_same_options_and_bots(harness: Harness) -> None:
    channel_id = await start_table(harness, bots=1, options="cards=none")
    out = await resign(harness, "alice", channel_id)
    final = [s for s in out if "Rematch" in s.labels()]
    assert len(final) == 1 and "game over" in final[0].text
    out = await harness.click(final[0], "Rematch", "carol")
    assert out[0].ephemeral and "Only the players" in out[0].text
    stale = harness.snapshot(final[0])  # the result as a client still shows it
    out = await harness.click(final[0], "Rematch", "alice")
    assert out[0].kind == "followup" and out[0].public and "Rematch!" in out[0].text
    table = await table_of(harness, channel_id)
    assert table.status == "lobby" and table.options["cards"] == "none"
    assert [s.bot for s in table.seats] == [False, True]
    assert harness.messages[final[0].message_id].components == []  # the result's Rematch is retired
    out = await harness.click(stale, "Rematch", "alice")
    assert out[0].ephemeral and f"(#{table.id}) is already open" in out[0].text


@pytest.mark.parametrize("user", ["alice", "mod"])
async def test_language_override_switches_to_polish(harness: Harness, user: str) -> None:
    out = await harness.slash("language", user, language="pl")
    if user == "alice":
        assert out[0].ephemeral and "Manage Server" in out[0].text
        assert await harness.bot.engine.guild_locale(harness.guild.id) is None
        return
    assert "Gotowe" in out[-1].text and "polski" in out[-1].text
    await harness.slash("play", "alice", game="flying_blades")
    lobby = harness.with_button("Dołącz")
    assert lobby.labels() == ["Dołącz", "Odejdź", "Dodaj bota", "Start"] and "gospodarz" in lobby.text
    out = await harness.slash("language", "mod", language="auto")
    assert "English" in out[-1].text or "server" in out[-1].text
    assert await harness.bot.engine.guild_locale(harness.guild.id) is None


async def test_server_locale_is_used_without_override(harness: Harness) -> None:
    import discord

    harness.guild.preferred_locale = discord.Locale.polish
    out = await harness.slash("play", "alice", game="flying_blades", options="bad")
    assert out[0].ephemeral and "Nie rozumiem opcji" in out[0].text


async def test_commands_outside_a_game_or_without_rights_get_a_clear_answer(harness: Harness) -> None:
    from discord.ext import commands

    for command in ("!board", "!resign", "!record", "!move pass"):
        out = await harness.say(command, "alice")
        assert len(out) == 1 and "no game in this channel" in out[0].text, command
    out = await harness.slash("threads", "alice", enabled=False)
    assert out[0].ephemeral and "Manage Server" in out[0].text
    assert await harness.bot.engine.guild_setting(harness.guild.id, "threads", True) is True
    out = await harness.say("!language de", "mod")
    assert "don't speak “de”" in out[-1].text
    out = await harness.say("!move", "alice", error=commands.MissingRequiredArgument)
    assert len(out) == 1 and "Usage: `!move <action>`" in out[0].text
    channel_id = await start_table(harness, joiners=["bob"])
    out = await harness.slash("resign", "carol", channel_id)
    assert out[0].ephemeral and "not playing" in out[0].text
    out = await harness.slash("hand", "carol", channel_id)
    assert out[0].ephemeral and "not playing" in out[0].text


async def test_a_game_in_polish(harness: Harness) -> None:
    await harness.slash("language", "mod", language="pl")
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    board = harness.with_button("Wybierz karty")
    assert board.labels() == ["Pokaż moje karty", "Wybierz karty"] and "gra się zaczęła" in board.text
    check_png(board.pngs()[0])
    menu = (await harness.click(board, "Wybierz karty", "alice"))[-1]
    assert "Otrzymane karty" in menu.text
    out = await harness.click(menu, "Nie zatrzymuję kart", "alice")
    assert "Zatrzymujesz: brak kart" in out[0].text and "karty wybrane" in harness.public(out)[-1].text
    out = await harness.slash("move", "bob", channel_id, action="skok a1 a2")
    assert out[-1].ephemeral and "Nie znam akcji „skok”" in out[-1].text
