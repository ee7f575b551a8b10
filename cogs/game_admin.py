"""Admin tools in Discord: ``/gameadmin`` for the game in this channel or thread, ``/serverdefaults`` for a server's
defaults, and the announcement of a game the sweep found abandoned (engine/admin.py does the work).

Who may: Manage Server for every step; the game's host also for ``pause``, ``resume`` and ``adjudicate`` (what
``/abort`` already lets a host do: nothing that changes who plays a seat or anyone's clock). Re-checked in every
callback against the game found now. Each step is announced in the game's thread (the players it concerns
pinged); a refusal is private.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.admin import require_manager
from cogs.utils.app import App
from cogs.utils.checks import can_manage, is_host_or_manager
from cogs.utils.ending import game_ended, human_ids
from cogs.utils.lang import aliases, guild_locale, locale_of_ctx, ls
from cogs.utils.posting import channel_of, pinging, publish, supersede_prompt
from cogs.utils.replies import handle_command_error, send_ephemeral, user_errors
from cogs.utils.surface import GameSurface, surface_for
from cogs.utils.text import NAME_LIMIT, clean
from engine import GameNotFoundError, Notice, PermissionDeniedError, SeatInfo, Table
from engine import admin as adm
from engine import vacation as vac
from i18n import t

log = logging.getLogger(__name__)

HOST_STEPS = frozenset({"pause", "resume", "adjudicate"})  # the rest need Manage Server
MAX_SEAT = 25
SWEEPS_ARMED = "abandon_sweeps_armed"  # app setting: the games that predate the sweep got their rows once
APP_SETTINGS_GUILD = 0


class GameAdmin(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # Once ever, not at every start: arming loads every running game.
        engine = self.bot.engine
        if engine is not None and not await engine.guild_setting(APP_SETTINGS_GUILD, SWEEPS_ARMED, False):
            await adm.arm_sweeps(engine)
            await engine.set_guild_setting(APP_SETTINGS_GUILD, SWEEPS_ARMED, True)

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    # --- helpers -------------------------------------------------------------------------------------------

    async def managed(self, ctx: commands.Context[Any], step: str) -> Table:
        """The game here, if the author may take this step in it."""
        table = await self.bot.engine.table_in_channel(ctx.channel.id)
        if table is None:
            raise GameNotFoundError("lobby.no_table")
        allowed = is_host_or_manager(ctx, table.host_id) if step in HOST_STEPS else can_manage(ctx)
        if not allowed:
            raise PermissionDeniedError("gameadmin.host_or_manager" if step in HOST_STEPS
                                        else "bot.manage_server_only")
        return table

    def surface(self, table: Table) -> GameSurface:
        return surface_for(self.bot, table.game)

    def name(self, table: Table, seat: int, locale: str) -> str:
        return self.surface(table).seat_label(table, seat, locale)

    async def announce(self, ctx: commands.Context[Any], table: Table, text: str, ping: list[int] = ()) -> None:
        """The step, said publicly where it was asked; the game's status message follows."""
        await ctx.send(text, allowed_mentions=pinging(list(ping)))
        await self.bot.status_messages.update(table, await locale_of_ctx(ctx))

    # --- /gameadmin ----------------------------------------------------------------------------------------

    @commands.hybrid_group(name=ls("cmd.gameadmin.name"), description=ls("cmd.gameadmin.description"),
                           aliases=aliases("cmd.gameadmin.name"), invoke_without_command=True)
    @commands.guild_only()
    async def gameadmin(self, ctx: commands.Context[Any]) -> None:
        """``!gameadmin`` alone: what the subcommands do."""
        await send_ephemeral(ctx, t("gameadmin.usage", await locale_of_ctx(ctx)))

    @gameadmin.command(name=ls("cmd.gameadmin.extend.name"), description=ls("cmd.gameadmin.extend.description"),
                       aliases=aliases("cmd.gameadmin.extend.name"))
    @commands.guild_only()
    @app_commands.rename(hours=ls("cmd.gameadmin.extend.hours.name"))
    @app_commands.describe(hours=ls("cmd.gameadmin.extend.hours.description"))
    async def extend(self, ctx: commands.Context[Any],
                     hours: commands.Range[int, 1, adm.MAX_EXTEND_HOURS]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.managed(ctx, "extend")
            table = await adm.extend(self.bot.engine, table.id, hours, by=ctx.author.id)
            await self.announce(ctx, table, t("gameadmin.extended", locale, count=hours, name=ctx.author.mention))

    @gameadmin.command(name=ls("cmd.gameadmin.pause.name"), description=ls("cmd.gameadmin.pause.description"),
                       aliases=aliases("cmd.gameadmin.pause.name"))
    @commands.guild_only()
    async def pause(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.managed(ctx, "pause")
            table = await adm.pause(self.bot.engine, table.id, by=ctx.author.id)
            await self.announce(ctx, table, t("gameadmin.paused", locale, name=ctx.author.mention))

    @gameadmin.command(name=ls("cmd.gameadmin.resume.name"), description=ls("cmd.gameadmin.resume.description"),
                       aliases=aliases("cmd.gameadmin.resume.name"))
    @commands.guild_only()
    async def resume(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.managed(ctx, "resume")
            table = await adm.resume(self.bot.engine, table.id, by=ctx.author.id)
            # The players to move are pinged: their clocks run again.
            ids = [table.seats[s].user_id for s in table.humans_to_move() if table.seats[s].user_id is not None]
            await self.announce(ctx, table, t("gameadmin.resumed", locale, name=ctx.author.mention), ids)

    @gameadmin.command(name=ls("cmd.gameadmin.substitute.name"),
                       description=ls("cmd.gameadmin.substitute.description"),
                       aliases=aliases("cmd.gameadmin.substitute.name"))
    @commands.guild_only()
    @app_commands.rename(seat=ls("cmd.gameadmin.substitute.seat.name"),
                         member=ls("cmd.gameadmin.substitute.member.name"))
    @app_commands.describe(seat=ls("cmd.gameadmin.substitute.seat.description"),
                           member=ls("cmd.gameadmin.substitute.member.description"))
    async def substitute(self, ctx: commands.Context[Any], seat: commands.Range[int, 1, MAX_SEAT],
                         member: discord.Member) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.managed(ctx, "substitute")
            if member.bot:
                raise adm.AdminError("gameadmin.not_a_member")
            old = self.name(table, seat - 1, locale) if 0 <= seat - 1 < len(table.seats) else ""
            new = SeatInfo(member.id, clean(member.display_name, NAME_LIMIT))
            table = await adm.substitute(self.bot.engine, table.id, seat - 1, new, by=ctx.author.id)
            await self.announce(ctx, table, t("gameadmin.substituted", locale, seat=seat, old=old,
                                              new=member.mention, name=ctx.author.mention), [member.id])

    @gameadmin.command(name=ls("cmd.gameadmin.bot.name"), description=ls("cmd.gameadmin.bot.description"),
                       aliases=aliases("cmd.gameadmin.bot.name"))
    @commands.guild_only()
    @app_commands.rename(seat=ls("cmd.gameadmin.bot.seat.name"))
    @app_commands.describe(seat=ls("cmd.gameadmin.bot.seat.description"))
    async def seat_to_bot(self, ctx: commands.Context[Any], seat: commands.Range[int, 1, MAX_SEAT]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.managed(ctx, "bot")
            table = await adm.to_bot(self.bot.engine, table.id, seat - 1, by=ctx.author.id)
            await self.announce(ctx, table, t("gameadmin.to_bot", locale, seat=seat,
                                              old=self.name(table, seat - 1, locale), name=ctx.author.mention))
            await self.let_bots_play(ctx.channel, table, locale)

    async def let_bots_play(self, channel: Any, table: Table, locale: str) -> None:
        """The new bot may be the one to move: it plays now, posted like any bot's move."""
        played = await self.bot.engine.play_bots(table.id)
        if played:
            surface = self.surface(table)
            await publish(self.bot, channel, [surface.segment(r, locale) for r in played], locale)

    @gameadmin.command(name=ls("cmd.gameadmin.adjudicate.name"),
                       description=ls("cmd.gameadmin.adjudicate.description"),
                       aliases=aliases("cmd.gameadmin.adjudicate.name"))
    @commands.guild_only()
    async def adjudicate(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.managed(ctx, "adjudicate")
            table = await adm.adjudicate(self.bot.engine, table.id, by=ctx.author.id)
            head = t("gameadmin.adjudicated", locale, table=table.id, name=ctx.author.mention)
            await self.closed(ctx.channel, table, head, locale)

    async def closed(self, channel: Any, table: Table, head: str, locale: str) -> None:
        """A game ended by adjudication: its players told (pinged) with the standings, then closed like /abort."""
        ids = human_ids(table)
        await channel.send("\n".join([head, *self.standings(table, locale)]), allowed_mentions=pinging(ids))
        await supersede_prompt(self.bot, channel, table, None)  # the last board's buttons go
        await self.bot.status_messages.update(table, locale)
        await game_ended(self.bot, channel, table, locale)

    def standings(self, table: Table, locale: str) -> list[str]:
        info = table.meta.get(adm.ADJUDICATED) or {}
        scores, leaders = info.get("scores"), info.get("leaders") or []
        who = " ".join(f"<@{u}>" for u in human_ids(table))
        lines = [t("gameadmin.players", locale, who=who)] if who else []
        if scores:
            surface = self.surface(table)
            lines += [t("gameadmin.score_line", locale, name=self.name(table, s, locale),
                        score=surface.score_text(table, s, score, locale)) for s, score in enumerate(scores)]
        if leaders:
            names = ", ".join(self.name(table, s, locale) for s in leaders)
            lines.append(t("gameadmin.ahead", locale, names=names))
        else:
            lines.append(t("gameadmin.no_winner", locale))
        return lines

    # --- the sweep's notice --------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_floorboard_notice(self, notice: Notice) -> None:
        if notice.kind != "abandoned":
            return
        table = notice.table
        channel = await channel_of(self.bot, table.channel_id)
        if channel is None:
            return
        guild = self.bot.get_guild(table.guild_id) if table.guild_id else None
        locale = await guild_locale(self.bot, table.guild_id, guild.preferred_locale if guild else None)
        head = t("gameadmin.abandoned", locale, table=table.id, count=notice.data.get("days", 0))
        await self.closed(channel, table, head, locale)

    # --- /serverdefaults -----------------------------------------------------------------------------------

    @commands.hybrid_command(name=ls("cmd.serverdefaults.name"), description=ls("cmd.serverdefaults.description"),
                             aliases=aliases("cmd.serverdefaults.name"))
    @commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(time=ls("cmd.serverdefaults.time.name"), days=ls("cmd.serverdefaults.days.name"),
                         vacation_days=ls("cmd.serverdefaults.vacation_days.name"),
                         lobby_minutes=ls("cmd.serverdefaults.lobby_minutes.name"),
                         abandon_days=ls("cmd.serverdefaults.abandon_days.name"))
    @app_commands.describe(time=ls("cmd.serverdefaults.time.description"),
                           days=ls("cmd.serverdefaults.days.description"),
                           vacation_days=ls("cmd.serverdefaults.vacation_days.description"),
                           lobby_minutes=ls("cmd.serverdefaults.lobby_minutes.description"),
                           abandon_days=ls("cmd.serverdefaults.abandon_days.description"))
    async def serverdefaults(self, ctx: commands.Context[Any], time: commands.Range[str, 1, 20] | None = None,
                             days: int | None = None, vacation_days: int | None = None,
                             lobby_minutes: int | None = None, abandon_days: int | None = None) -> None:
        """Set any of the server's defaults (none given: show them)."""
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            require_manager(ctx)
            given = {"days": days, "vacation_days": vacation_days, "lobby_minutes": lobby_minutes,
                     "abandon_days": abandon_days}
            changes: dict[str, Any] = {k: adm.check_default(k, v) for k, v in given.items() if v is not None}
            if time is not None:  # one default clock: a named one replaces the days, and days replace a name
                changes.update(time=adm.check_time_default(time), days=0)
            elif "days" in changes:
                changes["time"] = None
            await ctx.defer()  # acknowledged before the writes and the sweep's re-arming
            engine = self.bot.engine
            for key, value in changes.items():
                await engine.set_guild_setting(ctx.guild.id, key, value)
            if "abandon_days" in changes:  # running games follow the new setting
                await adm.arm_sweeps(engine, ctx.guild.id)
            key = "gameadmin.defaults_set" if changes else "gameadmin.defaults_now"
            await ctx.send("\n".join([t(key, locale), *await self.defaults(ctx.guild.id, locale)]))

    async def defaults(self, guild_id: int, locale: str) -> list[str]:
        engine = self.bot.engine
        days = await engine.guild_setting(guild_id, "days", 0)
        preset = await engine.guild_setting(guild_id, "time")
        vacation = await engine.guild_setting(guild_id, "vacation_days", vac.ALLOWANCE_DAYS)
        minutes = await engine.guild_setting(guild_id, "lobby_minutes", engine.lobby_minutes)
        abandon = await engine.guild_setting(guild_id, "abandon_days", adm.ABANDON_DAYS)
        clock = t("gameadmin.default.time", locale, name=preset) if preset else \
            t("gameadmin.default.days", locale, count=days) if days else t("gameadmin.default.no_days", locale)
        return [clock,
                t("gameadmin.default.vacation_days", locale, count=vacation),
                t("gameadmin.default.lobby_minutes", locale, count=minutes),
                t("gameadmin.default.abandon_days", locale, count=abandon) if abandon
                else t("gameadmin.default.no_abandon", locale)]


async def setup(bot: App) -> None:
    await bot.add_cog(GameAdmin(bot))
