"""Double a Room's second room (issue 25, sixth pass): the best spot on the sheet with the first room drawn, read
off the seat's sheet's sorted spots for those clear of the first room and scored afresh only beside it, is the
best spot of the long way (every free spot of the sheet with the first room scored)."""

from __future__ import annotations

import random
from typing import Any

from rules.base import RulesError
from rules.floor_plan.planner.rooms import _all_spots, _best_beside, _free_rects, _room_options, _room_prescore
from rules.floor_plan.sheet import ROOM_TYPES, Room, Sheet, add_room
from tests.rules.test_floor_plan_planner_shortcuts import (  # a solo bot game's first 40 states
    _rolled_contexts,
    _states,
)


def _long_best(ctx: Any, sheet: Sheet, dice: tuple[int, int]) -> list[tuple[float, tuple[int, int, int, int, str]]]:
    """The long way: every free spot and room type of the dice scored by `_room_prescore`, the least tuple."""
    a, b = dice
    blocked = set(sheet.room_of) | set(sheet.features) | set(sheet.water)
    scored = [(-_room_prescore(ctx, sheet, t, x, y, w, h), y, x, w, h, t)
              for w, h in sorted({(a, b), (b, a)}) for x, y in _free_rects(blocked, w, h)
              for t in sorted({ROOM_TYPES[a - 1], ROOM_TYPES[b - 1]})]
    if not scored:
        return []
    neg, y, x, w, h, t = min(scored)
    return [(-neg, (x, y, w, h, t))]


def test_the_second_rooms_best_spot_beside_or_clear_of_the_first_is_the_long_ways_best() -> None:
    pick = random.Random("double")
    checked = 0
    for seed in ("double-a", "double-b", "double-c"):
        for ctx in _rolled_contexts(_states(seed)[1::2]):
            base = ctx.board.sheet
            for dice in (ctx.s.roll, (2, 3), (1, 6), (4, 4)):
                spots = _all_spots(ctx, base, dice)
                firsts = spots[:4] + pick.sample(spots, min(4, len(spots)))  # the best, and any others
                for _, y, x, w, h, t in firsts:
                    try:
                        after = add_room(base, Room(t, x, y, w, h, (x, y)))
                    except RulesError:
                        continue
                    got = _best_beside(ctx, base, after, after.rooms[-1], dice)
                    assert got == _long_best(ctx, after, dice), (dice, (x, y, w, h, t))
                    assert [(sc, (rd.x, rd.y, rd.w, rd.h, rd.type)) for sc, rd in _room_options(ctx, after, dice, 1)
                            ] == got
                    checked += 1
    assert checked > 300, checked
