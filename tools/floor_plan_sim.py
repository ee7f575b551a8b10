"""Floor Plan balance simulation: ``python -m tools.floor_plan_sim --seeds 200 [--bot planner|baseline]
[--players 1|2] [--json]``.

Plays whole games with a bot through the real `FloorPlan` rules (seeds ``sim-0`` … ``sim-N-1``, clients drawn
from each seed) and prints the score distribution, rounds to the end, the solo rating titles, end reasons and
each demand's share of the points in the top-quartile scores (does one demand dominate a winning score?).
``--clients FILE`` plays with other client cards (same ids, e.g. the proposed re-pointing
``tools/floor_plan_clients_proposed.json``) without touching ``data/floor_plan/clients.json``.
``--against FILE`` compares seed by seed with an earlier ``--json`` run of the same seeds (games better / worse /
equal, the mean paired score difference and its 95% interval): a change of the bot is judged on the same deals.
``--players 2`` plays the head-to-head instead: the planner (seat 0 on even seeds, seat 1 on odd ones) against
the baseline bot, wins / draws / losses by the game's own outcome.

The pure part (`play_solo`, `play_duel`, `summarize`, `head_to_head`) is importable by tests and benchmarks.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

from rules.floor_plan import FloorPlan
from rules.floor_plan import bot as fpbot
from rules.floor_plan import demands as dm
from rules.floor_plan.game import SHEET_DATA, State, bubbles_used, door_bonus

FP = FloorPlan()
Bot = Callable[[FloorPlan, State, int], str]
BOTS: dict[str, Bot] = {"planner": fpbot.choose, "baseline": fpbot.choose_baseline}
MAX_ROUNDS = 60  # a guard: a solo game ends by round 20, a game with others when the map fills


@dataclass(frozen=True)
class SoloResult:
    seed: str
    clients: tuple[str, ...]
    score: int
    rounds: int
    reason: str  # sixth | full | bubbles
    rating: str
    notes: int  # points from the notes
    door_bonus: int
    bubbles: int  # points from unused bubbles
    demands: dict[str, int]  # demand id -> points it scored


def _play(s: State, bots: list[Bot]) -> State:
    while FP.outcome(s) is None:
        if s.round > MAX_ROUNDS:
            raise RuntimeError(f"{s.seed}: no end after {MAX_ROUNDS} rounds")
        for seat in sorted(FP.to_move(s)):
            if seat in FP.to_move(s):
                s, _ = FP.apply(s, seat, bots[seat](FP, s, seat))
    return s


def play_solo(seed: str, bot: str = "planner") -> SoloResult:
    s = _play(FP.new(1, {}, seed), [BOTS[bot]])
    board = s.boards[0]
    score = int(FP.outcome(s).scores[0])  # type: ignore[union-attr]
    demands: Counter[str] = Counter()
    for c in board.claims:
        demands[c.demand] += c.points
    return SoloResult(seed, s.clients, score, s.round, s.reason.rsplit(".", 1)[-1], SHEET_DATA.rating(score),
                      board.notes_total(), door_bonus(s, 0), (SHEET_DATA.solo_bubbles - bubbles_used(s)) // 2,
                      dict(demands))


def play_duel(seed: str, first: str = "planner", second: str = "baseline") -> tuple[float, float, int]:
    """Scores of ``first`` and ``second`` (seats 0 and 1) and which won: 1, 0 (draw) or -1."""
    s = _play(FP.new(2, {}, seed), [BOTS[first], BOTS[second]])
    out = FP.outcome(s)
    assert out is not None
    won = 0 if len(out.winners) == 2 else (1 if out.winners == (0,) else -1)
    return out.scores[0], out.scores[1], won


def head_to_head(seeds: list[str], bot: str = "planner", other: str = "baseline") -> dict[str, Any]:
    """``bot`` against ``other`` over the seeds, swapping seats every other seed."""
    wins = draws = losses = 0
    margins = []
    for i, seed in enumerate(seeds):
        if i % 2 == 0:
            a, b, won = play_duel(seed, bot, other)
        else:
            b, a, won = play_duel(seed, other, bot)
            won = -won
        wins += won == 1
        draws += won == 0
        losses += won == -1
        margins.append(a - b)
    return {"games": len(seeds), "bot": bot, "other": other, "wins": wins, "draws": draws, "losses": losses,
            "mean_margin": round(statistics.fmean(margins), 2) if margins else 0.0}


def use_clients(path: Path) -> None:
    """Play with the client cards of ``path`` (validated like the data file; the ids must be the same)."""
    clients = dm.load_clients(path)
    if set(clients) != set(dm.CLIENTS):
        raise SystemExit(f"{path}: the client ids must be those of data/floor_plan/clients.json")
    dm.CLIENTS.clear()
    dm.CLIENTS.update(clients)
    dm.DEMANDS.clear()
    dm.DEMANDS.update({d.id: d for c in clients.values() for d in c.demands})


def _quartiles(values: list[int]) -> dict[str, float]:
    v = sorted(values)
    q = statistics.quantiles(v, n=4, method="inclusive") if len(v) > 1 else [v[0]] * 3
    return {"min": v[0], "q1": q[0], "median": q[1], "q3": q[2], "max": v[-1],
            "mean": round(statistics.fmean(v), 2)}


def _single_shares(results: list[SoloResult]) -> list[float]:
    return [max(r.demands.values(), default=0) / r.score for r in results if r.score]


def summarize(results: list[SoloResult]) -> dict[str, Any]:
    """The distributions of a batch of solo games (see the module docstring)."""
    scores = [r.score for r in results]
    top_cut = sorted(scores)[(3 * len(scores)) // 4] if scores else 0
    top = [r for r in results if r.score >= top_cut]
    share: Counter[str] = Counter()
    for r in top:
        for d, p in r.demands.items():
            share[d] += p
    total = sum(r.score for r in top) or 1
    ratings = Counter(r.rating for r in results)
    return {
        "games": len(results),
        "score": _quartiles(scores),
        "rounds": _quartiles([r.rounds for r in results]),
        "ratings": {rid: ratings.get(rid, 0) for _, rid in SHEET_DATA.ratings},
        "reasons": dict(Counter(r.reason for r in results)),
        "parts": {"notes": round(statistics.fmean(r.notes for r in results), 2),
                  "door_bonus": round(statistics.fmean(r.door_bonus for r in results), 2),
                  "bubbles": round(statistics.fmean(r.bubbles for r in results), 2)},
        # Share of all points in top-quartile games scored by each demand (largest first).
        "top_quartile_share": {d: round(p / total, 3) for d, p in share.most_common()},
        # The largest share one demand takes of a top-quartile game's score: the median game and the worst one.
        "median_single_share": round(statistics.median(_single_shares(top) or [0.0]), 3),
        "max_single_share": round(max(_single_shares(top), default=0.0), 3),
    }


def run(seeds: int, bot: str = "planner", prefix: str = "sim") -> list[SoloResult]:
    return [play_solo(f"{prefix}-{i}", bot) for i in range(seeds)]


def paired(before: dict[str, int], after: dict[str, int]) -> dict[str, Any]:
    """Seed by seed ``after - before`` over the seeds both played: better / worse / equal, and the mean
    difference with its 95% interval (normal approximation: a few hundred games)."""
    diffs = [after[k] - before[k] for k in before if k in after]
    if not diffs:
        raise ValueError("no seed in common")
    mean = statistics.fmean(diffs)
    half = (NormalDist().inv_cdf(0.975) * statistics.stdev(diffs) / math.sqrt(len(diffs))) if len(diffs) > 1 else 0.0
    return {"games": len(diffs), "better": sum(d > 0 for d in diffs), "worse": sum(d < 0 for d in diffs),
            "equal": sum(d == 0 for d in diffs), "mean_diff": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)]}


def _scores(path: Path) -> dict[str, int]:
    """Seed -> score of an earlier ``--json`` run."""
    return {g["seed"]: g["score"] for g in json.loads(path.read_text())["games_detail"]}


def _print(summary: dict[str, Any]) -> None:
    for key in ("score", "rounds"):
        q = summary[key]
        print(f"{key:>8}: min {q['min']}  q1 {q['q1']}  median {q['median']}  q3 {q['q3']}  max {q['max']}  "
              f"mean {q['mean']}")
    print(" ratings: " + ", ".join(f"{k} {v}" for k, v in summary["ratings"].items()))
    print(" reasons: " + ", ".join(f"{k} {v}" for k, v in summary["reasons"].items()))
    print("   parts: " + ", ".join(f"{k} {v}" for k, v in summary["parts"].items()))
    shares = list(summary["top_quartile_share"].items())[:8]
    print("top-quartile share: " + ", ".join(f"{k} {v:.0%}" for k, v in shares))
    print(f"one demand's share of a top-quartile score: median {summary['median_single_share']:.0%}, "
          f"max {summary['max_single_share']:.0%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.floor_plan_sim", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--bot", choices=sorted(BOTS), default="planner")
    parser.add_argument("--players", type=int, choices=(1, 2), default=1,
                        help="1: solo distribution; 2: head-to-head of --bot against the baseline")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--clients", type=Path, help="a clients.json to play with instead of the data's")
    parser.add_argument("--against", type=Path, help="an earlier --json run: compare seed by seed")
    args = parser.parse_args(argv)
    if args.clients:
        use_clients(args.clients)
    if args.players == 2:
        other = "baseline" if args.bot == "planner" else "planner"
        out = head_to_head([f"duel-{i}" for i in range(args.seeds)], args.bot, other)
        print(json.dumps(out) if args.json else
              f"{out['bot']} vs {out['other']} over {out['games']} games: {out['wins']} wins, {out['draws']} draws, "
              f"{out['losses']} losses (mean margin {out['mean_margin']})")
        return 0
    results = run(args.seeds, args.bot)
    summary = summarize(results)
    if args.against:
        summary["paired"] = paired(_scores(args.against), {r.seed: r.score for r in results})
    if args.json:
        print(json.dumps({"bot": args.bot, **summary, "games_detail": [asdict(r) for r in results]}))
    else:
        print(f"{args.bot}: {args.seeds} solo games")
        _print(summary)
        if args.against:
            p = summary["paired"]
            print(f"  paired: {p['better']} better, {p['worse']} worse, {p['equal']} equal; mean difference "
                  f"{p['mean_diff']:+} (95% {p['ci95'][0]:+} … {p['ci95'][1]:+})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
