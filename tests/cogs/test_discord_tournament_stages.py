"""Multi-stage events in Discord: ``/tournament create`` refuses a stage plan that cannot be played, privately and
before anything is posted; after the Swiss the channel is told who advanced, by seed (pinged), with the playoff's
bracket, and the playoff is paired without the organiser; a drawn elimination game's deciding game is posted like a
round's game."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cogs.test_discord_tournaments import GENERAL, entered, finish_game, name_of, only, reply, settle, tour
from tests.discord_harness import GUILD_ID, Harness


@pytest.mark.parametrize(("options", "words"), [
    ({"format": "round-robin", "top_cut": 4}, "top cut follows a Swiss"),
    ({"format": "swiss", "groups": 2}, "Groups are round-robin pools"),
    ({"format": "swiss", "top_cut": 8, "max_players": 6}, "larger than the field of 6"),
    ({"format": "round-robin", "groups": 3, "max_players": 8}, "at least 3 players each"),
])
async def test_a_stage_plan_that_cannot_be_played_is_refused_privately(harness: Harness, options: dict,
                                                                       words: str) -> None:
    refused = reply(await tour(harness, "create", "mod", name="Cup", game="flying_blades", **options))
    assert refused.ephemeral and words in refused.text and len(refused.text.splitlines()) == 1
    assert await harness.bot.engine.store.tournaments_in_guild(GUILD_ID, ("registration",)) == []


async def test_after_the_swiss_the_cut_is_announced_with_seeds_and_bracket_and_the_playoff_is_paired(
        harness: Harness) -> None:
    h = harness
    _, announcement = await entered(h, "swiss", ("alice", "bob", "carol", "dave"), rounds=1, top_cut=4)
    assert "Top 4 · Single elimination · third-place match" in announcement.text, "the plan is announced"
    await tour(h, "start", "mod")
    _, value = await only(h)
    assert value.settings.top_cut == 4 and value.settings.third_place is None
    start = len(h.sent)
    for table in value.current.tables:  # the first seat wins each Swiss game
        await finish_game(h, table.game_id, name_of(table.seats[1]))
    _, value = await only(h)
    seeds = value.stages[1].seeds
    posted = [s for s in h.public(h.sent[start:]) if s.channel_id == GENERAL]
    (cut,) = [s for s in posted if "Through to the playoff" in s.text]
    assert "Swiss stage" in cut.text and set(cut.pinged) == {int(p) for p in seeds}
    assert [line.split(". ", 1)[1] for line in cut.text.splitlines()[1:]] == [f"<@{p}>" for p in seeds]
    after = posted[posted.index(cut) + 1:]
    assert after and after[0].pngs(), "the playoff's bracket follows the seeds"
    assert value.current.number == 2 and {frozenset(t.seats) for t in value.current.tables} == {
        frozenset((seeds[0], seeds[3])), frozenset((seeds[1], seeds[2]))}, "1 v 4 and 2 v 3"
    assert any("round 2" in s.text for s in after), "the semi-finals are paired without the organiser"


async def test_a_deciding_game_after_a_draw_is_posted_to_the_channel_and_started_in_its_thread(
        harness: Harness, clock: Any) -> None:
    """Before: the deciding game's thread was made but never announced: no link, no ping, no status message."""
    h = harness
    await entered(h, "single-elimination", ("alice", "bob"), round_hours=24)
    await tour(h, "start", "mod")
    start = len(h.sent)
    clock.advance(hours=25)  # nobody moved: adjudicated level, a draw, replayed with seats swapped
    await h.bot.engine.run_due()
    await settle(h)
    _, value = await only(h)
    table = value.current.tables[0]
    assert value.current.extra.get("replays") and table.game_id is not None and not table.decided
    game = await h.bot.engine.get(table.game_id)
    posted = [s for s in h.public(h.sent[start:]) if s.channel_id == GENERAL]
    (line,) = [s for s in posted if "deciding game" in s.text]
    assert f"https://discord.com/channels/{GUILD_ID}/{game.channel_id}" in line.text
    assert set(line.pinged) == {int(p) for p in table.seats}
    assert game.meta.get("status_message_id"), "its status message is posted in its thread"
    assert any(s.channel_id == game.channel_id for s in h.sent[start:])
