"""The one status message per game: made from the lobby message at Start, edited at most once per 10 s (on the
bot's clock, changes in between coalesced), at once when the game ends, replaced when it is gone or too old to
edit, and never in the way of a move."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.discord_harness import (
    USERS,
    Harness,
    Sent,
    http_error,
    open_table,
    resign,
    start_table,
    table_of,
)


def first_attack(table: object, seat: int) -> str:
    legal = table.rules.legal_actions(table.state, seat)  # type: ignore[attr-defined]
    return next(a for a in legal if a.startswith("attack"))


def fields(sent: Sent) -> dict[str, str]:
    return {f["name"]: f["value"] for f in sent.embeds[0].get("fields", [])}


async def status_of(h: Harness, channel_id: int) -> Sent:
    table = await h.bot.engine.get((await table_of(h, channel_id)).id)
    return h.messages[table.meta["status_message_id"]]


async def play_one(h: Harness, channel_id: int) -> list[Sent]:
    """The player to move attacks (or passes) with /move."""
    table = await table_of(h, channel_id)
    seat = next(iter(table.to_move()))
    user = next(name for name, uid in USERS.items() if uid == table.seats[seat].user_id)
    legal = table.rules.legal_actions(table.state, seat)
    action = next((a for a in legal if a.startswith("attack")), "pass")
    return await h.slash("move", user, channel_id, action=action)


async def test_start_turns_the_lobby_message_into_the_status_message(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness, joiners=["bob"], bots=1)
    out = await harness.click(lobby, "Start", "alice")
    table = await table_of(harness, channel_id)
    assert table.meta["status_message_id"] == lobby.message_id
    status = harness.messages[lobby.message_id]
    # the lobby's buttons go; a running game's status carries only Spectate (issue 27)
    assert out[0].kind == "update" and status.custom_ids() == [f"spectate:{table.id}"] and not status.content
    text = status.text
    for line in ("1. 🟥 Alice — red", "2. 🟨 Bob — yellow", "3. 🟦 ⚙ Bot 1 — blue"):
        assert line in text, text
    assert fields(status)["Phase"] == "choosing cards" and fields(status)["Moves"] == "0"
    assert "<@" not in text  # names, never mentions: pings are new messages
    assert status.embeds[0]["footer"]["text"] == "playing"
    assert len(status.embeds[0]["title"]) <= 256 and len(status.embeds[0]["description"]) <= 4096


async def test_status_edits_are_throttled_and_coalesced(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    status_id = (await table_of(harness, channel_id)).meta["status_message_id"]
    assert harness.status_edits() == []  # Start edited it moments ago: the draft's end waits for the next slot
    assert harness.sleeper.delays() == [10.0]
    for _ in range(3):  # moves within the same 10 s: still one delayed edit
        out = await play_one(harness, channel_id)
        assert any(s.pinged for s in out), "the turn ping is a new message"
    assert harness.status_edits() == [] and len(harness.sleeper.delays()) == 1
    assert await harness.pass_time(seconds=9) == []
    edits = await harness.pass_time(seconds=1)
    table = await table_of(harness, channel_id)
    assert [e.message_id for e in edits] == [status_id]
    status = harness.messages[status_id]
    assert fields(status)["Moves"] == str(table.moves) and fields(status)["Phase"] == "playing"
    mover = next(iter(table.to_move()))
    assert fields(status)["Turn"] == ["🟥 Alice", "🟨 Bob"][mover]
    assert edits[0].pinged == [] and edits[0].payload["allowed_mentions"]["parse"] == []
    assert edits[0].custom_ids() == [f"spectate:{table.id}"] and not edits[0].files  # Spectate only (issue 27)

    await play_one(harness, channel_id)  # just after an edit: delayed again
    assert len(harness.status_edits()) == 1 and harness.sleeper.delays() == [10.0]
    await harness.pass_time(seconds=10)
    assert len(harness.status_edits()) == 2

    await harness.pass_time(seconds=30)  # a quiet while, then a move: edited at once, within the move
    out = await play_one(harness, channel_id)
    assert len(harness.status_edits()) == 3 and harness.sleeper.delays() == []
    assert fields(harness.status_edits()[-1])["Moves"] == str((await table_of(harness, channel_id)).moves)
    assert any(s.pngs() for s in out)


async def test_concurrent_changes_still_edit_once_per_interval(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    await harness.pass_time(seconds=10)
    await harness.pass_time(seconds=60)
    table = await table_of(harness, channel_id)
    harness.edit_delays[table.meta["status_message_id"]] = 0.01  # the first edit is in flight a moment
    keeper = harness.bot.status_messages
    await asyncio.gather(keeper.update(table, "en"), keeper.update(table, "en"))
    assert len(harness.status_edits()) == 2 and harness.sleeper.delays() == [10.0]  # the draft's, this one, one later


async def test_the_end_of_a_game_is_shown_at_once(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    await play_one(harness, channel_id)
    assert harness.status_edits() == [] and harness.sleeper.delays() == [10.0]
    await resign(harness, "bob", channel_id)
    assert harness.sleeper.delays() == []  # the delayed edit was replaced by the final one
    final = harness.status_edits()[-1]
    assert len(harness.status_edits()) == 1 and final.message_id == table.meta["status_message_id"]
    assert "Alice wins" in fields(final)["Result"] and "Turn" not in fields(final)
    assert "(resigned)" in final.text and final.embeds[0]["footer"]["text"] == "finished"


async def test_abort_closes_the_status_at_once(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    await harness.slash("abort", "alice", channel_id)
    assert len(harness.status_edits()) == 1 and harness.status_edits()[0].embeds[0]["footer"]["text"] == "closed"
    assert harness.sleeper.delays() == []


@pytest.mark.parametrize(("status", "code"), [(404, 10008), (429, 30046), (403, 50005)])
async def test_a_status_message_gone_or_too_old_is_posted_again(harness: Harness, status: int, code: int,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="cogs.utils.status")
    channel_id = await start_table(harness, joiners=["bob"])
    old_id = (await table_of(harness, channel_id)).meta["status_message_id"]
    harness.edit_errors[old_id] = http_error(status, code)
    await harness.pass_time(seconds=60)  # the delayed edit fails: a fresh status message instead
    table = await table_of(harness, channel_id)
    new_id = table.meta["status_message_id"]
    assert new_id != old_id and harness.status_edits() == []
    fresh = harness.messages[new_id]
    assert fresh.kind == "message" and fresh.channel_id == channel_id and fresh.pinged == []
    assert fields(fresh)["Moves"] == str(table.moves)
    version = table.version
    await harness.pass_time(seconds=60)
    out = await play_one(harness, channel_id)  # later edits go to the new message
    assert [e.message_id for e in harness.status_edits()] == [new_id] and any(s.pngs() for s in out)
    assert (await table_of(harness, channel_id)).version == version + 1  # set_meta never moved the version
    assert "posting a new one" in caplog.text


async def test_an_edit_held_up_by_rate_limits_gives_way_to_a_new_message(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    old_id = (await table_of(harness, channel_id)).meta["status_message_id"]
    harness.bot.status_messages.edit_timeout = 0.05
    harness.edit_delays[old_id] = 30
    await harness.pass_time(seconds=10)
    new_id = (await table_of(harness, channel_id)).meta["status_message_id"]
    assert new_id != old_id and harness.messages[new_id].embeds[0]["footer"]["text"] == "playing"
    assert harness.status_edits() == []


async def test_a_failed_edit_never_breaks_a_move(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    status_id = table.meta["status_message_id"]
    await harness.pass_time(seconds=60)  # the delayed edit after the draft
    await harness.pass_time(seconds=60)  # then a quiet minute: the next move edits at once
    harness.edit_errors[status_id] = http_error(403, 50013, "Missing Permissions")
    caplog.set_level(logging.WARNING, logger="cogs.utils.status")
    out = await play_one(harness, channel_id)  # the status edit runs inside this move, and fails
    assert [s.kind for s in out] == ["defer", "message"] and out[1].pngs() and not out[1].ephemeral
    assert "could not edit the status message" in caplog.text
    after = await table_of(harness, channel_id)
    assert after.moves == table.moves + 1 and after.meta["status_message_id"] == status_id  # no repost


async def test_a_game_without_a_status_message_gets_one(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    await harness.bot.engine.set_meta(table.id, status_message_id=None)  # as if started before status messages
    await harness.pass_time(seconds=60)
    new_id = (await table_of(harness, channel_id)).meta["status_message_id"]
    assert new_id is not None and harness.messages[new_id].embeds[0]["footer"]["text"] == "playing"


async def test_status_in_polish(harness: Harness) -> None:
    await harness.slash("language", "mod", language="pl")
    channel_id = await start_table(harness, joiners=["bob"])
    status = await status_of(harness, channel_id)
    assert fields(status)["Etap"] == "wybór kart"
    await harness.pass_time(seconds=10)
    assert "1. 🟥 Alice — czerwony" in status.text
    assert fields(status)["Etap"] == "gra" and status.embeds[0]["footer"]["text"] == "trwa"
