"""The Floor's answer checker against a 500-entry category: what one typed answer costs.

The category is built deterministically from the real English content: the answers (and their variants) of the
categories in `SOURCES`, merged in file order and deduplicated by their matching key, the first 500 kept. Each
case is a few thousand `answers.check` calls, one timed call each, after the index is built (a duel reuses it):
  - ``exact hit``: a listed answer or variant, as typed (random case, extra spaces), with 6 answers already given;
  - ``1-typo hit``: the same with one inner letter substituted (still accepted);
  - ``miss (unknown)``: a made-up word starting with the letter, beyond any typo of the list;
  - ``cold index build``: `answers.Index` of the 500 entries from scratch (the first answer of a duel's category).
The fold cache is cleared before every timed call: a player's text is new, so its normalization is never cached.

Run alone: ``python -m tests.bench.bench_the_floor_answers [-n CHECKS]`` (a table in microseconds); it also runs
with every benchmark in ``python -m tests.bench`` (milliseconds there, with the µs figures in the step name).
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from rules.the_floor import answers, content
from rules.the_floor.answers import ACCEPTED, UNKNOWN
from tests.bench.harness import Row

GAME = "the_floor"
SIZE = 500
SOURCES = ("countries", "languages", "animals", "birds", "fish", "fruits", "vegetables", "flowers", "trees",
           "dishes", "jobs", "sports", "instruments", "elements", "cheeses", "dog_breeds")
CHECKS = 2000  # timed checks per case by default
BUILDS = 200  # timed cold builds by default
GIVEN = 6  # answers already given in the duel


def category(size: int = SIZE) -> dict[str, Any]:
    """A realistic `size`-entry category: real answers and variants of several categories, deduplicated."""
    out: list[str] = []
    variants: dict[str, list[str]] = {}
    seen: set[str] = set()
    for cid in SOURCES:
        cat = content.category("en", cid)
        for answer in cat["answers"]:
            forms = [answer, *cat.get("variants", {}).get(answer, ())]
            keys = [answers.compact(answers.fold(f)) for f in forms]
            if answer in out or any(k in seen or not k for k in keys):
                continue
            seen.update(keys)
            out.append(answer)
            if len(forms) > 1:
                variants[answer] = forms[1:]
            if len(out) == size:
                return {"id": "bench", "name": "Bench", "flags": [], "answers": out, "variants": variants}
    raise AssertionError(f"only {len(out)} distinct answers in {SOURCES}")


def _typed(r: random.Random, form: str) -> str:
    """How a player might type a form: random case, sometimes padded or with doubled spaces."""
    text = "".join(c.upper() if r.random() < 0.3 else c.lower() for c in form)
    return f"  {text} " if r.random() < 0.2 else text.replace(" ", "  ") if r.random() < 0.2 else text


def _typo(r: random.Random, form: str) -> str:
    key = answers.fold(form)
    i = r.randrange(1, len(key))
    while key[i] == " ":
        i = r.randrange(1, len(key))
    return key[:i] + ("x" if key[i] != "x" else "q") + key[i + 1:]


def queries(cat: dict[str, Any], n: int, seed: int = 0) -> dict[str, list[tuple[str, str, list[str]]]]:
    """(typed text, letter, given) per case, each checked to give the case's verdict."""
    r = random.Random(seed)
    forms = [(f, a) for a in cat["answers"] for f in (a, *cat.get("variants", {}).get(a, ()))
             if answers.fold(f)[:1].isalpha()]
    long_forms = [(f, a) for f, a in forms if len(answers.compact(answers.fold(f))) >= 5]
    out: dict[str, list[tuple[str, str, list[str]]]] = {"exact hit": [], "1-typo hit": [], "miss (unknown)": []}

    def given(answer: str) -> list[str]:
        return r.sample([a for a in cat["answers"] if a != answer], GIVEN)

    while len(out["exact hit"]) < n:
        form, answer = r.choice(forms)
        text, letter, g = _typed(r, form), answers.fold(form)[0].upper(), given(answer)
        assert answers.check(text, cat, letter, g, "en").status == ACCEPTED, text
        out["exact hit"].append((text, letter, g))
    while len(out["1-typo hit"]) < n:
        form, answer = r.choice(long_forms)
        text, letter, g = _typo(r, form), answers.fold(form)[0].upper(), given(answer)
        if answers.check(text, cat, letter, g, "en").status == ACCEPTED:
            out["1-typo hit"].append((text, letter, g))
    while len(out["miss (unknown)"]) < n:
        letter = r.choice("ABCDEFGHIJKLMNOPRSTUVWY")
        text = letter + "".join(r.choice("bcdfghjklmnpqrstvwxz") for _ in range(r.randrange(4, 14)))
        g = given("")
        if answers.check(text, cat, letter, g, "en").status == UNKNOWN:
            out["miss (unknown)"].append((text, letter, g))
    return out


def _percentiles(times: list[float]) -> tuple[float, float]:
    times = sorted(times)
    return statistics.median(times), times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]


def _timed(calls: list[Callable[[], object]], prepare: Callable[[], object]) -> tuple[float, float]:
    """(median, p95) in µs of each call, ``prepare`` (untimed) before each, with the cyclic GC paused."""
    times = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for call in calls:
            prepare()
            start = time.perf_counter_ns()
            call()
            times.append((time.perf_counter_ns() - start) / 1000)
    finally:
        if enabled:
            gc.enable()
    return _percentiles(times)


def micro_rows(checks: int = CHECKS, builds: int = BUILDS) -> list[tuple[str, int, float, float]]:
    """(case, count, median µs, p95 µs) for the three check cases and the cold build."""
    cat = category()
    answers.index(cat, "en")  # built once, as in a duel
    out = []
    for case, qs in queries(cat, checks).items():
        for text, letter, g in qs[:50]:  # warm the code paths (not the fold cache)
            answers.check(text, cat, letter, g, "en")
        calls = [lambda t=t, lt=lt, g=g: answers.check(t, cat, lt, g, "en") for t, lt, g in qs]
        out.append((case, len(qs), *_timed(calls, answers.fold.cache_clear)))
    variants = cat["variants"]
    build = [lambda: answers.Index(cat["answers"], variants, "en", ())] * builds
    out.append(("cold index build", builds, *_timed(build, answers.fold.cache_clear)))
    return out


def rows(n: int = 100) -> list[Row]:
    """The harness rows (ms); ``n`` timed runs per step elsewhere, here 20·n checks (at least 200) per case."""
    checks = max(200, 20 * n)
    out = []
    for case, count, median, p95 in micro_rows(checks, max(20, 2 * n)):
        step = f"{case} ×{count} (median {median:.1f} µs, p95 {p95:.1f} µs)"
        out.append(Row(GAME, f"answer check, {SIZE}-entry category", step, median / 1000, p95 / 1000))
    return out


def micro_table(items: list[tuple[str, int, float, float]]) -> str:
    lines = ["| case | runs | median µs | p95 µs |", "|---|---:|---:|---:|"]
    lines += [f"| {case} | {count} | {median:.1f} | {p95:.1f} |" for case, count, median, p95 in items]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_the_floor_answers", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=CHECKS, help=f"timed checks per case (default {CHECKS})")
    parser.add_argument("--builds", type=int, default=BUILDS, help=f"timed cold index builds (default {BUILDS})")
    args = parser.parse_args(argv)
    print(f"The Floor answer checker, one {SIZE}-entry category ({len(SOURCES)} real categories merged)")
    print(micro_table(micro_rows(args.n, args.builds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
