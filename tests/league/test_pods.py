from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from league.model import Pairing
from league.pods import PodPlayer, pod_pairing, table_sizes

# --- a small pod tournament simulator -----------------------------------------------------------------------------


@dataclass
class _State:
    rating: float
    points: float = 0.0
    met: set[str] = field(default_factory=set)
    seats: list[int] = field(default_factory=list)
    byes: int = 0


@dataclass
class _Round:
    players: list[PodPlayer]
    pairing: Pairing


def _snapshot(states: dict[str, _State]) -> list[PodPlayer]:
    return [PodPlayer(pid, s.points, s.rating, frozenset(s.met), tuple(s.seats), s.byes) for pid, s in states.items()]


def _play(rng: random.Random, states: dict[str, _State], pairing: Pairing) -> None:
    """Random finishing order; a place is worth (table size - 1 - place) points, a bye 1 point."""
    for table in pairing.tables:
        for seat, pid in enumerate(table):
            states[pid].met |= set(table) - {pid}
            states[pid].seats.append(seat)
        order = list(table)
        rng.shuffle(order)
        for place, pid in enumerate(order):
            states[pid].points += len(table) - 1 - place
    for pid in pairing.byes:
        states[pid].byes += 1
        states[pid].points += 1


def _simulate(n: int, rounds: int, size: int, seed: int, *, min_size: int | None = None,
              max_size: int | None = None) -> list[_Round]:
    rng = random.Random(seed)
    states = {f"p{i}": _State(rng.uniform(1000, 2000)) for i in range(n)}
    history = []
    for r in range(1, rounds + 1):
        players = _snapshot(states)
        pairing = pod_pairing(players, size, min_size=min_size or size, max_size=max_size or size,
                              rng_seed=f"{seed}:{r}")
        history.append(_Round(players, pairing))
        _play(rng, states, pairing)
    return history


def _repeats(rnd: _Round) -> int:
    met = {p.id: p.met for p in rnd.players}
    return sum(b in met[a] for t in rnd.pairing.tables for a in t for b in t if a < b)


@pytest.fixture(scope="module")
def pods_64x6() -> list[list[_Round]]:
    """64 players × 6 rounds of 3-player pods (64 = 21 × 3 + 1: one bye a round), three seeds."""
    return [_simulate(64, 6, 3, seed) for seed in range(3)]


def _player(pid: str, points: float = 0, rating: float = 1500, met: str = "", seats: tuple[int, ...] = (),
            byes: int = 0) -> PodPlayer:
    """A hand-built player; `met` lists one-letter ids."""
    return PodPlayer(pid, points, rating, frozenset(met), seats, byes)


# --- table_sizes --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "size", "min_size", "max_size", "expected"), [
    (12, 4, 3, 5, ([4, 4, 4], 0)),
    (11, 4, 3, 5, ([4, 4, 3], 0)),  # one table one smaller
    (10, 4, 3, 5, ([4, 3, 3], 0)),  # 4+3+3 and 5+5 both miss by 2: more, smaller tables win
    (13, 4, 3, 5, ([5, 4, 4], 0)),  # one table one larger misses by 1, 4+3+3+3 by 3
    (9, 4, 3, 4, ([3, 3, 3], 0)),
    (7, 3, 2, 3, ([3, 2, 2], 0)),  # everyone plays rather than 3+3 and a bye
    (5, 3, 3, 3, ([3], 2)),
    (11, 3, 3, 3, ([3, 3, 3], 2)),
    (2, 3, 3, 3, ([], 2)),
    (0, 4, 3, 5, ([], 0)),
])
def test_table_sizes_prefers_no_byes_then_tables_closest_to_size(n: int, size: int, min_size: int, max_size: int,
                                                                 expected: tuple[list[int], int]) -> None:
    assert table_sizes(n, size, min_size=min_size, max_size=max_size) == expected


@pytest.mark.parametrize(("size", "min_size", "max_size"), [(3, 3, 3), (4, 3, 5), (4, 4, 4), (5, 3, 6), (2, 2, 2)])
def test_table_sizes_seat_everyone_within_bounds_with_fewest_byes(size: int, min_size: int, max_size: int) -> None:
    for n in range(60):
        sizes, byes = table_sizes(n, size, min_size=min_size, max_size=max_size)
        assert sum(sizes) + byes == n
        assert all(min_size <= s <= max_size for s in sizes)
        assert max(sizes, default=0) - min(sizes, default=0) <= 1
        feasible = {seated for t in range(1, n + 1) for seated in range(t * min_size, t * max_size + 1)} | {0}
        assert n - byes == max(m for m in feasible if m <= n)


def test_table_sizes_rejects_inconsistent_bounds() -> None:
    with pytest.raises(ValueError, match="min_size"):
        table_sizes(10, 4, min_size=5, max_size=6)


# --- pod_pairing --------------------------------------------------------------------------------------------------


def test_every_player_placed_exactly_once_per_round(pods_64x6: list[list[_Round]]) -> None:
    for history in [*pods_64x6, _simulate(30, 5, 4, seed=9, min_size=3, max_size=5)]:
        for rnd in history:
            placed = [i for t in rnd.pairing.tables for i in t] + list(rnd.pairing.byes)
            assert sorted(placed) == sorted(p.id for p in rnd.players)


def test_table_sizes_stay_within_bounds() -> None:
    # 30 at size 4 (3–5): 6×4 + 2×3 and 2×5 + 5×4 both miss by 2; the split with more tables wins.
    for rnd in _simulate(30, 5, 4, seed=9, min_size=3, max_size=5):
        assert list(map(len, rnd.pairing.tables)) == [4, 4, 4, 4, 4, 4, 3, 3]
        assert rnd.pairing.byes == ()


def test_no_repeated_table_mates_in_64_players_6_rounds(pods_64x6: list[list[_Round]]) -> None:
    for history in pods_64x6:
        assert sum(_repeats(rnd) for rnd in history) == 0


def test_byes_at_most_once_while_avoidable() -> None:
    history = _simulate(62, 6, 3, seed=4)  # 62 = 20 × 3 + 2: two byes a round, twelve in all
    byes = Counter(b for rnd in history for b in rnd.pairing.byes)
    assert sum(byes.values()) == 12 and max(byes.values()) == 1


def test_bye_goes_to_lowest_standing_with_fewest_byes() -> None:
    players = [_player("a", 3), _player("b", 2), _player("c", 1), _player("d", 0, byes=1), _player("e", 0, byes=1)]
    assert pod_pairing(players, 3, min_size=3, max_size=3).byes == ("b", "c")  # 5 = 3 + 2 byes


def test_seat_zero_is_shared_out_over_six_rounds(pods_64x6: list[list[_Round]]) -> None:
    # 6 rounds at 3 seats is 2 starts each on average; measured: everyone starts 1–3 times.
    for history in pods_64x6:
        starts = Counter(t[0] for rnd in history for t in rnd.pairing.tables)
        played = {i for rnd in history for t in rnd.pairing.tables for i in t}
        assert all(1 <= starts[i] <= 3 for i in played)


@pytest.mark.parametrize("size", [4, 8])  # 8 takes the matching path instead of trying every permutation
def test_seat_order_avoids_the_seat_each_player_had(size: int) -> None:
    players = [_player(f"p{i}", seats=(i,)) for i in range(size)]
    (table,) = pod_pairing(players, size, min_size=size, max_size=size).tables
    assert all(table[seat] != f"p{seat}" for seat in range(size))


def test_a_swap_removes_a_repeat() -> None:
    # By rating a, b, c would share the top table, but a and b already met: b trades with d, the nearest in standing.
    players = [_player(i, rating=2000 - n, met={"a": "b", "b": "a"}.get(i, "")) for n, i in enumerate("abcdef")]
    tables = pod_pairing(players, 3, min_size=3, max_size=3).tables
    assert [set(t) for t in tables] == [{"a", "c", "d"}, {"b", "e", "f"}]


def test_a_repeat_is_removed_even_if_it_takes_a_trade_beyond_the_adjacent_score_group() -> None:
    # Groups 9, 9 | 8 | 7 | 6 | 5; a and b met, and c met both: no trade with c (adjacent group) helps, nor one
    # with d; b trades with e, three groups down, rather than replaying a.
    points = {"a": 9, "b": 9, "c": 8, "d": 7, "e": 6, "f": 5}
    met = {"a": "bc", "b": "ac", "c": "ab"}
    players = [_player(i, p, met=met.get(i, "")) for i, p in points.items()]
    tables = pod_pairing(players, 2, min_size=2, max_size=2).tables
    assert [set(t) for t in tables] == [{"a", "e"}, {"c", "d"}, {"b", "f"}]


def test_tables_follow_the_standing() -> None:
    players = [_player(f"p{i}", points=i % 5, rating=1000 + i) for i in range(12)]
    tables = pod_pairing(players, 4, min_size=4, max_size=4).tables
    ranked = sorted(players, key=lambda p: (-p.points, -p.rating))
    assert [set(t) for t in tables] == [{p.id for p in ranked[k:k + 4]} for k in (0, 4, 8)]


def test_pod_pairing_is_deterministic() -> None:
    players = _simulate(40, 3, 4, seed=2)[-1].players
    first = pod_pairing(players, 4, min_size=3, max_size=5, rng_seed="t1:3")
    assert first == pod_pairing(list(reversed(players)), 4, min_size=3, max_size=5, rng_seed="t1:3")


def test_duplicate_ids_are_rejected() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        pod_pairing([_player("a"), _player("a")], 2, min_size=2, max_size=2)


def test_256_players_after_five_rounds_sit_at_64_tables_of_four() -> None:
    """Speed is the benchmark's (tests/bench/bench_tournament.py), never a timed assertion: this checks the seating."""
    players = _simulate(256, 5, 4, seed=1)[-1].players
    made = pod_pairing(players, 4, min_size=4, max_size=4)
    seated = [p for table in made.tables for p in table]
    assert [len(t) for t in made.tables] == [4] * 64 and sorted(seated) == sorted(p.id for p in players)
