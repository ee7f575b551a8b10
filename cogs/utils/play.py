"""What the games whose components carry a move share (Floating World, Floating Floors): the legal moves now,
a select's value checked against them, and playing a component's move through the engine.

A component carries the table and its version; the callback re-reads the table, and ``engine.act`` checks the
seat, the turn and the version, so a stale or forged click changes nothing.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

import discord
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.components import custom_id, delegate, id_number
from cogs.utils.lang import locale_of_interaction
from cogs.utils.posting import after_move, channel_of
from cogs.utils.replies import acknowledge, in_time, send_ephemeral, user_errors
from engine import NotSeatedError, Table
from i18n import t
from rules.base import IllegalActionError, InvalidActionError


def legal(table: Table, seat: int) -> list[str]:
    """The seat's legal actions now ([] when the game is not running)."""
    if table.state is None or table.status != "active":
        return []
    return table.rules.legal_actions(table.state, seat) or []


def chosen_action(table: Table, user_id: int, kind: str, version: int, values: list[str],
                  verbs: dict[str, tuple[str, ...]], not_now: str) -> str:
    """A select's value, if it is one move of the select's kind that the clicking seat may make now."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeatedError("engine.not_seated")
    action = values[0] if len(values) == 1 else ""
    if not action or action.split()[0] not in verbs.get(kind, ()):
        raise InvalidActionError(not_now)
    if table.version == version and action not in legal(table, seat):
        raise IllegalActionError(not_now)
    return action


async def play_component(bot: App, interaction: discord.Interaction, table: Table, action: str, locale: str,
                         version: int) -> None:
    """Play a button's or select's move: saved first (or answered in time), then the board in the channel."""
    result = await in_time(interaction, bot.engine.act(table.id, interaction.user.id, action, version=version,
                                                       interaction_id=interaction.id))
    if result.duplicate:
        await send_ephemeral(interaction, t("bot.duplicate", locale))
        return
    await acknowledge(interaction)  # after the save: the board follows in the channel
    channel = await channel_of(bot, table.channel_id)
    if channel is not None:
        await after_move(bot, result, locale, channel=channel)


# --- the components ------------------------------------------------------------------------------------------
# A game subclasses these with its own ``template`` (discord.py routes a click by it) and sets ``GAME`` (the
# custom_id's first part), ``COG`` (the cog whose ``button`` / ``choose`` answers), ``PREFIX`` (its i18n keys:
# ``<PREFIX>.button.<action>``, ``<PREFIX>.select.<placeholder>``) and ``STYLES``.
NEVER = r"(?!x)x"  # the bases are never registered: only the games' subclasses route clicks


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=NEVER):
    GAME: ClassVar[str] = ""
    COG: ClassVar[str] = ""
    PREFIX: ClassVar[str] = ""
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {}

    def __init__(self, action: str, table_id: int, version: int, *, label: str = "") -> None:
        style = self.STYLES.get(action.split(".")[0], discord.ButtonStyle.primary)
        super().__init__(discord.ui.Button(label=label or action, style=style,
                                           custom_id=custom_id(self.GAME, action, table_id, version)))
        self.action, self.table_id, self.version = action, table_id, version

    @classmethod
    def make(cls, action: str, table: Table, locale: str) -> Self:
        return cls(action, table.id, table.version, label=t(f"{cls.PREFIX}.button.{action}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> Self:
        return cls(match["action"], id_number(match["table"]), id_number(match["version"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, self.COG, "button", self.action, self.table_id, self.version)


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=NEVER):
    """A menu of moves of one kind: each option's value is a legal action now."""

    GAME: ClassVar[str] = ""
    COG: ClassVar[str] = ""
    PREFIX: ClassVar[str] = ""
    PLACEHOLDERS: ClassVar[dict[str, str]] = {}  # select kind -> its placeholder's key

    def __init__(self, kind: str, table_id: int, version: int, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=custom_id(self.GAME, kind, table_id, version),
                                                     options=[discord.SelectOption(label="-")]))
        self.kind, self.table_id, self.version = kind, table_id, version

    @classmethod
    def make(cls, kind: str, table: Table, options: list[discord.SelectOption], locale: str) -> Self:
        select = discord.ui.Select(custom_id=custom_id(cls.GAME, kind, table.id, table.version), options=options,
                                   placeholder=t(f"{cls.PREFIX}.select.{cls.PLACEHOLDERS[kind]}", locale))
        return cls(kind, table.id, table.version, select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: Any) -> Self:
        return cls(match["kind"], id_number(match["table"]), id_number(match["version"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await delegate(interaction, self.COG, "choose", self.kind, self.table_id, self.version, values)


class MoveCog(commands.Cog):
    """A game cog whose selects carry moves: ``choose`` checks the chosen value and plays it. A game sets
    ``SELECT_VERBS`` (select kind -> the verbs it may carry) and ``NOT_NOW`` (the refusal's i18n key)."""

    SELECT_VERBS: ClassVar[dict[str, tuple[str, ...]]] = {}
    NOT_NOW: ClassVar[str] = ""

    def __init__(self, bot: App) -> None:
        self.bot = bot

    async def choose(self, interaction: discord.Interaction, kind: str, table_id: int, version: int,
                     values: list[str]) -> None:
        locale = await locale_of_interaction(interaction)
        async with user_errors(interaction, locale):
            table = await self.bot.engine.get(table_id)
            action = chosen_action(table, interaction.user.id, kind, version, values, self.SELECT_VERBS, self.NOT_NOW)
            await play_component(self.bot, interaction, table, action, locale, version)
