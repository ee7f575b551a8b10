"""A player's absence and notifications: ``/away <days> [hours]`` pauses the player's clocks in every game on this
server (at least 24 hours, within the server's yearly allowance, ``vacation_days``: 30 by default), and each of
those games' threads is told; ``/back`` ends it early (the engine keeps what was left of a running clock).
``/quiet <timezone> <from> <to>``: no mention notifies them inside those hours; ``/reminders dm:true``: turn
reminders by direct message (engine.players)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.lang import aliases, guild_locale, locale_of_ctx, ls
from cogs.utils.posting import channel_of, pinging
from cogs.utils.replies import handle_command_error, send_ephemeral, user_errors
from cogs.utils.surface import surface_for
from engine import Table
from engine import players as quiet
from engine import vacation as vac
from i18n import t
from rules.base import InvalidActionError

MAX_DAYS = 365
MAX_TIME = 5  # "22:00"


class Away(commands.Cog):
    def __init__(self, bot: App) -> None:
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

    @commands.hybrid_command(name=ls("cmd.quiet.name"), description=ls("cmd.quiet.description"),
                             aliases=aliases("cmd.quiet.name"))
    @app_commands.rename(timezone=ls("cmd.quiet.timezone.name"), start=ls("cmd.quiet.start.name"),
                         end=ls("cmd.quiet.end.name"), off=ls("cmd.quiet.off.name"))
    @app_commands.describe(timezone=ls("cmd.quiet.timezone.description"), start=ls("cmd.quiet.start.description"),
                           end=ls("cmd.quiet.end.description"), off=ls("cmd.quiet.off.description"))
    async def quiet_hours(self, ctx: commands.Context[Any], timezone: commands.Range[str, 1, 64] | None = None,
                          start: commands.Range[str, 1, MAX_TIME] | None = None,
                          end: commands.Range[str, 1, MAX_TIME] | None = None, off: bool = False) -> None:
        """Quiet hours: no mention notifies the player inside them (their clocks still run)."""
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)  # the settings are saved: acknowledged before a write that may queue
            mine = quiet.REGISTRY.get(ctx.author.id, quiet.Notify())
            if off:
                mine = replace(mine, quiet=None)
            elif timezone is not None or start is not None or end is not None:
                if timezone is None or start is None or end is None:
                    raise InvalidActionError("quiet.all_three")
                if not quiet.valid_zone(timezone):
                    raise InvalidActionError("quiet.bad_zone", zone=timezone[:64])
                window = (read_time(start), read_time(end))
                if window[0] == window[1]:
                    raise InvalidActionError("quiet.empty_window")
                mine = replace(mine, tz=timezone, quiet=window)
            else:
                await send_ephemeral(ctx, describe(mine, locale))
                return
            await self.save(ctx.author.id, mine)
            await send_ephemeral(ctx, describe(mine, locale))

    @quiet_hours.autocomplete("timezone")
    async def zone_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in quiet.zone_choices(current)]

    @commands.hybrid_command(name=ls("cmd.reminders.name"), description=ls("cmd.reminders.description"),
                             aliases=aliases("cmd.reminders.name"))
    @app_commands.rename(dm=ls("cmd.reminders.dm.name"))
    @app_commands.describe(dm=ls("cmd.reminders.dm.description"))
    async def reminders(self, ctx: commands.Context[Any], dm: bool) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            mine = replace(quiet.REGISTRY.get(ctx.author.id, quiet.Notify()), dm=dm)
            await self.save(ctx.author.id, mine)
            await send_ephemeral(ctx, t("quiet.dm_on" if dm else "quiet.dm_off", locale))

    async def save(self, user_id: int, settings: quiet.Notify) -> None:
        await self.bot.engine.settings.set_user_settings(user_id, settings.to_json())
        quiet.REGISTRY[user_id] = settings

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


def read_time(text: str) -> int:
    """A quiet-hours end as typed (``22``, ``22:00``, ``7:30``), or a reply saying what was wrong with it."""
    try:
        return quiet.parse_time(text)
    except quiet.BadTime:
        raise InvalidActionError("quiet.bad_time", time=str(text)[:MAX_TIME + 1]) from None


def describe(settings: quiet.Notify, locale: str) -> str:
    if settings.quiet is None:
        line = t("quiet.none", locale)
    else:
        line = t("quiet.set", locale, start=quiet.time_text(settings.quiet[0]), end=quiet.time_text(settings.quiet[1]),
                 zone=settings.tz)
    return line + "\n" + t("quiet.dm_on" if settings.dm else "quiet.dm_off", locale)


async def setup(bot: App) -> None:
    quiet.load(await bot.engine.settings.all_user_settings(), bot.now)
    await bot.add_cog(Away(bot))
