"""Spectators: the Spectate button on a running game's status message, ``/follow game:<id> [dm]`` and
``/unfollow game:<id>``.

A follower gets what everyone may see of the game, never a seat's private view: a game in a thread they can read
adds them to the thread (Discord then shows them every board); a game in a channel they read needs nothing sent;
otherwise (or with ``dm:true``) a digest by direct message after the boards are posted (`deliver`, called by
`cogs.utils.posting.publish`): the caption lines posted for everyone and the board drawn from the public view
(``view(state, None)``), at most one message per game every `DIGEST_MINUTES` a follower (the moves in between
are coalesced into the next one, sent when the wait is over). A DM that fails because DMs are closed ends the
follow at once (no retries). A finished game's follows end with one last digest; players who closed the game
to spectators (``spectators=no`` at the lobby) get no Spectate button, /follow is refused and any follow ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.components import SpectateButton
from cogs.utils.lang import aliases, locale_of_ctx, locale_of_interaction, ls
from cogs.utils.posting import board_file, channel_of, render_view
from cogs.utils.replies import fit_content, handle_command_error, send_ephemeral, user_errors
from cogs.utils.surface import surface_for
from engine import CLOSED_STATUSES, GameNotFoundError, Table
from engine.policies import settings_of
from i18n import t

log = logging.getLogger(__name__)

MAX_TABLE_ID = 2**53
DIGEST_MINUTES = 10  # at most one direct message per game and follower in this time; moves in between coalesce
KEPT_LINES = 30  # caption lines kept per game for the next digest (older ones are counted, not shown)
CLOSED_DMS = 50007  # Discord: "Cannot send messages to this user"


class Follows(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot
        self.lines: dict[int, deque[tuple[int, str]]] = {}  # game → (moves after it, caption line), newest last
        self.pending: dict[int, asyncio.Task[None]] = {}  # game → its coalesced digest, waiting for its time

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    async def cog_unload(self) -> None:
        for task in self.pending.values():
            task.cancel()
        self.pending.clear()

    @property
    def store(self) -> Any:
        return self.bot.engine.store

    # --- commands and the button -----------------------------------------------------------------------

    @commands.hybrid_command(name=ls("cmd.follow.name"), description=ls("cmd.follow.description"),
                             aliases=aliases("cmd.follow.name"))
    @commands.guild_only()
    @app_commands.rename(game=ls("cmd.follow.game.name"), dm=ls("cmd.follow.dm.name"))
    @app_commands.describe(game=ls("cmd.follow.game.description"), dm=ls("cmd.follow.dm.description"))
    async def follow(self, ctx: commands.Context[Any], game: commands.Range[int, 1, MAX_TABLE_ID],
                     dm: bool = False) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            if ctx.interaction is not None:  # adding to a thread and a first DM may take longer than 3 s
                await ctx.defer(ephemeral=True)
            await send_ephemeral(ctx, await self.start(ctx.guild, ctx.author, game, dm, locale))

    @commands.hybrid_command(name=ls("cmd.unfollow.name"), description=ls("cmd.unfollow.description"),
                             aliases=aliases("cmd.unfollow.name"))
    @commands.guild_only()
    @app_commands.rename(game=ls("cmd.unfollow.game.name"))
    @app_commands.describe(game=ls("cmd.unfollow.game.description"))
    async def unfollow(self, ctx: commands.Context[Any], game: commands.Range[int, 1, MAX_TABLE_ID]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            ended = await self.stop(game, ctx.author.id)
            await send_ephemeral(ctx, t("follow.stopped" if ended else "follow.not_following", locale, table=game))

    async def stop(self, table_id: int, user_id: int) -> bool:
        """End the member's follow; a thread follower leaves the thread they were added to (else Discord keeps
        showing them every board). False when there was no follow."""
        rows = [r for r in await self.store.follows_of_game(table_id) if r.user_id == user_id]
        if not await self.store.remove_follows(table_id, [user_id]):
            return False
        if any(r.mode == "thread" for r in rows):
            with contextlib.suppress(GameNotFoundError):  # the game is gone: nothing to leave
                await self.leave_thread(await self.bot.engine.get(table_id), [user_id])
        return True

    async def spectate_button(self, interaction: discord.Interaction, table_id: int) -> None:
        """The Spectate button: the same checks as /follow (the id in a custom_id may be forged), answered
        privately."""
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            await interaction.response.defer(ephemeral=True, thinking=True)
            await send_ephemeral(interaction, await self.start(interaction.guild, interaction.user, table_id, False,
                                                               locale))

    # --- following -------------------------------------------------------------------------------------

    async def followable(self, guild: discord.Guild | None, user_id: int, table_id: int) -> tuple[Table | None, str]:
        """The game a member may follow, or None and the refusal's key. An unknown game and another server's
        read the same (a game number tells nothing of other servers)."""
        try:
            table = await self.bot.engine.get(table_id) if table_id else None
        except GameNotFoundError:
            table = None
        if table is None or guild is None or table.guild_id != guild.id:
            return None, "follow.no_game"
        if table.status == "lobby":
            return None, "follow.not_started"
        if table.status != "active":
            return None, "follow.finished"
        if not settings_of(table.meta).spectators:
            return None, "follow.closed"
        if table.seat_of(user_id) is not None:
            return None, "follow.seated"
        return table, ""

    async def start(self, guild: discord.Guild | None, member: Any, table_id: int, dm: bool, locale: str) -> str:
        """Follow the game: the reply says how its boards will reach the member (or why not)."""
        table, refusal = await self.followable(guild, member.id, table_id)
        if table is None:
            return t(refusal, locale, table=table_id)
        channel = await channel_of(self.bot, table.channel_id)
        mode = "dm" if dm or channel is None or not can_read(channel, member) else (
            "thread" if isinstance(channel, discord.Thread) else "channel")
        if any(r.user_id == member.id for r in await self.store.follows_of_game(table.id)):
            return t("follow.already", locale, table=table.id)  # a double click changes nothing
        if mode == "thread":
            try:
                await channel.add_user(member)  # type: ignore[union-attr]
            except discord.HTTPException as e:  # an archived or locked thread: DMs instead
                log.info("could not add %s to the thread of table %s (%s): DMs instead", member.id, table.id, e)
                mode = "dm"
        if not await self.store.add_follow(table.id, member.id, table.guild_id, mode, self.bot.now()):
            return t("follow.already", locale, table=table.id)  # two clicks at once: the first one's stays
        if mode != "dm":
            place = channel.mention  # type: ignore[union-attr]
            return t(f"follow.{mode}", locale, table=table.id, thread=place, channel=place)
        # The first digest at once: the board as it is now, and proof that DMs reach the member.
        if not await self.send_digest(table, member.id, [], locale):
            await self.store.remove_follows(table.id, [member.id])
            return t("follow.dm_closed", locale)
        return t("follow.dm", locale, table=table.id, count=DIGEST_MINUTES)

    async def followed(self, user_id: int, guild_id: int | None) -> list[Table]:
        """The running games the member follows (``/mygames``), oldest follow first; gone ones left out."""
        out = []
        for row in await self.store.follows_of_user(user_id, guild_id):
            try:
                table = await self.bot.engine.get(row.game_id)
            except GameNotFoundError:
                continue
            if table.status == "active":
                out.append(table)
        return out

    # --- delivering ------------------------------------------------------------------------------------

    async def deliver(self, table: Table, lines: list[str], locale: str) -> None:
        """A run of moves was posted for everyone: the DM followers get it now, or coalesced when their last
        digest is recent; a closed game or one closed to spectators ends its follows."""
        kept = self.lines.setdefault(table.id, deque(maxlen=KEPT_LINES))
        kept.extend((table.moves, line) for line in lines)
        if table.status in CLOSED_STATUSES or not settings_of(table.meta).spectators:
            await self.end(table, locale)
            return
        now, due = self.bot.now(), []
        wait = timedelta(minutes=DIGEST_MINUTES)
        for row in await self.store.follows_of_game(table.id):
            if row.mode != "dm" or row.sent_moves >= table.moves:
                continue
            if row.last_sent_at is None or now - row.last_sent_at >= wait:
                due.append(row.user_id)
            else:
                self.later(table.id, row.last_sent_at + wait - now, locale)
        for user_id in due:
            await self.send_digest(table, user_id, list(kept), locale)

    def later(self, table_id: int, delay: timedelta, locale: str) -> None:
        """One coalesced digest per game when the first follower's wait is over (the others' come with it or
        with the next move)."""
        if table_id in self.pending:
            return
        sleep = getattr(self.bot.status_messages, "sleep", asyncio.sleep)  # the bot's clock: tests move it
        self.pending[table_id] = asyncio.create_task(self._later(table_id, delay, locale, sleep),
                                                     name=f"floorboard-follow-{table_id}")

    async def _later(self, table_id: int, delay: timedelta, locale: str, sleep: Any) -> None:
        try:
            await sleep(max(0.0, delay.total_seconds()))
        finally:
            if self.pending.get(table_id) is asyncio.current_task():
                del self.pending[table_id]
        try:
            table = await self.bot.engine.get(table_id)
            await self.deliver(table, [], locale)
        except Exception:  # a background digest must never take the bot down
            log.exception("the delayed digest of table %s failed", table_id)

    async def end(self, table: Table, locale: str) -> None:
        """The game is over (the DM followers get its last board) or closed to spectators: its follows end."""
        task = self.pending.pop(table.id, None)
        if task is not None:
            task.cancel()
        rows = await self.store.follows_of_game(table.id)
        if table.status in CLOSED_STATUSES:
            for row in rows:
                if row.mode == "dm":
                    await self.send_digest(table, row.user_id, [], locale, final=True)
        else:
            await self.leave_thread(table, [r.user_id for r in rows if r.mode == "thread"])
        await self.store.remove_follows(table.id)
        self.lines.pop(table.id, None)

    async def leave_thread(self, table: Table, user_ids: list[int]) -> None:
        channel = await channel_of(self.bot, table.channel_id) if user_ids else None
        if not isinstance(channel, discord.Thread):
            return
        for user_id in user_ids:
            try:
                await channel.remove_user(discord.Object(user_id))
            except discord.HTTPException as e:
                log.info("could not remove %s from the thread of table %s: %s", user_id, table.id, e)

    async def send_digest(self, table: Table, user_id: int, lines: list[tuple[int, str]], locale: str, *,
                          final: bool = False) -> bool:
        """One direct message: the caption lines posted since the member's last digest and the public board.
        False when it could not be sent; closed DMs end the follow (no retry: the next move does not try again)."""
        rows = {r.user_id: r for r in await self.store.follows_of_game(table.id)}
        since = rows[user_id].sent_moves if user_id in rows else 0
        kwargs = await self.digest(table, [line for moves, line in lines if moves > since], locale, final)
        now = self.bot.now()
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(**kwargs)
        except discord.HTTPException as e:
            closed = isinstance(e, discord.Forbidden | discord.NotFound) or e.code == CLOSED_DMS
            log.info("no digest of table %s for %s (%s)%s", table.id, user_id, e, ": unfollowed" if closed else "")
            if closed:
                await self.store.remove_follows(table.id, [user_id])
            else:  # counted as sent: a failing DM waits for the next window like a sent one
                await self.store.mark_follow_sent(table.id, user_id, now, table.moves)
            return False
        await self.store.mark_follow_sent(table.id, user_id, now, table.moves)
        return True

    async def digest(self, table: Table, lines: list[str], locale: str, final: bool) -> dict[str, Any]:
        """The message: a title, the newest caption lines that fit, the public board (never a seat's view)."""
        surface = surface_for(self.bot, table.game)
        game = surface.game_name(locale)
        head = [t("follow.digest_title", locale, game=game, table=table.id, moves=table.moves)]
        tail = [t("follow.ended", locale, game=game, table=table.id) if final else
                t("follow.digest_footer", locale, table=table.id)]
        shown = lines[-8:]  # the newest; older ones counted
        if len(lines) > len(shown):
            head.append(t("follow.digest_more", locale, count=len(lines) - len(shown)))
        kwargs: dict[str, Any] = {"content": fit_content("\n".join([*head, *shown, *tail])),
                                  "allowed_mentions": discord.AllowedMentions.none()}
        png = await render_view(table, None, locale) or await surface.board_png(table, locale)
        if png is not None:
            kwargs["file"] = board_file(table, png, suffix="-public")
        return kwargs


def can_read(channel: Any, member: Any) -> bool:
    """The member can read the game's channel (for a thread: its parent's permission decides)."""
    try:
        return bool(channel.permissions_for(member).read_messages)
    except (AttributeError, TypeError):  # a member not cached, a channel without permissions: DMs
        return False


async def setup(bot: App) -> None:
    await bot.add_cog(Follows(bot))
    bot.add_dynamic_items(SpectateButton)


async def teardown(bot: App) -> None:
    bot.remove_dynamic_items(SpectateButton)
