"""A headless tournament: N bot entrants play a whole tournament through the real engine, storage and director,
in fake time. Organisers preview a format with it (`python bot.py tournament simulate ...`); the tests and the
benchmark use it too.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engine.core import Engine
from engine.tournaments import Director
from league.model import Entrant
from league.tournament import Settings, Tournament, resolve_format
from rules import GAMES
from storage import Store

START = datetime(2026, 1, 1, 12, tzinfo=UTC)


class FakeClock:
    """The engine's time: it moves only when told (a simulated tournament takes no real days)."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclass
class Simulation:
    tournament: Tournament
    seconds: float
    games: int
    round_seconds: list[float] = field(default_factory=list)

    @property
    def per_game(self) -> float:
        return self.seconds / max(1, self.games)


def bots(n: int) -> list[Entrant]:
    # Ratings spread so that seeding (elimination brackets, Swiss pairing numbers) has something to order by.
    return [Entrant(f"bot-{i}", f"Bot {i}", rating=float(2000 - 10 * i)) for i in range(1, n + 1)]


async def simulate(*, game: str, fmt: str, players: int, table_size: int, rounds: int = 0, seed: str = "sim",
                   options: dict[str, Any] | None = None, database: str | Path | None = None,
                   settings: Settings | None = None) -> Simulation:
    """Play a whole tournament of ``players`` bots; the database is a temporary SQLite file unless given.
    ``settings`` (the organiser's, e.g. bye value or pod table sizes) replaces game/fmt/table_size/rounds/options."""
    if settings is None:
        settings = Settings(game=game, format=resolve_format(fmt, table_size), table_size=table_size, rounds=rounds,
                            options=options or {})
    with tempfile.TemporaryDirectory(prefix="floorboard-sim-") as tmp:
        store = await Store.open(database or Path(tmp) / "simulation.sqlite3")
        try:
            return await _run(store, settings, players, seed)
        finally:
            await store.close()


async def _run(store: Store, settings: Settings, players: int, seed: str) -> Simulation:
    game = settings.game
    clock = FakeClock()
    engine = Engine(store, games=dict(GAMES), now=clock)
    director = Director(engine)
    rounds_done: list[float] = []
    last = [time.perf_counter()]

    async def timed(kind: str, row: Any, value: Tournament) -> None:
        if kind == "round_closed":
            now = time.perf_counter()
            rounds_done.append(now - last[0])
            last[0] = now
            clock.advance(hours=1)  # each round takes an hour of the tournament's time

    director.add_listener(timed)
    entry = await director.create(name=f"Simulation of {game}", settings=settings, guild_id=None, channel_id=0,
                                  organizer_id=0, seed=seed)
    for entrant in bots(players):
        entry = await director.update(entry.row.id, lambda t, e=entrant: t.register(e))
    began = time.perf_counter()
    last[0] = began
    await director.start(entry.row.id)
    await director.settle()
    for _ in range(10_000):  # a round that waits on nothing but its deadline (it should not): move time on
        entry = await director.get(entry.row.id)
        if entry.value.status != "running":
            break
        clock.advance(hours=entry.value.settings.round_hours)
        await engine.run_due()
        await director.settle()
    seconds = time.perf_counter() - began
    value = (await director.get(entry.row.id)).value
    games = sum(len(r.tables) if value.fmt != "score" else len(r.extra.get("games", {})) for r in value.rounds)
    return Simulation(value, seconds, games, rounds_done)


def standings_text(t: Tournament) -> str:
    names = {e.id: e.name for e in t.entrants}
    rows = t.standings()
    keys = list(rows[0].tiebreaks) if rows else []
    head = f"{'#':>3}  {'player':<12} {'points':>6}  " + "  ".join(f"{k:>16}" for k in keys)
    lines = [f"{t.name}: {t.fmt}, {len(t.entrants)} players, {len(t.rounds)} rounds", head]
    for s in rows:
        marks = " (dropped)" if s.dropped else ""
        lines.append(f"{s.rank:>3}  {names.get(s.player, s.player):<12} {s.points:>6g}  "
                     + "  ".join(f"{s.tiebreaks[k]:>16g}" for k in keys) + marks)
    return "\n".join(lines)


def run(**kw: Any) -> Simulation:
    return asyncio.run(simulate(**kw))
