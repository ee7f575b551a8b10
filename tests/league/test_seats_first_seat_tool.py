"""tools/first_seat.py measures the first-seat advantage the docs quote: every game it plays is counted once."""

from __future__ import annotations

from tools import first_seat


def test_the_first_seat_tool_counts_every_game_once_as_seat_0_seat_1_or_a_draw():
    tally = first_seat.measure("flying_blades", 6)
    assert tally.played + tally.unfinished == 6
    assert tally.first + tally.second + tally.draws == tally.played
    assert "| flying_blades | " in first_seat.markdown([tally])
