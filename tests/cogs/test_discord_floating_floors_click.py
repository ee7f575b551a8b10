"""One Floating Floors click computes each posted board's view once, and draws it through the renderer registry
(issue 24: the view was computed for the move's mark and again for the image, the renderer found by a probe)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.floating_floors.game import FloatingFloors
from tests.cogs.test_discord_floating_floors import latest_board, start
from tests.discord_harness import Harness, choose_select


class Counts:
    """engine.get and rules.view calls made while a click is handled."""

    def __init__(self, h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
        self.gets = 0
        self.views: list[int | None] = []
        engine_get = h.bot.engine.get
        rules_view = FloatingFloors.view

        async def get(table_id: int) -> Any:
            self.gets += 1
            return await engine_get(table_id)

        def view(rules: FloatingFloors, state: Any, seat: int | None) -> dict[str, Any]:
            self.views.append(seat)
            return rules_view(rules, state, seat)

        monkeypatch.setattr(h.bot.engine, "get", get)
        monkeypatch.setattr(FloatingFloors, "view", view)


async def test_a_move_click_computes_each_posted_boards_view_once(harness: Harness,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The fault: a click's run (the player's move, the bot's reply) computed the public view of each move for its
    mark, then the last board's view again for the image. Now one view per board in the run; the surface reads the
    table twice through `Engine.get`, for the click and for the prompt bookkeeping under its lock (cache hits); the
    engine's own read under its lock goes to its table book (`book.get(..., seen=version)`), not counted here."""
    h = harness
    await start(h)
    counts = Counts(h, monkeypatch)
    sent = await choose_select(h, latest_board(h), "home", "chakra e6")
    await h.settle()
    assert any(s.pngs() for s in sent) or latest_board(h).pngs(), "the board is posted"
    assert counts.views == [None, None], counts.views
    assert counts.gets == 2, counts.gets
