"""The load benchmark is not a timed test: a tiny run checks that every move it fires is applied exactly once.

No timing is asserted here (the figures are the benchmark's business, see docs/benchmarks.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import SqliteStore as Store
from tests.bench import bench_load

GAMES, MOVES = 5, 4


async def _check_applied_once(store: Store, run: bench_load.LoadRun) -> None:
    assert run.total == GAMES * MOVES == len(run.ack_ms) == len(run.today_ms)
    assert sorted(run.made) == sorted(run.start_version) and len(run.made) == GAMES
    for table_id, made in run.made.items():
        assert len(made) == MOVES
        logged = await store.actions(table_id)
        assert [(a.seat, a.action) for a in logged] == made  # exactly the moves made, in order, none twice
        assert [a.seq for a in logged] == list(range(1, MOVES + 1))
        assert len({a.interaction_id for a in logged}) == MOVES
        row = await store.load_game(table_id)
        assert row is not None and row.status == "active"
        assert row.version == run.start_version[table_id] + MOVES and row.moves == MOVES


@pytest.mark.parametrize("mode", [bench_load.CHAINED, bench_load.BURST])
async def test_every_load_move_is_applied_exactly_once(tmp_path: Path, mode: str) -> None:
    store = await Store.open(tmp_path / "load.db")
    try:
        run = await bench_load.run_load(store, GAMES, MOVES, mode=mode)
        await _check_applied_once(store, run)
        every = [a for gid in await store.game_ids() for a in await store.actions(gid)]
        assert len(every) == GAMES * MOVES  # nothing else was written
    finally:
        await store.close()


async def test_load_table_has_a_row_per_measure_and_the_floor(tmp_path: Path) -> None:
    runs, floor = await bench_load.measure(((2, bench_load.CHAINED), (2, bench_load.BURST)), 2, tmp_path / "l.db")
    assert len(floor) == bench_load.FLOOR_RUNS and all(ms > 0 for ms in floor)
    lines = bench_load.markdown(runs, floor).splitlines()
    assert len([line for line in lines if line.startswith("| 2 games")]) == 2 * 4
    assert any(line.startswith("| floor |") for line in lines)
