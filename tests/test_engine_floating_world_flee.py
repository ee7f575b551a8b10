"""Rule 6.2 at the engine: the cut-off Kitsune's owner is the seat on the clock while its flee waits, and their
timeout (not the current player's) takes the automatic place, logged as their timeout."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Engine, SeatInfo
from rules.floating_world.dice import Roll
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import Kitsune, Options, Work, build
from storage import SqliteStore as Store

ALICE, BOB = 101, 102
G = FloatingWorld()


@pytest.fixture
def games() -> dict:
    return {"floating_world": G}


async def test_rule_6_2_the_fleeing_kitsunes_owner_is_on_the_clock_and_times_out(
        engine: Engine, clock, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """6.2 "Any Kitsune who are somehow on a destroyed Land may move for free to an adjacent Land": the choice
    waits for the owner, so the owner's clock runs (the current player's does not), and when it runs out the
    Kitsune takes the automatic place (the Gate) by the owner's logged timeout."""
    monkeypatch.setattr(Work, "roll", lambda self, count, plus: Roll((6,) * count, plus))
    t = await engine.open_lobby("floating_world", guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"),
                                options={"days": 1})
    await engine.join(t.id, SeatInfo(BOB, "Bob"))
    table = await engine.start(t.id, ALICE)
    current = table.state.current
    owner = 1 - current
    kit = [Kitsune(i, pos=(2, 0)) if i == owner else Kitsune(i) for i in range(2)]
    s = build(2, lands={(1, 0): None, (2, 0): None, (0, 1): None, (1, 1): None}, demons={"oni1": (1, 0)},
              kitsune=kit, options=Options(auto_nightmare=False), current=current)
    await engine.book.save(table, replace(table, state=s))
    users = {table.seat_of(ALICE): ALICE, table.seat_of(BOB): BOB}
    after = await engine.act(t.id, users[current], "end")  # the Oni shreds 1,0; the owner's 2,0 is cut off
    assert after.table.state.pending["decision"] == "flee" and after.table.to_move() == {owner}
    clocks = {(d.kind, d.seat) for d in await store.deadlines_for(t.id) if d.kind.startswith("turn_")}
    assert {seat for _, seat in clocks} == {owner}
    clock.advance(days=1, minutes=1)
    notices = [n for n in await engine.run_due() if n.kind == "timeout"]
    assert [n.data["seat"] for n in notices] == [owner]
    rows = await store.actions(t.id)
    assert (rows[-1].seat, rows[-1].action, rows[-1].source) == (owner, "timeout", "timer")
    final = await engine.get(t.id)
    assert final.state.pending is None and final.state.kitsune[owner].pos == (0, 0)
