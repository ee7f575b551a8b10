"""The replay message's components within Discord's limits at any length of game: 5 buttons a row at most, 25
options a select, custom_ids of 100 characters at most, each carrying the table and the step it leads to."""

from __future__ import annotations

import pytest

from cogs.replay import PAGE, items
from engine.replays import Step


def step(k: int, total: int) -> Step:
    return Step(k, total, None, None, {}, "")


@pytest.mark.parametrize(("k", "total"), [(0, 0), (0, 3), (24, 24), (25, 200), (199, 200), (700, 1000)])
def test_replay_components_fit_discords_limits_at_any_length(k: int, total: int) -> None:
    found = items(2**53, step(k, total), "pl")
    buttons = [i for i in found if i.item.type.value == 2]
    selects = [i.item for i in found if i.item.type.value == 3]
    assert len(buttons) == 4 and all(len(i.item.custom_id) <= 100 for i in found)
    assert all(1 <= len(s.options) <= 25 for s in selects)
    jump = selects[0]
    values = [int(o.value) for o in jump.options]
    assert k in values and min(values) == k // PAGE * PAGE and max(values) <= total
    assert len(selects) == (2 if total >= PAGE else 1)


def test_the_buttons_lead_to_first_back_next_last_and_the_current_one_is_disabled() -> None:
    found = items(7, step(0, 10), "en")
    targets = {i.op: (i.step, i.item.disabled) for i in found if hasattr(i, "op")}
    assert targets == {"first": (0, True), "back": (0, True), "next": (1, False), "last": (10, False)}
