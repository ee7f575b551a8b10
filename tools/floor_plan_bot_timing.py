"""CPU ms per Floor Plan bot decision: ``python -m tools.floor_plan_bot_timing [--games 12] [--tries 3]
[--states FILE] [--against TREE] [--pairs 3]``.

The decisions are those of solo games ``chk-0`` … ``chk-N-1`` as the bot of this tree plays them (or those saved
in ``--states``, a JSON file written on the first run, so that a before and an after time the very same
decisions). Each decision runs on a fresh copy of its state and counts its fastest of ``--tries`` runs
(`time.process_time`: other jobs on the machine add wall time, not CPU time). Prints median / p95 / mean / max.

``--against TREE`` times another checkout (e.g. a ``git worktree`` of the commit before a change) as well: both
trees run as worker processes that take each decision in turn (the order alternating), so the machine's load
falls on both alike; ``--pairs`` such runs back to back. It also says whether both trees chose the same actions.
Figures go to docs/benchmarks.md; never into tests.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from rules.floor_plan import FloorPlan

FP = FloorPlan()
ROOT = Path(__file__).resolve().parent.parent


def collect(games: int) -> list[dict[str, Any]]:
    """Every bot decision of the solo games ``chk-0`` … (the state before it, the seat, the round)."""
    out = []
    for i in range(games):
        s = FP.new(1, {}, f"chk-{i}")
        while FP.outcome(s) is None:
            for seat in sorted(FP.to_move(s)):
                out.append({"state": FP.to_json(s), "seat": seat, "round": s.round})
                s, _ = FP.apply(s, seat, FP.bot_action(s, seat))
    return out


def time_one(rec: dict[str, Any]) -> tuple[float, str]:
    """CPU ms of one decision on a fresh copy of its state, and the action chosen."""
    s = FP.from_json(rec["state"])
    t = time.process_time()
    action = FP.bot_action(s, rec["seat"])
    return (time.process_time() - t) * 1000, action


def stats(ms: list[float]) -> dict[str, float]:
    st = sorted(ms)
    p95 = st[min(len(st) - 1, math.ceil(0.95 * len(st)) - 1)]
    return {"n": len(st), "median": round(statistics.median(st), 2), "p95": round(p95, 2),
            "mean": round(statistics.fmean(st), 2), "max": round(st[-1], 2)}


def _worker(states: Path) -> None:
    """Time the decision whose index comes on each stdin line; answer ``ms action``."""
    recs = json.loads(states.read_text())
    for line in sys.stdin:
        ms, action = time_one(recs[int(line)])
        print(f"{ms:.4f} {action}", flush=True)


def _start(tree: Path, states: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tools.floor_plan_bot_timing", "--worker", str(states)],
                            cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(tree)})


def _ask(p: subprocess.Popen[str], i: int) -> tuple[float, str]:
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(f"{i}\n")
    p.stdin.flush()
    ms, action = p.stdout.readline().rstrip("\n").split(" ", 1)
    return float(ms), action


def ab(other: Path, states: Path, n: int, tries: int) -> dict[str, Any]:
    """``other`` (before) and this tree (after), each decision's fastest of ``tries``, taken in turn."""
    procs = {"before": _start(other, states), "after": _start(ROOT, states)}
    best = {k: [math.inf] * n for k in procs}
    acts: dict[str, list[str]] = {k: [""] * n for k in procs}
    for r in range(tries):
        for i in range(n):
            for name in ("before", "after") if (i + r) % 2 == 0 else ("after", "before"):
                ms, acts[name][i] = _ask(procs[name], i)
                best[name][i] = min(best[name][i], ms)
    for p in procs.values():
        assert p.stdin is not None
        p.stdin.close()
        p.wait()
    return {"before": stats(best["before"]), "after": stats(best["after"]),
            "same_actions": sum(a == b for a, b in zip(acts["before"], acts["after"], strict=True))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.floor_plan_bot_timing", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--tries", type=int, default=3)
    parser.add_argument("--states", type=Path, help="the decisions to time (JSON; written when missing)")
    parser.add_argument("--against", type=Path, help="another tree to time alongside (the before)")
    parser.add_argument("--pairs", type=int, default=3, help="with --against: back-to-back runs")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.worker)
        return 0
    if args.states and args.states.exists():
        recs = json.loads(args.states.read_text())
    else:
        recs = collect(args.games)
        if args.states:
            args.states.write_text(json.dumps(recs))
    if args.against:
        if not args.states:
            parser.error("--against needs --states (both trees time the same decisions)")
        for _ in range(args.pairs):
            print(json.dumps(ab(args.against, args.states, len(recs), args.tries)), flush=True)
        return 0
    print(json.dumps(stats([min(time_one(rec)[0] for _ in range(args.tries)) for rec in recs])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
