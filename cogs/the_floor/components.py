"""The Floor's persistent buttons and selects: their custom ids, handed to the cog by name."""

from __future__ import annotations

from typing import Any

import discord

from cogs.the_floor.basics import BUTTON_STYLES, BUTTON_TEMPLATE, GAME, SELECT_TEMPLATE
from cogs.utils.components import custom_id, delegate, id_number
from engine import Table
from i18n import t


class TheFloorButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(self, action: str, table_id: int, version: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or action,
                                           style=BUTTON_STYLES.get(action, discord.ButtonStyle.secondary),
                                           custom_id=custom_id(GAME, action, table_id, version)))
        self.action, self.table_id, self.version = action, table_id, version

    @classmethod
    def make(cls, action: str, table: Table, locale: str) -> TheFloorButton:
        return cls(action, table.id, table.version, label=t(f"tfui.button.{action}", locale))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: Any) -> TheFloorButton:
        return cls(match["action"], id_number(match["table"]), id_number(match["version"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await delegate(interaction, "TheFloor", "button", self.action, self.table_id, self.version)


class TheFloorSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(self, kind: str, table_id: int, version: int, part: int,
                 select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=custom_id(GAME, "sel", kind, table_id, version, part),
                                                     options=[discord.SelectOption(label="-")]))
        self.kind, self.table_id, self.version = kind, table_id, version

    @classmethod
    def make(cls, kind: str, table: Table, part: int, options: list[discord.SelectOption], placeholder: str,
             count: int = 1) -> TheFloorSelect:
        select = discord.ui.Select(custom_id=custom_id(GAME, "sel", kind, table.id, table.version, part),
                                   options=options, min_values=count, max_values=count,
                                   placeholder=placeholder[:150])
        return cls(kind, table.id, table.version, part, select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: Any) -> TheFloorSelect:
        return cls(match["kind"], id_number(match["table"]), id_number(match["version"]), id_number(match["part"]),
                   item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await delegate(interaction, "TheFloor", "select", self.kind, self.table_id, self.version, values)


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TheFloorButton, TheFloorSelect)
