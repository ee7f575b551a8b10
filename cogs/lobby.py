"""The surface every game shares: ``/play`` lobbies, moves (slash, prefix or typed), boards, results, notices.

Hybrid commands serve both slash and ``!prefix`` users. Each request becomes ``(table, user, action text)``
for the engine, which re-checks seat, turn and version; what happened is posted as new messages by
`cogs.utils.posting`. A game lives in its own thread unless the server turned threads off.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import weakref
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.checks import can_manage
from cogs.utils.components import GENERIC_ITEMS, LOBBY_ACTIONS, LobbyButton, ResignButton, view_of
from cogs.utils.ending import game_ended, thread_reopened
from cogs.utils.lang import aliases, guild_locale, locale_of_ctx, locale_of_interaction, ls
from cogs.utils.posting import (
    ANNOUNCED_META,
    Post,
    after_move,
    board_file,
    channel_of,
    edit_quietly,
    finish_post,
    pinging,
    publish,
    resume,
    send_private,
    supersede_prompt,
)
from cogs.utils.replies import (
    acknowledge,
    edit_response,
    handle_command_error,
    in_time,
    refuse_public,
    send_ephemeral,
    user_errors,
)
from cogs.utils.status import META_KEY as STATUS_META
from cogs.utils.status import status_message, time_control_text
from cogs.utils.summary import ReplayOpenButton
from cogs.utils.surface import GameSurface, Segment, escape, find_game, game_choices, seat_name, surface_for
from cogs.utils.text import BOT_MARK, NAME_LIMIT, Markup, clean, code, mention
from engine import (
    LOBBY_OPTIONS,
    ActResult,
    ChannelBusyError,
    DamagedGameError,
    GameNotFoundError,
    GameOverError,
    LobbyError,
    Notice,
    NotSeatedError,
    PermissionDeniedError,
    SeatInfo,
    Table,
)
from engine import players as quiet
from engine.policies import check_options, settings_of
from i18n import LOCALES, t
from rules.base import FloorboardError, Game, OptionsError

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES = 10080
# Free text is bounded before anything reads it (Discord enforces these on slash options; prefix use gets a reply).
MAX_ACTION, MAX_OPTIONS, MAX_GAME_NAME = 400, 300, 60
MAX_TABLE_ID = 2**53  # Discord's integer options stop here; SQLite's would overflow past 2**63 (a typed !record)
MAX_LIST = 1900
_OPTION_SPLIT = re.compile(r"[\s,;]+")
_INT = re.compile(r"-?\d+")
GENERIC = GameSurface()
GAME_CHOICES = game_choices()


def parse_options(text: str) -> dict[str, Any]:
    """``"cards=open turn_minutes=30"`` → ``{"cards": "open", "turn_minutes": 30}``."""
    options: dict[str, Any] = {}
    for token in _OPTION_SPLIT.split(text.strip()):
        if not token:
            continue
        key, sep, value = token.partition("=")
        if not sep or not key or not value:
            raise OptionsError("lobby.bad_option", token=token)
        options[key.lower()] = int(value) if _INT.fullmatch(value) else value.lower()
    return options


def options_text(options: dict[str, Any]) -> str:
    """The options as typed (``clock=30 lang=pl``); structured ones (a server's own content) are not shown."""
    return " ".join(f"{k}={v}" for k, v in sorted(options.items()) if not isinstance(v, dict | list))


def member_seat(user: discord.abc.User) -> SeatInfo:
    """A seat for a member; the name is stored clean (no control or bidi characters, clipped), so that the
    record, the images and every message start from the same safe text."""
    return SeatInfo(user.id, clean(user.display_name, NAME_LIMIT))


def check_can_resign(table: Table, user_id: int) -> None:
    """Resigning needs a running game and a seat at it (asked before the confirmation, and again after)."""
    if table.status == "lobby":
        raise GameOverError("engine.not_started")
    if table.status != "active":
        raise GameOverError("engine.not_running")
    if table.seat_of(user_id) is None:
        raise NotSeatedError("engine.not_seated")


def confirm_words() -> set[str]:
    """``!resign confirm`` resigns without the buttons; the word in any shipped language."""
    return {t("lobby.resign_confirm_word", loc).lower() for loc in LOCALES}


class Lobby(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot
        self.resumed = False
        self._posting: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def posting(self, table_id: int) -> asyncio.Lock:
        """One poster at a time of a game's moves that were saved but not yet shown: the restart's resume and a
        deadline's notice (a timeout fired by the first scheduler pass after a restart) would both post them."""
        return self._posting.setdefault(table_id, asyncio.Lock())

    async def shown(self, table: Table) -> bool:
        """Has a board showing ``table``'s moves been posted already (by the restart's resume, say)?"""
        try:
            fresh = await self.engine.get(table.id)
        except DamagedGameError:
            return False
        return int(fresh.meta.get(ANNOUNCED_META, 0)) >= table.moves

    @property
    def engine(self) -> Any:
        return self.bot.engine

    def surface(self, game: str) -> GameSurface:
        return surface_for(self.bot, game)

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    # --- helpers -------------------------------------------------------------------------------------

    def find_game(self, text: str) -> Game:
        return find_game(self.engine.games, text)

    async def table_here(self, channel_id: int) -> Table:
        table = await self.engine.table_in_channel(channel_id)
        if table is None:
            raise GameNotFoundError("lobby.no_table")
        return table

    async def last_table_here(self, channel_id: int) -> Table:
        """The channel's open game, else the last game that ended in it (``/record`` in a finished game's
        thread)."""
        try:
            return await self.table_here(channel_id)
        except GameNotFoundError:
            table = await self.engine.last_closed_table_in_channel(channel_id)
            if table is None:
                raise
            return table

    async def remember_lobby(self, table: Table, message: Any) -> None:
        """The lobby message's id, so that its buttons can be taken away when the lobby closes (at Start it
        becomes the status message under the same key)."""
        try:
            await self.engine.set_meta(table.id, **{STATUS_META: message.id})
        except (FloorboardError, AttributeError) as e:  # bookkeeping only: the lobby works without it
            log.warning("could not remember the lobby message of table %s: %s", table.id, e)

    async def close_lobby(self, table: Table, channel: Any, locale: str) -> None:
        """A lobby that closed without a game (expired, aborted): its message shows that and loses its
        buttons (they would only refuse now), and its thread is set to archive."""
        message_id = table.meta.get(STATUS_META)
        if message_id is not None:
            await edit_quietly(channel, int(message_id), **self.lobby_message(table, locale))
        await game_ended(self.bot, channel, table, locale)

    def lobby_message(self, table: Table, locale: str) -> dict[str, Any]:
        surface = self.surface(table.game)
        rules = table.rules
        embed = discord.Embed(title=t("lobby.title", locale, game=surface.game_name(locale), table=table.id),
                              colour=discord.Colour.blurple())
        embed.description = "\n".join(self.lobby_seat(table, i, locale) for i in range(len(table.seats)))
        players = t("lobby.players_value", locale, count=len(table.seats), min=rules.min_players,
                    max=rules.max_players)
        options = f"`{code(options_text(table.options), 1000)}`" if table.options else \
            t("lobby.options_default", locale)
        embed.add_field(name=t("lobby.players", locale), value=players, inline=True)
        embed.add_field(name=t("lobby.options", locale), value=options, inline=True)
        embed.add_field(name=t("status.clock", locale), value=time_control_text(table, locale), inline=False)
        items: list[discord.ui.Item[Any]] = []
        if table.status == "lobby":
            minutes = table.meta.get("lobby_minutes", self.engine.lobby_minutes)  # the server's (engine/admin.py)
            embed.set_footer(text=t("lobby.help", locale, minutes=minutes))
            items = [LobbyButton.make(table.game, a, table.id, table.version, locale) for a in LOBBY_ACTIONS]
        else:
            embed.set_footer(text=t(f"lobby.status.{table.status}", locale))
        return {"embed": embed, "view": view_of(items)}

    def lobby_seat(self, table: Table, seat: int, locale: str) -> str:
        info = table.seats[seat]
        label = f"{BOT_MARK} {escape(info.name)}" if info.bot else f"<@{info.user_id}>"  # the mark of a bot seat
        host = f" {t('lobby.host_mark', locale)}" if not info.bot and info.user_id == table.host_id else ""
        return f"{seat + 1}. {label}{host}"

    async def wants_thread(self, ctx: commands.Context[Any]) -> bool:
        """A lobby opened in a server's text channel gets its own thread, unless the server said no."""
        if ctx.guild is None or not isinstance(ctx.channel, discord.TextChannel):
            return False
        return bool(await self.engine.guild_setting(ctx.guild.id, "threads", True))

    async def new_thread(self, ctx: commands.Context[Any], game_name: str, locale: str) -> Any:
        # A thread name shows no markdown, but a bidi override in it would turn the channel list around.
        name = t("lobby.thread_name", locale, game=game_name, name=clean(ctx.author.display_name, NAME_LIMIT))[:100]
        try:
            return await ctx.channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                   auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as e:
            log.warning("no thread in %s (%s): the lobby opens in the channel", ctx.channel.id, e)
            return ctx.channel

    async def begin(self, table: Table, locale: str) -> None:
        """The game has started: bots make their first moves, then the first board is posted."""
        channel = await channel_of(self.bot, table.channel_id)
        if channel is None:
            return
        surface = self.surface(table.game)
        bots = await self.engine.play_bots(table.id)
        segments = [Segment(surface.intro(table, locale), table), *(surface.segment(r, locale) for r in bots)]
        await publish(self.bot, channel, segments, locale)

    async def act(self, table: Table, user_id: int, action: str, *, typed: bool, interaction_id: int,
                  version: int | None = None) -> ActResult:
        surface = self.surface(table.game)
        action = surface.normalize(action)
        if typed and surface.is_private_action(table, action):
            raise FloorboardError(surface.private_action_key)
        return await self.engine.act(table.id, user_id, action, version=version,
                                     interaction_id=interaction_id)

    # --- commands ------------------------------------------------------------------------------------

    @commands.hybrid_command(name=ls("cmd.play.name"), description=ls("cmd.play.description"),
                             aliases=aliases("cmd.play.name"))
    @commands.guild_only()
    @app_commands.rename(game=ls("cmd.play.game.name"), options=ls("cmd.play.options.name"))
    @app_commands.describe(game=ls("cmd.play.game.description"), options=ls("cmd.play.options.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def play(self, ctx: commands.Context[Any], game: commands.Range[str, 1, MAX_GAME_NAME], *,
                   options: commands.Range[str, 0, MAX_OPTIONS] = "") -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            rules = self.find_game(game)
            opts = parse_options(options)
            check_options(rules, opts)  # bad options (the rules' or the table's) fail before a thread is made
            opts = await self.surface(rules.id).lobby_options(self.bot, ctx.guild.id, opts, locale)
            use_thread = await self.wants_thread(ctx)
            if not use_thread and await self.engine.table_in_channel(ctx.channel.id) is not None:
                raise ChannelBusyError("engine.channel_busy")
            await ctx.defer()
            name = self.surface(rules.id).game_name(locale)
            channel = await self.new_thread(ctx, name, locale) if use_thread else ctx.channel
            try:
                table = await self.engine.open_lobby(rules.id, guild_id=ctx.guild.id, channel_id=channel.id,
                                                     host=member_seat(ctx.author), options=opts)
            except FloorboardError:
                if channel is not ctx.channel:
                    await channel.delete()
                raise
            if channel is ctx.channel:
                await self.remember_lobby(table, await ctx.send(**self.lobby_message(table, locale)))
                return
            await self.remember_lobby(table, await channel.send(**self.lobby_message(table, locale)))
            await ctx.send(t("lobby.opened_in", locale, host=ctx.author.mention, game=name,
                             thread=channel.mention))

    @commands.hybrid_command(name=ls("cmd.move.name"), description=ls("cmd.move.description"),
                             aliases=aliases("cmd.move.name"))
    @commands.guild_only()
    @app_commands.rename(action=ls("cmd.move.action.name"))
    @app_commands.describe(action=ls("cmd.move.action.description"))
    async def move(self, ctx: commands.Context[Any], *, action: commands.Range[str, 1, MAX_ACTION]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.table_here(ctx.channel.id)
            if await self.surface(table.game).preview_move(ctx, table, action, locale):
                return
            source = ctx.interaction or ctx.message
            work = self.act(table, ctx.author.id, action, typed=ctx.interaction is None, interaction_id=source.id)
            if ctx.interaction is None:
                result = await work
            else:  # saved first, unless it queues past the budget: then answered privately first
                result = await in_time(ctx.interaction, work, thinking=True)
                await acknowledge(ctx.interaction, thinking=True)
            if result.duplicate:
                await send_ephemeral(ctx, t("bot.duplicate", locale))
                return
            if ctx.interaction is None:
                await ctx.defer()
                await after_move(self.bot, result, locale, channel=ctx.channel, first=ctx.send)
                return
            # The board is for everyone: posted in the channel; the private "thinking…" placeholder goes away.
            await after_move(self.bot, result, locale, channel=ctx.channel)
            try:
                await ctx.interaction.delete_original_response()
            except discord.HTTPException:
                log.info("could not remove the placeholder of /move in %s", ctx.channel.id)

    @commands.hybrid_command(name=ls("cmd.board.name"), description=ls("cmd.board.description"),
                             aliases=aliases("cmd.board.name"))
    @commands.guild_only()
    async def board(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.table_here(ctx.channel.id)
            if table.status == "lobby":  # the lobby again, at the bottom: the old one's buttons go
                message = await ctx.send(**self.lobby_message(table, locale))
                old = table.meta.get(STATUS_META)
                if old is not None and int(old) != getattr(message, "id", None):
                    await edit_quietly(ctx.channel, int(old), view=None)
                await self.remember_lobby(table, message)
                return
            await ctx.defer()
            surface = self.surface(table.game)
            caption = t("bot.board_caption", locale, game=surface.game_name(locale), table=table.id)
            post = Post([caption], table)
            finish_post(post, surface, table, locale)
            post.pings = []  # a reposted board does not notify anyone
            kwargs = await post.kwargs(locale)
            if "file" not in kwargs and table.state is not None:  # a game drawn by its surface (Floor Plan)
                png = await surface.board_png(table, locale)
                if png is not None:
                    kwargs["file"] = board_file(table, png)
            message = await ctx.send(**kwargs)
            if "view" in kwargs:  # the reposted board's buttons are the live ones now
                await supersede_prompt(self.bot, ctx.channel, table, message)

    @commands.hybrid_command(name=ls("cmd.hand.name"), description=ls("cmd.hand.description"),
                             aliases=aliases("cmd.hand.name"))
    @commands.guild_only()
    async def hand(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        if await refuse_public(ctx, locale):  # a prefix command can only answer in public
            return
        async with user_errors(ctx, locale):
            table = await self.table_here(ctx.channel.id)
            await send_private(self.bot, ctx.interaction, table, locale)

    @commands.hybrid_command(name=ls("cmd.resign.name"), description=ls("cmd.resign.description"),
                             aliases=aliases("cmd.resign.name"))
    @commands.guild_only()
    async def resign(self, ctx: commands.Context[Any]) -> None:
        """Asks first: Resign / Keep playing buttons, ephemeral for /resign. ``!resign confirm`` resigns at once
        (nothing about a resignation is secret, so the prefix form's question is public)."""
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.table_here(ctx.channel.id)
            check_can_resign(table, ctx.author.id)
            rest = "" if ctx.interaction is not None else ctx.view.read_rest().strip().lower()
            if rest in confirm_words():
                result = await self.engine.resign(table.id, ctx.author.id, interaction_id=ctx.message.id)
                if result.duplicate:
                    await send_ephemeral(ctx, t("bot.duplicate", locale))
                    return
                await after_move(self.bot, result, locale, channel=ctx.channel)
                return
            items: list[discord.ui.Item[Any]] = [
                ResignButton.make(table.game, choice, table.id, ctx.author.id, locale) for choice in ("yes", "no")]
            question = t("lobby.resign_ask", locale, game=self.surface(table.game).game_name(locale),
                         table=table.id)
            if ctx.interaction is None:
                question += "\n" + t("lobby.resign_ask_prefix", locale, name=ctx.author.mention,
                                      command=f"{ctx.clean_prefix}{ctx.invoked_with}",
                                      word=t("lobby.resign_confirm_word", locale))
            await send_ephemeral(ctx, question, view=view_of(items))

    @commands.hybrid_command(name=ls("cmd.abort.name"), description=ls("cmd.abort.description"),
                             aliases=aliases("cmd.abort.name"))
    @commands.guild_only()
    @app_commands.rename(table=ls("cmd.abort.table.name"))
    @app_commands.describe(table=ls("cmd.abort.table.description"))
    async def abort(self, ctx: commands.Context[Any], table: commands.Range[int, 1, MAX_TABLE_ID] | None = None,
                    ) -> None:
        """``table``: a damaged game of this server by its number, for one whose channel cannot be read (a healthy
        game is ended in its own channel, where its status and buttons are)."""
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            try:
                if table is not None:
                    healthy = await self.engine.get(table)  # it loads: ended in its own channel, like any game
                    if healthy.guild_id != ctx.guild.id:
                        raise GameNotFoundError("engine.no_game", table=table)
                    where = Markup(f"<#{healthy.channel_id}>")
                    raise GameNotFoundError("lobby.abort_in_channel", table=table, channel=where)
                found = await self.table_here(ctx.channel.id)
            except DamagedGameError as e:  # its row does not load: closed by id, the row kept for an export
                await self.damaged_for_export(ctx, e)  # this server's game; its host or an admin
                await self.engine.abort_damaged(e.table_id, ctx.author.id, is_admin=can_manage(ctx))
                await ctx.send(t("lobby.damaged_aborted", locale, table=e.table_id, name=ctx.author.mention))
                return
            was_lobby = found.status == "lobby"
            found = await self.engine.abort(found.id, ctx.author.id, is_admin=can_manage(ctx))
            await ctx.send(t("bot.aborted_by", locale, table=found.id, name=ctx.author.mention))
            if was_lobby:
                await self.close_lobby(found, ctx.channel, locale)
                return
            await supersede_prompt(self.bot, ctx.channel, found, None)  # the last board's buttons go
            await self.bot.status_messages.update(found, locale)
            await game_ended(self.bot, ctx.channel, found, locale)

    @commands.hybrid_command(name=ls("cmd.games.name"), description=ls("cmd.games.description"),
                             aliases=aliases("cmd.games.name"))
    @commands.guild_only()
    async def games(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        tables = await self.engine.active_tables(ctx.guild.id)
        lines = [self.games_line(table, locale) for table in tables]
        lines += [t("lobby.games_damaged", locale, table=shell.id, channel=f"<#{shell.channel_id}>")
                  for shell in await self.engine.damaged_tables(ctx.guild.id)]
        lines = lines or [t("lobby.games_none", locale)]
        text, shown = "", 0
        for line in lines:
            if len(text) + len(line) > MAX_LIST:
                text += t("lobby.games_more", locale, count=len(lines) - shown)
                break
            text, shown = text + line + "\n", shown + 1
        await ctx.send(text.strip(), ephemeral=True)

    def games_line(self, table: Table, locale: str) -> str:
        surface = self.surface(table.game)
        return t("lobby.games_line", locale, table=table.id, game=surface.game_name(locale),
                 status=t(f"lobby.status.{table.status}", locale), count=len(table.seats),
                 channel=f"<#{table.channel_id}>")

    @commands.hybrid_command(name=ls("cmd.record.name"), description=ls("cmd.record.description"),
                             aliases=aliases("cmd.record.name"))
    @commands.guild_only()
    @app_commands.rename(table=ls("cmd.record.table.name"))
    @app_commands.describe(table=ls("cmd.record.table.description"))
    async def record(self, ctx: commands.Context[Any], table: commands.Range[int, 1, MAX_TABLE_ID] | None = None,
                     ) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            try:
                found = await (self.last_table_here(ctx.channel.id) if table is None
                               else self.engine.get(table))
                redact = self.surface(found.game).redact_record
            except DamagedGameError as e:
                found = await self.damaged_for_export(ctx, e)
                redact = GENERIC.redact_record
            if found.guild_id != ctx.guild.id:
                raise GameNotFoundError("engine.no_game", table=table)
            text = redact(found, await self.engine.record(found.id))
            file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{found.game}-{found.id}.txt")
            caption = t("lobby.record_caption", locale, table=found.id)
            if found.state is not None:  # a started game replays from this log (cogs/replay.py)
                caption += "\n" + t("replay.record_line", locale, table=found.id)
            await ctx.send(caption, file=file, ephemeral=True)

    async def damaged_for_export(self, ctx: commands.Context[Any], error: DamagedGameError) -> Table:
        """A damaged game's record goes to its host or an admin only: without its state nothing in the log can
        be redacted by the game's rules."""
        shell = next((d for d in await self.engine.damaged_tables(ctx.guild.id) if d.id == error.table_id), None)
        if shell is None:
            raise error
        if ctx.author.id != shell.host_id and not can_manage(ctx):
            raise PermissionDeniedError("engine.host_or_admin")
        return shell

    # --- components ----------------------------------------------------------------------------------

    async def lobby_button(self, interaction: discord.Interaction, action: str, table_id: int,
                           version: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            user = interaction.user
            # Join and Leave mean the same on any version of the lobby; Add bot and Start act on the table as
            # shown, so the engine checks their version under the game's lock.
            if action == "join":
                work = self.engine.join(table_id, member_seat(user))
            elif action == "leave":
                work = self.engine.leave(table_id, user.id)
            elif action == "bot":
                work = self.engine.add_bot(table_id, user.id, version=version)
            else:
                work = self.engine.start(table_id, user.id, version=version)
            table = await in_time(interaction, work)
            if table.status != "active":
                await edit_response(interaction, **self.lobby_message(table, locale))
                return
            # Started: the lobby message becomes the game's status message, kept current from now on.
            await edit_response(interaction, **status_message(self.bot, table, locale))
            if interaction.message is not None:
                await self.bot.status_messages.adopt(table, interaction.message.id, locale)
            await self.begin(table, locale)

    async def resign_button(self, interaction: discord.Interaction, choice: str, table_id: int,
                            user_id: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            if interaction.user.id != user_id:
                raise PermissionDeniedError("lobby.resign_not_yours", name=mention(user_id))
            public = interaction.message is not None and not interaction.message.flags.ephemeral
            suffix, name = ("_public", interaction.user.mention) if public else ("", "")
            if choice != "yes":
                await interaction.response.edit_message(content=t(f"lobby.resign_cancelled{suffix}", locale,
                                                                  name=name), view=None)
                return
            table = await self.engine.get(table_id)
            check_can_resign(table, user_id)
            result = await in_time(interaction, self.engine.resign(table_id, user_id, interaction_id=interaction.id))
            if result.duplicate:
                await send_ephemeral(interaction, t("bot.duplicate", locale))
                return
            await edit_response(interaction, content=t(f"lobby.resign_done{suffix}", locale, name=name,
                                                       table=table_id), view=None)
            channel = await channel_of(self.bot, table.channel_id)
            if channel is not None:
                await after_move(self.bot, result, locale, channel=channel)

    async def rematch_button(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            await acknowledge(interaction)  # several writes and a new message: answered first, no move to lose
            old = await self.engine.get(table_id)
            user = interaction.user
            if old.status in ("lobby", "active"):
                raise LobbyError("lobby.rematch_running")
            if old.seat_of(user.id) is None and not can_manage(interaction):
                raise NotSeatedError("lobby.rematch_players_only")
            current = await self.engine.table_in_channel(old.channel_id)
            if current is not None:
                raise LobbyError("lobby.rematch_busy", table=current.id)
            # The lobby's own options (not the defaults filled in for the old player count); what came from the
            # server (structured options) is taken fresh.
            typed = old.meta.get(LOBBY_OPTIONS, old.options)
            options = {k: v for k, v in typed.items() if not isinstance(v, dict | list)}
            options = await self.surface(old.game).lobby_options(self.bot, old.guild_id, options, locale)
            bots = [SeatInfo(None, f"Bot {n}", True) for n in range(1, sum(s.bot for s in old.seats) + 1)]
            table = await self.engine.open_lobby(old.game, guild_id=old.guild_id, channel_id=old.channel_id,
                                                 host=member_seat(user), options=options, others=bots)
            others = [s.user_id for s in old.seats if not s.bot and s.user_id not in (None, user.id)]
            who = " ".join(f"<@{u}>" for u in others)
            content = t("lobby.rematch_opened", locale, host=user.mention, who=who)
            message = await interaction.followup.send(content, allowed_mentions=pinging(others), wait=True,
                                                      **self.lobby_message(table, locale))
            await self.remember_lobby(table, message)
            await supersede_prompt(self.bot, interaction.channel, old, None)  # the old result's Rematch goes
            name = t("lobby.thread_name", locale, game=self.surface(table.game).game_name(locale),
                     name=clean(user.display_name, NAME_LIMIT))
            await thread_reopened(self.bot, interaction.channel, name, THREAD_ARCHIVE_MINUTES)

    # --- typed moves and engine notices --------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.guild is None or message.webhook_id is not None:
            return
        text = " ".join(message.content.split())
        if not GENERIC.maybe_move(text) or await self.is_command(message):
            return
        try:
            table = await self.engine.table_in_channel(message.channel.id)
        except DamagedGameError:
            return  # its players were told once; chat in the channel goes on
        if table is None or table.status != "active":
            return
        seat = table.seat_of(message.author.id)
        surface = self.surface(table.game)
        if seat is None or not surface.typed_moves:
            return
        if not surface.looks_like_move(text, table, seat):
            # An attempted move (a mistyped verb, cells without one) gets a hint rather than silence; chat nothing.
            hint = surface.typed_hint(text, table, seat)
            if hint is not None:
                locale = await guild_locale(self.bot, message.guild.id, message.guild.preferred_locale)
                await send_ephemeral(message, " ".join(t(hint, locale).split()))  # a reply that pings no one
            return
        locale = await guild_locale(self.bot, message.guild.id, message.guild.preferred_locale)
        async with user_errors(message, locale):
            result = await self.act(table, message.author.id, text, typed=True, interaction_id=message.id)
            await after_move(self.bot, result, locale, channel=message.channel)

    async def is_command(self, message: discord.Message) -> bool:
        prefixes = await self.bot.get_prefix(message)
        prefixes = [prefixes] if isinstance(prefixes, str) else prefixes
        return any(message.content.startswith(p) for p in prefixes)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process: games a crash left mid-step (a move saved but not posted, a bot to move) go on."""
        if self.resumed:
            return
        self.resumed = True
        # Only games whose posts lag their moves are loaded (running ones also when they predate the marker), not
        # every game: a game that ended in the crash still gets its result posted.
        for table_id in await self.engine.queries.unposted(ANNOUNCED_META):
            if not await self.on_my_shards(table_id):  # another process's server: it resumes its own games
                continue
            async with self.posting(table_id):  # read in the lock: a notice may have posted it meanwhile
                await self.resume_one(table_id)

    async def on_my_shards(self, table_id: int) -> bool:
        """Is the game in a server on this process's gateway shards (always, unsharded)? A damaged game: yes, its
        own path isolates it."""
        try:
            table = await self.engine.get(table_id)
        except DamagedGameError:
            return True
        return self.engine.scheduler.owns(table.guild_id)

    async def resume_one(self, table_id: int) -> None:
        try:
            table = await self.engine.get(table_id)
        except DamagedGameError:
            return
        surface = self.surface(table.game)
        if surface.custom_posting or surface.resumes_itself:
            return
        guild = self.bot.get_guild(table.guild_id) if table.guild_id else None
        locale = await guild_locale(self.bot, table.guild_id, guild.preferred_locale if guild else None)
        try:
            await resume(self.bot, table, locale)
        except Exception:  # one game that cannot resume must not keep the others waiting
            log.exception("could not resume table %s after the restart", table.id)

    @commands.Cog.listener()
    async def on_floorboard_notice(self, notice: Notice) -> None:
        table = notice.table
        channel = await channel_of(self.bot, table.channel_id)
        if channel is None:
            return
        guild = self.bot.get_guild(table.guild_id) if table.guild_id else None
        locale = await guild_locale(self.bot, table.guild_id, guild.preferred_locale if guild else None)
        if notice.kind == "damaged":
            ids = [s.user_id for s in table.seats if not s.bot and s.user_id is not None]
            who = " ".join(f"<@{uid}>" for uid in ids)
            await channel.send(t("lobby.damaged_notice", locale, who=who, table=table.id),
                               allowed_mentions=pinging(ids))
            return
        surface = self.surface(table.game)
        if await surface.on_notice(self.bot, channel, notice, locale):
            await self.announce_policy(channel, notice, locale)
            return
        if notice.kind == "timeout":
            segments = [surface.segment(r, locale) for r in notice.results()]
            async with self.posting(table.id):
                if segments and not await self.shown(segments[-1].table):
                    await publish(self.bot, channel, segments, locale)
            await self.announce_policy(channel, notice, locale)
        elif notice.kind in ("reminder", "warning"):
            seats = [s for s in notice.data.get("seats", []) if not table.seats[s].bot]
            ids = [table.seats[s].user_id for s in seats if table.seats[s].user_id is not None]
            who = ", ".join(surface.seat_mention(table, s, locale) for s in seats)
            due = notice.data.get("due")
            when = f"<t:{int(due.timestamp())}:R>" if due is not None else "—"
            text = t(f"bot.{notice.kind}", locale, who=who, table=table.id, when=when)
            by_dm = [u for u in ids if quiet.wants_dm(u) and await self.direct(u, text, channel)]
            await channel.send(text, allowed_mentions=pinging([u for u in ids if u not in by_dm]))
        elif notice.kind == "vacation_over":
            names = ", ".join(surface.seat_label(table, s, locale) for s in notice.data.get("seats", []))
            await channel.send(t("away.over_notice", locale, names=names), allowed_mentions=pinging([]))
        elif notice.kind == "lobby_expired":
            await channel.send(t("lobby.expired", locale, table=table.id))
            await self.close_lobby(table, channel, locale)


    async def direct(self, user_id: int, text: str, channel: Any) -> bool:
        """A reminder by direct message, with a link to the game; False when Discord refuses it (DMs closed, no
        shared server): the thread's mention is the fallback."""
        link = getattr(channel, "jump_url", "")
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(f"{text}\n{link}".strip(), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            return False
        return True

    async def announce_policy(self, channel: Any, notice: Notice, locale: str) -> None:
        """After a missed turn, what the table's policy did beyond the timeout itself: a stand-in bot, a forfeit,
        or a pause because everyone is away (the players of the game are pinged once, for the pause only)."""
        policy = notice.data.get("policy")
        if notice.kind != "timeout" or policy not in ("standin", "forfeit", "pause"):
            return
        table, seat = notice.table, notice.data["seat"]
        name = seat_name(table, seat)
        settings = settings_of(table.meta)
        ids = [s.user_id for s in table.seats if not s.bot and s.user_id is not None] if policy == "pause" else []
        text = t(f"lobby.policy.{policy}", locale, name=name, count=settings.forfeit_after)
        await channel.send(text, allowed_mentions=pinging(ids))


async def setup(bot: App) -> None:
    bot.add_dynamic_items(*GENERIC_ITEMS, ReplayOpenButton)  # the summary's Replay
    await bot.add_cog(Lobby(bot))


async def teardown(bot: App) -> None:
    bot.remove_dynamic_items(*GENERIC_ITEMS, ReplayOpenButton)
