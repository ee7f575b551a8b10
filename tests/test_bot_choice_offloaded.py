"""Bot seats think in the bot's worker processes (issue 25, "Memory": the thinking's caches and heap stay out of the
process that holds every game; `engine.bots`, `rules.bot_choice`).

A worker gets a pickled copy of the position, so the rule these tests hold is that a bot's choice depends on the
position alone: the copy's choice is the original's, and choosing leaves the position as it was. Then a game whose
bots think in a real worker process is the game whose bots think in a thread, move for move.
"""

from __future__ import annotations

import asyncio
import operator
import pickle
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

import rules
from engine import Engine
from engine.bots import ThoughtTooLong, within
from render.pool import RenderPool
from rules.flying_blades import FlyingBlades
from storage import SqliteStore
from tests.conftest import FakeClock
from tests.test_engine_flying_blades import HUMAN, play_to_end, table_with_bots

# (game, players, seed): every game; Floor Plan's planner at 2 players, The Floor at 3 sides.
POSITIONS = [(game, players, f"offload/{game}/{players}/{n}")
             for game, players in (("flying_blades", 3), ("flying_blades", 5), ("floor_plan", 2), ("the_floor", 3),
                                   ("floating_world", 2), ("floating_world", 4), ("floating_floors", 2),
                                   ("floating_floors", 4))
             for n in range(2)]
STEPS = 120  # positions checked per game (each game's bot choices at its opening, middle and, for most, its end)
SLOW_STEPS = {"floating_floors": 60}  # its bot looks ahead (~20 ms a choice)


def positions(game: str, players: int, seed: str) -> list[tuple[Any, int]]:
    """(position, seat to move) along a game the bots play from ``seed``."""
    g = rules.GAMES[game]
    state = g.new(players, g.normalize_options(players, {}), seed)
    out: list[tuple[Any, int]] = []
    for _ in range(SLOW_STEPS.get(game, STEPS)):
        if g.outcome(state) is not None or not g.to_move(state):
            break
        seat = min(g.to_move(state))
        out.append((state, seat))
        state, _ = g.apply(state, seat, g.bot_action(state, seat))
    return out


@pytest.mark.parametrize(("game", "players", "seed"), POSITIONS)
def test_a_bots_choice_depends_on_the_position_alone(game: str, players: int, seed: str) -> None:
    """What a worker computes from a pickled copy is what this process would: same choice, position untouched."""
    g = rules.GAMES[game]
    seen = positions(game, players, seed)
    assert len(seen) >= 10
    for state, seat in seen:
        before = g.to_json(state)
        copy = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        assert rules.bot_choice(game, copy, seat) == g.bot_action(state, seat)
        assert g.to_json(state) == before and g.to_json(copy) == before


def test_bot_choice_refuses_an_unknown_game() -> None:
    with pytest.raises(KeyError):
        rules.bot_choice("chess", None, 0)


@pytest.fixture
async def sqlite(tmp_path: Path) -> AsyncIterator[Callable[[str], Any]]:
    """SQLite stores by name in this test's directory (the worker's side does not depend on the backend)."""
    opened: list[SqliteStore] = []

    async def open_one(name: str) -> SqliteStore:
        store = await SqliteStore.open(tmp_path / f"{name}.db")
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        await store.close()


async def play_against_bots(engine: Engine, seed: str, players: int = 3) -> list[tuple[int, str, str]]:
    """A Night of the 27 Ninja game, one human (playing the rules' bot move) and bots: its log."""
    t = await play_to_end(engine, await table_with_bots(engine, players=players, seed=seed))
    assert t.status == "finished"
    return [(a.seat, a.action, a.source) for a in await engine.store.actions(t.id)]


async def test_bots_thinking_in_a_worker_process_play_the_game_a_thread_plays(
        sqlite: Callable[[str], Any], clock: FakeClock) -> None:
    pool = RenderPool(1)  # a real worker process (forkserver), as the bot starts with RENDER_WORKERS=1
    offloaded: list[str] = []

    async def offload(fn: Callable[..., Any], *args: Any) -> Any:
        offloaded.append(args[0])
        return await pool.draw(fn, *args)

    try:
        in_worker = Engine(await sqlite("worker"), now=clock, offload=offload)
        in_thread = Engine(await sqlite("thread"), now=clock)
        log = await play_against_bots(in_worker, "offload-fb")
        assert log == await play_against_bots(in_thread, "offload-fb")
        bot_moves = sum(source == "bot" for _, _, source in log)
        assert bot_moves > 10 and offloaded == ["flying_blades"] * bot_moves
        assert pool.processes and pool.replaced == 0
    finally:
        pool.shutdown()


async def test_rules_that_are_not_the_registrys_think_in_a_thread(
        sqlite: Callable[[str], Any], clock: FakeClock) -> None:
    """A worker finds the rules by the game's id; other rules (a simulation's wrapper, a test's) stay here."""
    offloaded: list[str] = []

    async def offload(fn: Callable[..., Any], *args: Any) -> Any:
        offloaded.append(args[0])
        return fn(*args)

    own = FlyingBlades()
    assert own is not rules.GAMES["flying_blades"]
    engine = Engine(await sqlite("own"), games={"flying_blades": own}, now=clock, offload=offload)
    log = await play_against_bots(engine, "own-rules")
    assert any(source == "bot" for _, _, source in log) and offloaded == []


async def test_the_latency_tool_times_every_game_both_ways() -> None:
    """`tools.bot_offload_latency` (the figures in docs/benchmarks.md) runs: a row per game, both modes agreeing."""
    from tools.bot_offload_latency import CASES, measure
    rows = await measure(3, 1)
    assert len(rows) == 2 + len(CASES)
    assert [row.split(" | ")[0].lstrip("| ") for row in rows[2:]] == [game for game, _ in CASES]


class SlowBots(FlyingBlades):
    """Night of the 27 Ninja whose bots think until ``release`` is set: a rules bug that never returns."""

    def __init__(self, release: threading.Event) -> None:
        super().__init__()
        self.release = release

    def bot_action(self, s: Any, seat: int) -> str:
        self.release.wait(30)
        return super().bot_action(s, seat)


async def first_bot_to_move(engine: Engine, seed: str) -> Any:
    """A 3-seat game (one human) played by the human with the rules' bot move until a bot seat is to move."""
    t = await table_with_bots(engine, players=3, seed=seed)
    for _ in range(50):
        if any(t.seats[s].bot for s in t.to_move()):
            return t
        (seat,) = t.humans_to_move()
        t = (await engine.act(t.id, HUMAN, FlyingBlades().bot_action(t.state, seat), version=t.version)).table
    raise AssertionError("no bot came to move")


async def test_a_choice_over_its_limit_in_a_worker_is_stopped_there_and_the_worker_draws_on() -> None:
    pool = RenderPool(1)
    try:
        (pid,) = pool.worker_pids() or [None]
        started = time.monotonic()
        with pytest.raises(ThoughtTooLong):
            await pool.draw(within, 0.3, time.sleep, 30)
        assert time.monotonic() - started < 10, "stopped at its limit, not after the 30 s it asked for"
        assert await pool.draw(within, 5.0, operator.add, 2, 3) == 5, "the limit is lifted once a choice is made"
        await asyncio.sleep(0.5)  # an alarm left behind would fire here, in the next draw's time
        assert await pool.draw(time.sleep, 0.6) is None
        assert pool.replaced == 0 and pool.worker_pids() == [pid], "the same worker: stopped, not killed"
    finally:
        pool.shutdown()


async def test_a_bot_that_does_not_choose_in_time_in_a_worker_times_out_and_the_game_goes_on(
        sqlite: Callable[[str], Any], clock: FakeClock) -> None:
    """Absence is not a move: the seat's turn is the rules' timeout, logged as the bot's, and the game's lock is
    free for its players."""
    pool = RenderPool(1)

    async def offload(fn: Callable[..., Any], *args: Any) -> Any:  # the worker's bot never returns
        return await pool.draw(within, 0.3, time.sleep, 30)

    try:
        engine = Engine(await sqlite("hung"), now=clock, offload=offload)
        t = await first_bot_to_move(engine, "hung-worker")
        seat = min(s for s in t.to_move() if t.seats[s].bot)
        before = len(await engine.store.actions(t.id))
        results = await engine.play_bots(t.id)
        assert [(r.seat, r.action, r.source) for r in results] == [(seat, "timeout", "bot")]
        log = await engine.store.actions(t.id)
        assert len(log) == before + 1 and (log[-1].seat, log[-1].action) == (seat, "timeout")
        assert (await engine.get(t.id)).status == "active"
    finally:
        pool.shutdown()


async def test_a_bot_thinking_too_long_in_a_thread_is_left_behind_and_its_turn_times_out(
        sqlite: Callable[[str], Any], clock: FakeClock) -> None:
    release = threading.Event()
    engine = Engine(await sqlite("slow"), games={"flying_blades": SlowBots(release)}, now=clock)
    engine.bots.think_seconds = 0.2
    try:
        t = await first_bot_to_move(engine, "hung-thread")
        seat = min(s for s in t.to_move() if t.seats[s].bot)
        started = time.monotonic()
        results = await engine.play_bots(t.id)
        assert time.monotonic() - started < 10
        assert [(r.seat, r.action, r.source) for r in results] == [(seat, "timeout", "bot")]
        log = await engine.store.actions(t.id)
        assert (log[-1].seat, log[-1].action, log[-1].source) == (seat, "timeout", "bot")
        async with engine.book.editing(t.id):  # the game's lock is free
            pass
    finally:
        release.set()


async def test_a_choice_sent_to_a_pool_that_draws_in_threads_is_given_up_at_twice_its_limit(
        sqlite: Callable[[str], Any], clock: FakeClock) -> None:
    """No worker to stop it (RENDER_WORKERS=0, the terminal): the engine's own wait gives up and the game goes on."""
    release = threading.Event()

    async def offload(fn: Callable[..., Any], *args: Any) -> Any:
        return await RenderPool(0).draw(release.wait, 30)

    engine = Engine(await sqlite("backstop"), now=clock, offload=offload)
    engine.bots.think_seconds = 0.1
    try:
        t = await first_bot_to_move(engine, "hung-backstop")
        seat = min(s for s in t.to_move() if t.seats[s].bot)
        results = await engine.play_bots(t.id)
        assert [(r.seat, r.action, r.source) for r in results] == [(seat, "timeout", "bot")]
    finally:
        release.set()
