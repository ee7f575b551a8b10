"""After a restart, a timeout that fell due while the bot was down is fired by the first scheduler pass while the
restart's resume (posting what a crash left unposted) runs beside it: the board of those moves is posted once.

Found by the two-process end-to-end test (tests/e2e/test_e2e_two_processes.py, issue 26): the resume saw the
timed-out game as unposted and posted its board, then the timeout's own notice posted the same board again.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Notice
from tests.conftest import FakeClock
from tests.discord_harness import Harness, start_table


def boards(sent: list[Any], channel_id: int) -> list[str]:
    """The board images posted in the channel, by name (named by the number of moves they show)."""
    return [name for s in sent if s.channel_id == channel_id for name, _ in s.files
            if name.endswith((".png", ".webp"))]


async def test_a_timeout_fired_at_start_is_posted_once_when_the_restart_resume_runs_first(
        harness: Harness, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    channel_id = await start_table(harness, bots=2, options="cards=none turn_minutes=10")
    bot, lobby = harness.bot, harness.bot.get_cog("Lobby")
    held: list[Notice] = []
    dispatch = bot.dispatch

    def hold_notices(event: str, *args: Any, **kwargs: Any) -> None:
        if event == "floorboard_notice":  # the timeout's notice reaches the cog late (it is still drawing, say)
            held.extend(args)
            return
        dispatch(event, *args, **kwargs)

    start = len(harness.sent)
    clock.advance(minutes=11)
    monkeypatch.setattr(bot, "dispatch", hold_notices)
    await bot.engine.run_due()  # alice times out, the bots play after her: saved, not yet posted
    monkeypatch.setattr(bot, "dispatch", dispatch)
    (timeout,) = [n for n in held if n.kind == "timeout"]  # (the reminder and last warning before it: no board)

    lobby.resumed = False  # the restarted process's first READY: it resumes what looks unposted ...
    await lobby.on_ready()
    await lobby.on_floorboard_notice(timeout)  # ... and then the timeout's notice gets its turn
    await harness.settle()
    shown = boards(harness.sent[start:], channel_id)
    assert len(shown) == 1, f"the timeout's board posted {len(shown)} times: {shown}"
