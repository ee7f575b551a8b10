"""The table book: the only owner of the loaded games (cache, per-game locks, deadlines) and of their load and save.

Every part of the engine (clocks, bots, log, scheduler, admin, undo, vacation) reads and writes games through it:
one `asyncio.Lock` per game, the caller's version checked by the store, the snapshot, its action and its deadline
changes written in one transaction (one round trip: the book keeps each open game's deadlines itself, and content
fixed for the whole game is stored once and referenced, see `SharedContent`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from engine.errors import ChannelBusyError, DamagedGameError, GameNotFoundError, StaleVersionError, unavailable
from engine.locks import TableLocks
from engine.meta import LOBBY_OPTIONS
from engine.shared import Known, SharedContent
from engine.tables import Notice, SeatInfo, Table, outcome_from_json
from rules.base import Game
from storage import (
    ActionRow,
    ChallengeClosedError,
    DeadlineRow,
    Finish,
    GameRow,
    QueueEntryGoneError,
    QueueRow,
    StorageConflictError,
    StorageError,
    Store,
)

log = logging.getLogger(__name__)

Notify = Callable[[Notice], Awaitable[None]]


@dataclass
class Edit:
    """A game opened for change under its lock (`TableBook.editing`): ``table`` is the latest saved version."""

    book: TableBook
    table: Table

    async def save(self, new: Table, **kw: Any) -> Table:
        """Write ``new`` over ``table`` (see `TableBook.save`); later saves in the same edit build on it."""
        self.table = await self.book.save(self.table, new, **kw)
        return self.table


class TableBook:
    """Open games by id: loaded once, kept while they run, saved in one write with their deadline changes."""

    def __init__(self, store: Store, games: dict[str, Game], now: Callable[[], datetime], notify: Notify) -> None:
        self.store = store
        self.games = games
        self.now = now
        self.locks = TableLocks()
        self.cache: dict[int, Table] = {}
        # Each cached table's deadlines: every deadline is written and dropped here, so a move needs no read.
        self.deadlines: dict[int, list[DeadlineRow]] = {}
        self.damaged: dict[int, str] = {}  # table id → why its row does not load (isolated, never retried)
        self.wake = asyncio.Event()  # set by every write: the scheduler looks at the deadlines again
        self._notify = notify  # a damaged game's players are told once
        self._shared = SharedContent()
        self._known: dict[int, Known] = {}  # each cached table's shared values, by identity (hashed once)
        self._closed_hooks: list[Callable[[Table], None]] = []  # told when a game ends (tournaments)

    def rules(self, game: str) -> Game:
        try:
            return self.games[game]
        except KeyError:
            raise GameNotFoundError("engine.unknown_game", game=game, games=", ".join(sorted(self.games))) from None

    def lock(self, table_id: int) -> asyncio.Lock:
        return self.locks.of(table_id)

    def deadlines_of(self, table_id: int) -> list[DeadlineRow]:
        """The cached table's deadline rows (none for a table not loaded)."""
        return self.deadlines.get(table_id, [])

    @contextlib.asynccontextmanager
    async def editing(self, table_id: int) -> AsyncIterator[Edit]:
        """``async with book.editing(id) as e: … await e.save(new, drop=…, add=…)``: the game, under its lock."""
        async with self.lock(table_id):
            yield Edit(self, await self.get(table_id))

    # --- rows ----------------------------------------------------------------------------------------------------

    def _from_row(self, row: GameRow) -> Table:
        rules = self.rules(row.game)
        return Table(
            id=row.id, game=row.game, rules=rules, guild_id=row.guild_id, channel_id=row.channel_id,
            host_id=row.host_id, status=row.status, options=row.options, seed=row.seed,
            seats=[SeatInfo.from_json(s) for s in row.seats], version=row.version, moves=row.moves,
            state=None if row.state is None else rules.from_json(row.state), meta=row.meta,
            outcome=outcome_from_json(row.outcome), created_at=row.created_at, updated_at=row.updated_at,
        )

    def _to_row(self, t: Table) -> GameRow:
        return self._pack(GameRow(
            id=t.id, game=t.game, guild_id=t.guild_id, channel_id=t.channel_id, host_id=t.host_id,
            status=t.status, options=t.options, seed=t.seed, seats=[s.to_json() for s in t.seats],
            version=t.version, moves=t.moves, state=None if t.state is None else t.rules.to_json(t.state),
            meta=t.meta, outcome=None if t.outcome is None else t.outcome.to_json(),
            created_at=t.created_at, updated_at=t.updated_at,
        ))

    # --- shared content: the row holds references, the store each value once ------------------------------------

    def _shared_fields(self, game: str) -> tuple[str, ...]:
        return tuple(getattr(self.games.get(game), "shared_fields", ()))

    def _pack(self, row: GameRow) -> GameRow:
        """``row`` with its game's shared fields (in the options, the state's JSON and the lobby's options kept in
        meta) replaced by references; ``row.shared`` gets the values the store may not hold yet."""
        fields = self._shared_fields(row.game)
        if not fields:
            return row
        shared: dict[str, str] = {}
        known, used = self._known.get(row.id, {}), {}

        def pack(d: dict[str, Any]) -> dict[str, Any]:
            return self._shared.pack(fields, d, shared, known, used)

        meta, lobby = row.meta, row.meta.get(LOBBY_OPTIONS)
        if isinstance(lobby, dict):
            meta = {**meta, LOBBY_OPTIONS: pack(lobby)}
        packed = replace(row, options=pack(row.options), meta=meta, shared=shared,
                         state=None if row.state is None else pack(row.state))
        if row.id in self.cache:  # kept while the table is: only the values it holds now
            self._known[row.id] = used
        return packed

    @staticmethod
    def _lobby_options(row: GameRow) -> Any:
        return row.meta.get(LOBBY_OPTIONS) if isinstance(row.meta, dict) else None

    def _references(self, fields: tuple[str, ...], row: GameRow) -> set[str]:
        refs = self._shared.references
        return refs(fields, row.options) | refs(fields, row.state) | refs(fields, self._lobby_options(row))

    def _unpack(self, row: GameRow, fields: tuple[str, ...], values: dict[str, Any]) -> GameRow:
        """``row`` with every reference resolved from ``values``; ValueError for unknown content (a damaged row)."""
        if not fields:
            return row
        unpack, meta, lobby = self._shared.unpack, row.meta, self._lobby_options(row)
        if isinstance(lobby, dict):
            meta = {**meta, LOBBY_OPTIONS: unpack(fields, lobby, values)}
        return replace(row, options=unpack(fields, row.options, values), state=unpack(fields, row.state, values),
                       meta=meta)

    # --- loading -------------------------------------------------------------------------------------------------

    async def get(self, table_id: int, *, seen: int | None = None) -> Table:
        """The game, cached or loaded. ``seen``: a version a player was shown. A cached copy older than that is
        stale (another bot process sharing the database moved the game on and posted it): dropped and reloaded,
        so the player's move is judged on the game as they saw it, not refused as out of date for good."""
        cached = self.cache.get(table_id)
        if cached is not None and seen is not None and seen > cached.version:
            log.info("game %s moved on in another process (version %s, cached %s): reloading", table_id, seen,
                     cached.version)
            self.forget(table_id)
            cached = None
        if cached is not None:
            return cached
        if table_id in self.damaged:
            raise DamagedGameError(table_id, self.damaged[table_id])
        row, deadlines = await self.store.load_table(table_id)
        if row is None:
            raise GameNotFoundError("engine.no_game", table=table_id)
        fields = self._shared_fields(row.game)
        refs = self._references(fields, row)
        values = self._shared.at_hand(refs)
        texts = await self.store.shared_content(refs - values.keys()) if len(values) < len(refs) else {}
        try:
            if row.error is not None:
                raise ValueError(row.error)
            values.update(self._shared.loaded(texts))
            table = self._from_row(self._unpack(row, fields, values))
        except Exception as e:  # whatever a damaged row raises, it stays this table's problem
            await self._isolate(row, e)
            raise DamagedGameError(table_id, self.damaged[table_id]) from None
        cached = self.cache.get(table_id)
        if cached is not None:  # cached by another task while this read ran (a save, under the game's lock): newer
            return cached
        self.cache[table_id], self.deadlines[table_id] = table, deadlines
        self._known[table_id] = {id(value): (value, digest) for digest, value in values.items()}
        return table

    def forget(self, table_id: int) -> None:
        self.cache.pop(table_id, None)
        self.deadlines.pop(table_id, None)
        self._known.pop(table_id, None)

    async def _isolate(self, row: GameRow, error: BaseException) -> None:
        """Mark a table whose row does not load: logged with its id, its players told once (a notice)."""
        reason = f"{type(error).__name__}: {error}"[:300]
        self.damaged[row.id] = reason
        try:
            first = await self.store.mark_damaged(row.id, reason, self.now())
        except StorageError:
            first = None
        # Reported once, as its players are told once: later starts that meet it again say so quietly.
        level = logging.ERROR if first is not False else logging.INFO
        log.log(level, "game %s (%s) is damaged and set aside; the others keep running: %s", row.id, row.game,
                reason)
        if first is None:
            log.warning("could not record game %s as damaged", row.id)
        elif first and row.status in ("lobby", "active"):
            await self._notify(Notice("damaged", self.shell(row), {"reason": reason}))

    def shell(self, row: GameRow) -> Table:
        """What can be said of a damaged table without its state: where it is, who sits at it, and its meta when
        that still reads (a surface's own bookkeeping: the terminal's save name)."""
        seats = []
        for raw in row.seats if isinstance(row.seats, list) else []:
            with contextlib.suppress(Exception):
                seats.append(SeatInfo.from_json(raw))
        return Table(
            id=row.id, game=row.game, rules=self.games.get(row.game), guild_id=row.guild_id,  # type: ignore[arg-type]
            channel_id=row.channel_id, host_id=row.host_id, status=row.status, options={}, seed="", seats=seats,
            version=row.version, moves=row.moves, state=None, meta=row.meta if isinstance(row.meta, dict) else {},
            outcome=None, created_at=row.created_at, updated_at=row.updated_at,
        )

    # --- writing -------------------------------------------------------------------------------------------------

    async def insert(self, row: GameRow, deadlines: list[DeadlineRow], *, take: Sequence[QueueRow] = (),
                     drop: Sequence[QueueRow] = (), tournament: tuple[int, int, int] | None = None,
                     challenge: int | None = None) -> int:
        """A new game's row (a lobby, or a table seated at once); its id. `ChannelBusyError` when the channel
        already has an open game. What comes with it is written in the same transaction (`store.insert_game`): a
        matched lobby's queue entries (`QueueEntryGoneError`, nothing written, when one of ``take`` left the
        queue), a tournament game's link to its round and table, the challenge a game answers
        (`ChallengeClosedError`, nothing written, when it was no longer open)."""
        row = self._pack(row)
        try:
            table_id = await self.store.insert_game(row, deadlines, take=take, drop=drop, tournament=tournament,
                                                    challenge=challenge)
        except (QueueEntryGoneError, ChallengeClosedError):
            raise
        except StorageConflictError:
            raise ChannelBusyError("engine.channel_busy") from None
        except StorageError as e:
            raise unavailable(e) from None
        self._shared.stored(row.shared)
        return table_id

    async def save(
        self,
        old: Table,
        new: Table,
        *,
        action: ActionRow | None = None,
        drop: Iterable[int] = (),
        add: Iterable[DeadlineRow] = (),
        bump: bool = True,
        clear: bool = False,
        finish: Finish | None = None,
    ) -> Table:
        """Write ``new`` over ``old`` with its deadline changes: ``drop`` (ids), then ``add``; ``clear`` drops them
        all first. ``bump`` moves the version on: every change players can see does. ``finish``: the game's results
        and rating changes (engine/results.py), written in the same transaction."""
        new = replace(new, version=old.version + int(bump), updated_at=self.now())
        row, dropped = self._to_row(new), set(drop)
        try:
            added = await self.store.save_game(row, expect_version=old.version, action=action,
                                               drop_deadlines=dropped, add_deadlines=add, clear_deadlines=clear,
                                               finish=finish)
        except StorageConflictError:
            # Another writer (a task here, or another bot process on the same database) moved the game on: the
            # cached copy is stale, reloaded at the next read; this move is refused and applied nowhere.
            self.forget(old.id)
            raise StaleVersionError("engine.stale") from None
        except StorageError as e:
            raise unavailable(e) from None
        except asyncio.CancelledError:
            self.forget(old.id)  # the transaction goes on without us: whether it committed is read next time
            raise
        self._shared.stored(row.shared)
        if new.status in ("lobby", "active"):
            # Read after the write: a deadline the scheduler dropped or moved meanwhile stays as it left it.
            kept = [] if clear else [d for d in self.deadlines.get(new.id, ()) if d.id not in dropped]
            self.cache[new.id], self.deadlines[new.id] = new, kept + added
        else:  # a closed game is read rarely: don't keep every finished game in memory
            self.forget(new.id)
            self.locks.forget(new.id)
            if old.status == "active":
                self._closed(new)
        self.wake.set()
        return new

    async def drop_deadline(self, deadline: DeadlineRow) -> None:
        """Drop one row outside a save (it fired, or what it was for is gone), in the store and here."""
        if deadline.id is not None:
            await self.store.drop_deadline(deadline.id)
            self.moved_deadline(deadline, None)

    def moved_deadline(self, deadline: DeadlineRow, due_at: datetime | None) -> None:
        """Mirror a change made to one deadline row outside a save in its table's cache: dropped (None) or moved."""
        rows = self.deadlines.get(deadline.game_id)
        if rows is None:
            return
        if due_at is None:
            rows = [d for d in rows if d.id != deadline.id]
        else:
            rows = [replace(d, due_at=due_at) if d.id == deadline.id else d for d in rows]
        self.deadlines[deadline.game_id] = rows

    # --- games that end ------------------------------------------------------------------------------------------

    def on_closed(self, hook: Callable[[Table], None]) -> None:
        """Call ``hook(table)`` when a running game ends (finished, aborted, adjudicated), right after the write.
        It runs under the game's lock, so it must not wait: a tournament schedules its own work."""
        self._closed_hooks.append(hook)

    def _closed(self, table: Table) -> None:
        for hook in self._closed_hooks:
            try:
                hook(table)
            except Exception:  # one listener's bug never undoes a move that is already saved
                log.exception("a game-closed hook failed for game %s", table.id)

    async def close(self, table: Table, status: str, *, reason: str) -> Table:
        """End the game (under its lock): every deadline goes with it."""
        return await self.save(table, replace(table, status=status, meta={**table.meta, "closed": reason}),
                               clear=True)

    # --- reading many --------------------------------------------------------------------------------------------

    async def active_tables(self, guild_id: int) -> list[Table]:
        """A server's open games that load; a damaged one is left out (see `damaged_tables`), never fatal."""
        tables = []
        for row in await self.store.games_in_guild(guild_id):
            with contextlib.suppress(DamagedGameError):
                tables.append(await self.get(row.id))
        return tables

    async def check_stored(self) -> int:
        """Read every open game's row once at start, keeping none, and isolate each whose columns do not decode,
        so its players are told now (not at their next move) while the start caches only the games it needs.
        Returns how many were isolated. Damage only the rules can see (a state they refuse) is met at first use."""
        found = 0
        for table_id in await self.store.game_ids(("lobby", "active")):
            if table_id in self.cache or table_id in self.damaged:
                continue
            row = await self.store.load_game(table_id)
            if row is not None and row.error is not None:
                await self._isolate(row, ValueError(row.error))
                found += 1
        return found

    async def running_tables(self, game: str | None = None, ids: list[int] | None = None) -> list[Table]:
        """Every running game (of one kind, or of ``ids``) that loads; each damaged one is isolated and skipped."""
        tables = []
        # By game in the query: The Floor's start loads its own games, not every running game (each stays cached).
        for table_id in await self.store.game_ids(("active",), game) if ids is None else ids:
            try:
                table = await self.get(table_id)
            except DamagedGameError:
                continue
            if game is None or table.game == game:
                tables.append(table)
        return tables
