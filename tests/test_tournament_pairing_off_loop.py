"""The director pairs a round off the event loop (engine/tournaments.py `paired_off_loop`): while a slow pairing
runs, the loop keeps serving other work, and the pairing search is bounded by its deadline."""

from __future__ import annotations

import asyncio
import threading

import pytest

from engine import Engine
from engine import tournaments as director_mod
from engine.tournaments import Director
from league import pairing as pairing_mod
from league.model import Entrant
from league.settings import Settings
from league.tournament import Tournament
from rules import GAMES
from storage import Store

HUMANS = [Entrant(str(100 + i), f"Player {i}", rating=1500 - i) for i in range(4)]


@pytest.fixture
def games() -> dict:
    return dict(GAMES)


async def _entered(director: Director) -> int:
    entry = await director.create(name="Cup", settings=Settings(game="flying_blades", format="swiss", rounds=2),
                                  guild_id=9, channel_id=1, organizer_id=1, seed="cup-secret-seed")
    for e in HUMANS:
        await director.update(entry.row.id, lambda t, e=e: t.register(e))
    return entry.row.id


async def test_the_loop_serves_other_work_while_a_round_is_paired(store: Store, clock, games: dict,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # The pairing waits until a coroutine on the loop releases it: on the loop itself it would never be released.
    started, released = threading.Event(), threading.Event()
    seen_while_pairing: list[bool] = []
    real = Tournament.pair_next

    def slow_pair_next(self: Tournament) -> Tournament:
        started.set()
        seen_while_pairing.append(released.wait(timeout=10))  # False only when the loop was blocked
        return real(self)

    monkeypatch.setattr(Tournament, "pair_next", slow_pair_next)
    director = Director(Engine(store, games=games, now=clock))
    tid = await _entered(director)

    async def release() -> None:
        while not started.is_set():  # the loop turns while the pairing runs elsewhere
            await asyncio.sleep(0.001)
        released.set()

    entry, _ = await asyncio.gather(director.start(tid), release())
    assert seen_while_pairing == [True]
    assert entry.value.current is not None and len(entry.value.current.tables) == 2


async def test_the_director_pairs_within_the_pairing_deadline(store: Store, clock, games: dict,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    deadlines: list[float | None] = []
    real = pairing_mod.swiss_pairing

    def spy(*args: object, **kwargs: object) -> object:
        deadlines.append(pairing_mod._DEADLINE.get())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pairing_mod, "swiss_pairing", spy)
    director = Director(Engine(store, games=games, now=clock))
    tid = await _entered(director)
    await director.start(tid)
    assert deadlines == [director_mod.PAIRING_DEADLINE]
    assert pairing_mod._DEADLINE.get() is None  # the bound stays in the worker


async def test_a_round_whose_pairing_misses_its_deadline_gets_the_greedy_pairing_whole(
        store: Store, clock, games: dict, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    # Deadline 0: the pairing child (a real process) is killed before it can answer, as a search past 20 s is.
    monkeypatch.setattr(director_mod, "PAIRING_DEADLINE", 0.0)
    engine = Engine(store, games=games, now=clock)
    director = Director(engine)
    entry = await director.create(name="Cup", settings=Settings(game="flying_blades", format="swiss", rounds=2),
                                  guild_id=9, channel_id=1, organizer_id=1, seed="cup-secret-seed")
    six = [Entrant(str(200 + i), f"Player {i}", rating=1600 - 10 * i) for i in range(6)]
    for e in six:
        await director.update(entry.row.id, lambda t, e=e: t.register(e))
    entry = await director.start(entry.row.id)
    for table in entry.value.current.tables:
        for _ in range(5000):  # every seat plays as the bot would, to the end
            game = await engine.get(table.game_id)
            if game.status != "active":
                break
            seat = min(game.to_move())
            await engine.act(game.id, game.seats[seat].user_id, game.rules.bot_action(game.state, seat))
    with caplog.at_level("WARNING", logger="league.pairing"):
        await director.settle()
    assert "greedy fallback" in caplog.text
    value = (await director.get(entry.row.id)).value
    second = value.rounds[1]
    seated = sorted(p for t in second.tables for p in t.seats)
    assert seated == sorted(e.id for e in six)  # every entrant once: a whole round, not half of one
    met = {frozenset(t.seats) for t in value.rounds[0].tables}
    assert not met & {frozenset(t.seats) for t in second.tables}  # the fallback avoids rematches too
    for t in second.tables:  # and every table's game was created and knows its round
        assert (await engine.get(t.game_id)).meta[director_mod.TOURNAMENT]["round"] == 2
