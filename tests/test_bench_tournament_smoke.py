"""The tournament benchmark must keep running: a tiny field checks its table is well formed."""

from __future__ import annotations

from tests.bench import bench_tournament


def test_tournament_benchmark_reports_cost_per_game_round_and_pairing() -> None:
    table = bench_tournament.report(fields=(6,), rounds=2).splitlines()
    assert len(table) == 2 + len(bench_tournament.SHAPES)
    for line in table[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] == "6" and int(cells[2]) == 2 and int(cells[3]) > 0
        assert float(cells[4]) > 0 and float(cells[5]) > 0
