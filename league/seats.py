"""Who sits first at a two-player table: chess's colour allocation (FIDE C.04.3, Dutch system, rules A.6 and E).

Seat 0 moves first in every game here, so seat 0 is "white". Each player's seat history is the seats they took in
the games they played (byes and unplayed rounds leave no mark). From it follows a preference:

- absolute: they sat in the same seat in their last two games, or their first/second counts differ by 2 or more;
  granting it keeps the two promises below;
- strong: the counts differ by 1 (they want the seat they had less);
- mild: the counts are level (they want the seat they did not have last time);
- none: no game yet.

A table is seated by the first rule that decides it: grant both preferences; grant the stronger one; alternate
from the most recent game in which the two sat in different seats; grant the higher-ranked player's preference;
with no history at all, a seeded coin flip gives the top board's higher-ranked player their seat and the boards
alternate below it (FIDE's "initial colour").

The promises (never first three games running, |firsts - seconds| <= 2) hold unless both players of a table need
the same seat absolutely. The pairing cannot see seats, so `untangle` first swaps opponents between tables to
remove such clashes wherever a swap creates no rematch (tests/league/test_seats.py simulates 10,000 rounds).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from league.model import Round

NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
History = tuple[int, ...]  # seats taken in games played, oldest first (0 = first, 1 = second)


@dataclass(frozen=True)
class Preference:
    seat: int | None  # the seat wanted (None: no preference)
    strength: int  # NONE, MILD, STRONG or ABSOLUTE
    difference: int  # firsts - seconds

    @property
    def absolute(self) -> bool:
        return self.strength == ABSOLUTE


def histories(rounds: Iterable[Round]) -> dict[str, History]:
    """Every player's seats at the two-player tables of the recorded rounds (a table's `seats` order)."""
    out: dict[str, list[int]] = {}
    for rnd in rounds:
        for table in rnd.tables:
            if len(table.seats) == 2 and not table.forfeited:  # a walkover was not played: no seat taken
                for seat, player in enumerate(table.seats):
                    out.setdefault(player, []).append(seat)
    return {p: tuple(s) for p, s in out.items()}


def preference(history: Sequence[int]) -> Preference:
    if not history:
        return Preference(None, NONE, 0)
    difference = sum(1 for s in history if s == 0) - sum(1 for s in history if s == 1)
    other = 1 - history[-1]
    if abs(difference) >= 2 or (len(history) >= 2 and history[-1] == history[-2]):
        seat = other if abs(difference) < 2 else int(difference > 0)
        return Preference(seat, ABSOLUTE, difference)
    if difference:
        return Preference(int(difference > 0), STRONG, difference)
    return Preference(other, MILD, difference)


def coin_flip(seed: str) -> int:
    """The recorded, seeded coin flip: the seat (0 or 1) the top board's higher-ranked player takes in round 1."""
    return hashlib.sha256(f"{seed}/first-seat".encode()).digest()[0] & 1


def seat_table(high: str, low: str, history: Mapping[str, History], *, initial: int) -> tuple[str, str]:
    """Seat order (first, second) for a table of `high` (the higher-ranked) and `low`; `initial` is the seat the
    coin gives `high` when neither has played (already alternated for the board)."""
    ph, pl = preference(history.get(high, ())), preference(history.get(low, ()))
    seat = _seat_of_high(ph, pl, history.get(high, ()), history.get(low, ()), initial)
    return (high, low) if seat == 0 else (low, high)


def _seat_of_high(ph: Preference, pl: Preference, hh: History, hl: History, initial: int) -> int:
    if ph.seat is None and pl.seat is None:
        return initial
    if ph.seat is None or pl.seat is None:  # only one has played: grant theirs
        return ph.seat if ph.seat is not None else 1 - pl.seat  # type: ignore[operator]
    if ph.seat != pl.seat:
        return ph.seat  # both granted
    if ph.strength != pl.strength:
        return ph.seat if ph.strength > pl.strength else 1 - ph.seat
    if ph.absolute and abs(ph.difference) != abs(pl.difference):  # both absolute: the wider imbalance wins
        return ph.seat if abs(ph.difference) > abs(pl.difference) else 1 - ph.seat
    for a, b in zip(reversed(hh), reversed(hl), strict=False):  # alternate from their last differing game
        if a != b:
            return 1 - a
    return ph.seat


def allocate(tables: Sequence[tuple[str, str]], history: Mapping[str, History],
             rank: Callable[[str], tuple[float, int]], *, initial: int) -> tuple[tuple[str, str], ...]:
    """Seat every table of a round (tables in board order); `rank` is lower for the higher-ranked player."""
    out = []
    for board, (a, b) in enumerate(tables):
        high, low = (a, b) if rank(a) <= rank(b) else (b, a)
        out.append(seat_table(high, low, history, initial=initial ^ (board & 1)))
    return tuple(out)


def reseat(tables: Sequence[tuple[str, ...]], boards: Iterable[int], history: Mapping[str, History],
           rank: Callable[[str], tuple[float, int]], *, initial: int) -> tuple[tuple[str, ...], ...]:
    """Seat again the two-player `boards` of a round after a manual change (a swap or forced pairing put players
    in the seats of the ones they replaced), by the same rules as `allocate`; the other tables stay as they are."""
    changed = set(boards)
    return tuple(allocate([(t[0], t[1])], history, rank, initial=initial ^ (i & 1))[0]
                 if i in changed and len(t) == 2 else tuple(t) for i, t in enumerate(tables))


def clash(a: str, b: str, history: Mapping[str, History]) -> bool:
    """Both need the same seat absolutely: whoever does not get it breaks a promise."""
    pa, pb = preference(history.get(a, ())), preference(history.get(b, ()))
    return pa.absolute and pb.absolute and pa.seat == pb.seat


def untangle(tables: Sequence[tuple[str, str]], history: Mapping[str, History], met: Mapping[str, Iterable[str]],
             points: Mapping[str, float] | None = None) -> tuple[tuple[str, str], ...]:
    """Change opponents to remove clashes, as the Dutch system weighs colours when it pairs: first a swap with the
    nearest table (boards are in score order, so the nearest keeps scores closest) that leaves no clash and no
    rematch; then, for what is left, a matching over the boards around the clash that keeps as many of the
    pairing's own tables as it can. A clash nothing removes stays (FIDE allows that too, for top scorers)."""
    boards = [(t[0], t[1]) for t in tables]
    seen = {p: set(m) for p, m in met.items()}

    def fine(x: str, y: str) -> bool:
        return y not in seen.get(x, ()) and x not in seen.get(y, ()) and not clash(x, y, history)

    for i in range(len(boards)):
        if clash(*boards[i], history):
            _swap(boards, i, fine)
    for i in range(len(boards)):
        if clash(*boards[i], history):
            _rematch_window(boards, i, seen, history, points or {})
    return tuple(boards)


def _swap(boards: list[tuple[str, str]], i: int, fine: Callable[[str, str], bool]) -> None:
    for j in sorted((j for j in range(len(boards)) if j != i), key=lambda j: (abs(j - i), j)):
        (a, b), (c, d) = boards[i], boards[j]
        for first, second in (((a, c), (b, d)), ((a, d), (b, c))):
            if fine(*first) and fine(*second):
                boards[i], boards[j] = first, second
                return


WINDOW = 6  # boards either side of a clash the matching may re-pair: enough in simulation, small at any field size
_KEEP, _CLASH, _REMATCH = 10**6, 10**9, 10**12


def _rematch_window(boards: list[tuple[str, str]], i: int, seen: Mapping[str, set[str]],
                    history: Mapping[str, History], points: Mapping[str, float]) -> None:
    lo, hi = max(0, i - WINDOW), min(len(boards), i + WINDOW + 1)
    window = boards[lo:hi]
    players = [p for t in window for p in t]
    own = {frozenset(t) for t in window}
    graph = nx.Graph()
    for x, y in itertools.combinations(players, 2):
        gap = abs(points.get(x, 0.0) - points.get(y, 0.0))
        weight = (_REMATCH * 2 - _REMATCH * (y in seen.get(x, ()) or x in seen.get(y, ()))
                  - _CLASH * clash(x, y, history) + _KEEP * (frozenset((x, y)) in own) - int(100 * gap))
        graph.add_edge(x, y, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((tuple(sorted(e, key=players.index)) for e in matching), key=lambda t: players.index(t[0]))
    if sum(clash(x, y, history) for x, y in pairs) < sum(clash(x, y, history) for x, y in window):
        boards[lo:hi] = pairs
