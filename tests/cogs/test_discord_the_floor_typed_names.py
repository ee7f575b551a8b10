"""Issue 21 (the first hour): a category typed in The Floor's thread by its name as shown, several words long
(``keep Star Wars characters``), is a move when it names a category the player's side may keep now; other words
after ``keep`` stay chat."""

from __future__ import annotations

from typing import Any

import pytest

from rules.the_floor import board as bd
from rules.the_floor.bot import default_take
from tests.cogs.conftest import DiscordTime
from tests.cogs.test_discord_the_floor import open_floor, start_duel
from tests.discord_harness import Harness, table_of, user_of


async def owed_keep(h: Harness, channel_id: int, clock: Any) -> Any:
    """A duel lost on time, the winner's cells taken: the table once a side owes the choice of a category."""
    await start_duel(h, channel_id)
    clock.advance(seconds=22)
    await h.bot.engine.run_due()
    await h.settle()
    for _ in range(10):
        table = await table_of(h, channel_id)
        p = table.state.pending[0] if table.state.pending else None
        if p is None or p.kind == "keep":
            return table
        cells = ",".join(bd.name(c) for c in default_take(table.state, p.side, p.cells, p.count))
        owner = user_of(table.seats[table.state.seats_of(p.side)[0]].user_id)
        await h.slash("move", owner, channel_id, action=f"take {cells}")
    raise AssertionError("no choice of a category came")


@pytest.mark.parametrize("how", ["typed", "typed in polish", "move"])
async def test_a_category_name_of_several_words_after_keep_is_played(harness: Harness, discord_time: DiscordTime,
                                                                     clock: Any, how: str) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=20")
    table = await owed_keep(h, channel_id, clock)
    s = table.state
    assert s.pending and s.pending[0].kind == "keep", s.pending
    p = s.pending[0]
    owner = user_of(table.seats[s.seats_of(p.side)[0]].user_id)
    names = {cid: table.rules.category_name(s, cid) for cid in p.options}
    cid = max(names, key=lambda c: (len(names[c].split()), c))
    assert len(names[cid].split()) > 1, names  # the seed deals a name of several words here

    chat = await h.say("keep calm and carry on", owner, channel_id)
    assert chat == [] and (await table_of(h, channel_id)).version == table.version  # before: chat, and still chat
    # Before: typed, it was read as chat (nothing happened); with /move, "A move looks like this one: …".
    if how == "move":
        out = await h.slash("move", owner, channel_id, action=f"keep {names[cid].lower()}")
    else:
        out = await h.say(f"{'Zostaw' if how == 'typed in polish' else 'keep'} {names[cid].upper()}", owner,
                          channel_id)
    rows = await h.bot.engine.store.actions(table.id)
    assert rows[-1].action == f"keep {cid}", [x.text for x in out]
