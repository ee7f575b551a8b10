"""The benchmark is not a timed test, but it must keep running: a tiny run checks its rows are well formed."""

from __future__ import annotations

import pytest

from render import kit
from tests.bench import bench_pipeline
from tests.bench.__main__ import main
from tests.bench.harness import markdown_table


def test_benchmark_pipeline_produces_a_row_per_step_and_board() -> None:
    rows = bench_pipeline.rows(n=3)
    steps = {(r.case, r.step) for r in rows}
    assert ("House 3p move pipeline", "total") in steps and ("Temple 5p move pipeline", "render") in steps
    assert all(r.median_ms > 0 and r.p95_ms >= r.median_ms for r in rows)
    assert all(r.ratio is not None for r in rows if "pipeline" in r.case)
    assert markdown_table(rows).count("\\n") == 0 and len(markdown_table(rows).splitlines()) == len(rows) + 2


def test_the_benchmark_times_the_image_format_it_is_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    """``--format`` is the bot's ``IMAGE_FORMAT``: the encode rows time and size what that setting sends."""
    sent: dict[str, int] = {}
    before = kit.image_format()
    try:
        for fmt in ("png", "webp"):
            assert main(["render", "-n", "2", "--format", fmt]) == 0
            assert kit.image_format() == fmt
            rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines() if "| encode |" in line]
            sent[fmt] = int(rows[0][6].replace(",", ""))
    finally:
        kit.use_format(before)
    assert sent["png"] > 1.5 * sent["webp"], sent
