"""Pairings published by FIDE-endorsed programs for the FIDE (Dutch) system, C.04.3, against ours.

Each case is a tournament's history (who played whom, seats, results) and the next round as the endorsed program
paired it. Ours is `swiss_pairing` (every candidate scored by `_Field.quality`); seats 0/1 stand for white/black.
A case where we differ is asserted as it is, named after the FIDE criterion that makes the difference.
"""

from __future__ import annotations

from league import seats as sa
from league.pairing import SwissPlayer, swiss_pairing

POINTS = {"1": 1.0, "=": 0.5, "0": 0.0}


def _field(ratings: list[int], rounds: list[str], absent: str = "") -> tuple[list[SwissPlayer], int]:
    """Players 1..n (pairing numbers) after ``rounds``, each "white-black:result ..." with the white player's result
    (1, =, 0), or "n:U" for a pairing-allocated bye and "n:Z" for a zero-point absence; ``absent`` sits this round."""
    n = len(ratings)
    points = dict.fromkeys(range(1, n + 1), 0.0)
    met: dict[int, set[int]] = {p: set() for p in points}
    seats: dict[int, list[int]] = {p: [] for p in points}
    byes: set[int] = set()
    for line in rounds:
        for game in line.split():
            pair, result = game.split(":")
            if "-" not in pair:
                byes |= {int(pair)} if result == "U" else set()
                points[int(pair)] += 1.0 if result == "U" else 0.0
                continue
            white, black = (int(x) for x in pair.split("-"))
            points[white] += POINTS[result]
            points[black] += 1.0 - POINTS[result]
            met[white].add(black)
            met[black].add(white)
            seats[white].append(0)
            seats[black].append(1)
    away = {int(x) for x in absent.split()}
    players = [SwissPlayer(str(p), ratings[p - 1], points[p], frozenset(str(o) for o in met[p]), p in byes, p,
                           tuple(seats[p])) for p in points if p not in away]
    return players, len(rounds) + 1


def _ours(players: list[SwissPlayer], number: int) -> tuple[set[tuple[str, str]], tuple[str, ...]]:
    """Our pairing, seated by our seat allocation (league/seats.py, as the tournament does): {(white, black)}, byes."""
    pairing = swiss_pairing(players, number)
    history = {p.id: p.seats for p in players}
    order = sorted(players, key=lambda p: (-p.points, p.pairing_no))
    rank = {p.id: (0.0, i) for i, p in enumerate(order)}
    seated = sa.allocate(list(pairing.tables), history, rank.__getitem__, initial=0)
    return {(a, b) for a, b in seated}, pairing.byes


def _expected(text: str) -> tuple[set[tuple[str, str]], tuple[str, ...]]:
    """The program's output: "white-black ..." and "n-0" for the bye."""
    pairs = [tuple(x.split("-")) for x in text.split()]
    return {(a, b) for a, b in pairs if b != "0"}, tuple(a for a, b in pairs if b == "0")


def _games(pairs: set[tuple[str, str]]) -> set[frozenset[str]]:
    return {frozenset(p) for p in pairs}


# bbpPairings (FIDE-endorsed) generated this 10-player, 5-round tournament (random results, seed 42) and checked it
# with its own checker: https://github.com/lexisvar/caissify_pairings/blob/main/tests/fixtures/fide_official/bbp_10p5r_s42.trf
S42_RATINGS = [2568, 2542, 2527, 2507, 2371, 2344, 2320, 2183, 2070, 2046]
S42 = ["2-7:1 4-9:1 6-1:= 8-3:= 10-5:0", "1-4:0 3-6:1 5-2:1 7-8:= 9-10:=", "2-3:0 4-5:= 6-7:1 8-9:= 10-1:0",
       "1-8:1 3-4:= 5-6:= 7-10:1 9-2:0", "2-1:1 4-6:1 5-3:0 8-10:0 9-7:0"]


Seated = tuple[set[tuple[str, str]], tuple[str, ...]]  # {(white, black)}, byes


def _s42(number: int) -> tuple[Seated, Seated]:
    players, _ = _field(S42_RATINGS, S42[:number - 1])
    return _ours(players, number), _expected(" ".join(g.split(":")[0] for g in S42[number - 1].split()))


def test_bbp_10_players_round_2_a_three_player_group_floats_the_player_whose_colours_fit_c12() -> None:
    """https://github.com/lexisvar/caissify_pairings/blob/main/tests/fixtures/fide_official/bbp_10p5r_s42.trf

    Round 2: 2, 4 and 5 won; 2 and 4 both sat first. Dutch order would pair 2 v 4 and float 5, leaving two players
    without their colour; C12 ("minimize the number of players who do not get their colour preference") floats 4
    instead: 1-4, 3-6, 5-2, 7-8, 9-10, each with the program's colours."""
    ours, expected = _s42(2)
    assert ours == expected


def test_bbp_10_players_rounds_4_and_5_same_games_and_colours() -> None:
    """https://github.com/lexisvar/caissify_pairings/blob/main/tests/fixtures/fide_official/bbp_10p5r_s42.trf

    Round 4: 1-8, 3-4, 5-6, 7-10, 9-2; round 5: 2-1, 4-6, 5-3, 8-10, 9-7 (white first)."""
    for number in (4, 5):
        ours, expected = _s42(number)
        assert ours == expected, number


def test_bbp_10_players_round_3_differs_by_c15_no_upfloat_twice_running_float_history_not_kept() -> None:
    """https://github.com/lexisvar/caissify_pairings/blob/main/tests/fixtures/fide_official/bbp_10p5r_s42.trf

    Round 3: 8 (1 point) drops into the half-point group. Player 1 floated up to meet 4 in round 2, so C.04.3 C15
    ("minimize the number of upfloaters who received an upfloat in the previous round") keeps 1 from meeting the
    moved-down 8: bbpPairings pairs 8-9, 6-7, 10-1. We keep no float history (pairing-core searched without an
    answer when given one, see /work/shared/notes/tournament-libraries.md), so 1 meets 8 again as in plain Dutch
    order. The two top boards agree."""
    ours, expected = _s42(3)
    assert expected[0] == {("2", "3"), ("4", "5"), ("6", "7"), ("8", "9"), ("10", "1")}
    assert {("2", "3"), ("4", "5")} <= ours[0]
    assert _games(ours[0]) - _games(expected[0]) == {frozenset("18"), frozenset({"6", "9"}), frozenset({"10", "7"})}


def test_bbp_dutch_2025_c9_the_bye_goes_to_a_player_who_has_played_every_round() -> None:
    """bbpPairings' test for criterion C9 of the Dutch rules applied from 1 July 2025 (input and expected output):
    https://github.com/BieremaBoyzProgramming/bbpPairings/blob/master/test/tests/dutch_2025_C9.input and
    .../dutch_2025_C9.output.expected

    Round 2 of 5 players: 1 beat 3, 2 beat 4, 5 was absent (zero). Among the three on 0 the pairing-allocated bye goes
    to 4, not to 5 who already has an unplayed round: 2-1, 3-5, 4 bye."""
    players, number = _field([2720, 2701, 2697, 2689, 2673], ["1-3:1 4-2:0 5:Z"])
    assert _ours(players, number) == _expected("2-1 3-5 4-0")


def test_bbp_dutch_2025_c5_differs_the_bye_above_the_lowest_group_counts_as_one_float() -> None:
    """bbpPairings' test for criterion C5 of the Dutch rules applied from 1 July 2025:
    https://github.com/BieremaBoyzProgramming/bbpPairings/blob/master/test/tests/dutch_2025_C5.input and
    .../dutch_2025_C5.output.expected

    Round 3 of 6 players, 4 absent: 1 and 3 on 2 points, 2 and 5 on 1 (they met), 6 on 0. The program gives the
    bye to 6, the lowest score, and floats both leaders down: 1-5, 3-2, 6 bye. Ours scores a bye one group above the
    lowest as one float, like a game across that boundary, so 1-3, 6-2 with 5's bye has as many floats and crosses
    only the lower boundary: we keep the leaders together. Left as it is: the quality order would need the bye's
    score ahead of the floats, which no other case here asks for."""
    players, number = _field([2720, 2701, 2697, 2689, 2673, 2664], ["1-4:1 2-5:1 3-6:1", "2-1:0 4-3:0 5-6:0"],
                             absent="4")
    ours, expected = _ours(players, number), _expected("1-5 3-2 6-0")
    assert expected == ({("1", "5"), ("3", "2")}, ("6",))
    assert _games(ours[0]) == {frozenset("13"), frozenset("26")} and ours[1] == ("5",)
