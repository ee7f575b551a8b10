"""Queue → matched table → Ready → the game, through the real bot process and the Discord double (issue 27):
alice and bob queue for flying_blades, the bot opens a thread pinging both, both press Ready, the first board."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.discord_double import DiscordDouble, Interaction
from tests.e2e.driver import Table, read_table

pytestmark = pytest.mark.e2e


def queue_join(double: DiscordDouble, user: str, **options: Any) -> Interaction:
    """``/queue join …`` as a client sends a subcommand: the group's id and name, the subcommand as its option."""
    cmd = double.command("queue", double.guild_of(double.channel_id))
    join = next(o for o in cmd["options"] if o["name"] == "join")
    types = {o["name"]: o["type"] for o in join.get("options", [])}
    opts = [{"name": k, "type": types[k], "value": v} for k, v in options.items()]
    data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1,
                            "options": [{"name": "join", "type": 1, "options": opts}]}
    if cmd.get("guild_id"):
        data["guild_id"] = cmd["guild_id"]
    return double.interact(2, data, user, double.channel_id)


async def test_two_queued_players_are_seated_and_their_game_starts_when_both_are_ready(
        table: Table, double: DiscordDouble) -> None:
    assert {"queue", "challenge"} <= set(double.command_names())
    await table.answered(queue_join(double, "alice", game="flying_blades"))
    await table.answered(queue_join(double, "bob", game="flying_blades"))
    ready = await table.bot.wait(lambda: double.with_button("queue:ready:"), "the matched table's Ready")
    table.thread_id = ready.channel_id
    assert double.channels[ready.channel_id]["parent_id"] == str(double.channel_id)
    row = read_table(table.db, ready.channel_id)
    assert row is not None and row.status == "lobby" and len(row.seats) == 2
    await table.answered(double.click(ready, "queue:ready:", "alice"))
    await table.answered(double.click(double.messages[ready.id], "queue:ready:", "bob"))
    await table.bot.wait(lambda: (read_table(table.db, ready.channel_id) or row).status == "active",
                         "the game started")
    await table.bot.wait(lambda: double.public_pngs(ready.channel_id), "the first board")
    assert double.problems() == []
    assert table.bot.errors() == []
