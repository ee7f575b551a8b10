"""Matchmaking for `/queue`: which waiting players to seat together. Pure: no Discord, no storage, no clock (the
caller passes ``now``), deterministic (the same entries give the same groups whatever order they come in).

A group is seated only when every member agrees with every other:
- the same game and table size;
- compatible time controls: the same named control (``engine.policies.TIME_PRESETS``), or one side takes any
  (``""``); the group plays the control someone asked for;
- ratings within the band both members accept now: each member's band starts at `Band.base` display points
  and widens by `Band.per_minute` for every minute waited, up to `Band.cap` (lichess' pools widen the same way).
  A pair's spread must fit the narrower of the two bands, so a long wait never drags a newcomer into a mismatch.

Players are taken oldest first (their join time, then their id): the longest-waiting player anchors a group and
takes the closest-rated compatible players. A member with ``bots_ok`` who has waited ``bot_wait`` (a server
setting; None: never) gets a table filled with bots when no full group forms; only members who also said
``bots_ok`` sit down with them. A member is seated at most once per call, even if queued for several games.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

ANY_TIME = ""  # a queue entry that takes any time control


@dataclass(frozen=True)
class Entry:
    """One member waiting for one game: the size of table and time control wanted, their rating (display
    points), when they joined, and whether bots may fill their table."""

    user_id: int
    game: str
    players: int
    time: str
    rating: float
    joined_at: datetime
    bots_ok: bool = False

    @property
    def order(self) -> tuple[datetime, int, str]:
        return (self.joined_at, self.user_id, self.game)


@dataclass(frozen=True)
class Band:
    """How far apart two ratings may be: ``base`` at once, ``per_minute`` more for each minute waited, at most
    ``cap`` (display points; 200 points ≈ 76% to win between settled players, league/ratings.py)."""

    base: float = 150.0
    per_minute: float = 25.0
    cap: float = 1000.0

    def width(self, waited: timedelta) -> float:
        minutes = max(0.0, waited.total_seconds() / 60)
        return min(self.cap, self.base + self.per_minute * minutes)


@dataclass(frozen=True)
class Group:
    """Members to seat at one table (oldest first), plus how many bots fill it."""

    entries: tuple[Entry, ...]
    bots: int = 0

    @property
    def game(self) -> str:
        return self.entries[0].game

    @property
    def players(self) -> int:
        return self.entries[0].players

    @property
    def time(self) -> str:
        return group_time(self.entries)


def times_compatible(a: str, b: str) -> bool:
    return a == b or ANY_TIME in (a, b)


def group_time(entries: Iterable[Entry]) -> str:
    """The control a group plays: the one its members asked for (they agree), else any."""
    return next((e.time for e in entries if e.time != ANY_TIME), ANY_TIME)


def accepts(a: Entry, b: Entry, now: datetime, band: Band) -> bool:
    """May ``a`` and ``b`` sit at one table? Same game and size, compatible times, ratings within both bands."""
    if a.game != b.game or a.players != b.players or not times_compatible(a.time, b.time):
        return False
    allowed = min(band.width(now - a.joined_at), band.width(now - b.joined_at))
    return abs(a.rating - b.rating) <= allowed


def match(entries: Sequence[Entry], now: datetime, band: Band = Band(),
          bot_wait: timedelta | None = None) -> list[Group]:
    """The groups to seat now, oldest anchor first. Entries left out keep waiting."""
    waiting = sorted(entries, key=lambda e: e.order)
    # Only entries of one game and size can sit together, within the anchor's band: each anchor reads that slice of
    # its bucket (kept by rating), and each entry's band is worked out once. A thousand entries: 590-755 ms → 36-62
    # ms a pass (tools/queue_sim.py --time); the groups are the same (the simulation's figures are unchanged).
    buckets: dict[tuple[str, int], list[Entry]] = {}
    for e in sorted(waiting, key=lambda e: (e.rating, e.order)):  # by rating: an anchor reads its band's slice
        buckets.setdefault((e.game, e.players), []).append(e)
    pairs = _Pairs({e.order: band.width(now - e.joined_at) for e in waiting})
    seated: set[int] = set()
    groups = []
    for anchor in waiting:
        if anchor.user_id in seated:
            continue
        bucket = buckets[(anchor.game, anchor.players)]
        group = _grow(anchor, bucket, seated, pairs, lambda e: True)
        if len(group) < anchor.players and _may_fill(anchor, now, bot_wait):
            group = _grow(anchor, bucket, seated, pairs, lambda e: e.bots_ok)
            groups.append(Group(tuple(group), bots=anchor.players - len(group)))
        elif len(group) == anchor.players:
            groups.append(Group(tuple(group)))
        else:
            continue
        seated.update(e.user_id for e in group)
    return groups


class _Pairs:
    """`accepts` with each entry's band computed once (same game and size: the bucket's)."""

    def __init__(self, widths: dict[tuple[datetime, int, str], float]) -> None:
        self.widths = widths

    def ok(self, a: Entry, b: Entry) -> bool:
        return times_compatible(a.time, b.time) and \
            abs(a.rating - b.rating) <= min(self.widths[a.order], self.widths[b.order])


def _may_fill(anchor: Entry, now: datetime, bot_wait: timedelta | None) -> bool:
    return anchor.bots_ok and bot_wait is not None and bot_wait > timedelta(0) and now - anchor.joined_at >= bot_wait


def _grow(anchor: Entry, bucket: Sequence[Entry], seated: set[int], pairs: _Pairs,
          keep: Callable[[Entry], bool]) -> list[Entry]:
    """The anchor and the closest-rated compatible members (ties: the longer wait), up to the table's size."""
    low = bisect_left(bucket, anchor.rating - pairs.widths[anchor.order], key=lambda e: e.rating)
    high = bisect_right(bucket, anchor.rating + pairs.widths[anchor.order], key=lambda e: e.rating)
    others = [e for e in bucket[low:high] if e.user_id not in seated and e.user_id != anchor.user_id and keep(e)
              and pairs.ok(anchor, e)]
    others.sort(key=lambda e: (abs(e.rating - anchor.rating), e.order))
    group = [anchor]
    for candidate in others:
        if len(group) == anchor.players:
            break
        if candidate.user_id not in {g.user_id for g in group} and all(pairs.ok(g, candidate) for g in group):
            group.append(candidate)
    return sorted(group, key=lambda e: e.order)
