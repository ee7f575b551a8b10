"""Undo through the engine (engine/undo.py): a player takes back their own last action while nothing was revealed,
drawn or answered since; the log keeps the action and its undo, and replaying it gives the state."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine import Engine, GameOverError, NotSeatedError, SeatInfo, StaleVersionError, Table, replay
from engine import clock as clk
from engine import undo as ud
from engine.clock import TURN_TIMEOUT
from engine.policies import PlaySettingsError
from rules import GAMES
from rules.base import Event
from rules.floor_plan.bot import choose_start
from storage import Store
from tests.nim import Nim, NimState

ALICE, BOB, CAROL = 101, 102, 103


class UndoNim(Nim):
    """Nim with an undo rule and two moves that take 1 like ``take 1`` but show a card or roll a die."""

    def apply(self, s: NimState, seat: int, action: str) -> tuple[NimState, list[Event]]:
        if action in ("peek", "roll"):
            after, _ = super().apply(s, seat, "take 1")
            return after, [Event(action, seat)]
        return super().apply(s, seat, action)

    def undo_blocker(self, s: NimState, after: NimState, events: list[Event]) -> str | None:
        kinds = {e.kind for e in events}
        if self.outcome(after) is not None:
            return "undo.reason.over"
        if "peek" in kinds:
            return "undo.reason.revealed"
        return "undo.reason.rolled" if "roll" in kinds else None


@pytest.fixture
def games() -> dict:
    return {"nim": UndoNim(), **GAMES}


async def started(engine: Engine, *, options: dict | None = None, players: int = 2, game: str = "nim") -> Table:
    t = await engine.open_lobby(game, guild_id=9, channel_id=1, host=SeatInfo(ALICE, "Alice"), options=options)
    for uid, name in ((BOB, "Bob"), (CAROL, "Carol"))[:players - 1]:
        await engine.join(t.id, SeatInfo(uid, name))
    return await engine.start(t.id, ALICE)


async def logged(store: Store, table: Table) -> list[tuple[int, str]]:
    return [(a.seat, a.action) for a in await store.actions(table.id)]


async def refusal(engine: Engine, table: Table, user: int, **kw: object) -> str:
    with pytest.raises(ud.UndoRefusedError) as err:
        await ud.undo(engine, table.id, user, **kw)
    return err.value.msg.key


async def test_undo_restores_the_state_before_the_move_and_the_log_replays_to_it(engine: Engine,
                                                                                store: Store) -> None:
    t = await started(engine)
    before = t.state
    moved = (await engine.act(t.id, ALICE, "take 2")).table
    result = await ud.undo(engine, t.id, ALICE)
    assert result.action == "undo" and result.events[0].data["action"] == "take 2"
    assert result.table.state == before and result.table.version == moved.version + 1
    assert result.table.moves == 2
    assert await logged(store, t) == [(0, "take 2"), (0, "undo")]
    assert replay(t.rules, 2, t.options, t.seed, await logged(store, t)) == result.table.state
    again = (await engine.act(t.id, ALICE, "take 3")).table
    assert again.state.pile == before.pile - 3


async def test_undo_is_refused_once_the_next_player_has_moved(engine: Engine) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "take 1")
    await engine.act(t.id, BOB, "take 1")
    assert await refusal(engine, t, ALICE) == "undo.later"


async def test_undo_is_refused_after_a_reveal_or_a_roll(engine: Engine) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "peek")
    assert await refusal(engine, t, ALICE) == "undo.reason.revealed"
    await engine.act(t.id, BOB, "roll")
    assert await refusal(engine, t, BOB) == "undo.reason.rolled"


async def test_undo_is_refused_on_a_finished_game(engine: Engine) -> None:
    t = await started(engine, options={"pile": 2})
    await engine.act(t.id, ALICE, "take 2")
    with pytest.raises(GameOverError):
        await ud.undo(engine, t.id, ALICE)


async def test_only_the_player_who_moved_can_take_the_move_back(engine: Engine) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "take 1")
    assert await refusal(engine, t, BOB) == "undo.nothing"
    with pytest.raises(NotSeatedError):
        await ud.undo(engine, t.id, CAROL)


async def test_a_second_undo_does_not_reach_past_the_other_players_move(engine: Engine) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "take 1")
    await engine.act(t.id, BOB, "take 1")
    await engine.act(t.id, ALICE, "take 2")
    await ud.undo(engine, t.id, ALICE)
    assert await refusal(engine, t, ALICE) == "undo.later"


async def test_the_same_undo_delivered_twice_is_applied_once(engine: Engine, store: Store) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "take 1")
    first = await ud.undo(engine, t.id, ALICE, interaction_id=555)
    second = await ud.undo(engine, t.id, ALICE, interaction_id=555)
    assert not first.duplicate and second.duplicate
    assert await logged(store, t) == [(0, "take 1"), (0, "undo")]


async def test_an_undo_after_a_restart_replays_from_the_stored_log(store: Store, clock, games: dict) -> None:
    first = Engine(store, games=games, now=clock)
    t = await started(first)
    await first.act(t.id, ALICE, "take 3")
    await first.stop()
    second = Engine(store, games=games, now=clock)  # nothing cached: the log is all there is
    result = await ud.undo(second, t.id, ALICE)
    assert result.table.state.pile == 10 and result.table.state.turn == 0
    assert replay(t.rules, 2, t.options, t.seed, await logged(store, t)) == result.table.state
    await second.stop()


async def test_the_record_shows_the_move_and_its_undo(engine: Engine) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "take 2")
    await ud.undo(engine, t.id, ALICE)
    assert (await engine.record(t.id)).endswith("\n0 take 2\n0 undo\n")


async def test_a_timed_out_turn_is_not_the_players_to_take_back(engine: Engine, clock) -> None:
    t = await started(engine, options={"turn_minutes": 5})
    clock.advance(minutes=6)
    await engine.run_due()
    assert await refusal(engine, t, ALICE) == "undo.not_chosen"


async def test_the_undoing_player_gets_the_clock_back_and_the_other_loses_it(engine: Engine) -> None:
    t = await started(engine, options={"turn_minutes": 5})
    await engine.act(t.id, ALICE, "take 1")
    assert set(engine.clocks(await engine.get(t.id))) == {1}
    result = await ud.undo(engine, t.id, ALICE)
    assert set(engine.clocks(result.table)) == {0}
    deadlines = await engine.store.deadlines_for(t.id)
    assert {d.seat for d in deadlines if d.kind == TURN_TIMEOUT} == {0}


async def test_a_time_bank_gets_no_bonus_from_an_undone_move(engine: Engine, clock) -> None:
    t = await started(engine, options={"bank_days": 2, "bonus_hours": 24, "cap_days": 5})
    clock.advance(hours=10)
    await engine.act(t.id, ALICE, "take 1")
    clock.advance(hours=2)
    result = await ud.undo(engine, t.id, ALICE)
    left = engine.clocks(result.table)[0] - clock()
    assert left.total_seconds() == (48 - 10 - 2) * 3600


async def test_a_days_clock_runs_on_to_the_old_deadline_after_an_undo(engine: Engine, clock) -> None:
    t = await started(engine, options={"days": 3})
    clock.advance(days=2, hours=20)
    await engine.act(t.id, ALICE, "take 1")
    clock.advance(hours=1)
    result = await ud.undo(engine, t.id, ALICE)
    left = engine.clocks(result.table)[0] - clock()
    assert left == timedelta(hours=3), "an undo is no way to get a fresh three days"


async def test_an_undo_after_the_old_deadline_leaves_a_minute_to_move_again(engine: Engine, clock) -> None:
    t = await started(engine, options={"turn_minutes": 5})
    clock.advance(minutes=4)
    await engine.act(t.id, ALICE, "take 1")
    clock.advance(minutes=3)
    result = await ud.undo(engine, t.id, ALICE)
    assert engine.clocks(result.table)[0] - clock() == clk.UNDO_GRACE


async def test_undo_off_refuses_and_a_bad_value_is_refused_in_the_lobby(engine: Engine) -> None:
    t = await started(engine, options={"undo": "off"})
    await engine.act(t.id, ALICE, "take 1")
    assert await refusal(engine, t, ALICE) == "undo.off"
    with pytest.raises(PlaySettingsError):
        await engine.open_lobby("nim", guild_id=9, channel_id=2, host=SeatInfo(ALICE, "A"), options={"undo": "x"})


async def test_undo_confirm_needs_another_players_yes_on_the_table_as_asked(engine: Engine) -> None:
    t = await started(engine, options={"undo": "confirm"})
    moved = (await engine.act(t.id, ALICE, "take 1")).table
    assert await refusal(engine, t, ALICE) == "undo.needs_confirmation"
    assert await refusal(engine, t, ALICE, approved_by=ALICE) == "undo.needs_confirmation"
    assert (await ud.plan(engine, t.id, ALICE)).needs_confirmation
    with pytest.raises(StaleVersionError):
        await ud.undo(engine, t.id, ALICE, approved_by=BOB, version=moved.version - 1)
    result = await ud.undo(engine, t.id, ALICE, approved_by=BOB, version=moved.version)
    assert result.table.state.pile == 10


def test_standing_drops_each_seats_last_action_at_its_undo() -> None:
    log = [(0, "a"), (1, "b"), (0, "c"), (1, "undo"), (0, "undo"), (0, "d")]
    assert ud.standing(log) == [(0, "a"), (0, "d")]
    with pytest.raises(ValueError):
        ud.standing([(0, "undo")])


# --- the real games ---------------------------------------------------------------------------------------------


async def test_floor_plan_a_start_is_taken_back_while_the_others_of_its_round_stand(engine: Engine,
                                                                                   store: Store) -> None:
    t = await started(engine, game="floor_plan", players=3)
    state = t.state
    a = choose_start(state, 0)
    await engine.act(t.id, ALICE, a)
    b = choose_start(state, 1)
    after_b = (await engine.act(t.id, BOB, b)).table
    result = await ud.undo(engine, t.id, ALICE)  # Bob was already to move: his start did not depend on hers
    assert result.table.state.to_act == frozenset({0, 2}) and result.table.state.pending[1] == after_b.state.pending[1]
    assert replay(t.rules, 3, t.options, t.seed, await logged(store, t)) == result.table.state
    await engine.act(t.id, ALICE, a)
    await engine.act(t.id, CAROL, choose_start(state, 2))  # closes the round: the dice are rolled
    assert await refusal(engine, t, CAROL) == "undo.reason.rolled"
    assert await refusal(engine, t, ALICE) == "undo.reason.rolled"


async def test_flying_blades_a_keep_is_taken_back_in_the_open_draft(engine: Engine, store: Store) -> None:
    from rules.flying_blades.bot import choose_keep

    t = await started(engine, game="flying_blades", players=3)
    keep = "keep " + " ".join(choose_keep(t.state.hands[0], 3))
    await engine.act(t.id, ALICE, keep)
    result = await ud.undo(engine, t.id, ALICE)
    assert result.table.state == t.state and result.events[0].data["action"].startswith("keep")
    assert replay(t.rules, 3, t.options, t.seed, await logged(store, t)) == result.table.state


async def test_the_floor_is_never_undone(engine: Engine) -> None:
    t = await started(engine, game="the_floor", players=2)
    seat = min(t.to_move())
    user = t.seats[seat].user_id
    await engine.act(t.id, user, t.rules.bot_action(t.state, seat))
    assert await refusal(engine, t, user) == "undo.reason.live"
