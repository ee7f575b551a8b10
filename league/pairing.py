"""Two-player pairing: Swiss rounds through pairing-core (caissify as fallback) and Berger round robins.

None of the Swiss rules are written here: the libraries pair, this module translates ids, checks the result and
only as a last resort pairs by a maximum-weight matching (see `_pair_by_matching`).
Measured behaviour of the libraries: /work/shared/notes/tournament-libraries.md.
"""

from __future__ import annotations

import itertools
import logging
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import caissify_pairings
import networkx as nx
import pairing_core

from league.model import Pairing

log = logging.getLogger(__name__)

RULESET = "dutch-till2026-compat"
# caissify's Dutch took 1.3–2.2 s at 64 players, 17–23 s at 128 and ~5 min at 256, and it takes no budget:
# above this size its fallback would blow any time budget, so the matching fallback is used instead.
CAISSIFY_MAX_PLAYERS = 96


@dataclass(frozen=True)
class SwissPlayer:
    id: str
    rating: float
    points: float
    opponents: frozenset[str]  # may name players who dropped; they are ignored
    had_bye: bool
    pairing_no: int  # stable starting number (1-based, by seeding)


def swiss_rounds_recommended(n: int) -> int:
    """ceil(log2(n)), at least 1: enough rounds for a single undefeated winner."""
    return max(1, (n - 1).bit_length())


def swiss_pairing(players: Sequence[SwissPlayer], round_number: int, *, time_budget: float = 20.0) -> Pairing:
    """Pair one Swiss round: tables are (white, black) by board; an odd field gives one bye.

    Dropped players are simply not passed; late joiners are passed with their points.
    """
    _check_unique([p.id for p in players])
    field = _Field(players)
    for name, attempt in (("pairing-core", lambda: _pair_core(field, round_number, time_budget)),
                          ("caissify", lambda: _pair_caissify(field, round_number))):
        try:
            pairing = attempt()
        except pairing_core.PairingError as exc:  # typed failures, EngineTimeoutError included
            log.warning("%s could not pair round %d: %s", name, round_number, exc)
            continue
        if pairing is not None and field.acceptable(pairing):
            return pairing
        log.warning("%s gave no acceptable pairing for round %d", name, round_number)
    return _pair_by_matching(field)


class _Field:
    """The players as the libraries want them: int ids 1..n in pairing-number order, symmetric opponents."""

    def __init__(self, players: Sequence[SwissPlayer]) -> None:
        self.players = sorted(players, key=lambda p: (p.pairing_no, p.id))
        self.num = {p.id: i for i, p in enumerate(self.players, start=1)}
        present = set(self.num)
        # The engine rejects asymmetric opponent memory, so a game either side remembers counts for both.
        self.opponents: dict[str, set[str]] = {p.id: set(p.opponents) & present for p in self.players}
        for p in self.players:
            for o in self.opponents[p.id]:
                self.opponents[o].add(p.id)
        self.by_num = {n: pid for pid, n in self.num.items()}

    def ids(self, nums: Sequence[int]) -> tuple[str, ...]:
        return tuple(self.by_num[n] for n in nums)

    def acceptable(self, pairing: Pairing) -> bool:
        """Everyone exactly once, at most one bye (only for an odd field), no rematch, no second bye.

        The libraries only fail these when the field forces it; the matching fallback then minimises the damage.
        """
        seated = [i for t in pairing.tables for i in t] + list(pairing.byes)
        if sorted(seated) != sorted(self.num) or len(pairing.byes) != len(self.players) % 2:
            return False
        if any(len(t) != 2 or t[1] in self.opponents[t[0]] for t in pairing.tables):
            return False
        had_bye = {p.id for p in self.players if p.had_bye}
        return not (set(pairing.byes) & had_bye)


def _rating(value: float) -> int:
    return max(0, round(value))  # the engines take non-negative int ratings


def _pair_core(field: _Field, round_number: int, time_budget: float) -> Pairing:
    # Minimal inputs on purpose: with colour or float history the search times out or finds "no legal pairing".
    players = tuple(
        pairing_core.CanonicalPlayer(id=n, pairing_no=n, rating=_rating(p.rating), points=p.points,
                                     opponents=tuple(field.num[o] for o in field.opponents[p.id]),
                                     received_bye=p.had_bye)
        for n, p in enumerate(field.players, start=1))
    request = pairing_core.CanonicalRequest(players=players, ruleset=RULESET, round_number=round_number,
                                            budgets=pairing_core.ExecutionBudgets(wall_clock_seconds=time_budget))
    result = pairing_core.pair_canonical(request)
    boards = sorted(result.pairings, key=lambda b: b.board)
    return Pairing(tables=tuple(field.ids((b.white_id, b.black_id)) for b in boards if not b.is_bye),
                   byes=tuple(field.ids([b.white_id for b in boards if b.is_bye])))


def _pair_caissify(field: _Field, round_number: int) -> Pairing | None:
    if len(field.players) > CAISSIFY_MAX_PLAYERS:
        return None
    players = [{"id": n, "name": p.id, "score": p.points, "rating": _rating(p.rating), "starting_number": n,
                "color_hist": "", "float_history": "", "bye_count": int(p.had_bye)}
               for n, p in enumerate(field.players, start=1)]
    previous = {(field.num[a], field.num[b]) for a, opps in field.opponents.items() for b in opps if a < b}
    total_rounds = max(round_number, swiss_rounds_recommended(len(players)))
    with warnings.catch_warnings():
        # Minimal inputs are deliberate (see _pair_core); the warning only says float history is missing.
        warnings.simplefilter("ignore", caissify_pairings.MissingFloatHistoryWarning)
        boards = caissify_pairings.generate_pairings("dutch", players, previous, round_number, total_rounds)
    boards = sorted(boards, key=lambda b: b["table"])
    return Pairing(tables=tuple(field.ids((b["white_id"], b["black_id"])) for b in boards if b["black_id"] is not None),
                   byes=tuple(field.ids([b["white_id"] for b in boards if b["black_id"] is None])))


# Weights of the last-resort matching (exact ints), each outweighing everything below it summed over a field of up
# to ~1000 players: keep every edge positive, avoid rematches, then second byes, then stay in the score group.
_BASE = 10**24
_REMATCH = 10**20
_SECOND_BYE = 10**17
_BYE_NODE = "\0bye"


def _pair_by_matching(field: _Field) -> Pairing:
    """Last resort when both libraries fail (only when the field forces a rematch or a second bye, or caissify is
    skipped for size): a perfect max-weight matching by standing. It is not FIDE Dutch, but it pairs everyone,
    takes the fewest rematches and second byes the field allows, and stays deterministic.
    """
    ranked = sorted(field.players, key=lambda p: (-p.points, -p.rating, p.pairing_no))
    rank = {p.id: r for r, p in enumerate(ranked)}
    points = {p.id: p.points for p in ranked}
    n = len(ranked)
    graph = nx.Graph()
    for a, b in itertools.combinations(ranked, 2):
        # A half-point gap (n*n) costs more than all rank gaps together (< n*n/2): score groups come first.
        cost = int(4 * (a.points - b.points) ** 2 * n * n) + abs(rank[a.id] - rank[b.id])
        graph.add_edge(a.id, b.id, weight=_BASE - cost - _REMATCH * (b.id in field.opponents[a.id]))
    if n % 2:
        for p in ranked:  # the bye prefers the lowest-ranked player who has not had one
            graph.add_edge(p.id, _BYE_NODE, weight=_BASE - _SECOND_BYE * p.had_bye - (n - rank[p.id]))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [tuple(sorted(edge, key=lambda i: rank.get(i, n))) for edge in matching]
    byes = tuple(a for a, b in pairs if b == _BYE_NODE)
    games = sorted((pair for pair in pairs if pair[1] != _BYE_NODE),
                   key=lambda pair: (-max(points[i] for i in pair), rank[pair[0]]))
    return Pairing(tables=tuple(games), byes=byes)  # the higher-ranked player sits first


def round_robin(ids: Sequence[str], *, double: bool = False) -> list[Pairing]:
    """The whole Berger schedule, one Pairing per round; ids are in seeding order (pairing number 1 first).

    An odd field gives each round one bye (pairing-core lists it as a board against None).
    """
    _check_unique(ids)
    if len(ids) < 2:
        return [Pairing(tables=(), byes=tuple(ids))] if ids else []
    schedule = pairing_core.round_robin(len(ids), double=double)
    return [Pairing(tables=tuple((ids[w - 1], ids[b - 1]) for w, b in boards if b is not None),
                    byes=tuple(ids[w - 1] for w, b in boards if b is None))
            for boards in schedule]


def _check_unique(ids: Sequence[str]) -> None:
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate player ids")
