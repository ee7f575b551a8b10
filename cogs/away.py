"""Vacation: ``/away <days> [hours]`` pauses the player's clocks in every game on this server (at least 24 hours,
within the server's yearly allowance, ``vacation_days``: 30 by default), and each of those games' threads is
told; ``/back`` ends it early. The engine keeps what was left of a running clock and restarts it at the end."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

from cogs.utils.lang import aliases, guild_locale, locale_of_ctx, ls
from cogs.utils.posting import channel_of, pinging
from cogs.utils.replies import handle_command_error, send_ephemeral, user_errors
from cogs.utils.surface import surface_for
from engine import Table
from engine import vacation as vac
from i18n import t

if TYPE_CHECKING:
    from bot import Floorboard

MAX_DAYS = 365


class Away(commands.Cog):
    def __init__(self, bot: Floorboard) -> None:
        self.bot = bot

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    @commands.hybrid_command(name=ls("cmd.away.name"), description=ls("cmd.away.description"),
                             aliases=aliases("cmd.away.name"))
    @commands.guild_only()
    @app_commands.rename(days=ls("cmd.away.days.name"), hours=ls("cmd.away.hours.name"))
    @app_commands.describe(days=ls("cmd.away.days.description"), hours=ls("cmd.away.hours.description"))
    async def away(self, ctx: commands.Context[Any], days: commands.Range[int, 0, MAX_DAYS],
                   hours: commands.Range[int, 0, 23] = 0) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)  # the games are looked up and saved one by one
            until, tables = await vac.go_away(self.bot.engine, ctx.author.id, ctx.guild.id,
                                              timedelta(days=days, hours=hours))
            when = f"<t:{int(until.timestamp())}:f>"
            for table in tables:
                await self.tell(table, ctx.author.id, "away.notice", when=when)
            await send_ephemeral(ctx, t("away.started", locale, when=when, count=len(tables)))

    @commands.hybrid_command(name=ls("cmd.back.name"), description=ls("cmd.back.description"),
                             aliases=aliases("cmd.back.name"))
    @commands.guild_only()
    async def back(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            tables = await vac.come_back(self.bot.engine, ctx.author.id, ctx.guild.id)
            for table in tables:
                await self.tell(table, ctx.author.id, "away.back_notice")
            await send_ephemeral(ctx, t("away.ended", locale, count=len(tables)))

    async def tell(self, table: Table, user_id: int, key: str, **params: Any) -> None:
        """One line in the game's thread for the other players (no ping: nothing is asked of them)."""
        channel = await channel_of(self.bot, table.channel_id)
        seat = table.seat_of(user_id)
        if channel is None or seat is None:
            return
        guild = self.bot.get_guild(table.guild_id) if table.guild_id else None
        locale = await guild_locale(self.bot, table.guild_id, guild.preferred_locale if guild else None)
        name = surface_for(self.bot, table.game).seat_label(table, seat, locale)
        await channel.send(t(key, locale, name=name, **params), allowed_mentions=pinging([]))


async def setup(bot: Floorboard) -> None:
    await bot.add_cog(Away(bot))
