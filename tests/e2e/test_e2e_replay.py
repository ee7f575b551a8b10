"""A replay through the real bot process and the Discord double: two moves of a flying_blades game, /replay in
its thread, Next and the jump select step the replay's message, and the commands carry /replay."""

from __future__ import annotations

import pytest

from tests.e2e.discord_double import DiscordDouble
from tests.e2e.driver import Table

pytestmark = pytest.mark.e2e


async def test_replay_steps_through_a_running_game(table: Table, double: DiscordDouble) -> None:
    assert "replay" in set(double.command_names())
    await table.open(bots=1)
    await table.move("slash")
    await table.move("slash")
    await table.answered(double.slash("replay", "carol", table.thread_id))
    message = await table.bot.wait(lambda: double.with_button("replay:next:", table.thread_id),
                                   "the replay's message")
    assert "move 0 of" in message.text and message.attachments
    await table.answered(double.click(message, "replay:next:", "carol"))
    await table.bot.wait(lambda: "move 1 of" in double.messages[message.id].text, "the replay at move 1")
    await table.answered(double.select(double.messages[message.id], ["2"], "carol"))
    await table.bot.wait(lambda: "move 2 of" in double.messages[message.id].text, "the replay at move 2")
    assert double.problems() == []
    assert table.bot.errors() == []
