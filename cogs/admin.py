"""Server settings for App: the language override, games in threads or not, and a health check."""

from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.checks import can_manage
from cogs.utils.lang import aliases, locale_of_ctx, ls
from cogs.utils.replies import handle_command_error, user_errors
from engine import PermissionDeniedError
from engine.matchmaking import BOT_WAIT_SETTING, MAX_BOT_WAIT_MINUTES
from engine.policies import POLICIES
from engine.web import set_web
from i18n import t
from rules.base import OptionsError

LANGUAGES = ("en", "pl", "auto")
LANGUAGE_CHOICES = [
    app_commands.Choice(name=ls("cmd.language.choice.en"), value="en"),
    app_commands.Choice(name=ls("cmd.language.choice.pl"), value="pl"),
    app_commands.Choice(name=ls("cmd.language.choice.auto"), value="auto"),
]
TIMEOUT_CHOICES = [app_commands.Choice(name=ls(f"cmd.timeouts.choice.{p}"), value=p) for p in POLICIES]


def require_manager(ctx: commands.Context[Any]) -> None:
    if not can_manage(ctx):
        raise PermissionDeniedError("bot.manage_server_only")


class Admin(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    @commands.hybrid_command(name=ls("cmd.language.name"), description=ls("cmd.language.description"),
                             aliases=aliases("cmd.language.name"))
    @commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(language=ls("cmd.language.language.name"))
    @app_commands.describe(language=ls("cmd.language.language.description"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, ctx: commands.Context[Any], language: str) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            require_manager(ctx)
            language = language.strip().lower()
            if language not in LANGUAGES:
                raise OptionsError("admin.bad_language", language=language, choices=", ".join(LANGUAGES))
            await ctx.defer()  # acknowledged before the write (a busy database must not time the interaction out)
            await self.bot.engine.set_guild_locale(ctx.guild.id, None if language == "auto" else language)
            locale = await locale_of_ctx(ctx)
            await ctx.send(t("admin.language_set", locale, language=t(f"admin.language.{language}", locale)))

    @commands.hybrid_command(name=ls("cmd.threads.name"), description=ls("cmd.threads.description"),
                             aliases=aliases("cmd.threads.name"))
    @commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(enabled=ls("cmd.threads.enabled.name"))
    @app_commands.describe(enabled=ls("cmd.threads.enabled.description"))
    async def threads(self, ctx: commands.Context[Any], enabled: bool) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            require_manager(ctx)
            await ctx.defer()
            await self.bot.engine.set_guild_setting(ctx.guild.id, "threads", enabled)
            await ctx.send(t("admin.threads_on" if enabled else "admin.threads_off", locale))

    @commands.hybrid_command(name=ls("cmd.timeouts.name"), description=ls("cmd.timeouts.description"),
                             aliases=aliases("cmd.timeouts.name"))
    @commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(policy=ls("cmd.timeouts.policy.name"))
    @app_commands.describe(policy=ls("cmd.timeouts.policy.description"))
    @app_commands.choices(policy=TIMEOUT_CHOICES)
    async def timeouts(self, ctx: commands.Context[Any], policy: str) -> None:
        """The server's default timeout policy for new lobbies (a lobby's ``on_timeout=`` option overrides it)."""
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            require_manager(ctx)
            policy = policy.strip().lower()
            if policy not in POLICIES:
                raise OptionsError("engine.options.on_timeout", value=policy[:20], allowed=", ".join(POLICIES))
            await ctx.defer()
            await self.bot.engine.set_guild_setting(ctx.guild.id, "on_timeout", policy)
            await ctx.send(t("admin.timeouts_set", locale, policy=t(f"admin.timeouts.{policy}", locale)))

    @commands.hybrid_command(name=ls("cmd.queuebots.name"), description=ls("cmd.queuebots.description"),
                             aliases=aliases("cmd.queuebots.name"))
    @commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(minutes=ls("cmd.queuebots.minutes.name"))
    @app_commands.describe(minutes=ls("cmd.queuebots.minutes.description"))
    async def queuebots(self, ctx: commands.Context[Any],
                        minutes: commands.Range[int, 0, MAX_BOT_WAIT_MINUTES]) -> None:
        """How long a ``bots:ok`` queue entry waits before bots fill its table (cogs/queue.py); 0: never."""
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            require_manager(ctx)
            await ctx.defer()
            await self.bot.engine.set_guild_setting(ctx.guild.id, BOT_WAIT_SETTING, minutes)
            await ctx.send(t("queue.bot_wait_set", locale, count=minutes) if minutes
                           else t("queue.bot_wait_off", locale))

    @commands.hybrid_command(name=ls("cmd.web.name"), description=ls("cmd.web.description"),
                             aliases=aliases("cmd.web.name"))
    @commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.rename(enabled=ls("cmd.web.enabled.name"))
    @app_commands.describe(enabled=ls("cmd.web.enabled.description"))
    async def web(self, ctx: commands.Context[Any], enabled: bool) -> None:
        """The server's read-only web pages (./floorboard web): on gives every tournament, game and player a
        random address; off answers 404 for all of them (the addresses come back if it is turned on again)."""
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            require_manager(ctx)
            await ctx.defer()
            slug = await set_web(self.bot.engine.store, ctx.guild.id, enabled)
            if not enabled:
                await ctx.send(t("admin.web_off", locale))
                return
            base = (self.bot.settings.web_base_url or "").rstrip("/")
            text = t("admin.web_on", locale)
            if base and slug:
                text += "\n" + t("admin.web_link", locale, url=f"{base}/s/{slug}")
            await ctx.send(text)

    @commands.hybrid_command(name=ls("cmd.ping.name"), description=ls("cmd.ping.description"))
    async def ping(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        latency = self.bot.latency
        ms = round(latency * 1000) if latency == latency and latency != float("inf") else 0
        await ctx.send(t("admin.pong", locale, ms=ms), ephemeral=True)


async def setup(bot: App) -> None:
    await bot.add_cog(Admin(bot))
