"""``python -m tests.bench [-n N]``: run every benchmark module and print one markdown table."""

from __future__ import annotations

import argparse
import sys

from tests.bench import (
    bench_floor_plan,
    bench_pipeline,
    bench_render,
    bench_render_floor_plan,
    bench_the_floor_answers,
    bench_the_floor_pipeline,
    bench_the_floor_render,
)
from tests.bench.harness import Row, markdown_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__)
    parser.add_argument("-n", type=int, default=100, help="timed runs per step (default 100)")
    args = parser.parse_args(argv)
    rows: list[Row] = []
    rows += bench_pipeline.rows(args.n)
    rows += bench_render.rows(args.n)
    rows += bench_render_floor_plan.rows(args.n)
    rows += bench_the_floor_render.rows(args.n)
    rows += bench_the_floor_answers.rows(args.n)
    rows += bench_the_floor_pipeline.rows(args.n)
    rows += bench_floor_plan.rows(args.n)
    rows += bench_floor_plan.engine_rows()
    print(markdown_table(rows))
    print()
    print("× floor: median divided by PNG-encoding a flat image of the same size and mode in this run.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
