"""The Floor Plan bot got faster (issue 25: ≤ 10 ms a decision) without playing differently: the sheet's
regions are now flooded on bit masks and the planner memoises what one candidate asks twice. These tests pin the
behaviour: the mask helpers agree with a plain flood fill over cell sets, and a seeded solo game is played move
for move as before the speed-up (the 200-seed score distribution before → after is in docs/benchmarks.md)."""

from __future__ import annotations

import random

from rules.floor_plan import FloorPlan
from rules.floor_plan.planner.value import _open_area
from rules.floor_plan.sheet import (
    ALL_CELLS,
    NEIGHBOURS,
    Sheet,
    cells_of,
    components,
    mask_of,
    scan_key,
    shifted,
)

FP = FloorPlan()

# Played by the bot before the speed-up (seed "bot-golden-0", solo): the same moves must come out.
GOLDEN_SOLO = [
    "start F5 6x5",
    "room L4 6x6 L@M5 wild 1=6",
    "room L10 6x4 K@M11",
    "room L1 6x3 B@M2",
    "features 3:L1,L2,L3 5:G4,H4,I4,J4,K4",
    "features 2:G5,K5 4:N2,O2,P2,N5",
    "room G1 5x3 D@H2",
    "room F4 1x1 C@F4; claim courtyard.1",
    "features 1:A1 3:G1,G2,G3",
    "room F10 6x4 K@G11",
    "room B10 4x4 K@C11",
    "features 1:A4 5:E5,E6,E7,E8,E9",
    "features 6:A7,B7,C7,A8,C8,B9 6:E1,D2,F2,D3,F3,E4; claim nature_lover.2",
    "room D4 1x6 C@D9",
    "features 4:G6,H6,I6,J6; claim deck_life.1; claim deck_life.1; claim courtyard.2; claim courtyard.2",
]


def _reference_components(cells: set[tuple[int, int]]) -> list[frozenset[tuple[int, int]]]:
    todo, out = set(cells), []
    for start in sorted(cells, key=scan_key):
        if start not in todo:
            continue
        todo.discard(start)
        part, stack = {start}, [start]
        while stack:
            for n in NEIGHBOURS[stack.pop()]:
                if n in todo:
                    todo.discard(n)
                    part.add(n)
                    stack.append(n)
        out.append(frozenset(part))
    return out


def test_mask_components_are_the_flood_fill_components_in_scan_order() -> None:
    r = random.Random(25)
    for density in (0.1, 0.3, 0.5, 0.7, 0.9):
        for _ in range(20):
            cells = {c for c in ALL_CELLS if r.random() < density}
            assert cells_of(mask_of(cells)) == sorted(cells, key=scan_key)
            assert list(components(cells)) == _reference_components(cells)


def test_open_area_counts_free_cells_with_three_free_neighbours_on_the_sheet() -> None:
    """Off-sheet neighbours are not free: a corner cell can never count, an edge cell only with all three."""
    assert _open_area(Sheet()) == len(ALL_CELLS) - 4
    free = {c for c in ALL_CELLS if c[0] % 2 == 0}
    w, e, n, s = shifted(mask_of(free))
    assert cells_of(w) == sorted((c for c in ALL_CELLS if c[0] > 0 and (c[0] - 1, c[1]) in free), key=scan_key)
    assert cells_of(e) == sorted((c for c in ALL_CELLS if (c[0] + 1, c[1]) in free and c[0] < 16), key=scan_key)
    assert cells_of(n) == sorted((c for c in ALL_CELLS if (c[0], c[1] - 1) in free), key=scan_key)
    assert cells_of(s) == sorted((c for c in ALL_CELLS if (c[0], c[1] + 1) in free), key=scan_key)


def test_the_bot_plays_a_seeded_solo_game_as_before_the_speed_up() -> None:
    s = FP.new(1, {}, "bot-golden-0")
    played = []
    while FP.outcome(s) is None:
        action = FP.bot_action(s, 0)
        played.append(action)
        s, _ = FP.apply(s, 0, action)
    assert played == GOLDEN_SOLO
