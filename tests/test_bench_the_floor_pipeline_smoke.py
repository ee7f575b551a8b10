"""The Floor's pipeline benchmark is not a timed test, but it must keep running: a tiny run checks its rows."""

from __future__ import annotations

from tests.bench import bench_the_floor_pipeline
from tests.bench.harness import markdown_table


def test_the_floor_pipeline_benchmark_produces_rows_per_case_group_and_step() -> None:
    rows = bench_the_floor_pipeline.rows(n=2)
    cases = {r.case.split(" (×")[0] for r in rows}
    for case, _ in bench_the_floor_pipeline.CASES:
        assert f"{case} all actions" in cases and f"{case} bot" in cases
        assert f"{case} duel answer/pass" in cases and f"{case} board move challenge/take/keep" in cases
    steps = {(r.case.split(" (×")[0], r.step) for r in rows}
    assert ("2 sides all actions", "total") in steps and ("5 sides board move challenge/take/keep", "render") in steps
    assert ("9 players, 5 teams duel answer/pass", "total (no image)") in steps
    assert all(r.median_ms > 0 and r.p95_ms >= r.median_ms for r in rows)
    assert all(r.ratio is not None for r in rows if not r.case.endswith(" bot"))
    assert all(r.size and r.bytes_ratio for r in rows if r.step in ("encode", "total"))
    table = markdown_table(rows)
    assert len(table.splitlines()) == len(rows) + 2
