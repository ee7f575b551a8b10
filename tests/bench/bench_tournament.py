"""Tournament simulation cost (``python -m tests.bench tournament``): whole tournaments of bots through the real
engine, director and SQLite file (engine/simulate.py), for 64 and 256 entrants.

Per field: Swiss of 2-player Night of the 27 Ninja games and Swiss-like pods of 3; the cost per game and per round
(wall clock, everything included: pairing, creating and linking games, bot moves, saves, results), and the pairing
time per round alone (the pairing of each round re-run from the tournament as it stood, median and worst).

× floor: the cost per game divided by the same game's bot moves applied by the pure rules alone (no engine, no
storage, no asyncio), measured here on the same seeds: what the host adds to a game.

Pairing at scale (issue 22): Swiss pairing time for 256, 512 and 1,024 entrants in round 1 and in round 4 (a history
of three rounds made by the greedy pairing and seeded results), as the director pairs (`paired_off_loop`: a child
process with a deadline, the greedy pairing past it) and in-process without a bound (skipped above 512); and the
event loop's lag (a 5 ms timer's overshoot, p99 and max) while a 512-entrant round is paired on the loop (before)
and off it (now).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from engine.simulate import simulate
from engine.tournaments import PAIRING_DEADLINE, paired_off_loop
from league import pairing as pr
from league.model import Pairing
from league.tournament import Tournament
from rules import GAMES

FIELDS = (64, 256)
PAIRING_SIZES = (256, 512, 1024)
LAG_SIZE = 512
UNBOUNDED_MAX = 512  # in-process pairing without a bound is not re-run above this (71 s at 1,024)
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


def games_report(fields: tuple[int, ...] = FIELDS, rounds: int = 0) -> str:
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


def report(fields: tuple[int, ...] = FIELDS, rounds: int = 0, pairing_sizes: tuple[int, ...] = PAIRING_SIZES,
           lag_size: int = LAG_SIZE) -> str:
    """The whole-tournament table, then the pairing-at-scale and loop-lag tables."""
    return games_report(fields, rounds) + "\n\n" + pairing_report(pairing_sizes, lag_size)


def swiss_field(n: int, before_round: int, seed: str = "bench") -> list[pr.SwissPlayer]:
    """``n`` entrants as they stand before ``before_round``: earlier rounds paired greedily, results by seeded coin
    (the stronger side wins 60 %, 20 % draws), so the score groups and histories look like a real event's."""
    rng = random.Random(f"{seed}/{n}/{before_round}")
    ids = [f"p{i}" for i in range(1, n + 1)]
    points = dict.fromkeys(ids, 0.0)
    met: dict[str, set[str]] = {i: set() for i in ids}
    byes: set[str] = set()

    def players() -> list[pr.SwissPlayer]:
        return [pr.SwissPlayer(i, 2400 - k, points[i], frozenset(met[i]), i in byes, k)
                for k, i in enumerate(ids, 1)]

    for _ in range(before_round - 1):
        made = pr._pair_greedy(pr._Field(players()))
        for a, b in made.tables:
            met[a].add(b)
            met[b].add(a)
            roll = rng.random()
            if roll < 0.2:
                points[a] += 0.5
                points[b] += 0.5
            else:
                points[a if (roll < 0.68) == (int(a[1:]) < int(b[1:])) else b] += 1
        for b in made.byes:
            byes.add(b)
            points[b] += 1
    return players()


def _pair_bounded(players: list[pr.SwissPlayer], number: int) -> Pairing:
    return asyncio.run(paired_off_loop(lambda: pr.swiss_pairing(players, number)))  # type: ignore[arg-type,return-value]


def _timed(fn: Callable[[], Pairing]) -> tuple[float, Pairing]:
    began = time.perf_counter()
    made = fn()
    return time.perf_counter() - began, made


async def _lag_while(work: Callable[[], Awaitable[object]], tick: float = 0.005) -> list[float]:
    """Overshoot (ms) of a ``tick``-second timer on the loop while ``work`` runs."""
    lags: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            began = time.perf_counter()
            await asyncio.sleep(tick)
            lags.append((time.perf_counter() - began - tick) * 1000)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(4 * tick)
    await work()
    done = True
    await task
    return lags


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def loop_lag(n: int = LAG_SIZE) -> list[tuple[str, list[float]]]:
    """The heaviest search we know, the libraries on a fresh field (pairing-core: 5–7 s at 512), which is what the
    director ran on the loop in round 1 before; now round 1 needs no search, so the search is run explicitly."""
    players = swiss_field(n, 1)

    async def on_loop() -> None:
        pr._best_pairing(pr._Field(players), 1, PAIRING_DEADLINE)

    async def off_loop() -> None:
        await paired_off_loop(  # type: ignore[arg-type]
            lambda: pr._pair_within(players, 1, PAIRING_DEADLINE, PAIRING_DEADLINE))

    return [(label, asyncio.run(_lag_while(work))) for label, work in (("on the loop (before)", on_loop),
                                                                       ("off the loop (now)", off_loop))]


def pairing_report(sizes: tuple[int, ...] = PAIRING_SIZES, lag_size: int = LAG_SIZE) -> str:
    lines = ["| entrants | round | as the director ms | answered by | downfloats (bound) | in-process ms |",
             "|---|---|---|---|---|---|"]
    for n in sizes:
        for number in (1, 4):
            players = swiss_field(n, number)
            field = pr._Field(players)
            seconds, made = _timed(lambda p=players, k=number: _pair_bounded(p, k))
            quality = field.quality(made)
            source = ("initial (S1 v S2)" if number == 1 else
                      "greedy (deadline)" if made == pr._pair_greedy(field) else "search")
            before = (f"{1000 * _timed(lambda p=players, k=number: pr.swiss_pairing(p, k))[0]:.1f}"
                      if n <= UNBOUNDED_MAX else "—")
            lines.append(f"| {n} | {number} | {1000 * seconds:.1f} | {source} | "
                         f"{quality[2] if quality else '—'} ({field.ideal[2]}) | {before} |")
    lines += ["", f"| loop lag while the libraries pair {lag_size} entrants | timer ticks | p99 ms | max ms |",
              "|---|---|---|---|"]
    for label, lags in loop_lag(lag_size):
        lines.append(f"| {label} | {len(lags)} | {_p99(lags):.1f} | {max(lags):.1f} |")
    return "\n".join(lines)
