"""The map's geometry: cards, spaces, their names and the alcoves around the rim.

Spaces are ``(col, row)``, 0-based from the top-left; a space is named by its column letter and row number
(``a1`` top-left, ``i9`` bottom-right of a 3×3 map). The map is 3 cards wide and 2 tall for 2 players (9×6
spaces), 3×3 for 3–4 (9×9). Card ``i`` sits at card column ``i % 3``, card row ``i // 3``.

An alcove sits at the middle of every outer edge of every card on the rim (10 on 2×3, 12 on 3×3), outside the
map, touching that card's middle edge space (which touches no other alcove, so a space names its alcove).
Alcoves are numbered clockwise from the top-left: the top edge left to right, the right edge top to bottom, the
bottom edge right to left, the left edge bottom to top. "Clockwise" is the rulebook's Bansen placement order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

Space = tuple[int, int]
CARD = 3  # spaces per card side
LETTERS = "abcdefghi"
SPACE_NAME = re.compile(r"^([a-i])([1-9])$")
STEPS: dict[str, Space] = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}


@dataclass(frozen=True)
class Alcove:
    index: int
    space: Space  # the map space it touches
    side: str  # which edge of the map it is on: n, e, s, w

    @property
    def point(self) -> tuple[float, float]:
        """Its centre in map coordinates: half a space outside the edge."""
        dx, dy = STEPS[self.side]
        return (self.space[0] + 0.5 + dx, self.space[1] + 0.5 + dy)


@dataclass(frozen=True)
class Layout:
    card_cols: int
    card_rows: int

    @property
    def cols(self) -> int:
        return self.card_cols * CARD

    @property
    def rows(self) -> int:
        return self.card_rows * CARD

    @property
    def cards(self) -> int:
        return self.card_cols * self.card_rows

    def on_map(self, space: Space) -> bool:
        return 0 <= space[0] < self.cols and 0 <= space[1] < self.rows

    def card_of(self, space: Space) -> int:
        return (space[1] // CARD) * self.card_cols + space[0] // CARD

    def origin(self, card: int) -> Space:
        return ((card % self.card_cols) * CARD, (card // self.card_cols) * CARD)

    def centre(self, card: int) -> tuple[float, float]:
        ox, oy = self.origin(card)
        return (ox + CARD / 2, oy + CARD / 2)

    def spaces(self, card: int) -> list[Space]:
        ox, oy = self.origin(card)
        return [(ox + c, oy + r) for r in range(CARD) for c in range(CARD)]

    def local(self, space: Space) -> Space:
        """The space's (col, row) within its card (0..2)."""
        return (space[0] % CARD, space[1] % CARD)

    def neighbours(self, space: Space) -> list[Space]:
        out = [(space[0] + dx, space[1] + dy) for dx, dy in STEPS.values()]
        return [s for s in out if self.on_map(s)]

    @property
    def alcoves(self) -> tuple[Alcove, ...]:
        return _alcoves(self.card_cols, self.card_rows)

    def alcove_at(self, space: Space) -> Alcove | None:
        return next((a for a in self.alcoves if a.space == space), None)


@cache
def card_table(card_cols: int, card_rows: int) -> dict[Space, int]:
    """`Layout.card_of` of every space a name can give (a1–i9, off a 2-player map too) as one shared lookup for
    the hot loops; never mutate it."""
    lay = Layout(card_cols, card_rows)
    return {(c, r): lay.card_of((c, r)) for r in range(len(LETTERS)) for c in range(len(LETTERS))}


@cache
def _alcoves(card_cols: int, card_rows: int) -> tuple[Alcove, ...]:
    cols, rows, mid = card_cols * CARD, card_rows * CARD, CARD // 2
    top = [((c * CARD + mid, 0), "n") for c in range(card_cols)]
    right = [((cols - 1, r * CARD + mid), "e") for r in range(card_rows)]
    bottom = [((c * CARD + mid, rows - 1), "s") for c in reversed(range(card_cols))]
    left = [((0, r * CARD + mid), "w") for r in reversed(range(card_rows))]
    return tuple(Alcove(i, space, side) for i, (space, side) in enumerate([*top, *right, *bottom, *left]))


@cache
def layout_for(players: int) -> Layout:
    return Layout(3, 2) if players == 2 else Layout(3, 3)


def name(space: Space) -> str:
    return f"{LETTERS[space[0]]}{space[1] + 1}"


NAMES: dict[Space, str] = {(c, r): name((c, r)) for r in range(len(LETTERS)) for c in range(len(LETTERS))}  # hot loops


def parse_space(word: str) -> Space | None:
    m = SPACE_NAME.match(word)
    return (LETTERS.index(m.group(1)), int(m.group(2)) - 1) if m else None
