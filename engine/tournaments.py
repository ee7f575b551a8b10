"""Tournaments in the engine: the director creates each round's games, feeds their results to the pure
`league.tournament.Tournament`, closes a round at its deadline and pairs the next one.

Everything is in storage: the tournament row (its whole value as JSON, written with a version check), the link of
every game it created (written right after each game, so a restart never creates a table twice), and its next
deadline (`due_at`: registration close or the round's end). A game that ends tells the director through the
engine's closed-game hook, which only schedules a reconcile: the reconcile reads every game of the current round
from the engine, so a result missed in a crash is found again at the next start (`catch_up`) or deadline.

Surfaces plug in two things: where a table's game is played (``channels``: Discord makes a thread; the
simulation counts) and what to say (``listeners``: the round is paired, closed, the playoff is seeded ("cut"), the
tournament is over).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from engine import admin as adm
from engine import policies as pol
from engine.core import Engine
from engine.errors import DamagedGameError, GameNotFoundError, PermissionDeniedError
from engine.locks import TableLocks
from engine.meta import TOURNAMENT
from engine.meta import seed_shown as seed_shown  # re-exported: it lived here
from engine.tables import CLOSED_STATUSES, SeatInfo, Table
from league import pairing as league_pairing
from league.model import Entrant, Ranking, Round
from league.settings import Settings, TournamentError
from league.tournament import REGISTRATION, RUNNING, Tournament
from storage import TournamentConflictError, TournamentRow

log = logging.getLogger(__name__)

ROUND_DEADLINE = "round_deadline"  # why a game still running at its round's end was adjudicated
RETRY = timedelta(minutes=10)  # a round that could not close at its deadline is tried again this much later
PAIRING_DEADLINE = 20.0  # seconds a Swiss pairing search may take before the greedy pairing is used instead

Channels = Callable[[TournamentRow, Tournament, Round, int], Awaitable[int]]
TournamentListener = Callable[[str, TournamentRow, Tournament], Awaitable[None]]


@dataclass
class Entry:
    """A tournament as loaded: its row (where, who organises, version) and its value."""

    row: TournamentRow
    value: Tournament


def game_seed(value: Tournament, round_number: int, index: int) -> str:
    """A table's seed, derived from the tournament's secret one by an HMAC: a finished game's record shows its own
    seed, which must not give away the tournament's (and with it every later deal). A score event's games share
    one seed per round: every entrant plays the same deal."""
    which = f"{round_number}" if value.fmt == "score" else f"{round_number}/{index}"
    replays = sum(r.get("table") == index for r in value.rounds[round_number - 1].extra.get("replays", ()))
    which += f"/replay-{replays}" if replays else ""  # a deciding game after a draw gets a deal of its own
    return "tour-" + hmac.new(value.seed.encode(), which.encode(), hashlib.sha256).hexdigest()[:24]


def seat_for(entrant: Entrant) -> SeatInfo:
    """A Discord member's seat (the id is their user id), or a bot's (a simulation's ``bot-N``)."""
    return SeatInfo(int(entrant.id), entrant.name) if entrant.id.isdigit() else SeatInfo(None, entrant.name, True)


class Director:
    def __init__(self, engine: Engine, *, channels: Channels | None = None) -> None:
        self.engine = engine
        self.channels = channels
        self._locks = TableLocks()  # one per tournament, as the engine keeps one per game
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listeners: list[TournamentListener] = []
        self._next_channel = -1  # a table without a surface gets a made-up channel (the simulation, tests)
        engine.on_closed(self._game_closed)
        engine.add_due_source(self.run_due)

    def add_listener(self, listener: TournamentListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: TournamentListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    # --- reading and writing -------------------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> Entry:
        row = await self.engine.store.load_tournament(tournament_id)
        if row is None:
            raise GameNotFoundError("tour.no_tournament", id=tournament_id)
        return Entry(row, Tournament.from_json(row.data))

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.of(tournament_id)

    async def _save(self, entry: Entry, value: Tournament, *, due: Any = "keep",
                    link: list[tuple[int, int, int]] | None = None) -> Entry:
        row = entry.row
        new = replace(row, status=value.status, data=value.to_json(), version=row.version + 1,
                      due_at=row.due_at if due == "keep" else due, updated_at=self.engine.now())
        try:
            await self.engine.store.save_tournament(new, expect_version=row.version, link=link or ())
        except TournamentConflictError:
            raise TournamentError("tour.stale") from None
        return Entry(new, value)

    async def _tell(self, kind: str, entry: Entry) -> None:
        for listener in self._listeners:
            try:
                await listener(kind, entry.row, entry.value)
            except Exception:
                log.exception("tournament listener failed on %s for tournament %s", kind, entry.row.id)

    # --- organising ----------------------------------------------------------------------------------------------

    async def create(self, *, name: str, settings: Settings, guild_id: int | None, channel_id: int,
                     organizer_id: int, seed: str, starts_at: Any = None) -> Entry:
        """A tournament open for registration; ``starts_at`` (optional) closes registration and starts it."""
        value = Tournament(name=name, settings=settings, seed=seed)
        # The games' options are checked now, not when the first round is paired.
        pol.check_options(self.engine.book.rules(settings.game), dict(settings.options))
        now = self.engine.now()
        row = TournamentRow(0, guild_id, channel_id, organizer_id, name, settings.game, REGISTRATION,
                            value.to_json(), 0, starts_at, now, now)
        row.id = await self.engine.store.insert_tournament(row)
        return Entry(row, value)

    async def update(self, tournament_id: int, step: Callable[[Tournament], Tournament]) -> Entry:
        """One pure step (register, drop, check in, award, pause) saved under the tournament's lock."""
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            return await self._save(entry, step(entry.value))

    def organiser_check(self, entry: Entry, user_id: int, *, is_admin: bool) -> None:
        if user_id != entry.row.organizer_id and not is_admin:
            raise PermissionDeniedError("tour.organiser_only")

    async def start(self, tournament_id: int) -> Entry:
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            entry = await self._save(entry, entry.value.start(), due=None)
            entry = await self._next_round(entry)
        await self._tell("started", entry)
        return entry

    async def drop(self, tournament_id: int, player: str) -> Entry:
        """The entrant leaves (or is disqualified): their running game of this round is resigned for them."""
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            entry = await self._save(entry, entry.value.drop(player))
            game_id = self._game_of(entry.value, player)
        if game_id is not None:
            await self._resign(game_id, player)
        return entry

    async def cancel(self, tournament_id: int) -> Entry:
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            entry = await self._save(entry, entry.value.cancel(), due=None)
        await self._tell("cancelled", entry)
        return entry

    async def pause(self, tournament_id: int) -> Entry:
        """Hold the tournament: the round's clock stops (what was left of it is kept) and no round is paired.
        Its games go on; each keeps its own clock."""
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            value = entry.value.set_paused(True)
            rnd = value.current
            if rnd is not None and entry.row.due_at is not None:
                left = max(0.0, (entry.row.due_at - self.engine.now()).total_seconds())
                value = _with_extra(value, rnd, paused_left=left)
            return await self._save(entry, value, due=None)

    async def resume(self, tournament_id: int) -> Entry:
        """Go on: the round's clock runs again with what it had left; a round that completed meanwhile closes."""
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            value = entry.value.set_paused(False)
            rnd = value.current
            due = None
            if rnd is not None and not rnd.complete:
                left = rnd.extra.get("paused_left")
                hours = value.settings.round_hours
                due = self.engine.now() + (timedelta(seconds=left) if isinstance(left, int | float)
                                           else timedelta(hours=hours))
            entry = await self._save(entry, value, due=due)
        return await self.reconcile(tournament_id)

    async def repair(self, tournament_id: int) -> Entry:
        """Re-pair the current round: its games (none decided yet) are aborted and new ones made."""
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            old = entry.value.current
            value = await paired_off_loop(entry.value.repair)
            for game_id in _game_ids(old) if old is not None else []:
                await self._abort(game_id)
            entry = await self._save(entry, replace(value, rounds=value.rounds[:-1]))
            entry = await self._next_round(entry, paired=value)
        return entry

    async def rearrange(self, tournament_id: int, step: Callable[[Tournament], Tournament]) -> Entry:
        """A manual change to the current round's tables (a swap, a forced pairing) while none of its games has a
        move: the changed tables' games are aborted and made again; the round is posted anew."""
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            old = entry.value.current
            value = step(entry.value)
            for game_id in _game_ids(old) if old is not None else []:
                if (await self.engine.get(game_id)).moves:
                    raise TournamentError("tour.games_started")
            assert old is not None and value.current is not None
            # The new tables are saved before the old games close: a crash between leaves those games running
            # but no table's, and the next `_create_games` aborts them. (The other way round, the saved round
            # would still point at aborted games, read as a level result at the next start.)
            entry = await self._save(entry, value)
            for before, after in zip(old.tables, value.current.tables, strict=True):
                if before.seats != after.seats and before.game_id is not None:
                    await self._abort(before.game_id)
            entry = await self._create_games(entry)
        await self._tell("round", entry)
        return entry

    async def award(self, tournament_id: int, round_number: int, table: int, ranking: Ranking) -> Entry:
        """The organiser's result for a table (a running game of it is aborted: the award stands)."""
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            value = entry.value.record(round_number, table, ranking, override=True)
            game_id = entry.value.rounds[round_number - 1].tables[table].game_id
            entry = await self._save(entry, value)
        if game_id is not None:
            await self._abort(game_id)
        await self.reconcile(tournament_id)
        return await self.get(tournament_id)

    # --- rounds --------------------------------------------------------------------------------------------------

    async def _next_round(self, entry: Entry, *, paired: Tournament | None = None) -> Entry:
        """Pair the next round (or finish) and create its games, each linked as soon as it exists. After a
        multi-stage event's first stage the playoff is built and announced first ("cut"), saved on its own so that
        a restart goes on from it."""
        value = entry.value
        if value.playoff_due and not value.paused:
            entry = await self._save(entry, value.next_stage())
            await self._tell("cut", entry)
            value = entry.value
        if value.finished:
            entry = await self._save(entry, value.close(), due=None)
            await self._tell("finished", entry)
            return entry
        if value.paused:
            return entry
        value = paired or await paired_off_loop(value.pair_next)
        due = self.engine.now() + timedelta(hours=value.settings.round_hours)
        entry = await self._save(entry, value, due=due)
        entry = await self._create_games(entry)
        await self._tell("round", entry)
        if entry.value.current is not None and entry.value.current.complete:  # all walkovers and byes
            return await self._after_round(entry)
        return entry

    async def _create_games(self, entry: Entry) -> Entry:
        """A game for every undecided table of the current round that has none yet (also after a crash: a game
        stored before the crash, linked to its table but not yet saved in the tournament, is taken, not made
        again; a running game of the round that no table wants any more is aborted)."""
        rnd = entry.value.current
        assert rnd is not None
        made, strays = await self._made_games(entry, rnd)
        if entry.value.fmt == "score":
            linked = rnd.extra.get("games", {})
            for player in rnd.tables[0].seats if not rnd.tables[0].decided else ():
                if player not in linked:
                    entry = await self._open(entry, rnd, 0, (player,), entrant=player, made=made.pop(player, None))
        else:
            for i, table in enumerate(rnd.tables):
                if table.game_id is None and not table.decided:
                    entry = await self._open(entry, rnd, i, table.seats, made=made.pop(i, None))
        for game_id in [*strays, *made.values()]:  # not taken: its table was rearranged before a crash
            await self._abort(game_id)
        return entry

    async def _made_games(self, entry: Entry, rnd: Round) -> tuple[dict[int | str, int], list[int]]:
        """The round's running games stored (and linked, `Engine.open_table`) but not in the tournament's data: a
        crash came between two writes. Those a table may take, keyed by table index (by entrant in a score
        round), and the others (their table's seats have changed since)."""
        known = {t.game_id for t in rnd.tables if t.game_id is not None}
        known |= {int(g) for g in rnd.extra.get("games", {}).values()}
        known |= {r["game_id"] for r in rnd.extra.get("replays", []) if isinstance(r.get("game_id"), int)}  # drawn
        made: dict[int | str, int] = {}
        strays: list[int] = []
        for game_id in await self.engine.store.tournament_round_games(entry.row.id, rnd.number):
            if game_id in known:
                continue
            try:
                game = await self.engine.get(game_id)
            except DamagedGameError:
                continue  # isolated and announced: the table gets a new game
            if game.status in CLOSED_STATUSES:
                continue  # a game the director closed (a rearranged table's), never one to take
            info = game.meta.get(TOURNAMENT) or {}
            seats = tuple(info.get("seats", ()))
            index = info.get("table")
            key: int | str | None = None
            if entry.value.fmt == "score" and len(seats) == 1:
                key = seats[0]
            elif isinstance(index, int) and 0 <= index < len(rnd.tables) and seats == rnd.tables[index].seats:
                key = index
            if key is None or key in made:
                strays.append(game_id)
            else:
                made[key] = game_id
        return made, strays

    async def _open(self, entry: Entry, rnd: Round, index: int, seats: tuple[str, ...],
                    entrant: str | None = None, made: int | None = None) -> Entry:
        value = entry.value
        if made is not None:
            table = await self.engine.start_seated(made)
        else:
            table = await self._new_game(entry, rnd, index, seats)
        entry = await self._save(entry, value.linked(rnd.number, index, table.id, entrant),
                                 link=[(table.id, rnd.number, index)])
        await self.engine.play_bots(table.id)
        return entry

    async def _new_game(self, entry: Entry, rnd: Round, index: int, seats: tuple[str, ...]) -> Table:
        value = entry.value
        by_id = {e.id: e for e in value.entrants}
        channel = await self._channel(entry, rnd, index)
        options = {**value.settings.options}
        if "rated" in pol.PLAY_KEYS:
            options.setdefault("rated", "yes" if value.settings.rated else "no")
        seed = game_seed(value, rnd.number, index)
        meta = {TOURNAMENT: {"id": entry.row.id, "round": rnd.number, "table": index, "seats": list(seats),
                             "shared_seed": value.fmt == "score"}}
        return await self.engine.open_table(value.settings.game, guild_id=entry.row.guild_id, channel_id=channel,
                                            seats=[seat_for(by_id[p]) for p in seats], options=options,
                                            seed=seed, meta=meta, tournament=(entry.row.id, rnd.number, index))

    async def _channel(self, entry: Entry, rnd: Round, index: int) -> int:
        if self.channels is not None:
            return await self.channels(entry.row, entry.value, rnd, index)
        while True:  # past the ones an earlier run of this tournament made (a restart starts counting again)
            self._next_channel -= 1
            channel = self._next_channel - entry.row.id * 1_000_000
            if await self.engine.table_in_channel(channel) is None:
                return channel

    async def reconcile(self, tournament_id: int) -> Entry:
        """Record every ended game of the current round; a complete round leads to the next (or the end)."""
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            if entry.value.status != RUNNING:
                return entry
            was_complete = entry.value.current is not None and entry.value.current.complete
            entry = await self._collect(entry, final=False)
            if entry.value.current is None or not entry.value.current.complete:
                return await self._deciding_games(entry)  # a drawn elimination game's deciding game, if any
            # A round that completed before (the tournament was paused between rounds) was announced then.
            return await (self._next_round(entry) if was_complete else self._after_round(entry))

    async def _deciding_games(self, entry: Entry) -> Entry:
        """Games for the current round's tables that have none: a drawn elimination game's deciding game. It gets
        a whole round's window from now (a draw adjudicated at the round's deadline would otherwise leave it the
        10-minute retry), and the surface is told ("replay") to post it as it posts a round's games."""
        rnd = entry.value.current
        before = set(_game_ids(rnd)) if rnd is not None else set()
        entry = await self._create_games(entry)
        rnd = entry.value.current
        if rnd is None or set(_game_ids(rnd)) <= before:
            return entry
        if not entry.value.paused:  # a paused round's clock stays stopped
            window, due = self.engine.now() + timedelta(hours=entry.value.settings.round_hours), entry.row.due_at
            entry = await self._save(entry, entry.value, due=window if due is None or due < window else due)
        await self._tell("replay", entry)
        return entry

    async def _after_round(self, entry: Entry) -> Entry:
        await self._tell("round_closed", entry)
        return await self._next_round(entry)

    async def _collect(self, entry: Entry, *, final: bool) -> Entry:
        """Results of the current round's ended games (``final``: the round's deadline has passed, so a score
        round ranks whoever has not finished as missing)."""
        value, rnd = entry.value, entry.value.current
        if rnd is None:
            return entry
        if value.fmt == "score":
            return await self._collect_scores(entry, rnd, final=final)
        for i, table in enumerate(rnd.tables):
            if table.decided or table.game_id is None:
                continue
            game = await self._closed_game(table.game_id)
            if game is not None:
                value = value.record(rnd.number, i, ranking_of(game, table.seats))
        return entry if value is entry.value else await self._save(entry, value)

    async def _collect_scores(self, entry: Entry, rnd: Round, *, final: bool) -> Entry:
        if rnd.tables[0].decided:
            return entry
        scores, missing = {}, []
        for player in rnd.tables[0].seats:
            game_id = rnd.extra.get("games", {}).get(player)
            game = None if game_id is None else await self._closed_game(game_id)
            if game is not None and game.outcome is not None:
                scores[player] = event_score(game)
            else:
                missing.append(player)
        if missing and not final:
            return entry
        return await self._save(entry, entry.value.record_scores(rnd.number, scores, missing))

    async def _closed_game(self, game_id: int) -> Table | None:
        try:
            game = await self.engine.get(game_id)
        except DamagedGameError:
            return None
        return game if game.status in CLOSED_STATUSES else None

    async def run_due(self) -> None:
        """Tournaments whose deadline passed: registration closes (the start), or the round ends — its games
        still running are adjudicated, then its results are collected and the next round paired."""
        for tournament_id in await self.engine.store.due_tournaments(self.engine.now()):
            try:
                await self._deadline(tournament_id)
            except TournamentError as e:
                log.warning("tournament %s at its deadline: %s", tournament_id, e)
                await self._clear_due(tournament_id)

    async def _deadline(self, tournament_id: int) -> None:
        entry = await self.get(tournament_id)
        if not self.engine.scheduler.owns(entry.row.guild_id):
            return  # another bot process holds that guild's shard: its round ends there, once
        if entry.value.status == REGISTRATION:
            try:
                await self.start(tournament_id)
            except TournamentError:
                await self.cancel(tournament_id)  # too few entrants by the start time
            return
        rnd = entry.value.current
        if entry.value.status != RUNNING or rnd is None or entry.value.paused:
            await self._clear_due(tournament_id)
            return
        for game_id in _game_ids(rnd):
            game = await self._closed_game(game_id)
            if game is None:
                await self._adjudicate(game_id)
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            current = entry.value.current
            if current is None or current.number != rnd.number:
                return  # the adjudications' own reconcile already closed this round
            entry = await self._collect(entry, final=True)
            if entry.value.current is not None and entry.value.current.complete:
                await self._after_round(entry)
            else:  # a game that could not be adjudicated, or a deciding game after a draw: try again later
                entry = await self._deciding_games(entry)
                retry, due = self.engine.now() + RETRY, entry.row.due_at  # a deciding game keeps its own window
                await self._save(entry, entry.value, due=retry if due is None or due < retry else due)

    async def _clear_due(self, tournament_id: int) -> None:
        async with self._lock(tournament_id):
            entry = await self.get(tournament_id)
            await self._save(entry, entry.value, due=None)

    async def catch_up(self) -> int:
        """At start-up: every running tournament catches up with games that ended while it was not told."""
        count = 0
        for tournament_id in await self.engine.store.running_tournament_ids():
            try:
                if not self.engine.scheduler.owns((await self.get(tournament_id)).row.guild_id):
                    continue  # another bot process's guild (its shards): it catches up there
                entry = await self.reconcile(tournament_id)
                if entry.value.status == RUNNING and entry.value.current is not None:
                    async with self._lock(tournament_id):
                        await self._create_games(await self.get(tournament_id))
                count += 1
            except Exception:
                log.exception("tournament %s could not be resumed", tournament_id)
        return count

    # --- the games -----------------------------------------------------------------------------------------------

    def _game_closed(self, table: Table) -> None:
        info = table.meta.get(TOURNAMENT)
        if not isinstance(info, dict) or not isinstance(info.get("id"), int):
            return
        task = asyncio.get_running_loop().create_task(self._reconcile_quietly(info["id"]))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reconcile_quietly(self, tournament_id: int) -> None:
        try:
            await self.reconcile(tournament_id)
        except Exception:
            log.exception("tournament %s could not take a game's result", tournament_id)

    async def settle(self) -> None:
        """Wait until every reconcile a game's end started has run (tests, the simulation)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _game_of(self, value: Tournament, player: str) -> int | None:
        rnd = value.current
        if rnd is None:
            return None
        if value.fmt == "score":
            return rnd.extra.get("games", {}).get(player)
        return next((t.game_id for t in rnd.tables if player in t.seats and not t.decided), None)

    async def _resign(self, game_id: int, player: str) -> None:
        try:
            game = await self.engine.get(game_id)
            if game.status == "active" and player.isdigit():
                await self.engine.act(game_id, int(player), "resign")
        except Exception:
            log.exception("could not resign %s in game %s", player, game_id)

    async def _abort(self, game_id: int) -> None:
        try:
            game = await self.engine.get(game_id)
            if game.status in ("lobby", "active"):  # a lobby: stored, not yet started when a crash came
                await self.engine.abort(game_id, 0, is_admin=True)
        except Exception:
            log.exception("could not abort game %s", game_id)

    async def _adjudicate(self, game_id: int) -> None:
        try:
            await adm.adjudicate(self.engine, game_id, by=None, reason=ROUND_DEADLINE)
        except Exception:
            log.exception("could not adjudicate game %s at its round's deadline", game_id)


async def paired_off_loop(step: Callable[[], Tournament]) -> Tournament:
    """Run a step that pairs a round off the event loop: pairing is CPU-bound (4.9 s at 512 entrants, and pairing-core
    ignores its budget: 71 s at 1,024), so a worker thread waits on a child process that is killed at
    PAIRING_DEADLINE (`league.pairing.bounded`), and the loop keeps serving moves meanwhile."""
    def run() -> Tournament:
        with league_pairing.bounded(PAIRING_DEADLINE):
            return step()

    return await asyncio.to_thread(run)


def event_score(game: Table) -> float:
    """A finished solo game's score in a score event: the rules' ``event_score(state)`` when they define one
    (Floating World: how fast the world was sealed), else the outcome's score."""
    hook = getattr(game.rules, "event_score", None)
    if hook is not None and game.state is not None:
        return float(hook(game.state))
    assert game.outcome is not None
    return float(game.outcome.scores[0])


def _with_extra(value: Tournament, rnd: Round, **extra: Any) -> Tournament:
    new = replace(rnd, extra={**rnd.extra, **extra})
    return replace(value, rounds=(*value.rounds[:-1], new))


def _game_ids(rnd: Round) -> list[int]:
    ids = [t.game_id for t in rnd.tables if t.game_id is not None and not t.decided]
    return ids + [int(g) for g in rnd.extra.get("games", {}).values()]


def ranking_of(game: Table, seats: tuple[str, ...]) -> Ranking:
    """A closed game's result in entrant ids: the rules' ranking when it finished; when it was adjudicated, who
    led (by the standings it recorded) and the others, seats that resigned last; otherwise all level."""
    if game.outcome is not None and game.outcome.ranking:
        groups = [tuple(seats[s] for s in group if 0 <= s < len(seats)) for group in game.outcome.ranking]
        placed = {p for g in groups for p in g}
        rest = tuple(p for p in seats if p not in placed)
        return tuple(g for g in (*groups, rest) if g)
    verdict = game.meta.get(adm.ADJUDICATED) or {}
    left = {s for s in game.meta.get(pol.LEFT, ()) if isinstance(s, int)}
    scores = verdict.get("scores")
    live = [s for s in range(len(seats)) if s not in left]
    if isinstance(scores, list) and len(scores) == len(seats):
        values = sorted({scores[s] for s in live}, reverse=True)
        groups = [tuple(seats[s] for s in live if scores[s] == v) for v in values]
    else:
        groups = [tuple(seats[s] for s in live)]
    gone = tuple(seats[s] for s in sorted(left))
    return tuple(g for g in (*groups, gone) if g)
