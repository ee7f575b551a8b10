"""The Floating Floors benchmark must keep running: a tiny run checks its rows are well formed."""

from __future__ import annotations

from tests.bench import bench_floating_floors
from tests.bench.harness import markdown_table


def test_floating_floors_benchmark_times_checks_turns_with_previews_and_renders() -> None:
    rows = bench_floating_floors.rows(n=2, players=(2,))
    steps = {r.step for r in rows}
    assert {"apply+previews", "render", "encode", "render+encode", "young GC"} <= steps
    assert {r.step for r in rows if " map " in r.case} == {"render", "encode", "render+encode"}
    assert all(r.median_ms > 0 and r.p95_ms >= r.median_ms for r in rows)
    assert all(r.ratio is not None for r in rows if r.step != "young GC")  # the collections have no floor
    assert all(r.bytes_ratio and r.bytes_ratio > 1 for r in rows if r.size is not None)
    assert len(markdown_table(rows).splitlines()) == len(rows) + 2
