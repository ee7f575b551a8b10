"""The Floor answer-checker benchmark must keep running: a tiny run checks its rows are well formed."""

from __future__ import annotations

from rules.the_floor import answers
from tests.bench import bench_the_floor_answers as bench
from tests.bench.harness import markdown_table


def test_the_benchmark_category_has_500_distinct_real_answers() -> None:
    cat = bench.category()
    assert len(cat["answers"]) == bench.SIZE == len(set(cat["answers"]))
    keys = [answers.compact(answers.fold(f)) for a in cat["answers"] for f in (a, *cat["variants"].get(a, ()))]
    assert len(keys) == len(set(keys))
    assert bench.category() == cat  # deterministic


def test_the_floor_answer_benchmark_times_every_case() -> None:
    items = bench.micro_rows(checks=30, builds=3)
    assert [case for case, *_ in items] == ["exact hit", "1-typo hit", "miss (unknown)", "cold index build"]
    assert all(median > 0 and p95 >= median for _, _, median, p95 in items)
    assert len(bench.micro_table(items).splitlines()) == len(items) + 2
    rows = bench.rows(n=1)
    assert len(rows) == 4 and all(r.game == "the_floor" and r.median_ms > 0 and r.p95_ms >= r.median_ms for r in rows)
    assert len(markdown_table(rows).splitlines()) == len(rows) + 2
