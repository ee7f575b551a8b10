"""The memory benchmark is not a timed test: tiny runs check what it builds and the shape of its report.

No figure is asserted here (RSS and GC times are the benchmark's business, see docs/benchmarks.md).
"""

from __future__ import annotations

from pathlib import Path

from storage import open_store
from tests.bench import bench_memory as bm


async def test_loaded_games_are_active_with_their_openings_in_the_log(tmp_path: Path) -> None:
    path = tmp_path / "load.sqlite3"
    made = await bm.populate(path, len(bm.MIX), seeds=1)
    store = await open_store(path)
    try:
        ids = await store.game_ids(("active",))
        assert len(ids) == len(bm.MIX)
        rows = [await store.load_game(i) for i in ids]
        assert sorted(r.game for r in rows if r is not None) == sorted(bm.MIX)  # one of each game
        for row in rows:
            assert row is not None
            expected = bm.opening(row.game, len(row.seats), row.seed, bm.OPENING[row.game])
            logged = await store.actions(row.id)
            assert [(a.seat, a.action) for a in logged] == list(expected)  # played through the engine, in order
            assert row.moves == len(expected) > 0
        assert made == {g: len(bm.opening(g, 2, f"mem/{g}/2/0", bm.OPENING[g])) for g in bm.MIX}
    finally:
        await store.close()


def test_slope_is_growth_per_thousand_moves() -> None:
    assert bm.slope_kb([(0, 100), (1000, 100), (2000, 100)]) == 0
    assert bm.slope_kb([(0, 100), (500, 150), (1000, 200)]) == 100
    assert bm.slope_kb([(0, 100)]) == 0


def test_memory_report_has_the_load_and_soak_rows(tmp_path: Path) -> None:
    """Both rows come from child processes: the bot started on a tiny database, and a tiny soak."""
    text = bm.report(games=len(bm.MIX), moves=6, warmup=3, every=3, tables=len(bm.MIX), db=tmp_path / "m.sqlite3")
    rows = {line.split(" | ")[0].strip("| "): line.rsplit(" | ", 1)[1].strip(" |") for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| row")}
    # The start loads The Floor's running games (its clocks), not every running game: one of the five.
    assert rows["active games in the database / held by the engine after the start"] == "5 / 1"
    assert float(rows["RSS after the start MB"]) > 0
    frozen = next(v for k, v in rows.items() if k.startswith("objects the start moves out of the GC's reach"))
    assert int(frozen.split(";")[0].replace(",", "")) > 0  # the running bot freezes what its start loaded
    soak = next(v for k, v in rows.items() if k.startswith("soak: moves"))
    assert soak.startswith("6 (")
    assert "all 3 samples" in text  # after the warm-up: at 0, 3 and 6 moves
    # The soak draws as the running bot does, in render worker processes, and reports each one's RSS too.
    for who in ("main process", *(f"render worker {i + 1}" for i in range(bm.SOAK_WORKERS))):
        assert any(k.startswith(f"soak, {who}: RSS first / last / max") for k in rows), who
    assert any(k.startswith("soak: RSS with every cache emptied") for k in rows)


class _Grown:
    pass


def test_trace_reports_what_grew_after_the_late_sample() -> None:
    """`--trace` diffs a late sample against the end: objects made in between show by line and by GC type."""
    import tracemalloc

    tracemalloc.start(1)
    try:
        late = (tracemalloc.take_snapshot(), bm.object_counts())
        kept = [_Grown() for _ in range(5000)]
        lines = bm.traced_growth(*late)
    finally:
        tracemalloc.stop()
    assert len(kept) == 5000
    assert "by size:" in lines and "by count:" in lines
    assert any(line.startswith("_Grown +5,000") for line in lines)
