"""Every button and menu of every game, clicked twice (a double click: the second click on the message as it was
shown) and delivered twice (Discord retrying one interaction): exactly one effect, and every click answered.
Forged custom_ids (numbers past SQLite's range, unknown tables) get a clear private reply and change nothing."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import pytest

from tests.cogs.test_discord_the_floor import options_of, start_duel
from tests.discord_harness import (
    GUILD_ID,
    Harness,
    Sent,
    open_table,
    resign,
    snowflake,
    start_table,
    table_of,
    user_of,
    walk,
)


async def log_size(h: Harness, channel_id: int) -> tuple[int, int]:
    """(actions logged, open tables) in a channel: what a second click must not change."""
    table = await h.bot.engine.table_in_channel(channel_id)
    if table is None:
        return 0, 0
    return len(await h.bot.engine.store.actions(table.id)), 1


async def double_click(h: Harness, sent: Sent, which: str, user: str) -> tuple[list[Sent], list[Sent]]:
    shown = h.snapshot(sent)
    first = await h.click(sent, which, user)
    second = await h.click(shown, which, user)
    return first, second


async def delivered_twice(h: Harness, sent: Sent, which: str, user: str) -> tuple[list[Sent], list[Sent]]:
    payload = h.click_payload(sent, which, user)
    return await h.feed(payload), await h.feed(payload)


def refused_privately(out: list[Sent], *words: str) -> None:
    replies = [s for s in out if s.kind != "defer"]
    assert replies and all(s.ephemeral for s in replies), [s.text for s in replies]
    assert any(any(w in s.text for w in words) for s in replies), [s.text for s in replies]


# --- Night of the 27 Ninja ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("twice", [double_click, delivered_twice])
async def test_pass_clicked_twice_passes_once(harness: Harness, twice: Any) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    before = await table_of(harness, channel_id)
    first, second = await twice(harness, harness.with_button("Pass"), "Pass", "alice")
    assert any("Alice passes" in s.text for s in first)
    refused_privately(second, "board has changed", "already")
    after = await table_of(harness, channel_id)
    assert after.moves == before.moves + 1 and after.to_move() == {1}


@pytest.mark.parametrize("twice", [double_click, delivered_twice])
async def test_keep_no_cards_clicked_twice_keeps_once(harness: Harness, twice: Any) -> None:
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    menu = (await harness.click(harness.with_button("Choose cards"), "Choose cards", "alice"))[-1]
    _, second = await twice(harness, menu, "Keep no cards", "alice")
    refused_privately(second, "already", "board has changed", "chosen")
    assert await log_size(harness, channel_id) == (1, 1)


async def test_the_keep_menu_submitted_twice_keeps_once(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    menu = (await harness.click(harness.with_button("Choose cards"), "Choose cards", "alice"))[-1]
    shown = harness.snapshot(menu)
    select = next(c for c in walk(menu.components) if c.get("type") == 3)
    cheapest = min(select["options"], key=lambda o: int(o["label"].rsplit("(", 1)[1].rstrip(")")))["value"]
    await harness.select(menu, [cheapest], "alice")
    second = await harness.select(shown, [cheapest], "alice")
    refused_privately(second, "already", "chosen")
    assert await log_size(harness, channel_id) == (1, 1)


# --- the lobby, resign and rematch (every game shares them) ------------------------------------------------------

async def test_start_clicked_twice_starts_one_game(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness, joiners=["bob"])
    _, second = await double_click(harness, lobby, "Start", "alice")
    refused_privately(second, "closed", "board has changed")
    table = await table_of(harness, channel_id)
    assert table.status == "active" and len(table.seats) == 2


async def test_add_bot_clicked_twice_adds_one_bot(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness)
    _, second = await double_click(harness, lobby, "Add bot", "alice")
    refused_privately(second, "board has changed")
    assert [s.bot for s in (await table_of(harness, channel_id)).seats] == [False, True]


async def test_join_clicked_twice_seats_once(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness)
    _, second = await double_click(harness, lobby, "Join", "bob")
    refused_privately(second, "already at this table")
    assert len((await table_of(harness, channel_id)).seats) == 2


@pytest.mark.parametrize("twice", [double_click, delivered_twice])
async def test_resign_confirmed_twice_resigns_once(harness: Harness, twice: Any) -> None:
    channel_id = await start_table(harness, joiners=["bob", "carol"])
    table = await table_of(harness, channel_id)
    question = (await harness.slash("resign", "bob", channel_id))[-1]
    _, second = await twice(harness, question, "Resign", "bob")
    refused_privately(second, "already", "resigned", "over")
    actions = await harness.bot.engine.store.actions(table.id)
    assert [a.action for a in actions].count("resign") == 1


async def test_rematch_clicked_twice_opens_one_lobby(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    await resign(harness, "bob", channel_id)
    _, second = await double_click(harness, harness.with_button("Rematch"), "Rematch", "alice")
    refused_privately(second, "already open")
    lobbies = [t for t in await harness.bot.engine.active_tables(GUILD_ID) if t.channel_id == channel_id]
    assert len(lobbies) == 1 and lobbies[0].status == "lobby"


# --- The Floor ---------------------------------------------------------------------------------------------------

async def open_floor(h: Harness) -> int:
    await h.slash("play", "alice", game="the_floor")
    lobby = h.with_button(":lobby:join:")
    await h.click(lobby, ":lobby:join:", "bob")
    await h.click(lobby, ":lobby:start:", "alice")
    return lobby.channel_id


async def duel_log(h: Harness, channel_id: int) -> list[str]:
    table = await table_of(h, channel_id)
    return [a.action.split()[0] for a in await h.bot.engine.store.actions(table.id)]


@pytest.mark.parametrize("twice", [double_click, delivered_twice])
async def test_the_floor_pass_clicked_twice_passes_once(harness: Harness, twice: Any) -> None:
    channel_id = await open_floor(harness)
    chal, _, letter = await start_duel(harness, channel_id)
    before = (await duel_log(harness, channel_id)).count("pass")
    _, second = await twice(harness, letter, ":pass:", chal)
    refused_privately(second, "board has changed", "already")
    assert (await duel_log(harness, channel_id)).count("pass") == before + 1  # one letter skipped, one second


async def test_the_floor_ready_clicked_twice_readies_once(harness: Harness) -> None:
    from tests.cogs.test_discord_the_floor import challenge, draft

    channel_id = await open_floor(harness)
    await draft(harness, channel_id)
    chal, _ = await challenge(harness, channel_id)
    _, second = await double_click(harness, harness.with_button(":ready:"), ":ready:", chal)
    refused_privately(second, "ready")
    assert (await duel_log(harness, channel_id)).count("ready") == 1


async def test_the_floor_draft_pick_submitted_twice_picks_once(harness: Harness) -> None:
    channel_id = await open_floor(harness)
    table = await table_of(harness, channel_id)
    user = user_of(table.seats[table.humans_to_move()[0]].user_id)
    menu = (await harness.click(harness.with_button("the_floor:pick:"), ":pick:", user))[-1]
    shown = harness.snapshot(menu)
    choice = options_of(menu)[:1]
    await harness.select(menu, choice, user)
    second = await harness.select(shown, choice, user)
    refused_privately(second, "not", "already", "changed", "turn")
    assert (await duel_log(harness, channel_id)).count("pick") == 1


# --- Floor Plan --------------------------------------------------------------------------------------------------

async def test_floor_plan_confirm_clicked_twice_plays_once(harness: Harness) -> None:
    await harness.slash("play", "alice", game="floor_plan")
    lobby = harness.with_button(":lobby:join:")
    await harness.click(lobby, ":lobby:join:", "bob")
    await harness.click(lobby, ":lobby:start:", "alice")
    channel_id = lobby.channel_id
    table = await table_of(harness, channel_id)
    shown = (await harness.slash("move", "alice", channel_id, action=table.rules.bot_action(table.state, 0)))[-1]
    _, second = await double_click(harness, shown, "Confirm", "alice")
    refused_privately(second, "no longer", "gone", "changed", "already")
    assert await log_size(harness, channel_id) == (1, 1)


# --- forged custom_ids -------------------------------------------------------------------------------------------

FORGED: list[str] = [
    "flying_blades:pass:" + "9" * 40 + ":1",
    "flying_blades:lobby:join:" + "9" * 25 + ":0",
    "flying_blades:rematch:99999999:" + "9" * 30,
    "flying_blades:resign:yes:" + "9" * 40 + ":" + "9" * 40,
    "the_floor:pass:" + "1" * 39 + ":" + "2" * 39,
    "floor_plan:sheet:" + "9" * 60,
    "floor_plan:plan:" + "9" * 60,
    "floor_plan:pick:" + "9" * 40 + ":" + "9" * 30 + ":0badc0de",
]


@pytest.mark.parametrize("custom_id", FORGED)
async def test_a_forged_custom_id_gets_a_private_reply_and_changes_nothing(harness: Harness,
                                                                          custom_id: str) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    before = await log_size(harness, channel_id)
    # discord.py only dispatches a custom_id that the clicked message carries: put the forged one on a message.
    forged = deepcopy(harness.current(harness.with_button("Pass")))
    forged.message_id = snowflake()
    forged.components = [{"type": 1, "components": [{"type": 2, "style": 2, "label": "Forged",
                                                     "custom_id": custom_id}]}]
    harness.messages[forged.message_id] = forged
    out = await harness.click(forged, "Forged", "alice")
    refused_privately(out, "does not exist", "board has changed", "not playing", "belongs to", "belong to", "not yours",
                      "Only")
    assert await log_size(harness, channel_id) == before



# --- free text is bounded ----------------------------------------------------------------------------------------

async def test_a_huge_prefix_move_gets_a_short_reply_and_changes_nothing(harness: Harness) -> None:
    from discord.ext import commands

    channel_id = await start_table(harness, joiners=["bob"])
    before = await log_size(harness, channel_id)
    out = await harness.say("!move " + "attack a1 a2 " * 500, "alice", channel_id, error=commands.RangeError)
    assert len(out) == 1 and "too long" in out[0].text and len(out[0].text) < 300
    assert await log_size(harness, channel_id) == before


def test_the_slash_move_option_declares_its_length_limit(harness: Harness) -> None:
    command = harness.bot.tree.get_command("move")
    option = next(o for o in command.to_dict(harness.bot.tree)["options"] if o["name"] == "action")
    assert option["max_length"] == 400


async def test_a_huge_table_number_in_record_never_reaches_the_database(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    out = await harness.say("!record " + "9" * 40, "alice", channel_id)  # out of range: the channel's own game
    assert len(out) == 1 and out[0].files and len(out[0].text) < 300
