"""``/help [game]`` (also ``!help``): every command with its usage, and a game's notation.

The command list is built from the command tree itself, with the names, parameters and descriptions of the
catalogs that localize the slash commands, so it never misses a command and speaks the server's language.
A game's page comes from its surface (`GameSurface.help_embed`). The slash form answers privately; the prefix
form answers in the channel (nothing in it is secret). Within Discord's embed limits (see tests).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.lang import aliases, locale_of_ctx, ls
from cogs.utils.replies import handle_command_error, user_errors
from cogs.utils.surface import find_game, game_choices, surface_for
from i18n import DEFAULT_LOCALE, catalog, t
from rules.base import Game

# The order of the list; a command not named here (a new one) is still listed, after these.
ORDER = ("play", "move", "board", "hand", "whatif", "undo", "resign", "abort", "games", "mygames", "record", "replay",
         "leaderboard", "profile", "history", "tournament", "help", "away",
         "back", "quiet", "reminders", "language", "threads", "timeouts", "web", "gameadmin",
         "serverdefaults", "ping")
MAX_DESCRIPTION = 4096
MAX_MESSAGE = 6000  # Discord's limit on all the embeds of one message together
COMPACT_GROUP = 10  # a group with more subcommands is one line (its subcommands' names): /tournament has 16


def catalog_text(key: str, locale: str, fallback: str) -> str:
    return t(key, locale) if key in catalog(DEFAULT_LOCALE) else fallback


def usage(command: app_commands.Command[Any, ..., Any], locale: str) -> str:
    """``/play <game> [options]`` in the locale's command and parameter names."""
    base = f"cmd.{command.name}"
    parts = [f"/{catalog_text(base + '.name', locale, command.name)}"]
    for param in command.parameters:
        name = catalog_text(f"{base}.{param.name}.name", locale, param.display_name)
        parts.append(f"<{name}>" if param.required else f"[{name}]")
    return " ".join(parts)


def key_text(value: Any, locale: str, fallback: str) -> str:
    """The catalog text of a ``locale_str`` that carries its catalog key (see `ls`), else ``fallback``."""
    key = getattr(value, "extras", {}).get("key")
    return catalog_text(key, locale, fallback) if key else fallback


def compact_group_line(group: app_commands.Group, locale: str) -> str:
    """``/tournament …`` — the group's description: one short line, because listing its subcommands with their
    options here would push the overview past Discord's embed limits (Discord's own command picker lists them, and
    the prefix form alone, ``!tournament``, answers with every subcommand)."""
    name = key_text(group._locale_name, locale, group.name)
    other = f" (`/{group.name}`)" if name != group.name else ""
    return f"`/{name} …`{other} — {key_text(group._locale_description, locale, group.description)}"


def group_lines(group: app_commands.Group, locale: str) -> list[str]:
    """One line per subcommand of a group (``/floorplan daily [move]``), named by the keys of its locale strings."""
    if len(group.commands) > COMPACT_GROUP:
        return [compact_group_line(group, locale)]
    lines = []
    for command in group.commands:
        if not isinstance(command, app_commands.Command):
            continue
        words = [key_text(group._locale_name, locale, group.name), key_text(command._locale_name, locale,
                                                                               command.name)]
        for param in command.parameters:
            name = key_text(param.locale_name, locale, param.display_name)
            words.append(f"<{name}>" if param.required else f"[{name}]")
        shown = "/" + " ".join(words)
        english = f"/{group.name} {command.name}"
        other = f" (`{english}`)" if not shown.startswith(english) else ""
        description = key_text(command._locale_description, locale, command.description)
        lines.append(f"`{shown}`{other} — {description}")
    return lines


def command_lines(bot: App, locale: str) -> list[str]:
    found = {c.name: c for c in bot.tree.get_commands() if isinstance(c, app_commands.Command | app_commands.Group)}
    names = [n for n in ORDER if n in found] + sorted(set(found) - set(ORDER))
    lines = []
    for name in names:
        command = found[name]
        if isinstance(command, app_commands.Group):
            lines += group_lines(command, locale)
            continue
        description = catalog_text(f"cmd.{name}.description", locale, command.description)
        shown = usage(command, locale)
        # Discord shows the localized name to users whose client speaks that language, else the default one.
        other = f" (`/{name}`)" if shown.removeprefix("/").split(" ")[0] != name else ""
        lines.append(f"`{shown}`{other} — {description}")
    return lines


def whole_lines(lines: list[str], limit: int) -> str:
    """As many whole lines as fit in ``limit`` characters (a command is never cut in the middle of its usage)."""
    out, used = [], 0
    for line in lines:
        if used + len(line) + 1 > limit:
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


def batches(embeds: list[discord.Embed], limit: int = MAX_MESSAGE) -> list[list[discord.Embed]]:
    """The embeds grouped into messages of at most ``limit`` characters in all (Discord's 6,000 per message): the
    overview and a game's page share one message while they fit, else each has its own."""
    out: list[list[discord.Embed]] = []
    used = limit
    for embed in embeds:
        size = len(embed)
        if used + size > limit:
            out.append([])
            used = 0
        out[-1].append(embed)
        used += size
    return out


def overview_embed(bot: App, locale: str) -> discord.Embed:
    prefix = bot.settings.command_prefix
    intro = t("help.intro", locale, prefix=prefix)
    embed = discord.Embed(title=t("help.title", locale), colour=discord.Colour.blurple(),
                          description=whole_lines([intro, *command_lines(bot, locale)], MAX_DESCRIPTION))
    help_name = t("cmd.help.name", locale)
    games = [
        t("help.game_line", locale, game=surface_for(bot, gid).game_name(locale), id=gid, min=rules.min_players,
          max=rules.max_players, command=f"/{help_name} {gid}")
        for gid, rules in sorted(bot.engine.games.items())
    ]
    if games:
        embed.add_field(name=t("help.games", locale), value="\n".join(games)[:1024], inline=False)
    return embed


def help_embeds(bot: App, locale: str, game: Game | None = None) -> list[discord.Embed]:
    """The overview; with a game, its notation page after it."""
    embeds = [overview_embed(bot, locale)]
    if game is not None:
        embeds.append(surface_for(bot, game.id).help_embed(locale))
    return embeds


class Help(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    @commands.hybrid_command(name=ls("cmd.help.name"), description=ls("cmd.help.description"),
                             aliases=aliases("cmd.help.name"))
    @app_commands.rename(game=ls("cmd.help.game.name"))
    @app_commands.describe(game=ls("cmd.help.game.description"))
    @app_commands.choices(game=game_choices())
    async def help_(self, ctx: commands.Context[Any], *, game: str | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        async with user_errors(ctx, locale):
            rules = find_game(self.bot.engine.games, game) if game else None
            for embeds in batches(help_embeds(self.bot, locale, rules)):
                await ctx.send(embeds=embeds, ephemeral=True)


async def setup(bot: App) -> None:
    await bot.add_cog(Help(bot))
