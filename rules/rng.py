"""Deterministic randomness: every draw is derived from the game's seed and a counter kept in the state.

`random.Random(f"{seed}/{n}")` is seeded from a string (hashed with SHA-512 by CPython, stable across versions
and platforms), and shuffles use only ``.random()``, whose output is specified, never ``random.shuffle``'s
internals or ``randrange``, which have changed between Python versions.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> str:
    """A fresh seed for a new game (the only place randomness comes from outside)."""
    return secrets.token_hex(8)


def stream(seed: str, counter: int) -> random.Random:
    """The counter-th independent random stream of a game."""
    return random.Random(f"{seed}/{counter}")


def below(r: random.Random, n: int) -> int:
    """A uniform integer in [0, n) built on ``.random()`` only."""
    if n <= 0:
        raise ValueError("n must be positive")
    return min(int(r.random() * n), n - 1)


def shuffled(seed: str, counter: int, items: Sequence[T]) -> list[T]:
    """A Fisher–Yates shuffle of ``items`` drawn from stream ``counter``."""
    r = stream(seed, counter)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(r, i + 1)
        out[i], out[j] = out[j], out[i]
    return out
