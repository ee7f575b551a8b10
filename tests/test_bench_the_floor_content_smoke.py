"""The The Floor content benchmark is not a timed test: a tiny run checks that its cases play and measure."""

from __future__ import annotations

from pathlib import Path

from tests.bench import bench_the_floor_content as bench


async def test_a_game_with_server_content_plays_and_its_row_stays_small(tmp_path: Path) -> None:
    content = bench.maxed_content()
    content["categories"] = content["categories"][:5]
    content["answers"] = dict(list(content["answers"].items())[:5])
    acts, row, shared, cold = await bench.case({"lang": "en", "content": content}, 4, 1, tmp_path / "c.db")
    assert len(acts) == 4 and len(cold) == 1
    assert shared > 50_000 > row
