"""Every game replays through ``/replay``'s captions: each step is said in the game's own words (its surface's
move line), a secret choice as a secret while the game runs, and nothing a seat's private view holds."""

from __future__ import annotations

import logging

import pytest

from rules import GAMES
from tests.discord_harness import Harness, table_of

MOVES = 24  # actions played per game (bots' choices, through the engine)


async def started(harness: Harness, game: str) -> int:
    await harness.slash("play", "alice", game=game)
    lobby = harness.with_button(":lobby:join:")
    await harness.click(lobby, ":lobby:join:", "bob")
    await harness.click(lobby, ":lobby:start:", "alice")
    return lobby.channel_id


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_step_of_every_game_has_a_caption_in_the_games_words(
        harness: Harness, game: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="cogs.replay")
    channel = await started(harness, game)
    engine = harness.bot.engine
    for _ in range(MOVES):
        table = await table_of(harness, channel) if await engine.table_in_channel(channel) else None
        if table is None or not table.to_move():
            break
        seat = min(table.to_move())
        await engine.act(table.id, table.seats[seat].user_id, table.rules.bot_action(table.state, seat))
    table = await engine.get((await engine.last_closed_table_in_channel(channel) or table).id)
    cog = harness.bot.get_cog("Replays")
    replay = await cog.replay_of(table)
    assert len(replay) > 1
    for k in range(len(replay)):
        step = replay.step(k, "en")
        caption = cog.caption(table, replay, step, "en")
        assert caption and "harness-seed" not in caption
        for seat in range(len(table.seats)):
            hand = replay.rules.view(replay.state(k), seat).get("hand")
            if hand and table.status == "active":
                assert repr(hand) not in caption
    assert not [r.getMessage() for r in caplog.records], "a step was said plainly, not in the game's words"


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_games_record_loads_back_and_replays_to_its_final_state(harness: Harness, game: str) -> None:
    """DESIGN.md: "`new(seed) + the logged actions` must reproduce the state exactly" — through /record's text."""
    from engine.log import digest
    from engine.replays import load_record

    channel = await started(harness, game)
    engine = harness.bot.engine
    table = await table_of(harness, channel)
    for _ in range(MOVES // 2):
        table = await engine.get(table.id)
        if not table.to_move():
            break
        seat = min(table.to_move())
        await engine.act(table.id, table.seats[seat].user_id, table.rules.bot_action(table.state, seat))
    if (await engine.get(table.id)).status == "active":
        await engine.abort(table.id, table.host_id, is_admin=True)
    table = await engine.get(table.id)
    text = await engine.record(table.id)
    replay = load_record(text, GAMES)
    assert digest(replay.rules, replay.final()) == digest(table.rules, table.state)
