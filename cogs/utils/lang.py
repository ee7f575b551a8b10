"""Which language to answer in, and the `app_commands.Translator` that localizes slash commands.

A server's language is its per-server override (``/language``), else its Discord locale when we ship that
language, else ``DEFAULT_LOCALE`` from the settings. Slash command names and descriptions are
``locale_str``s whose ``key`` extra names a catalog entry (``data/i18n/<locale>/commands.json``): the English
catalog is the source of the default text, other catalogs give the localizations Discord shows.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from i18n import DEFAULT_LOCALE, LOCALES, catalog, t


def shipped(locale: str | discord.Locale | None) -> str | None:
    """The shipped language of a Discord locale (``pl`` → ``pl``, ``en-GB`` → ``en``), or None."""
    if locale is None:
        return None
    base = str(getattr(locale, "value", locale)).replace("_", "-").split("-")[0].lower()
    return base if base in LOCALES else None


async def guild_locale(bot: App, guild_id: int | None, preferred: str | discord.Locale | None) -> str:
    if guild_id is not None:
        override = shipped(await bot.engine.guild_locale(guild_id))
        if override is not None:
            return override
    return shipped(preferred) or shipped(bot.settings.default_locale) or DEFAULT_LOCALE


async def locale_of_guild(bot: App, guild: discord.Guild | None) -> str:
    return await guild_locale(bot, guild.id if guild else None, guild.preferred_locale if guild else None)


async def locale_of_interaction(interaction: discord.Interaction) -> str:
    bot: App = interaction.client  # type: ignore[assignment]
    preferred = interaction.guild_locale if interaction.guild_id else interaction.locale
    return await guild_locale(bot, interaction.guild_id, preferred)


async def locale_of_ctx(ctx: commands.Context[Any]) -> str:
    if ctx.interaction is not None:
        return await locale_of_interaction(ctx.interaction)
    return await locale_of_guild(ctx.bot, ctx.guild)


def ls(key: str, **extras: Any) -> app_commands.locale_str:
    """A slash-command string: the English catalog text, carrying its key for the translator."""
    return app_commands.locale_str(t(key, DEFAULT_LOCALE), key=key, **extras)


def aliases(key: str) -> list[str]:
    """The other languages' names of a command, as aliases for its text (prefix) form."""
    english = t(key, DEFAULT_LOCALE)
    names = {text for loc in LOCALES if isinstance(text := catalog(loc).get(key), str)}
    return sorted(names - {english})


class CatalogTranslator(app_commands.Translator):
    """Localizes command names, descriptions and choices from the i18n catalogs (English is the default)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = shipped(locale)
        if key is None or lang is None or lang == DEFAULT_LOCALE:
            return None
        text = catalog(lang).get(key)
        return text if isinstance(text, str) else None
