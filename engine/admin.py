"""Admin tools: what a server's managers (or a game's host) may do to a running game, and the sweep that ends
games nobody plays any more. Functions of the `Engine`, each under the game's lock and saved in one write.

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
from typing import TYPE_CHECKING, Any

from engine import clock
from engine import policies as pol
from engine import vacation as vac
from engine.errors import EngineError, GameOverError
from engine.tables import Notice, SeatInfo, Table
from storage import DeadlineRow

if TYPE_CHECKING:
    from engine.core import Engine

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


class AdminError(EngineError):
    """An admin step that does not apply to this game or seat (nothing is changed)."""


# --- the steps --------------------------------------------------------------------------------------------


async def extend(engine: Engine, table_id: int, hours: int, *, by: int | None) -> Table:
    """Every running clock of this turn runs ``hours`` longer."""
    if not 1 <= hours <= MAX_EXTEND_HOURS:
        raise AdminError("gameadmin.bad_hours", low=1, high=MAX_EXTEND_HOURS)
    async with engine._lock(table_id):
        table = await _running(engine, table_id)
        rows = _turn_rows(engine, table_id)
        if not rows:
            raise AdminError("gameadmin.no_clock")
        later = [replace(d, id=None, due_at=d.due_at + timedelta(hours=hours)) for d in rows]
        meta = _logged(engine, table.meta, "extend", by, hours=hours)
        return await engine._save(table, replace(table, meta=meta), drop=_ids(rows), add=later, bump=False)


async def pause(engine: Engine, table_id: int, *, by: int | None) -> Table:
    """No clock runs and no stand-in plays until ``resume``; what each running clock had left is kept."""
    async with engine._lock(table_id):
        table = await _running(engine, table_id)
        if table.meta.get(pol.PAUSED) == ADMIN:
            raise AdminError("gameadmin.already_paused")
        rows, now = _turn_rows(engine, table_id), engine.now()
        left = {str(seat): seconds for seat, seconds in clock.time_left(rows, now).items()}
        meta = {**table.meta, pol.PAUSED: ADMIN, ADMIN_PAUSE: {"moves": table.moves, "left": left}}
        meta = _logged(engine, meta, "pause", by)
        return await engine._save(table, replace(table, meta=meta), drop=_ids(rows), bump=False)


async def resume(engine: Engine, table_id: int, *, by: int | None) -> Table:
    """End a pause (an admin's, or everyone-away): the clocks run again, each with what it had left if nobody
    moved meanwhile, else a fresh one; the abandonment count starts again."""
    async with engine._lock(table_id):
        table = await _running(engine, table_id)
        if not table.meta.get(pol.PAUSED):
            raise AdminError("gameadmin.not_paused")
        meta = {k: v for k, v in table.meta.items() if k not in (pol.PAUSED, ADMIN_PAUSE)}
        back = replace(table, meta=_logged(engine, meta, "resume", by))
        held = table.meta.get(ADMIN_PAUSE) or {}
        left = held.get("left", {}) if held.get("moves") == table.moves else {}
        kept = {int(s): float(v) for s, v in left.items() if int(s) in back.humans_to_move()
                and int(s) not in vac.on_vacation(meta)}
        add = engine._turn_deadlines(back, keep=set(kept))
        for seat, seconds in kept.items():
            add += clock.restarted(table_id, seat, seconds, engine.now(), engine.reminder_fraction)
        drop, sweep = await _fresh_sweep(engine, back)
        return await engine._save(table, back, drop=drop, add=add + sweep, bump=False)


async def substitute(engine: Engine, table_id: int, seat: int, new: SeatInfo, *, by: int | None) -> Table:
    """A new member takes the seat, with a fresh clock and none of the old owner's absence bookkeeping."""
    if new.bot or new.user_id is None:
        raise AdminError("gameadmin.not_a_member")
    async with engine._lock(table_id):
        table = await _running(engine, table_id)
        old = _seat(table, seat)
        if table.seat_of(new.user_id) is not None:
            raise AdminError("gameadmin.already_seated", name=new.name)
        seats = [new if i == seat else s for i, s in enumerate(table.seats)]
        host = new.user_id if not old.bot and old.user_id == table.host_id else table.host_id
        meta = _logged(engine, _without_absence(pol.came_back(table.meta, seat), seat), "substitute", by,
                       seat=seat, old=old.user_id, new=new.user_id)
        after = replace(table, seats=seats, host_id=host, meta=meta)
        rows = _seat_rows(engine, table_id, seat)
        others = {d.seat for d in _turn_rows(engine, table_id) if d.seat != seat}
        drop, sweep = await _fresh_sweep(engine, after)
        return await engine._save(table, after, drop=_ids(rows) + drop,
                                  add=engine._turn_deadlines(after, keep=others) + sweep, bump=False)


async def to_bot(engine: Engine, table_id: int, seat: int, *, by: int | None) -> Table:
    """The seat becomes a bot for good (the caller lets the bots play: `Engine.play_bots`)."""
    async with engine._lock(table_id):
        table = await _running(engine, table_id)
        old = _seat(table, seat)
        if old.bot:
            raise AdminError("gameadmin.already_bot", seat=seat + 1)
        seats = [SeatInfo(None, old.name, True) if i == seat else s for i, s in enumerate(table.seats)]
        counts = pol.missed(table.meta)
        counts.pop(seat, None)
        meta = pol.with_missed(table.meta, counts)
        meta[pol.STANDINS] = sorted(pol.standins(meta) - {seat})
        meta = _logged(engine, _without_absence(meta, seat), "bot", by, seat=seat, old=old.user_id)
        return await engine._save(table, replace(table, seats=seats, meta=meta),
                                  drop=_ids(_seat_rows(engine, table_id, seat)), bump=False)


async def adjudicate(engine: Engine, table_id: int, *, by: int | None, reason: str = "adjudicated") -> Table:
    """End the game without a normal result (``aborted``), with the standings when the rules offer them."""
    async with engine._lock(table_id):
        return await _adjudicated(engine, await _running(engine, table_id), by=by, reason=reason)


async def _adjudicated(engine: Engine, table: Table, *, by: int | None, reason: str) -> Table:
    scores = standings(table)
    out = [s for s in table.meta.get(pol.LEFT, ())]
    meta = {**table.meta, ADJUDICATED: {"reason": reason, "by": by, "scores": scores,
                                        "leaders": leaders(scores, out)}}
    meta = _logged(engine, meta, reason, by)
    log.info("game %s %s by %s", table.id, reason, by if by is not None else "the sweep")
    return await engine._close(replace(table, meta=meta), "aborted", reason=reason)


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


async def abandon_days(engine: Engine, guild_id: int | None) -> int:
    if guild_id is None:  # a game outside a server (the terminal, a daily challenge) is never swept
        return 0
    value = await engine.guild_setting(guild_id, "abandon_days", ABANDON_DAYS)
    return value if isinstance(value, int) and value >= 0 else ABANDON_DAYS


async def sweep_rows(engine: Engine, table: Table, since: datetime | None = None) -> list[DeadlineRow]:
    """The game's ``abandon_check`` row, counting from ``since`` (now); none when the server turned it off."""
    days = await abandon_days(engine, table.guild_id)
    if not days:
        return []
    since = since or engine.now()
    return [DeadlineRow(table.id, ABANDON_CHECK, since + timedelta(days=days), None, {"since": since.isoformat()})]


async def _fresh_sweep(engine: Engine, table: Table) -> tuple[list[int], list[DeadlineRow]]:
    """(the old sweep row's ids, a new one counting from now)."""
    old = [d for d in engine._deadlines.get(table.id, []) if d.kind == ABANDON_CHECK]
    return _ids(old), await sweep_rows(engine, table)


async def swept(engine: Engine, table: Table, row: DeadlineRow) -> Notice | None:
    """The ``abandon_check`` row fell due (already dropped, under the game's lock): re-arm it, or adjudicate a
    game with no human move for the server's ``abandon_days``."""
    days = await abandon_days(engine, table.guild_id)
    if table.status != "active" or not days:
        return None
    now = engine.now()
    since = max(_since(row), await last_human_move(engine, table.id) or _since(row))
    held = [*vac.on_vacation(table.meta).values(), *([now] if table.meta.get(pol.PAUSED) == ADMIN else [])]
    since = max([since, *held])  # an admin pause or a vacation is not abandonment: count from its end
    if since + timedelta(days=days) > now:
        await engine._save(table, table, add=await sweep_rows(engine, table, since), bump=False)
        return None
    closed = await _adjudicated(engine, table, by=None, reason="abandoned")
    return Notice("abandoned", closed, {"days": days, "since": since})


async def last_human_move(engine: Engine, table_id: int) -> datetime | None:
    moves = [a.created_at for a in await engine.store.actions(table_id) if a.source == "player"]
    return max(moves, default=None)


async def arm_sweeps(engine: Engine, guild_id: int | None = None) -> int:
    """Give every running game (of a server, or all) the sweep row the server's setting asks for now: games that
    started before the sweep existed, or after ``abandon_days`` changed. Returns how many games were touched."""
    ids = None if guild_id is None else [r.id for r in await engine.store.games_in_guild(guild_id)]
    touched = 0
    for table in await engine.running_tables(ids=ids):
        async with engine._lock(table.id):
            table = await engine.get(table.id)
            if table.status != "active":
                continue
            old = [d for d in engine._deadlines.get(table.id, []) if d.kind == ABANDON_CHECK]
            since = min((_since(d) for d in old), default=await last_human_move(engine, table.id) or engine.now())
            add = await sweep_rows(engine, table, since)
            if [(d.due_at, d.data) for d in old] == [(d.due_at, d.data) for d in add]:
                continue
            await engine._save(table, table, drop=_ids(old), add=add, bump=False)
            touched += 1
    return touched


# --- server defaults for new lobbies ----------------------------------------------------------------------


async def lobby_defaults(engine: Engine, guild_id: int | None,
                         options: dict[str, Any]) -> tuple[dict[str, Any], str | None, int]:
    """(the lobby's options with the server's correspondence ``days`` when the lobby chose no clock, the server's
    timeout policy, the lobby's lifetime in minutes)."""
    if guild_id is None:
        return options, None, engine.lobby_minutes
    policy = await engine.guild_setting(guild_id, "on_timeout")
    minutes = await engine.guild_setting(guild_id, "lobby_minutes", engine.lobby_minutes)
    days = await engine.guild_setting(guild_id, "days", 0)
    preset = await engine.guild_setting(guild_id, "time")
    clocks = {"time", "days", "bank_days", "turn_minutes", "round_minutes"}
    if not clocks & options.keys():  # the lobby chose no clock: the server's named one, else its days
        if preset in pol.TIME_PRESETS:
            options = {**options, "time": preset}
        elif days:
            options = {**options, "days": days}
    return options, policy, minutes if isinstance(minutes, int) and minutes > 0 else engine.lobby_minutes


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


async def _running(engine: Engine, table_id: int) -> Table:
    table = await engine.get(table_id)
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


def _turn_rows(engine: Engine, table_id: int) -> list[DeadlineRow]:
    return [d for d in engine._deadlines.get(table_id, []) if d.kind in clock.TURN_KINDS and d.id is not None]


def _seat_rows(engine: Engine, table_id: int, seat: int) -> list[DeadlineRow]:
    """The seat's own rows: its turn's clock and its vacation's end."""
    kinds = (*clock.TURN_KINDS, vac.VACATION_END)
    return [d for d in engine._deadlines.get(table_id, []) if d.seat == seat and d.kind in kinds]


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


def _logged(engine: Engine, meta: dict[str, Any], op: str, by: int | None, **data: Any) -> dict[str, Any]:
    """``meta`` with the step added to the game's admin log (the last `LOG_CAP` kept)."""
    entry = {"op": op, "by": by, "at": engine.now().isoformat(), **data}
    history = [e for e in meta.get(ADMIN_LOG) or [] if isinstance(e, dict)]
    return {**meta, ADMIN_LOG: [*history, entry][-LOG_CAP:]}


def admin_log(table: Table) -> list[dict[str, Any]]:
    return [e for e in table.meta.get(ADMIN_LOG) or [] if isinstance(e, dict)]
