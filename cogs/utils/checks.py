"""Who may do what: the host of a table, or a member who can manage the server."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.lang import locale_of_interaction
from cogs.utils.replies import DISCORD_INT_LIMIT, bound, send_ephemeral
from i18n import t


def can_manage(source: commands.Context[Any] | discord.Interaction) -> bool:
    """Manage Server (or Administrator) where the request was made."""
    interaction = source.interaction if isinstance(source, commands.Context) else source
    if interaction is not None:
        perms = interaction.permissions
    else:
        author, channel = source.author, source.channel
        if not isinstance(author, discord.Member) or not hasattr(channel, "permissions_for"):
            return False
        perms = channel.permissions_for(author)
    return perms.manage_guild or perms.administrator


def is_host_or_manager(source: commands.Context[Any] | discord.Interaction, host_id: int) -> bool:
    user = source.author if isinstance(source, commands.Context) else source.user
    return user.id == host_id or can_manage(source)


# --- what a slash command's options may hold ------------------------------------------------------------------
# Discord enforces an option's declared range in its client, but discord.py does not re-check it on receipt: a
# forged payload can carry ``page: 10**30`` (an OverflowError at SQLite) or a 6,000-character ``/move``. The tree
# re-checks every option against what its command declares, so a new command is covered without a change here.

DISCORD_TEXT_LIMIT = 6000  # Discord's longest string option
NUMERIC = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)


@dataclass(frozen=True)
class BadOption:
    """An option outside what its command declares: which one, its allowed range and its kind."""

    name: str  # as Discord shows it in English; ``catalog_key`` names its translation
    catalog_key: str | None
    minimum: float
    maximum: float
    text: bool  # the range counts characters (a string option), not a number's value

    def reply(self, locale: str) -> str:
        name = t(self.catalog_key, locale) if self.catalog_key else self.name
        key = "bot.text_out_of_range" if self.text else "bot.out_of_range"
        return t(key, locale, name=name, minimum=bound(self.minimum, -1), maximum=bound(self.maximum, 1))


def leaf_options(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options of the command itself (inside its subcommand group and subcommand, if any)."""
    options = list(data.get("options") or [])
    while len(options) == 1 and options[0].get("type") in (1, 2):  # a subcommand (group): its own options
        options = list(options[0].get("options") or [])
    return options


def bad_option(command: Any, data: Mapping[str, Any]) -> BadOption | None:
    """The first option of ``data`` that ``command`` (an `app_commands.Command`) would not accept."""
    params = {p.display_name: p for p in getattr(command, "parameters", [])}
    for option in leaf_options(data):
        param = params.get(option.get("name", ""))
        if param is not None:
            bad = check_value(param, option.get("value"))
            if bad is not None:
                return bad
    return None


def check_value(param: app_commands.Parameter, value: Any) -> BadOption | None:
    if param.type in NUMERIC:
        low = param.min_value if param.min_value is not None else -DISCORD_INT_LIMIT
        high = param.max_value if param.max_value is not None else DISCORD_INT_LIMIT
        kinds = (int,) if param.type is discord.AppCommandOptionType.integer else (int, float)
        ok = isinstance(value, kinds) and not isinstance(value, bool) and math.isfinite(value) and low <= value <= high
        return None if ok else bad(param, low, high, text=False)
    if param.type is discord.AppCommandOptionType.string:
        low = int(param.min_value or 0)
        high = int(param.max_value if param.max_value is not None else DISCORD_TEXT_LIMIT)
        ok = not isinstance(value, str) or low <= len(value) <= high  # another type: the transformer's to refuse
        return None if ok else bad(param, low, high, text=True)
    return None


def bad(param: app_commands.Parameter, low: float, high: float, *, text: bool) -> BadOption:
    key = param.locale_name.extras.get("key") if param.locale_name is not None else None
    return BadOption(param.display_name, key, low, high, text)


class FloorboardTree(app_commands.CommandTree[Any]):
    """The command tree: every slash command's options are checked against their declared ranges first."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True  # autocomplete: a half-typed value, answered with suggestions only
        bad = bad_option(interaction.command, interaction.data or {})
        if bad is None:
            return True
        locale = await locale_of_interaction(interaction)
        await send_ephemeral(interaction, bad.reply(locale))
        return False


def declared_range(converter: Any) -> tuple[float | None, float | None]:
    """The bounds of a ``commands.Range`` annotation (also inside ``Range | None``); none for a plain number."""
    for candidate in (converter, *getattr(converter, "__args__", ())):
        if isinstance(candidate, commands.Range):
            return candidate.min, candidate.max
    return None, None


async def numbers_in_range(ctx: commands.Context[Any]) -> None:
    """The bot's before-invoke hook, for prefix and hybrid commands once their arguments are converted: a number
    outside its declared range (or Discord's, when none is declared) is refused, as is a NaN, which passes every
    ``commands.Range`` comparison."""
    command = ctx.command
    if command is None:
        return
    params = command.clean_params
    positional = ctx.args[2 if command.cog is not None else 1:]
    for name, value in {**dict(zip(params, positional, strict=False)), **ctx.kwargs}.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        low, high = declared_range(params[name].converter) if name in params else (None, None)
        low = -DISCORD_INT_LIMIT if low is None else low
        high = DISCORD_INT_LIMIT if high is None else high
        if not (math.isfinite(value) and low <= value <= high):
            ctx.current_parameter = params.get(name)
            raise commands.RangeError(value, low, high)
