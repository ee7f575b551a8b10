"""The crosstable image (render/league/ `crosstable_image`), drawn from league/export.py's crosstable data."""

from __future__ import annotations

from typing import Any

import pytest

from league import export as ex
from render import league as lg
from tests.league.test_export import hand_swiss
from tests.pngs import png_image

MB = 1 << 20


def many(players: int, rounds: int) -> dict[str, Any]:
    cells = [{"opponent": (i % players) + 1, "colour": "wb"[i % 2], "result": "1=0+-"[i % 5]} for i in range(rounds)]
    return {"title": "Big Swiss", "subtitle": "flying_blades",
            "rows": [{"number": n, "rank": n, "name": f"Player {n}", "points": rounds / 2, "cells": cells}
                     for n in range(1, players + 1)]}


def test_crosstable_image_of_the_hand_checked_tournament_decodes_with_a_column_per_round() -> None:
    data = ex.crosstable_data(hand_swiss(), subtitle="Swiss · 3 rounds")
    img = png_image(lg.crosstable_image(data))
    lay = lg.crosstable_layout(data)
    assert img.mode == "P" and img.size == (lay.width, lay.height)
    assert len(lay.rounds) == 3 and lay.shown == 5
    assert lay.name_x < lay.name_right < lay.points_right < lay.rounds[0] < lay.rounds[-1] < lay.width


def test_crosstable_cells_read_as_chess_crosstables_write_them() -> None:
    assert lg.cell_text({"opponent": 12, "colour": "w", "result": "1"}) == "12w1"
    assert lg.cell_text({"opponent": 3, "colour": "b", "result": "="}) == "3b\u00bd"
    assert lg.cell_text({"opponent": 7, "colour": "w", "result": "+"}) == "7w+"
    assert lg.cell_text({"result": "bye"}, "pl") == "wolny los"
    assert lg.cell_text({"result": "2/4"}) == "2/4"
    assert lg.cell_text({}) == lg.DASH


@pytest.mark.parametrize(("players", "rounds"), [(64, 9), (16, 15), (40, 45)])
def test_a_large_crosstable_stays_readable_and_caps_its_columns(players: int, rounds: int) -> None:
    data = many(players, rounds)
    img = png_image(png := lg.crosstable_image(data))
    lay = lg.crosstable_layout(data)
    assert len(lay.rounds) == min(rounds, lg.MAX_CROSS_ROUNDS)
    assert lay.name_right - lay.name_x >= 200 and len(png) < MB and img.height <= 4096


def test_malformed_crosstable_data_does_not_crash() -> None:
    for data in ({}, {"rows": None}, {"rows": [None, {"cells": [None, 3, {"opponent": "x"}]}]}):
        png_image(lg.crosstable_image(data))  # type: ignore[arg-type]
