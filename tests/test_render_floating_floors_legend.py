"""Floating Floors' image legend follows the game's tension (issue 23): with ``tension=bands`` the boards show a band
(safe / shaky / falls) and so does the legend; with ``exact`` the boards show a margin and the legend says so. The
legend's words are checked at their source, not in pixels."""

from __future__ import annotations

from typing import Any

import pytest

from render.floating_floors import model
from render.floating_floors.panel import bands, legend_words
from rules.floating_floors.game import FloatingFloors

G = FloatingFloors()


def view_with_a_board(tension: str) -> dict[str, Any]:
    """A seeded bot game in ``tension`` played until a board's physics is in the view."""
    s = G.new(2, {"tension": tension}, "legend-seed")
    for _ in range(60):
        view = G.view(s, None)
        if view.get("boards"):
            return view
        seat = min(G.to_move(s))
        s, _ = G.apply(s, seat, G.bot_action(s, seat))
    raise AssertionError("no board in 60 moves")


@pytest.mark.parametrize(("tension", "locale", "pill"), [
    ("bands", "en", "safe · shaky · falls"), ("bands", "pl", "pewnie · chwiejnie · spada"),
    ("exact", "en", "margin"), ("exact", "pl", "zapas"),
])
def test_legend_names_the_band_in_bands_mode_and_the_margin_in_exact(tension: str, locale: str, pill: str) -> None:
    """Was: the legend said "margin" under boards that showed "safe" or "shaky" (``tension=bands`` hides the
    number a margin is)."""
    m = model.read(view_with_a_board(tension))
    assert bands(m) == (tension == "bands")
    words = legend_words(locale, bands(m))
    assert words[2] == pill and words[:2] == legend_words(locale, tension != "bands")[:2]
