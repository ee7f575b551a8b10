"""Exports an organiser can use elsewhere: the JSON record, FIDE's TRF-16, CSV standings and a crosstable.

Pure functions of a `Tournament` value (no Discord, no storage): the caller supplies what the value does not hold
(ratings after the event, read from storage). Seats map to chess colours as the games use them: seat 0 moves
first, so it is "white" (``w``) and seat 1 "black" (``b``).

TRF-16 (FIDE Handbook C.04 Annex 2, "Tournament Report File", 2016) is fixed-column text; the columns written here
(1-based, both ends included) are those of the player record ``001``:

    1-3 "001" · 5-8 starting rank · 10 sex · 11-13 title · 15-47 name · 49-52 rating · 54-56 federation ·
    58-68 FIDE id · 70-79 birth date · 81-84 points ("11.5") · 86-89 rank ·
    then per round r (from 1) at c = 92 + 10·(r − 1): c..c+3 opponent's starting rank ("0000": none),
    c+5 colour (w, b, "-" when unpaired), c+7 result.

Results: ``1`` ``=`` ``0`` a played win, draw, loss; ``+`` / ``-`` a forfeit win / loss (the no-show's opponent
and colour still shown); ``U`` the pairing-allocated bye (``H`` when byes are worth a half point, ``Z`` when
nothing); ``F`` / ``H`` / ``Z`` a round a late entrant missed, by the points granted for it; ``Z`` a round not
played after a withdrawal. A round still being played is left out: the file reports decided rounds only.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from league import standings as st
from league.model import Table
from league.settings import TournamentError
from league.tournament import Tournament

TRF_FORMATS = ("swiss", "round-robin")
TRF_TYPES = {"swiss": "Swiss System (FIDE Dutch)", "round-robin": "Round Robin (Berger)"}
NAME_WIDTH = 33  # TRF columns 15-47
COLOURS = ("w", "b")  # seat 0, seat 1


# --- JSON ----------------------------------------------------------------------------------------------------------


def json_export(t: Tournament, ratings_after: Mapping[str, float] | None = None) -> dict[str, Any]:
    """`Tournament.export` (every key kept) plus the settings, seeds and ratings as entered, ratings after (when
    the caller knows them), and per table the forfeits, the games' raw scores and the engine's game id."""
    out = t.export()
    after = ratings_after or {}
    seeds = {e.id: i for i, e in enumerate(t.seeded(), 1)}
    entrants = {e.id: e for e in t.entrants}
    for player in out["players"]:
        e = entrants[player["id"]]
        player.update(seed=seeds[e.id], rating_before=e.rating, rating_after=after.get(e.id),
                      joined_round=e.joined_round, start_points=e.start_points, dropped_after=e.dropped_after,
                      missed=list(e.missed))
    out["seeds"] = [e.id for e in t.seeded()]
    out["settings"] = t.settings.to_json()
    for rnd_out, rnd in zip(out["rounds"], t.rounds, strict=True):
        for table_out, table in zip(rnd_out["tables"], rnd.tables, strict=True):
            table_out["forfeited"] = list(table.forfeited)
            table_out["scores"] = None if table.scores is None else dict(table.scores)
            table_out["game_id"] = table.game_id
        if "games" in rnd.extra:  # a score round: each entrant's own game
            rnd_out["games"] = dict(rnd.extra["games"])
    return out


# --- TRF-16 --------------------------------------------------------------------------------------------------------


def _trf_text(value: str, width: int) -> str:
    """User text for a fixed-width field: one line, no control characters, cut to ``width``."""
    flat = "".join(c if c.isprintable() else " " for c in value).strip()
    return flat[:width]


def _number(value: float) -> str:
    return f"{value:4.1f}"


def _bye_code(points: float) -> str:
    return "U" if points >= 1 else "H" if points > 0 else "Z"


def _missed_code(points: float) -> str:
    return "F" if points >= 1 else "H" if points > 0 else "Z"


def _game_code(table: Table, player: str) -> str:
    if player in table.forfeited:
        return "-"
    if set(table.forfeited) - {player}:
        return "+"
    points = st.table_points(table)[player]
    return "1" if points == 1 else "=" if points == 0.5 else "0"


def _trf_cell(t: Tournament, number: int, player: str, numbers: dict[str, int]) -> str:
    """One round of one player: opponent (4), space, colour, space, result."""
    rnd = t.rounds[number - 1]
    for table in rnd.tables:
        if player in table.seats and len(table.seats) == 2:
            seat = table.seats.index(player)
            return f"{numbers[table.seats[1 - seat]]:>4} {COLOURS[seat]} {_game_code(table, player)}"
    if player in rnd.byes:
        return f"0000 - {_bye_code(t.settings.bye_value)}"
    if player in rnd.half_byes:  # requested: F / H / Z by the points it is worth, as a missed round
        return f"0000 - {_missed_code(t.settings.half_bye_points)}"
    e = t.entrant(player)
    if number < e.joined_round:
        missed = e.joined_round - 1
        return f"0000 - {_missed_code(e.start_points / missed if missed else 0.0)}"
    return "0000 - Z"


def trf(t: Tournament) -> str:
    """The tournament as a TRF-16 file (2-player Swiss and round robin), decided rounds only."""
    if t.fmt not in TRF_FORMATS:
        raise TournamentError("tour.export_trf_format", format=t.fmt)
    seeded = t.seeded()
    numbers = {e.id: i for i, e in enumerate(seeded, 1)}
    table = {s.player: s for s in t.standings()}
    rounds = [r.number for r in t.rounds if r.complete]
    lines = [f"012 {_trf_text(t.name, 80)}", f"062 {len(seeded)}", f"092 {TRF_TYPES[t.fmt]}",
             f"XXR {max(t.planned, len(rounds))}"]
    for e in seeded:
        s = table.get(e.id)
        rating = min(9999, max(0, round(e.rating)))
        head = (f"001 {numbers[e.id]:>4}      {_trf_text(e.name, NAME_WIDTH):<{NAME_WIDTH}} "
                f"{rating or '':>4} {'':3} {'':>11} {'':10} {_number(s.points if s else 0.0)} "
                f"{s.rank if s else '':>4}")
        cells = "".join(f"  {_trf_cell(t, n, e.id, numbers)}" for n in rounds)
        lines.append(head + cells)
    return "\r\n".join(lines) + "\r\n"  # TRF: every line ends with a carriage return


# --- CSV standings -------------------------------------------------------------------------------------------------


def _csv(rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerows(rows)
    return buf.getvalue()


def _csv_number(value: float) -> str:
    return f"{round(value, 4):g}"


def standings_csv(t: Tournament) -> str:
    """One row per entrant in standing order: place, name, points, each tie-break (named by its key, as
    `Scoring.tiebreaks` orders them), tables played and won, byes, dropped (1/0), id, requested byes."""
    names = {e.id: e.name for e in t.entrants}
    rows = t.standings()
    breaks = list(rows[0].tiebreaks) if rows else []
    out: list[list[Any]] = [["place", "name", "points", *breaks, "played", "won", "byes", "dropped", "id",
                             "half_byes"]]
    for s in rows:
        out.append([s.rank, names.get(s.player, s.player), _csv_number(s.points),
                    *(_csv_number(s.tiebreaks.get(b, 0.0)) for b in breaks), s.played, s.wins, s.byes,
                    int(s.dropped), s.player, s.half_byes])
    return _csv(out)


# --- crosstable ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One player's round: against whom (the opponent's crosstable row number), with which colour, and how.

    ``result``: ``1`` ``=`` ``0`` played, ``+`` / ``-`` forfeit won / lost, ``bye``, ``H`` a requested (half-point)
    bye, ``""`` not played or still
    being played; multiplayer tables give the place at the table as ``"2/4"`` (no opponent, no colour)."""

    opponent: int | None = None
    colour: str = ""
    result: str = ""

    def text(self, bye: str = "bye") -> str:
        if self.result == "bye":
            return bye
        return f"{'' if self.opponent is None else self.opponent}{self.colour}{self.result}"


@dataclass(frozen=True)
class CrossRow:
    number: int  # the row number opponents are referred to by (standing order)
    rank: int  # shared by ties
    player: str
    name: str
    points: float
    cells: tuple[Cell, ...]
    dropped: bool


def _place_cell(table: Table, player: str) -> Cell:
    assert table.ranking is not None
    if player in table.forfeited:
        return Cell(result="-")
    place = 1
    for group in table.ranking:
        if player in group:
            return Cell(result=f"{place}/{len(table.seats)}")
        place += len(group)
    return Cell()


def _cross_cell(t: Tournament, rnd_index: int, player: str, numbers: dict[str, int]) -> Cell:
    rnd = t.rounds[rnd_index]
    if player in rnd.byes:
        return Cell(result="bye")
    if player in rnd.half_byes:
        return Cell(result="H")
    for table in rnd.tables:
        if player not in table.seats:
            continue
        if len(table.seats) != 2:
            return _place_cell(table, player) if table.decided else Cell()
        seat = table.seats.index(player)
        result = _game_code(table, player) if table.decided else ""
        return Cell(numbers.get(table.seats[1 - seat]), COLOURS[seat], result)
    return Cell()


def crosstable(t: Tournament) -> list[CrossRow]:
    """Every entrant in standing order with a cell per round (``12w1``: beat row 12 with the first seat)."""
    names = {e.id: e.name for e in t.entrants}
    rows = t.standings()
    numbers = {s.player: i for i, s in enumerate(rows, 1)}
    return [CrossRow(numbers[s.player], s.rank, s.player, names.get(s.player, s.player), s.points,
                     tuple(_cross_cell(t, i, s.player, numbers) for i in range(len(t.rounds))), s.dropped)
            for s in rows]


def crosstable_csv(t: Tournament) -> str:
    """The crosstable as CSV: row number, place, name, points, then one column per round (R1, R2, ...)."""
    rows = crosstable(t)
    out: list[list[Any]] = [["no", "place", "name", "points", *(f"R{r.number}" for r in t.rounds)]]
    out += [[r.number, r.rank, r.name, _csv_number(r.points), *(c.text() for c in r.cells)] for r in rows]
    return _csv(out)


EXPORT_FORMATS = ("json", "trf", "csv", "crosstable")


def check_format(t: Tournament, fmt: str) -> None:
    """Refuse an export this tournament cannot give, before anything is built."""
    if fmt not in EXPORT_FORMATS:
        raise TournamentError("tour.export_bad_format", value=fmt[:20], allowed=", ".join(EXPORT_FORMATS))
    if fmt == "trf" and t.fmt not in TRF_FORMATS:
        raise TournamentError("tour.export_trf_format", format=t.fmt)


def crosstable_data(t: Tournament, *, title: str = "", subtitle: str = "") -> dict[str, Any]:
    """The crosstable as render/league's `crosstable_image` takes it (plain data)."""
    return {"title": title or t.name, "subtitle": subtitle,
            "rows": [{"number": r.number, "rank": r.rank, "name": r.name, "points": r.points, "dropped": r.dropped,
                      "cells": [{"opponent": c.opponent, "colour": c.colour, "result": c.result} for c in r.cells]}
                     for r in crosstable(t)]}
