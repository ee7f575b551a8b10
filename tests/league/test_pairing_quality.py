"""Pairing quality by FIDE C.04.3 (Dutch): every candidate pairing is scored and the best one is taken.

The handbook cases: round 1 pairs the top half against the bottom half (C.04.3 B: S1 v S2), a moved-down player meets
the top of the next bracket, a score group floats as few players as possible (C5/C6: fewest downfloaters), the bye goes
to the lowest group. The regressions are the two simulated rounds in which pairing-core floated a whole score group.
"""

from __future__ import annotations

import json
from pathlib import Path

import pairing_core
import pytest

from league import pairing as pairing_mod
from league.model import Pairing
from league.pairing import SwissPlayer, swiss_pairing

DATA = Path(__file__).parent / "data"


def _players(points: dict[str, float], met: str = "", byes: str = "") -> list[SwissPlayer]:
    """Players in pairing-number order (ratings descending); ``met`` lists pairs that already played, "AB CD"."""
    opponents: dict[str, set[str]] = {p: set() for p in points}
    for a, b in met.split():
        opponents[a].add(b)
        opponents[b].add(a)
    return [SwissPlayer(p, 2400 - 10 * n, pts, frozenset(opponents[p]), p in byes, n)
            for n, (p, pts) in enumerate(points.items(), 1)]


def _games(pairing: Pairing) -> set[frozenset[str]]:
    return {frozenset(t) for t in pairing.tables}


def _snapshot(name: str) -> tuple[list[SwissPlayer], int]:
    d = json.loads((DATA / f"{name}.json").read_text())
    players = [SwissPlayer(p["id"], p["rating"], p["points"], frozenset(p["opponents"]), p["had_bye"],
                           p["pairing_no"]) for p in d["players"]]
    return players, d["round"]


def _quality(players: list[SwissPlayer], pairing: Pairing) -> pairing_mod.Quality:
    quality = pairing_mod._Field(players).quality(pairing)
    assert quality is not None
    return quality


# --- the handbook's rules -----------------------------------------------------------------------------------------


def test_round_one_pairs_the_top_half_against_the_bottom_half() -> None:
    players = _players(dict.fromkeys("12345678", 0.0))
    assert _games(swiss_pairing(players, 1)) == {frozenset(p) for p in ("15", "26", "37", "48")}


def test_round_one_odd_field_gives_the_bye_to_the_lowest_and_pairs_the_rest_by_halves() -> None:
    pairing = swiss_pairing(_players(dict.fromkeys("123456789", 0.0)), 1)
    assert pairing.byes == ("9",)
    assert _games(pairing) == {frozenset(p) for p in ("15", "26", "37", "48")}


def test_moved_down_player_meets_the_top_of_the_next_bracket() -> None:
    # Round 1 was 1-5 (1 won), 2-6 (draw), 3-7 (3 won), 4-8 (4 won): 1 v 3 leaves 4 to float onto 2, whose partner
    # 6 floats onto 5; 7 v 8 remain (the order caissify, checked against bbpPairings, also gives).
    players = _players({"1": 1, "2": 0.5, "3": 1, "4": 1, "5": 0, "6": 0.5, "7": 0, "8": 0}, met="15 26 37 48")
    assert _games(swiss_pairing(players, 2)) == {frozenset(p) for p in ("13", "24", "56", "78")}


def test_fewest_downfloaters_when_a_pair_in_a_three_player_group_has_met() -> None:
    # A and B met: Dutch pairs A v C and floats B alone, not the whole group (pairing-core floats A, B and C).
    players = _players({"A": 2, "B": 2, "C": 2, "D": 1, "E": 1, "F": 1, "G": 1, "H": 0},
                       met="AB AD BE BF CG CH")
    pairing = swiss_pairing(players, 3)
    assert frozenset("AC") in _games(pairing)
    quality = _quality(players, pairing)
    assert quality[:3] == (0, 0, 2)  # one player down from each odd group, no rematch, no second bye


def test_candidate_with_fewer_floaters_beats_the_first_library_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # Whichever library answers first, the one with fewer floaters is taken.
    monkeypatch.setattr(pairing_mod, "CAISSIFY_FIRST_MAX_PLAYERS", 0)
    players = _players({"A": 2, "B": 2, "C": 2, "D": 1, "E": 1, "F": 1, "G": 1, "H": 0},
                       met="AB AD BE BF CG CH")
    core = pairing_mod._pair_core(pairing_mod._Field(players), 3, 5.0)
    assert _quality(players, core)[2] > 2  # the library's own answer floats the whole group
    assert _quality(players, swiss_pairing(players, 3))[2] == 2


def test_bye_above_the_lowest_group_counts_as_a_float() -> None:
    players = _players({"A": 1, "B": 1, "C": 0, "D": 0, "E": 0})
    low = Pairing(tables=(("A", "B"), ("C", "D")), byes=("E",))
    high = Pairing(tables=(("A", "C"), ("D", "E")), byes=("B",))
    assert _quality(players, low) < _quality(players, high)
    assert swiss_pairing(players, 2).byes == ("E",)


def test_rematch_is_worse_than_any_number_of_floats() -> None:
    players = _players({"A": 1, "B": 1, "C": 0, "D": 0}, met="AB CD")
    rematch = Pairing(tables=(("A", "B"), ("C", "D")))
    floats = Pairing(tables=(("A", "C"), ("B", "D")))
    assert _quality(players, floats) < _quality(players, rematch)


def test_not_a_pairing_is_never_a_candidate() -> None:
    field = pairing_mod._Field(_players({"A": 0, "B": 0, "C": 0, "D": 0}))
    assert field.quality(Pairing(tables=(("A", "B"),), byes=("C", "D"))) is None  # two byes in an even field
    assert field.quality(Pairing(tables=(("A", "B"), ("A", "C")))) is None  # A twice, D missing


# --- regressions from simulated tournaments ------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "floats"), [("swiss_64_s1_before_round_5", 4), ("swiss_39_s2_before_round_4", 2)])
def test_simulated_round_gets_the_fewest_floaters(name: str, floats: int) -> None:
    players, number = _snapshot(name)
    field = pairing_mod._Field(players)
    core = pairing_mod._pair_core(field, number, 20.0)
    pairing = swiss_pairing(players, number)
    quality = _quality(players, pairing)
    assert quality[:3] == (0, 0, floats) == field.ideal[:3]  # the lower bound: no pairing floats fewer
    assert _quality(players, core)[2] > floats  # pairing-core alone floated a whole group here


def test_greedy_fallback_pairs_everyone_without_a_rematch_it_can_untangle() -> None:
    players, _ = _snapshot("swiss_64_s1_before_round_5")
    pairing = pairing_mod._pair_greedy(pairing_mod._Field(players))
    assert _quality(players, pairing)[:2] == (0, 0)


def test_search_past_its_deadline_is_abandoned_for_the_greedy_pairing(monkeypatch: pytest.MonkeyPatch) -> None:
    # The child process cannot be slowed by a monkeypatch (it is a fresh interpreter), so the deadline is zero.
    players, number = _snapshot("swiss_39_s2_before_round_4")
    with pairing_mod.bounded(0.0):
        pairing = swiss_pairing(players, number)
    assert pairing == pairing_mod._pair_greedy(pairing_mod._Field(players))


def test_bounded_search_within_its_deadline_gives_the_best_pairing() -> None:
    players, number = _snapshot("swiss_39_s2_before_round_4")
    with pairing_mod.bounded(60.0):
        pairing = swiss_pairing(players, number)
    assert pairing == swiss_pairing(players, number)


def test_bounded_is_scoped_to_its_block() -> None:
    with pairing_mod.bounded(1.0):
        assert pairing_mod._DEADLINE.get() == 1.0
    assert pairing_mod._DEADLINE.get() is None


def test_library_failure_still_leaves_a_scored_candidate(monkeypatch: pytest.MonkeyPatch) -> None:
    def timeout(request: pairing_core.CanonicalRequest) -> object:
        raise pairing_core.EngineTimeoutError("budget spent")

    monkeypatch.setattr(pairing_core, "pair_canonical", timeout)
    players, number = _snapshot("swiss_64_s1_before_round_5")
    assert _quality(players, swiss_pairing(players, number))[:3] == (0, 0, 4)


@pytest.mark.parametrize("n", [2, 7, 16, 33, 1024])
def test_round_one_is_the_initial_dutch_pairing_without_a_library(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # pairing-core took 5 s at 512 players and 71 s at 1,024 for this: S1 v S2 in pairing-number order, bye last.
    def no_library(*args: object, **kwargs: object) -> object:
        raise AssertionError("round 1 needs no search")

    monkeypatch.setattr(pairing_core, "pair_canonical", no_library)
    ids = [f"p{i}" for i in range(1, n + 1)]
    pairing = swiss_pairing(_players(dict.fromkeys(ids, 0.0)), 1)
    half = n // 2
    assert pairing.byes == ((ids[-1],) if n % 2 else ())
    assert pairing.tables == tuple((ids[i], ids[i + half]) for i in range(half))
