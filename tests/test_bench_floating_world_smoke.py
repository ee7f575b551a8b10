"""The Floating World benchmark must keep running: a tiny run checks its rows are well formed."""

from __future__ import annotations

from tests.bench import bench_floating_world
from tests.bench.harness import markdown_table


def test_floating_world_benchmark_times_actions_and_nightmares_through_the_pipeline() -> None:
    rows = bench_floating_world.rows(n=3, players=(1,))
    kinds = {(r.case.rsplit(" ", 1)[1], r.step) for r in rows}
    for kind in ("action", "nightmare"):
        assert (kind, "parse+apply+save") in kinds and (kind, "render") in kinds and (kind, "total") in kinds
    assert ("nightmare", "image") in kinds
    assert all(r.median_ms > 0 and r.p95_ms >= r.median_ms and r.ratio is not None for r in rows)
    assert all(r.bytes_ratio and r.bytes_ratio > 1 for r in rows if r.size is not None)
    assert len(markdown_table(rows).splitlines()) == len(rows) + 2
