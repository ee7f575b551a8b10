"""Stats as dice + pips (``2D``, ``2D+1``, ``2D+2``, ``3D``…) and rolls from the game's seeded streams.

A stat grows one pip at a time and three pips make a die (rulebook 5.7). Demon Strength has the same form and
grows the same way, but it is a modifier and is written as the rulebook marks it (6.4.1): ``+0`` at the start
(our choice: every value then reads as something added), then ``+1``, ``+2``, ``+1D``, ``+1D+1``… (``modifier``
/ ``modifier_json``). ``parse`` accepts both forms (a leading ``+`` is optional).
A roll of ``xD+y`` sums x six-sided dice plus y; each roll draws from its own counter-based stream
(`rules.rng.stream`), so the individual dice are recorded and a replay reproduces them exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules import rng

PIPS_PER_DIE = 3
_TEXT = re.compile(r"^\s*\+?\s*(?:(\d+)\s*d\s*(?:\+\s*(\d+))?|(\d+))\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Stat:
    dice: int
    pips: int = 0  # always 0..2: three pips are a die

    def __post_init__(self) -> None:
        if self.dice < 0 or not 0 <= self.pips < PIPS_PER_DIE:
            raise ValueError(f"bad stat {self.dice}D+{self.pips}")

    @staticmethod
    def of_pips(total: int) -> Stat:
        return Stat(total // PIPS_PER_DIE, total % PIPS_PER_DIE)

    @property
    def value(self) -> int:
        """The stat in pips (1D = 3), the unit of growth and of the scoring's "total stats"."""
        return self.dice * PIPS_PER_DIE + self.pips

    def plus(self, pips: int = 1) -> Stat:
        return Stat.of_pips(self.value + pips)

    @property
    def text(self) -> str:
        if self.dice == 0:
            return f"+{self.pips}" if self.pips else "0"
        return f"{self.dice}D+{self.pips}" if self.pips else f"{self.dice}D"

    @property
    def modifier(self) -> str:
        """The text of a modifier (Demon Strength): ``+0``, ``+1``, ``+2``, ``+1D``, ``+1D+1``…"""
        return "+" + (self.text if self.dice else str(self.pips))

    def to_json(self) -> dict[str, Any]:
        return {"dice": self.dice, "pips": self.pips, "text": self.text}

    def modifier_json(self) -> dict[str, Any]:
        return {"dice": self.dice, "pips": self.pips, "text": self.modifier}

    def __str__(self) -> str:
        return self.text


def parse(text: str) -> Stat:
    """``2D``, ``2d+1``, ``+2``, ``0``, ``+1D+1`` → a `Stat`; raises ValueError on anything else."""
    m = _TEXT.match(text)
    if not m:
        raise ValueError(f"not a stat: {text!r}")
    if m.group(3) is not None:
        return Stat.of_pips(int(m.group(3)))
    return Stat(int(m.group(1))).plus(int(m.group(2) or 0))


@dataclass(frozen=True)
class Roll:
    """One roll: the individual dice, the flat modifier and the total."""

    dice: tuple[int, ...]
    plus: int

    @property
    def total(self) -> int:
        return sum(self.dice) + self.plus

    def to_json(self) -> dict[str, Any]:
        return {"dice": list(self.dice), "plus": self.plus, "total": self.total}


def roll_dice(seed: str, counter: int, count: int) -> tuple[int, ...]:
    """``count`` d6 from stream ``counter``."""
    r = rng.stream(seed, counter)
    return tuple(1 + rng.below(r, 6) for _ in range(count))


def roll(seed: str, counter: int, dice: int, plus: int) -> Roll:
    """Roll ``dice`` d6 + ``plus`` (a stat plus its bonuses, already summed by the caller)."""
    return Roll(roll_dice(seed, counter, max(0, dice)), plus)
