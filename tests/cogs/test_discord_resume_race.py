"""A restart's resume and a live move of the same game must not both post its board (issue 26's cluster benchmark
saw one final board posted twice). After a restart, `Lobby.on_ready` lists the games whose posts lagged their moves
and resumes them one by one; meanwhile players already move in those games. When a live move has been applied but
not yet posted (its bots thinking, its image drawing) as the resume reaches the game, the resume sees moves past the
announced count and posts them, and the live move then posts the same board again."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_harness import Harness, Sent, start_table, table_of


def board_names(sent: list[Sent], channel_id: int) -> list[str]:
    return [name for s in sent if s.public and s.channel_id == channel_id and s.kind != "edit"
            for name, _ in s.files if name.endswith((".png", ".webp"))]


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
    names = board_names(harness.sent, channel_id)
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
    names = board_names(harness.sent, channel_id)
    assert shown(names) == sorted(set(shown(names))), f"a board posted twice: {names}"
    assert f"-{resumed[0]}." in names[-1], names[-1:]
    assert harness.with_button("Rematch") is not None, "the result is posted with its buttons"
