"""Admin tools: what a server's managers (or a game's host) may do to a running game, and the sweep that ends
games nobody plays any more. Functions over the engine's parts (engine/parts.py: its table book and clocks), each
under the game's lock and saved in one write.

- ``extend``: this turn's clocks run ``hours`` longer (every running turn row moves back).
- ``pause`` / ``resume``: meta ``paused`` = ``"admin"`` (engine/policies.py: ``True`` is the everyone-away pause).
  No clock runs and no stand-in plays; players may still move, and a move does not end it (only ``resume``).
  What was left of each running clock is kept and given back on ``resume`` if nobody moved meanwhile.
- ``substitute``: a new member takes a seat (not someone seated already); its missed turns, stand-in and
  vacation are the old owner's and are cleared, and the seat gets a fresh clock. The host passes on with it.
- ``to_bot``: the seat is a bot for good (it keeps its name; the bots play it at once if it is to move).
- ``adjudicate``: the game ends without a normal result: status ``aborted``, meta ``closed`` = ``adjudicated``
  (or ``abandoned``) and meta ``adjudicated`` with the standings when the rules offer them (a ``standings(state)``
  hook, else ``scores`` in the public view), never a winner.

Who did what is kept in the game's own meta (``admin_log``), written with the change: replays read only the
action log, so an admin step can never be replayed as a move, and a seat's history stays readable after a
substitution. Everything is stored (meta and deadline rows): it survives a restart.

Abandoned games: one ``abandon_check`` deadline row per running game of a server, armed at the start. When it
falls due it looks up the last human move (the action log) and either re-arms itself at that move + the server's
``abandon_days`` (30 by default; 0 turns the sweep off) or adjudicates the game (``Notice("abandoned")``). No
write per move: a game that is played only re-arms once every ``abandon_days``. An admin pause or a vacation
holds the sweep off; ``resume`` and ``substitute`` start the count again.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from engine import clock
from engine import parts as pt
from engine import policies as pol
from engine import vacation as vac
from engine.errors import EngineError, GameOverError
from engine.scheduler import Firing
from engine.tables import Notice, SeatInfo, Table
from storage import DeadlineRow

log = logging.getLogger(__name__)

ADMIN = pol.PAUSED_ADMIN  # meta ``paused`` of a pause set by an admin
ADMIN_PAUSE = "admin_pause"  # meta: {"moves": n, "left": {seat: seconds}} while an admin pause lasts
ADMIN_LOG = "admin_log"  # meta: [{"op", "by", "at", ...}], oldest first
ADJUDICATED = "adjudicated"  # meta: {"reason", "by", "scores", "leaders"} of a game ended by adjudication
LOBBY_MINUTES = "lobby_minutes"  # meta of a lobby: how long it stays open (the server's value)
ABANDON_CHECK = "abandon_check"  # deadline kind: is the game abandoned?
ABANDON_DAYS = 30  # a server's default; 0: never
LOG_CAP = 50  # entries kept in a game's admin log
MAX_EXTEND_HOURS = 24 * 30
# The server settings /serverdefaults sets: key → (low, high).
SERVER_DEFAULTS = {"days": (0, max(pol.DAYS)), "vacation_days": (0, 365), "lobby_minutes": (1, 7 * 24 * 60),
                   "abandon_days": (0, 365)}


class Parts(pt.Parts, Protocol):
    """What the admin steps use of the engine (engine/parts.py), and how long a server's lobby stays open."""

    @property
    def lobby_minutes(self) -> int: ...


class AdminError(EngineError):
    """An admin step that does not apply to this game or seat (nothing is changed)."""


# --- the steps --------------------------------------------------------------------------------------------


async def extend(parts: Parts, table_id: int, hours: int, *, by: int | None) -> Table:
    """Every running clock of this turn runs ``hours`` longer."""
    if not 1 <= hours <= MAX_EXTEND_HOURS:
        raise AdminError("gameadmin.bad_hours", low=1, high=MAX_EXTEND_HOURS)
    async with parts.book.lock(table_id):
        table = await _running(parts, table_id)
        rows = _turn_rows(parts, table_id)
        if not rows:
            raise AdminError("gameadmin.no_clock")
        later = [replace(d, id=None, due_at=d.due_at + timedelta(hours=hours)) for d in rows]
        meta = _logged(parts, table.meta, "extend", by, hours=hours)
        return await parts.book.save(table, replace(table, meta=meta), drop=_ids(rows), add=later, bump=False)


async def pause(parts: Parts, table_id: int, *, by: int | None) -> Table:
    """No clock runs and no stand-in plays until ``resume``; what each running clock had left is kept."""
    async with parts.book.lock(table_id):
        table = await _running(parts, table_id)
        if table.meta.get(pol.PAUSED) == ADMIN:
            raise AdminError("gameadmin.already_paused")
        rows, now = _turn_rows(parts, table_id), parts.book.now()
        left = {str(seat): seconds for seat, seconds in clock.time_left(rows, now).items()}
        meta = {**table.meta, pol.PAUSED: ADMIN, ADMIN_PAUSE: {"moves": table.moves, "left": left}}
        meta = _logged(parts, meta, "pause", by)
        return await parts.book.save(table, replace(table, meta=meta), drop=_ids(rows), bump=False)


async def resume(parts: Parts, table_id: int, *, by: int | None) -> Table:
    """End a pause (an admin's, or everyone-away): the clocks run again, each with what it had left if nobody
    moved meanwhile, else a fresh one; the abandonment count starts again."""
    async with parts.book.lock(table_id):
        table = await _running(parts, table_id)
        if not table.meta.get(pol.PAUSED):
            raise AdminError("gameadmin.not_paused")
        meta = {k: v for k, v in table.meta.items() if k not in (pol.PAUSED, ADMIN_PAUSE)}
        back = replace(table, meta=_logged(parts, meta, "resume", by))
        held = table.meta.get(ADMIN_PAUSE) or {}
        left = held.get("left", {}) if held.get("moves") == table.moves else {}
        kept = {int(s): float(v) for s, v in left.items() if int(s) in back.humans_to_move()
                and int(s) not in vac.on_vacation(meta)}
        add = parts.timers.fresh(back, keep=set(kept))
        for seat, seconds in kept.items():
            add += parts.timers.restarted(table_id, seat, seconds)
        drop, sweep = await _fresh_sweep(parts, back)
        return await parts.book.save(table, back, drop=drop, add=add + sweep, bump=False)


async def substitute(parts: Parts, table_id: int, seat: int, new: SeatInfo, *, by: int | None) -> Table:
    """A new member takes the seat, with a fresh clock and none of the old owner's absence bookkeeping."""
    if new.bot or new.user_id is None:
        raise AdminError("gameadmin.not_a_member")
    async with parts.book.lock(table_id):
        table = await _running(parts, table_id)
        old = _seat(table, seat)
        if table.seat_of(new.user_id) is not None:
            raise AdminError("gameadmin.already_seated", name=new.name)
        seats = [new if i == seat else s for i, s in enumerate(table.seats)]
        host = new.user_id if not old.bot and old.user_id == table.host_id else table.host_id
        meta = _logged(parts, _without_absence(pol.came_back(table.meta, seat), seat), "substitute", by,
                       seat=seat, old=old.user_id, new=new.user_id)
        after = replace(table, seats=seats, host_id=host, meta=meta)
        rows = _seat_rows(parts, table_id, seat)
        others = {d.seat for d in _turn_rows(parts, table_id) if d.seat != seat}
        drop, sweep = await _fresh_sweep(parts, after)
        return await parts.book.save(table, after, drop=_ids(rows) + drop,
                                  add=parts.timers.fresh(after, keep=others) + sweep, bump=False)


async def to_bot(parts: Parts, table_id: int, seat: int, *, by: int | None) -> Table:
    """The seat becomes a bot for good (the caller lets the bots play: `Engine.play_bots`)."""
    async with parts.book.lock(table_id):
        table = await _running(parts, table_id)
        old = _seat(table, seat)
        if old.bot:
            raise AdminError("gameadmin.already_bot", seat=seat + 1)
        seats = [SeatInfo(None, old.name, True) if i == seat else s for i, s in enumerate(table.seats)]
        counts = pol.missed(table.meta)
        counts.pop(seat, None)
        meta = pol.with_missed(table.meta, counts)
        meta[pol.STANDINS] = sorted(pol.standins(meta) - {seat})
        meta = _logged(parts, _without_absence(meta, seat), "bot", by, seat=seat, old=old.user_id)
        return await parts.book.save(table, replace(table, seats=seats, meta=meta),
                                  drop=_ids(_seat_rows(parts, table_id, seat)), bump=False)


async def adjudicate(parts: Parts, table_id: int, *, by: int | None, reason: str = "adjudicated") -> Table:
    """End the game without a normal result (``aborted``), with the standings when the rules offer them."""
    async with parts.book.lock(table_id):
        return await _adjudicated(parts, await _running(parts, table_id), by=by, reason=reason)


async def _adjudicated(parts: Parts, table: Table, *, by: int | None, reason: str) -> Table:
    scores = standings(table)
    out = [s for s in table.meta.get(pol.LEFT, ())]
    meta = {**table.meta, ADJUDICATED: {"reason": reason, "by": by, "scores": scores,
                                        "leaders": leaders(scores, out)}}
    meta = _logged(parts, meta, reason, by)
    log.info("game %s %s by %s", table.id, reason, by if by is not None else "the sweep")
    return await parts.book.close(replace(table, meta=meta), "aborted", reason=reason)


def standings(table: Table) -> list[float] | None:
    """The scores so far, one per seat: the rules' ``standings(state)`` if they have one, else ``scores`` in the
    public view; None when the rules offer neither (then nobody is ahead)."""
    hook = getattr(table.rules, "standings", None)
    try:
        raw = hook(table.state) if hook is not None else table.rules.view(table.state, None).get("scores")
    except Exception:  # a view that cannot say: no standings rather than no adjudication
        log.exception("no standings for game %s", table.id)
        return None
    if not isinstance(raw, list | tuple) or len(raw) != len(table.seats):
        return None
    if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in raw):
        return None
    return [float(x) for x in raw]


def leaders(scores: list[float] | None, out: list[int]) -> list[int]:
    """Who was ahead (not a winner: the game did not end normally); nobody when all still in are level."""
    if scores is None:
        return []
    live = [s for s in range(len(scores)) if s not in out]
    top = max((scores[s] for s in live), default=None)
    ahead = [s for s in live if scores[s] == top]
    return [] if len(ahead) == len(live) else ahead


# --- the abandoned-games sweep ---------------------------------------------------------------------------


async def abandon_days(parts: Parts, guild_id: int | None) -> int:
    if guild_id is None:  # a game outside a server (the terminal, a daily challenge) is never swept
        return 0
    value = await parts.guild_setting(guild_id, "abandon_days", ABANDON_DAYS)
    return value if isinstance(value, int) and value >= 0 else ABANDON_DAYS


async def sweep_rows(parts: Parts, table: Table, since: datetime | None = None) -> list[DeadlineRow]:
    """The game's ``abandon_check`` row, counting from ``since`` (now); none when the server turned it off."""
    return await _sweep_rows(parts, table.id, table.guild_id, since)


async def _sweep_rows(parts: Parts, table_id: int, guild_id: int | None,
                      since: datetime | None = None) -> list[DeadlineRow]:
    days = await abandon_days(parts, guild_id)
    if not days:
        return []
    since = since or parts.book.now()
    return [DeadlineRow(table_id, ABANDON_CHECK, since + timedelta(days=days), None, {"since": since.isoformat()})]


async def _sweep_is_current(parts: Parts, table_id: int) -> bool:
    """Whether a game's stored sweep row already is what the setting asks (or it is not running), read from its row
    and deadlines without loading the game: a loaded game stays cached until it ends, so the start loads none."""
    store = parts.book.store
    try:
        row = await store.load_game(table_id)
    except Exception:  # a row that does not read: `arm_sweeps` loads it, which isolates it as damaged
        return False
    if row is None or row.status != "active":  # gone or ended since it was listed: nothing to arm
        return True
    if row.error is not None:  # damaged: loading it isolates it and tells its players now, at the start
        return False
    old = [d for d in await store.deadlines_for(table_id) if d.kind == ABANDON_CHECK]
    since = min((_since(d) for d in old), default=None)
    if since is None:
        return not await abandon_days(parts, row.guild_id)
    add = await _sweep_rows(parts, table_id, row.guild_id, since)
    return [(d.due_at, d.data) for d in old] == [(d.due_at, d.data) for d in add]


async def _fresh_sweep(parts: Parts, table: Table) -> tuple[list[int], list[DeadlineRow]]:
    """(the old sweep row's ids, a new one counting from now)."""
    old = [d for d in parts.book.deadlines_of(table.id) if d.kind == ABANDON_CHECK]
    return _ids(old), await sweep_rows(parts, table)


async def swept(parts: Parts, table: Table, row: DeadlineRow) -> Notice | None:
    """The ``abandon_check`` row fell due (under the game's lock, still stored): re-arm it, or adjudicate a game
    with no human move for the server's ``abandon_days``. The row goes in the same write as what it decides (the
    adjudication clears every row), so a process killed in between leaves it to fire again, never lost."""
    days = await abandon_days(parts, table.guild_id)
    if table.status != "active" or not days:
        await parts.book.drop_deadline(row)
        return None
    now = parts.book.now()
    since = max(_since(row), await last_human_move(parts, table.id) or _since(row))
    held = [*vac.on_vacation(table.meta).values(), *([now] if table.meta.get(pol.PAUSED) == ADMIN else [])]
    since = max([since, *held])  # an admin pause or a vacation is not abandonment: count from its end
    if since + timedelta(days=days) > now:
        drop = [] if row.id is None else [row.id]
        await parts.book.save(table, table, drop=drop, add=await sweep_rows(parts, table, since), bump=False)
        return None
    closed = await _adjudicated(parts, table, by=None, reason="abandoned")
    return Notice("abandoned", closed, {"days": days, "since": since})


async def last_human_move(parts: Parts, table_id: int) -> datetime | None:
    moves = [a.created_at for a in await parts.book.store.actions(table_id) if a.source == "player"]
    return max(moves, default=None)


async def arm_sweeps(parts: Parts, guild_id: int | None = None) -> int:
    """Give every running game (of a server, or all) the sweep row the server's setting asks for now: games that
    started before the sweep existed, or after ``abandon_days`` changed. Returns how many games were touched."""
    ids = None if guild_id is None else [r.id for r in await parts.book.store.games_in_guild(guild_id)]
    ids = await parts.book.store.game_ids(("active",)) if ids is None else ids
    ids = [table_id for table_id in ids if not await _sweep_is_current(parts, table_id)]
    touched = 0
    for table in await parts.book.running_tables(ids=ids):
        async with parts.book.lock(table.id):
            table = await parts.book.get(table.id)
            if table.status != "active":
                continue
            old = [d for d in parts.book.deadlines_of(table.id) if d.kind == ABANDON_CHECK]
            since = min((_since(d) for d in old), default=await last_human_move(parts, table.id) or parts.book.now())
            add = await sweep_rows(parts, table, since)
            if [(d.due_at, d.data) for d in old] == [(d.due_at, d.data) for d in add]:
                continue
            await parts.book.save(table, table, drop=_ids(old), add=add, bump=False)
            touched += 1
    return touched


def firings(parts: Parts) -> dict[str, Firing]:
    """The sweep's row fell due: re-arm it, or adjudicate the abandoned game."""

    async def check(table: Table, d: DeadlineRow) -> Notice | None:
        return await swept(parts, table, d)

    return {ABANDON_CHECK: Firing(check, keeps_row=True)}


# --- server defaults for new lobbies ----------------------------------------------------------------------


async def lobby_defaults(parts: Parts, guild_id: int | None,
                         options: dict[str, Any]) -> tuple[dict[str, Any], str | None, int]:
    """(the lobby's options with the server's correspondence ``days`` when the lobby chose no clock, the server's
    timeout policy, the lobby's lifetime in minutes)."""
    if guild_id is None:
        return options, None, parts.lobby_minutes
    policy = await parts.guild_setting(guild_id, "on_timeout")
    minutes = await parts.guild_setting(guild_id, "lobby_minutes", parts.lobby_minutes)
    days = await parts.guild_setting(guild_id, "days", 0)
    preset = await parts.guild_setting(guild_id, "time")
    clocks = {"time", "days", "bank_days", "turn_minutes", "round_minutes"}
    if not clocks & options.keys():  # the lobby chose no clock: the server's named one, else its days
        if preset in pol.TIME_PRESETS:
            options = {**options, "time": preset}
        elif days:
            options = {**options, "days": days}
    return options, policy, minutes if isinstance(minutes, int) and minutes > 0 else parts.lobby_minutes


def check_time_default(value: str) -> str | None:
    """A server's named time control for new games (``live``: none, the games' own minutes)."""
    name = value.strip().lower()
    if name not in pol.TIME_PRESETS:
        raise AdminError("gameadmin.bad_default", option="time", value=value[:20], allowed=", ".join(pol.TIME_PRESETS))
    return None if name == "live" else name


def check_default(key: str, value: int) -> int:
    """A server default as /serverdefaults takes it (``days`` also one of the correspondence choices)."""
    low, high = SERVER_DEFAULTS[key]
    if not low <= value <= high or (key == "days" and value and value not in pol.DAYS):
        allowed = ", ".join(map(str, (0, *pol.DAYS))) if key == "days" else f"{low}–{high}"
        raise AdminError("gameadmin.bad_default", option=key, value=value, allowed=allowed)
    return value


# --- helpers ----------------------------------------------------------------------------------------------


async def _running(parts: Parts, table_id: int) -> Table:
    table = await parts.book.get(table_id)
    if table.status == "lobby":
        raise GameOverError("engine.not_started")
    if table.status != "active":
        raise GameOverError("engine.not_running")
    return table


def _seat(table: Table, seat: int) -> SeatInfo:
    if not 0 <= seat < len(table.seats):
        raise AdminError("gameadmin.no_seat", seat=seat + 1, count=len(table.seats))
    if seat in table.meta.get(pol.LEFT, ()):
        raise AdminError("gameadmin.seat_left", seat=seat + 1)
    return table.seats[seat]


def _turn_rows(parts: Parts, table_id: int) -> list[DeadlineRow]:
    return [d for d in parts.book.deadlines_of(table_id) if d.kind in clock.TURN_KINDS and d.id is not None]


def _seat_rows(parts: Parts, table_id: int, seat: int) -> list[DeadlineRow]:
    """The seat's own rows: its turn's clock and its vacation's end."""
    kinds = (*clock.TURN_KINDS, vac.VACATION_END)
    return [d for d in parts.book.deadlines_of(table_id) if d.seat == seat and d.kind in kinds]


def _ids(rows: list[DeadlineRow]) -> list[int]:
    return [d.id for d in rows if d.id is not None]


def _without_absence(meta: dict[str, Any], seat: int) -> dict[str, Any]:
    """The seat's vacation (a person's, not a seat's) no longer applies to it."""
    out = dict(meta)
    for key in (vac.VACATION, vac.FROZEN):
        if isinstance(out.get(key), dict):
            out[key] = {k: v for k, v in out[key].items() if k != str(seat)}
    return out


def _since(row: DeadlineRow) -> datetime:
    try:
        return datetime.fromisoformat(row.data["since"])
    except (KeyError, TypeError, ValueError):  # a row without its base counts from when it was due
        return row.due_at


def _logged(parts: Parts, meta: dict[str, Any], op: str, by: int | None, **data: Any) -> dict[str, Any]:
    """``meta`` with the step added to the game's admin log (the last `LOG_CAP` kept)."""
    entry = {"op": op, "by": by, "at": parts.book.now().isoformat(), **data}
    history = [e for e in meta.get(ADMIN_LOG) or [] if isinstance(e, dict)]
    return {**meta, ADMIN_LOG: [*history, entry][-LOG_CAP:]}


def admin_log(table: Table) -> list[dict[str, Any]]:
    return [e for e in table.meta.get(ADMIN_LOG) or [] if isinstance(e, dict)]
