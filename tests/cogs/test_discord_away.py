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
