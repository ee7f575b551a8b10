"""A restarted process of a sharded cluster resumes only the games of servers on its own gateway shards (issue 26:
"a process only posts to channels of guilds on its shards"). The others' games are theirs: another process posting
their unposted boards would double them, and touching their running duels would restart clocks that never paused.

Found reviewing the cluster benchmark: the start-up resumes (the lobby's unposted boards, The Floor's paused duels)
went over every running game in the database, whichever process held its server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import Notice
from storage.rows import Shards
from tests.cogs.test_discord_restart_resume_race import boards
from tests.cogs.test_discord_the_floor import restarted_after_saving_a_move
from tests.conftest import FakeClock
from tests.discord_harness import GUILD_ID, ErrorLog, Harness, start_table


def not_owning() -> Shards:
    """Two shards, this process holding the one the test server is not on."""
    mine = Shards(2, (0, 1)).of(GUILD_ID)
    return Shards(2, (1 - mine,))


async def test_the_restart_resume_posts_no_board_of_a_server_on_another_processes_shard(
        harness: Harness, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    channel_id = await start_table(harness, bots=2, options="cards=none turn_minutes=10")
    bot, lobby = harness.bot, harness.bot.get_cog("Lobby")
    dispatch = bot.dispatch
    held: list[Notice] = []

    def hold_notices(event: str, *args: Any, **kwargs: Any) -> None:
        if event == "floorboard_notice":  # the process stops before posting what the timeout did
            held.extend(args)
            return
        dispatch(event, *args, **kwargs)

    clock.advance(minutes=11)
    monkeypatch.setattr(bot, "dispatch", hold_notices)
    await bot.engine.run_due()  # saved, not posted
    monkeypatch.setattr(bot, "dispatch", dispatch)

    start = len(harness.sent)
    bot.engine.scheduler.shards = not_owning()
    lobby.resumed = False
    await lobby.on_ready()
    await harness.settle()
    assert boards(harness.sent[start:], channel_id) == [], "another process's server: not this one's to post"

    bot.engine.scheduler.shards = Shards(2, (0, 1))  # the process that holds the server resumes it, once
    lobby.resumed = False
    await lobby.on_ready()
    await harness.settle()
    assert len(boards(harness.sent[start:], channel_id)) == 1


async def test_the_floors_restart_resume_leaves_games_of_another_processes_shard_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog) -> None:
    new = await restarted_after_saving_a_move(tmp_path, monkeypatch, clock)
    try:
        cog = new.bot.get_cog("TheFloor")
        new.bot.engine.scheduler.shards = not_owning()
        assert await cog.open_tables() == []
        await cog.resume()
        await new.settle()
        assert not [p for p in new.public() if "back" in (p.content or "")]

        new.bot.engine.scheduler.shards = Shards(2, (0, 1))
        await cog.resume()
        await new.settle()
        assert len([p for p in new.public() if "back" in (p.content or "")]) == 1
    finally:
        await new.close()
