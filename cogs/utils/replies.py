"""Replies that respect where a request came from: slash, button, prefix command or a typed message.

Errors a user can cause (`FloorboardError`) are answered in the user's language, privately where Discord
allows it (an ephemeral reply to an interaction) and as a short reply in the channel otherwise. Private
information is only ever sent through an interaction: a prefix command gets a pointer to the slash command.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Collection
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.lang import locale_of_interaction
from cogs.utils.text import ELLIPSIS, Markup, code, excerpt
from engine import unavailable
from engine.errors import StorageError
from i18n import LOCALES, catalog, t
from rules.base import FloorboardError, Msg

log = logging.getLogger(__name__)
T = TypeVar("T")

Target = discord.Interaction | commands.Context[Any] | discord.Message
MAX_CONTENT = 2000
DISCORD_INT_LIMIT = 2**53 - 1  # Discord's integer and number options stop here
# Error parameters that are the bot's own words (usages, lists of verbs, options, cards, ids), never input.
TRUSTED_PARAMS = frozenset({"usage", "verbs", "known", "allowed", "cards", "cells", "choices", "demands", "build",
                            "design", "layout", "games", "langs", "flags", "types", "options"})


async def send_ephemeral(target: Target, content: str | None, **kwargs: Any) -> None:
    """An ephemeral reply to an interaction; a plain reply in the channel for a prefix command or message."""
    content = fit_content(content)
    # A reply may quote what a user typed: it pings no one, whatever the client's default (a reply with
    # ``mention_author`` and no allowed_mentions of its own falls back to Discord's "parse everything").
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if isinstance(target, commands.Context):
        if target.interaction is None:
            await target.send(content, reference=target.message.to_reference(fail_if_not_exists=False),
                              mention_author=False, **kwargs)
            return
        target = target.interaction
    if isinstance(target, discord.Message):
        await target.reply(content, mention_author=False, **kwargs)
        return
    if target.response.is_done():
        await target.followup.send(content, ephemeral=True, **kwargs)
    else:
        await target.response.send_message(content, ephemeral=True, **kwargs)


ACK_BUDGET = 1.0  # seconds a move may take before Discord is answered with a deferral (its limit is 3 s)


async def acknowledge(interaction: discord.Interaction, *, thinking: bool = False) -> None:
    """Answer Discord now: an invisible deferred update (a private "thinking…" for a command)."""
    if not interaction.response.is_done():
        await (interaction.response.defer(ephemeral=True, thinking=True) if thinking
               else interaction.response.defer())


async def in_time(interaction: discord.Interaction, work: Awaitable[T], *, thinking: bool = False) -> T:
    """Run a move; if it is still waiting (a game's lock, the database queue) after `ACK_BUDGET`, answer Discord
    first, then wait for it. A move that finishes in time is saved *before* Discord hears of it, so a crash in
    between can never leave an acknowledged click unsaved; one that queues is acknowledged within Discord's 3 s."""
    task = asyncio.ensure_future(work)
    if not interaction.response.is_done():
        done, _ = await asyncio.wait({task}, timeout=ACK_BUDGET)
        if not done:
            await acknowledge(interaction, thinking=thinking)
    return await task


async def edit_response(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component sits on, whether or not the interaction was acknowledged first."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def reply_error(target: Target, error: FloorboardError, locale: str) -> None:
    await send_ephemeral(target, t(shown_msg(error.msg), locale))


def shown_msg(msg: Msg) -> Msg:
    """An error's message with what a user typed in it made safe: every string parameter is user text (quoted
    short and escaped, since a 6,000-character ``/move`` comes back in "unknown verb …") unless it is `Markup`
    or one of `TRUSTED_PARAMS`. Deny by default: a new error that echoes input is safe without a change here."""
    coded = code_params(msg.key)
    return Msg(msg.key, **{k: shown_param(k, v, k in coded) for k, v in msg.params.items()})


def shown_param(name: str, value: Any, coded: bool) -> Any:
    if isinstance(value, Msg):
        return shown_msg(value)
    if not isinstance(value, str) or isinstance(value, Markup) or name in TRUSTED_PARAMS:
        return value
    return code(value) if coded else excerpt(value)


@functools.cache
def code_params(key: str) -> frozenset[str]:
    """The parameters a message's templates (in any language) put inside a `code span`, where a backslash
    would show: those are quoted without escapes (nothing is markdown there)."""
    found: set[str] = set()
    for locale in LOCALES:
        text = catalog(locale).get(key, "")
        for form in text.values() if isinstance(text, dict) else [text]:
            for span in re.findall(r"`([^`]*)`", form):
                found.update(re.findall(r"\{(\w+)", span))
    return frozenset(found)


def fit_content(content: str | None) -> str | None:
    """Discord refuses a message over 2,000 characters: whatever made it longer, cut it rather than fail."""
    if content is None or len(content) <= MAX_CONTENT:
        return content
    return content[:MAX_CONTENT - 1] + ELLIPSIS


@asynccontextmanager
async def user_errors(target: Target, locale: str) -> AsyncIterator[None]:
    """Answer a `FloorboardError` raised in the block with its translated message, and a database that cannot
    serve with "try again"; nothing else is caught."""
    try:
        yield
    except FloorboardError as error:
        await reply_error(target, error, locale)
    except StorageError as error:  # the engine's own mapping: "busy, try again" or "unavailable"
        await reply_error(target, unavailable(error), locale)


async def refuse_public(ctx: commands.Context[Any], locale: str, key: str = "bot.private_use_slash") -> bool:
    """True (after telling the user) when ``ctx`` is a prefix command, where a reply would be public."""
    if ctx.interaction is not None:
        return False
    await send_ephemeral(ctx, t(key, locale, prefix=ctx.clean_prefix))
    return True


def unwrap(error: BaseException) -> BaseException:
    wrappers = commands.HybridCommandError | commands.CommandInvokeError | app_commands.CommandInvokeError
    while isinstance(error, wrappers):
        error = error.original
    return error


async def handle_command_error(ctx: commands.Context[Any], error: BaseException, locale: str) -> None:
    """The cogs' command error handler: a translated reply for what users cause, a log entry for bugs."""
    error = unwrap(error)
    if isinstance(error, StorageError):
        error = unavailable(error)
    if isinstance(error, FloorboardError):
        await reply_error(ctx, error, locale)
        return
    key = user_error_key(error)
    if key is None:
        log.error("command %s failed", ctx.command, exc_info=error)
        key = "bot.internal_error"
    usage = f"{ctx.clean_prefix}{ctx.command.qualified_name} {ctx.command.signature}" if ctx.command else ""
    params: dict[str, Any] = {"usage": usage.strip()}
    if isinstance(error, commands.RangeError):
        param = ctx.current_parameter
        params.update(name=param.displayed_name or param.name if param else "?", limit=error.maximum,
                      minimum=bound(error.minimum, -1), maximum=bound(error.maximum, 1))
    try:
        await send_ephemeral(ctx, t(key, locale, **params))
    except discord.HTTPException:
        log.warning("could not send the error reply for %s", ctx.command)


def bound(value: float | None, sign: int) -> str:
    """A range's end as shown ("1", "0.5"); an open end is Discord's own limit for numbers."""
    if value is None:
        value = sign * DISCORD_INT_LIMIT
    return f"{value:g}" if not float(value).is_integer() else str(int(value))


def range_error_key(error: commands.RangeError) -> str:
    """A number out of range says its range; a text says how many characters it may have."""
    if not isinstance(error.value, str):
        return "bot.out_of_range"
    return "bot.too_long" if error.maximum is not None and len(error.value) > error.maximum \
        else "bot.text_out_of_range"


def user_error_key(error: BaseException) -> str | None:
    if isinstance(error, commands.NoPrivateMessage):
        return "bot.guild_only"
    if isinstance(error, commands.MissingPermissions | commands.CheckFailure):
        return "bot.not_allowed"
    if isinstance(error, commands.RangeError):
        return range_error_key(error)
    if isinstance(error, commands.UserInputError):
        return "bot.bad_input"
    if isinstance(error, commands.CommandOnCooldown):
        return "bot.slow_down"
    return None


async def answer_unanswered(interaction: discord.Interaction, handlers: Collection[asyncio.Task[Any]]) -> None:
    """Once the handlers discord.py started for a component click are done (none, when its custom_id matches no
    template or the message does not carry it), a short private reply if none of them answered: otherwise
    Discord shows "This interaction failed"."""
    if handlers:
        await asyncio.wait(handlers)
    if interaction.response.is_done():
        return
    locale = await locale_of_interaction(interaction)
    # A handler may still have answered in between (it is then not ours to answer), or the token expired.
    with contextlib.suppress(discord.HTTPException, discord.InteractionResponded):
        await interaction.response.send_message(t("bot.unknown_component", locale), ephemeral=True)
