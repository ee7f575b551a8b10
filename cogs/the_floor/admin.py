"""``/floor`` (Polish ``/parkiet``): a server's own content for The Floor.

``/floor category add <name> <answers> [flags] [language]`` adds a category of the server's own (the rulebook's
blank cards), ``/floor category list [language]`` lists them with their ids (``server_<n>``) and
``/floor category remove <id>`` removes one; ``/floor answers add <category> <answers> [language]`` adds answers
the server accepts to any category (built-in or its own) and ``/floor answers list <category> [language]`` shows
them. Adding and removing need Manage Server (checked on every call: a subcommand cannot carry Discord's default
permissions); lists are private replies. The language defaults to the server's; a server category keeps its own.
Answers are separated by commas, semicolons or new lines. The prefix forms take the answers as the rest of the
line (``!floor category add Birds sparrow, robin, ...``); flags and the language are slash options.

Everything is stored through `engine.floor_content`, which also gives the game its ``content`` option.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.app import App
from cogs.utils.checks import can_manage
from cogs.utils.lang import aliases, locale_of_ctx, locale_of_interaction, ls
from cogs.utils.replies import handle_command_error, send_ephemeral, user_errors
from cogs.utils.text import clean, safe, safe_name
from engine import PermissionDeniedError
from engine import floor_content as tfc
from i18n import t
from rules.base import Msg
from rules.the_floor import content as builtin
from rules.the_floor.answers import fold, normalize

MAX_CONTENT = 2000
LANG_CHOICES = [app_commands.Choice(name=ls(f"tfa.lang.{lang}"), value=lang) for lang in ("en", "pl")]


def require_manager(ctx: commands.Context[Any]) -> None:
    if not can_manage(ctx):
        raise PermissionDeniedError("tfa.manage_only")


def category_name(name: str) -> str:
    """A category's name as members typed it, for a message (escaped, clipped, no control characters)."""
    return safe_name(name, tfc.MAX_NAME)


def answers_text(answers: list[str]) -> str:
    """Answers as members typed them, escaped one by one (a list is cut to one message by `fit`)."""
    return ", ".join(safe(answer, tfc.MAX_ANSWER) for answer in answers)


def flags_text(flags: list[str]) -> str:
    return ", ".join(f"`{f}`" for f in flags)


def fit(lines: list[str], locale: str, limit: int = MAX_CONTENT) -> str:
    """The lines that fit in one message, and "…and N more" when some do not."""
    out: list[str] = []
    for i, line in enumerate(lines):
        more = t("tfa.list_more", locale, count=len(lines) - i)
        if len("\n".join([*out, line])) + len(more) + 1 > limit:
            return "\n".join([*out, more])
        out.append(line)
    return "\n".join(out)


class TheFloorAdmin(commands.Cog):
    def __init__(self, bot: App) -> None:
        self.bot = bot

    @property
    def content(self) -> tfc.FloorContent:
        return self.bot.engine.floor_content

    async def cog_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        await handle_command_error(ctx, error, await locale_of_ctx(ctx))

    async def lang_of(self, ctx: commands.Context[Any], option: str | None) -> tuple[str, str]:
        """(reply locale, content language): the option, else the server's language."""
        locale = await locale_of_ctx(ctx)
        return locale, tfc.content_lang(option, default=locale)

    # --- groups ------------------------------------------------------------------------------------------

    @commands.hybrid_group(name=ls("tfa.cmd.name"), description=ls("tfa.cmd.description"),
                           aliases=aliases("tfa.cmd.name"), invoke_without_command=True)
    @commands.guild_only()
    async def floor(self, ctx: commands.Context[Any]) -> None:
        """``!floor`` alone: what the subcommands do."""
        await send_ephemeral(ctx, t("tfa.usage", await locale_of_ctx(ctx)))

    @floor.group(name=ls("tfa.cmd.category.name"), description=ls("tfa.cmd.category.description"),
                 aliases=aliases("tfa.cmd.category.name"), invoke_without_command=True)
    @commands.guild_only()
    async def category(self, ctx: commands.Context[Any]) -> None:
        await send_ephemeral(ctx, t("tfa.category_usage", await locale_of_ctx(ctx)))

    @floor.group(name=ls("tfa.cmd.answers.name"), description=ls("tfa.cmd.answers.description"),
                 aliases=aliases("tfa.cmd.answers.name"), invoke_without_command=True)
    @commands.guild_only()
    async def answers(self, ctx: commands.Context[Any]) -> None:
        await send_ephemeral(ctx, t("tfa.answers_usage", await locale_of_ctx(ctx)))

    # --- categories --------------------------------------------------------------------------------------

    @category.command(name=ls("tfa.cmd.category.add.name"), description=ls("tfa.cmd.category.add.description"),
                      aliases=aliases("tfa.cmd.category.add.name"))
    @commands.guild_only()
    @app_commands.rename(name=ls("tfa.cmd.category.add.name.name"), answers=ls("tfa.cmd.category.add.answers.name"),
                         flags=ls("tfa.cmd.category.add.flags.name"), lang=ls("tfa.cmd.category.add.lang.name"))
    @app_commands.describe(name=ls("tfa.cmd.category.add.name.description"),
                           answers=ls("tfa.cmd.category.add.answers.description"),
                           flags=ls("tfa.cmd.category.add.flags.description"),
                           lang=ls("tfa.cmd.category.add.lang.description"))
    @app_commands.choices(lang=LANG_CHOICES)
    async def category_add(self, ctx: commands.Context[Any], name: str, *, answers: str, flags: str | None = None,
                           lang: str | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        assert ctx.guild is not None
        async with user_errors(ctx, locale):
            require_manager(ctx)
            locale, content_lang = await self.lang_of(ctx, lang)
            category = await self.content.add_category(ctx.guild.id, content_lang, name, answers, flags,
                                                       ctx.author.id, self.bot.engine.now())
            shown_flags = (t("tfa.category_flags", locale, flags=flags_text(category["flags"]))
                           if category["flags"] else "")
            await ctx.send(t("tfa.category_added", locale, name=category_name(category["name"]),
                             language=t(f"tfa.lang.{content_lang}", locale), id=category["id"],
                             answers=Msg("tfa.unit.answer", count=len(category["answers"])), flags=shown_flags))

    @category.command(name=ls("tfa.cmd.category.list.name"), description=ls("tfa.cmd.category.list.description"),
                      aliases=aliases("tfa.cmd.category.list.name"))
    @commands.guild_only()
    @app_commands.rename(lang=ls("tfa.cmd.category.list.lang.name"))
    @app_commands.describe(lang=ls("tfa.cmd.category.list.lang.description"))
    @app_commands.choices(lang=LANG_CHOICES)
    async def category_list(self, ctx: commands.Context[Any], lang: str | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        assert ctx.guild is not None
        async with user_errors(ctx, locale):
            locale, content_lang = await self.lang_of(ctx, lang)
            language = t(f"tfa.lang.{content_lang}", locale)
            categories = await self.content.categories(ctx.guild.id, content_lang)
            added = await self.content.answers(ctx.guild.id, content_lang)
            builtin_line = t("tfa.list_builtin", locale, language=language,
                             count=len(builtin.categories(content_lang)))
            if not categories:
                await send_ephemeral(ctx, t("tfa.list_empty", locale, language=language) + "\n" + builtin_line)
                return
            lines = [t("tfa.list_title", locale, language=language)]
            for cat in categories:
                extra = len(added.get(cat["id"], []))
                lines.append(t("tfa.list_line", locale, id=cat["id"], name=category_name(cat["name"]),
                               answers=Msg("tfa.unit.answer", count=len(cat["answers"])),
                               added=t("tfa.list_added", locale, count=extra) if extra else "",
                               flags=f" [{flags_text(cat['flags'])}]" if cat["flags"] else ""))
            await send_ephemeral(ctx, fit(lines, locale, MAX_CONTENT - len(builtin_line) - 1) + "\n" + builtin_line)

    @category.command(name=ls("tfa.cmd.category.remove.name"),
                      description=ls("tfa.cmd.category.remove.description"),
                      aliases=aliases("tfa.cmd.category.remove.name"))
    @commands.guild_only()
    @app_commands.rename(category_id=ls("tfa.cmd.category.remove.id.name"))
    @app_commands.describe(category_id=ls("tfa.cmd.category.remove.id.description"))
    async def category_remove(self, ctx: commands.Context[Any], category_id: str) -> None:
        locale = await locale_of_ctx(ctx)
        assert ctx.guild is not None
        async with user_errors(ctx, locale):
            require_manager(ctx)
            cid = category_id.strip().lower()
            if tfc.server_category_number(cid) is None:
                raise tfc.ContentInputError("tfa.not_server_category", id=category_id)
            found = await self.content.category(ctx.guild.id, cid)
            if found is None or not await self.content.remove_category(ctx.guild.id, cid):
                raise tfc.ContentInputError("tfa.category_not_found", id=category_id)
            _, category = found
            await ctx.send(t("tfa.category_removed", locale, name=category_name(category["name"]),
                             id=category["id"]))

    # --- answers -----------------------------------------------------------------------------------------

    @answers.command(name=ls("tfa.cmd.answers.add.name"), description=ls("tfa.cmd.answers.add.description"),
                     aliases=aliases("tfa.cmd.answers.add.name"))
    @commands.guild_only()
    @app_commands.rename(category=ls("tfa.cmd.answers.add.category.name"),
                         answers=ls("tfa.cmd.answers.add.answers.name"), lang=ls("tfa.cmd.answers.add.lang.name"))
    @app_commands.describe(category=ls("tfa.cmd.answers.add.category.description"),
                           answers=ls("tfa.cmd.answers.add.answers.description"),
                           lang=ls("tfa.cmd.answers.add.lang.description"))
    @app_commands.choices(lang=LANG_CHOICES)
    async def answers_add(self, ctx: commands.Context[Any], category: str, *, answers: str,
                          lang: str | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        assert ctx.guild is not None
        async with user_errors(ctx, locale):
            require_manager(ctx)
            locale, content_lang = await self.lang_of(ctx, lang)
            result = await self.content.add_answers(ctx.guild.id, content_lang, category,
                                                    tfc.parse_answers(answers), ctx.author.id, self.bot.engine.now())
            params = {"name": category_name(result.category["name"]), "id": result.category["id"],
                      "language": t(f"tfa.lang.{result.lang}", locale)}
            lines = [t("tfa.answers_added", locale, answers=answers_text(result.added), **params) if result.added
                     else t("tfa.answers_none_added", locale, **params)]
            if result.known:
                lines.append(t("tfa.answers_known", locale, answers=answers_text(result.known)))
            await send_ephemeral(ctx, fit(lines, locale))

    @answers.command(name=ls("tfa.cmd.answers.remove.name"), description=ls("tfa.cmd.answers.remove.description"),
                     aliases=aliases("tfa.cmd.answers.remove.name"))
    @commands.guild_only()
    @app_commands.rename(category=ls("tfa.cmd.answers.add.category.name"),
                         answers=ls("tfa.cmd.answers.add.answers.name"), lang=ls("tfa.cmd.answers.add.lang.name"))
    @app_commands.describe(category=ls("tfa.cmd.answers.add.category.description"),
                           answers=ls("tfa.cmd.answers.remove.answers.description"),
                           lang=ls("tfa.cmd.answers.add.lang.description"))
    @app_commands.choices(lang=LANG_CHOICES)
    async def answers_remove(self, ctx: commands.Context[Any], category: str, *, answers: str,
                             lang: str | None = None) -> None:
        """Take answers off the server's list (the category's own list is not the server's to change)."""
        locale = await locale_of_ctx(ctx)
        assert ctx.guild is not None
        async with user_errors(ctx, locale):
            require_manager(ctx)
            locale, content_lang = await self.lang_of(ctx, lang)
            content_lang, cat = await self.content.find_category(ctx.guild.id, content_lang, category)
            flags = list(cat.get("flags", ()))
            removed, missing = [], []
            for answer in tfc.parse_answers(answers):
                key = normalize(answer, content_lang, flags)
                gone = await self.content.remove_answer(ctx.guild.id, content_lang, cat["id"], answer, key=key)
                (removed if gone else missing).append(answer)
            params = {"name": category_name(cat["name"]), "id": cat["id"]}
            lines = [t("tfa.answers_removed", locale, answers=answers_text(removed), **params) if removed
                     else t("tfa.answers_none_removed", locale, **params)]
            if missing:
                lines.append(t("tfa.answers_not_listed", locale, answers=answers_text(missing)))
            await send_ephemeral(ctx, fit(lines, locale))

    @answers.command(name=ls("tfa.cmd.answers.list.name"), description=ls("tfa.cmd.answers.list.description"),
                     aliases=aliases("tfa.cmd.answers.list.name"))
    @commands.guild_only()
    @app_commands.rename(category=ls("tfa.cmd.answers.list.category.name"), lang=ls("tfa.cmd.answers.list.lang.name"))
    @app_commands.describe(category=ls("tfa.cmd.answers.list.category.description"),
                           lang=ls("tfa.cmd.answers.list.lang.description"))
    @app_commands.choices(lang=LANG_CHOICES)
    async def answers_list(self, ctx: commands.Context[Any], category: str, lang: str | None = None) -> None:
        locale = await locale_of_ctx(ctx)
        assert ctx.guild is not None
        async with user_errors(ctx, locale):
            locale, content_lang = await self.lang_of(ctx, lang)
            content_lang, cat = await self.content.find_category(ctx.guild.id, content_lang, category)
            added = (await self.content.answers(ctx.guild.id, content_lang)).get(cat["id"], [])
            shown_flags = f"; {flags_text(cat['flags'])}" if cat.get("flags") else ""
            lines = [t("tfa.answers_title", locale, name=category_name(cat["name"]), id=cat["id"],
                       language=t(f"tfa.lang.{content_lang}", locale), flags=shown_flags)]
            if tfc.server_category_number(cat["id"]) is None:
                count = Msg("tfa.unit.answer", count=len(cat["answers"]))
                lines.append(t("tfa.answers_builtin", locale, answers=count))
            else:
                lines.append(t("tfa.answers_own", locale, count=len(cat["answers"]),
                               answers=answers_text(cat["answers"])))
            lines.append(t("tfa.answers_server", locale, count=len(added), answers=answers_text(added)) if added
                         else t("tfa.answers_server_none", locale))
            text = "\n".join(lines)
            if len(text) <= MAX_CONTENT:
                await send_ephemeral(ctx, text)
                return
            file = discord.File(io.BytesIO(text.encode()), filename=f"the_floor-{cat['id']}-{content_lang}.txt")
            await send_ephemeral(ctx, lines[0] + "\n" + t("tfa.answers_in_file", locale), file=file)

    # --- autocomplete ------------------------------------------------------------------------------------

    async def category_choices(self, interaction: discord.Interaction, current: str,
                               lang: str | None) -> list[app_commands.Choice[str]]:
        locale = await locale_of_interaction(interaction)
        try:
            content_lang = tfc.content_lang(lang, default=locale)
        except tfc.ContentInputError:
            content_lang = tfc.content_lang(None, default=locale)
        cats: list[dict[str, Any]] = []
        if interaction.guild_id is not None:
            cats += await self.content.categories(interaction.guild_id, content_lang)
        cats += builtin.categories(content_lang)
        key = fold(current or "")
        found = [c for c in cats if not key or key in fold(c["name"]) or key in c["id"]]
        return [app_commands.Choice(name=clean(f"{c['name']} ({c['id']})", 100), value=c["id"]) for c in found[:25]]

    @answers_add.autocomplete("category")
    async def answers_add_category(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        return await self.category_choices(interaction, current, getattr(interaction.namespace, "language", None))

    @answers_remove.autocomplete("category")
    async def answers_remove_category(self, interaction: discord.Interaction,
                                      current: str) -> list[app_commands.Choice[str]]:
        return await self.category_choices(interaction, current, getattr(interaction.namespace, "language", None))

    @answers_list.autocomplete("category")
    async def answers_list_category(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        return await self.category_choices(interaction, current, getattr(interaction.namespace, "language", None))
