"""The end of a game in Discord: the result pings the players, and the game's thread shows the result.

`result_ping` is the line that opens a result message (the human players mentioned, so that they are notified:
mentions in embeds and edits do not notify). `game_ended` renames the game's thread to show how it ended
("✅ Night of the 27 Ninja #12 — Alice wins") and lets Discord archive it after an hour without messages:
Discord's own auto-archive, so it survives restarts and needs no timer of ours, and anyone who writes in the
thread (``/record``) keeps it open another hour. Only a thread the bot made is touched; a game in a server's
own channel (threads off) leaves the channel as it is. Nothing here raises: a thread the bot may not edit
stays as it was.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from cogs.utils.app import App
from cogs.utils.summary import post_summary, wants_summary
from cogs.utils.surface import GameSurface, surface_for
from cogs.utils.text import clean, mention, seat_names
from engine import Table
from engine.web import publish_game
from i18n import t

log = logging.getLogger(__name__)

ARCHIVE_MINUTES = 60  # Discord archives the thread after this long without a message
MAX_NAME = 100  # Discord's limit on a channel's name
# Renames are limited to two per ten minutes a channel, and discord.py sleeps out a 429 however long: a rename
# held up longer than this is dropped rather than holding up the game's posts.
EDIT_TIMEOUT = 10.0


def human_ids(table: Table) -> list[int]:
    """The human players' user ids, each once, in seat order."""
    ids = [s.user_id for s in table.seats if not s.bot and s.user_id is not None]
    return list(dict.fromkeys(ids))


def result_ping(table: Table, locale: str) -> tuple[str, list[int]]:
    """The line that pings every human player of a finished game, and the ids to allow; ("", []) for bots only."""
    ids = human_ids(table)
    if not ids:
        return "", []
    return t("thread.result_ping", locale, who=" ".join(mention(u) for u in ids)), ids


async def web_line(bot: App, table: Table, locale: str) -> str:
    """The finished game's web page as one line (WEB_BASE_URL set and the server opted in with /web), else "".
    Publishing here gives the game, and its human players, their addresses."""
    base = (bot.settings.web_base_url or "").rstrip("/")
    if not base or table.status != "finished":
        return ""
    try:
        slug = await publish_game(bot.engine.store, table.guild_id, table.id, human_ids(table))
    except Exception:  # the result is posted without its address rather than not at all
        log.exception("publishing table %s to the web site failed", table.id)
        return ""
    return t("thread.web_link", locale, url=f"{base}/g/{slug}") if slug else ""


def thread_title(surface: GameSurface, table: Table, locale: str) -> str:
    """The thread's name after the game (≤ 100 characters). Names are `clean`ed, not escaped: a thread name
    shows no markdown and pings no one, but a bidi override in it would turn the channel list around."""
    game = surface.game_name(locale)
    if table.status == "aborted":
        key = "thread.title_expired" if table.meta.get("closed") == "expired" else "thread.title_aborted"
        return clean(t(key, locale, game=game, table=table.id), MAX_NAME)
    winners = list(table.outcome.winners) if table.outcome is not None else []
    if not winners:
        return clean(t("thread.title_over", locale, game=game, table=table.id), MAX_NAME)
    key = "thread.title_won" if len(winners) == 1 else "thread.title_won_shared"
    room = MAX_NAME - len(t(key, locale, game=game, table=table.id, names=""))
    shown = seat_names(table.seats)  # bots marked, look-alikes numbered, as everywhere else
    names = ", ".join(shown[s] for s in winners)
    return clean(t(key, locale, game=game, table=table.id, names=clean(names, max(room, 1))), MAX_NAME)


def own_thread(bot: App, channel: Any) -> bool:
    """A thread the bot opened for a game (not a server's channel, nor a thread someone else made)."""
    me = getattr(bot.user, "id", None)
    return isinstance(channel, discord.Thread) and me is not None and channel.owner_id == me


async def game_ended(bot: App, channel: Any, table: Table, locale: str, *, summarised: bool = False) -> None:
    """The game in ``channel`` is over (finished, aborted, or a lobby expired): a started game gets its summary
    (`cogs.utils.summary`) unless the caller posted it already (``summarised``), then its thread is renamed to
    show the result and set to archive after an hour of silence. Never raises."""
    if not summarised and wants_summary(table):
        await post_summary(bot, channel, table, locale)
    try:
        if not own_thread(bot, channel):
            return
        name = thread_title(surface_for(bot, table.game), table, locale)
        async with asyncio.timeout(EDIT_TIMEOUT):
            await channel.edit(name=name, auto_archive_duration=ARCHIVE_MINUTES)
    except (discord.HTTPException, TimeoutError) as error:  # no Manage Threads, gone, rate-limited: left as is
        log.warning("could not rename or set to archive the thread of table %s: %r", table.id, error)
    except Exception:
        log.exception("closing the thread of table %s failed", table.id)


async def thread_reopened(bot: App, channel: Any, name: str, archive_minutes: int) -> None:
    """A new game (a rematch) opens in a thread that showed a result: its name and archive time as new. Never
    raises."""
    try:
        if own_thread(bot, channel) and channel.name != name:
            async with asyncio.timeout(EDIT_TIMEOUT):
                await channel.edit(name=clean(name, MAX_NAME), auto_archive_duration=archive_minutes)
    except (discord.HTTPException, TimeoutError) as error:
        log.warning("could not rename the thread %s for a rematch: %r", getattr(channel, "id", None), error)
    except Exception:
        log.exception("reopening the thread %s failed", getattr(channel, "id", None))
