"""Two-player pairing: Swiss rounds through pairing-core (caissify as fallback) and Berger round robins.

None of the Swiss rules are written here: the libraries pair, this module translates ids, checks the result and
only as a last resort pairs by a maximum-weight matching (see `_pair_by_matching`).
Measured behaviour of the libraries: /work/shared/notes/tournament-libraries.md.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import logging
import multiprocessing
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection

import caissify_pairings
import networkx as nx
import pairing_core

from league import seats as sa
from league.model import Pairing

log = logging.getLogger(__name__)

RULESET = "dutch-till2026-compat"
# caissify's Dutch took 1.3–2.2 s at 64 players, 17–23 s at 128 and ~5 min at 256, and it takes no budget:
# above this size its fallback would blow any time budget, so the matching fallback is used instead.
CAISSIFY_MAX_PLAYERS = 96
CAISSIFY_FIRST_MAX_PLAYERS = 16  # 16 players: 40–100 ms a round; 24: ~200 ms
# networkx's blossom matching took 4–5 s at 256–512 players: above this it runs only to avoid a rematch or second bye.
MATCHING_MAX_PLAYERS = 160


@dataclass(frozen=True)
class SwissPlayer:
    id: str
    rating: float
    points: float
    opponents: frozenset[str]  # may name players who dropped; they are ignored
    had_bye: bool
    pairing_no: int  # stable starting number (1-based, by seeding)
    seats: tuple[int, ...] = ()  # seats taken in games played, oldest first (0 moves first): the colour history


def swiss_rounds_recommended(n: int) -> int:
    """ceil(log2(n)), at least 1: enough rounds for a single undefeated winner."""
    return max(1, (n - 1).bit_length())


def swiss_pairing(players: Sequence[SwissPlayer], round_number: int, *, time_budget: float = 20.0) -> Pairing:
    """Pair one Swiss round: tables are (white, black) by board; an odd field gives one bye.

    Dropped players are simply not passed; late joiners are passed with their points. Every candidate (pairing-core,
    caissify where affordable, the matching) is scored by the FIDE criteria we can measure (`_Field.quality`) and the
    best is taken: a library result is not trusted blindly (pairing-core floats a whole score group at times).
    Inside `bounded(deadline)` the search runs in a child process killed at the deadline (see there).
    """
    _check_unique([p.id for p in players])
    if all(not p.opponents and not p.had_bye and p.points == players[0].points for p in players):
        return _pair_greedy(_Field(players))  # Dutch's initial pairing, S1 v S2 (pairing-core: 5 s at 512)
    deadline = _DEADLINE.get()
    if deadline is None:
        return _best_pairing(_Field(players), round_number, time_budget)
    return _pair_within(players, round_number, min(time_budget, deadline), deadline)


# Set by `bounded`: seconds the caller waits for a pairing before the greedy fallback answers instead.
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("pairing_deadline", default=None)


@contextlib.contextmanager
def bounded(deadline: float) -> Iterator[None]:
    """Swiss pairings made inside this block answer within ``deadline`` seconds (plus the greedy fallback's few ms).

    A CPU-bound library call cannot be interrupted in-process (pairing-core ignores its own budget at 1,024 players),
    so the search runs in a child process that is killed at the deadline; the caller (the director, from a worker
    thread) then takes the greedy pairing. Outside this block pairing stays in-process and synchronous.
    As with any multiprocessing child, the program's main module must be import-safe (an ``if __name__`` guard).
    """
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _pair_within(players: Sequence[SwissPlayer], round_number: int, budget: float, deadline: float) -> Pairing:
    ctx = multiprocessing.get_context("forkserver")  # a fork of a threaded (asyncio) process is unsafe
    ctx.set_forkserver_preload([__name__])  # the server imports the libraries once; each child is a cheap fork
    receiver, sender = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(sender, list(players), round_number, budget), daemon=True)
    child.start()
    sender.close()
    try:
        if receiver.poll(deadline):
            result = receiver.recv()
            if isinstance(result, Pairing):
                return result
    except EOFError:  # the child died without answering
        pass
    finally:
        child.kill()
        child.join()
        receiver.close()
    log.warning("no pairing within %.1f s for round %d of %d players: greedy fallback", deadline, round_number,
                len(players))
    return _pair_greedy(_Field(players))


def _child(sender: Connection, players: list[SwissPlayer], round_number: int, budget: float) -> None:
    try:
        sender.send(_best_pairing(_Field(players), round_number, budget))
    except Exception:  # any failure means "no answer": the parent falls back
        log.exception("pairing worker failed")
        sender.send(None)
    finally:
        sender.close()


def _best_pairing(field: _Field, round_number: int, time_budget: float) -> Pairing:
    """The best candidate by `_Field.quality`; later (costlier) candidates only run while one may still do better."""
    core: tuple[str, Callable[[], Pairing | None]] = (
        "pairing-core", lambda: _pair_core(field, round_number, time_budget))
    caissify: tuple[str, Callable[[], Pairing | None]] = ("caissify", lambda: _pair_caissify(field, round_number))
    # caissify is checked against bbpPairings (FIDE's reference) and settles ties inside a bracket as FIDE does; it
    # goes first (and is kept on a tie) where it is cheap (≤ 0.1 s), otherwise only when pairing-core misses the bound.
    first = (caissify, core) if len(field.players) <= CAISSIFY_FIRST_MAX_PLAYERS else (core, caissify)
    attempts = (*first, ("matching", lambda: _pair_by_matching(field)))
    best: tuple[Quality, Pairing] | None = None
    for name, attempt in attempts:
        clean = best is not None and best[0][:2] == (0, 0)
        if name == "matching" and clean and len(field.players) > MATCHING_MAX_PLAYERS:
            break  # too slow to try for a better float count alone; it still runs to avoid a rematch or second bye
        try:
            pairing = attempt()
        except pairing_core.PairingError as exc:  # typed failures, EngineTimeoutError included
            log.warning("%s could not pair round %d: %s", name, round_number, exc)
            continue
        if pairing is None:
            continue
        quality = field.quality(pairing)
        if quality is None:
            log.warning("%s gave no acceptable pairing for round %d", name, round_number)
            continue
        if best is None or quality < best[0]:
            best = (quality, pairing)
        if best[0][:5] <= field.ideal and not best[0][5]:
            break  # nothing can do better on floats, and no table needs untangling for seats
    if best is not None:
        return best[1]
    return _pair_by_matching(field)  # only when the field forces a rematch or a second bye


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
        self.by_id = {p.id: p for p in self.players}
        self.points = {p.id: p.points for p in self.players}
        scores = sorted(set(self.points.values()), reverse=True)
        self.group = {p.id: scores.index(p.points) for p in self.players}  # 0 = the leaders' score group
        # The bye belongs to the lowest group holding a player who may still take one (C.04.1.c / C2).
        eligible = [p.points for p in self.players if not p.had_bye] or list(self.points.values()) or [0.0]
        self.lowest_points = min(eligible)
        self.lowest_group = scores.index(self.lowest_points) if scores else 0
        self.preference = {p.id: sa.preference(p.seats) for p in self.players}

    def colours(self, a: str, b: str) -> tuple[int, int, int]:
        """(absolute clash, a preference unmet, a strong preference unmet) at a table of a and b (FIDE C.04.3 C3,
        C12, C13): when both want the same seat one of them does without, the weaker preference first."""
        pa, pb = self.preference[a], self.preference[b]
        if pa.seat is None or pa.seat != pb.seat:
            return (0, 0, 0)
        return (int(pa.absolute and pb.absolute), 1, int(min(pa.strength, pb.strength) >= sa.STRONG))

    def ids(self, nums: Sequence[int]) -> tuple[str, ...]:
        return tuple(self.by_num[n] for n in nums)

    def quality(self, pairing: Pairing) -> Quality | None:
        """FIDE C.04.3 criteria we can measure, lower is better, compared in order; None when not a pairing at all
        (someone missing or twice, a bye in an even field or two byes).

        (rematches [C1], second byes [C2], downfloaters [C5/C6]: each player moved below its score group counts once
        per group boundary crossed, a bye above the lowest group too, sum and max of the score differences [C7],
        seat (colour) preferences: tables where both need the same seat absolutely [C3], preferences and strong
        preferences left unmet [C12, C13], then the players crossing each boundary top-down).
        FIDE makes C3 absolute; here it only decides between candidates equal on floats, because `seats.untangle`
        still swaps opponents of a clash afterwards without a new float (the libraries do not see seats).
        """
        seated = [i for t in pairing.tables for i in t] + list(pairing.byes)
        if sorted(seated) != sorted(self.num) or len(pairing.byes) != len(self.players) % 2:
            return None
        if any(len(t) != 2 for t in pairing.tables):
            return None
        rematches = sum(b in self.opponents[a] for a, b in pairing.tables)
        second_byes = sum(self.by_id[b].had_bye for b in pairing.byes)
        gaps = [(abs(self.group[a] - self.group[b]), abs(self.points[a] - self.points[b])) for a, b in pairing.tables]
        gaps += [(max(0, self.lowest_group - self.group[b]), abs(self.points[b] - self.lowest_points))
                 for b in pairing.byes]
        diffs = [d for _, d in gaps] or [0.0]
        # Dutch pairs brackets top-down: at equal totals, fewer players cross the higher boundaries.
        crossings = [0] * max(0, len(set(self.points.values())) - 1)
        for a, b in pairing.tables:
            for k in range(min(self.group[a], self.group[b]), max(self.group[a], self.group[b])):
                crossings[k] += 1
        for b in pairing.byes:
            for k in range(self.group[b], self.lowest_group):
                crossings[k] += 1
        colours = [self.colours(a, b) for a, b in pairing.tables]
        clashes, unmet, strong = (sum(c[i] for c in colours) for i in range(3))
        return (rematches, second_byes, sum(g for g, _ in gaps), sum(diffs), max(diffs), clashes, unmet, strong,
                tuple(crossings))

    @property
    def ideal(self) -> tuple[int, int, int, float, float]:
        """A lower bound no pairing beats: every boundary below an odd number of players must be crossed once, and
        a crossing costs at least the gap between the two groups."""
        scores = sorted(set(self.points.values()), reverse=True)
        above, floats, diff, worst = 0, 0, 0.0, 0.0
        for upper, lower in itertools.pairwise(scores):
            above += sum(1 for v in self.points.values() if v == upper)
            bye_above = len(self.players) % 2 and upper <= self.lowest_points  # it leaves the field, crossing nothing
            if (above - bye_above) % 2:
                floats, diff, worst = floats + 1, diff + upper - lower, max(worst, upper - lower)
        return (0, 0, floats, diff, worst)


# (rematches, second byes, downfloats, sum and max of score differences, absolute seat clashes, seat preferences
# unmet, strong ones unmet, players crossing each boundary top-down)
Quality = tuple[int, int, int, float, float, int, int, int, tuple[int, ...]]


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
    # The seat history goes in as colours (seat 0 = white): caissify then weighs colours as Dutch does.
    players = [{"id": n, "name": p.id, "score": p.points, "rating": _rating(p.rating), "starting_number": n,
                "color_hist": [("white", "black")[s] for s in p.seats], "float_history": "",
                "bye_count": int(p.had_bye)}
               for n, p in enumerate(field.players, start=1)]
    previous = {(field.num[a], field.num[b]) for a, opps in field.opponents.items() for b in opps if a < b}
    total_rounds = max(round_number, swiss_rounds_recommended(len(players)))
    with warnings.catch_warnings():
        # No float history (see _pair_core); the warning only says it is missing.
        warnings.simplefilter("ignore", caissify_pairings.MissingFloatHistoryWarning)
        boards = caissify_pairings.generate_pairings("dutch", players, previous, round_number, total_rounds)
    boards = sorted(boards, key=lambda b: b["table"])
    return Pairing(tables=tuple(field.ids((b["white_id"], b["black_id"])) for b in boards if b["black_id"] is not None),
                   byes=tuple(field.ids([b["white_id"] for b in boards if b["black_id"] is None])))


# Weights of the matching (exact ints), each outweighing everything below it summed over a field of up to ~1000
# players: keep every edge positive, avoid rematches, then second byes, then cross as few score-group boundaries as
# possible (FIDE's downfloaters), then the smallest score differences, then seat preferences (as `_Field.colours`),
# then Dutch order inside a group.
_BASE = 10**38
_REMATCH = 10**32
_SECOND_BYE = 10**27  # > _FLOAT × (1,024 players × 100 score groups)
_FLOAT = 10**21  # > all score-difference terms: 2·n⁵·(sum of half-point gaps) < 10**20 at 1,024 players
_BYE_NODE = "\0bye"


def _pair_by_matching(field: _Field) -> Pairing:
    """A perfect max-weight matching by the same criteria as `_Field.quality`. It is not FIDE Dutch's procedure, but
    it pairs everyone, takes the fewest rematches, second byes and floats the field allows, and stays deterministic.
    """
    ranked = _ranked(field)
    rank = {p.id: r for r, p in enumerate(ranked)}
    n = len(ranked)
    # Seat terms (clash, then unmet, then strong unmet, each outweighing the next summed over n/2 tables) come in
    # units of n² (more than all the in-group order terms together, < n²/2); a half-point gap outweighs them all.
    per = n // 2 + 1
    diff = n**5
    group_rank = {p.id: rank[p.id] - min(rank[q.id] for q in ranked if q.points == p.points) for p in ranked}
    group_size = {p.id: sum(q.points == p.points for q in ranked) for p in ranked}
    graph = nx.Graph()
    for a, b in itertools.combinations(ranked, 2):
        if a.points == b.points:  # Dutch: the top half meets the bottom half, 1 v 1+size/2
            order = abs(group_rank[b.id] - group_rank[a.id] - group_size[a.id] // 2)
        else:
            order = abs(rank[a.id] - rank[b.id])
        clash, unmet, strong = field.colours(a.id, b.id)
        seat = (clash * per * per + unmet * per + strong) * n * n
        cost = (_FLOAT * abs(field.group[a.id] - field.group[b.id]) + int(2 * diff * abs(a.points - b.points))
                + seat + order)
        graph.add_edge(a.id, b.id, weight=_BASE - cost - _REMATCH * (b.id in field.opponents[a.id]))
    if n % 2:
        for p in ranked:  # the bye goes to the lowest-ranked player of the lowest group who has not had one
            cost = (_FLOAT * max(0, field.lowest_group - field.group[p.id])
                    + int(2 * diff * abs(p.points - field.lowest_points)) + (n - rank[p.id]))
            graph.add_edge(p.id, _BYE_NODE, weight=_BASE - _SECOND_BYE * p.had_bye - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return _boards(field, [tuple(edge) for edge in matching])


def _pair_greedy(field: _Field) -> Pairing:
    """The answer when the search misses its deadline: O(n²) at worst, a few ms at 1,024 players.

    Bracket by bracket from the top, as Dutch does: the top half (S1) meets the bottom half (S2) in order, each S1
    player the first S2 player it has not met; who is left over moves down to the next bracket, ahead of its players.
    A rematch only at the very bottom, and then a swap with another table is tried first. The bye goes to the
    lowest-ranked player without one. With no history this is exactly Dutch's round 1 (1 v n/2+1, ...).
    """
    ranked = _ranked(field)
    rank = {p.id: r for r, p in enumerate(ranked)}
    byes: list[str] = []
    if len(ranked) % 2:
        bye = next((p for p in reversed(ranked) if not p.had_bye), ranked[-1])
        byes.append(bye.id)
        ranked = [p for p in ranked if p is not bye]
    tables: list[tuple[str, str]] = []
    carry: list[str] = []
    for _, group in itertools.groupby(ranked, key=lambda p: p.points):
        bracket = carry + [p.id for p in group]
        s1, s2 = bracket[:len(bracket) // 2], bracket[len(bracket) // 2:]
        carry = []
        for a in s1:
            b = next((x for x in s2 if x not in field.opponents[a]), None)
            if b is None:
                carry.append(a)
                continue
            s2.remove(b)
            tables.append((a, b))
        carry = sorted(carry + s2, key=rank.__getitem__)
    tables += list(zip(carry[::2], carry[1::2], strict=True))  # the bottom's leftovers, rematches if forced
    return _boards(field, [*_untangle(field, tables), *((b, _BYE_NODE) for b in byes)])


def _untangle(field: _Field, tables: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Swap partners between a rematch and another table where that removes the rematch without making one."""
    met = field.opponents
    for i, (a, b) in enumerate(tables):
        if b not in met[a]:
            continue
        for j in range(len(tables) - 1, -1, -1):
            c, d = tables[j]
            if j == i:
                continue
            if c not in met[a] and d not in met[b]:
                tables[i], tables[j] = (a, c), (b, d)
                break
            if d not in met[a] and c not in met[b]:
                tables[i], tables[j] = (a, d), (c, b)
                break
    return tables


def _ranked(field: _Field) -> list[SwissPlayer]:
    return sorted(field.players, key=lambda p: (-p.points, p.pairing_no, p.id))  # FIDE A.2: score, pairing number


def _boards(field: _Field, pairs: Sequence[tuple[str, ...]]) -> Pairing:
    """Boards from the top score down; the higher-ranked player sits first; a pair with `_BYE_NODE` is a bye."""
    ranked = _ranked(field)
    rank = {p.id: r for r, p in enumerate(ranked)}
    n = len(ranked)
    ordered = [tuple(sorted(pair, key=lambda i: rank.get(i, n))) for pair in pairs]
    byes = tuple(a for a, b in ordered if b == _BYE_NODE)
    games = sorted((pair for pair in ordered if pair[1] != _BYE_NODE),
                   key=lambda pair: (-max(field.points[i] for i in pair), rank[pair[0]]))
    return Pairing(tables=tuple(games), byes=byes)


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
