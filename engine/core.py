"""The async engine around the pure rules: lobbies, moves, versions and the write path.

`Engine` is assembled from parts that each live in their own module: turn clocks and action timers
(engine/timers.py), bot seats (engine/bots.py), the log and records (engine/log.py), the scheduler
(engine/scheduler.py), one lock per game (engine/locks.py); time controls, policies, vacations, undo and admin
acts are functions over a table in engine/clock.py, policies.py, vacation.py, undo.py and admin.py.

Every change to a game goes through here: one `asyncio.Lock` per game, the caller's version checked, the pure
``apply`` run, then the new snapshot, its action and its deadline changes written in one transaction (one round
trip to the store: the engine keeps each open game's deadlines itself, and content fixed for the whole game is
stored once and referenced, see `SharedContent`). Time
enters the rules only as actions (a turn that times out is logged as the seat's default action, source
``timer``), so a game replays exactly from ``new(seed)`` and its log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from engine import admin as adm
from engine import clock
from engine import policies as pol
from engine import results as res
from engine import vacation as vac
from engine.bots import BotSeats
from engine.clock import TURN_KINDS
from engine.errors import (
    ChannelBusyError,
    DamagedGameError,
    GameNotFoundError,
    GameOverError,
    LobbyError,
    NotSeatedError,
    PermissionDeniedError,
    StaleVersionError,
    unavailable,
)
from engine.floor_content import FloorContent
from engine.locks import TableLocks
from engine.log import GameLog
from engine.queries import Queries
from engine.scheduler import Scheduler
from engine.services import SettingsService
from engine.shared import Known, SharedContent
from engine.tables import (
    CLOSED_STATUSES,
    GUEST_SEAT,
    ActResult,
    Listener,
    Notice,
    SeatInfo,
    Table,
    outcome_from_json,
    utcnow,
)
from engine.timers import ACTION_TIMER, LOBBY_EXPIRY, TurnTimers
from engine.tournaments import TOURNAMENT
from rules.base import Game, RulesError
from rules.rng import new_seed
from storage import ActionRow, DeadlineRow, GameRow, StorageConflictError, StorageError, Store

log = logging.getLogger(__name__)

LOBBY_OPTIONS = "lobby_options"  # meta: the options as the lobby set them, before defaults were filled in


class Engine(TurnTimers, BotSeats, GameLog, Scheduler):
    def __init__(
        self,
        store: Store,
        *,
        games: dict[str, Game] | None = None,
        now: Callable[[], datetime] = utcnow,
        lobby_minutes: int = 60,
        reminder_fraction: float = 0.5,
        tick_seconds: float = 5.0,
    ) -> None:
        if games is None:
            from rules import GAMES

            games = GAMES
        self.store = store
        self.games = games
        self.now = now
        self.lobby_minutes = lobby_minutes
        self.reminder_fraction = reminder_fraction
        self.tick_seconds = tick_seconds
        self._locks = TableLocks()
        self._cache: dict[int, Table] = {}
        # Each cached table's deadlines: the engine writes and drops every deadline itself, so a move needs no read.
        self._deadlines: dict[int, list[DeadlineRow]] = {}
        self._shared = SharedContent()
        self._known: dict[int, Known] = {}  # each cached table's shared values, by identity (hashed once)
        self._listeners: list[Listener] = []
        self._wake = asyncio.Event()
        self._scheduler: asyncio.Task[None] | None = None
        self.damaged: dict[int, str] = {}  # table id → why its row does not load (isolated, never retried)
        self._failures: dict[int, int] = {}  # deadline id → failed attempts (for the back-off)
        self._closed_hooks: list[Callable[[Table], None]] = []  # told when a game ends (tournaments)
        self._due_sources: list[Callable[[], Awaitable[Any]]] = []  # more work for each scheduler pass
        # The services the surfaces read and write through (they never touch the store).
        self.settings, self.queries = SettingsService(store), Queries(store)
        self.floor_content = FloorContent(store)

    @classmethod
    def from_settings(cls, store: Store, settings: Any, **kw: Any) -> Engine:
        return cls(
            store,
            lobby_minutes=settings.lobby_minutes,
            reminder_fraction=settings.reminder_fraction,
            tick_seconds=settings.tick_seconds,
            **kw,
        )

    # --- loading and saving --------------------------------------------------------------------------

    def _rules(self, game: str) -> Game:
        try:
            return self.games[game]
        except KeyError:
            raise GameNotFoundError("engine.unknown_game", game=game, games=", ".join(sorted(self.games))) from None

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.of(table_id)

    def _from_row(self, row: GameRow) -> Table:
        rules = self._rules(row.game)
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

    # --- shared content: the row holds references, the store each value once --------------------------

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
        if row.id in self._cache:  # kept while the table is: only the values it holds now
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

    async def get(self, table_id: int) -> Table:
        cached = self._cache.get(table_id)
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
        cached = self._cache.get(table_id)
        if cached is not None:  # cached by another task while this read ran (a save, under the game's lock): newer
            return cached
        self._cache[table_id], self._deadlines[table_id] = table, deadlines
        self._known[table_id] = {id(value): (value, digest) for digest, value in values.items()}
        return table

    def _forget(self, table_id: int) -> None:
        self._cache.pop(table_id, None)
        self._deadlines.pop(table_id, None)
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
            await self._notify(Notice("damaged", self._shell(row), {"reason": reason}))

    def _shell(self, row: GameRow) -> Table:
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

    async def _save(
        self,
        old: Table,
        new: Table,
        *,
        action: ActionRow | None = None,
        drop: Iterable[int] = (),
        add: Iterable[DeadlineRow] = (),
        bump: bool = True,
        clear: bool = False,
        finish: res.Finish | None = None,
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
            self._forget(old.id)  # another writer moved on: reload next time
            raise StaleVersionError("engine.stale") from None
        except StorageError as e:
            raise unavailable(e) from None
        except asyncio.CancelledError:
            self._forget(old.id)  # the transaction goes on without us: whether it committed is read next time
            raise
        self._shared.stored(row.shared)
        if new.status in ("lobby", "active"):
            # Read after the write: a deadline the scheduler dropped or moved meanwhile stays as it left it.
            kept = [] if clear else [d for d in self._deadlines.get(new.id, ()) if d.id not in dropped]
            self._cache[new.id], self._deadlines[new.id] = new, kept + added
        else:  # a closed game is read rarely: don't keep every finished game in memory
            self._forget(new.id)
            self._locks.forget(new.id)
            if old.status == "active":
                self._closed(new)
        self._wake.set()
        return new

    async def table_in_channel(self, channel_id: int) -> Table | None:
        """The channel's open game; raises `DamagedGameError` when its row does not load."""
        row = await self.store.open_game_in_channel(channel_id)
        return None if row is None else await self.get(row.id)

    async def last_closed_table_in_channel(self, channel_id: int) -> Table | None:
        """The game that last ended (finished or aborted) in the channel; raises `DamagedGameError` like `get`."""
        row = await self.store.last_game_in_channel(channel_id, CLOSED_STATUSES)
        return None if row is None else await self.get(row.id)

    async def active_tables(self, guild_id: int) -> list[Table]:
        """A server's open games that load; a damaged one is left out (see `damaged_tables`), never fatal."""
        tables = []
        for row in await self.store.games_in_guild(guild_id):
            with contextlib.suppress(DamagedGameError):
                tables.append(await self.get(row.id))
        return tables

    async def damaged_tables(self, guild_id: int) -> list[Table]:
        """A server's open games whose rows do not load, as shells (where they are, who sits there)."""
        out = []
        for row in await self.store.games_in_guild(guild_id):
            if row.id not in self.damaged:
                with contextlib.suppress(DamagedGameError):
                    await self.get(row.id)
            if row.id in self.damaged:
                out.append(self._shell(row))
        return out

    async def damaged_shell(self, table_id: int) -> Table | None:
        """A table isolated as damaged, as a shell (`_shell`); None when it is not damaged or no longer exists."""
        row = await self.store.load_game(table_id) if table_id in self.damaged else None
        return None if row is None else self._shell(row)

    async def running_tables(self, game: str | None = None, ids: list[int] | None = None) -> list[Table]:
        """Every running game (of one kind, or of ``ids``) that loads; each damaged one is isolated and skipped."""
        tables = []
        for table_id in await self.store.game_ids(("active",)) if ids is None else ids:
            try:
                table = await self.get(table_id)
            except DamagedGameError:
                continue
            if game is None or table.game == game:
                tables.append(table)
        return tables

    async def games_of(self, user_id: int, guild_id: int | None = None,
                       ) -> list[tuple[Table, list[DeadlineRow], datetime]]:
        """The running games ``user_id`` sits in (on one server, or on every one with ``None``), each with its
        deadlines and since when it has waited for them (`clock.TURN_SINCE`: when it became their move; for a game
        saved before that was kept, its last move, else its lobby's opening): `/mygames`.
        Damaged games are left out; the cache is checked again, being newer than the query."""
        out = []
        for table_id, changed in await self.store.games_of_user(user_id, guild_id):
            with contextlib.suppress(DamagedGameError):
                table = await self.get(table_id)
                seat = table.seat_of(user_id)
                if table.status == "active" and seat is not None:
                    waited = [seat] if seat in table.to_move() else sorted(table.to_move())
                    known = [x for x in (clock.since_of(table.meta, s) for s in waited) if x is not None]
                    since = min(known, default=changed)  # a game saved before turn_since existed: its last move
                    out.append((table, list(self._deadlines.get(table_id, ())), since))
        return out

    def view(self, table: Table, seat: int | None) -> dict[str, Any]:
        if table.state is None:
            return {"game": table.game, "phase": "lobby", "players": len(table.seats), "viewer": seat}
        return table.rules.view(table.state, seat)

    async def set_meta(self, table_id: int, **kv: Any) -> Table:
        async with self._lock(table_id):
            table = await self.get(table_id)
            # Surface bookkeeping (message ids) changes nothing a player sees: buttons must stay valid.
            return await self._save(table, replace(table, meta={**table.meta, **kv}), bump=False)

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

    # --- lobby ---------------------------------------------------------------------------------------

    async def open_lobby(
        self,
        game: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host: SeatInfo,
        options: dict[str, Any] | None = None,
        seed: str | None = None,
    ) -> Table:
        rules = self._rules(game)
        # The server's defaults (engine/admin.py): timeout policy, correspondence days, the lobby's lifetime.
        options, default, minutes = await adm.lobby_defaults(self, guild_id, dict(options or {}))
        # Unknown or bad options fail now, not at Start; the play settings are the table's, not the rules'.
        options, given, settings = pol.check_options(rules, options, default)
        now = self.now()
        row = GameRow(
            id=0, game=game, guild_id=guild_id, channel_id=channel_id, host_id=host.user_id or 0,
            status="lobby", options=options, seed=seed or new_seed(), seats=[host.to_json()], version=0, moves=0,
            state=None, meta={pol.PLAY: settings.to_json(), pol.PLAY_GIVEN: given, adm.LOBBY_MINUTES: minutes},
            outcome=None, created_at=now, updated_at=now,
        )
        expiry = DeadlineRow(game_id=0, kind=LOBBY_EXPIRY, due_at=now + timedelta(minutes=minutes))
        row = self._pack(row)
        try:
            table_id = await self.store.insert_game(row, [expiry])
        except StorageConflictError:
            raise ChannelBusyError("engine.channel_busy") from None
        except StorageError as e:
            raise unavailable(e) from None
        self._shared.stored(row.shared)
        self._wake.set()
        return await self.get(table_id)

    async def _lobby(self, table_id: int, version: int | None = None) -> Table:
        table = await self.get(table_id)
        if table.status != "lobby":
            raise LobbyError("engine.lobby_not_open")
        if version is not None and version != table.version:
            raise StaleVersionError("engine.stale")
        return table

    async def join(self, table_id: int, user: SeatInfo, *, version: int | None = None) -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id, version)
            if table.seat_of(user.user_id) is not None:
                raise LobbyError("engine.lobby_already_joined")
            if len(table.seats) >= table.rules.max_players:
                raise LobbyError("engine.lobby_full", max=table.rules.max_players)
            return await self._save(table, replace(table, seats=[*table.seats, user]))

    async def leave(self, table_id: int, user_id: int, *, version: int | None = None) -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id, version)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeatedError("engine.not_seated")
            if user_id == table.host_id:
                return await self._close(table, "aborted", reason="host_left")
            seats = [s for i, s in enumerate(table.seats) if i != seat]
            return await self._save(table, replace(table, seats=seats))

    async def add_bot(self, table_id: int, by_user_id: int, *, version: int | None = None) -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id, version)
            if by_user_id != table.host_id and table.seat_of(by_user_id) is None:
                raise NotSeatedError("engine.not_seated")
            if len(table.seats) >= table.rules.max_players:
                raise LobbyError("engine.lobby_full", max=table.rules.max_players)
            n = sum(1 for s in table.seats if s.bot) + 1
            return await self._save(table, replace(table, seats=[*table.seats, SeatInfo(None, f"Bot {n}", True)]))

    async def start(self, table_id: int, by_user_id: int, *, version: int | None = None) -> Table:
        async with self._lock(table_id):
            table = await self._lobby(table_id, version)
            if by_user_id != table.host_id:
                raise PermissionDeniedError("engine.lobby_host_only")
            if len(table.seats) < table.rules.min_players:
                raise LobbyError("engine.lobby_not_enough", min=table.rules.min_players, count=len(table.seats))
            return await self._started(table)

    async def _started(self, table: Table) -> Table:
        """Deal the game and start every clock (under the game's lock)."""
        rules, players = table.rules, len(table.seats)
        options = rules.normalize_options(players, table.options)
        state = rules.new(players, options, table.seed)
        # The options as the lobby set them are kept: a rematch with another player count must not inherit
        # defaults derived from this one (The Floor's number of sides).
        meta = {**table.meta, LOBBY_OPTIONS: {**table.options, **table.meta.get(pol.PLAY_GIVEN, {})}}
        started = replace(table, status="active", options=options, state=state, meta=meta)
        started = replace(started, meta=clock.waiting_since(meta, frozenset(), started.to_move(), self.now()))
        started, paused = await vac.at_start(self, started)  # a player on vacation starts with no clock
        sweep = await adm.sweep_rows(self, started)  # the abandoned-games check
        return await self._save(table, started, clear=True,
                                add=[*self._turn_deadlines(started, keep=set()), *paused, *sweep])

    async def open_table(self, game: str, *, guild_id: int | None, channel_id: int, seats: list[SeatInfo],
                         options: dict[str, Any] | None = None, seed: str | None = None,
                         meta: dict[str, Any] | None = None) -> Table:
        """A game seated and started at once, with no lobby (a tournament's table): the seats in seat order."""
        rules = self._rules(game)
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise LobbyError("engine.lobby_not_enough", min=rules.min_players, count=len(seats))
        options, default, _ = await adm.lobby_defaults(self, guild_id, dict(options or {}))
        options, given, settings = pol.check_options(rules, options, default)
        now = self.now()
        host = next((s.user_id for s in seats if s.user_id is not None), 0)
        row = GameRow(
            id=0, game=game, guild_id=guild_id, channel_id=channel_id, host_id=host or 0, status="lobby",
            options=options, seed=seed or new_seed(), seats=[s.to_json() for s in seats], version=0, moves=0,
            state=None, meta={pol.PLAY: settings.to_json(), pol.PLAY_GIVEN: given, **(meta or {})}, outcome=None,
            created_at=now, updated_at=now,
        )
        row = self._pack(row)
        try:
            table_id = await self.store.insert_game(row, [])
        except StorageConflictError:
            raise ChannelBusyError("engine.channel_busy") from None
        except StorageError as e:
            raise unavailable(e) from None
        self._shared.stored(row.shared)
        async with self._lock(table_id):
            return await self._started(await self.get(table_id))

    async def abort(self, table_id: int, user_id: int, *, is_admin: bool = False) -> Table:
        async with self._lock(table_id):
            table = await self.get(table_id)
            if table.status not in ("lobby", "active"):
                raise GameOverError("engine.not_running")
            if table.meta.get(TOURNAMENT) and not is_admin:  # a tournament's game: its result counts
                raise PermissionDeniedError("engine.tournament_game")
            if user_id != table.host_id and not is_admin:
                raise PermissionDeniedError("engine.host_or_admin")
            return await self._close(table, "aborted", reason="aborted")

    async def abort_damaged(self, table_id: int, user_id: int, *, is_admin: bool = False) -> None:
        """Close a damaged game without loading it (the host or an admin); its row stays for an export."""
        row = await self.store.load_game(table_id)
        if row is None or table_id not in self.damaged:
            raise GameNotFoundError("engine.no_game", table=table_id)
        if user_id != row.host_id and not is_admin:
            raise PermissionDeniedError("engine.host_or_admin")
        try:
            await self.store.close_damaged(table_id, f"aborted by {user_id}")
        except StorageError as e:
            raise unavailable(e) from None
        self._wake.set()

    async def _close(self, table: Table, status: str, *, reason: str) -> Table:
        return await self._save(table, replace(table, status=status, meta={**table.meta, "closed": reason}),
                                clear=True)

    # --- moves ---------------------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        user_id: int,
        action: str,
        *,
        version: int | None = None,
        interaction_id: int | None = None,
    ) -> ActResult:
        """A player's move. The same interaction delivered twice is answered once and applied once."""
        async with self._lock(table_id):
            try:
                return await self._act(table_id, user_id, action, version, interaction_id)
            except (StaleVersionError, GameOverError, NotSeatedError, RulesError):
                # A redelivered interaction finds the game moved on by its first delivery (and the unique index on
                # interaction ids refuses a second row): only then is it worth looking up, not on every move.
                done = None if interaction_id is None else await self.store.action_by_interaction(interaction_id)
                if done is None:
                    raise
                table = await self.get(done.game_id)
                return ActResult(table, done.seat, done.action, [], duplicate=True, outcome=table.outcome)

    async def _act(self, table_id: int, user_id: int, action: str, version: int | None,
                   interaction_id: int | None) -> ActResult:
        table = await self.get(table_id)
        if table.status == "lobby":
            raise GameOverError("engine.not_started")
        if table.status != "active":
            raise GameOverError("engine.not_running")
        words = action.split()
        if words and words[0].lower() in getattr(table.rules, "ENGINE_VERBS", ()):
            raise PermissionDeniedError("engine.timer_only", verb=words[0][:20])  # a timeout is the clock's alone
        seat = table.seat_of(user_id)
        if seat is None:  # a member without a seat acts only where the rules allow it, as the table, named
            seat, action = GUEST_SEAT, self._guest_action(table, user_id, action)
        elif pol.is_away(table.meta, seat):  # any move of theirs brings an absent player back, even a refused one
            table = await self._back(table, seat)
        if version is not None and version != table.version:
            raise StaleVersionError("engine.stale")
        return await self._apply(table, seat, action, source="player", user_id=user_id,
                                 interaction_id=interaction_id)

    async def come_back(self, table_id: int, user_id: int) -> Table:
        """The player is back in this game: no stand-in plays their seat, the missed turns are forgotten and a paused
        game's clocks run again."""
        async with self._lock(table_id):
            table = await self.get(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeatedError("engine.not_seated")
            if table.status != "active" or not pol.is_away(table.meta, seat):
                return table
            return await self._back(table, seat)

    async def _back(self, table: Table, seat: int) -> Table:
        back = replace(table, meta=pol.came_back(table.meta, seat))
        timed = {d.seat for d in self._deadlines.get(table.id, []) if d.kind in TURN_KINDS}
        return await self._save(table, back, add=self._turn_deadlines(back, keep=timed), bump=False)

    @staticmethod
    def _guest_action(table: Table, user_id: int, action: str) -> str:
        """Optional rules hook ``guest_action(state, user_id, action) -> str | None`` (The Floor: a referee's or a
        spectator's vote, ``judge accept user:<id>``): the action the table applies for the member (`GUEST_SEAT`),
        logged and replayed like any other; the rules accept it from that seat only, so no player can forge it."""
        hook = getattr(table.rules, "guest_action", None)
        guest = hook(table.state, user_id, action) if hook is not None and table.state is not None else None
        if guest is None:
            raise NotSeatedError("engine.not_seated")
        return guest

    async def resign(self, table_id: int, user_id: int, *, interaction_id: int | None = None) -> ActResult:
        return await self.act(table_id, user_id, "resign", interaction_id=interaction_id)

    async def _apply(
        self,
        table: Table,
        seat: int,
        action: str,
        *,
        source: str,
        user_id: int | None = None,
        interaction_id: int | None = None,
        meta: dict[str, Any] | None = None,
    ) -> ActResult:
        rules = table.rules
        text = rules.notation(table.state, action)  # one spelling per move in the log, whatever was typed
        state, events = rules.apply(table.state, seat, text)  # raises RulesError: nothing is saved
        outcome = rules.outcome(state)
        after = replace(
            table, state=state, moves=table.moves + 1, outcome=outcome,
            status="finished" if outcome is not None else "active", meta=self._meta_after(table, seat, text, source,
                                                                                           meta),
        )
        after = replace(after, meta=clock.waiting_since(after.meta, table.to_move(), after.to_move(), self.now()))
        after, finish = res.settle(table, after, seat, source, self.now())  # results and ratings, if it ended
        existing = self._deadlines.get(table.id, [])
        if seat >= 0:  # the actor's time bank keeps what was left of this turn, plus the bonus
            settings = pol.settings_of(after.meta)
            after = replace(after, meta=clock.settle(after.meta, settings, seat, clock.due_of(existing, seat),
                                                     self.now()))
        drop, keep = self._stale_turn_deadlines(existing, after, seat)
        add = self._turn_deadlines(after, keep=keep)
        # An action timer was armed for the position before this move: whatever it was for has changed.
        drop += [d.id for d in existing if d.kind == ACTION_TIMER and d.id is not None]
        row = ActionRow(table.id, after.moves, seat, text, source, user_id, interaction_id, self.now())
        saved = await self._save(table, after, action=row, drop=drop, add=add, finish=finish)
        return ActResult(saved, seat, text, events, outcome=outcome, source=source)

    @staticmethod
    def _meta_after(table: Table, seat: int, text: str, source: str, meta: dict[str, Any] | None) -> dict[str, Any]:
        """The absence bookkeeping a move changes: its player is back (missed turns, stand-in, pause cleared), and
        a resignation leaves the seat out of who is waited for."""
        out = table.meta if meta is None else meta
        if source == "player" and seat >= 0 and pol.is_away(out, seat):
            out = pol.came_back(out, seat)
        if text == "resign":
            out = {**out, pol.LEFT: sorted({*out.get(pol.LEFT, ()), seat})}
        return out

    # --- settings ------------------------------------------------------------------------------------

    async def guild_setting(self, guild_id: int, key: str, default: Any = None) -> Any:
        return await self.settings.guild_setting(guild_id, key, default)

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self.settings.set_guild_setting(guild_id, key, value)

    async def guild_locale(self, guild_id: int) -> str | None:
        return await self.guild_setting(guild_id, "locale")

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> None:
        await self.set_guild_setting(guild_id, "locale", locale)
