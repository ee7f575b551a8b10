"""A whole flying_blades game through the real bot process and the Discord double: /play, Add bot ×2, Start,
alice's moves by every door, the result."""

from __future__ import annotations

import pytest

from tests.e2e.discord_double import DiscordDouble
from tests.e2e.driver import DOORS, MESSAGE_CONTENT_INTENT, Table

pytestmark = pytest.mark.e2e


async def test_a_whole_game_from_play_to_the_result(table: Table, double: DiscordDouble) -> None:
    # Start-up: logged in, commands synced once with ids, one IDENTIFY asking for message content.
    assert double.syncs == 1 and {"play", "move"} <= set(double.command_names())
    assert len(double.identifies) == 1 and double.identifies[0]["intents"] & MESSAGE_CONTENT_INTENT

    await table.open()
    opened = [s for s in double.sent if s.channel_id == double.channel_id and s.kind == "followup"]
    assert opened and f"<#{table.thread_id}>" in opened[0].text, "the /play answer links the game's thread"
    await table.play()

    assert {m.door for m in table.moves} == set(DOORS), "typed, !move, /move and the Pass button all played"
    actions = table.check_actions()
    table.check_boards(actions)
    await table.check_result()
    assert len(table.status_messages()) == 1, "one status message, edited, never re-posted"
    assert double.heartbeats >= 1
    assert double.problems() == []
    assert table.bot.errors() == []
