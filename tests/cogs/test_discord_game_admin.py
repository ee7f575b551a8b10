"""``/gameadmin`` and ``/serverdefaults`` through the real discord.py paths: who may take each step (Manage Server;
the host for pause, resume and adjudicate), the public announcements in the game's thread and the private
refusals; the sweep's announcement of an abandoned game."""

from __future__ import annotations

from typing import Any

from engine import admin as adm
from engine import policies as pol
from tests.discord_harness import (
    GUILD_ID,
    USERS,
    Harness,
    Sent,
    command_data,
    open_table,
    start_table,
    table_of,
)


async def gameadmin(h: Harness, sub: str, user: str, channel: Any, **options: Any) -> list[Sent]:
    """``/gameadmin <sub> [options]`` as Discord delivers a subcommand (a member option by harness name)."""
    data = command_data(h, "gameadmin", sub, **options)
    return await h.feed(h.interaction_payload(2, data, user, h.channel(channel)))


def reply(out: list[Sent]) -> Sent:
    replies = [s for s in out if s.kind != "defer"]
    assert replies, "no reply"
    return replies[0]


async def test_only_the_host_or_a_manager_may_pause_and_each_step_is_announced(harness: Harness) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"], options="turn_minutes=10")
    refused = reply(await gameadmin(h, "pause", "bob", channel_id))
    assert refused.ephemeral and "host" in refused.text
    paused = reply(await gameadmin(h, "pause", "alice", channel_id))
    assert paused.public and "paused the game" in paused.text
    table = await table_of(h, channel_id)
    assert table.meta[pol.PAUSED] == adm.ADMIN and h.bot.engine.clocks(table) == {}
    again = reply(await gameadmin(h, "pause", "mod", channel_id))
    assert again.ephemeral and "already paused" in again.text
    resumed = reply(await gameadmin(h, "resume", "mod", channel_id))
    assert resumed.public and "resumed" in resumed.text
    assert h.bot.engine.clocks(await table_of(h, channel_id)) != {}


async def test_extend_needs_manage_server_and_moves_the_clock(harness: Harness) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"], options="turn_minutes=10")
    before = h.bot.engine.clocks(await table_of(h, channel_id))
    refused = reply(await gameadmin(h, "extend", "alice", channel_id, hours=2))
    assert refused.ephemeral and "Manage Server" in refused.text
    done = reply(await gameadmin(h, "extend", "mod", channel_id, hours=2))
    assert done.public and "2 more hours" in done.text
    after = h.bot.engine.clocks(await table_of(h, channel_id))
    assert {s: (after[s] - due).total_seconds() for s, due in before.items()} == {s: 7200.0 for s in before}


async def test_a_substitute_takes_the_seat_and_is_pinged(harness: Harness) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"])
    refused = reply(await gameadmin(h, "substitute", "alice", channel_id, seat=2, member="dave"))
    assert refused.ephemeral and "Manage Server" in refused.text
    seated = reply(await gameadmin(h, "substitute", "mod", channel_id, seat=2, member="alice"))
    assert seated.ephemeral and "already plays" in seated.text
    done = reply(await gameadmin(h, "substitute", "mod", channel_id, seat=2, member="dave"))
    assert done.public and f"<@{USERS['dave']}>" in done.text and done.pinged == [USERS["dave"]]
    table = await table_of(h, channel_id)
    assert table.seats[1].user_id == USERS["dave"] and table.seat_of(USERS["bob"]) is None


async def test_a_seat_handed_to_a_bot_is_announced_and_played_by_it(harness: Harness) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"])
    table = await table_of(h, channel_id)
    seat = next(iter(table.to_move()))
    out = await gameadmin(h, "bot", "mod", channel_id, seat=seat + 1)
    assert "handed seat" in reply(out).text and reply(out).public
    table = await table_of(h, channel_id)
    assert table.seats[seat].bot and seat not in table.to_move(), "the bot played its turn at once"
    assert len(h.public(out)) > 1, "and its move is posted"


async def test_adjudicating_closes_the_game_and_tells_every_player(harness: Harness) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"])
    table = await table_of(h, channel_id)
    refused = reply(await gameadmin(h, "adjudicate", "bob", channel_id))
    assert refused.ephemeral
    out = await gameadmin(h, "adjudicate", "mod", channel_id)
    told = [s for s in h.public(out) if "adjudicated" in s.text]
    assert len(told) == 1 and sorted(told[0].pinged) == sorted([USERS["alice"], USERS["bob"]])
    assert "without a winner" in told[0].text
    closed = await h.bot.engine.get(table.id)
    assert closed.status == "aborted" and closed.meta["closed"] == "adjudicated"
    after = reply(await gameadmin(h, "adjudicate", "mod", channel_id))
    assert after.ephemeral, "no game here any more: a private refusal"


async def test_an_abandoned_game_is_closed_and_its_players_told(harness: Harness, clock: Any) -> None:
    h = harness
    await h.slash("serverdefaults", "mod", abandon_days=7)
    channel_id = await start_table(h, joiners=["bob"])
    table = await table_of(h, channel_id)
    start = len(h.sent)
    clock.advance(days=8)
    await h.bot.engine.run_due()
    await h.settle()
    posted = h.public(h.sent[start:])
    summaries = [s for s in posted if "replay:open:" in " ".join(s.custom_ids())]  # cogs/utils/summary.py
    told = [s for s in posted if "abandoned" in s.text and s not in summaries]
    assert len(told) == 1 and sorted(told[0].pinged) == sorted([USERS["alice"], USERS["bob"]])
    assert len(summaries) == 1 and "closed as abandoned" in summaries[0].text
    assert (await h.bot.engine.get(table.id)).meta["closed"] == "abandoned"


async def test_serverdefaults_needs_manage_server_and_sets_new_lobbies(harness: Harness) -> None:
    h = harness
    refused = reply(await h.slash("serverdefaults", "alice", lobby_minutes=90))
    assert refused.ephemeral and "Manage Server" in refused.text
    bad = reply(await h.slash("serverdefaults", "mod", days=4))
    assert bad.ephemeral and "0, 1, 2, 3, 5, 7, 10, 14" in bad.text
    out = reply(await h.slash("serverdefaults", "mod", lobby_minutes=90, days=3, vacation_days=12))
    assert out.public and "90 minutes" in out.text and "3 days per move" in out.text and "12 days" in out.text
    channel_id, lobby = await open_table(h)
    assert "90" in h.current(lobby).embeds[0]["footer"]["text"]
    assert pol.settings_of((await table_of(h, channel_id)).meta).days == 3
    assert await h.bot.engine.guild_setting(GUILD_ID, "vacation_days") == 12
    shown = reply(await h.slash("serverdefaults", "mod"))
    assert "defaults" in shown.text and "90 minutes" in shown.text


async def test_serverdefaults_takes_a_named_time_control_in_place_of_days(harness: Harness) -> None:
    h = harness
    bad = reply(await h.slash("serverdefaults", "mod", time="4d"))
    assert bad.ephemeral and "bank-short" in bad.text
    await h.slash("serverdefaults", "mod", days=3)
    out = reply(await h.slash("serverdefaults", "mod", time="bank"))
    assert out.public and "time=bank" in out.text and "days per move" not in out.text
    channel_id, _ = await open_table(h)
    settings = pol.settings_of((await table_of(h, channel_id)).meta)
    assert (settings.days, settings.bank_days, settings.bonus_hours) == (0, 10, 36)
    out = reply(await h.slash("serverdefaults", "mod", days=5))
    assert "5 days per move" in out.text and await h.bot.engine.guild_setting(GUILD_ID, "time") is None
