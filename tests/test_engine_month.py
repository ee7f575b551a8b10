"""A month of correspondence play in fake time: 1,000 games with clocks, players who move on most days and miss
some, and games whose players are all away. Every deadline fires once, in order, never twice and never missed;
a game everyone left waits (paused) exactly as its policy says, whatever the policy."""

from __future__ import annotations

import random
from datetime import timedelta
from itertools import pairwise

from engine import Engine, SeatInfo, Table
from engine import policies as pol
from storage import Store

GAMES = 1000
ABANDONED = 60  # of which nobody ever moves
DAYS = 28  # four weeks (a game nobody touches for the server's abandon_days, 30 by default, is adjudicated)
STEP = timedelta(hours=6)
POLICIES = ("skip", "bot", "forfeit")
# PostgreSQL's month is smaller (each write is a round trip to a server): the same days, policies and absences over
# 40 games, 4 of them abandoned, instead of 1,000 (over two minutes of CI time)
SIZES = {"sqlite": (GAMES, ABANDONED), "postgres": (40, 4)}


async def open_game(engine: Engine, n: int) -> Table:
    policy = POLICIES[n % 3]
    options = {"pile": 100_000, "days": 1 + n % 3, "on_timeout": policy, "forfeit_after": 3}
    t = await engine.open_lobby("nim", guild_id=1, channel_id=10_000 + n, host=SeatInfo(2 * n + 1, "A"),
                                options=options)
    await engine.join(t.id, SeatInfo(2 * n + 2, "B"))
    return await engine.start(t.id, 2 * n + 1)


async def drain(engine: Engine) -> int:
    fired = 0
    while notices := await engine.run_due():
        fired += len(notices)
    return fired


async def test_a_month_of_a_thousand_correspondence_games_misses_and_doubles_nothing(
        engine: Engine, clock, store: Store, backend: str) -> None:
    games, abandoned_games = SIZES[backend]
    rng = random.Random(27)
    tables = [await open_game(engine, n) for n in range(games)]
    abandoned = {t.id for t in tables[:abandoned_games]}
    end = clock.now + timedelta(days=DAYS)
    while clock.now < end:
        clock.advance(seconds=STEP.total_seconds())
        await drain(engine)
        for t in tables[abandoned_games:]:
            if rng.random() < 0.35:  # someone looks in on this game today and moves if it is their turn
                table = await engine.get(t.id)
                for seat in sorted(table.humans_to_move()):
                    await engine.act(t.id, table.seats[seat].user_id, "take 1")
                    await engine.play_bots(t.id)  # as the surface does after a move (a stand-in's turn)
    assert await store.due_deadlines(clock.now) == [], "nothing due was left unfired"

    timeouts = 0
    for t in tables:
        table = await engine.get(t.id)
        log = await store.actions(t.id)
        assert [a.seq for a in log] == list(range(1, len(log) + 1))
        assert all(a.created_at <= b.created_at for a, b in pairwise(log)), "in order"
        moves = [a for a in log if a.action != "resign"]
        assert all(a.seat != b.seat for a, b in pairwise(moves)), "no turn played twice"
        timeouts += sum(a.source == "timer" for a in log)
        if t.id in abandoned:  # both away: two missed turns, then the game waits, whatever its policy
            assert [a.source for a in log] == ["timer", "timer"], (table.meta, log)
            assert table.status == "active" and table.meta[pol.PAUSED]
            assert engine.clocks(table) == {}
    assert timeouts > games, "the month had absences to handle"
    stood_in = [t for t in tables[abandoned_games:] if any(a.source == "bot" for a in await store.actions(t.id))]
    assert stood_in, "and stand-ins played for absent players"
