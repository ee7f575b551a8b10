"""Balance check for Floating Floors: N seeded games per player count, bots in every seat.

    .venv/bin/python tools/floating_floors_sim.py [--games N] [--players 2|3|4|all] [--option key=value ...]
                                                  [--max-turns T]
    .venv/bin/python tools/floating_floors_sim.py --digest
    .venv/bin/python tools/floating_floors_sim.py --turn-cpu

``--digest`` prints one hash of everything the rules answer in six bot games (2–4 players, bands, exact, campaign 8
with shaky hands, Challenges 3/5/6/7, Master): every state, legal list, the preview of every legal action (or its
refusal), a sample of preview views, every seat's view and every event. A performance change to the rules must
leave it identical (issue 25). ``--turn-cpu`` prints the CPU milliseconds (``time.process_time``) of each bot turn
of the bench (`tests.bench.bench_floating_floors`: ``bench-ff-2``, 12 turns; ``bench-ff-4``, 20), every action
applied and after it every preview its selects show, as median and p95 per player count: one pass, as the bench.

Prints, per player count: each seat's share of the wins, the average number of player turns, collapses per game,
the longest game, unfinished games, the milliseconds the bots took per action, per player turn (mean) and for
the slowest player turn, and the seconds taken. Seeds are
``ffsim-<players>-<i>``, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.base import RulesError
from rules.floating_floors.game import FloatingFloors, preview, preview_view
from rules.floating_floors.state import to_json

DIGEST_GAMES = (  # (players, options, seed): every mode the previews branch on
    (2, {"tension": "bands"}, "digest-0"),
    (3, {"tension": "exact"}, "digest-1"),
    (4, {"tension": "bands"}, "digest-2"),
    (3, {"tension": "exact", "challenges": "campaign8", "shaky": "all"}, "digest-3"),
    (4, {"tension": "exact", "challenges": "3,5,6,7"}, "digest-4"),
    (2, {"tension": "bands", "master": "1"}, "digest-5"),
)


@dataclass
class Result:
    games: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    turns: int = 0
    collapses: int = 0
    longest: int = 0
    unfinished: int = 0
    actions: int = 0
    bot_seconds: float = 0.0
    slowest_turn: float = 0.0
    seconds: float = 0.0


@dataclass
class Game:
    winner: int | None
    turns: int
    collapses: int
    actions: int
    thinking: float  # seconds the bots spent choosing
    slowest_turn: float  # the most seconds one player turn took to choose


def play(players: int, seed: str, options: dict | None = None, max_turns: int = 400) -> Game:
    """One game with bots in every seat, stopped after ``max_turns`` player turns."""
    g = FloatingFloors()
    s = g.new(players, options or {}, seed)
    collapses = actions = 0
    per_turn: Counter[int] = Counter()
    while s.phase != "over" and s.turn <= max_turns:
        start = time.perf_counter()
        action = g.bot_action(s, s.current)
        per_turn[s.turn] += time.perf_counter() - start
        s, events = g.apply(s, s.current, action)
        actions += 1
        collapses += sum(e.kind == "collapse" for e in events)
    return Game(s.winner, s.turn, collapses, actions, sum(per_turn.values()), max(per_turn.values(), default=0))


def simulate(players: int, games: int, options: dict | None = None, max_turns: int = 400) -> Result:
    r, start = Result(), time.perf_counter()
    for i in range(games):
        game = play(players, f"ffsim-{players}-{i}", options, max_turns)
        r.games += 1
        if game.winner is None:
            r.unfinished += 1
        else:
            r.wins[game.winner] += 1
        r.turns += game.turns
        r.collapses += game.collapses
        r.longest = max(r.longest, game.turns)
        r.actions += game.actions
        r.bot_seconds += game.thinking
        r.slowest_turn = max(r.slowest_turn, game.slowest_turn)
    r.seconds = time.perf_counter() - start
    return r


def _answer(fn: object, *args: object) -> object:
    try:
        return fn(*args)  # type: ignore[operator]
    except RulesError as e:
        return ["refused", type(e).__name__, str(e)]


def digest(max_actions: int = 400) -> str:
    """One hash of every answer of the rules in the `DIGEST_GAMES` bot games (at most ``max_actions`` each)."""
    g, h = FloatingFloors(), hashlib.sha256()

    def feed(value: object) -> None:
        h.update(json.dumps(value, sort_keys=True, default=repr).encode())

    for players, options, seed in DIGEST_GAMES:
        s = g.new(players, options, seed)
        pick = random.Random(seed)
        for _ in range(max_actions):
            if s.phase == "over":
                break
            seat = s.current
            legal = g.legal_actions(s, seat)
            feed([to_json(s), legal, [g.view(s, q) for q in (None, *range(players))]])
            feed([_answer(preview, s, seat, a) for a in legal])
            feed([_answer(preview_view, s, seat, a) for a in pick.sample(legal, min(3, len(legal)))])
            s, events = g.apply(s, seat, g.bot_action(s, seat))
            feed([[e.kind, e.seat, e.data] for e in events])
        feed(to_json(s))
    return h.hexdigest()


def turn_cpu() -> dict[int, tuple[float, float]]:
    """(median, p95) CPU ms of the bench's bot turns (apply + every preview shown), per player count."""
    from tests.bench import bench_floating_floors as bench  # lazy: the bench imports the renderer (heavy)
    from tests.bench.harness import median_p95  # lazy: with the bench

    out = {}
    for players, count in ((2, 12), (4, 20)):
        times, turns = [], bench.turns(players, f"bench-ff-{players}")[:count]
        gc.collect()  # the bots' garbage from playing the turns is collected before, not in a timed turn
        for turn in turns:
            start = time.process_time()
            for state, seat, action in turn:
                bench.RULES.apply(state, seat, action)
                bench._previews(state, seat)
            times.append((time.process_time() - start) * 1000)
        out[players] = median_p95(times)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--players", choices=("2", "3", "4", "all"), default="all")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a table option, e.g. challenges=1,4 (repeatable)")
    ap.add_argument("--max-turns", type=int, default=400)
    ap.add_argument("--digest", action="store_true", help="print the hash of the rules' answers in six games")
    ap.add_argument("--turn-cpu", action="store_true", help="CPU ms per bot turn of the bench (median, p95)")
    args = ap.parse_args(argv)
    if args.digest:
        print(digest())
        return
    if args.turn_cpu:
        for players, (median, p95) in turn_cpu().items():
            print(f"{players}p turn (apply + every preview), CPU ms: median {median:.1f}, p95 {p95:.1f}")
        return
    options = dict(o.split("=", 1) for o in args.option)
    counts = (2, 3, 4) if args.players == "all" else (int(args.players),)
    print(f"{args.games} games each, options {options or '{}'}, at most {args.max_turns} player turns")
    print(f"{'players':7} {'win shares by seat':28} {'avg turns':>9} {'collapses':>9} {'longest':>7} "
          f"{'unfinished':>10} {'ms/action':>9} {'ms/turn':>7} {'max ms/turn':>11} {'secs':>6}")
    for n in counts:
        r = simulate(n, args.games, options, args.max_turns)
        shares = " ".join(f"{r.wins[seat] / r.games:5.0%}" for seat in range(n))
        print(f"{n:7} {shares:28} {r.turns / r.games:9.1f} {r.collapses / r.games:9.2f} {r.longest:7} "
              f"{r.unfinished:10} {1000 * r.bot_seconds / max(r.actions, 1):9.1f} "
              f"{1000 * r.bot_seconds / max(r.turns, 1):7.0f} {1000 * r.slowest_turn:11.0f} {r.seconds:6.1f}")


if __name__ == "__main__":
    main()
