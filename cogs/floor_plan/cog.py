"""Floor Plan's cog: /move previews, suggestions with buttons, /sheet; setup of the extension."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.floor_plan.basics import GAME, Preview, demand_line, preview_key, roll_text, with_legal_start
from cogs.floor_plan.components import (
    ITEMS,
    PickButton,
    PreviewButton,
    TableButton,
    find_seat,
    plan_lines,
    simulate,
    suggestions,
)
from cogs.floor_plan.posts import png_file, sheet_png, sheet_text
from cogs.floor_plan.surface import FloorPlanSurface
from cogs.utils.app import App
from cogs.utils.components import view_of
from cogs.utils.lang import locale_of_interaction, ls
from cogs.utils.posting import MAX_CONTENT, after_move, channel_of
from cogs.utils.replies import edit_response, in_time, send_ephemeral, user_errors
from cogs.utils.surface import shown_names
from cogs.utils.text import mention
from engine import (
    GameNotFoundError,
    GameOverError,
    LobbyError,
    NotSeatedError,
    PermissionDeniedError,
    StaleVersionError,
    Table,
)
from i18n import t
from render import floor_plan as draw
from render import pool as render_pool
from rules.base import NotYourTurnError, RulesError


class FloorPlan(commands.Cog):
    def __init__(self, bot: App, surface: FloorPlanSurface) -> None:
        self.bot = bot
        self.surface = surface
        self.previews: dict[tuple[int, int], Preview] = {}

    async def running(self, table_id: int) -> Table:
        table = await self.bot.engine.get(table_id)
        if table.game != GAME:
            raise GameNotFoundError("lobby.no_table")
        if table.status == "lobby":
            raise LobbyError("engine.not_started")
        if table.status != "active" and table.state is None:
            raise GameOverError("engine.not_running")
        return table

    # --- /move: the preview --------------------------------------------------------------------------

    async def preview(self, ctx: commands.Context[Any], table: Table, action: str, locale: str) -> None:
        if ctx.interaction is None:
            await send_ephemeral(ctx, t("fpui.use_slash", locale))
            return
        interaction = ctx.interaction
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeatedError("engine.not_seated")
        if table.status == "lobby":
            raise GameOverError("engine.not_started")
        if table.status != "active":
            raise GameOverError("engine.not_running")
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.show_preview(interaction, table, seat, action, locale)

    async def show_preview(self, interaction: discord.Interaction, table: Table, seat: int, action: str,
                           locale: str) -> None:
        """The preview of ``action`` on the seat's blueprint with Confirm / Cancel (the interaction deferred)."""
        try:
            text, view, claimable = await asyncio.to_thread(simulate, table, seat, action)
        except RulesError as error:
            raise with_legal_start(error, table) from None
        png = await render_pool.draw(draw.render_sheet, view, name=shown_names(table)[seat], locale=locale)
        state = table.state
        key = preview_key(text, state.round)
        self.previews[(table.id, interaction.user.id)] = Preview(key, text, state.round, state.actions[seat])
        lines = [t("fpui.preview", locale, action=text, round=state.round, roll=roll_text(state.roll))]
        if claimable:
            lines.append(t("fpui.preview_claimable", locale))
            lines += [demand_line(d, locale) for d in claimable]
        items: list[discord.ui.Item[Any]] = [PreviewButton.make(c, table, interaction.user.id, key, locale)
                                             for c in ("ok", "no")]
        await interaction.followup.send("\n".join(lines)[:MAX_CONTENT], file=png_file(table, png, "preview"),
                                        view=view_of(items), ephemeral=True)

    async def preview_button(self, interaction: discord.Interaction, choice: str, table_id: int, user_id: int,
                             version: int, key: str) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            if interaction.user.id != user_id:
                raise PermissionDeniedError("fpui.not_your_preview", name=mention(user_id))
            preview = self.previews.get((table_id, user_id))
            if preview is None or preview.key != key:
                raise StaleVersionError("fpui.preview_gone")
            if choice == "no":
                del self.previews[(table_id, user_id)]
                await interaction.response.edit_message(content=t("fpui.cancelled", locale, action=preview.text),
                                                        view=None, attachments=[])
                return
            table = await self.running(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeatedError("engine.not_seated")
            state = table.state
            if table.status != "active" or (version != table.version and (
                    state.round != preview.round or state.actions[seat] != preview.before)):
                del self.previews[(table_id, user_id)]
                raise StaleVersionError("fpui.stale")
            result = await in_time(interaction, self.bot.engine.act(table_id, user_id, preview.text,
                                                                    interaction_id=interaction.id))
            self.previews.pop((table_id, user_id), None)
            if result.duplicate:
                await send_ephemeral(interaction, t("bot.duplicate", locale))
                return
            await edit_response(interaction, content=t("fpui.confirmed", locale, action=result.action), view=None,
                                attachments=[])
            channel = await channel_of(self.bot, table.channel_id)
            if channel is not None:
                await after_move(self.bot, result, locale, channel=channel)

    # --- suggestions: a whole game with buttons -------------------------------------------------------

    async def acting_seat(self, table_id: int, user_id: int) -> tuple[Table, int]:
        table = await self.running(table_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotSeatedError("engine.not_seated")
        if table.status != "active":
            raise GameOverError("engine.not_running")
        if seat not in table.to_move():
            raise NotYourTurnError("fp.already_acted")
        return table, seat

    async def plan_button(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table, seat = await self.acting_seat(table_id, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await asyncio.to_thread(suggestions, table, seat)
            round_no = table.state.round
            items: list[discord.ui.Item[Any]] = [
                PickButton(table.id, interaction.user.id, preview_key(s.text, round_no), label=str(n))
                for n, s in enumerate(found, start=1)]
            items.append(TableButton.make("sheet", table, locale))
            await interaction.followup.send(plan_lines(found, table, locale)[:MAX_CONTENT], view=view_of(items),
                                            ephemeral=True)

    async def pick_button(self, interaction: discord.Interaction, table_id: int, user_id: int, key: str) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            if interaction.user.id != user_id:
                raise PermissionDeniedError("fpui.not_your_plan", name=mention(user_id))
            table, seat = await self.acting_seat(table_id, user_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await asyncio.to_thread(suggestions, table, seat)
            text = next((s.text for s in found if preview_key(s.text, table.state.round) == key), None)
            if text is None:
                raise StaleVersionError("fpui.plan_stale")
            await self.show_preview(interaction, table, seat, text, locale)

    # --- sheets --------------------------------------------------------------------------------------

    async def send_sheet(self, interaction: discord.Interaction, table: Table, seat: int, locale: str) -> None:
        viewer = table.seat_of(interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = sheet_text(table, seat, viewer, locale)
        png = await sheet_png(table, seat, viewer, locale)
        kw: dict[str, Any] = {}
        if viewer == seat and table.status == "active" and seat in table.to_move():
            kw["view"] = view_of([TableButton.make("plan", table, locale)])  # from one's own sheet straight to a move
        await interaction.followup.send(text, file=png_file(table, png, f"sheet{seat + 1}"), ephemeral=True, **kw)

    async def sheet_button(self, interaction: discord.Interaction, table_id: int) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table = await self.running(table_id)
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise NotSeatedError("fpui.sheet_not_seated")
            await self.send_sheet(interaction, table, seat, locale)

    @app_commands.command(name=ls("cmd.sheet.name"), description=ls("cmd.sheet.description"))
    @app_commands.rename(player=ls("cmd.sheet.player.name"))
    @app_commands.describe(player=ls("cmd.sheet.player.description"))
    @app_commands.guild_only()
    async def sheet(self, interaction: discord.Interaction, player: str | None = None) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            channel = interaction.channel_id or 0
            # After the game ends its thread still shows its sheets: the final blueprints are what players look at.
            engine = self.bot.engine
            table = await engine.table_in_channel(channel) or await engine.last_closed_table_in_channel(channel)
            if table is None or table.game != GAME:
                raise GameNotFoundError("fpui.no_floor_plan")
            table = await self.running(table.id)
            if player:
                seat = find_seat(table, player)
            else:
                seat = table.seat_of(interaction.user.id)
                if seat is None:
                    raise NotSeatedError("fpui.sheet_not_seated")
            await self.send_sheet(interaction, table, seat, locale)


async def setup(bot: App) -> None:
    surface = FloorPlanSurface()
    bot.surfaces[GAME] = surface
    bot.add_dynamic_items(*ITEMS)
    await bot.add_cog(FloorPlan(bot, surface))


async def teardown(bot: App) -> None:
    bot.remove_dynamic_items(*ITEMS)
    bot.surfaces.pop(GAME, None)
