"""The benchmark is not a timed test, but it must keep running: a tiny run checks its rows are well formed."""

from __future__ import annotations

from tests.bench import bench_pipeline
from tests.bench.harness import markdown_table


def test_benchmark_pipeline_produces_a_row_per_step_and_board() -> None:
    rows = bench_pipeline.rows(n=3)
    steps = {(r.case, r.step) for r in rows}
    assert ("House 3p move pipeline", "total") in steps and ("Temple 5p move pipeline", "render") in steps
    assert all(r.median_ms > 0 and r.p95_ms >= r.median_ms for r in rows)
    assert all(r.ratio is not None for r in rows if "pipeline" in r.case)
    assert markdown_table(rows).count("\\n") == 0 and len(markdown_table(rows).splitlines()) == len(rows) + 2
