"""The Floor Plan round benchmark must keep running: a tiny run checks its rows are well formed."""

from __future__ import annotations

from tests.bench import bench_floor_plan
from tests.bench.harness import markdown_table


def test_floor_plan_round_benchmark_has_every_step_for_each_player_count() -> None:
    rows = bench_floor_plan.rows(n=3, players=(1, 10))
    steps = {(r.case.split(" ")[1], r.step) for r in rows}
    for p in ("1p", "10p"):
        assert (p, f"choose ×{p[:-1]} (bot_action)") in steps and (p, f"apply ×{p[:-1]}") in steps
        assert (p, f"claimable ×{p[:-1]}") in steps and (p, "round total (apply+claims+summary+sheet)") in steps
        assert (p, "render+encode") in steps
    assert all(r.median_ms > 0 and r.p95_ms >= r.median_ms for r in rows)
    assert all(r.ratio is not None for r in rows)
    images = [r for r in rows if r.size is not None]
    assert len(images) == 8 and all(r.bytes_ratio and r.bytes_ratio > 1 for r in images)
    assert len(markdown_table(rows).splitlines()) == len(rows) + 2


def test_floor_plan_engine_benchmark_times_every_seats_saved_act() -> None:
    (row,) = bench_floor_plan.engine_rows(players=(3,), rounds=2)
    assert row.case == "3p engine" and row.median_ms > 0 and row.p95_ms >= row.median_ms
