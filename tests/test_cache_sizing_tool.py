"""The cache sizing tool (tools/cache_sizing.py) replays the keys a soak really asked: run as a program."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tools.text_tile_reuse import lru_hits

ROOT = Path(__file__).resolve().parents[1]


def test_an_lru_replay_counts_a_hit_only_for_a_key_still_held() -> None:
    keys = [1, 2, 1, 3, 2, 1]
    assert lru_hits(keys, 3) == 3  # 1, 2, 1 held throughout
    assert lru_hits(keys, 2) == 1  # only the first repeat of 1: 3 pushes 2 out, then 2 pushes 1 out
    assert lru_hits(keys, 1) == 0


def test_a_short_soak_of_the_floor_reports_the_fold_cache_with_its_asks() -> None:
    done = subprocess.run([sys.executable, "-m", "tools.cache_sizing", "--games", "the_floor", "--moves", "40",
                           "--tables", "2"], capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ") for line in done.stdout.splitlines()[1:]}
    fold = rows["i18n.text.fold"]
    asks, distinct = (int(cell.replace(",", "")) for cell in fold[1:3])
    assert asks >= distinct > 0
    hit_rates = [float(cell.split("%")[0]) for cell in fold[3:]]
    assert hit_rates == sorted(hit_rates)  # a larger LRU never hits less
