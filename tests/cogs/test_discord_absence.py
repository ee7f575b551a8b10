"""Absence in Discord: a server's default timeout policy (/timeouts), a lobby's own (`on_timeout=`), and what the
thread is told when a policy does more than skip: a stand-in bot, a forfeit, a pause because everyone is away."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from engine import policies as pol
from tests.discord_harness import USERS, Harness, start_table, table_of


async def time_runs_out(h: Harness, clock: Any) -> list:
    start = len(h.sent)
    clock.advance(minutes=11)
    await h.bot.engine.run_due()
    await h.settle()
    return h.public(h.sent[start:])


async def test_timeouts_sets_the_servers_default_policy_for_new_lobbies(harness: Harness) -> None:
    h = harness
    refused = await h.slash("timeouts", "alice", policy="bot")
    assert refused[-1].ephemeral and "Manage Server" in refused[-1].text
    out = await h.slash("timeouts", "mod", policy="bot")
    assert "a bot plays their seat" in out[-1].text
    channel_id = await start_table(h, joiners=["bob"])
    assert pol.settings_of((await table_of(h, channel_id)).meta).on_timeout == "bot"


async def test_a_bad_timeout_option_is_refused_in_the_lobby_with_the_choices(harness: Harness) -> None:
    out = await harness.slash("play", "alice", game="flying_blades", options="on_timeout=nap")
    assert out[-1].ephemeral and "skip, bot, forfeit" in out[-1].text


async def test_everyone_away_pauses_the_game_and_pings_its_players_once(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"], options="turn_minutes=10")
    first = await time_runs_out(h, clock)
    assert not any("paused" in s.text for s in first), "one player away: the game goes on"
    second = await time_runs_out(h, clock)
    paused = [s for s in second if "paused" in s.text]
    assert len(paused) == 1 and sorted(paused[0].pinged) == sorted([USERS["alice"], USERS["bob"]])
    assert await time_runs_out(h, clock) == [], "no clock runs while the game is paused"
    table = await table_of(h, channel_id)
    assert table.status == "active" and table.meta[pol.PAUSED]


async def test_a_forfeit_is_announced_and_ends_a_two_player_game(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob"], options="turn_minutes=10 on_timeout=forfeit forfeit_after=1")
    table = await table_of(h, channel_id)
    posts = await time_runs_out(h, clock)
    assert any("forfeits the game" in s.text for s in posts)
    assert (await h.bot.engine.get(table.id)).status == "finished"


async def test_a_stand_in_is_announced_and_plays_until_its_owner_moves(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id = await start_table(h, joiners=["bob", "carol"], options="turn_minutes=10 on_timeout=bot")
    table = await table_of(h, channel_id)
    absent = table.state.current
    posts = await time_runs_out(h, clock)
    assert any("a bot plays their seat" in s.text for s in posts)
    assert (await table_of(h, channel_id)).standins() == {absent}


async def test_the_status_shows_who_is_on_the_clock_as_a_discord_timestamp_and_a_pause(harness: Harness,
                                                                                      clock: Any) -> None:
    from cogs.utils.status import status_message

    h = harness
    channel_id = await start_table(h, joiners=["bob"], options="days=2")
    table = await table_of(h, channel_id)
    (due,) = h.bot.engine.clocks(table).values()
    embed = status_message(h.bot, table, "en")["embed"]
    clock_field = next(f for f in embed.fields if f.name == "Clock")
    assert f"<t:{int(due.timestamp())}:R>" in clock_field.value and due - clock.now == timedelta(days=2)
    for _ in range(2):
        clock.advance(days=2, minutes=1)
        await h.bot.engine.run_due()
        await h.settle()
    table = await table_of(h, channel_id)
    embed = status_message(h.bot, table, "pl")["embed"]
    assert any("Wstrzymana" in f.value for f in embed.fields)


async def test_the_lobby_and_the_status_say_the_clock_and_what_a_missed_turn_does(harness: Harness) -> None:
    from cogs.utils.status import status_message

    h = harness
    await h.slash("play", "alice", game="flying_blades", options="days=3 on_timeout=forfeit forfeit_after=2")
    lobby = h.with_button(":lobby:join:")
    clock_field = next(f for f in lobby.embeds[0]["fields"] if f["name"] == "Clock")
    assert clock_field["value"] == "3 days per move · forfeit after 2 missed turns in a row · ⭐ rated"
    channel_id = await start_table(h, joiners=["bob"], options="bank_days=10 bonus_hours=36")
    embed = status_message(h.bot, await table_of(h, channel_id), "pl")["embed"]
    zegar = next(f for f in embed.fields if f.name == "Zegar")
    assert zegar.value.startswith("bank czasu: 10 d, +36 h za ruch, najwyżej 10 d · opuszczona tura przepada")


async def test_a_bot_that_does_not_choose_in_time_misses_its_turn_and_the_thread_says_so(
        harness: Harness, monkeypatch: Any) -> None:
    """A bot whose choice never comes (a rules bug) is absent, not stuck: its turn is a timeout, said as one, and
    the game goes on for its players."""
    import threading

    import rules

    h = harness
    release = threading.Event()
    fb = rules.GAMES["flying_blades"]
    think = fb.bot_action
    monkeypatch.setattr(fb, "bot_action", lambda s, seat: release.wait(30) or think(s, seat))
    h.bot.engine.bots.think_seconds = 0.1
    try:
        channel_id = await start_table(h, bots=1)
        await h.settle()
        said = "\n".join(s.text for s in h.public(h.sent))
        assert "did not choose cards in time" in said, said[-600:]
        t = await table_of(h, channel_id)
        assert t.status == "active" and t.state.phase == "play"
        log = await h.bot.store.actions(t.id)
        assert [(a.action, a.source) for a in log if a.seat == 1] == [("timeout", "bot")]
    finally:
        release.set()
