"""Requested half-point byes are marked in the images organisers post (issue 22): the crosstable's round cell reads
"½ bye" and the standings mark each one with ½ after the record, explained under the table."""

from __future__ import annotations

import random

from cogs.tournaments.view import standings_data
from league import export as ex
from league.tournament import Tournament
from render import league as rl
from tests.league.test_tournament_manual import entered, play


def _finished_with_a_half_bye() -> Tournament:
    t = entered(n=6, rounds=3).request_bye("p2", 2, by="p2").start()
    rng = random.Random(1)
    while not t.finished:
        t = play(t.pair_next(), rng)
    return t


def test_crosstable_round_cell_of_a_requested_bye_reads_half_bye_in_each_language() -> None:
    assert rl.cell_text({"result": "H"}, "en") == "½ bye"
    assert rl.cell_text({"result": "H"}, "pl") == "½ pauza"
    t = _finished_with_a_half_bye()
    row = next(r for r in ex.crosstable_data(t)["rows"] if r["name"] == "Player 2")
    assert rl.cell_text(row["cells"][1], "en") == "½ bye"


def test_standings_mark_each_half_bye_after_the_record_and_explain_the_mark() -> None:
    t = _finished_with_a_half_bye()
    data = standings_data(t, t.standings(), "Cup", "", "en")
    marked = [r for r in data["rows"] if r["half_byes"]]
    assert [r["name"] for r in marked] == ["Player 2"]
    assert rl._record(marked[0]).endswith(" ½")
    without = {**data, "rows": [{**r, "half_byes": 0} for r in data["rows"]]}
    lay, plain = rl.standings_layout(data), rl.standings_layout(without)
    assert lay.halves and not plain.halves
    assert lay.height == plain.height + rl.FOOT_LINE  # room for the "½ a requested half-point bye" line
    rl.draw_standings(data)  # draws
