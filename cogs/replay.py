"""``/replay [game] [animate]``: step through a game from its log, or get it as one animated image.

The message shows one step (the board at move k, drawn from the public view, and a caption of who did what) with
First / Back / Next / Last and a jump-to-move select (25 moves a page; a second select picks the page in a long
game). Every component's custom_id carries the table and the step it leads to, so a click after a restart still
works; the callback re-checks them (a forged or stale one gets a short private refusal) and acknowledges Discord
before rebuilding. States come from a small LRU of replays (engine/replays.py), never from every game's history.
What a step may show is decided by `engine.replays` (public view while the game runs or when ``reveal=no``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.components import custom_id, delegate, id_number, view_of
from cogs.utils.lang import aliases, locale_of_ctx, locale_of_interaction, ls
from cogs.utils.replies import acknowledge, fit_content, handle_command_error, send_ephemeral, user_errors
from cogs.utils.surface import escape, shown_names, surface_for
from cogs.utils.text import code
from engine import ActResult, GameNotFoundError, Table
from engine.replays import Replay, ReplayCache, Step, private_action, table_source
from i18n import t
from render import pool as render_pool
from render.animate import AnimationTooLargeError, animate, animate_log
from render.kit.png import image_name
from render.registry import renderer

log = logging.getLogger(__name__)

MAX_TABLE_ID = 2**53
PAGE = 25  # a select holds 25 options
OPS = ("first", "back", "next", "last")
BUTTON_TEMPLATE = r"replay:(?P<op>first|back|next|last):(?P<table>[0-9]+):(?P<step>[0-9]+)"
SELECT_TEMPLATE = r"replay:(?P<kind>jump|page):(?P<table>[0-9]+):(?P<page>[0-9]+)"
DEFAULT_UPLOAD = 10 << 20  # Discord's default per-file limit (shared/notes/discord-testing.md)
UPLOAD_MARGIN = 64 << 10  # the message's own bytes
TEXT_LIMIT = 1700


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(self, op: str, table_id: int, step: int, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or op, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=custom_id("replay", op, table_id, step)))
        self.op, self.table_id, self.step = op, table_id, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> ReplayButton:
        return cls(match["op"], id_number(match["table"]), id_number(match["step"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "Replays", "go", self.table_id, self.step)


class ReplaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """``jump``: the values are steps; ``page``: the values are pages (a page's first step is shown)."""

    def __init__(self, kind: str, table_id: int, page: int, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=custom_id("replay", kind, table_id, page),
                                                     options=[discord.SelectOption(label="-")]))
        self.kind, self.table_id, self.page = kind, table_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: Any) -> ReplaySelect:
        return cls(match["kind"], id_number(match["table"]), id_number(match["page"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        value = values[0] if len(values) == 1 and str(values[0]).isdigit() and len(values[0]) < 9 else ""
        step = -1 if not value else int(value) * (PAGE if self.kind == "page" else 1)
        await delegate(interaction, "Replays", "go", self.table_id, step)


def items(table_id: int, step: Step, locale: str) -> list[discord.ui.Item[Any]]:
    """The buttons and the selects of a step's message."""
    k, total = step.index, step.total
    targets = {"first": 0, "back": max(0, k - 1), "next": min(total, k + 1), "last": total}
    out: list[discord.ui.Item[Any]] = [
        ReplayButton(op, table_id, targets[op], label=t(f"replay.button.{op}", locale),
                     disabled=targets[op] == k) for op in OPS]
    page = k // PAGE
    low, high = page * PAGE, min(total, page * PAGE + PAGE - 1)
    options = [discord.SelectOption(label=t("replay.jump_option", locale, step=s)[:100], value=str(s),
                                    default=s == k) for s in range(low, high + 1)]
    out.append(ReplaySelect("jump", table_id, page, discord.ui.Select(
        custom_id=custom_id("replay", "jump", table_id, page), options=options, row=1,
        placeholder=t("replay.jump", locale, low=low, high=high)[:150])))
    pages = total // PAGE + 1
    if pages > 1:  # a long game: a second select picks the part (25 parts around this one at most)
        first = max(0, min(page - PAGE // 2, pages - PAGE))
        parts = [discord.SelectOption(label=t("replay.page", locale, low=p * PAGE,
                                              high=min(total, p * PAGE + PAGE - 1))[:100], value=str(p),
                                      default=p == page) for p in range(first, min(pages, first + PAGE))]
        out.append(ReplaySelect("page", table_id, page, discord.ui.Select(
            custom_id=custom_id("replay", "page", table_id, page), options=parts, row=2,
            placeholder=t("replay.pages", locale)[:150])))
    return out


class Replays(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot
        self.cache = ReplayCache()

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    @property
    def engine(self) -> Any:
        return self.bot.engine

    async def replay_of(self, table: Table) -> Replay:
        """The table's replay (cached per table and number of moves: a game that moved on is rebuilt)."""
        source = await table_source(self.engine.store, table)
        source = dataclasses.replace(source, names=[escape(n) for n in shown_names(table)])
        rules = table.rules
        # Keyed by what changes what a replay shows: a new action, or the game's secrets becoming revealable (an
        # abort logs no action; a tournament's shared deal is revealed when the tournament ends).
        key = (table.id, len(source.actions), int(source.revealed))
        return self.cache.get(key, lambda: Replay(rules, source, quote=lambda a: f"`{code(a, 200)}`"))

    async def table_for(self, guild_id: int | None, channel_id: int, table_id: int | None) -> Table:
        if table_id is None:
            lobby = self.bot.get_cog("Lobby")
            table = await (lobby.last_table_here(channel_id) if lobby is not None  # type: ignore[attr-defined]
                           else self.engine.table_in_channel(channel_id))
            if table is None:
                raise GameNotFoundError("lobby.no_table")
        else:
            table = await self.engine.get(table_id)
        if table.guild_id != guild_id or table.state is None:
            raise GameNotFoundError("engine.no_game", table=table_id or table.id)
        return table

    @commands.hybrid_command(name=ls("cmd.replay.name"), description=ls("cmd.replay.description"),
                             aliases=aliases("cmd.replay.name"))
    @commands.guild_only()
    @app_commands.rename(game=ls("cmd.replay.game.name"), animate=ls("cmd.replay.animate.name"))
    @app_commands.describe(game=ls("cmd.replay.game.description"), animate=ls("cmd.replay.animate.description"))
    async def replay(self, ctx: commands.Context[Any], game: commands.Range[int, 1, MAX_TABLE_ID] | None = None,
                     animate: bool = False) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            if ctx.interaction is not None:  # rebuilding and drawing may take longer than Discord's 3 s
                await ctx.defer()
            table = await self.table_for(ctx.guild.id, ctx.channel.id, game)
            replay = await self.replay_of(table)
            if animate:
                await self.send_animation(ctx, table, replay, locale)
                return
            await ctx.send(**await self.message(table, replay, 0, locale))

    async def message(self, table: Table, replay: Replay, k: int, locale: str) -> dict[str, Any]:
        step = replay.step(k, locale)
        game = surface_for(self.bot, table.game).game_name(locale)
        lines = [f"**{t('replay.title', locale, game=game, table=table.id, step=step.index, total=step.total)}**",
                 self.caption(table, replay, step, locale)]
        if not replay.source.revealed:
            lines.append(f"-# {t('replay.public_only', locale)}")
        kwargs: dict[str, Any] = {"view": view_of(items(table.id, step, locale)),
                                  "allowed_mentions": discord.AllowedMentions.none()}
        image = await self.board(table, step, locale) or await self.surface_board(table, replay, k, locale)
        if image is not None:
            kwargs["file"] = discord.File(io.BytesIO(image), filename=image_name(
                f"replay-{table.game}-{table.id}-{step.index}", image))
        else:
            drawer = renderer(table.game)
            if drawer is not None:
                text = drawer.text_board(step.view, names=shown_names(table), locale=locale)
                lines.append("```\n" + text.replace("```", "'''")[:TEXT_LIMIT] + "\n```")
        kwargs["content"] = fit_content("\n".join(lines))  # a long move line (several events) stays within 2,000
        return kwargs

    def caption(self, table: Table, replay: Replay, step: Step, locale: str) -> str:
        """Who did what, in the game's own words (its surface's move announcement, which never tells a secret);
        a secret choice in the replay's words instead (spelled out only when the game's secrets are revealed)."""
        if step.seat is None or step.action is None:
            return step.caption
        if private_action(table.game, table.options, replay.state(step.index - 1), step.action):
            return step.caption
        at = dataclasses.replace(table, state=replay.state(step.index))
        try:
            return surface_for(self.bot, table.game).describe(ActResult(at, step.seat, step.action, step.events),
                                                               locale)
        except (LookupError, AttributeError, TypeError, ValueError) as e:  # a surface reading live-game extras
            log.warning("replay of table %s: step %s said plainly (%r)", table.id, step.index, e)
            return step.caption

    async def board(self, table: Table, step: Step, locale: str) -> bytes | None:
        drawer = renderer(table.game)
        if drawer is None or not drawer.has_board:
            return None
        mark = step.view.get("last_action")
        return await render_pool.draw(render_pool.board, table.game, step.view, names=shown_names(table),
                                      locale=locale, moves=[mark] if isinstance(mark, dict) and step.index else None)

    async def surface_board(self, table: Table, replay: Replay, k: int, locale: str) -> bytes | None:
        """A game whose surface draws its own public image (Floor Plan's round summary, Floating World's map),
        drawn from the step's state: a copy of the table holding it (the view cache keys on the state itself, so
        the live game's cached views are not mixed up with it)."""
        if renderer(table.game) is not None and renderer(table.game).has_board:  # type: ignore[union-attr]
            return None
        at = dataclasses.replace(table, state=replay.state(k))
        return await surface_for(self.bot, table.game).board_png(at, locale)

    async def surface_frames(self, table: Table, replay: Replay, locale: str) -> list[bytes]:
        """Each step's public image from a game's own surface (Floor Plan's summary, Floating World's map), each
        drawn off the loop; the loop yields between steps, so other games' moves go on meanwhile."""
        surface, out = surface_for(self.bot, table.game), []
        for state in replay.states():
            image = await surface.board_png(dataclasses.replace(table, state=state), locale)
            if image is not None:
                out.append(image)
            await asyncio.sleep(0)
        return out

    async def send_animation(self, ctx: commands.Context[Any], table: Table, replay: Replay, locale: str) -> None:
        game = surface_for(self.bot, table.game).game_name(locale)
        drawer = renderer(table.game)
        interaction = ctx.interaction
        limit = getattr(interaction, "filesize_limit", None) or getattr(ctx.guild, "filesize_limit", DEFAULT_UPLOAD)
        limit = max(1 << 20, int(limit) - UPLOAD_MARGIN)
        try:
            if drawer is not None and drawer.has_board:
                source = replay.source  # the worker rebuilds the states: hundreds of applies stay off the loop
                made = await render_pool.draw(animate_log, table.game, source.players, source.options, source.seed,
                                              replay.actions, names=shown_names(table), locale=locale, limit=limit)
            else:
                frames = await self.surface_frames(table, replay, locale)
                made = await render_pool.draw(animate, frames, limit) if frames else None
        except AnimationTooLargeError:
            await send_ephemeral(ctx, t("replay.too_large", locale))
            return
        if made is None:
            await send_ephemeral(ctx, t("replay.no_image", locale, game=game))
            return
        size = f"{made.size / 1024:.0f} KiB" if made.size < 1 << 20 else f"{made.size / (1 << 20):.1f} MiB"
        file = discord.File(io.BytesIO(made.data), filename=f"replay-{table.game}-{table.id}.{made.format}")
        await ctx.send(t("replay.animated", locale, size=size, count=made.frames), file=file,
                       allowed_mentions=discord.AllowedMentions.none())

    async def go(self, interaction: discord.Interaction, table_id: int, k: int) -> None:
        """A button or a select: the step ``k`` of game ``table_id``, re-checked (a forged or stale id is refused
        privately, and nothing changes)."""
        locale = await locale_of_interaction(interaction)
        await acknowledge(interaction)  # Discord hears first: the reads, the rebuild and the drawing come after
        async with user_errors(interaction, locale):
            guild_id = interaction.guild.id if interaction.guild is not None else None
            try:
                if not table_id:  # a forged id (`id_number` turns an overlong number into 0)
                    raise GameNotFoundError("engine.no_game", table=table_id)
                table = await self.table_for(guild_id, 0, table_id)
            except GameNotFoundError:
                await send_ephemeral(interaction, t("replay.stale", locale))
                return
            replay = await self.replay_of(table)
            if not 0 <= k < len(replay):
                await send_ephemeral(interaction, t("replay.stale", locale))
                return
            kwargs = await self.message(table, replay, k, locale)
            file = kwargs.pop("file", None)
            kwargs.pop("allowed_mentions", None)
            await interaction.edit_original_response(attachments=[file] if file is not None else [], **kwargs)


async def setup(bot: App) -> None:
    await bot.add_cog(Replays(bot))
    bot.add_dynamic_items(ReplayButton, ReplaySelect)
