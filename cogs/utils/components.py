"""Persistent buttons shared by every game: the lobby's Join / Leave / Add bot / Start, Rematch, and the
Resign / Keep playing confirmation.

They are `discord.ui.DynamicItem`s: the custom_id carries the game id, the table id and the table version
(``flying_blades:lobby:join:12:3``), so a click on a message sent before a restart still reaches its table.
The callbacks only parse and delegate to a cog method, which re-checks everything against the engine.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.utils.lang import locale_of_interaction
from i18n import t

log = logging.getLogger(__name__)

MAX_CUSTOM_ID = 100
LOBBY_ACTIONS = ("join", "leave", "bot", "start")
LOBBY_TEMPLATE = (r"(?P<game>[a-z][a-z0-9_]*):lobby:(?P<action>join|leave|bot|start)"
                  r":(?P<table>[0-9]+):(?P<version>[0-9]+)")
REMATCH_TEMPLATE = r"(?P<game>[a-z][a-z0-9_]*):rematch:(?P<table>[0-9]+):(?P<version>[0-9]+)"
RESIGN_TEMPLATE = r"(?P<game>[a-z][a-z0-9_]*):resign:(?P<choice>yes|no):(?P<table>[0-9]+):(?P<user>[0-9]+)"
SPECTATE_TEMPLATE = r"spectate:(?P<table>[0-9]+)"
RESIGN_STYLES = {"yes": discord.ButtonStyle.danger, "no": discord.ButtonStyle.secondary}
LOBBY_STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "bot": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
}


MAX_ID = 2**63 - 1  # SQLite's INTEGER; a forged custom_id may carry any number of digits
FORGED = 0  # no table or user has id 0: the callback answers "does not exist" / "not yours" (and it fits templates)


def id_number(text: str) -> int:
    """A number from a custom_id, range-checked before it reaches SQLite (``int`` of 40 digits would overflow
    there and leave the interaction unanswered)."""
    return int(text) if len(text) <= 19 and int(text) <= MAX_ID else FORGED


def custom_id(*parts: object) -> str:
    text = ":".join(str(p) for p in parts)
    if not 1 <= len(text) <= MAX_CUSTOM_ID:
        raise ValueError(f"custom_id {text!r} is not 1..{MAX_CUSTOM_ID} characters")
    return text


async def delegate(interaction: discord.Interaction, cog_name: str, method: str, *args: Any) -> None:
    """Call ``method`` of the loaded cog; if the cog is missing (an extension failed), say so."""
    cog = interaction.client.get_cog(cog_name)  # type: ignore[attr-defined]
    if cog is None:
        log.warning("a %s component was clicked but the %s cog is not loaded", method, cog_name)
        locale = await locale_of_interaction(interaction)
        await interaction.response.send_message(t("bot.unavailable", locale), ephemeral=True)
        return
    await getattr(cog, method)(interaction, *args)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LOBBY_TEMPLATE):
    def __init__(self, game: str, action: str, table_id: int, version: int, *, label: str = "",
                 style: discord.ButtonStyle | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or action, style=style or LOBBY_STYLES[action],
            custom_id=custom_id(game, "lobby", action, table_id, version),
        ))
        self.game, self.action, self.table_id, self.version = game, action, table_id, version

    @classmethod
    def make(cls, game: str, action: str, table_id: int, version: int, locale: str) -> LobbyButton:
        return cls(game, action, table_id, version, label=t(f"lobby.button.{action}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> LobbyButton:
        return cls(match["game"], match["action"], id_number(match["table"]), id_number(match["version"]),
                   label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "Lobby", "lobby_button", self.action, self.table_id, self.version)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMATCH_TEMPLATE):
    def __init__(self, game: str, table_id: int, version: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or "rematch", style=discord.ButtonStyle.primary,
            custom_id=custom_id(game, "rematch", table_id, version),
        ))
        self.game, self.table_id, self.version = game, table_id, version

    @classmethod
    def make(cls, game: str, table_id: int, version: int, locale: str) -> RematchButton:
        return cls(game, table_id, version, label=t("bot.button.rematch", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> RematchButton:
        return cls(match["game"], id_number(match["table"]), id_number(match["version"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "Lobby", "rematch_button", self.table_id)


class ResignButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=RESIGN_TEMPLATE):
    """The answer to "resign?": ``yes`` resigns, ``no`` keeps playing. Only the asking user may answer (the
    custom_id names them; the callback re-checks who clicked and that they are still seated)."""

    def __init__(self, game: str, choice: str, table_id: int, user_id: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or choice, style=RESIGN_STYLES[choice],
            custom_id=custom_id(game, "resign", choice, table_id, user_id),
        ))
        self.game, self.choice, self.table_id, self.user_id = game, choice, table_id, user_id

    @classmethod
    def make(cls, game: str, choice: str, table_id: int, user_id: int, locale: str) -> ResignButton:
        return cls(game, choice, table_id, user_id, label=t(f"lobby.button.resign_{choice}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> ResignButton:
        return cls(match["game"], match["choice"], id_number(match["table"]), id_number(match["user"]),
                   label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "Lobby", "resign_button", self.choice, self.table_id, self.user_id)


class SpectateButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SPECTATE_TEMPLATE):
    """Spectate on a running game's status message: the clicker follows the game (cogs/follow.py re-checks the
    game, its server, its ``spectators`` setting and the clicker's seat; every answer is private)."""

    def __init__(self, table_id: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "spectate", style=discord.ButtonStyle.secondary,
                                           custom_id=custom_id("spectate", table_id)))
        self.table_id = table_id

    @classmethod
    def make(cls, table_id: int, locale: str) -> SpectateButton:
        return cls(table_id, label=t("follow.button", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> SpectateButton:
        return cls(id_number(match["table"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "Follows", "spectate_button", self.table_id)


GENERIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LobbyButton, RematchButton, ResignButton)


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View | None:
    """A persistent view holding ``items`` (dynamic items only: nothing is kept in memory per message)."""
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
