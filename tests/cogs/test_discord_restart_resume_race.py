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
from tests.discord_harness import Harness, start_table, table_of


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


def public_boards(sent: list[Any], channel_id: int) -> list[str]:
    """`boards` of the public posts (not the edits that only take buttons away)."""
    return boards([s for s in sent if s.public and s.kind != "edit"], channel_id)


def shown(names: list[str]) -> list[int]:
    """The moves count each board shows (boards are named game-table-moves)."""
    return [int(n.rsplit("-", 1)[1].partition(".")[0]) for n in names]


@pytest.fixture
def resume_mid_move(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Runs the restart's resume of the game in the middle of the next live move, after its bots have played and
    before its board is posted (the interleaving the benchmark hit). Returns the moves counts it resumed at."""
    engine, lobby = harness.bot.engine, harness.bot.get_cog("Lobby")
    real = engine.play_bots
    resumed: list[int] = []

    async def bots_then_resume(table_id: int) -> Any:
        results = await real(table_id)
        moves = (await engine.get(table_id)).moves
        if results and not resumed:  # a player's move and the bots' replies, not the start
            resumed.append(moves)
            async with lobby.posting(table_id):
                await lobby.resume_one(table_id)
        return results

    monkeypatch.setattr(engine, "play_bots", bots_then_resume)
    return resumed


async def test_a_board_is_posted_once_when_a_restarts_resume_meets_a_live_move(
        harness: Harness, resume_mid_move: list[int]) -> None:
    channel_id = await start_table(harness, bots=2, options="cards=none")
    table = await table_of(harness, channel_id)
    out = await harness.slash("move", "alice", channel_id, action="pass")
    names = public_boards(harness.sent, channel_id)
    assert any(s.kind in ("followup", "message") and "Alice passes" in s.text and not s.files for s in out), \
        "the move's own answer says it in words"
    assert resume_mid_move, "the resume ran inside the move"
    assert names and shown(names) == sorted(set(shown(names))), f"a board posted twice: {names}"
    latest = await table_of(harness, channel_id)
    assert latest.moves > table.moves and any(f"-{latest.moves}." in n for n in names), \
        f"the board of the move ({latest.moves} moves) was not posted: {names}"
    live = harness.with_button("Pass")
    assert live is not None, "the board that was posted keeps the live buttons"


async def test_a_final_board_is_posted_once_when_a_restarts_resume_meets_the_last_move(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    channel_id = await start_table(harness, bots=2, options="cards=none")
    engine, lobby = harness.bot.engine, harness.bot.get_cog("Lobby")
    real = engine.play_bots
    resumed: list[int] = []

    async def bots_then_resume(table_id: int) -> Any:
        results = await real(table_id)
        table = await engine.get(table_id)
        if table.status == "finished" and not resumed:
            resumed.append(table.moves)
            async with lobby.posting(table_id):
                await lobby.resume_one(table_id)
        return results

    monkeypatch.setattr(engine, "play_bots", bots_then_resume)
    for _ in range(200):
        table = await table_of(harness, channel_id) if not resumed else None
        if table is None or table.status != "active":
            break
        await harness.slash("move", "alice", channel_id, action="pass")
    assert resumed, "the game ended on a bot's move, with the resume inside it"
    names = public_boards(harness.sent, channel_id)
    assert shown(names) == sorted(set(shown(names))), f"a board posted twice: {names}"
    assert f"-{resumed[0]}." in names[-1], names[-1:]
    assert harness.with_button("Rematch") is not None, "the result is posted with its buttons"
