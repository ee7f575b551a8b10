"""Replies that respect where a request came from: slash, button, prefix command or a typed message.

Errors a user can cause (`FloorboardError`) are answered in the user's language, privately where Discord
allows it (an ephemeral reply to an interaction) and as a short reply in the channel otherwise. Private
information is only ever sent through an interaction: a prefix command gets a pointer to the slash command.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from i18n import t
from rules.base import FloorboardError
from storage import StorageBusyError, StorageError, StorageGoneError

log = logging.getLogger(__name__)

Target = discord.Interaction | commands.Context[Any] | discord.Message


async def send_ephemeral(target: Target, content: str, **kwargs: Any) -> None:
    """An ephemeral reply to an interaction; a plain reply in the channel for a prefix command or message."""
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


async def reply_error(target: Target, error: FloorboardError, locale: str) -> None:
    await send_ephemeral(target, t(error.msg, locale))


@asynccontextmanager
async def user_errors(target: Target, locale: str) -> AsyncIterator[None]:
    """Answer a `FloorboardError` raised in the block with its translated message, and a database that cannot
    serve with "try again"; nothing else is caught."""
    try:
        yield
    except FloorboardError as error:
        await reply_error(target, error, locale)
    except StorageError as error:
        await send_ephemeral(target, t(storage_error_key(error), locale))


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
    if isinstance(error, FloorboardError):
        await reply_error(ctx, error, locale)
        return
    key = user_error_key(error)
    if key is None:
        log.error("command %s failed", ctx.command, exc_info=error)
        key = "bot.internal_error"
    usage = f"{ctx.clean_prefix}{ctx.command.qualified_name} {ctx.command.signature}" if ctx.command else ""
    try:
        await send_ephemeral(ctx, t(key, locale, usage=usage.strip()))
    except discord.HTTPException:
        log.warning("could not send the error reply for %s", ctx.command)


def storage_error_key(error: StorageError) -> str:
    if isinstance(error, StorageGoneError):
        return "engine.storage_gone"
    if not isinstance(error, StorageBusyError):
        log.error("storage failed", exc_info=error)
    return "engine.storage_busy"


def user_error_key(error: BaseException) -> str | None:
    if isinstance(error, StorageError):
        return storage_error_key(error)
    if isinstance(error, commands.NoPrivateMessage):
        return "bot.guild_only"
    if isinstance(error, commands.MissingPermissions | commands.CheckFailure):
        return "bot.not_allowed"
    if isinstance(error, commands.UserInputError):
        return "bot.bad_input"
    if isinstance(error, commands.CommandOnCooldown):
        return "bot.slow_down"
    return None
