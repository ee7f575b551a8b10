"""The tournament benchmark must keep running: tiny fields check its tables are well formed."""

from __future__ import annotations

from tests.bench import bench_tournament


def _rows(table: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()[2:]]


def test_tournament_benchmark_reports_cost_per_game_round_and_pairing() -> None:
    games, pairing, lag = bench_tournament.report(fields=(6,), rounds=2, pairing_sizes=(20,), lag_size=20).split("\n\n")
    rows = _rows(games)
    assert len(rows) == len(bench_tournament.SHAPES)
    for cells in rows:
        assert cells[0] == "6" and int(cells[2]) == 2 and int(cells[3]) > 0
        assert float(cells[4]) > 0 and float(cells[5]) > 0
    assert [(cells[0], cells[1]) for cells in _rows(pairing)] == [("20", "1"), ("20", "4")]
    assert all(float(cells[2]) >= 0 for cells in _rows(pairing))
    assert _rows(pairing)[0][3] == "initial (S1 v S2)"
    assert [cells[0] for cells in _rows(lag)] == ["on the loop (before)", "off the loop (now)"]
    assert all(int(cells[1]) > 0 for cells in _rows(lag))
