"""Finding a game (issue 27, docs/matchmaking.md): a server's queue, the ready check of a matched lobby, and direct
challenges. Everything is kept in the store, so a restart loses no entry, ready check or challenge.

- The queue: one entry per member and game (`QueueRow`); re-joining updates it and keeps the first join time.
  `matches` asks the pure matcher (league/matchmaking.py) which entries to seat; `open_match` stores the lobby and
  takes them out of the queue in one transaction (none, and no lobby, if one of them left meanwhile), so a restart
  at any point finds each entry either waiting or seated.
- A match opens as a lobby with its members seated (bots fill the rest when the group was bot-filled) and a
  ``ready_check`` deadline row: the deadlines machinery (engine/scheduler.py) fires it after a restart too, and
  the lobby's own row carries it, so it goes with the lobby (started or closed). All humans pressing Ready starts
  the game; at the deadline the lobby closes, the no-shows are dropped and the others go back to the queue with
  their first join time.
- Challenges are rows of their own with an expiry: a challenge has no game yet, so no deadline row can carry it;
  `expire_due` (run in every scheduler pass as a due source) closes the ones past their time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from engine import policies as pol
from engine.errors import EngineError, GameNotFoundError, LobbyError, NotSeatedError, PermissionDeniedError, unavailable
from engine.scheduler import Firing
from engine.tables import Notice, SeatInfo, Table
from league import matchmaking as mm
from league.ratings import Rating
from storage import (
    ChallengeClosedError,
    ChallengeRow,
    DeadlineRow,
    QueueEntryGoneError,
    QueueRow,
    StorageConflictError,
    StorageError,
)

log = logging.getLogger(__name__)

READY_CHECK = "ready_check"  # deadline kind: a matched lobby whose players have not all pressed Ready
QUEUE_META = "queue"  # a matched lobby's meta: {"entries": [queue rows], "others": [queue rows], "ready": [ids]}
READY_SECONDS = 120  # how long a matched lobby waits for Ready
CHALLENGE_MINUTES = 15  # how long a challenge waits for an answer
BOT_WAIT_SETTING = "queue_bot_minutes"  # server setting: minutes before bots fill a bots:ok entry; 0: never
BOT_WAIT_MINUTES = 5  # its default
MAX_BOT_WAIT_MINUTES = 24 * 60
BAND = mm.Band()
MIN_QUEUE_PLAYERS = 2  # a queue is for finding opponents: solo games are started with /play


class QueueError(EngineError):
    """A queue or challenge request that cannot be served (nothing is changed)."""


@dataclass(frozen=True)
class Match:
    """Entries to seat together (held until their lobby opens), and how many bots fill the table."""

    rows: tuple[QueueRow, ...]
    bots: int
    time: str
    others: tuple[QueueRow, ...] = ()  # the members' entries for other games: they leave with the lobby

    @property
    def entries(self) -> tuple[QueueRow, ...]:
        """Every entry the match holds: what its lobby takes out of the queue as it is stored."""
        return self.rows + self.others

    @property
    def game(self) -> str:
        return self.rows[0].game

    @property
    def guild_id(self) -> int:
        return self.rows[0].guild_id


def row_json(row: QueueRow) -> dict[str, Any]:
    return {"guild_id": row.guild_id, "user_id": row.user_id, "game": row.game, "players": row.players,
            "time": row.time, "rating": row.rating, "bots_ok": row.bots_ok, "channel_id": row.channel_id,
            "name": row.name, "joined_at": row.joined_at.isoformat()}


def row_from_json(d: dict[str, Any]) -> QueueRow:
    return QueueRow(int(d["guild_id"]), int(d["user_id"]), str(d["game"]), int(d["players"]), str(d.get("time", "")),
                    float(d.get("rating", Rating().display)), bool(d.get("bots_ok", False)),
                    int(d["channel_id"]), str(d["name"]), datetime.fromisoformat(d["joined_at"]))


def _key(row: QueueRow) -> tuple[int, int, str]:
    return row.guild_id, row.user_id, row.game


def entry_of(row: QueueRow) -> mm.Entry:
    return mm.Entry(row.user_id, row.game, row.players, row.time, row.rating, row.joined_at, row.bots_ok)


def waiting_humans(table: Table) -> list[int]:
    """The seated members who have not pressed Ready yet."""
    ready = set(table.meta.get(QUEUE_META, {}).get("ready", []))
    return [s.user_id for s in table.seats if not s.bot and s.user_id is not None and s.user_id not in ready]


class Matchmaker:
    """The queue, ready checks and challenges of one engine."""

    # engine: the Engine (engine/core.py) that builds this part; typed loosely, as core imports this module.
    def __init__(self, engine: Any, band: mm.Band = BAND, ready_seconds: int = READY_SECONDS,
                 challenge_minutes: int = CHALLENGE_MINUTES) -> None:
        self.engine = engine
        self.band = band
        self.ready_seconds = ready_seconds
        self.challenge_minutes = challenge_minutes
        self._matching = asyncio.Lock()  # one matching pass at a time: an entry is matched once
        self._held: set[tuple[int, int, str]] = set()  # entries matched in this process, their lobby not yet open
        engine.scheduler.firings[READY_CHECK] = Firing(self._ready_expired, keeps_row=True)

    @property
    def store(self) -> Any:
        return self.engine.store

    # --- the queue ---------------------------------------------------------------------------------------------

    def check_request(self, game: str, players: int | None, time: str | None) -> tuple[int, str]:
        """The table size and time control a request means (defaults filled); `QueueError` for bad ones."""
        rules = self.engine.games.get(game)
        if rules is None:
            raise GameNotFoundError("queue.unknown_game", game=game[:40])
        low = max(rules.min_players, MIN_QUEUE_PLAYERS)
        if rules.max_players < low:
            raise QueueError("queue.solo_game")
        size = low if players is None else players
        if not low <= size <= rules.max_players:
            raise QueueError("queue.bad_players", min=low, max=rules.max_players)
        name = (time or mm.ANY_TIME).strip().lower()
        if name not in ("", "any") and name not in pol.TIME_PRESETS:
            raise QueueError("queue.bad_time", value=name[:20], allowed=", ".join(pol.TIME_PRESETS))
        return size, "" if name == "any" else name

    async def join(self, guild_id: int, channel_id: int, member: SeatInfo, game: str, *, players: int | None = None,
                   time: str | None = None, bots_ok: bool = False) -> QueueRow:
        """Join (or update) the member's entry for ``game``; their server rating sets where they sit in the band."""
        assert member.user_id is not None
        size, control = self.check_request(game, players, time)
        rated = await self.engine.queries.rating(guild_id, game, member.user_id)
        rating = float((rated.rating if rated is not None else Rating()).display)
        row = QueueRow(guild_id, member.user_id, game, size, control, rating, bots_ok, channel_id, member.name,
                       self.engine.now())
        await self._write(self.store.put_queue_entries([row]))
        stored = [r for r in await self.waiting(guild_id) if r.user_id == member.user_id and r.game == game]
        return stored[0] if stored else row

    async def leave(self, guild_id: int, user_id: int, game: str | None = None) -> int:
        """Leave one game's queue (or every one); how many entries went."""
        return int(await self._write(self.store.remove_queue_entries(guild_id, user_id,
                                                                     None if game is None else [game])))

    async def waiting(self, guild_id: int | None = None) -> list[QueueRow]:
        try:
            rows = await self.store.queue_entries(guild_id)
        except StorageError as e:
            raise unavailable(e) from None
        return [r for r in rows if _key(r) not in self._held]  # being seated: no longer waiting

    async def bot_wait(self, guild_id: int) -> timedelta | None:
        minutes = await self.engine.guild_setting(guild_id, BOT_WAIT_SETTING, BOT_WAIT_MINUTES)
        return timedelta(minutes=int(minutes)) if int(minutes) > 0 else None

    async def matches(self, guild_id: int) -> list[Match]:
        """The groups to seat now. One seat at a time: a matched member's other entries go with the match
        (`Match.others`), and a member whose matched table waits for Ready is not matched again (their entries
        keep waiting until it starts or closes).

        Nothing is written here: the entries stay in the queue, held for this process (`release`), until
        `open_match` stores the lobby and takes them in one transaction; a restart in between finds them waiting."""
        async with self._matching:
            rows = await self.waiting(guild_id)
            if not rows:
                return []
            busy = await self.awaiting_ready(guild_id) | self._held_members(guild_id)
            rows = [r for r in rows if r.user_id not in busy]
            by_key = {(r.user_id, r.game): r for r in rows}
            groups = mm.match([entry_of(r) for r in rows], self.engine.now(), self.band, await self.bot_wait(guild_id))
            matched = []
            for group in groups:
                chosen = tuple(by_key[(e.user_id, e.game)] for e in group.entries)
                members = {r.user_id for r in chosen}
                if members & self._held_members(guild_id):
                    continue  # a member already in this pass's match
                others = tuple(r for r in rows if r.user_id in members and r not in chosen)
                match = Match(chosen, group.bots, group.time, others)
                self._held.update(_key(r) for r in match.entries)
                matched.append(match)
            return matched

    def _held_members(self, guild_id: int) -> set[int]:
        return {user_id for guild, user_id, _ in self._held if guild == guild_id}

    def release(self, match: Match) -> None:
        """The match was opened (its entries left with its lobby) or could not be: its entries are no longer held."""
        self._held.difference_update(_key(r) for r in match.entries)

    async def awaiting_ready(self, guild_id: int) -> set[int]:
        """The members seated at a matched table of this server that waits for Ready."""
        try:
            lobbies = await self.store.games_in_guild(guild_id, ("lobby",))
        except StorageError as e:
            raise unavailable(e) from None
        return {int(s["user_id"]) for row in lobbies if isinstance(row.meta.get(QUEUE_META), dict)
                for s in row.seats if isinstance(s, dict) and s.get("user_id") is not None and not s.get("bot")}

    async def requeue(self, rows: list[QueueRow]) -> None:
        """Put entries back with their first join time (a no-show's ready partners; a match that cannot open
        never took its entries out)."""
        if rows:
            await self._write(self.store.put_queue_entries(rows))

    async def open_match(self, match: Match, channel_id: int) -> Table | None:
        """A lobby with the match seated (bots last) and its ready check armed, its entries taken out of the queue
        in the same write (and the members' other entries); None, with nothing written, if one of them left the
        queue meanwhile. The match is released either way."""
        try:
            return await self._open_lobby(match, channel_id)
        except QueueEntryGoneError:
            return None
        finally:
            self.release(match)

    async def _open_lobby(self, match: Match, channel_id: int) -> Table:
        engine = self.engine
        options = {"time": match.time} if match.time else {}
        seats = [SeatInfo(r.user_id, r.name) for r in match.rows]
        seats += [SeatInfo(None, f"Bot {n}", True) for n in range(1, match.bots + 1)]
        queue = {"entries": [row_json(r) for r in match.rows], "others": [row_json(r) for r in match.others],
                 "ready": []}
        # The ready check is this lobby's deadline, in place of the ordinary lobby expiry.
        due = engine.now() + timedelta(seconds=self.ready_seconds)
        return await engine.open_lobby(match.game, guild_id=match.guild_id, channel_id=channel_id, host=seats[0],
                                       options=options, others=seats[1:], meta={QUEUE_META: queue},
                                       deadline=(READY_CHECK, due), take=match.rows, drop=match.others)

    async def ready(self, table_id: int, user_id: int) -> tuple[Table, bool]:
        """The member is ready; the game starts when every seated member is. (table, whether it started now)."""
        engine = self.engine
        async with engine.book.lock(table_id):
            table = await engine.book.get(table_id)
            queue = table.meta.get(QUEUE_META)
            if table.status != "lobby" or not isinstance(queue, dict):
                raise LobbyError("queue.not_waiting")
            if table.seat_of(user_id) is None:
                raise NotSeatedError("queue.not_matched")
            if user_id in queue.get("ready", []):
                return table, False  # a double click: nothing to do
            meta = {**table.meta, QUEUE_META: {**queue, "ready": [*queue.get("ready", []), user_id]}}
            table = await engine.book.save(table, replace(table, meta=meta), bump=False)
            if waiting_humans(table):
                return table, False
        # Everyone is ready: started as its host would (the version is the one just read: a ready check that
        # closed the table meanwhile makes this a clear refusal, never a second start).
        return await engine.start(table.id, table.host_id, version=table.version), True

    async def _ready_expired(self, table: Table, d: DeadlineRow) -> Notice | None:
        """The ready check ran out: the lobby closes, the no-shows are dropped, the ready members re-queued."""
        if table.status != "lobby":
            await self.engine.book.drop_deadline(d)
            return None
        queue = table.meta.get(QUEUE_META) or {}
        ready = set(queue.get("ready", []))
        rows = [row_from_json(r) for r in queue.get("entries", [])]
        others = [row_from_json(r) for r in queue.get("others", [])]  # a lobby matched before they were kept: none
        back = [r for r in rows if r.user_id in ready]
        # Back in the queue before the lobby closes: a restart between the two fires the check again, and putting
        # an entry back twice keeps one entry with its first join time.
        await self.requeue(back + [r for r in others if r.user_id in ready])
        closed = await self.engine.book.close(table, "aborted", reason="no_show")
        return Notice("queue_no_show", closed, {"dropped": [r.user_id for r in rows if r.user_id not in ready],
                                                "requeued": [r.user_id for r in back]})

    # --- challenges --------------------------------------------------------------------------------------------

    async def challenge(self, guild_id: int, channel_id: int, challenger_id: int, challenged_id: int, game: str,
                        options: dict[str, Any]) -> ChallengeRow:
        if challenger_id == challenged_id:
            raise QueueError("queue.challenge_self")
        rules = self.engine.games.get(game)
        if rules is None:
            raise GameNotFoundError("queue.unknown_game", game=game[:40])
        if not rules.min_players <= 2 <= rules.max_players:
            raise QueueError("queue.challenge_not_two")
        if await self._write(self.store.open_challenges(guild_id, challenged_id)):
            raise QueueError("queue.challenge_busy")
        now = self.engine.now()
        row = ChallengeRow(0, guild_id, channel_id, challenger_id, challenged_id, game, options, "open", now,
                           now + timedelta(minutes=self.challenge_minutes))
        try:
            challenge_id = await self.store.insert_challenge(row)
        except StorageConflictError:  # another challenge reached them first
            raise QueueError("queue.challenge_busy") from None
        except StorageError as e:
            raise unavailable(e) from None
        return replace(row, id=challenge_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow:
        row = await self._write(self.store.load_challenge(challenge_id))
        if row is None:
            raise GameNotFoundError("queue.no_challenge")
        return row

    async def answer(self, challenge_id: int, user_id: int, accept: bool) -> ChallengeRow:
        """The challenged member accepts or declines; only they may, and only once (a double click or a stale
        button after it expired gets `QueueError`)."""
        row = await self.get_challenge(challenge_id)
        if user_id != row.challenged_id:
            raise PermissionDeniedError("queue.challenge_not_yours")
        status = "accepted" if accept else "declined"
        if row.status != "open" or row.expires_at <= self.engine.now() or \
                not await self._write(self.store.answer_challenge(challenge_id, status)):
            raise QueueError("queue.challenge_closed")
        return replace(row, status=status)

    async def accept(self, challenge_id: int, user_id: int,
                     open_game: Callable[[ChallengeRow], Awaitable[Table]]) -> tuple[ChallengeRow, Table]:
        """The challenged member accepts. ``open_game`` opens the game with ``challenge=row.id``
        (`Engine.open_table`): the game and the Accept are stored in one transaction, so a game that fails to open
        leaves the challenge open (the error propagates; Accept may be pressed again), a restart never finds a
        game with the challenge still open (a second Accept would open another), and an Accept that lost a race (a
        double click, the expiry) stores no game and gets `QueueError`."""
        row = await self.get_challenge(challenge_id)
        if user_id != row.challenged_id:
            raise PermissionDeniedError("queue.challenge_not_yours")
        if row.status != "open" or row.expires_at <= self.engine.now():
            raise QueueError("queue.challenge_closed")
        try:
            table = await open_game(row)
        except ChallengeClosedError:
            raise QueueError("queue.challenge_closed") from None
        return replace(row, status="accepted", game_id=table.id), table

    async def cancel_challenges_of(self, guild_id: int, user_id: int) -> list[ChallengeRow]:
        """A member left the server: their open challenges (sent or received) are cancelled."""
        gone = []
        for row in await self._write(self.store.open_challenges(guild_id, user_id)):
            if await self._write(self.store.answer_challenge(row.id, "cancelled")):
                gone.append(replace(row, status="cancelled"))
        return gone

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._write(self.store.set_challenge_message(challenge_id, message_id))

    async def set_challenge_game(self, challenge_id: int, game_id: int) -> None:
        await self._write(self.store.set_challenge_game(challenge_id, game_id))

    async def expire_due(self) -> list[ChallengeRow]:
        """Close the open challenges past their time; the ones this call closed (to edit their messages)."""
        expired = []
        for row in await self._write(self.store.due_challenges(self.engine.now())):
            if await self._write(self.store.answer_challenge(row.id, "expired")):
                expired.append(replace(row, status="expired"))
        return expired

    @staticmethod
    async def _write(work: Any) -> Any:
        try:
            return await work
        except StorageError as e:
            raise unavailable(e) from None
