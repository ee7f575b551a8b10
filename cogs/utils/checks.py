"""Who may do what: the host of a table, or a member who can manage the server."""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands


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
