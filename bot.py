"""Floorboard's entry point: ``python bot.py`` runs the Discord bot; ``python bot.py play ...`` plays in a
terminal.

The bot owns the shared resources (settings, the SQLite store, the engine) and loads the cogs, which are the
whole Discord surface. Slash commands are synced only when their payload changed since the last sync.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sys
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import discord
import orjson
import yarl
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from cogs.utils.lang import CatalogTranslator
from cogs.utils.status import StatusMessages
from config import Settings, load_settings
from rules.engine import Engine, Notice, utcnow
from storage import StorageOpenError, Store

log = logging.getLogger("floorboard")

EXTENSIONS = ("cogs.admin", "cogs.lobby", "cogs.flying_blades", "cogs.floor_plan", "cogs.help", "cogs.floor_plan_daily",
              "cogs.the_floor", "cogs.the_floor_admin")
APP_SETTINGS_GUILD = 0  # settings rows of the application itself, not of a server
EXIT_NO_TOKEN, EXIT_BAD_TOKEN, EXIT_BAD_SETTINGS, EXIT_NO_INTENT, EXIT_STORAGE = 2, 3, 2, 4, 5
LOCAL_GUILD_READY_TIMEOUT = 0.05  # seconds; only with a local Discord double (point_at_local_api)

NO_TOKEN = """\
Floorboard needs a Discord bot token to run.
  1. Copy .env.example to .env
  2. Set DISCORD_TOKEN in .env to your bot's token (Discord developer portal > your application > Bot)
  3. Run `./floorboard` again.
To play without Discord: `./floorboard play flying_blades --players 3 --bots 2`."""
BAD_TOKEN = """\
Discord rejected the token (login failed). Check DISCORD_TOKEN in .env: copy the token again from the
Discord developer portal (your application > Bot > Reset Token); it is not the application id or secret."""
NO_INTENT = """\
Discord refused the Message Content intent. Enable it in the developer portal (your application > Bot >
Privileged Gateway Intents > Message Content Intent): typed moves in game threads need it."""


def make_intents() -> discord.Intents:
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.message_content = True
    return intents


async def tree_digest(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None) -> str:
    """A hash of exactly what a sync would upload (translations included)."""
    translator = tree.translator
    payload = []
    for command in tree.get_commands(guild=guild):
        if translator is not None:
            payload.append(await command.get_translated_payload(tree, translator))
        else:
            payload.append(command.to_dict(tree))
    payload.sort(key=lambda c: (c.get("type", 1), c["name"]))
    return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()


# Floorboard has no voice features: discord.py's start-up warnings about missing voice libraries are noise.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class Floorboard(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        intents: discord.Intents | None = None,
        now: Callable[[], datetime] = utcnow,
        sync_commands: bool = True,
        scheduler: bool = True,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        guild_ready_timeout: float = 2.0,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned_or(settings.command_prefix),
            intents=intents or make_intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            case_insensitive=True,
            guild_ready_timeout=guild_ready_timeout,
        )
        self.settings = settings
        self.now = now
        self.sync_commands = sync_commands
        self.run_scheduler = scheduler
        self.store: Store | None = None
        self.engine: Engine = None  # type: ignore[assignment]  # set in setup_hook
        self.surfaces: dict[str, Any] = {}
        # One status message per game, edited at most every settings.status_seconds (on the bot's clock).
        self.status_messages = StatusMessages(self, interval=settings.status_seconds, now=now, sleep=sleep)
        self.failed_extensions: dict[str, BaseException] = {}

    async def open_store(self) -> None:
        """Open the database (before logging in, so that a locked or damaged file stops the start at once)."""
        if self.store is None:
            self.store = await Store.open(self.settings.database_path)

    async def setup_hook(self) -> None:
        await self.open_store()
        assert self.store is not None
        self.engine = Engine.from_settings(self.store, self.settings, now=self.now)
        self.engine.add_listener(self.relay_notice)
        await self.tree.set_translator(CatalogTranslator())
        await self.load_all()
        if self.run_scheduler:
            await self.engine.start_scheduler()
        if self.sync_commands:
            try:
                await self.sync_tree()
            except discord.HTTPException:  # the bot still serves its prefix commands and old slash commands
                log.exception("syncing slash commands failed; will try again at the next start")

    async def load_all(self) -> None:
        """Load every extension; one that fails is logged and skipped so the others still serve."""
        for name in EXTENSIONS:
            try:
                await self.load_extension(name)
            except commands.ExtensionError as e:
                self.failed_extensions[name] = e
                log.exception("extension %s failed to load; continuing without it", name)

    async def relay_notice(self, notice: Notice) -> None:
        """Engine scheduler notices (timeouts, reminders, expired lobbies) become ``on_floorboard_notice``."""
        self.dispatch("floorboard_notice", notice)

    async def sync_tree(self) -> bool:
        """Sync slash commands (to DEV_GUILD_ID when set), only when their payload changed since last time."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        key = f"app_commands:{self.application_id}:{guild.id if guild else 'global'}"
        digest = await tree_digest(self.tree, guild)
        if await self.engine.guild_setting(APP_SETTINGS_GUILD, key, None) == digest:
            log.info("slash commands unchanged; not syncing")
            return False
        synced = await self.tree.sync(guild=guild)
        await self.engine.set_guild_setting(APP_SETTINGS_GUILD, key, digest)
        log.info("synced %d slash commands %s", len(synced), f"to guild {guild.id}" if guild else "globally")
        return True

    async def on_command_error(self, ctx: commands.Context[Any], error: commands.CommandError) -> None:
        if isinstance(error, commands.CommandNotFound):
            return  # "!something" that is not ours: chat, not an error
        if ctx.cog is None or ctx.cog.has_error_handler() is False:
            log.error("command %s failed", ctx.command, exc_info=error)

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        await self.status_messages.close()
        if self.engine is not None:
            await self.engine.stop()
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


def configure_logging(level: str) -> None:
    discord.utils.setup_logging(level=getattr(logging, level), root=True)


def point_at_local_api(settings: Settings) -> dict[str, Any]:
    """Test-only: talk to a local Discord double (tests/e2e) instead of discord.com when DISCORD_API_URL /
    DISCORD_GATEWAY_URL are set; returns the bot's extra options then (none otherwise)."""
    if not settings.discord_api_url and not settings.discord_gateway_url:
        return {}
    if settings.discord_api_url:
        api = settings.discord_api_url.rstrip("/")
        discord.http.Route.BASE = api  # every REST route, interaction callbacks and webhooks included
        discord.asset.Asset.BASE = str(yarl.URL(api).origin())  # the double answers CDN paths at its root
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
    log.warning("talking to a local Discord double, not Discord: API %s, gateway %s", settings.discord_api_url,
                settings.discord_gateway_url)
    # The double sends its one GUILD_CREATE at once: don't wait discord.py's 2 s for more before on_ready.
    return {"guild_ready_timeout": LOCAL_GUILD_READY_TIMEOUT}


async def run(bot: Floorboard, token: str) -> None:
    async with bot:
        await bot.open_store()
        await bot.start(token)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "play":
        from play_cli import main as play_main

        return play_main(argv[1:])
    try:
        settings = load_settings()
    except ValidationError as e:
        print(f"Invalid settings in the environment or .env:\n{e}", file=sys.stderr)
        return EXIT_BAD_SETTINGS
    configure_logging(settings.log_level)
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_NO_TOKEN
    try:
        asyncio.run(run(Floorboard(settings, **point_at_local_api(settings)), token))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return EXIT_BAD_TOKEN
    except discord.PrivilegedIntentsRequired:
        print(NO_INTENT, file=sys.stderr)
        return EXIT_NO_INTENT
    except StorageOpenError as e:
        print(f"Cannot open the database {e.path}: {e.reason}; {e.hint}.", file=sys.stderr)
        return EXIT_STORAGE
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
