"""A headless tournament: N bot entrants play a whole tournament through the real engine, storage and director,
in fake time. Organisers preview a format with it (`python bot.py tournament simulate ...`); the tests and the
benchmark use it too.
"""

from __future__ import annotations

import asyncio
import contextvars
import random
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engine.core import Engine
from engine.tournaments import Director
from engine.web import set_web
from league.model import Entrant
from league.settings import Settings, resolve_format
from league.tournament import Tournament
from rules import GAMES
from rules.floor_plan.planner import suggest
from storage import Store, open_store

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
    web_slug: str | None = None  # the tournament's web page, when kept in a database for the web site

    @property
    def per_game(self) -> float:
        return self.seconds / max(1, self.games)


# The seats of the table whose bots are moving (set around Engine.play_bots; asyncio.to_thread carries it into
# the thread where bot_action runs), so that a bot's choice can depend on which entrant it plays for.
_PLAYING: contextvars.ContextVar[tuple[int, tuple[str, ...]]] = contextvars.ContextVar("sim_playing")
MOST_NOISE = 0.5  # the weakest bot plays a random move (else its best) this often; the strongest never


class VariedBots:
    """A game's rules whose bots differ in strength: bot i of n plays a seeded random move (else the rules' own
    choice) with a chance rising from 0 to MOST_NOISE, so that a score event, where every entrant plays the same
    deal alone, is a spread of scores (before: the same deterministic bot, one score, an n-way tie)."""

    def __init__(self, rules: Any, noise: dict[str, float], seed: str) -> None:
        self._rules, self._noise, self._seed = rules, noise, seed
        self._moves: dict[tuple[int, int], int] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def bot_action(self, s: Any, seat: int) -> str:
        table, names = _PLAYING.get((0, ()))
        name = names[seat] if seat < len(names) else ""
        k = self._moves[table, seat] = self._moves.get((table, seat), 0) + 1
        rng = random.Random(f"{self._seed}/{table}/{name}/{k}")
        if rng.random() >= self._noise.get(name, 0.0):
            return self._rules.bot_action(s, seat)
        choices = self._alternatives(s, seat)
        return rng.choice(choices) if choices else self._rules.bot_action(s, seat)

    def _alternatives(self, s: Any, seat: int) -> list[str]:
        legal = self._rules.legal_actions(s, seat)
        if legal:
            return list(legal)
        if self._rules.id == "floor_plan":  # too many placements to list: the planner's good few instead
            return [x.text for x in suggest(self._rules, s, seat, limit=8)]
        return []


class SimEngine(Engine):
    """The engine, telling varied bots whose seats they play."""

    async def play_bots(self, table_id: int) -> list[Any]:
        table = await self.get(table_id)
        token = _PLAYING.set((table_id, tuple(info.name for info in table.seats)))
        try:
            return await super().play_bots(table_id)
        finally:
            _PLAYING.reset(token)


def bots(n: int) -> list[Entrant]:
    # Ratings spread so that seeding (elimination brackets, Swiss pairing numbers) has something to order by.
    return [Entrant(f"bot-{i}", f"Bot {i}", rating=float(2000 - 10 * i)) for i in range(1, n + 1)]


async def simulate(*, game: str, fmt: str, players: int, table_size: int, rounds: int = 0, seed: str = "sim",
                   options: dict[str, Any] | None = None, database: str | Path | None = None,
                   settings: Settings | None = None, varied: bool | None = None,
                   web_guild: int | None = None) -> Simulation:
    """Play a whole tournament of ``players`` bots; the database is a temporary SQLite file unless given.
    ``settings`` (the organiser's, e.g. bye value or pod table sizes) replaces game/fmt/table_size/rounds/options.
    ``varied``: bots of seeded, different strengths (default: in score events only; elsewhere bots of equal
    strength measure what the format itself does, e.g. the first seat's advantage). ``web_guild``: the tournament
    belongs to this server, which is opted in to the web site, and everything it played gets a slug."""
    if settings is None:
        settings = Settings(game=game, format=resolve_format(fmt, table_size), table_size=table_size, rounds=rounds,
                            options=options or {})
    with tempfile.TemporaryDirectory(prefix="floorboard-sim-") as tmp:
        store = await open_store(database or Path(tmp) / "simulation.sqlite3")
        try:
            sim = await _run(store, settings, players, seed,
                             settings.format == "score" if varied is None else varied, web_guild)
            if web_guild is not None:
                sim.web_slug = await _publish(store, web_guild)
            return sim
        finally:
            await store.close()


async def _publish(store: Store, guild_id: int) -> str | None:
    """Opt the simulation's server in to the web site; the slug of its newest tournament (this simulation's)."""
    await set_web(store, guild_id, True)
    rows = await store.tournaments_in_guild(guild_id, ("running", "finished"))
    return (await store.web_slugs("tournament", guild_id, [rows[-1].id])).get(rows[-1].id) if rows else None


async def _run(store: Store, settings: Settings, players: int, seed: str, varied: bool,
               guild_id: int | None = None) -> Simulation:
    game = settings.game
    clock = FakeClock()
    games: dict[str, Any] = dict(GAMES)
    if varied:
        entrants = bots(players)
        noise = {e.name: MOST_NOISE * i / max(1, len(entrants) - 1) for i, e in enumerate(entrants)}
        games[game] = VariedBots(games[game], noise, seed)
    engine = SimEngine(store, games=games, now=clock)
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
    entry = await director.create(name=f"Simulation of {game}", settings=settings, guild_id=guild_id, channel_id=0,
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
    fmt = " then ".join(s.format for s in t.stages) or t.fmt  # a multi-stage event: every stage played
    lines = [f"{t.name}: {fmt}, {len(t.entrants)} players, {len(t.rounds)} rounds", head]
    for s in rows:
        marks = " (dropped)" if s.dropped else ""
        lines.append(f"{s.rank:>3}  {names.get(s.player, s.player):<12} {s.points:>6g}  "
                     + "  ".join(f"{s.tiebreaks[k]:>16g}" for k in keys) + marks)
    return "\n".join(lines)


def run(**kw: Any) -> Simulation:
    return asyncio.run(simulate(**kw))
