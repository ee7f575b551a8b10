"""``/undo``: a player takes back their own last move in this channel's game (engine/undo.py says when).

A refusal is answered privately with its reason; an undo is posted for everyone with the restored board. At a
table with ``undo=confirm`` the request is posted with Accept / Decline for the other players: the buttons carry
the table, its version as asked and the requester, so a stale, forged or second click changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.components import custom_id, delegate, id_number, view_of
from cogs.utils.lang import aliases, locale_of_ctx, locale_of_interaction, ls
from cogs.utils.posting import channel_of, pinging, publish
from cogs.utils.replies import edit_response, handle_command_error, in_time, send_ephemeral, user_errors
from cogs.utils.surface import Segment, surface_for
from engine import ActResult, GameNotFoundError, PermissionDeniedError, StaleVersionError, Table
from engine import undo as ud
from i18n import t

log = logging.getLogger(__name__)

UNDO_TEMPLATE = r"undo:(?P<choice>yes|no):(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<user>[0-9]+)"
UNDO_STYLES = {"yes": discord.ButtonStyle.success, "no": discord.ButtonStyle.secondary}
DECLINED = "undo_declined"  # meta: the version at which a request was declined (its Accept is dead)


class UndoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=UNDO_TEMPLATE):
    """Accept / Decline of an undo request; only another player of the game may answer (re-checked)."""

    def __init__(self, choice: str, table_id: int, version: int, user_id: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or choice, style=UNDO_STYLES[choice],
                                           custom_id=custom_id("undo", choice, table_id, version, user_id)))
        self.choice, self.table_id, self.version, self.user_id = choice, table_id, version, user_id

    @classmethod
    def make(cls, choice: str, table: Table, user_id: int, locale: str) -> UndoButton:
        return cls(choice, table.id, table.version, user_id, label=t(f"undo.button.{choice}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> UndoButton:
        return cls(match["choice"], id_number(match["table"]), id_number(match["version"]), id_number(match["user"]),
                   label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "Undo", "undo_button", self.choice, self.table_id, self.version, self.user_id)


def shown_action(bot: App, table: Table, action: str) -> str:
    """The move as the channel may see it: a hidden choice (a keep, a Floor Plan sheet) by its verb only."""
    if surface_for(bot, table.game).is_private_action(table, action):
        action = action.split()[0] + " ?"
    return f"`{action}`"


class Undo(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    @commands.hybrid_command(name=ls("cmd.undo.name"), description=ls("cmd.undo.description"),
                             aliases=aliases("cmd.undo.name"))
    @commands.guild_only()
    async def undo(self, ctx: commands.Context[Any]) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            table = await self.bot.engine.table_in_channel(ctx.channel.id)
            if table is None:
                raise GameNotFoundError("lobby.no_table")
            plan = await ud.plan(self.bot.engine, table.id, ctx.author.id)  # refused here: privately, with why
            if plan.needs_confirmation:
                await self.ask(ctx, plan, locale)
                return
            source = ctx.interaction or ctx.message
            work = ud.undo(self.bot.engine, table.id, ctx.author.id, interaction_id=source.id)
            result = await (work if ctx.interaction is None else in_time(ctx.interaction, work))
            if result.duplicate:
                await send_ephemeral(ctx, t("bot.duplicate", locale))
                return
            line = self.done_line(result, ctx.author.mention, locale)
            if ctx.interaction is not None:  # the slash command's answer is the public announcement's first line
                await ctx.send(line, allowed_mentions=discord.AllowedMentions.none())
                line = ""
            await self.announce(result, line, ctx.channel, locale)

    async def ask(self, ctx: commands.Context[Any], plan: ud.Plan, locale: str) -> None:
        table, ids = plan.table, ud.others(plan.table, plan.seat)
        text = t("undo.ask", locale, name=ctx.author.mention, action=shown_action(self.bot, table, plan.row.action),
                 table=table.id, who=" ".join(f"<@{u}>" for u in ids))
        items: list[discord.ui.Item[Any]] = [UndoButton.make(c, table, ctx.author.id, locale) for c in ("yes", "no")]
        await ctx.send(text, view=view_of(items), allowed_mentions=pinging(ids))

    def done_line(self, result: ActResult, name: str, locale: str) -> str:
        action = result.events[0].data["action"] if result.events else ""
        return t("undo.done", locale, name=name, action=shown_action(self.bot, result.table, action))

    async def announce(self, result: ActResult, line: str, channel: Any, locale: str) -> None:
        """The restored position for everyone: the board and whose turn it is (a game that posts its own rounds,
        Floor Plan, shows no board for private work: just the line and its status message)."""
        table = result.table
        if surface_for(self.bot, table.game).custom_posting:
            if line:
                await channel.send(line, allowed_mentions=discord.AllowedMentions.none())
            await self.bot.status_messages.update(table, locale)
            return
        await publish(self.bot, channel, [Segment(line, table)], locale)

    async def undo_button(self, interaction: discord.Interaction, choice: str, table_id: int, version: int,
                          user_id: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            engine = self.bot.engine
            table = await engine.get(table_id)
            seat = table.seat_of(user_id)
            if seat is None or interaction.user.id not in ud.others(table, seat):
                raise PermissionDeniedError("undo.not_yours")
            if table.version != version or table.meta.get(DECLINED) == version:
                raise StaleVersionError("undo.stale")
            name = f"<@{user_id}>"
            if choice != "yes":
                row = (await ud.plan(engine, table_id, user_id)).row
                await engine.set_meta(table_id, **{DECLINED: version})  # its Accept, shown anywhere, is dead now
                await edit_response(interaction, view=None, content=t(
                    "undo.declined", locale, name=interaction.user.mention,
                    action=shown_action(self.bot, table, row.action)))
                return
            work = ud.undo(engine, table_id, user_id, interaction_id=interaction.id, version=version,
                           approved_by=interaction.user.id)
            result = await in_time(interaction, work)
            if result.duplicate:
                await send_ephemeral(interaction, t("bot.duplicate", locale))
                return
            await edit_response(interaction, content=self.done_line(result, name, locale), view=None)
            channel = await channel_of(self.bot, table.channel_id)
            if channel is not None:
                await self.announce(result, "", channel, locale)


async def setup(bot: App) -> None:
    await bot.add_cog(Undo(bot))
    bot.add_dynamic_items(UndoButton)


async def teardown(bot: App) -> None:
    bot.remove_dynamic_items(UndoButton)
