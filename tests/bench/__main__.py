"""``python -m tests.bench [CASE ...] [-n N] [--rounds R]``: run benchmark cases and print markdown tables.

Without a case, every per-move case runs and prints one table (as before). ``load`` (many games at once on one
SQLite connection, ~10 s, loads both cores) and ``faults`` (the real bot against the Discord double, one fault per
round, ``--rounds`` rounds, ~1 min for 30) and ``thread`` (messages and images per move in whole games
through the offline Discord harness, ~4 s) and ``tournament`` (whole bot tournaments of 64 and 256 entrants
through the engine, ~2 min) and ``memory`` (the bot's RSS with 5,000 active games loaded, and a 10,000-move soak
with images, each in a child process, ~10 min) run only when named: ``python -m tests.bench load``, or ``all``.
``cluster`` (one process on SQLite, one on PostgreSQL, four on PostgreSQL: the real bots against the Discord double,
a ramp, a 10-minute hold, a kill; about an hour; options: ``python -m tests.bench.bench_cluster --help``) runs only
when named, not with ``all``. ``--format png`` times and sizes the images as a bot with ``IMAGE_FORMAT=png`` sends
them (default: what the bot sends by default, WebP).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from render import kit
from render.kit.png import IMAGE_FORMATS
from tests.bench import (
    bench_cluster,
    bench_faults,
    bench_floating_floors,
    bench_floating_world,
    bench_floor_plan,
    bench_load,
    bench_memory,
    bench_pipeline,
    bench_render,
    bench_render_floor_plan,
    bench_replay,
    bench_the_floor_answers,
    bench_the_floor_pipeline,
    bench_the_floor_render,
    bench_thread,
    bench_tournament,
    bench_web,
)
from tests.bench.harness import Row, markdown_table

# Cases that yield rows of the common table (median / p95 / × floor), in print order.
ROW_CASES: dict[str, Callable[[int], list[Row]]] = {
    "pipeline": bench_pipeline.rows,
    "render": bench_render.rows,
    "render_floor_plan": bench_render_floor_plan.rows,
    "the_floor_render": bench_the_floor_render.rows,
    "the_floor_answers": bench_the_floor_answers.rows,
    "the_floor_pipeline": bench_the_floor_pipeline.rows,
    "floor_plan": lambda n: bench_floor_plan.rows(n) + bench_floor_plan.engine_rows(),
    "floating_world": lambda n: bench_floating_world.rows(min(n, 60)),
    "floating_floors": lambda n: bench_floating_floors.rows(min(n, 30)),
}
# Cases that print a table of their own; run only when named (or with ``all``).
REPORT_CASES: dict[str, Callable[[argparse.Namespace], str]] = {
    "load": lambda args: bench_load.report(),
    "faults": lambda args: bench_faults.report(rounds=args.rounds),
    "thread": lambda args: bench_thread.report(),
    "tournament": lambda args: bench_tournament.report(),
    "memory": lambda args: bench_memory.report(),
    "web": lambda args: bench_web.report(),
    # a 200-move game's step and animation (~30 s of CPU): not a per-move row, so only when named
    "replay": lambda args: markdown_table(bench_replay.rows(min(args.n, 20))),
}
# Cases too long for ``all``: run only when named.
NAMED_CASES: dict[str, Callable[[argparse.Namespace], str]] = {
    "cluster": lambda args: bench_cluster.report([]),
}
FLOOR_NOTE = "× floor: median divided by PNG-encoding a flat image of the same size and mode in this run."
LOAD_NOTE = ("× floor: divided by one bare BEGIN IMMEDIATE; UPDATE; COMMIT through aiosqlite on the same file "
             "(median, unloaded).")
REPORT_NOTES = {"load": LOAD_NOTE}


def _selected(names: list[str]) -> list[str]:
    if not names:
        return list(ROW_CASES)
    if "all" in names:
        return [*ROW_CASES, *REPORT_CASES]
    return list(dict.fromkeys(names))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    known = [*ROW_CASES, *REPORT_CASES, *NAMED_CASES, "all"]
    parser.add_argument("cases", nargs="*", metavar="CASE",
                        help=f"one of {', '.join(known)} (default: every per-move case, not load or faults)")
    parser.add_argument("-n", type=int, default=100, help="timed runs per step (default 100)")
    parser.add_argument("--rounds", type=int, default=bench_faults.ROUNDS,
                        help=f"rounds of the faults case (default {bench_faults.ROUNDS})")
    parser.add_argument("--format", choices=IMAGE_FORMATS, default=kit.image_format(),
                        help="the images' format, as the bot's IMAGE_FORMAT (default %(default)s): the encode rows "
                             "time it")
    args = parser.parse_args(argv)
    kit.use_format(args.format)
    unknown = [c for c in args.cases if c not in known]
    if unknown:
        parser.error(f"unknown case {', '.join(unknown)}; choose from {', '.join(known)}")
    cases = _selected(args.cases)
    rows: list[Row] = []
    for name in cases:
        if name in ROW_CASES:
            rows += ROW_CASES[name](args.n)
    if rows:
        print(markdown_table(rows))
        print()
        print(FLOOR_NOTE)
    for name in cases:
        if name in REPORT_CASES or name in NAMED_CASES:
            print({**REPORT_CASES, **NAMED_CASES}[name](args))
            if name in REPORT_NOTES:
                print()
                print(REPORT_NOTES[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
