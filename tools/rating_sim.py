"""A simulated league for the ratings players read (docs/ratings.md quotes its figures).

    .venv/bin/python tools/rating_sim.py [--games 1000] [--players 24] [--seeds 10]

Players of known strength (evenly spaced, one of them exactly the field's middle: the "50% player") play
``--games`` rated games at tables of 2 to 5 drawn at random, rated with league.ratings as the bot rates them.
A table's order follows strength plus Gumbel noise (the Plackett-Luce model itself), and players whose
performances fall within `TIE_GAP` of each other tie. Printed, averaged over ``--seeds`` seeded runs:

- the Spearman rank correlation of the displayed rating (`Rating.display`) and of the conservative mu − 3σ with
  the true strengths after the last game;
- the displayed rating of the 50% player after 10, 25, 50 of their games and at the end, and the field's mean
  displayed rating at the end (a display that grows by playing alone shows up here);
- two equal players alternating wins for 50 games; a 5-way tie of newcomers; tying for 2nd against a clean 3rd;
- how often the leaderboard order (conservative) puts a lower displayed number above a higher one;
- when the provisional mark goes (games played by then).
Seeds are ``ratingsim-<i>``: a run is reproducible.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league.ratings import Rating, rate_table

TIE_GAP = 0.05  # performances this close tie (about 1 table in 12 has a tie)
CHECKPOINTS = (10, 25, 50)
SPREAD = 2.0  # strengths from −SPREAD to +SPREAD in Gumbel-noise units


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    def ranks(vs: Sequence[float]) -> list[float]:
        order = sorted(range(len(vs)), key=lambda i: vs[i])
        out = [0.0] * len(vs)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and vs[order[j + 1]] == vs[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    return cov / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def table_ranking(players: list[str], strength: dict[str, float], rng: random.Random) -> tuple[tuple[str, ...], ...]:
    """Best first; players within TIE_GAP of the one above them share its place."""
    perf = sorted(((strength[p] - math.log(-math.log(rng.random())), p) for p in players), reverse=True)
    groups: list[list[str]] = []
    last = math.inf
    for value, p in perf:
        if groups and last - value < TIE_GAP:
            groups[-1].append(p)
        else:
            groups.append([p])
        last = value
    return tuple(tuple(g) for g in groups)


def league(players: int, games: int, seed: str) -> dict[str, object]:
    rng = random.Random(seed)
    ids = [f"p{i:02d}" for i in range(players)]
    strength = {p: -SPREAD + 2 * SPREAD * i / (players - 1) for i, p in enumerate(ids)}
    middle = ids[(players - 1) // 2] if players % 2 else ids[players // 2]
    strength[middle] = 0.0  # the 50% player: the field's middle
    ratings: dict[str, Rating] = {}
    seen: dict[int, int] = {}
    settled: list[int] = []
    for _ in range(games):
        table = rng.sample(ids, rng.choice((2, 2, 3, 4, 5)))
        was = {p: ratings.get(p, Rating()) for p in table}
        ratings = rate_table(ratings, table_ranking(table, strength, rng))
        for p in table:
            if was[p].provisional() and not ratings[p].provisional():
                settled.append(ratings[p].games)
        n = ratings.get(middle, Rating()).games
        if n in CHECKPOINTS and n not in seen and middle in table:
            seen[n] = ratings[middle].display
    final = [ratings.get(p, Rating()) for p in ids]
    by_board = sorted(final, key=lambda r: r.mu - 3 * r.sigma, reverse=True)
    inversions = sum(a.display < b.display for a, b in itertools.pairwise(by_board))
    return {"rho_display": spearman([r.display for r in final], [strength[p] for p in ids]),
            "rho_conservative": spearman([r.mu - 3 * r.sigma for r in final], [strength[p] for p in ids]),
            "middle": seen, "middle_end": ratings[middle].display, "middle_games": ratings[middle].games,
            "field_mean": statistics.fmean(r.display for r in final), "inversions": inversions / (players - 1),
            "settled": settled}


def scenarios() -> list[str]:
    pool: dict[str, Rating] = {}
    for i in range(50):
        pool = rate_table(pool, (("a",), ("b",)) if i % 2 else (("b",), ("a",)))
    tie = rate_table({}, (tuple("abcde"),))
    shared, clean = rate_table({}, (("a",), ("b", "c"), ("d",))), rate_table({}, (("a",), ("b",), ("c",), ("d",)))
    return [f"two equal players alternating wins, 50 games: {pool['a'].display} and {pool['b'].display}"
            f" (sigma {pool['a'].sigma:.2f})",
            f"5-way tie of newcomers: display {Rating().display} -> {tie['a'].display}",
            f"4 newcomers, tie for 2nd: mu {shared['b'].mu:.2f}; clean 2nd {clean['b'].mu:.2f}, clean 3rd"
            f" {clean['c'].mu:.2f}; last {shared['d'].mu:.2f} (clean last {clean['d'].mu:.2f})"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=24)
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()
    runs = [league(args.players, args.games, f"ratingsim-{i}") for i in range(args.seeds)]

    def mean(key: str) -> float:
        return statistics.fmean(float(r[key]) for r in runs)  # type: ignore[arg-type]

    print(f"{args.seeds} leagues of {args.players} players, {args.games} games each")
    print(f"Spearman(displayed rating, true strength): {mean('rho_display'):.3f}")
    print(f"Spearman(mu - 3 sigma, true strength):     {mean('rho_conservative'):.3f}")
    for n in CHECKPOINTS:
        shown = [r["middle"][n] for r in runs if n in r["middle"]]  # type: ignore[operator,index]
        print(f"50% player after {n} games: {statistics.fmean(shown):.0f} (min {min(shown)}, max {max(shown)})")
    print(f"50% player at the end ({mean('middle_games'):.0f} games): {mean('middle_end'):.0f};"
          f" field mean displayed: {mean('field_mean'):.0f}")
    print(f"leaderboard (mu - 3 sigma order) shows a lower number above a higher one: {100 * mean('inversions'):.1f}%"
          " of adjacent pairs")
    settled = [g for r in runs for g in r["settled"]]  # type: ignore[attr-defined]
    if settled:
        print(f"provisional mark goes after a median of {statistics.median(settled):.0f} games"
              f" (10%-90%: {sorted(settled)[len(settled) // 10]}-{sorted(settled)[9 * len(settled) // 10]})")
    for line in scenarios():
        print(line)


if __name__ == "__main__":
    main()
