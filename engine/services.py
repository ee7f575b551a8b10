"""Engine services the surfaces write through: server and player settings (cached: every click reads the server's
language), kept here so that no cog or terminal code touches the store."""

from __future__ import annotations

from typing import Any

from storage import SettingsStore, StorageOpenError, open_store

# The terminal opens its own database through the engine (it never imports storage) until cli.py's `play`, the
# composition root, opens it for it.
__all__ = ["SettingsService", "StorageOpenError", "open_store"]

_MISSING = object()


class SettingsService:
    """A server's settings, read through a write-through cache, and players' settings.

    The bot is the database's only writer while it runs, so a value read once stays true until this service
    writes it: a click reads no SQLite for the server's language after the first, and `/language` (a write here)
    replaces the cached value, so the next click sees it.
    """

    def __init__(self, store: SettingsStore) -> None:
        self.store = store
        self._guild: dict[tuple[int, str], Any] = {}

    async def guild_setting(self, guild_id: int, key: str, default: Any = None) -> Any:
        value = self._guild.get((guild_id, key), _MISSING)
        if value is _MISSING:
            value = self._guild[(guild_id, key)] = await self.store.get_setting(guild_id, key)
        return default if value is None else value

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        self._guild.pop((guild_id, key), None)  # a failed write leaves no stale value behind
        await self.store.set_setting(guild_id, key, value)
        self._guild[(guild_id, key)] = value

    def forget(self, guild_id: int | None = None) -> None:
        """Drop the cached values (one server's, or all): the next read goes to the store."""
        if guild_id is None:
            self._guild.clear()
        else:
            self._guild = {k: v for k, v in self._guild.items() if k[0] != guild_id}

    async def all_user_settings(self) -> dict[int, dict[str, Any]]:
        return await self.store.all_user_settings()

    async def set_user_settings(self, user_id: int, data: dict[str, Any]) -> None:
        await self.store.set_user_settings(user_id, data)
