"""``/mygames``: a player's inbox. Every running game they sit in, on this server (in direct messages: on every
server), in two sections: where it is their move, the longest waiting first, and where they wait for others.
Each line links to the game's channel or thread and counts its clock down with a Discord timestamp, which every
client renders in its own language and keeps current without an edit. A link button jumps to the oldest.

How long a game has waited is measured from when it became the player's move (`engine.clock.TURN_SINCE`, kept
with every change): the start of their turn, or of the round in a game played in rounds (the others' moves in the
round do not restart it). When waiting for others, since the longest-waiting of them became to move. A game
saved before that was kept falls back on its last move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.lang import aliases, locale_of_ctx, ls
from cogs.utils.replies import handle_command_error, send_ephemeral, user_errors
from cogs.utils.surface import surface_for
from cogs.utils.text import safe
from engine import TURN_TIMEOUT, Table
from engine import policies as pol
from engine import vacation as vac
from engine.queries import DeadlineRow
from i18n import t

MAX_DESCRIPTION = 4096  # Discord's limit for an embed's description
MORE_ROOM = 40  # kept free under each section for its "…and N more" line
KEPT_LINES = 3  # lines of a later section that an earlier, longer one leaves room for
SERVER_NAME_LIMIT = 40


@dataclass(frozen=True)
class Entry:
    """One game of the player's: their seat, the game's deadlines, and since when it has waited."""

    table: Table
    seat: int
    deadlines: list[DeadlineRow]
    since: datetime

    @property
    def my_move(self) -> bool:
        return self.seat in self.table.to_move()

    def due(self) -> datetime | None:
        """When the clock runs out: the player's own, or (waiting for others) the soonest of those to move."""
        rows = [d for d in self.deadlines if d.kind == TURN_TIMEOUT and d.seat is not None]
        if self.my_move:
            rows = [d for d in rows if d.seat == self.seat]
        return min((d.due_at for d in rows), default=None)


def jump_link(table: Table) -> str:
    return f"https://discord.com/channels/{table.guild_id or '@me'}/{table.channel_id}"


def stamp(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:R>"


def sort_entries(games: list[tuple[Table, list[DeadlineRow], datetime]], user_id: int,
                 ) -> tuple[list[Entry], list[Entry]]:
    """(their move, waiting for others), each the longest waiting first; seats that resigned are left out."""
    mine, theirs = [], []
    for table, deadlines, since in games:
        seat = table.seat_of(user_id)
        if seat is None or seat in table.meta.get(pol.LEFT, ()):
            continue
        entry = Entry(table, seat, deadlines, since)
        (mine if entry.my_move else theirs).append(entry)
    return sorted(mine, key=order), sorted(theirs, key=order)


def order(entry: Entry) -> tuple[datetime, int]:
    return entry.since, entry.table.id


def marks(entry: Entry, locale: str) -> str:
    meta = entry.table.meta
    out = t("inbox.paused", locale) if meta.get(pol.PAUSED) else ""
    if entry.seat in entry.table.standins():
        out += t("inbox.standin", locale)
    if entry.seat in vac.on_vacation(meta):
        out += t("inbox.vacation", locale)
    return out


def fit(sections: list[tuple[str, list[str]]], more: Callable[[int], str], limit: int = MAX_DESCRIPTION) -> str:
    """The non-empty sections within ``limit`` characters; the lines that do not fit are counted ("…and N more")
    under their section. Room is kept for every later section's header, first lines and count, so that a long
    first section never hides the others."""
    live = [(header, lines) for header, lines in sections if lines]
    blocks, used = [], 0
    for i, (header, lines) in enumerate(live):
        later = sum(len(h) + 2 + MORE_ROOM + sum(len(line) + 1 for line in rest[:KEPT_LINES])
                    for h, rest in live[i + 1:])
        block, used = [header], used + len(header) + 2  # + the blank line between sections
        for n, line in enumerate(lines):
            if used + len(line) + 1 + MORE_ROOM + later > limit:
                block.append(more(len(lines) - n))
                used += len(block[-1]) + 1
                break
            block.append(line)
            used += len(line) + 1
        blocks.append("\n".join(block))
    return "\n\n".join(blocks)


class Inbox(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    @commands.hybrid_command(name=ls("cmd.mygames.name"), description=ls("cmd.mygames.description"),
                             aliases=aliases("cmd.mygames.name"))
    async def mygames(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)  # the games not in memory are loaded one by one
            everywhere = ctx.guild is None  # direct messages: every server the player plays on
            games = await self.bot.engine.games_of(ctx.author.id, None if everywhere else ctx.guild.id)
            mine, theirs = sort_entries(games, ctx.author.id)
            follows = self.bot.get_cog("Follows")  # the games they watch as a spectator (cogs/follow.py)
            watched = [] if follows is None else await follows.followed(  # type: ignore[attr-defined]
                ctx.author.id, None if everywhere else ctx.guild.id)
            kwargs: dict[str, Any] = {"embed": self.embed(mine, theirs, locale, everywhere, watched)}
            if mine:
                view = discord.ui.View(timeout=None)
                view.add_item(discord.ui.Button(label=t("inbox.button.oldest", locale), url=jump_link(mine[0].table)))
                kwargs["view"] = view
            await send_ephemeral(ctx, None, **kwargs)

    def embed(self, mine: list[Entry], theirs: list[Entry], locale: str, everywhere: bool,
              watched: list[Table] | None = None) -> discord.Embed:
        title = t("inbox.title_everywhere" if everywhere else "inbox.title", locale)
        watched = watched or []
        if not mine and not theirs and not watched:
            return discord.Embed(title=title, description=t("inbox.none_everywhere" if everywhere else "inbox.none",
                                                              locale))
        sections = [(t("inbox.your_move", locale, count=len(mine)), [self.line(e, locale, everywhere) for e in mine]),
                    (t("inbox.waiting", locale, count=len(theirs)),
                     [self.line(e, locale, everywhere) for e in theirs]),
                    (t("follow.inbox_section", locale, count=len(watched)),
                     [self.watched_line(table, locale) for table in watched])]
        description = fit(sections, lambda count: t("inbox.more", locale, count=count))
        embed = discord.Embed(title=title, description=description)
        return embed.set_footer(text=t("inbox.footer", locale))

    def line(self, entry: Entry, locale: str, everywhere: bool) -> str:
        table, due = entry.table, entry.due()
        clock_key = "inbox.clock" if entry.my_move else "inbox.their_clock"
        clock = t("inbox.no_clock", locale) if due is None else t(clock_key, locale, when=stamp(due))
        params = {"game": surface_for(self.bot, table.game).game_name(locale), "table": table.id,
                  "link": jump_link(table), "since": t("inbox.since", locale, when=stamp(entry.since)),
                  "clock": clock, "marks": marks(entry, locale)}
        if not everywhere:
            return t("inbox.line", locale, **params)
        return t("inbox.line_server", locale, server=self.server_name(table, locale), **params)

    def watched_line(self, table: Table, locale: str) -> str:
        """A game followed as a spectator: no clock of theirs, only where it is and how far it got."""
        return t("follow.inbox_line", locale, game=surface_for(self.bot, table.game).game_name(locale),
                 table=table.id, link=jump_link(table), moves=table.moves)

    def server_name(self, table: Table, locale: str) -> str:
        """The server's name (a user's text: escaped), or its id when the bot no longer sees it."""
        if table.guild_id is None:
            return t("inbox.direct", locale)
        guild = self.bot.get_guild(table.guild_id)
        return safe(guild.name, SERVER_NAME_LIMIT) if guild is not None else str(table.guild_id)


async def setup(bot: App) -> None:
    await bot.add_cog(Inbox(bot))
