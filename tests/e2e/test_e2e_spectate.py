"""Spectating through the real bot process and the Discord double (issue 27, docs/spectators.md): carol, who does
not play, presses Spectate on a running game's status message; alice's move is then posted in the game's thread,
which carol was added to (she reads its channel), so she sees every public board; nothing private reaches her (no
DM, no file in her private replies); /unfollow takes her out of the thread."""

from __future__ import annotations

import pytest

from tests.e2e.discord_double import DiscordDouble
from tests.e2e.driver import Table, read_table

pytestmark = pytest.mark.e2e


async def test_a_spectator_follows_a_running_game_through_its_thread_and_unfollow_stops_it(
        table: Table, double: DiscordDouble) -> None:
    await table.open(bots=1)
    carol = double.users["carol"].id
    status = await table.bot.wait(lambda: double.with_button("spectate:", table.thread_id), "the Spectate button")
    spectate = await table.answered(double.click(status, "spectate:", "carol"))
    thread = table.thread_id
    await table.bot.wait(lambda: carol in double.thread_members.get(thread, set()), "carol added to the thread")
    boards = len(double.public_pngs(thread))
    await table.move("slash")
    await table.bot.wait(lambda: len(double.public_pngs(thread)) > boards, "the move's public board")
    assert carol in double.thread_members[thread]  # the thread shows her every board posted for everyone
    dm_channel = carol + 1  # the double's DM channel of a user
    private = [s for s in double.sent if s.channel_id == dm_channel
               or (s.ephemeral and s.interaction_id == spectate.id)]
    assert not any(s.channel_id == dm_channel for s in private)  # a thread follower gets no DM digest
    assert private and all(not s.files for s in private)  # her replies carry no image: no seat's view
    row = read_table(table.db, thread)
    assert row is not None
    unfollow = await table.answered(double.slash("unfollow", "carol", thread, game=row.id))
    await table.bot.wait(lambda: carol not in double.thread_members.get(thread, set()), "carol out of the thread")
    assert any("no longer follow" in s.text for s in double.sent if s.interaction_id == unfollow.id)
    assert double.problems() == []
    assert table.bot.errors() == []
