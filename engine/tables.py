"""A stored game as the surfaces see it (`Table`), its seats, the result of a move and the scheduler's notices."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from engine import policies
from rules.base import Event, Game, Outcome

log = logging.getLogger(__name__)

GUEST_SEAT = -1  # the actor of a member without a seat, where the rules allow one (`Game.guest_action`)
CLOSED_STATUSES = ("finished", "aborted")


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class SeatInfo:
    user_id: int | None
    name: str
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "bot": self.bot}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatInfo:
        return cls(user_id=d["user_id"], name=d["name"], bot=bool(d.get("bot", False)))


class ViewCache:
    """The last few views computed, by (table id, seat), each kept with the state it was drawn from: a click's text
    and image (often in a worker thread) share one view, and a new state misses. Bounded, so 5,000 idle games do
    not each keep a view (~10 KB apiece)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[int, int | None], tuple[Any, dict[str, Any]]] = OrderedDict()
        self.lock = threading.Lock()  # renders read views from worker threads

    def get(self, table: Table, seat: int | None) -> dict[str, Any]:
        if table.status != "active":  # over: asked for its last posts only, so it keeps none to age out
            self.forget(table.id)
            return table.rules.view(table.state, seat)
        key = (table.id, seat)
        with self.lock:
            hit = self.entries.get(key)
            if hit is not None and hit[0] is table.state:
                self.entries.move_to_end(key)
                return hit[1]
        view = table.rules.view(table.state, seat)
        with self.lock:
            self.entries[key] = (table.state, view)
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return view

    def forget(self, table_id: int) -> None:
        """Drop a game's views (every seat's) with the states they hold: an ended game's final state would
        otherwise stay until 256 newer views push it out (a Floor Plan game's ~45 KB apiece)."""
        with self.lock:
            for key in [key for key in self.entries if key[0] == table_id]:
                del self.entries[key]


VIEWS = ViewCache()


@dataclass
class Table:
    """A stored game as the surface sees it: lobby or running, with the rules state decoded."""

    id: int
    game: str
    rules: Game
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    seed: str
    seats: list[SeatInfo]
    version: int
    moves: int
    state: Any | None
    meta: dict[str, Any]
    outcome: Outcome | None
    created_at: datetime
    updated_at: datetime
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator), from the rules; one click's text and image share it (see
        `ViewCache`). Treat it as read-only."""
        if self.state is None:
            return {"game": self.game, "phase": "lobby", "players": len(self.seats), "viewer": seat}
        return VIEWS.get(self, seat)

    def seat_of(self, user_id: int | None) -> int | None:
        for i, seat in enumerate(self.seats):
            if not seat.bot and seat.user_id == user_id:
                return i
        return None

    def to_move(self) -> frozenset[int]:
        if self.state is None or self.status != "active":
            return frozenset()
        return self.rules.to_move(self.state)

    def humans_to_move(self) -> list[int]:
        """Seats to move that wait for a person (not a bot, nor a stand-in bot playing for an absent owner)."""
        standins = self.standins()
        return sorted(s for s in self.to_move() if not self.seats[s].bot and s not in standins)

    def standins(self) -> frozenset[int]:
        """Seats a bot plays while their owner is away (the ``bot`` timeout policy); none while paused."""
        return frozenset() if self.meta.get(policies.PAUSED) else policies.standins(self.meta)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]


@dataclass
class ActResult:
    table: Table
    seat: int
    action: str
    events: list[Event]
    duplicate: bool = False
    outcome: Outcome | None = None
    source: str = "player"


@dataclass
class Notice:
    """Something the scheduler did that the surface should announce."""

    kind: str
    table: Table
    data: dict[str, Any] = field(default_factory=dict)

    def results(self) -> list[ActResult]:
        """The moves this notice made, in order: the timed action, what its policy added (a forfeit), the bots'."""
        first = self.data.get("result")
        return [*([first] if first is not None else []), *self.data.get("more", []), *self.data.get("bots", [])]


Listener = Callable[[Notice], Awaitable[None]]


class Listeners:
    """The surfaces told what the engine did on its own (a timeout, a damaged game): one's failure is logged and
    never keeps the others from hearing it."""

    def __init__(self) -> None:
        self._all: list[Listener] = []

    def add(self, listener: Listener) -> None:
        self._all.append(listener)

    async def notify(self, notice: Notice) -> None:
        for listener in self._all:
            try:
                await listener(notice)
            except Exception:
                log.exception("listener failed on %s for table %s", notice.kind, notice.table.id)


def outcome_from_json(d: dict[str, Any] | None) -> Outcome | None:
    if d is None:
        return None
    return Outcome(
        winners=tuple(d["winners"]),
        ranking=tuple(tuple(g) for g in d["ranking"]),
        scores=tuple(d["scores"]),
        reason=d["reason"],
    )
