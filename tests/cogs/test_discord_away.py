"""/away and /back through Discord: the player's clocks pause in their games on the server, the others are told in
each thread without a ping, refusals are private, and the vacation ends on its own with a line in the thread."""

from __future__ import annotations

from typing import Any

from tests.discord_harness import USERS, Harness, start_table, table_of


async def test_away_pauses_the_players_clocks_and_tells_the_thread(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"], options="days=2")
    table = await table_of(h, channel_id)
    out = await h.slash("away", "alice", channel_id, days=3)
    assert out[-1].ephemeral and "away until" in out[-1].text and "1 game" in out[-1].text
    told = [s for s in h.public(out) if s.channel_id == channel_id]
    assert len(told) == 1 and "is away until" in told[0].text and not told[0].pinged
    assert table.seat_of(USERS["alice"]) not in h.bot.engine.clocks(await table_of(h, channel_id))
    clock.advance(days=3, minutes=1)
    start = len(h.sent)
    await h.bot.engine.run_due()
    await h.settle()
    assert any("vacation is over" in s.text for s in h.public(h.sent[start:]))


async def test_away_refuses_less_than_a_day_and_back_when_not_away(harness: Harness) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"], options="days=2")
    out = await h.slash("away", "alice", channel_id, days=0, hours=5)
    assert out[-1].ephemeral and "at least 24 hours" in out[-1].text
    out = await h.slash("back", "alice", channel_id)
    assert out[-1].ephemeral and "not away" in out[-1].text


async def test_back_restarts_the_clocks_early(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"], options="days=2")
    await h.slash("away", "alice", channel_id, days=5)
    out = await h.slash("back", "alice", channel_id)
    assert out[-1].ephemeral and "Welcome back" in out[-1].text
    assert any("is back" in s.text for s in h.public(out))
    assert h.bot.engine.clocks(await table_of(h, channel_id))


async def test_quiet_hours_keep_a_ping_from_notifying_and_the_clock_runs(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"], options="turn_minutes=60")
    table = await table_of(h, channel_id)
    to_move = table.seats[table.state.current].user_id
    user = next(name for name, uid in USERS.items() if uid == to_move)
    hour = clock.now.hour  # quiet hours around now, in UTC
    out = await h.slash("quiet", user, channel_id, timezone="UTC", start=str(hour), end=str((hour + 2) % 24))
    assert out[-1].ephemeral and "Quiet hours" in out[-1].text
    start = len(h.sent)
    clock.advance(minutes=31)
    await h.bot.engine.run_due()
    await h.settle()
    (reminder,) = h.public(h.sent[start:])
    assert f"<@{to_move}>" in reminder.text and reminder.pinged == [], "named, but nothing buzzes"
    out = await h.slash("quiet", user, channel_id, off=True)
    assert "no quiet hours" in out[-1].text
    clock.advance(minutes=24)  # the last warning: now it notifies
    start = len(h.sent)
    await h.bot.engine.run_due()
    await h.settle()
    (warning,) = h.public(h.sent[start:])
    assert warning.pinged == [to_move]


async def test_a_bad_time_zone_or_half_a_window_is_refused(harness: Harness) -> None:
    h = harness
    out = await h.slash("quiet", "alice", timezone="Mars/Olympus", start="22", end="7")
    assert out[-1].ephemeral and "time zone" in out[-1].text
    out = await h.slash("quiet", "alice", timezone="Europe/Warsaw", start="22")
    assert out[-1].ephemeral and "both hours" in out[-1].text


async def dm_reminder(h: Harness, clock: Any) -> tuple[int, int, list]:
    channel_id = await start_table(h, joiners=["bob"], options="turn_minutes=60")
    table = await table_of(h, channel_id)
    to_move = table.seats[table.state.current].user_id
    user = next(name for name, uid in USERS.items() if uid == to_move)
    out = await h.slash("reminders", user, channel_id, dm=True)
    assert "direct message" in out[-1].text
    start = len(h.sent)
    clock.advance(minutes=31)
    await h.bot.engine.run_due()
    await h.settle()
    return channel_id, to_move, h.sent[start:]


async def test_a_reminder_by_direct_message_does_not_also_ping_the_thread(harness: Harness, clock: Any) -> None:
    channel_id, _, sent = await dm_reminder(harness, clock)
    (dm,) = [s for s in sent if s.channel_id != channel_id and "Reminder" in s.text]
    (thread,) = [s for s in harness.public(sent) if s.channel_id == channel_id]
    assert "discord.com/channels/" in dm.text and thread.pinged == []


async def test_a_refused_direct_message_falls_back_to_the_threads_ping(harness: Harness, clock: Any,
                                                                       monkeypatch: Any) -> None:
    import discord

    async def refuse(*args: Any, **kwargs: Any) -> None:
        raise discord.Forbidden(type("R", (), {"status": 403, "reason": "Forbidden"})(), "Cannot send messages")

    monkeypatch.setattr(discord.User, "send", refuse)
    monkeypatch.setattr(discord.Member, "send", refuse)
    channel_id, to_move, sent = await dm_reminder(harness, clock)
    (thread,) = [s for s in harness.public(sent) if s.channel_id == channel_id]
    assert thread.pinged == [to_move]


async def test_a_damaged_settings_row_leaves_that_player_the_defaults_and_the_rest_loaded(harness: Harness) -> None:
    from engine import players as quiet

    h = harness
    await h.bot.store.set_user_settings(USERS["alice"], {"tz": "UTC", "quiet": [22, 7], "dm": True})
    await h.bot.store._db.execute("INSERT INTO user_settings (user_id, data) VALUES (?, ?)",
                                  (USERS["bob"], "{not json"))
    await h.bot.store._db.commit()
    await h.bot.store.set_user_settings(USERS["carol"], {"tz": "UTC", "quiet": ["x", 7]})
    quiet.load(await h.bot.store.all_user_settings(), h.bot.now)
    assert quiet.REGISTRY[USERS["alice"]].quiet == (22 * 60, 7 * 60) and USERS["bob"] not in quiet.REGISTRY
    assert quiet.REGISTRY[USERS["carol"]].quiet is None
