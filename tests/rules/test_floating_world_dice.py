"""Stats as dice + pips: growth (three pips make a die), text, parsing and seeded rolls."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from rules.floating_world.dice import Stat, parse, roll


def test_three_plus_ones_become_a_die() -> None:
    s = Stat(2)
    texts = []
    for _ in range(4):
        s = s.plus(1)
        texts.append(s.text)
    assert texts == ["2D+1", "2D+2", "3D", "3D+1"]


def test_demon_strength_steps_text() -> None:
    s, seen = Stat(0), []
    for _ in range(7):
        seen.append(s.modifier)
        assert parse(s.modifier) == s
        s = s.plus(1)
    assert seen == ["+0", "+1", "+2", "+1D", "+1D+1", "+1D+2", "+2D"]


@pytest.mark.parametrize(("text", "stat"), [("2D", Stat(2)), ("2d+1", Stat(2, 1)), ("+2", Stat(0, 2)),
                                            ("0", Stat(0)), ("3D + 2", Stat(3, 2)), ("1d+4", Stat(2, 1)),
                                            ("+0", Stat(0)), ("+1D+1", Stat(1, 1))])
def test_parse(text: str, stat: Stat) -> None:
    assert parse(text) == stat


@pytest.mark.parametrize("bad", ["", "D2", "2x", "-1D", "++1"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        parse(bad)


def test_roll_returns_the_individual_dice_and_replays() -> None:
    r = roll("seed", 5, 3, 2)
    assert len(r.dice) == 3 and all(1 <= d <= 6 for d in r.dice)
    assert r.total == sum(r.dice) + 2
    assert roll("seed", 5, 3, 2) == r


@given(hs.integers(0, 60), hs.integers(0, 10))
def test_growth_is_pip_arithmetic(pips: int, more: int) -> None:
    s = Stat.of_pips(pips)
    assert s.plus(more).value == pips + more
    assert parse(s.text) == s
    assert 0 <= s.plus(more).pips < 3
