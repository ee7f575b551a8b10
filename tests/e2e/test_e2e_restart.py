"""SIGKILL the bot in the middle of a game and start it again on the same database: the game goes on, buttons
of messages sent before the kill still work, nothing is lost or doubled."""

from __future__ import annotations

import pytest

from tests.e2e.discord_double import DiscordDouble
from tests.e2e.driver import HUMAN_SEAT, Launch, Table, TableRow, read_actions

pytestmark = pytest.mark.e2e


async def test_after_a_sigkill_the_game_and_its_old_buttons_go_on(table: Table, double: DiscordDouble,
                                                                  launch: Launch) -> None:
    await table.open()
    for door in ("typed", "slash", "prefix"):
        await table.move(door)
    board = double.with_button("Pass", table.thread_id)  # the latest board, posted by the first process
    assert board is not None
    first = table.bot

    await first.kill()
    table.bot = await launch()
    assert double.syncs == 1, "the restarted bot did not sync unchanged commands again"
    assert len(double.identifies) == 2, "a new process starts a new gateway session"

    await table.move("button", board=board)  # a click on a message from before the kill
    await table.play()
    actions = table.check_actions()
    table.check_boards(actions)
    final = await table.check_result()
    assert len(table.status_messages()) == 1, "the status message survived the restart"

    second = table.bot
    await second.kill()
    table.bot = await launch()
    click = await table.answered(double.click(final, "Rematch"))  # the result message of the killed process
    # Answered first (a defer), then the lobby opened, its bots seated one write each, and its message sent: the
    # lobby is read once that message is there, not between its writes.
    await table.bot.wait(lambda: click.followups, "the rematch's lobby message")

    def new_lobby() -> TableRow | None:
        row = table.row()  # the thread's latest table
        return row if row is not None and row.status == "lobby" else None

    rematch = await table.bot.wait(new_lobby, "a new lobby from Rematch")
    assert len(rematch.seats) == 3 and [s.get("bot", False) for s in rematch.seats] == [False, True, True]
    assert double.problems() == []
    for bot in (first, second, table.bot):
        assert bot.errors() == []


async def test_a_move_saved_but_not_yet_posted_when_killed_is_finished_after_restart(
        table: Table, double: DiscordDouble, launch: Launch) -> None:
    await table.open()
    await table.move("typed")
    row = table.row()
    assert row is not None
    stall = double.stall_next("post_message")  # Discord sits on the move's board post ...
    move = table.send(table.choose("typed"), "typed")
    table.moves.append(move)
    await table.bot.wait(lambda: stall.arrived.is_set(), "the bot to post the board of alice's move")
    saved = [a for a in read_actions(table.db, row.id) if a.source == "player"]
    assert saved[-1].interaction_id == move.source_id, "the move is saved before it is posted"
    await table.bot.kill()  # ... while the bot dies
    stall.release()
    marker = len(double.sent)

    table.bot = await launch()
    continued = await table.bot.poll(lambda: table.answered_since(marker, row.moves + 1), timeout=3)
    after = table.row()
    assert after is not None
    assert continued, (f"after the restart nobody plays seat(s) {sorted(after.to_move())}: the game is stuck "
                       f"at move {after.moves} (alice is seat {HUMAN_SEAT})")
    table.check_boards(table.check_actions())
