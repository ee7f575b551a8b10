"""The plain rows the engine and the store exchange (one set for every backend), and the league's result
and rating rows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from league.ratings import Rating

GLOBAL = 0  # the scope of every server together
OUTCOMES = ("win", "draw", "loss")


@dataclass
class GameRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    seed: str
    seats: list[dict[str, Any]]
    version: int
    moves: int
    state: dict[str, Any] | None
    meta: dict[str, Any]
    outcome: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    error: str | None = None  # why the row failed to decode (a damaged row); its JSON columns are then empty
    # Content written once, in the same transaction as the row (hash -> its JSON text), into ``shared_content``:
    # what the row's JSON columns reference (as ``{"$shared": hash}``) and the store may not hold yet.
    shared: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    seat: int
    action: str
    source: str
    user_id: int | None
    interaction_id: int | None
    created_at: datetime


@dataclass(frozen=True)
class DeadlineRow:
    game_id: int
    kind: str
    due_at: datetime
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    id: int | None = None


@dataclass(frozen=True)
class Shards:
    """The gateway shards one bot process holds (issue 26): ``ids`` out of ``count``. A guild belongs to the shard
    Discord routes it to, ``(guild_id >> 22) % count``; a game without a guild (the terminal) to shard 0."""

    count: int
    ids: tuple[int, ...]

    def of(self, guild_id: int | None) -> int:
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.of(guild_id) in self.ids


@dataclass(frozen=True)
class DailyRow:
    """One player's daily-challenge attempt (``daily_results``); ``score`` is None until its game is over."""

    id: int
    day: str
    user_id: int
    guild_id: int | None
    name: str
    game_id: int | None
    score: int | None
    rating: str | None
    started_at: datetime
    finished_at: datetime | None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass
class TournamentRow:
    id: int
    guild_id: int | None
    channel_id: int
    organizer_id: int
    name: str
    game: str
    status: str
    data: dict[str, Any]
    version: int
    due_at: datetime | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SeatResult:
    """One human seat's result: place 1 is first, tied seats share a place; ``outcome`` is win, draw or loss."""

    user_id: int
    seat: int
    place: int
    outcome: str
    score: float | None = None


@dataclass(frozen=True)
class Finish:
    """What a finished game writes with its final save. ``rate`` (rated games only) maps the players' current
    ratings (user id → `Rating`; a newcomer is missing) to their new ones; it must be pure and quick: it runs
    inside the write transaction, once per scope."""

    game_id: int
    guild_id: int | None
    game: str
    finished_at: datetime
    rated: bool
    rows: tuple[SeatResult, ...]
    rate: Callable[[dict[int, Rating]], dict[int, Rating]] | None = None


@dataclass(frozen=True)
class ResultRow:
    """A player's finished game (``results``), with where it was played and how many seats it had."""

    game_id: int
    user_id: int
    guild_id: int | None
    game: str
    seat: int
    place: int
    outcome: str
    score: float | None
    rated: bool
    before: float | None
    after: float | None
    finished_at: datetime
    channel_id: int
    players: int

    @property
    def change(self) -> int | None:
        return None if self.before is None or self.after is None else round(self.after - self.before)


@dataclass(frozen=True)
class RatingRow:
    scope: int
    game: str
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int
    draws: int
    losses: int
    updated_at: datetime

    @property
    def rating(self) -> Rating:
        return Rating(self.mu, self.sigma, self.games)



SERVER_CATEGORY_PREFIX = "server_"


def server_category_number(category_id: int | str) -> int | None:
    """The ``floor_categories`` row id of ``12`` or ``"server_12"``; None for anything else (a built-in id)."""
    if isinstance(category_id, int):
        return category_id
    text = category_id.strip().lower().removeprefix(SERVER_CATEGORY_PREFIX)
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None

# A web page's object (storage/*/web.py): (kind, guild id, object id); kind is guild, tournament, game or player.
WebKey = tuple[str, int, int]


@dataclass(frozen=True)
class FollowRow:
    """A member following a game as a spectator (storage/*/follows.py, migration 0012). ``mode``: ``thread``
    (added to the game's thread), ``channel`` (reads its channel) or ``dm`` (a rate-limited digest by DM);
    ``sent_moves``: the moves the last digest showed."""

    game_id: int
    user_id: int
    guild_id: int
    mode: str
    created_at: datetime
    last_sent_at: datetime | None = None
    sent_moves: int = 0


@dataclass(frozen=True)
class QueueRow:
    """A member waiting on a server's queue for one game (storage/*/queue.py, migration 0013): the table size and
    time control (``""``: any) wanted, their rating (display points) when they joined, whether bots may fill their
    table, the channel they queued in and their name as stored for a seat."""

    guild_id: int
    user_id: int
    game: str
    players: int
    time: str
    rating: float
    bots_ok: bool
    channel_id: int
    name: str
    joined_at: datetime


@dataclass(frozen=True)
class ChallengeRow:
    """A direct challenge (migration 0013). ``status``: open, accepted, declined, expired or cancelled;
    ``message_id``: the message with its buttons; ``game_id``: the game an accepted challenge opened."""

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    challenged_id: int
    game: str
    options: dict[str, Any]
    status: str
    created_at: datetime
    expires_at: datetime
    message_id: int | None = None
    game_id: int | None = None
