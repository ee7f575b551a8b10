"""Multiplayer tables ("pods"): our own Swiss-like seating, since no pairing library does pods.

Tables are filled by standing, then players are swapped between tables of nearby standing to avoid seating people
together again, then each table's seat order is chosen to even out who sits first.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import networkx as nx

from league.model import Pairing


@dataclass(frozen=True)
class PodPlayer:
    id: str
    points: float
    rating: float
    met: frozenset[str]  # everyone they have shared a table with
    seats_taken: tuple[int, ...]  # seat indexes (0 = first) they had in earlier rounds
    byes: int


def table_sizes(n: int, size: int, *, min_size: int, max_size: int) -> tuple[list[int], int]:
    """Split n players into tables, largest first; return (sizes, byes).

    Choice, in order: the fewest byes; then tables as close to `size` as possible (least total |s - size|); on a
    tie more, smaller tables (10 at size 4 → 4+3+3 rather than 5+5). Sizes within one split differ by at most one.
    """
    if not 1 <= min_size <= size <= max_size:
        raise ValueError(f"need 1 <= min_size <= size <= max_size, got {min_size}, {size}, {max_size}")
    for byes in range(n + 1):
        seated = n - byes
        splits = [_even_split(seated, t) for t in range(seated // max_size, seated // min_size + 1) if t > 0]
        splits = [s for s in splits if min_size <= s[-1] and s[0] <= max_size]
        if splits:
            return min(splits, key=lambda s: (sum(abs(x - size) for x in s), -len(s))), byes
        if seated == 0:
            return [], byes
    return [], n  # only reached for n == 0, kept for the type checker


def _even_split(n: int, tables: int) -> list[int]:
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def pod_pairing(players: Sequence[PodPlayer], size: int, *, min_size: int, max_size: int,
                rng_seed: str = "") -> Pairing:
    """Seat one round of pods; tables are in standing order (top table first) and list seats in seat order.

    Deterministic for the same inputs: the only randomness is `random.Random(rng_seed)` breaking seat-order ties,
    so pass a seed that changes per round (e.g. "<tournament id>:<round>").
    """
    if len({p.id for p in players}) != len(players):
        raise ValueError("duplicate player ids")
    ranked = sorted(players, key=lambda p: (-p.points, -p.rating, p.id))
    sizes, bye_count = table_sizes(len(ranked), size, min_size=min_size, max_size=max_size)
    byes = _pick_byes(ranked, bye_count)
    seated = [p for p in ranked if p.id not in byes]
    tables = _fill(seated, sizes)
    _reduce_repeats(tables, _score_groups(seated), {p.id: i for i, p in enumerate(seated)})
    rng = random.Random(rng_seed)
    return Pairing(tables=tuple(_seat_order(t, rng) for t in tables),
                   byes=tuple(p.id for p in ranked if p.id in byes))


def _pick_byes(ranked: list[PodPlayer], count: int) -> set[str]:
    # Fewest byes first, and among those the lowest standing (the Swiss convention).
    order = sorted(range(len(ranked)), key=lambda i: (ranked[i].byes, -i))
    return {ranked[i].id for i in order[:count]}


def _fill(seated: list[PodPlayer], sizes: list[int]) -> list[list[PodPlayer]]:
    tables, start = [], 0
    for s in sizes:
        tables.append(seated[start:start + s])
        start += s
    return tables


def _score_groups(seated: list[PodPlayer]) -> dict[str, int]:
    """Index of each player's score group, 0 = the leaders."""
    levels = sorted({p.points for p in seated}, reverse=True)
    index = {points: i for i, points in enumerate(levels)}
    return {p.id: index[p.points] for p in seated}


def _repeats(table: Sequence[PodPlayer]) -> int:
    """Pairs at the table who already met (either side's memory counts)."""
    return sum(b.id in a.met or a.id in b.met for a, b in itertools.combinations(table, 2))


def _reduce_repeats(tables: list[list[PodPlayer]], group: dict[str, int], rank: dict[str, int]) -> None:
    """Hill-climb on repeated table-mates by swapping players of the same or adjacent score groups.

    Only if repeats remain is the allowed score-group gap widened (2, 4, 8, ...): as in Swiss, not meeting again
    matters more than meeting someone of exactly your score (measured: with gap 1 only, 256 players × 9 rounds of
    four kept 4–10 repeats; widening removes them). The gap doubles so a hopeless field costs few extra passes.
    """
    cost = [_repeats(t) for t in tables]
    widest = max(group.values(), default=0)
    gap = 1
    while any(cost):
        _climb(tables, cost, group, rank, gap)
        if gap >= widest:
            return
        gap *= 2


def _climb(tables: list[list[PodPlayer]], cost: list[int], group: dict[str, int], rank: dict[str, int],
           gap: int) -> None:
    """Apply improving swaps until none is left; each lowers the total repeats, so this ends."""
    improved = True
    while improved and any(cost):
        improved = False
        for i in range(len(tables)):
            if cost[i] and (swap := _best_swap(tables, cost, i, group, rank, gap)):
                j, a, b, cost_i, cost_j = swap
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                cost[i], cost[j] = cost_i, cost_j
                improved = True


def _best_swap(tables: list[list[PodPlayer]], cost: list[int], i: int, group: dict[str, int], rank: dict[str, int],
               gap: int) -> tuple[int, int, int, int, int] | None:
    """The swap out of table i that removes the most repeats; on a tie the one between the closest tables, then
    between the players closest in standing: it disturbs the standing order least."""
    best: tuple[int, int, int, int, int] | None = None
    best_key = (0, 0, 0)
    for j in range(len(tables)):
        if j == i:
            continue
        for a, pa in enumerate(tables[i]):
            for b, pb in enumerate(tables[j]):
                if abs(group[pa.id] - group[pb.id]) > gap:
                    continue
                new_i = _repeats([pb if k == a else p for k, p in enumerate(tables[i])])
                new_j = _repeats([pa if k == b else p for k, p in enumerate(tables[j])])
                key = (new_i + new_j - cost[i] - cost[j], abs(j - i), abs(rank[pa.id] - rank[pb.id]))
                if key < best_key:
                    best, best_key = (j, a, b, new_i, new_j), key
    return best


REPEAT = 8  # the weight of sitting in a seat again, in half-seats of pull to the middle (tried 2-64: 8 was best)


def _seat_order(table: list[PodPlayer], rng: random.Random) -> tuple[str, ...]:
    """Seat order with the fewest repeats of a seat a player already had (seat 0, who starts, weighs double), then
    pulling each player's mean seat towards the middle: repeats alone let a player sit 3, 3, 2, 2, ... (6 rounds of
    4, 55 events of 20-40 players: a mean seat over 0.5 from the middle in 7 events before the pull, 2 with it, and
    nobody first more than twice; tests/league/test_seats_pods.py)."""
    order = list(table)
    rng.shuffle(order)  # ties must not always favour the same standing, or the leaders would always start
    counts = [Counter(p.seats_taken) for p in order]
    k = len(order)
    # Twice the drift from the middle seat so far (in this table's size: integers, past sizes differ by one at most).
    drift = [sum(2 * s - (k - 1) for s in p.seats_taken) for p in order]

    def seat_cost(p: int, seat: int) -> int:
        # A repeat (double for seat 0) weighs as much as 4 seats of drift: repeats first, then the middle.
        return REPEAT * counts[p][seat] * (2 if seat == 0 else 1) + abs(drift[p] + 2 * seat - (k - 1))

    if k <= 6:
        best = min(itertools.permutations(range(k)), key=lambda perm: sum(seat_cost(p, s) for s, p in enumerate(perm)))
        return tuple(order[p].id for p in best)
    return _seat_order_by_matching(order, seat_cost)


def _seat_order_by_matching(order: list[PodPlayer], seat_cost: Callable[[int, int], int]) -> tuple[str, ...]:
    # Large tables: an assignment problem as a max-weight bipartite matching (k! permutations would be too slow).
    k = len(order)
    graph = nx.Graph()
    top = 1 + max(seat_cost(p, s) for p, s in itertools.product(range(k), range(k)))
    for p, s in itertools.product(range(k), range(k)):
        graph.add_edge(("p", p), ("s", s), weight=top - seat_cost(p, s))
    seat_of = {}
    for u, v in nx.max_weight_matching(graph, maxcardinality=True):
        (_, p), (_, s) = sorted((u, v))
        seat_of[s] = p
    return tuple(order[seat_of[s]].id for s in range(k))
