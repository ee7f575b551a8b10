"""``/floorplan daily`` and ``/floorplan leaderboard``: the Floor Plan daily challenge in Discord.

Everyone on every server gets the same solo game each UTC day (seed ``daily-<date>``, `rules.floor_plan.daily`);
one attempt per player per day (`engine.daily`). The game has no channel: it is played through ephemeral
replies to ``/floorplan daily`` itself, a move being its ``move`` option in the game's notation
(``/floorplan daily move:start I4 3x6``, ``move:room C3 4x3 K@D4``, ``move:features 3:C3,D3,E3 4:F5,F6,G5,G6``,
``move:claim hosts.1``, ``move:skip``). Without a move it starts the day's attempt or shows it again: the sheet
as an image, the roll, the clients and the demands that could be claimed now; once the game is over, the
result and the player's place. ``/move`` is not used (it acts on the game of the channel it is typed in).

A move that draws on the sheet (``start``, ``room``, ``features``, ``doors``) is first shown as a preview: the
sheet after it, the new cells highlighted, with **Confirm** / **Cancel**; only Confirm plays it (through
``engine.act`` with the click's interaction id), and the preview message becomes the new sheet. ``claim`` and
``skip`` alone are played at once. The preview's text is kept in memory (per table and user) and the button's
custom_id carries the table, the user, the table version and a short hash of the text: a preview from before a
restart, replaced by a newer one, or made before another move answers "make the move again".

The daily command answers only to slash commands (its replies are private); ``/floorplan leaderboard
[scope]`` posts the day's top 10 of this server, or of every server with ``scope:global``, in public
(ties: the higher score, then the earlier finish).
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.floor_plan import canonical_text, start_example
from cogs.utils.app import App
from cogs.utils.components import custom_id, delegate, id_number, view_of
from cogs.utils.lang import aliases, locale_of_ctx, locale_of_interaction, ls
from cogs.utils.replies import (
    edit_response,
    handle_command_error,
    in_time,
    refuse_public,
    send_ephemeral,
    shown_msg,
    user_errors,
)
from cogs.utils.surface import escape
from engine import PermissionDeniedError, StaleVersionError
from engine.bots import ThoughtTooLong, think
from engine.daily import Attempt, DailyChallenge
from engine.queries import DailyRow
from i18n import t
from render import floor_plan as fprender
from render import pool as render_pool
from render.kit import image_name
from rules.base import FloorboardError
from rules.floor_plan import notation
from rules.floor_plan.game import SHEET_DATA

MAX_CONTENT = 2000
SCOPES = ("server", "global")
PREVIEWED = frozenset({"start", "room", "features", "doors"})  # verbs that draw on the sheet
PREVIEW_TEMPLATE = (r"fpdaily:(?P<choice>ok|no):(?P<table>[0-9]+):(?P<user>[0-9]+):(?P<version>[0-9]+)"
                    r":(?P<key>[0-9a-f]{8})")


@dataclass(frozen=True)
class Preview:
    daily_id: int
    text: str
    key: str
    version: int


def preview_key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def sheet_cells(sheet: dict[str, Any]) -> set[tuple[str, tuple[int, int]]]:
    """Every (kind, cell) drawn on a sheet view: room cells, tree cells, features."""
    out = set()
    for room in sheet.get("rooms", []):
        out |= {("room", (room["x"] + i, room["y"] + j)) for i in range(room["w"]) for j in range(room["h"])}
    for x, y in sheet.get("trees", []):
        out |= {("tree", (x + i, y + j)) for i in range(3) for j in range(3)}
    for kind in ("doors", "windows", "furnishings", "decks", "stones"):
        out |= {(kind, (x, y)) for x, y in sheet.get(kind, [])}
    return out


def new_cells(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[int, int]]:
    return sorted({cell for _, cell in sheet_cells(after) - sheet_cells(before)})


class PreviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PREVIEW_TEMPLATE):
    """Confirm (``ok``) or Cancel (``no``) under a daily preview; only the previewing user may answer."""

    def __init__(self, choice: str, table_id: int, user_id: int, version: int, key: str, *,
                 label: str = "") -> None:
        style = discord.ButtonStyle.success if choice == "ok" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label or choice, style=style,
                                           custom_id=custom_id("fpdaily", choice, table_id, user_id, version, key)))
        self.choice, self.table_id, self.user_id, self.version, self.key = choice, table_id, user_id, version, key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> PreviewButton:
        return cls(match["choice"], id_number(match["table"]), id_number(match["user"]), id_number(match["version"]),
                   match["key"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "FloorPlanDaily", "preview_button", self.choice, self.table_id, self.user_id,
                       self.version, self.key)


def rating_name(rating: str | None, locale: str) -> str:
    return t(f"fp.rating.{rating}", locale) if rating else ""


def client_lines(view: dict[str, Any], locale: str) -> list[str]:
    lines = []
    for client in view.get("clients", []):
        demands = ", ".join(
            t("fpdaily.demand", locale, id=d["id"], text=fprender.demand_text(d["id"], locale, short=False),
              points=d["points"])
            for d in client["demands"])
        bonus = fprender.door_bonus_text(client, locale, short=False)
        lines.append(t("fpdaily.client", locale, name=fprender.client_name(client["id"], locale),
                       kind=fprender.kind_name(client["kind"], locale), demands=demands)
                     + (f"; {bonus}" if bonus else ""))
    return lines


def scope_of(text: str | None) -> str:
    """``global`` (or a word in another language starting like it: ``globalny``, ``wszystkie``) → global."""
    word = (text or "").strip().lower()
    if word and (word.startswith("g") or word in {t("fpdaily.scope.global_word", loc) for loc in ("en", "pl")}):
        return "global"
    return "server"


class FloorPlanDaily(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot
        self.daily = DailyChallenge(bot.engine)
        self.previews: dict[tuple[int, int], Preview] = {}

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    # --- commands ------------------------------------------------------------------------------------

    @commands.hybrid_group(name=ls("fpdaily.cmd.name"), description=ls("fpdaily.cmd.description"),
                           aliases=aliases("fpdaily.cmd.name"), invoke_without_command=True)
    @commands.guild_only()
    async def floorplan(self, ctx: commands.Context[Any]) -> None:
        """``!floorplan`` alone: how to play the daily challenge."""
        locale = await locale_of_ctx(ctx)
        await send_ephemeral(ctx, t("fpdaily.usage", locale))

    @floorplan.command(name=ls("fpdaily.cmd.daily.name"), description=ls("fpdaily.cmd.daily.description"),
                       aliases=aliases("fpdaily.cmd.daily.name"))
    @commands.guild_only()
    @app_commands.rename(move=ls("fpdaily.cmd.daily.move.name"))
    @app_commands.describe(move=ls("fpdaily.cmd.daily.move.description"))
    async def daily(self, ctx: commands.Context[Any], *, move: str | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        if await refuse_public(ctx, locale, "fpdaily.use_slash"):
            return
        assert ctx.interaction is not None and ctx.guild is not None
        async with user_errors(ctx, locale):
            await ctx.defer(ephemeral=True)
            attempt = await self.daily.open(ctx.author.id, ctx.author.display_name, ctx.guild.id)
            notice = t("fpdaily.started", locale) if attempt.created else ""
            move = canonical_text(move or "")  # Polish verbs (pokój, pomiń…) to the one notation the log keeps
            if move:
                if attempt.table.status != "active":
                    notice = t("fpdaily.already_played", locale)
                else:
                    try:
                        if {step.verb for step in notation.parse(move)} & PREVIEWED:
                            await ctx.send(ephemeral=True, **await self.preview(attempt, ctx.author, move, locale))
                            return
                        result, _ = await self.daily.act(attempt, ctx.author.id, move,
                                                         interaction_id=ctx.interaction.id)
                    except FloorboardError as error:  # the move is refused: say why, above the sheet as it is
                        notice = "⚠️ " + t(shown_msg(error.msg), locale)
                    else:
                        notice = t("fpdaily.duplicate" if result.duplicate else "fpdaily.played", locale,
                                   move=result.action)
            await ctx.send(ephemeral=True, **await self.reply(attempt, ctx.author.display_name, notice, locale))

    async def preview(self, attempt: Attempt, user: discord.abc.User, move: str, locale: str) -> dict[str, Any]:
        """The sheet after ``move`` (checked by the rules, nothing saved), its new cells highlighted."""
        table = attempt.table
        rules = table.rules
        if any(step.verb == "resign" for step in notation.parse(move)):
            raise FloorboardError("fpdaily.no_resign")
        text = rules.notation(table.state, move)
        after, _ = rules.apply(table.state, 0, text)  # raises a RulesError for an illegal move
        before_view, after_view = rules.sheet_view(table.state, 0, 0), rules.sheet_view(after, 0, 0)
        key = preview_key(text)
        self.previews[(table.id, user.id)] = Preview(attempt.row.id, text, key, table.version)
        png = await render_pool.draw(fprender.render_sheet, after_view, name=user.display_name, locale=locale,
                                      highlight=new_cells(before_view, after_view))
        items: list[discord.ui.Item[Any]] = [
            PreviewButton(choice, table.id, user.id, table.version, key, label=t(f"fpdaily.button.{choice}", locale))
            for choice in ("ok", "no")]
        content = t("fpdaily.preview", locale, move=text, score=after_view["score"])
        file = discord.File(io.BytesIO(png), filename=image_name(f"floor_plan-daily-{attempt.row.day}-preview", png))
        return {"content": content[:MAX_CONTENT], "file": file, "view": view_of(items)}

    async def preview_button(self, interaction: discord.Interaction, choice: str, table_id: int, user_id: int,
                             version: int, key: str) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            if interaction.user.id != user_id:
                raise PermissionDeniedError("fpdaily.not_your_preview")
            preview = self.previews.get((table_id, user_id))
            if preview is None or preview.key != key or preview.version != version:
                raise StaleVersionError("fpdaily.preview_gone")
            if choice == "no":
                del self.previews[(table_id, user_id)]
                await interaction.response.edit_message(content=t("fpdaily.cancelled", locale, move=preview.text),
                                                        view=None, attachments=[])
                return
            table = await self.bot.engine.get(table_id)
            row = await self.daily.by_id(preview.daily_id)
            if table.version != preview.version or row is None:
                del self.previews[(table_id, user_id)]
                raise StaleVersionError("fpdaily.preview_gone")
            attempt = Attempt(row, table)
            result, _ = await in_time(interaction, self.daily.act(attempt, user_id, preview.text,
                                                                  interaction_id=interaction.id))
            self.previews.pop((table_id, user_id), None)
            if result.duplicate:
                await send_ephemeral(interaction, t("fpdaily.duplicate", locale))
                return
            notice = t("fpdaily.played", locale, move=result.action)
            kwargs = await self.reply(attempt, interaction.user.display_name, notice, locale)
            await edit_response(interaction, content=kwargs["content"], attachments=[kwargs["file"]], view=None)

    @floorplan.command(name=ls("fpdaily.cmd.leaderboard.name"),
                       description=ls("fpdaily.cmd.leaderboard.description"),
                       aliases=aliases("fpdaily.cmd.leaderboard.name"))
    @commands.guild_only()
    @app_commands.rename(scope=ls("fpdaily.cmd.leaderboard.scope.name"))
    @app_commands.describe(scope=ls("fpdaily.cmd.leaderboard.scope.description"))
    @app_commands.choices(scope=[app_commands.Choice(name=ls(f"fpdaily.scope.{s}"), value=s) for s in SCOPES])
    async def leaderboard(self, ctx: commands.Context[Any], scope: str | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        assert ctx.guild is not None
        everywhere = scope_of(scope) == "global"
        day = self.daily.today()
        rows = await self.daily.leaderboard(None if everywhere else ctx.guild.id, day)
        await ctx.send(self.leaderboard_text(rows, day, everywhere, locale)[:MAX_CONTENT])

    # --- replies -------------------------------------------------------------------------------------

    def leaderboard_text(self, rows: list[DailyRow], day: date, everywhere: bool, locale: str) -> str:
        where = t("fpdaily.scope.global" if everywhere else "fpdaily.scope.server", locale)
        lines = [t("fpdaily.board_title", locale, day=day.isoformat(), scope=where)]
        if not rows:
            lines.append(t("fpdaily.board_empty", locale))
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        for place, row in enumerate(rows, start=1):
            lines.append(t("fpdaily.board_line", locale, medal=medals.get(place, "▫️"), place=place,
                           name=escape(row.name or str(row.user_id)), score=row.score,
                           rating=rating_name(row.rating, locale)))
        return "\n".join(lines)

    async def reply(self, attempt: Attempt, name: str, notice: str, locale: str) -> dict[str, Any]:
        """The attempt as an ephemeral reply: the text, and the sheet as an image."""
        table, row = attempt.table, attempt.row
        view = table.view(0)
        lines = [notice] if notice else []
        lines.append(t("fpdaily.title", locale, day=row.day))
        if row.finished and row.score is not None:
            lines.append(t("fpdaily.result", locale, score=row.score, rating=rating_name(row.rating, locale)))
            here, everywhere = await self.daily.ranks(row)
            if here and everywhere:
                lines.append(t("fpdaily.rank", locale, place=here[0], count=here[1], gplace=everywhere[0],
                               gcount=everywhere[1]))
            lines.append(t("fpdaily.come_back", locale))
        else:
            lines += self.progress_lines(table, view, locale, await self.setup_example(table, view))
        sheet = view["sheet"]
        png = await render_pool.draw(fprender.render_sheet, sheet, name=name, locale=locale)
        file = discord.File(io.BytesIO(png), filename=image_name(f"floor_plan-daily-{row.day}", png))
        return {"content": "\n".join(x for x in lines if x)[:MAX_CONTENT], "file": file}

    @staticmethod
    async def setup_example(table: Any, view: dict[str, Any]) -> str:
        """A start legal with this roll (never the default action: that is the engine's timeout). Where no
        centred room fits, the bot's choice, thought over off the loop as every bot decision is."""
        if view["phase"] != "setup":
            return ""
        try:
            return start_example(table) or await render_pool.draw(think, table.game, table.state, 0)
        except ThoughtTooLong:  # the notation's own example, rather than no reply
            return notation.USAGE["start"]

    def progress_lines(self, table: Any, view: dict[str, Any], locale: str, example: str) -> list[str]:
        lines = []
        roll = view.get("roll") or [0, 0]
        if view["phase"] == "setup":
            lines.append(t("fpdaily.setup", locale, die=roll[1], example=example))
        else:
            lines.append(t("fpdaily.round", locale, round=view["round"], total=SHEET_DATA.solo_bubbles,
                           a=roll[0], b=roll[1], score=view["scores"][0]))
        lines += client_lines(view, locale)
        claimable = view.get("claimable") or []
        if claimable:
            lines.append(t("fpdaily.claimable", locale, demands=", ".join(f"`claim {d}`" for d in claimable)))
        lines.append(t("fpdaily.how", locale))
        return lines


async def setup(bot: App) -> None:
    bot.add_dynamic_items(PreviewButton)
    await bot.add_cog(FloorPlanDaily(bot))


async def teardown(bot: App) -> None:
    bot.remove_dynamic_items(PreviewButton)
