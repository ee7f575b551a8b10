"""The async engine around the pure rules: lobbies, moves, versions and the write path.

`Engine` is built by composition over one table book (engine/book.py: the loaded games, their locks, load and
save): turn clocks and action timers (engine/timers.py), the move path and timeouts (engine/moves.py), bot seats
(engine/bots.py), the log and records (engine/log.py) and the scheduler (engine/scheduler.py, which fires each
deadline kind through the handler its part registered). Admin acts, undo and vacations are functions over those
parts (engine/admin.py, undo.py, vacation.py; engine/parts.py says what they use). `Engine` keeps the public API
the surfaces call, delegating to its parts; the lobby lives here.

Every change to a game goes through the book: one `asyncio.Lock` per game, the caller's version checked, the pure
``apply`` run, then the new snapshot, its action and its deadline changes written in one transaction. Time enters
the rules only as actions (a turn that times out is logged as the seat's default action, source ``timer``), so a
game replays exactly from ``new(seed)`` and its log.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import rules
from engine import admin as adm
from engine import clock
from engine import policies as pol
from engine import vacation as vac
from engine.book import TableBook
from engine.bots import BotSeats, Offload
from engine.errors import (
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
from engine.log import GameLog
from engine.matchmaking import Matchmaker
from engine.meta import LOBBY_OPTIONS, TOURNAMENT
from engine.moves import Moves
from engine.queries import Queries
from engine.scheduler import Firing, Scheduler
from engine.services import SettingsService
from engine.tables import (
    CLOSED_STATUSES,
    GUEST_SEAT,
    ActResult,
    Listener,
    Listeners,
    Notice,
    SeatInfo,
    Table,
    utcnow,
)
from engine.timers import LOBBY_EXPIRY, TurnTimers
from rules.base import Game, RulesError
from rules.rng import new_seed
from storage import DeadlineRow, GameRow, QueueRow, StorageError, Store

log = logging.getLogger(__name__)


class Engine:
    """The games of one store: the parts below, assembled over one table book."""

    def __init__(
        self,
        store: Store,
        *,
        games: dict[str, Game] | None = None,
        now: Callable[[], datetime] = utcnow,
        lobby_minutes: int = 60,
        reminder_fraction: float = 0.5,
        tick_seconds: float = 5.0,
        offload: Offload | None = None,
    ) -> None:
        self.store = store
        self.games = rules.GAMES if games is None else games  # the registry loads now, not when engine is imported
        self.now = now
        self.lobby_minutes = lobby_minutes
        self.listeners = Listeners()
        self.book = TableBook(store, self.games, now, self.listeners.notify)
        self.timers = TurnTimers(self.book, reminder_fraction)
        self.moves = Moves(self.book, self.timers)
        self.bots = BotSeats(self.book, self.moves, offload)  # offload: where bots think (engine/bots.py)
        self.records = GameLog(self.book)
        self.scheduler = Scheduler(self.book, self.listeners, tick_seconds)
        self.scheduler.firings.update({
            **self.timers.firings(), **self.moves.firings(after=self._bots_after),
            LOBBY_EXPIRY: Firing(self._expire, keeps_row=True), **adm.firings(self), **vac.firings(self),
        })
        # The services the surfaces read and write through (they never touch the store).
        self.settings, self.queries = SettingsService(store), Queries(store)
        self.floor_content = FloorContent(store)
        self.matchmaking = Matchmaker(self)  # /queue and /challenge (engine/matchmaking.py)

    @classmethod
    def from_settings(cls, store: Store, settings: Any, **kw: Any) -> Engine:
        return cls(
            store,
            lobby_minutes=settings.lobby_minutes,
            reminder_fraction=settings.reminder_fraction,
            tick_seconds=settings.tick_seconds,
            **kw,
        )

    # --- the parts' settings and state, as the surfaces and tests have always read them --------------------------

    @property
    def damaged(self) -> dict[int, str]:
        """Table id → why its row does not load (isolated, never retried)."""
        return self.book.damaged

    @property
    def reminder_fraction(self) -> float:
        return self.timers.reminder_fraction

    @property
    def tick_seconds(self) -> float:
        return self.scheduler.tick_seconds

    @tick_seconds.setter
    def tick_seconds(self, value: float) -> None:
        self.scheduler.tick_seconds = value

    # A test stands in for the scheduler's pass or its firing of one row on the Engine: both are the scheduler's.
    @property
    def run_due(self) -> Callable[[], Awaitable[list[Notice]]]:
        """``await engine.run_due()``: fire every deadline due now; returns the notices sent."""
        return self.scheduler.run_due

    @run_due.setter
    def run_due(self, value: Callable[[], Awaitable[list[Notice]]]) -> None:
        self.scheduler.run_due = value  # type: ignore[method-assign]

    @property
    def _fire(self) -> Callable[[DeadlineRow], Awaitable[Notice | None]]:
        return self.scheduler.fire

    @_fire.setter
    def _fire(self, value: Callable[[DeadlineRow], Awaitable[Notice | None]]) -> None:
        self.scheduler.fire = value  # type: ignore[method-assign]

    @property
    def _deadlines(self) -> dict[int, list[DeadlineRow]]:
        return self.book.deadlines

    @property
    def _scheduler(self) -> Any:
        return self.scheduler.task

    # --- delegated to the parts ------------------------------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        return await self.book.get(table_id)

    def clocks(self, table: Table) -> dict[int, datetime]:
        return self.timers.clocks(table)

    async def arm_timer(self, table_id: int, *, version: int, seat: int, action: str, due_at: datetime,
                        meta: dict[str, Any] | None = None) -> bool:
        return await self.timers.arm_timer(table_id, version=version, seat=seat, action=action, due_at=due_at,
                                           meta=meta)

    async def timer_due(self, table_id: int) -> datetime | None:
        return await self.timers.timer_due(table_id)

    async def play_bots(self, table_id: int) -> list[ActResult]:
        return await self.bots.play(table_id)

    async def record(self, table_id: int) -> str:
        return await self.records.record(table_id)

    def add_listener(self, listener: Listener) -> None:
        self.listeners.add(listener)

    def add_due_source(self, source: Callable[[], Awaitable[Any]]) -> None:
        self.scheduler.add_due_source(source)

    def on_closed(self, hook: Callable[[Table], None]) -> None:
        self.book.on_closed(hook)

    async def start_scheduler(self) -> None:
        await self.scheduler.start()

    async def stop(self) -> None:
        await self.scheduler.stop()

    async def _bots_after(self, notice: Notice) -> None:
        """After a timeout, the bots (and stand-ins) to move play at once."""
        notice.data["bots"] = await self.play_bots(notice.table.id)

    async def _expire(self, table: Table, d: DeadlineRow) -> Notice | None:
        """A lobby nobody started in time closes; the row of a lobby that started meanwhile just goes."""
        if table.status == "lobby":
            return Notice("lobby_expired", await self.book.close(table, "aborted", reason="expired"))
        await self.book.drop_deadline(d)
        return None

    # --- reading ---------------------------------------------------------------------------------------------------

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
        return await self.book.active_tables(guild_id)

    async def damaged_tables(self, guild_id: int) -> list[Table]:
        """A server's open games whose rows do not load, as shells (where they are, who sits there)."""
        out = []
        for row in await self.store.games_in_guild(guild_id):
            if row.id not in self.damaged:
                with contextlib.suppress(DamagedGameError):
                    await self.get(row.id)
            if row.id in self.damaged:
                out.append(self.book.shell(row))
        return out

    async def damaged_shell(self, table_id: int) -> Table | None:
        """A table isolated as damaged, as a shell (`_shell`); None when it is not damaged or no longer exists."""
        row = await self.store.load_game(table_id) if table_id in self.damaged else None
        return None if row is None else self.book.shell(row)

    async def check_stored(self) -> int:
        """At start: every open game whose row does not decode is isolated and its players told (`TableBook`)."""
        return await self.book.check_stored()

    async def running_tables(self, game: str | None = None, ids: list[int] | None = None) -> list[Table]:
        """Every running game (of one kind, or of ``ids``) that loads; each damaged one is isolated and skipped."""
        return await self.book.running_tables(game, ids)

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
                    out.append((table, list(self.book.deadlines_of(table_id)), since))
        return out

    def view(self, table: Table, seat: int | None) -> dict[str, Any]:
        return table.view(seat)

    async def set_meta(self, table_id: int, **kv: Any) -> Table:
        async with self.book.editing(table_id) as e:
            # Surface bookkeeping (message ids) changes nothing a player sees: buttons must stay valid.
            return await e.save(replace(e.table, meta={**e.table.meta, **kv}), bump=False)

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
        others: Sequence[SeatInfo] = (),
        meta: dict[str, Any] | None = None,
        deadline: tuple[str, datetime] | None = None,
        take: Sequence[QueueRow] = (),
        drop: Sequence[QueueRow] = (),
    ) -> Table:
        """A new lobby with ``host`` seated, and ``others`` after them (a rematch's bots, a match's players), its
        ``meta`` and its deadline (``(kind, due)``; the lobby's expiry by default) in one write: a restart never finds
        it half seated. A matched lobby takes its queue entries in that write too (`TableBook.insert`)."""
        rules = self.book.rules(game)
        seats = [host, *others]
        if len(seats) > rules.max_players:
            raise LobbyError("engine.lobby_full", max=rules.max_players)
        members = [s.user_id for s in seats if s.user_id is not None]
        if len(set(members)) < len(members):
            raise LobbyError("engine.lobby_already_joined")
        # The server's defaults (engine/admin.py): timeout policy, correspondence days, the lobby's lifetime.
        options, default, minutes = await adm.lobby_defaults(self, guild_id, new_game_options(rules, options))
        # Unknown or bad options fail now, not at Start; the play settings are the table's, not the rules'.
        options, given, settings = pol.check_options(rules, options, default)
        now = self.now()
        row = GameRow(
            id=0, game=game, guild_id=guild_id, channel_id=channel_id, host_id=host.user_id or 0,
            status="lobby", options=options, seed=seed or new_seed(), seats=[s.to_json() for s in seats], version=0,
            moves=0, state=None,
            meta={pol.PLAY: settings.to_json(), pol.PLAY_GIVEN: given, adm.LOBBY_MINUTES: minutes, **(meta or {})},
            outcome=None, created_at=now, updated_at=now,
        )
        kind, due = deadline or (LOBBY_EXPIRY, now + timedelta(minutes=minutes))
        table_id = await self.book.insert(row, [DeadlineRow(game_id=0, kind=kind, due_at=due)], take=take, drop=drop)
        self.book.wake.set()
        return await self.get(table_id)

    async def _lobby(self, table_id: int, version: int | None = None) -> Table:
        table = await self.book.get(table_id, seen=version)
        if table.status != "lobby":
            raise LobbyError("engine.lobby_not_open")
        if version is not None and version != table.version:
            raise StaleVersionError("engine.stale")
        return table

    async def join(self, table_id: int, user: SeatInfo, *, version: int | None = None) -> Table:
        async with self.book.lock(table_id):
            table = await self._lobby(table_id, version)
            if table.seat_of(user.user_id) is not None:
                raise LobbyError("engine.lobby_already_joined")
            if len(table.seats) >= table.rules.max_players:
                raise LobbyError("engine.lobby_full", max=table.rules.max_players)
            return await self.book.save(table, replace(table, seats=[*table.seats, user]))

    async def leave(self, table_id: int, user_id: int, *, version: int | None = None) -> Table:
        async with self.book.lock(table_id):
            table = await self._lobby(table_id, version)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeatedError("engine.not_seated")
            if user_id == table.host_id:
                return await self.book.close(table, "aborted", reason="host_left")
            seats = [s for i, s in enumerate(table.seats) if i != seat]
            return await self.book.save(table, replace(table, seats=seats))

    async def add_bot(self, table_id: int, by_user_id: int, *, version: int | None = None) -> Table:
        async with self.book.lock(table_id):
            table = await self._lobby(table_id, version)
            if by_user_id != table.host_id and table.seat_of(by_user_id) is None:
                raise NotSeatedError("engine.not_seated")
            if len(table.seats) >= table.rules.max_players:
                raise LobbyError("engine.lobby_full", max=table.rules.max_players)
            n = sum(1 for s in table.seats if s.bot) + 1
            return await self.book.save(table, replace(table, seats=[*table.seats, SeatInfo(None, f"Bot {n}", True)]))

    async def start(self, table_id: int, by_user_id: int, *, version: int | None = None) -> Table:
        async with self.book.lock(table_id):
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
        return await self.book.save(table, started, clear=True,
                                    add=[*self.timers.fresh(started, keep=set()), *paused, *sweep])

    async def open_table(self, game: str, *, guild_id: int | None, channel_id: int, seats: list[SeatInfo],
                         options: dict[str, Any] | None = None, seed: str | None = None,
                         meta: dict[str, Any] | None = None, tournament: tuple[int, int, int] | None = None,
                         challenge: int | None = None) -> Table:
        """A game seated and started at once, with no lobby (a tournament's table, an accepted challenge): the
        seats in seat order. As the game is stored, ``tournament`` (id, round, table) links it to its table and
        ``challenge`` is answered with it (`TableBook.insert`)."""
        rules = self.book.rules(game)
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise LobbyError("engine.lobby_not_enough", min=rules.min_players, count=len(seats))
        options, default, _ = await adm.lobby_defaults(self, guild_id, new_game_options(rules, options))
        options, given, settings = pol.check_options(rules, options, default)
        now = self.now()
        host = next((s.user_id for s in seats if s.user_id is not None), 0)
        row = GameRow(
            id=0, game=game, guild_id=guild_id, channel_id=channel_id, host_id=host or 0, status="lobby",
            options=options, seed=seed or new_seed(), seats=[s.to_json() for s in seats], version=0, moves=0,
            state=None, meta={pol.PLAY: settings.to_json(), pol.PLAY_GIVEN: given, **(meta or {})}, outcome=None,
            created_at=now, updated_at=now,
        )
        table_id = await self.book.insert(row, [], tournament=tournament, challenge=challenge)
        return await self.start_seated(table_id)

    async def start_seated(self, table_id: int) -> Table:
        """Start a table stored seated (`open_table`); one a restart found still in its lobby is started then."""
        async with self.book.lock(table_id):
            table = await self.get(table_id)
            return await self._started(table) if table.status == "lobby" else table

    async def abort(self, table_id: int, user_id: int, *, is_admin: bool = False) -> Table:
        async with self.book.lock(table_id):
            table = await self.get(table_id)
            if table.status not in ("lobby", "active"):
                raise GameOverError("engine.not_running")
            if table.meta.get(TOURNAMENT) and not is_admin:  # a tournament's game: its result counts
                raise PermissionDeniedError("engine.tournament_game")
            if user_id != table.host_id and not is_admin:
                raise PermissionDeniedError("engine.host_or_admin")
            return await self.book.close(table, "aborted", reason="aborted")

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
        self.book.wake.set()

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
        async with self.book.lock(table_id):
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
        table = await self.book.get(table_id, seen=version)  # a newer version seen: moved on in another process
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
            table = await self.moves.back(table, seat)
        if version is not None and version != table.version:
            raise StaleVersionError("engine.stale")
        return await self.moves.apply(table, seat, action, source="player", user_id=user_id,
                                      interaction_id=interaction_id)

    async def come_back(self, table_id: int, user_id: int) -> Table:
        """The player is back in this game: no stand-in plays their seat, the missed turns are forgotten and a paused
        game's clocks run again."""
        async with self.book.lock(table_id):
            table = await self.get(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeatedError("engine.not_seated")
            if table.status != "active" or not pol.is_away(table.meta, seat):
                return table
            return await self.moves.back(table, seat)

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

    # --- settings ------------------------------------------------------------------------------------

    async def guild_setting(self, guild_id: int, key: str, default: Any = None) -> Any:
        return await self.settings.guild_setting(guild_id, key, default)

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self.settings.set_guild_setting(guild_id, key, value)

    async def guild_locale(self, guild_id: int) -> str | None:
        return await self.guild_setting(guild_id, "locale")

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> None:
        await self.set_guild_setting(guild_id, "locale", locale)


def new_game_options(rules: Any, options: dict[str, Any] | None) -> dict[str, Any]:
    """A new game's options: the rules' defaults for new games under what the lobby gave. The rules' own default
    for an absent option stays what games made before it played, so a stored game replays exactly from its log."""
    return {**getattr(rules, "new_game_options", {}), **dict(options or {})}
