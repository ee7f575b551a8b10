"""Floating World's images do not depend on PYTHONHASHSEED: the palette was built by iterating a set of colour
names, so the PNG bytes of one view changed from process to process (renders must be deterministic: same view,
same bytes)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import hashlib
from render import floating_world as fw
from tests.rules import fw_helpers as h
view = h.G.view(h.busy_world(9, 3), None)
night = next(iter(h.nightmares(2, prefix="seed-")))
print(hashlib.sha256(fw.map_image(view) + fw.nightmare_image(night.view())).hexdigest())
"""


def _digest(hashseed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def test_map_and_nightmare_bytes_are_the_same_under_any_hash_seed() -> None:
    digests = {_digest(seed) for seed in ("0", "1", "12345")}
    assert len(digests) == 1, digests
    assert len(next(iter(digests))) == len(hashlib.sha256().hexdigest())
