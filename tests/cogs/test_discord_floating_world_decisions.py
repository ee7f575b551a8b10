"""Floating World's Nightmare decisions in Discord (issue 23): rule 6.2's flee belongs to the fleeing Kitsune's owner,
and a big map's spawn Lands (6.4.3) are all offered even past Discord's 25 options per select. Hand-built states
are saved into a running table; every roll is a scripted face (``Work.roll`` patched)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.floating_world import MAX_OPTIONS, FloatingWorldSurface, decision_selects, decision_text
from engine.tables import SeatInfo
from rules.floating_world.bot import nightmare_choice
from rules.floating_world.dice import Roll
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import Kitsune, Options, State, Work, build
from tests.discord_harness import USERS, Harness, choose_select, forged_message, table_of

G = FloatingWorld()
ASK = Options(auto_nightmare=False)


def every_die(monkeypatch: pytest.MonkeyPatch, face: int) -> None:
    def fake(self: Work, count: int, plus: int) -> Roll:
        self.counter += 1
        return Roll((face,) * count, plus)

    monkeypatch.setattr(Work, "roll", fake)


def flee_state(monkeypatch: pytest.MonkeyPatch, owner: int = 1) -> State:
    """The other seat ends its turn; the Oni on 1,0 rolls sixes and shreds it; ``owner``'s Kitsune on 2,0 is cut
    off (6.3)."""
    every_die(monkeypatch, 6)
    kit = [Kitsune(i, pos=(2, 0), wounds=1) if i == owner else Kitsune(i) for i in range(2)]
    s = build(2, lands={(1, 0): None, (2, 0): None, (0, 1): None, (1, 1): None}, demons={"oni1": (1, 0)},
              kitsune=kit, options=ASK, current=1 - owner)
    s1, _ = G.apply(s, 1 - owner, "end")
    assert s1.pending is not None and s1.pending["decision"] == "flee" and G.to_move(s1) == {owner}
    return s1


def big_map_spawn(monkeypatch: pytest.MonkeyPatch, reach: int = 15) -> State:
    """Lands -reach..reach along y=0, both Kitsune on the Gate: every other Land may take a spawn (6.4.3); every
    die a 1, so the spawn dice call demons (Oni)."""
    every_die(monkeypatch, 1)
    s = build(2, lands=dict.fromkeys((x, 0) for x in range(-reach, reach + 1) if x), options=ASK)
    s1, _ = G.apply(s, 0, "end")
    assert s1.pending is not None and s1.pending["decision"] == "spawn"
    return s1


async def two_humans(h: Harness, state: State) -> tuple[Any, dict[int, str]]:
    """alice and bob at a running table whose state is ``state`` (saved as a move would be)."""
    await h.slash("play", "alice", game="floating_world")
    lobby = h.with_button(":lobby:join:")
    await h.click(lobby, ":lobby:join:", "bob")
    await h.click(lobby, ":lobby:start:", "alice")
    table = await table_of(h, lobby.channel_id)
    await h.bot.engine.book.save(table, replace(table, state=state))
    table = await table_of(h, lobby.channel_id)
    return table, {table.seat_of(USERS[name]): name for name in ("alice", "bob")}


def board_with(h: Harness, table: Any, index: int = 0) -> Any:
    """The board's decision select ``index`` on a copy of the latest board (as the bot would post it now)."""
    select = decision_selects(table, "en")[index]
    return forged_message(h, h.with_button("floating_world:hand:"), select.item.to_component_dict())


async def test_rule_6_2_the_owner_of_the_fleeing_kitsune_is_pinged_and_others_are_refused(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """6.2: "Any Kitsune who are somehow on a destroyed Land may move for free to an adjacent Land." The Kitsune's
    owner chooses: the turn line pings them, the current player's pick is refused with whose choice it is (the
    name escaped) and changes nothing, the owner's pick moves the Kitsune."""
    h = harness
    table, users = await two_humans(h, flee_state(monkeypatch))
    owner, current = users[1], users[0]
    line, ids = FloatingWorldSurface().turn_line(table, "en")
    assert ids == [USERS[owner]] and "Land is gone" in line
    assert FloatingWorldSurface().phase_text(table, "en").endswith(FloatingWorldSurface().seat_label(table, 1, "en"))
    version = table.version
    board = board_with(h, table)
    out = await choose_select(h, board, "decide", "flee 1,1", current)
    refusals = [s.text for s in out if s.ephemeral and s.kind != "defer"]
    name = FloatingWorldSurface().seat_label(table, 1, "en")
    assert refusals == [f"It is {name}'s choice: only they can answer this."]
    assert (await table_of(h, table.channel_id)).version == version
    out = await choose_select(h, board, "decide", "flee 1,1", owner)
    assert not [s for s in out if s.ephemeral and s.kind != "defer"], [s.text for s in out]
    after = await table_of(h, table.channel_id)
    assert after.version > version and after.state.kitsune[1].pos == (1, 1) and after.state.pending is None


async def test_rule_6_2_a_bot_owner_answers_its_fleeing_kitsunes_choice_by_its_own_rule(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """6.2 "may move for free": a bot seat's Kitsune flees where that bot's rule says (the select's marked
    choice), without waiting for the human who ran the Nightmare."""
    h = harness
    await h.slash("play", "alice", game="floating_world")
    lobby = h.with_button(":lobby:join:")
    await h.click(lobby, ":lobby:bot:", "alice")
    await h.click(lobby, ":lobby:start:", "alice")
    table = await table_of(h, lobby.channel_id)
    bot_seat = next(i for i, seat in enumerate(table.seats) if seat.bot)
    state = flee_state(monkeypatch, owner=bot_seat)  # the human ran the Nightmare, the bot's Kitsune flees
    hint = nightmare_choice(state)
    await h.bot.engine.book.save(table, replace(table, state=state))
    await h.bot.engine.play_bots(table.id)
    after = await table_of(h, table.channel_id)
    assert after.state.pending is None and after.state.kitsune[bot_seat].pos == coord(hint)


def coord(choice: str) -> tuple[int, int]:
    x, y = choice.split()[1].split(",")
    return int(x), int(y)


async def test_more_than_25_spawn_lands_are_all_offered_in_selects_of_25(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """6.4.3: a spawned demon goes "on any Land that has an empty border and no Kitsune". With 30 such Lands every
    one is offered (Discord allows 25 options a select): two selects, row by row, each naming its stretch, the
    bot's choice marked once; a Land from the second select is played."""
    h = harness
    state = big_map_spawn(monkeypatch)
    assert len(state.pending["choices"]) == 30
    table, users = await two_humans(h, state)
    selects = [s.item for s in decision_selects(table, "en")]
    values = [o.value for s in selects for o in s.options]
    assert len(selects) == 2 and all(len(s.options) <= MAX_OPTIONS for s in selects)
    assert sorted(values) == sorted(state.pending["choices"]) and len(set(values)) == 30
    assert len({s.custom_id for s in selects}) == 2
    assert [o.value for s in selects for o in s.options if o.description] == [nightmare_choice(state)]
    assert selects[0].placeholder == "Where the demon appears: (-15,0) … (10,0)"
    assert "type" not in decision_text(table, "en")  # every choice is in a list
    board = board_with(h, table, 1)
    out = await choose_select(h, board, "decide2", "spawn 14,0", users[0])
    assert not [s for s in out if s.ephemeral and s.kind != "defer"], [s.text for s in out]
    after = await table_of(h, table.channel_id)
    assert (14, 0) in [d.at for d in after.state.demons]


def test_past_four_selects_the_turn_line_says_to_type_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """A map with more spawn Lands than four selects hold (100) names how many are left out and how to type one."""
    state = big_map_spawn(monkeypatch, reach=52)
    seats = [SeatInfo(USERS["alice"], "alice"), SeatInfo(USERS["bob"], "bob")]
    table = SimpleNamespace(id=7, version=3, state=state, rules=G, seats=seats, status="active", game="floating_world",
                            view=lambda seat: G.view(state, seat), to_move=lambda: G.to_move(state))
    assert len(decision_selects(table, "en")) == 4
    text = decision_text(table, "en")
    assert "4 more Lands are not in the lists" in text and "`spawn " in text

