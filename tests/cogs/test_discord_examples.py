"""Every example a player is shown is a move the rules accept in the current position."""

from __future__ import annotations

import re

from tests.discord_harness import Harness, open_table, table_of


async def test_hand_in_the_draft_suggests_a_keep_within_the_price_limit_of_this_hand(harness: Harness) -> None:
    channel_id, lobby = await open_table(harness, "alice", bots=2)
    await harness.click(lobby, "Start", "alice")
    reply = (await harness.slash("hand", "alice", channel_id))[-1]
    assert reply.ephemeral
    example = re.search(r"`/move (keep [^`]+)`", reply.text)
    assert example is not None, reply.text
    table = await table_of(harness, channel_id)
    assert example.group(1) in table.rules.legal_actions(table.state, 0)
    await harness.slash("move", "alice", channel_id, action=example.group(1))
    table = await table_of(harness, channel_id)
    assert table.state.drafted[0], "the suggested keep was accepted"
