"""tools/fw_team_sim.py: a game that never ends is counted as stalled at a turn cap, never played for minutes."""

from __future__ import annotations

from tools import fw_team_sim as sim


def test_a_game_past_the_turn_cap_counts_as_stalled() -> None:
    """A cap of 3 player turns stops a real game early and names it stalled, not lost or unfinished."""
    reason, turns = sim.play(3, "easy", "team-easy-3-144", max_turns=3)
    assert reason == sim.STALLED and turns == 4


def test_stalled_games_are_their_own_column_not_a_loss_or_a_length() -> None:
    """The table counts a stalled game apart: it is in no loss cause and does not lengthen the averages."""
    cell = sim.Cell()
    cell.add("fw.outcome.sealed", 40)
    cell.add("fw.outcome.all_dead", 60)
    cell.add(sim.STALLED, sim.MAX_TURNS + 1)
    assert cell.stalled == "33.3%" and cell.losses() == "all_dead 33.3%"
    assert cell.avg_turns == 50.0 and cell.longest == 60
