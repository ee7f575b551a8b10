"""Fixtures for the rule tests: scripted dice for Floating World's hand-built positions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.floating_world.dice import Roll
from rules.floating_world.state import Work


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[int]]]:
    """Script every roll: each entry is the dice of the next roll (the flat modifier is kept)."""
    script: list[list[int]] = []

    def fake(self: Work, count: int, plus: int) -> Roll:
        self.counter += 1
        faces = script.pop(0)
        assert len(faces) == count, f"expected {count} dice, scripted {faces}"
        return Roll(tuple(faces), plus)

    monkeypatch.setattr(Work, "roll", fake)
    yield script
    assert script == [], "unused scripted dice"
