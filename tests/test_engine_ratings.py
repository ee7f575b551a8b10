"""Results and ratings through the engine (engine/results.py, storage/league.py): a finished game with 2+ humans
writes its results with its final save, and a rated one moves OpenSkill ratings in its server and globally, once.
Bots, solo play, rated=no, stand-ins, substitutions and aborted or adjudicated games change no rating."""

from __future__ import annotations

from typing import ClassVar

import pytest

from engine import Engine, SeatInfo, Table
from engine import admin as adm
from engine import results as res
from engine.policies import PlaySettingsError
from rules.the_floor.game import TheFloor
from storage import GLOBAL, Store
from tests.nim import Nim

ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}
GUILD = 9
_channels = iter(range(1, 10_000))


class SoloNim(Nim):
    min_players: ClassVar[int] = 1


class CoopNim(Nim):
    """Nim played together against the game: the table wins when the first seat takes the last stone."""

    def coop(self, s: object) -> tuple[bool, str] | None:
        return None if self.outcome(s) is None else (s.last == 0, "normal")  # type: ignore[attr-defined]


@pytest.fixture
def games() -> dict:
    return {"nim": Nim(), "solo": SoloNim(), "coop": CoopNim()}


async def started(engine: Engine, users: tuple[int, ...] = (ALICE, BOB), *, bots: int = 0, game: str = "nim",
                  guild: int | None = GUILD, **options: object) -> Table:
    t = await engine.open_lobby(game, guild_id=guild, channel_id=next(_channels), host=SeatInfo(users[0], "Host"),
                                options={"pile": 3, **options})
    for user in users[1:]:
        await engine.join(t.id, SeatInfo(user, NAMES[user]))
    for _ in range(bots):
        await engine.add_bot(t.id, users[0])
    return await engine.start(t.id, users[0])


async def won_by_first(engine: Engine, users: tuple[int, ...] = (ALICE, BOB), **kw: object) -> Table:
    """A game the first seat wins at once (the pile is 3: it takes it all)."""
    t = await started(engine, users, **kw)
    result = await engine.act(t.id, users[0], "take 3")
    assert result.outcome is not None and result.table.status == "finished"
    return result.table


async def display(store: Store, scope: int, user: int, game: str = "nim") -> int | None:
    row = await store.rating(scope, game, user)
    return None if row is None else row.rating.display


async def nothing_rated(store: Store, *users: int) -> bool:
    return [r for u in users for scope in (GUILD, GLOBAL) for r in await store.ratings_of(u, scope)] == []


async def test_the_winners_rating_goes_up_and_the_losers_down_in_the_server_and_globally(engine: Engine,
                                                                                       store: Store) -> None:
    t = await won_by_first(engine)
    for scope in (GUILD, GLOBAL):
        alice, bob = await store.rating(scope, "nim", ALICE), await store.rating(scope, "nim", BOB)
        assert alice is not None and bob is not None
        assert alice.rating.display > 1500 > bob.rating.display
        assert alice.mu > 25 > bob.mu and alice.games == bob.games == 1
    [a], [b] = await store.results_of(ALICE), await store.results_of(BOB)
    assert (a.game_id, a.place, a.outcome, a.rated, a.before) == (t.id, 1, "win", True, 1500)
    assert (b.place, b.outcome, b.players, b.channel_id) == (2, "loss", 2, t.channel_id)
    assert a.after == await display(store, GUILD, ALICE) and a.change > 0 > b.change


async def test_a_game_with_a_bot_records_results_but_changes_no_rating(engine: Engine, store: Store) -> None:
    await won_by_first(engine, (ALICE, BOB), bots=1)
    [a] = await store.results_of(ALICE)
    assert not a.rated and a.before is None and a.after is None and a.players == 3
    assert await nothing_rated(store, ALICE, BOB)


async def test_a_solo_game_and_one_human_against_a_bot_record_nothing(engine: Engine, store: Store) -> None:
    await won_by_first(engine, (ALICE,), game="solo")
    await won_by_first(engine, (ALICE,), bots=1)
    assert await store.results_of(ALICE) == [] and await nothing_rated(store, ALICE)


async def test_rated_no_records_results_but_changes_no_rating(engine: Engine, store: Store) -> None:
    t = await won_by_first(engine, rated="no")
    assert res.unrated_reason(t) == "off"
    [a] = await store.results_of(ALICE)
    assert not a.rated and a.outcome == "win"
    assert await nothing_rated(store, ALICE, BOB)
    assert await store.record_counts(ALICE, GUILD) == {"nim": (1, 0, 0)}  # the record counts every game


async def test_rated_takes_only_yes_or_no(engine: Engine) -> None:
    with pytest.raises(PlaySettingsError) as err:
        await started(engine, rated="maybe")
    assert err.value.msg.key == "engine.options.rated"


async def test_an_aborted_or_adjudicated_game_changes_nothing(engine: Engine, store: Store) -> None:
    t = await started(engine)
    await engine.act(t.id, ALICE, "take 1")
    await engine.abort(t.id, ALICE)
    t2 = await started(engine)
    await adm.adjudicate(engine, t2.id, by=None)
    assert await store.results_of(ALICE) == [] and await nothing_rated(store, ALICE, BOB)


async def test_a_stand_in_bot_that_played_a_seat_makes_the_game_unrated(engine: Engine, store: Store,
                                                                        clock) -> None:
    t = await started(engine, (ALICE, BOB, CAROL), pile=20, turn_minutes=10, on_timeout="bot")
    clock.advance(minutes=11)
    await engine.run_due()  # Alice's turn times out: a bot stands in for her
    await engine.act(t.id, BOB, "take 1")
    await engine.act(t.id, CAROL, "take 1")
    assert [r.source for r in await engine.play_bots(t.id)] == ["bot"]  # the stand-in moves for Alice
    await engine.come_back(t.id, ALICE)  # back, but the game already has a move she did not make
    table = await engine.get(t.id)
    assert table.meta[res.STOOD_IN] == [0] and res.unrated_reason(table) == "standin"
    await engine.act(t.id, BOB, "resign")
    assert {r.rated for u in (ALICE, BOB, CAROL) for r in await store.results_of(u)} == {False}
    assert await nothing_rated(store, ALICE, BOB, CAROL)


async def test_a_substituted_seat_makes_the_game_unrated(engine: Engine, store: Store) -> None:
    t = await started(engine)
    await adm.substitute(engine, t.id, 1, SeatInfo(CAROL, "Carol"), by=None)
    await engine.act(t.id, ALICE, "take 3")
    [c] = await store.results_of(CAROL)  # the seat's result is its player's at the end
    assert (c.outcome, c.rated) == ("loss", False) and await store.results_of(BOB) == []
    assert await nothing_rated(store, ALICE, BOB, CAROL)


async def test_a_three_player_game_with_a_shared_first_place_is_a_draw_for_both(engine: Engine,
                                                                                store: Store) -> None:
    t = await started(engine, (ALICE, BOB, CAROL), pile=20)
    await engine.act(t.id, ALICE, "take 1")
    await engine.act(t.id, BOB, "resign")  # Nim: the others share first place
    rows = {r.user_id: r for user in (ALICE, BOB, CAROL) for r in await store.results_of(user)}
    assert {u: (r.place, r.outcome) for u, r in rows.items()} == {ALICE: (1, "draw"), CAROL: (1, "draw"),
                                                                   BOB: (3, "loss")}
    alice, carol, bob = [await display(store, GUILD, u) for u in (ALICE, CAROL, BOB)]
    assert alice == carol > 1500 > bob  # the two who shared first place gain alike
    for user, counts in ((ALICE, (0, 1, 0)), (BOB, (0, 0, 1))):
        row = await store.rating(GLOBAL, "nim", user)
        assert (row.wins, row.draws, row.losses) == counts


async def test_wins_draws_and_losses_are_counted_per_server_and_everywhere(engine: Engine, store: Store) -> None:
    await won_by_first(engine, (ALICE, BOB))
    await won_by_first(engine, (BOB, ALICE))
    await won_by_first(engine, (ALICE, BOB), guild=GUILD + 1)
    here, everywhere = await store.rating(GUILD, "nim", ALICE), await store.rating(GLOBAL, "nim", ALICE)
    assert (here.wins, here.draws, here.losses, here.games) == (1, 0, 1, 2)
    assert (everywhere.wins, everywhere.losses, everywhere.games) == (2, 1, 3)
    assert await store.record_counts(ALICE, GUILD) == {"nim": (1, 0, 1)}
    assert await store.record_counts(ALICE, None) == {"nim": (2, 0, 1)}
    assert [r.user_id for r in await store.leaderboard(GLOBAL, "nim")] == [ALICE, BOB]


async def test_results_and_ratings_survive_a_restart(engine: Engine, store: Store, clock) -> None:
    first = await won_by_first(engine)
    before = await display(store, GLOBAL, ALICE)
    await engine.stop()
    again = Engine(store, games={"nim": Nim()}, now=clock)
    try:
        assert [r.game_id for r in await store.results_of(ALICE)] == [first.id]
        clock.advance(minutes=5)
        second = await won_by_first(again)
        assert [r.game_id for r in await store.results_of(ALICE)] == [second.id, first.id]  # newest first
        row = await store.rating(GLOBAL, "nim", ALICE)
        assert row.games == 2 and row.rating.display > before  # rated on from the stored rating
    finally:
        await again.stop()


async def test_two_games_ending_at_once_both_count(engine: Engine, store: Store) -> None:
    import asyncio

    one, two = await started(engine, (ALICE, BOB)), await started(engine, (ALICE, CAROL))
    await asyncio.gather(engine.act(one.id, ALICE, "take 3"), engine.act(two.id, ALICE, "take 3"))
    row = await store.rating(GLOBAL, "nim", ALICE)
    assert (row.games, row.wins) == (2, 2) and len(await store.results_of(ALICE)) == 2


def test_the_floor_rates_side_against_side_and_teammates_win_together() -> None:
    rules = TheFloor()
    state = rules.new(4, rules.normalize_options(4, {"sides": 2}), "seed")
    sides = rules.teams(state)
    assert sorted(s for side in sides for s in side) == [0, 1, 2, 3] and len(sides) == 2
    winners, losers = sides
    places = res.places_of((winners, losers), 4)
    outcomes = res.verdicts(places, sides)
    assert {outcomes[s] for s in winners} == {"win"} and {outcomes[s] for s in losers} == {"loss"}
    assert res.verdicts(res.places_of(((0, 1),), 2), [(0,), (1,)]) == ["draw", "draw"]


async def test_a_co_op_table_wins_or_loses_together_against_the_game(engine: Engine, store: Store) -> None:
    won = await won_by_first(engine, game="coop")
    rows = {r.user_id: r for r in await store.results_of(ALICE)} | {r.user_id: r for r in await store.results_of(BOB)}
    assert {rows[u].outcome for u in (ALICE, BOB)} == {"win"}, "everyone at the table won"
    up = [await display(store, GUILD, u, "coop") for u in (ALICE, BOB)]
    assert all(d is not None and d > 1500 for d in up) and up[0] == up[1]
    t = await started(engine, game="coop")
    await engine.act(t.id, ALICE, "take 1")
    await engine.act(t.id, BOB, "take 2")  # Bob takes the last stone: the table lost
    after = [await display(store, GUILD, u, "coop") for u in (ALICE, BOB)]
    assert all(a < b for a, b in zip(after, up, strict=True)), "a loss costs every seat"
    assert won.status == "finished"


def test_floating_world_reports_its_co_op_result_once_over() -> None:
    from rules.floating_world import FloatingWorld

    g = FloatingWorld()
    s = g.new(2, g.normalize_options(2, {}), "coop-result")
    assert g.coop(s) is None
    for _ in range(20_000):
        if g.outcome(s) is not None:
            break
        seat = min(g.to_move(s))
        s, _ = g.apply(s, seat, g.bot_action(s, seat))
    from rules.floating_world import state as st

    won, difficulty = g.coop(s)
    assert difficulty == "normal" and won == (s.reason == st.WON)
