"""The exports (league/export.py): FIDE TRF-16 column by column against a hand-checked tournament, CSV standings,
the crosstable, and the JSON export keeping every key it had."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from league import export as ex
from league.model import Entrant, Round, Table
from league.settings import Settings, TournamentError
from league.tournament import FINISHED, Tournament

NAMES = {"a": "Alice", "b": "Bob", "c": "Cara", "d": "Dan", "e": "Eve"}


def hand_swiss(**settings: Any) -> Tournament:
    """Five players, three rounds, a bye each round, one forfeit (hand-checked points: a 2, b 2, c 0.5, d 2.5,
    e 2; starting ranks a..e = 1..5 by rating; seat 0 is white).

    R1: a-b 1-0, c-d draw, e bye · R2: e-a 0-1, b-c (c forfeits), d bye · R3: a-d 0-1, c-e 0-1, b bye."""
    entrants = tuple(Entrant(p, n, rating=2000 - 100 * i) for i, (p, n) in enumerate(NAMES.items()))
    rounds = (
        Round(1, (Table(("a", "b"), (("a",), ("b",))), Table(("c", "d"), (("c", "d"),))), ("e",)),
        Round(2, (Table(("e", "a"), (("a",), ("e",))), Table(("b", "c"), (("b",), ("c",)), forfeited=("c",))),
              ("d",)),
        Round(3, (Table(("a", "d"), (("d",), ("a",))), Table(("c", "e"), (("e",), ("c",)))), ("b",)),
    )
    return Tournament("Spring Open", Settings(game="flying_blades", format="swiss", **settings), seed="s",
                      status=FINISHED, entrants=entrants, rounds=rounds, planned=3)


def player_lines(text: str) -> dict[int, str]:
    return {int(line[4:8]): line for line in text.split("\r\n") if line.startswith("001")}


def cells(line: str) -> list[str]:
    """Each round's 8 columns (opponent, colour, result) from column 92 on, 10 columns a round."""
    return [line[c:c + 8] for c in range(91, len(line), 10)]


def test_trf_player_lines_match_the_hand_checked_tournament_round_by_round() -> None:
    lines = player_lines(ex.trf(hand_swiss()))
    assert {n: cells(line) for n, line in lines.items()} == {
        1: ["   2 w 1", "   5 b 1", "   4 w 0"],
        2: ["   1 b 0", "   3 w +", "0000 - U"],
        3: ["   4 w =", "   2 b -", "   5 w 0"],
        4: ["   3 b =", "0000 - U", "   1 b 1"],
        5: ["0000 - U", "   1 w 0", "   3 b 1"],
    }


def test_trf_fixed_columns_parse_back_to_the_tournament() -> None:
    t = hand_swiss()
    text = ex.trf(t)
    ranks = {s.player: s.rank for s in t.standings()}
    points = {"a": 2.0, "b": 2.0, "c": 0.5, "d": 2.5, "e": 2.0}
    for number, (pid, name) in enumerate(NAMES.items(), 1):
        line = player_lines(text)[number]
        assert line[0:3] == "001" and line[3] == " "
        assert line[14:47].rstrip() == name  # columns 15-47
        assert int(line[48:52]) == 2100 - 100 * number  # columns 49-52
        assert float(line[80:84]) == points[pid]  # columns 81-84, "11.5" format
        assert line[80:84] == f"{points[pid]:4.1f}"
        assert int(line[85:89]) == ranks[pid]  # columns 86-89
        assert line[89:91] == "  "
    assert text.endswith("\r\n") and "\r\n012 " not in text and text.startswith("012 Spring Open\r\n")
    assert "\r\nXXR 3\r\n" in text and "\r\n062 5\r\n" in text


def test_trf_bye_code_follows_the_bye_value_the_organiser_set() -> None:
    half = player_lines(ex.trf(hand_swiss(bye_points=0.5)))
    nothing = player_lines(ex.trf(hand_swiss(bye_points=0.0)))
    assert cells(half[5])[0] == "0000 - H" and cells(nothing[5])[0] == "0000 - Z"
    assert half[5][80:84] == " 1.5"


def test_trf_marks_a_late_entrants_missed_rounds_by_the_points_granted_and_a_withdrawal_as_absent() -> None:
    t = hand_swiss()
    late = Entrant("f", "Finn", rating=1000, joined_round=3, start_points=1.0)
    gone = [e if e.id != "c" else Entrant("c", "Cara", 1800, dropped_after=2) for e in t.entrants]
    rounds = (t.rounds[0], t.rounds[1],
              Round(3, (t.rounds[2].tables[0], Table(("f", "e"), (("e",), ("f",)))), ("b",)))
    t = Tournament(t.name, t.settings, t.seed, FINISHED, (*gone, late), rounds=rounds, planned=3)
    lines = player_lines(ex.trf(t))
    assert cells(lines[6]) == ["0000 - H", "0000 - H", "   5 w 0"]  # 1 point for 2 missed rounds
    assert cells(lines[3])[2] == "0000 - Z"


def test_trf_leaves_out_a_round_still_being_played() -> None:
    t = hand_swiss()
    t = Tournament(t.name, t.settings, t.seed, "running", t.entrants, rounds=(
        *t.rounds[:2], Round(3, (Table(("a", "d")), Table(("c", "e"))), ("b",))), planned=3)
    assert all(len(cells(line)) == 2 for line in player_lines(ex.trf(t)).values())


def test_trf_name_is_one_line_cut_to_its_33_columns() -> None:
    t = hand_swiss()
    long = Entrant("a", "Alice\nof the very long name that never ends at all", rating=2000)
    t = Tournament(t.name, t.settings, t.seed, FINISHED, (long, *t.entrants[1:]), rounds=t.rounds, planned=3)
    line = player_lines(ex.trf(t))[1]
    assert line[14:47] == "Alice of the very long name that "[:33]
    assert cells(line)[0] == "   2 w 1"


@pytest.mark.parametrize("fmt", ["pods", "single-elimination", "double-elimination", "score"])
def test_trf_is_refused_for_formats_it_cannot_describe(fmt: str) -> None:
    size = {"pods": 3, "score": 1}.get(fmt, 2)
    t = Tournament("Cup", Settings(game="flying_blades", format=fmt, table_size=size), seed="s")
    with pytest.raises(TournamentError) as err:
        ex.trf(t)
    assert err.value.msg.key == "tour.export_trf_format"
    with pytest.raises(TournamentError):
        ex.check_format(t, "trf")
    ex.check_format(t, "csv")


def test_standings_csv_has_place_name_points_and_every_tiebreak_by_name() -> None:
    t = hand_swiss()
    rows = list(csv.reader(io.StringIO(ex.standings_csv(t))))
    standings = t.standings()
    breaks = list(standings[0].tiebreaks)
    assert rows[0][:3 + len(breaks)] == ["place", "name", "points", *breaks]
    assert [r[1] for r in rows[1:]] == [NAMES[s.player] for s in standings]
    assert rows[1][:3] == ["1", "Dan", "2.5"]
    for row, s in zip(rows[1:], standings, strict=True):
        assert [float(v) for v in row[3:3 + len(breaks)]] == pytest.approx([s.tiebreaks[b] for b in breaks])


def test_crosstable_cells_name_opponent_row_colour_and_result() -> None:
    t = hand_swiss()
    rows = ex.crosstable(t)
    no = {r.player: r.number for r in rows}
    by = {r.player: r for r in rows}
    assert [r.player for r in rows] == [s.player for s in t.standings()]
    assert by["a"].cells == (ex.Cell(no["b"], "w", "1"), ex.Cell(no["e"], "b", "1"), ex.Cell(no["d"], "w", "0"))
    assert by["b"].cells[1:] == (ex.Cell(no["c"], "w", "+"), ex.Cell(result="bye"))
    assert by["c"].cells[:2] == (ex.Cell(no["d"], "w", "="), ex.Cell(no["b"], "b", "-"))
    grid = list(csv.reader(io.StringIO(ex.crosstable_csv(t))))
    assert grid[0] == ["no", "place", "name", "points", "R1", "R2", "R3"]
    assert grid[no["a"]][4:] == [f"{no['b']}w1", f"{no['e']}b1", f"{no['d']}w0"]
    assert grid[no["e"]][4] == "bye"


def test_crosstable_of_a_multiplayer_table_gives_the_place_at_the_table() -> None:
    entrants = tuple(Entrant(p, NAMES[p]) for p in "abc")
    t = Tournament("Pods", Settings(game="floor_plan", format="pods", table_size=3), seed="s", status=FINISHED,
                   entrants=entrants, rounds=(Round(1, (Table(("a", "b", "c"), (("b",), ("a", "c"))),)),),
                   planned=1)
    assert {r.player: r.cells[0].text() for r in ex.crosstable(t)} == {"b": "1/3", "a": "2/3", "c": "2/3"}


def key_paths(value: Any, prefix: str = "") -> set[str]:
    """Every key path in a JSON value (list items merged under ``[]``)."""
    if isinstance(value, dict):
        return {p for k, v in value.items() for p in {f"{prefix}.{k}", *key_paths(v, f"{prefix}.{k}")}}
    if isinstance(value, list):
        return {p for v in value for p in key_paths(v, f"{prefix}[]")}
    return set()


def test_json_export_keeps_every_key_of_the_old_export() -> None:
    t = hand_swiss()
    assert key_paths(t.export()) <= key_paths(ex.json_export(t))
    old = {".game", ".format", ".name", ".status", ".players", ".players[].id", ".players[].name", ".rounds",
           ".rounds[].number", ".rounds[].tables", ".rounds[].tables[].seats", ".rounds[].tables[].ranking",
           ".rounds[].byes", ".standings", ".standings[].player", ".standings[].rank", ".standings[].points",
           ".standings[].tiebreaks"}
    assert old <= key_paths(ex.json_export(t))


def test_json_export_gains_forfeits_raw_scores_seeds_ratings_and_settings() -> None:
    t = hand_swiss(bye_points=0.5)
    out = ex.json_export(t, ratings_after={"a": 2012.0})
    assert out["settings"] == t.settings.to_json() and out["settings"]["bye_points"] == 0.5
    assert out["seeds"] == ["a", "b", "c", "d", "e"]
    alice = out["players"][0]
    assert (alice["seed"], alice["rating_before"], alice["rating_after"]) == (1, 2000.0, 2012.0)
    assert out["players"][1]["rating_after"] is None
    assert out["rounds"][1]["tables"][1]["forfeited"] == ["c"]
    score = Tournament("Daily", Settings(game="floor_plan", format="score", table_size=1), seed="s",
                       status=FINISHED, entrants=(Entrant("a", "A"), Entrant("b", "B")),
                       rounds=(Round(1, (Table(("a", "b"), (("b",), ("a",)), {"a": 31.0, "b": 44.0}),)),),
                       planned=1)
    assert ex.json_export(score)["rounds"][0]["tables"][0]["scores"] == {"a": 31.0, "b": 44.0}


def test_standings_csv_columns_are_unique_so_a_spreadsheet_can_address_them() -> None:
    header = next(csv.reader(io.StringIO(ex.standings_csv(hand_swiss()))))
    assert len(header) == len(set(header))
