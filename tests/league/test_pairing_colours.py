"""Seat (colour) preferences inside the pairing's quality score: FIDE C.04.3 (Dutch) C3, C12 and C13.

C3: "non-topscorers with the same absolute colour preference shall not meet"; C12: "minimize the number of players
who do not get their colour preference"; C13: "minimize the number of players who do not get their strong colour
preference". Seat 0 moves first and plays the part of white. Floats and score differences still come first.
"""

from __future__ import annotations

import pytest

from league import pairing as pairing_mod
from league.model import Pairing
from league.pairing import SwissPlayer, swiss_pairing

FIRST, SECOND = 0, 1


def _players(history: dict[str, tuple[int, ...]], points: dict[str, float] | None = None) -> list[SwissPlayer]:
    """Players in pairing-number order; each met only players outside this field (no rematch to avoid)."""
    return [SwissPlayer(p, 2400 - 10 * n, (points or {}).get(p, 1.0), frozenset({f"gone-{p}"}), False, n, seats)
            for n, (p, seats) in enumerate(history.items(), 1)]


def _quality(players: list[SwissPlayer], *tables: str) -> pairing_mod.Quality:
    quality = pairing_mod._Field(players).quality(Pairing(tuple((t[0], t[1]) for t in tables)))
    assert quality is not None
    return quality


# A and C sat first twice running, B and D second twice running: both must change seat (absolute, C.04.3 A.6.a).
CLASHING = {"A": (FIRST, FIRST), "B": (SECOND, SECOND), "C": (FIRST, FIRST), "D": (SECOND, SECOND)}


def test_c3_of_two_candidates_equal_on_floats_the_one_without_an_absolute_seat_clash_scores_better() -> None:
    players = _players(CLASHING)
    dutch_order, seat_aware = _quality(players, "AC", "BD"), _quality(players, "AD", "BC")
    assert dutch_order[:5] == seat_aware[:5]  # same floats and score differences
    assert dutch_order[5] == 2 and seat_aware[5] == 0
    assert seat_aware < dutch_order


def test_c3_swiss_pairing_takes_the_candidate_that_grants_absolute_seat_preferences() -> None:
    # Both libraries are colour-blind and pair 1 v 3, 2 v 4 (A v C, B v D): each table would need one player to sit
    # first a third time running. The scored candidates include one that grants all four.
    pairing = swiss_pairing(_players(CLASHING), 3)
    games = {frozenset(t) for t in pairing.tables}
    assert games in ({frozenset("AD"), frozenset("BC")}, {frozenset("AB"), frozenset("CD")})


def test_c12_c13_at_equal_floats_fewer_unmet_then_fewer_unmet_strong_preferences_score_better() -> None:
    # A and C had more first seats (strong: want second), B and D more second seats; E, F level (mild).
    players = _players({"A": (FIRST, SECOND, FIRST), "B": (SECOND, FIRST, SECOND),
                        "C": (FIRST, SECOND, FIRST), "D": (SECOND, FIRST, SECOND)})
    assert _quality(players, "AB", "CD")[6:8] == (0, 0)
    assert _quality(players, "AC", "BD")[6:8] == (2, 2)
    assert _quality(players, "AB", "CD") < _quality(players, "AC", "BD")


@pytest.mark.parametrize("tables", [("AB", "CD"), ("AD", "BC")])
def test_seat_preferences_never_cost_a_float(tables: tuple[str, str]) -> None:
    # A, B on 2 points, C, D on 1: a clash inside each group is still better than floating two players (C5/C6).
    players = _players({"A": (FIRST, FIRST), "B": (FIRST, FIRST), "C": (SECOND, SECOND), "D": (SECOND, SECOND)},
                       {"A": 2.0, "B": 2.0, "C": 1.0, "D": 1.0})
    floats, grouped = _quality(players, *tables), _quality(players, "AB", "CD")
    assert grouped[5] == 2 and grouped <= floats
    assert {frozenset(t) for t in swiss_pairing(players, 3).tables} == {frozenset("AB"), frozenset("CD")}
