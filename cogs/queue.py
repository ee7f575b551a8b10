"""Finding a game (issue 27, docs/matchmaking.md): ``/queue join`` and ``/queue leave``, the queue's status message,
the Ready check of a matched table, and ``/challenge`` with Accept / Decline.

The engine keeps everything (engine/matchmaking.py): entries, ready checks (deadline rows) and challenges survive
a restart, and every button is a `DynamicItem` whose custom_id carries the table or challenge id, re-checked in
the callback. Matching runs when someone joins and in every scheduler pass (a due source), where bands widen and
bots fill; challenge expiry runs there too. A started game is handed to the Lobby cog, as a /play lobby's Start is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.lobby import parse_options  # /challenge reads its options as /play does
from cogs.utils.app import App
from cogs.utils.components import custom_id, delegate, id_number, view_of
from cogs.utils.ending import game_ended
from cogs.utils.lang import aliases, guild_locale, locale_of_ctx, locale_of_interaction, ls
from cogs.utils.posting import channel_of, edit_quietly, pinging
from cogs.utils.replies import acknowledge, edit_response, handle_command_error, in_time, send_ephemeral, user_errors
from cogs.utils.status import META_KEY as STATUS_META
from cogs.utils.status import status_message
from cogs.utils.surface import escape, find_game, game_choices, surface_for
from cogs.utils.text import NAME_LIMIT, clean, code
from engine import PermissionDeniedError, SeatInfo, Table
from engine.errors import StorageError
from engine.matchmaking import BOT_WAIT_MINUTES, BOT_WAIT_SETTING, Match, QueueError
from engine.policies import check_options
from i18n import t
from rules.base import FloorboardError

log = logging.getLogger(__name__)

READY_TEMPLATE = r"queue:ready:(?P<table>[0-9]+)"
CHALLENGE_TEMPLATE = r"challenge:(?P<choice>accept|decline):(?P<id>[0-9]+)"
STATUS_SETTING = "queue_status"  # server setting: {"channel": id, "message": id} of the queue's status message
STATUS_DEBOUNCE = 3.0  # seconds: joins and leaves in a burst make one edit
THREAD_ARCHIVE_MINUTES = 10080
MAX_OPTIONS, MAX_GAME_NAME = 300, 60
GAME_CHOICES = game_choices()


def seat_of(member: discord.abc.User) -> SeatInfo:
    return SeatInfo(member.id, clean(member.display_name, NAME_LIMIT))


class ReadyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=READY_TEMPLATE):
    """Ready on a matched table: only its seated members may press it (the engine re-checks)."""

    def __init__(self, table_id: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "ready", style=discord.ButtonStyle.success,
                                           custom_id=custom_id("queue", "ready", table_id)))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> ReadyButton:
        return cls(id_number(match["table"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "Queue", "ready_button", self.table_id)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CHALLENGE_TEMPLATE):
    """Accept or Decline on a challenge: only the challenged member may press them (re-checked by the engine)."""

    def __init__(self, choice: str, challenge_id: int, *, label: str = "") -> None:
        style = discord.ButtonStyle.success if choice == "accept" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label or choice, style=style,
                                           custom_id=custom_id("challenge", choice, challenge_id)))
        self.choice, self.challenge_id = choice, challenge_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> ChallengeButton:
        return cls(match["choice"], id_number(match["id"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "Queue", "challenge_button", self.choice, self.challenge_id)


ITEMS = (ReadyButton, ChallengeButton)


class Queue(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot
        self._status_tasks: dict[int, asyncio.Task[None]] = {}
        self._status_locks: dict[int, asyncio.Lock] = {}
        self.bot.engine.add_due_source(self.sweep)

    @property
    def engine(self) -> Any:
        return self.bot.engine

    @property
    def mm(self) -> Any:
        return self.bot.engine.matchmaking

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    async def cog_unload(self) -> None:
        for task in self._status_tasks.values():
            task.cancel()

    async def locale_of(self, guild_id: int) -> str:
        guild = self.bot.get_guild(guild_id)
        return await guild_locale(self.bot, guild_id, guild.preferred_locale if guild else None)

    def game_name(self, game: str, locale: str) -> str:
        return surface_for(self.bot, game).game_name(locale)

    def time_name(self, time: str, locale: str) -> str:
        return time or t("queue.any_time", locale)

    # --- /queue ------------------------------------------------------------------------------------------------

    @commands.hybrid_group(name=ls("cmd.queue.name"), description=ls("cmd.queue.description"),
                           aliases=aliases("cmd.queue.name"), invoke_without_command=True)
    @commands.guild_only()
    async def queue(self, ctx: commands.Context[Any]) -> None:
        await send_ephemeral(ctx, t("queue.usage", await locale_of_ctx(ctx)))

    @queue.command(name=ls("cmd.queue.join.name"), description=ls("cmd.queue.join.description"),
                   aliases=aliases("cmd.queue.join.name"))
    @commands.guild_only()
    @app_commands.rename(game=ls("cmd.queue.join.game.name"), players=ls("cmd.queue.join.players.name"),
                         time=ls("cmd.queue.join.time.name"), bots=ls("cmd.queue.join.bots.name"))
    @app_commands.describe(game=ls("cmd.queue.join.game.description"),
                           players=ls("cmd.queue.join.players.description"),
                           time=ls("cmd.queue.join.time.description"), bots=ls("cmd.queue.join.bots.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def join(self, ctx: commands.Context[Any], game: commands.Range[str, 1, MAX_GAME_NAME],
                   players: commands.Range[int, 1, 100] | None = None,
                   time: commands.Range[str, 1, 20] | None = None,
                   bots: commands.Range[str, 1, 10] | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            rules = find_game(self.engine.games, game)
            bots_ok = bots is not None and bots.strip().lower() in ("ok", t("queue.bots_ok_word", locale))
            if bots is not None and not bots_ok:
                raise QueueError("queue.bad_bots")
            row = await self.mm.join(ctx.guild.id, ctx.channel.id, seat_of(ctx.author), rules.id, players=players,
                                     time=time, bots_ok=bots_ok)
            params = {"game": self.game_name(rules.id, locale),
                      "players": t("queue.players", locale, count=row.players),
                      "time": self.time_name(row.time, locale)}
            wait = await self.engine.guild_setting(ctx.guild.id, BOT_WAIT_SETTING, BOT_WAIT_MINUTES)
            if row.bots_ok and int(wait) > 0:
                await send_ephemeral(ctx, t("queue.joined_bots", locale, count=int(wait), **params))
            else:
                await send_ephemeral(ctx, t("queue.joined", locale, **params))
            await self.remember_status_channel(ctx.guild.id, ctx.channel.id)
            await self.run_matches(ctx.guild.id)
            self.refresh_status(ctx.guild.id)

    @queue.command(name=ls("cmd.queue.leave.name"), description=ls("cmd.queue.leave.description"),
                   aliases=aliases("cmd.queue.leave.name"))
    @commands.guild_only()
    @app_commands.rename(game=ls("cmd.queue.leave.game.name"))
    @app_commands.describe(game=ls("cmd.queue.leave.game.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def leave(self, ctx: commands.Context[Any], game: commands.Range[str, 1, MAX_GAME_NAME] | None = None,
                    ) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            gid = None if game is None else find_game(self.engine.games, game).id
            count = await self.mm.leave(ctx.guild.id, ctx.author.id, gid)
            if not count:
                raise QueueError("queue.not_in_queue")
            await send_ephemeral(ctx, t("queue.left", locale, count=count))
            self.refresh_status(ctx.guild.id)

    # --- the queue's status message (one per server, edited, debounced) ----------------------------------------

    async def remember_status_channel(self, guild_id: int, channel_id: int) -> None:
        """The first /queue on a server chooses where its status message lives."""
        current = await self.engine.guild_setting(guild_id, STATUS_SETTING)
        if not isinstance(current, dict) or "channel" not in current:
            await self.engine.set_guild_setting(guild_id, STATUS_SETTING, {"channel": channel_id})

    def refresh_status(self, guild_id: int) -> None:
        """Edit the status message soon: one edit for a burst of changes (it reads the queue when it runs)."""
        task = self._status_tasks.get(guild_id)
        if task is not None and not task.done():
            return
        task = asyncio.create_task(self._status_later(guild_id), name=f"floorboard-queue-status-{guild_id}")
        self._status_tasks[guild_id] = task

    async def _status_later(self, guild_id: int) -> None:
        await self.bot.status_messages.sleep(STATUS_DEBOUNCE)
        self._status_tasks.pop(guild_id, None)
        try:
            await self.update_status(guild_id)
        except Exception:  # the status is a courtesy: the queue works without it
            log.exception("could not update the queue status of server %s", guild_id)

    async def update_status(self, guild_id: int) -> None:
        lock = self._status_locks.setdefault(guild_id, asyncio.Lock())
        async with lock:
            where = await self.engine.guild_setting(guild_id, STATUS_SETTING)
            if not isinstance(where, dict) or "channel" not in where:
                return
            channel = await channel_of(self.bot, int(where["channel"]))
            if channel is None:
                return
            locale = await self.locale_of(guild_id)
            embed = await self.status_embed(guild_id, locale)
            message_id = where.get("message")
            if message_id is not None and await edit_quietly(channel, int(message_id), embed=embed):
                return
            message = await channel.send(embed=embed)
            await self.engine.set_guild_setting(guild_id, STATUS_SETTING, {**where, "message": message.id})

    async def status_embed(self, guild_id: int, locale: str) -> discord.Embed:
        counts: dict[tuple[str, int, str], int] = {}
        for row in await self.mm.waiting(guild_id):
            key = (row.game, row.players, row.time)
            counts[key] = counts.get(key, 0) + 1
        lines = [t("queue.status_line", locale, game=self.game_name(g, locale),
                   players=t("queue.players", locale, count=p), time=self.time_name(tc, locale), count=n)
                 for (g, p, tc), n in sorted(counts.items())]
        embed = discord.Embed(title=t("queue.status_title", locale), colour=discord.Colour.blurple(),
                              description="\n".join(lines) or t("queue.status_empty", locale))
        embed.set_footer(text=t("queue.status_footer", locale))
        return embed

    # --- matching: a thread per match, its members pinged, Ready ----------------------------------------------

    async def run_matches(self, guild_id: int) -> list[Table]:
        opened = []
        for match in await self.mm.matches(guild_id):
            try:
                table = await self.open_match(match)
            except (FloorboardError, StorageError, discord.HTTPException):  # its entries are still in the queue
                log.exception("could not open a matched table on server %s", guild_id)
                table = None
            finally:
                self.mm.release(match)  # taken with its lobby, or waiting again
            if table is not None:
                opened.append(table)
        if opened:
            self.refresh_status(guild_id)
        return opened

    async def open_match(self, match: Match) -> Table | None:
        """The match's thread (in the channel its longest-waiting member queued in) and lobby; None if there is
        nowhere to open it (the channel is gone) or one of its members left the queue meanwhile: its entries are
        then still waiting, and the thread made for it goes."""
        locale = await self.locale_of(match.guild_id)
        channel = await channel_of(self.bot, match.rows[0].channel_id)
        if channel is None:
            return None
        name = self.game_name(match.game, locale)
        thread = await self.new_thread(channel, t("queue.thread_name", locale, game=name))
        table = None
        try:
            table = await self.mm.open_match(match, thread.id)
        finally:
            if table is None:
                await self.drop_threads([thread], channel)
        if table is None:
            return None
        ids = [r.user_id for r in match.rows]
        who = " ".join(f"<@{u}>" for u in ids)
        when = f"<t:{int(self.engine.now().timestamp()) + self.mm.ready_seconds}:R>"
        message = await thread.send(t("queue.match_ping", locale, who=who, game=name, when=when),
                                    allowed_mentions=pinging(ids), **self.ready_message(table, locale))
        with contextlib.suppress(Exception):  # bookkeeping only: the Ready button works without it
            await self.engine.set_meta(table.id, **{STATUS_META: message.id})
        if thread is not channel:
            await channel.send(t("queue.match_opened", locale, game=name, who=who, thread=thread.mention),
                               allowed_mentions=pinging([]))
        return table

    async def drop_threads(self, threads: list[Any], channel: Any) -> None:
        """Delete the threads made for a table that did not open (the channel itself, where Discord refused a
        thread, stays)."""
        for thread in threads:
            if thread is not channel:
                with contextlib.suppress(discord.HTTPException):
                    await thread.delete()

    async def new_thread(self, channel: Any, name: str) -> Any:
        if not isinstance(channel, discord.TextChannel):
            return channel
        try:
            return await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread,
                                               auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as e:
            log.warning("no thread in %s (%s): the matched table opens in the channel", channel.id, e)
            return channel

    def ready_message(self, table: Table, locale: str) -> dict[str, Any]:
        ready = set(table.meta.get("queue", {}).get("ready", []))
        lines = []
        for i, seat in enumerate(table.seats):
            if seat.bot:
                lines.append(f"{i + 1}. {escape(seat.name)}")
                continue
            mark = t("queue.ready_mark" if seat.user_id in ready else "queue.waiting_mark", locale)
            lines.append(f"{i + 1}. <@{seat.user_id}> — {mark}")
        embed = discord.Embed(title=t("queue.match_title", locale, game=self.game_name(table.game, locale),
                                      table=table.id), description="\n".join(lines), colour=discord.Colour.green())
        button = ReadyButton(table.id, label=t("queue.button_ready", locale))
        return {"embed": embed, "view": view_of([button]) if table.status == "lobby" else None}

    async def ready_button(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table, started = await in_time(interaction, self.mm.ready(table_id, interaction.user.id))
            if not started:
                await edit_response(interaction, **self.ready_message(table, locale))
                await send_ephemeral(interaction, t("queue.ready_done", locale))
                return
            await edit_response(interaction, **{**status_message(self.bot, table, locale),
                                                "content": t("queue.started", locale)})
            if interaction.message is not None:
                await self.bot.status_messages.adopt(table, interaction.message.id, locale)
            await self.hand_over(table, locale)

    async def hand_over(self, table: Table, locale: str) -> None:
        """The game started: the Lobby cog posts its first board and plays its bots, as after Start."""
        lobby = self.bot.get_cog("Lobby")
        if lobby is not None:
            await lobby.begin(table, locale)  # type: ignore[attr-defined]

    @commands.Cog.listener()
    async def on_floorboard_notice(self, notice: Any) -> None:
        if notice.kind != "queue_no_show":
            return
        table = notice.table
        locale = await self.locale_of(table.guild_id)
        channel = await channel_of(self.bot, table.channel_id)
        if channel is not None:
            message_id = table.meta.get(STATUS_META)
            if message_id is not None:
                await edit_quietly(channel, int(message_id), **self.ready_message(table, locale))
            dropped = ", ".join(f"<@{u}>" for u in notice.data.get("dropped", []))
            await channel.send(t("queue.no_show", locale, dropped=dropped), allowed_mentions=pinging([]))
            back = notice.data.get("requeued", [])
            if back:
                await channel.send(t("queue.requeued", locale, who=" ".join(f"<@{u}>" for u in back)),
                                   allowed_mentions=pinging(back))
            await game_ended(self.bot, channel, table, locale)
        await self.run_matches(table.guild_id)
        self.refresh_status(table.guild_id)

    # --- /challenge --------------------------------------------------------------------------------------------

    @commands.hybrid_command(name=ls("cmd.challenge.name"), description=ls("cmd.challenge.description"),
                             aliases=aliases("cmd.challenge.name"))
    @commands.guild_only()
    @app_commands.rename(member=ls("cmd.challenge.member.name"), game=ls("cmd.challenge.game.name"),
                         options=ls("cmd.challenge.options.name"))
    @app_commands.describe(member=ls("cmd.challenge.member.description"),
                           game=ls("cmd.challenge.game.description"),
                           options=ls("cmd.challenge.options.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def challenge(self, ctx: commands.Context[Any], member: discord.Member,
                        game: commands.Range[str, 1, MAX_GAME_NAME], *,
                        options: commands.Range[str, 0, MAX_OPTIONS] = "") -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            if member.bot:
                raise QueueError("queue.challenge_bot")
            rules = find_game(self.engine.games, game)
            opts = parse_options(options)
            check_options(rules, opts)  # bad options fail now, not at Accept
            row = await self.mm.challenge(ctx.guild.id, ctx.channel.id, ctx.author.id, member.id, rules.id, opts)
            text = t("queue.challenge_text", locale, challenged=member.mention, challenger=ctx.author.mention,
                     game=self.game_name(rules.id, locale), when=f"<t:{int(row.expires_at.timestamp())}:R>",
                     options=t("queue.challenge_options", locale, options=code(options.strip(), 200))
                     if options.strip() else "")
            buttons = [ChallengeButton(c, row.id, label=t(f"queue.button_{c}", locale)) for c in ("accept", "decline")]
            message = await ctx.send(text, view=view_of(list(buttons)), allowed_mentions=pinging([member.id]))
            await self.mm.set_challenge_message(row.id, message.id)

    def challenge_words(self, row: Any, locale: str, key: str, **extra: Any) -> str:
        return t(key, locale, challenger=f"<@{row.challenger_id}>", challenged=f"<@{row.challenged_id}>",
                 game=self.game_name(row.game, locale), **extra)

    async def challenge_button(self, interaction: discord.Interaction, choice: str, challenge_id: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            row = await self.mm.get_challenge(challenge_id)
            if row.guild_id != getattr(interaction.guild, "id", None):
                raise QueueError("queue.no_challenge")
            if interaction.user.id != row.challenged_id:  # checked here too: the engine checks it again
                raise PermissionDeniedError("queue.challenge_not_yours")
            if choice != "accept":
                row = await self.mm.answer(challenge_id, interaction.user.id, False)
                await edit_response(interaction, content=self.challenge_words(row, locale,
                                                                              "queue.challenge_declined"), view=None)
                return
            await acknowledge(interaction)  # a thread, a game and its first board: answered first
            await self.open_challenge_game(interaction, row, locale)

    async def open_challenge_game(self, interaction: discord.Interaction, row: Any, locale: str) -> None:
        """Open the game with the Accept saved in the same write (engine `accept`); a game that cannot open
        leaves the challenge open, its thread deleted, and says so to both members."""
        guild = interaction.guild
        assert guild is not None
        challenger = guild.get_member(row.challenger_id)
        seats = [seat_of(challenger) if challenger else SeatInfo(row.challenger_id, str(row.challenger_id)),
                 seat_of(interaction.user)]
        name = self.game_name(row.game, locale)
        threads: list[Any] = []

        async def open_game(row: Any) -> Table:
            thread = await self.new_thread(interaction.channel, t("queue.challenge_thread", locale, game=name,
                                                                  challenger=seats[0].name,
                                                                  challenged=seats[1].name))
            threads.append(thread)
            options = await surface_for(self.bot, row.game).lobby_options(self.bot, guild.id, dict(row.options),
                                                                          locale)
            return await self.engine.open_table(row.game, guild_id=guild.id, channel_id=thread.id, seats=seats,
                                                options=options, challenge=row.id)

        try:
            row, table = await self.mm.accept(row.id, interaction.user.id, open_game)
        except (PermissionDeniedError, QueueError):
            await self.drop_threads(threads, interaction.channel)  # an Accept that lost a race stored no game
            raise
        except (FloorboardError, StorageError, discord.HTTPException):  # the challenge stays open: say so
            log.exception("could not open the game of challenge %s", row.id)
            await self.drop_threads(threads, interaction.channel)
            await self.challenge_failed(interaction, row, locale)
            return
        thread = threads[-1]
        await edit_response(interaction, content=self.challenge_words(row, locale, "queue.challenge_accepted",
                                                                      thread=thread.mention), view=None)
        message = await thread.send(**status_message(self.bot, table, locale))
        await self.bot.status_messages.adopt(table, message.id, locale)
        await self.hand_over(table, locale)

    async def challenge_failed(self, interaction: discord.Interaction, row: Any, locale: str) -> None:
        """Both members hear that the game did not open and that the challenge (and its buttons) still stands."""
        text = self.challenge_words(row, locale, "queue.challenge_failed",
                                    when=f"<t:{int(row.expires_at.timestamp())}:R>")
        ids = [row.challenger_id, row.challenged_id]
        channel = interaction.channel or await channel_of(self.bot, row.channel_id)
        try:
            await channel.send(text, allowed_mentions=pinging(ids))  # type: ignore[union-attr]
        except (AttributeError, discord.HTTPException):  # the clicker hears it at least
            await send_ephemeral(interaction, text)

    # --- the sweep (every scheduler pass) and members who leave ------------------------------------------------

    async def sweep(self) -> None:
        """Expired challenges say so; every server's queue is matched again (bands widen, bots fill)."""
        for row in await self.mm.expire_due():
            await self.closed_challenge(row, "queue.challenge_expired")
        guilds = sorted({r.guild_id for r in await self.mm.waiting()})
        for guild_id in guilds:
            if not self.engine.scheduler.owns(guild_id):
                continue
            try:
                await self.run_matches(guild_id)
            except Exception:  # one server's queue must not hold the others up
                log.exception("matching the queue of server %s failed", guild_id)

    async def closed_challenge(self, row: Any, key: str) -> None:
        if row.message_id is None:
            return
        channel = await channel_of(self.bot, row.channel_id)
        if channel is not None:
            locale = await self.locale_of(row.guild_id)
            await edit_quietly(channel, row.message_id, content=self.challenge_words(row, locale, key), view=None)

    @commands.Cog.listener()
    async def on_member_remove(self, member: discord.Member) -> None:
        """A member who left the server waits in no queue and has no open challenge."""
        try:
            left = await self.mm.leave(member.guild.id, member.id)
            for row in await self.mm.cancel_challenges_of(member.guild.id, member.id):
                await self.closed_challenge(row, "queue.challenge_cancelled")
        except Exception:
            log.exception("could not clear the queue of a member who left server %s", member.guild.id)
            return
        if left:
            self.refresh_status(member.guild.id)


async def setup(bot: App) -> None:
    bot.add_dynamic_items(*ITEMS)
    await bot.add_cog(Queue(bot))


async def teardown(bot: App) -> None:
    bot.remove_dynamic_items(*ITEMS)
