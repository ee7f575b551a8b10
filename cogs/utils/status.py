"""One status message per game, kept current: players with their colours, whose turn, moves, phase, result.

The lobby message becomes the game's status message at Start; its id is kept in ``table.meta`` from the
moment the lobby opens (through `Engine.set_meta`, which does not move the version, so buttons stay valid), so
that a lobby that closes without a game can take its buttons away too. Every announced change asks for an
update, but a game's status message is edited at most once per ``interval`` seconds: changes in between are
coalesced into one delayed edit that shows the game as it is then. The end of a game is always edited at once.

Edits of old messages are rate-limited by Discord (a 429 with error 30046 for messages older than an hour, which
discord.py would retry after ``retry_after``), and a message may have been deleted: a failed edit never breaks a
move. It is logged, and when the message is gone, too old to edit, or the edit is held up longer than
``edit_timeout`` seconds, a fresh status message is posted (new messages are not limited the same way) and its id
stored.
Turn pings stay new messages (mentions in an edit do not notify): this message never mentions anyone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import discord

from cogs.utils.app import App
from cogs.utils.components import SpectateButton, view_of
from cogs.utils.posting import channel_of
from cogs.utils.surface import GameSurface, surface_for
from engine import DamagedGameError, Table
from engine.policies import PAUSED, PAUSED_ADMIN, settings_of
from engine.results import unrated_reason
from i18n import DEFAULT_LOCALE, t

log = logging.getLogger(__name__)

META_KEY = "status_message_id"
TURN_MARK = "▶"
MAX_DESCRIPTION = 4096
MAX_FIELD = 1024
# Discord error codes after which the old message cannot be edited any more: post a fresh one instead.
UNKNOWN_MESSAGE, TOO_OLD_TO_EDIT, NOT_AUTHOR = 10008, 30046, 50005
REPOST_CODES = frozenset({UNKNOWN_MESSAGE, TOO_OLD_TO_EDIT, NOT_AUTHOR})
COLOURS = {"active": discord.Colour.blurple(), "finished": discord.Colour.gold()}

EDIT_TIMEOUT = 5.0  # seconds an edit may wait on Discord's rate limits before a fresh message is posted instead

Sleep = Callable[[float], Awaitable[Any]]


def time_control_text(table: Table, locale: str) -> str:
    """The table's clock and what a missed turn does, in words (the lobby and the status show it), and whether the
    game is rated (why not, when it is not; a started rated game's status says so on a line of its own)."""
    reason = unrated_reason(table)
    if reason is not None:
        return _clock_words(table, locale) + " · " + t(f"tc.unrated.{reason}", locale)
    # A lobby says it will be rated before anyone joins; a started game says so on its own line.
    return _clock_words(table, locale) + (" · " + t("tc.rated", locale) if table.status == "lobby" else "")


def _clock_words(table: Table, locale: str) -> str:
    settings = settings_of(table.meta)
    minutes = int(table.options.get("turn_minutes") or table.options.get("round_minutes") or 0)
    if settings.bank_days:
        clock = t("tc.bank", locale, days=settings.bank_days, bonus=settings.bonus_hours,
                  cap=settings.cap_days or settings.bank_days)
    elif settings.days:
        clock = t("tc.days", locale, count=settings.days)
    elif minutes:
        clock = t("tc.minutes", locale, count=minutes)
    else:
        return t("tc.none", locale)
    return clock + " · " + t(f"tc.policy.{settings.on_timeout}", locale, count=settings.forfeit_after)


def clock_text(surface: GameSurface, table: Table, clocks: dict[int, datetime], locale: str) -> str:
    """Who is on the clock and until when (a Discord timestamp counts down in every client without an edit),
    who a bot stands in for, or that the game is paused because everyone is away."""
    if table.meta.get(PAUSED):
        return t("status.paused_admin" if table.meta.get(PAUSED) == PAUSED_ADMIN else "status.paused", locale)
    lines = [t("status.clock_line", locale, name=surface.seat_label(table, seat, locale),
               when=f"<t:{int(due.timestamp())}:R>") for seat, due in sorted(clocks.items())]
    lines += [t("status.standin_line", locale, name=surface.seat_label(table, seat, locale))
              for seat in sorted(table.standins())]
    return "\n".join(lines)


def status_embed(surface: GameSurface, table: Table, locale: str,
                 clocks: dict[int, datetime] | None = None) -> discord.Embed:
    """The status of a started game (text only: the boards are separate messages)."""
    embed = discord.Embed(title=t("lobby.title", locale, game=surface.game_name(locale), table=table.id),
                          colour=COLOURS.get(table.status, discord.Colour.dark_grey()))
    to_move = table.to_move()
    lines = []
    for seat in range(len(table.seats)):
        mark = f"{TURN_MARK} " if seat in to_move else ""
        lines.append(f"{mark}{seat + 1}. {surface.seat_status(table, seat, locale)}")
    embed.description = "\n".join(lines)[:MAX_DESCRIPTION]
    if table.status == "active":
        who = ", ".join(surface.seat_label(table, s, locale) for s in sorted(to_move)) or "—"
        embed.add_field(name=t("status.turn", locale), value=who[:MAX_FIELD], inline=False)
        rated = t("tc.rated", locale) if unrated_reason(table) is None else ""  # unrated: said in the first line
        clock = "\n".join(x for x in (time_control_text(table, locale), rated,
                                      clock_text(surface, table, clocks or {}, locale)) if x)
        embed.add_field(name=t("status.clock", locale), value=clock[:MAX_FIELD], inline=False)
    embed.add_field(name=t("status.moves", locale), value=str(table.moves), inline=True)
    embed.add_field(name=t("status.phase", locale), value=surface.phase_text(table, locale), inline=True)
    if table.status == "finished":
        embed.add_field(name=t("status.result", locale), value=result_text(surface, table, locale)[:MAX_FIELD],
                        inline=False)
    embed.set_footer(text=t(f"lobby.status.{table.status}", locale))
    return embed


def result_text(surface: GameSurface, table: Table, locale: str) -> str:
    outcome = table.outcome
    if outcome is None:
        return t("lobby.status.finished", locale)
    names = ", ".join(surface.seat_label(table, s, locale) for s in outcome.winners)
    key = "bot.winner" if len(outcome.winners) == 1 else "bot.winners_shared"
    reason = t(outcome.reason, locale) if outcome.reason else ""
    return "\n".join(x for x in (t(key, locale, names=names), reason) if x)


def status_message(bot: App, table: Table, locale: str) -> dict[str, Any]:
    """The keyword arguments of a send or edit: the embed, and while the game runs a Spectate button unless the
    players closed it to spectators (the lobby's text and buttons go away)."""
    embed = status_embed(surface_for(bot, table.game), table, locale, bot.engine.clocks(table))
    items: list[discord.ui.Item[Any]] = []
    if table.status == "active" and settings_of(table.meta).spectators:
        items.append(SpectateButton.make(table.id, locale))
    return {"content": None, "embed": embed, "view": view_of(items), "allowed_mentions": discord.AllowedMentions.none()}


def must_repost(error: discord.HTTPException) -> bool:
    """The message is gone, too old to edit, or not ours: only a new message can show the status now."""
    return isinstance(error, discord.NotFound) or error.code in REPOST_CODES


class StatusMessages:
    """Keeps each running game's status message current, at most one edit per ``interval`` seconds a game.

    ``now`` is the bot's clock (tests pass a fake one); ``sleep`` waits before a coalesced edit (tests pass one
    they release by hand)."""

    def __init__(self, bot: App, *, interval: float, now: Callable[[], datetime], sleep: Sleep) -> None:
        self.bot = bot
        self.interval = interval
        self.now = now
        self.sleep = sleep
        self.edit_timeout = EDIT_TIMEOUT
        self.last_edit: dict[int, datetime] = {}
        self.pending: dict[int, asyncio.Task[None]] = {}
        self.locales: dict[int, str] = {}
        self.locks: dict[int, asyncio.Lock] = {}

    async def adopt(self, table: Table, message_id: int, locale: str) -> None:
        """``message_id`` shows the table's status now (e.g. the lobby message, just edited at Start)."""
        self.last_edit[table.id] = self.now()
        self.locales[table.id] = locale
        try:
            await self.bot.engine.set_meta(table.id, **{META_KEY: message_id})
        except Exception:  # bookkeeping only: the game goes on, and a fresh status is posted next time
            log.exception("could not store the status message of table %s", table.id)

    async def update(self, table: Table, locale: str) -> None:
        """The game changed (a move, a timeout, the end): edit now, or later if the last edit was recent."""
        try:
            await self._update(table, locale)
        except DamagedGameError:
            log.warning("table %s is damaged: its status message is left as it was", table.id)
        except Exception:  # never let the status break the move that was just played and posted
            log.exception("updating the status message of table %s failed", table.id)

    async def _update(self, table: Table, locale: str) -> None:
        if table.status == "lobby":
            return
        self.locales[table.id] = locale
        if table.status != "active":  # the end of the game: always shown, at once
            self.cancel(table.id)
            try:
                await self.flush(table.id)
            finally:
                self.forget(table.id)
            return
        if table.id in self.pending:
            return  # the edit already scheduled will show this change too
        last = self.last_edit.get(table.id)
        wait = 0.0 if last is None else self.interval - (self.now() - last).total_seconds()
        if wait <= 0:
            self.last_edit[table.id] = self.now()  # before any await: a concurrent update waits its turn
            await self.flush(table.id)
            return
        self.pending[table.id] = asyncio.create_task(self._later(table.id, wait),
                                                     name=f"floorboard-status-{table.id}")

    async def _later(self, table_id: int, delay: float) -> None:
        try:
            await self.sleep(delay)
        finally:
            if self.pending.get(table_id) is asyncio.current_task():
                del self.pending[table_id]
        self.last_edit[table_id] = self.now()
        try:
            await self.flush(table_id)
        except DamagedGameError:
            log.warning("table %s is damaged: its status message is left as it was", table_id)
        except Exception:
            log.exception("the delayed status edit of table %s failed", table_id)

    async def flush(self, table_id: int) -> None:
        """Show the table as it is now: edit its status message, or post a new one if that one is lost."""
        async with self.locks.setdefault(table_id, asyncio.Lock()):
            table = await self.bot.engine.get(table_id)
            channel = await channel_of(self.bot, table.channel_id)
            if channel is None:
                return
            kwargs = status_message(self.bot, table, self.locales.get(table_id, DEFAULT_LOCALE))
            message_id = table.meta.get(META_KEY)
            if message_id is None:
                if table.status == "active":  # a game started before status messages: give it one
                    await self.post(table, channel, kwargs)
                return
            try:
                async with asyncio.timeout(self.edit_timeout):
                    await discord.PartialMessage(channel=channel, id=int(message_id)).edit(**kwargs)
            except (TimeoutError, discord.RateLimited) as error:
                log.warning("the status message %s of table %s is rate-limited (%r): posting a new one",
                            message_id, table_id, error)
                await self.post(table, channel, kwargs)
            except discord.HTTPException as error:
                if not must_repost(error):
                    log.warning("could not edit the status message %s of table %s: %s", message_id, table_id,
                                error)
                    return
                log.info("the status message %s of table %s cannot be edited (%s): posting a new one",
                         message_id, table_id, error)
                await self.post(table, channel, kwargs)

    async def post(self, table: Table, channel: Any, kwargs: dict[str, Any]) -> None:
        try:
            message = await channel.send(**kwargs)
        except discord.HTTPException as error:
            log.warning("could not post a status message for table %s: %s", table.id, error)
            return
        await self.bot.engine.set_meta(table.id, **{META_KEY: message.id})

    def cancel(self, table_id: int) -> None:
        task = self.pending.pop(table_id, None)
        if task is not None:
            task.cancel()

    def forget(self, table_id: int) -> None:
        for store in (self.last_edit, self.locales, self.locks):
            store.pop(table_id, None)

    async def close(self) -> None:
        """At shutdown: drop the delayed edits (the next change after a restart edits at once)."""
        tasks = list(self.pending.values())
        for table_id in list(self.pending):
            self.cancel(table_id)
        await asyncio.gather(*tasks, return_exceptions=True)
