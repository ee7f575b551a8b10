"""Tournament simulation cost (``python -m tests.bench tournament``): whole tournaments of bots through the real
engine, director and SQLite file (engine/simulate.py), for 64 and 256 entrants.

Per field: Swiss of 2-player Night of the 27 Ninja games and Swiss-like pods of 3; the cost per game and per round
(wall clock, everything included: pairing, creating and linking games, bot moves, saves, results), and the pairing
time per round alone (the pairing of each round re-run from the tournament as it stood, median and worst).

× floor: the cost per game divided by the same game's bot moves applied by the pure rules alone (no engine, no
storage, no asyncio), measured here on the same seeds: what the host adds to a game.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import replace

from engine.simulate import simulate
from league.tournament import Tournament
from rules import GAMES

FIELDS = (64, 256)
SHAPES = (("swiss", 2), ("swiss", 3))
GAME = "flying_blades"


def pure_game_ms(players: int, seeds: int = 20) -> float:
    """Median time of one bot game of ``players`` through the pure rules only: the floor."""
    rules = GAMES[GAME]
    times = []
    for i in range(seeds):
        s = rules.new(players, rules.normalize_options(players, {}), f"floor/{i}")
        began = time.perf_counter()
        while rules.outcome(s) is None:
            seat = min(rules.to_move(s))
            s, _ = rules.apply(s, seat, rules.bot_action(s, seat))
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def pairing_ms(t: Tournament) -> list[float]:
    """Each round's pairing again, from the tournament as it stood before that round."""
    out = []
    for k in range(len(t.rounds)):
        before = replace(t, rounds=t.rounds[:k], status="running")
        began = time.perf_counter()
        before._pairing(k + 1)
        out.append((time.perf_counter() - began) * 1000)
    return out


def report(fields: tuple[int, ...] = FIELDS, rounds: int = 0) -> str:
    lines = ["| field | format | rounds | games | per game ms | × floor | per round s | pairing ms (median / max) |",
             "|---|---|---|---|---|---|---|---|"]
    floors = {size: pure_game_ms(size) for _, size in SHAPES}
    for n in fields:
        for fmt, size in SHAPES:
            sim = asyncio.run(simulate(game=GAME, fmt=fmt, players=n, table_size=size, rounds=rounds,
                                       seed=f"bench/{n}/{size}"))
            t = sim.tournament
            pairs = pairing_ms(t)
            per_round = sim.seconds / max(1, len(t.rounds))
            lines.append(f"| {n} | {t.fmt} ({size}) | {len(t.rounds)} | {sim.games} | {1000 * sim.per_game:.1f} | "
                         f"{1000 * sim.per_game / floors[size]:.1f} | {per_round:.2f} | "
                         f"{statistics.median(pairs):.1f} / {max(pairs):.1f} |")
    return "\n".join(lines)
