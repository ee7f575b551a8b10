"""Floorboard's entry point: ``./floorboard`` (``python bot.py``) runs the Discord bot; ``./floorboard play ...``
plays in a terminal. The command line itself is cli.py (click); this module is the bot and its start-up.

The bot owns the shared resources (settings, the SQLite store, the engine) and loads the cogs, which are the
whole Discord surface. Slash commands are synced only when their payload changed since the last sync.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import hashlib
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import aiohttp
import discord
import orjson
import yarl
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from cogs.utils.app import App
from cogs.utils.checks import FloorboardTree, numbers_in_range
from cogs.utils.lang import CatalogTranslator
from cogs.utils.replies import answer_unanswered
from cogs.utils.status import StatusMessages
from config import Settings, load_settings
from engine import Engine, Notice, utcnow
from engine.tournaments import Director
from render import kit
from render import pool as render_pool
from storage import Shards, StorageError, StorageOpenError, Store, open_store

log = logging.getLogger("floorboard")

EXTENSIONS = ("cogs.admin", "cogs.lobby", "cogs.flying_blades", "cogs.floor_plan", "cogs.help", "cogs.floor_plan_daily",
              "cogs.the_floor", "cogs.floating_world",
              "cogs.floating_floors", "cogs.away", "cogs.game_admin",
              "cogs.undo", "cogs.inbox", "cogs.profile", "cogs.tournaments", "cogs.replay", "cogs.follow",
              "cogs.queue")
APP_SETTINGS_GUILD = 0  # settings rows of the application itself, not of a server
EXIT_NO_TOKEN, EXIT_BAD_TOKEN, EXIT_BAD_SETTINGS, EXIT_NO_INTENT, EXIT_STORAGE = 2, 3, 2, 4, 5
EXIT_UNREACHABLE = 6
MAX_RETRY_SECONDS = 30.0
GATEWAY_AUTH_FAILED = 4004  # the gateway's close code for a token it refuses
GATEWAY_PROBE_TIMEOUT = 30.0  # seconds; discord.py itself allows 60 for a gateway handshake
LOCAL_GUILD_READY_TIMEOUT = 0.05  # seconds; only with a local Discord double (point_at_local_api)
LOOP_LAG_ENV = "FLOORBOARD_LOOP_LAG_LOG"  # seconds per loop-lag log line; unset: no ticker (benchmarks set it)
LOOP_LAG_TICK = 0.05  # seconds the ticker sleeps; its lateness is the loop's lag

NO_TOKEN = """\
Floorboard needs a Discord bot token to run.
  1. Copy .env.example to .env
  2. Set DISCORD_TOKEN in .env to your bot's token (Discord developer portal > your application > Bot)
  3. Run `./floorboard` again.
To play without Discord: `./floorboard play flying_blades --players 3 --bots 2`.
Every command: `./floorboard --help`."""
BAD_TOKEN = """\
Discord rejected the token (login failed). Check DISCORD_TOKEN in .env: copy the token again from the \
Discord developer portal (your application > Bot > Reset Token); it is not the application id or secret."""
NO_INTENT = """\
Discord refused the Message Content intent. Enable it in the developer portal (your application > Bot >
Privileged Gateway Intents > Message Content Intent): typed moves in game threads need it."""
UNREACHABLE = """\
Cannot reach Discord ({reason}); gave up after {attempts} attempts. Check the network connection and \
https://discordstatus.com, then run `./floorboard` again."""


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


class Floorboard(App):
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
        freeze_gc: bool = False,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned_or(settings.command_prefix),
            intents=intents or make_intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            case_insensitive=True,
            guild_ready_timeout=guild_ready_timeout,
            tree_cls=FloorboardTree,  # re-checks every slash option's declared range on receipt
            **shard_options(self, settings),
        )
        self.before_invoke(numbers_in_range)  # the same for prefix and hybrid commands, once converted
        self.settings = settings
        self.now = now
        self.sync_commands = sync_commands
        self.freeze_gc = freeze_gc  # the running bot's: a test process must not freeze its own objects
        self.run_scheduler = scheduler
        self.store: Store | None = None
        self.engine: Engine = None  # type: ignore[assignment]  # set in setup_hook
        self.director: Director = None  # type: ignore[assignment]  # set in setup_hook
        self.surfaces: dict[str, Any] = {}
        # One status message per game, edited at most every settings.status_seconds (on the bot's clock).
        self.status_messages = StatusMessages(self, interval=settings.status_seconds, now=now, sleep=sleep)
        self.failed_extensions: dict[str, BaseException] = {}
        self.setup_started = False  # from here on a failed login is not retried (setup_hook must run once)
        self.fallbacks: set[asyncio.Task[None]] = set()
        self.web_runner: Any = None  # the web site's aiohttp runner, with WEB_PORT set

    async def open_store(self) -> None:
        """Open the database (before logging in, so that a locked or damaged file stops the start at once)."""
        if self.store is None:
            self.store = await open_store(self.settings.store_url)

    async def setup_hook(self) -> None:
        self.setup_started = True
        self.answer_every_component()
        await self.open_store()
        assert self.store is not None
        # Bots think where images are drawn: in the render worker processes once they are up (below).
        self.engine = Engine.from_settings(self.store, self.settings, now=self.now, offload=render_pool.draw)
        self.engine.add_listener(self.relay_notice)
        if self.settings.sharded:  # fire only the deadlines of guilds on this process's shards
            self.engine.scheduler.shards = Shards(self.settings.shard_count or 1, self.settings.shard_list or (0,))
        self.engine.scheduler.lease_seconds = self.settings.deadline_lease_seconds
        # Images are drawn in worker processes from now on (they warm up while the cogs load; until they are
        # up, in threads: their start waits seconds for the forkserver's imports, and must not block the loop).
        # The forkserver that forks them also serves the tournament pairing's children (league.pairing), and
        # Floating Floors' "what if" runs the rules' preview in a worker (cogs.floating_floors.whatif_of), and bot
        # seats' choices are made there (rules.bot_choice).
        render_pool.start(self.settings.render_workers, preload=("league.pairing", "cogs.floating_floors"),
                          background=True)
        # Tournaments run on the engine (their rounds' deadlines are a due source of its scheduler); the
        # tournaments cog gives the director its surface (a thread per table, the announcements).
        self.director = Director(self.engine)
        await self.tree.set_translator(CatalogTranslator())
        await self.load_all()
        try:  # a damaged save is announced at start (the cogs listen now), though the start loads few games
            await self.engine.check_stored()
        except StorageError:
            log.exception("the stored games could not be checked for damage; each is checked when it is used")
        try:  # games that ended while the bot was down reach their tournaments now
            await self.director.catch_up()
        except StorageError:
            log.exception("tournaments could not be resumed; they catch up at their next deadline")
        if self.freeze_gc:
            freeze_loaded()
        if self.run_scheduler:
            await self.engine.start_scheduler()
        await self.start_web()
        if self.sync_commands:
            try:
                await self.sync_tree()
            except (discord.HTTPException, aiohttp.ClientError, OSError):  # it still serves the old commands
                log.exception("syncing slash commands failed; will try again at the next start")

    async def start_web(self) -> None:
        """WEB_PORT set: the read-only web site in this process (docs/web.md). A port in use is logged, and the
        bot runs without it."""
        if self.settings.web_port is None or self.store is None:
            return
        from web import start  # lazy: aiohttp's server is loaded only when the site is served from here

        try:
            self.web_runner = await start(self.store, self.settings.web_host, self.settings.web_port)
        except OSError:
            log.exception("the web site could not listen on %s:%s; the bot runs without it",
                          self.settings.web_host, self.settings.web_port)

    def answer_every_component(self) -> None:
        """Every button click and menu choice gets an answer: discord.py's component dispatch is wrapped so that,
        once the handlers it started are done, a click none of them answered gets a short private reply (a
        custom_id that matches no template, a forged one, a handler that returned without a word)."""
        store = self._connection._view_store  # discord.py 2.7: dispatch_view is synchronous, handlers are tasks
        dispatch, add_task = store.dispatch_view, store.add_task

        def dispatch_view(component_type: int, custom_id: str, interaction: discord.Interaction) -> None:
            started: list[asyncio.Task[None]] = []

            def track(task: asyncio.Task[None]) -> None:
                started.append(task)
                add_task(task)

            store.add_task = track  # type: ignore[method-assign]
            try:
                dispatch(component_type, custom_id, interaction)
            finally:
                store.add_task = add_task  # type: ignore[method-assign]
            task = asyncio.create_task(answer_unanswered(interaction, started),
                                       name=f"discord-ui-fallback-{interaction.id}")
            self.fallbacks.add(task)
            task.add_done_callback(self.fallbacks.discard)

        store.dispatch_view = dispatch_view  # type: ignore[method-assign]

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
        if self.web_runner is not None:
            await self.web_runner.cleanup()
            self.web_runner = None
        await self.status_messages.close()
        if self.engine is not None:
            await self.engine.stop()
        await super().close()
        render_pool.stop()
        if self.store is not None:
            await self.store.close()
            self.store = None


class ShardedFloorboard(Floorboard, commands.AutoShardedBot):
    """The bot holding SHARD_IDS of SHARD_COUNT gateway shards (docs/operations.md, running several processes).
    Its MRO puts discord.py's AutoShardedClient before Client: one connection per shard, in one process."""


def shard_options(bot: commands.Bot, settings: Settings) -> dict[str, Any]:
    """The shards an `AutoShardedBot` is told to hold: exactly the configured ones (none for a plain Bot)."""
    if not isinstance(bot, commands.AutoShardedBot) or not settings.sharded:
        return {}
    return {"shard_count": settings.shard_count, "shard_ids": list(settings.shard_list or ())}


def make_bot(settings: Settings, **kw: Any) -> Floorboard:
    """The bot the settings ask for: sharded when SHARD_COUNT is set; syncing slash commands when it is the one
    process that does (SYNC_COMMANDS, by default the holder of shard 0)."""
    cls = ShardedFloorboard if settings.sharded else Floorboard
    return cls(settings, sync_commands=settings.syncs_commands, **kw)


PLAIN_LOG = logging.Formatter("[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{")


def log_colour(stream: Any) -> bool:
    """Colour only on a terminal. discord.py also colours inside Docker without one, so a log file or a
    container's log got escape codes; NO_COLOR (no-color.org) turns colour off everywhere."""
    isatty = getattr(stream, "isatty", None)
    return not os.environ.get("NO_COLOR") and callable(isatty) and bool(isatty())


def configure_logging(level: str, stream: Any = None) -> logging.Handler:
    """Log to ``stream`` (stderr by default) through the root logger; returns the handler."""
    handler = logging.StreamHandler(stream)
    if log_colour(handler.stream):  # discord.py's coloured formatter, which it picks for a terminal itself
        discord.utils.setup_logging(handler=handler, level=getattr(logging, level), root=True)
    else:
        discord.utils.setup_logging(handler=handler, formatter=PLAIN_LOG, level=getattr(logging, level), root=True)
    return handler


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


class DiscordUnreachable(Exception):
    """Discord could not be reached at start, however often it was tried."""

    def __init__(self, reason: str, attempts: int) -> None:
        super().__init__(reason)
        self.reason, self.attempts = reason, attempts


def is_transient(error: BaseException) -> bool:
    """A failure worth retrying: the network, a timeout, or Discord's own 5xx (not a rejected token)."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500
    return isinstance(error, OSError | aiohttp.ClientError | TimeoutError | discord.GatewayNotFound)


def describe(error: BaseException) -> str:
    """One line for a network error (aiohttp's texts are already short; a timeout has none)."""
    if isinstance(error, TimeoutError):
        return "timed out"
    return " ".join(str(error).split()) or type(error).__name__


def retry_delays(settings: Settings) -> list[float]:
    """The waits between attempts: CONNECT_RETRY_SECONDS, doubling, at most MAX_RETRY_SECONDS."""
    first = settings.connect_retry_seconds
    return [min(first * 2**i, MAX_RETRY_SECONDS) for i in range(settings.connect_attempts - 1)]


async def with_retries(settings: Settings, step: Callable[[], Awaitable[None]], *,
                       retryable: Callable[[BaseException], bool] = is_transient,
                       sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
    """Run ``step`` until it succeeds; a transient failure is announced in one line and retried with back-off,
    and when the attempts run out it becomes `DiscordUnreachable`. Anything else is raised at once."""
    delays = retry_delays(settings)
    attempts = len(delays) + 1
    for attempt in range(1, attempts + 1):
        try:
            return await step()
        except Exception as e:
            if not retryable(e):
                raise
            if attempt == attempts:
                raise DiscordUnreachable(describe(e), attempts) from None
            delay = delays[attempt - 1]
            log.warning("cannot reach Discord (%s); retrying in %g s, attempt %d of %d", describe(e), delay,
                        attempt + 1, attempts)
            await sleep(delay)


async def login(bot: Floorboard, token: str) -> None:
    """One login attempt. A failed one closes its HTTP session: the next attempt opens a new one (and no
    unclosed-session warning is printed at exit)."""
    try:
        await bot.login(token)
    except Exception:
        if not bot.setup_started:
            await bot.http.close()
            bot.http.connector = discord.utils.MISSING
        raise


M_ARENA_MAX = -8  # glibc's mallopt() parameter number (malloc.h)
MALLOC_ARENAS = 1


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """glibc's ``MALLOC_ARENA_MAX`` for this process, set before its first thread: the threads that allocate
    beside the event loop (SQLite's connection thread, the render pool's feeders) would each get a malloc arena of
    their own that keeps its freed pages; in one arena the memory soak's main process grew 2.0 MB over its last
    5,000 moves instead of 3.4 (docs/benchmarks.md, Memory, seventh pass). The operator's own ``MALLOC_ARENA_MAX``
    wins; False where there is no glibc (nothing to do)."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(M_ARENA_MAX, arenas))
    except (OSError, AttributeError):
        return False


def freeze_loaded() -> None:
    """Move what the start loaded (every running game: The Floor's cog loads them all) out of the cyclic GC's
    reach. They stay while their games run, and each full collection would walk them all: 0.23 s of CPU per pass
    with 5,000 games loaded, 0.07 s without (docs/benchmarks.md, Memory). Frozen objects are still freed by
    reference counting when their game moves on or ends."""
    gc.collect()
    gc.freeze()


async def probe_gateway(bot: Floorboard) -> None:
    """Open and close one gateway websocket (no IDENTIFY), so that a gateway that cannot be reached at start is
    reported and retried like the REST API, instead of by discord.py's endless reconnect loop."""
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    url = gateway.with_query(v=discord.http.INTERNAL_API_VERSION, encoding="json")
    ws = await asyncio.wait_for(bot.http.ws_connect(str(url)), timeout=GATEWAY_PROBE_TIMEOUT)
    with contextlib.suppress(aiohttp.ClientError, OSError):
        await ws.close()


async def log_loop_lag(every: float) -> None:
    """Every ``every`` s, one log line with the worst lateness of a `LOOP_LAG_TICK` ticker in that window (how
    long a callback waited for the loop) and the wall time, for tests.bench.bench_cluster to read."""
    loop = asyncio.get_running_loop()
    worst, window_end = 0.0, loop.time() + every
    while True:
        expected = loop.time() + LOOP_LAG_TICK
        await asyncio.sleep(LOOP_LAG_TICK)
        worst = max(worst, loop.time() - expected)
        if loop.time() >= window_end:
            log.info("loop lag: max %.1f ms at %.3f", worst * 1000, time.time())
            worst, window_end = 0.0, loop.time() + every


def start_loop_lag_log() -> asyncio.Task[None] | None:
    """The opt-in loop-lag ticker (``FLOORBOARD_LOOP_LAG_LOG``=seconds, e.g. 1), from the loop's first moment."""
    every = os.environ.get(LOOP_LAG_ENV, "").strip()
    if not every:
        return None
    return asyncio.create_task(log_loop_lag(float(every)), name="loop-lag-log")


async def run(bot: Floorboard, token: str) -> None:
    _lag_ticker = start_loop_lag_log()  # held for the loop's whole life: a task nobody references may be collected
    async with bot:
        await bot.open_store()
        # Once setup_hook has begun (after Discord answered), a failure is not a network one to retry.
        await with_retries(bot.settings, lambda: login(bot, token),
                           retryable=lambda e: is_transient(e) and not bot.setup_started)
        await with_retries(bot.settings, lambda: probe_gateway(bot))
        await bot.connect()  # from here on a dropped connection is discord.py's to resume


def run_bot() -> int:
    """Run the bot until it is stopped; returns the process's exit code (README, Operations)."""
    try:
        settings = load_settings()
    except ValidationError as e:
        print(f"Invalid settings in the environment or .env:\n{e}", file=sys.stderr)
        return EXIT_BAD_SETTINGS
    configure_logging(settings.log_level)
    limit_malloc_arenas()
    kit.use_format(settings.image_format)  # for the whole process: every image this bot posts
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        print(NO_TOKEN, file=sys.stderr)
        return EXIT_NO_TOKEN
    try:
        asyncio.run(run(make_bot(settings, freeze_gc=True, **point_at_local_api(settings)), token))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return EXIT_BAD_TOKEN
    except discord.ConnectionClosed as e:
        if e.code != GATEWAY_AUTH_FAILED:
            raise
        print(BAD_TOKEN, file=sys.stderr)  # the REST API took the token but the gateway did not
        return EXIT_BAD_TOKEN
    except discord.PrivilegedIntentsRequired:
        print(NO_INTENT, file=sys.stderr)
        return EXIT_NO_INTENT
    except StorageOpenError as e:
        print(f"Cannot open the database {e.path}: {e.reason}; {e.hint}.", file=sys.stderr)
        return EXIT_STORAGE
    except DiscordUnreachable as e:
        print(UNREACHABLE.format(reason=e.reason, attempts=e.attempts), file=sys.stderr)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    # `python bot.py ARGS` is the command line, as ./floorboard runs it. Only the script imports cli: the module
    # `bot` never does (cli imports it to run the bot), so no cycle.
    import cli

    sys.exit(cli.main())
