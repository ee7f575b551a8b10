"""The Floor's judging through the real discord.py code paths (issue 10): a duellist's Valid / Not valid click
is refused privately and never counted, a duelling host hands judging to the neutral players, with nobody
neutral a doubtful answer stands and no Dispute is offered, and a rejected answer typed again is refused at
once without stopping the clock."""

from __future__ import annotations

from typing import Any

from tests.cogs.conftest import DiscordTime
from tests.cogs.test_discord_the_floor import letters, listed_answer, open_floor, runner, start_duel
from tests.discord_harness import USERS, Harness, table_of


def unknown(table: object) -> str:
    """An answer on the running letter that is on no list."""
    return f"{table.state.duel.letter}zzqx"  # type: ignore[attr-defined]


async def test_a_duellists_vote_is_refused_privately_and_the_neutral_player_decides(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    judge = next(u for u in ("alice", "bob", "carol") if u not in (chal, defender))
    await h.say(unknown(await table_of(h, channel_id)), chal, channel_id)
    vote = h.with_button(":accept:")
    assert vote.pinged == [USERS[judge]], "only the player outside the duel is called to judge"
    before = (await table_of(h, channel_id)).version
    for duellist in (chal, defender):
        refused = await h.click(vote, ":reject:", duellist)
        assert len(refused) == 1 and refused[0].ephemeral, "refused privately"
        assert "you are in this duel" in refused[0].text.lower()
        table = await table_of(h, channel_id)
        assert table.version == before and table.state.duel.votes == ()
    await h.click(vote, ":accept:", judge)
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.log[-1][2] == "judged"


async def test_host_mode_a_duelling_host_hands_judging_to_the_player_outside_the_duel(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="judging=host clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    assert "alice" in (chal, defender), "the host's side challenges first"
    table = await table_of(h, channel_id)
    while runner(table) == "alice":  # let the host's rival give the doubtful answer
        discord_time.advance(500)
        await h.say(listed_answer(table), "alice", channel_id)
        table = await table_of(h, channel_id)
    await h.say(unknown(table), runner(table), channel_id)
    table = await table_of(h, channel_id)
    neutral = next(u for u in ("bob", "carol") if u not in (chal, defender))
    assert table.state.duel.judging and table.rules.judge_seats(table.state) == [table.seat_of(USERS[neutral])]
    vote = h.with_button(":accept:")
    refused = await h.click(vote, "Not valid", "alice")
    assert refused[-1].ephemeral and "you are in this duel" in refused[-1].text.lower()
    await h.click(vote, "Not valid", neutral)
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.log[-1][2] == "rejected"


async def test_with_two_players_a_doubtful_answer_stands_and_no_dispute_is_offered(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, options="judging=trust clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    discord_time.advance(1000)
    out = await h.say(unknown(await table_of(h, channel_id)), chal, channel_id)
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.log[-1][2] == "trusted" and table.state.duel.active == 1
    assert not any(":dispute:" in cid for cid in letters(out)[-1].custom_ids()), "nobody could judge a dispute"
    replies = await h.say("dispute", defender, channel_id)
    assert any("nobody outside the duel" in s.text.lower() for s in replies)
    assert (await table_of(h, channel_id)).version == table.version


async def test_a_rejected_answer_typed_again_is_refused_without_stopping_the_clock(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    judge = next(u for u in ("alice", "bob", "carol") if u not in (chal, defender))
    answer = unknown(await table_of(h, channel_id))
    await h.say(answer, chal, channel_id)
    await h.click(h.with_button(":accept:"), ":reject:", judge)
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.active == 0
    discord_time.advance(800)
    replies = await h.say(answer, chal, channel_id)
    assert any("already ruled" in s.text for s in replies)
    after = await table_of(h, channel_id)
    assert after.version == table.version and not after.state.duel.judging, "no second vote, the clock runs"


async def test_a_vote_cast_does_not_push_the_vote_deadline_back(harness: Harness, discord_time: DiscordTime,
                                                                  clock: Any) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol", "dave"), options="clock=30 vote_seconds=30")
    chal, defender, _ = await start_duel(h, channel_id)
    judges = [u for u in ("alice", "bob", "carol", "dave") if u not in (chal, defender)]
    await h.say(unknown(await table_of(h, channel_id)), chal, channel_id)
    table = await table_of(h, channel_id)
    due = await h.bot.engine.timer_due(table.id)
    assert due is not None and table.state.duel.judging
    clock.advance(seconds=20)
    await h.click(h.with_button(":accept:"), ":reject:", judges[0])  # one of two: the other can still tie
    table = await table_of(h, channel_id)
    assert table.state.duel.judging and table.state.duel.votes
    assert await h.bot.engine.timer_due(table.id) == due, "the deadline stays where it was"
