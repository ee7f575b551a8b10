"""Pods rotate seat order so that each player's seats even out over the event (seat 0 starts)."""

from __future__ import annotations

import math
import random

from league.model import Entrant
from league.settings import Settings
from league.tournament import Tournament

ROUNDS, SIZE = 6, 4


def _event(n: int, seed: int) -> dict[str, list[tuple[int, int]]]:
    """A 6-round event of 4-seat pods with random results: each player's (seat, table size) per round."""
    t = Tournament("p", Settings(game="flying_blades", format="pods", table_size=SIZE, rounds=ROUNDS), f"s{seed}")
    for i in range(n):
        t = t.register(Entrant(f"p{i}", f"P{i}", rating=2000 - i))
    t, rng = t.start(), random.Random(seed)
    while not t.finished:
        t = t.pair_next()
        rnd = t.current
        for i, table in enumerate(rnd.tables):
            if not table.decided:
                order = list(table.seats)
                rng.shuffle(order)
                t = t.record(rnd.number, i, tuple((p,) for p in order))
    assert len(t.rounds) == ROUNDS
    seats: dict[str, list[tuple[int, int]]] = {}
    for rnd in t.rounds:
        for table in rnd.tables:
            for seat, p in enumerate(table.seats):
                seats.setdefault(p, []).append((seat, len(table.seats)))
    return seats


def test_pod_seats_even_out_near_the_middle_and_nobody_starts_too_often():
    most_firsts = math.ceil(ROUNDS / SIZE) + 1
    far_events = 0
    for n in range(20, 41, 2):  # fields that can play 6 rounds of 4 without repeats
        for seed in range(5):
            seats = _event(n, seed)
            for p, taken in seats.items():
                assert sum(s == 0 for s, _ in taken) <= most_firsts, (n, seed, p, taken)
            drift = max(abs(sum(s - (k - 1) / 2 for s, k in taken) / len(taken)) for taken in seats.values())
            assert drift <= 0.75, (n, seed, drift)  # of a seat, on a 0-3 range
            far_events += drift > 0.5
    assert far_events <= 2, "pulling mean seats to the middle: 7 of these 55 events drifted further before"
