"""The bot as the cogs see it: discord.py's Bot with Floorboard's shared parts (``bot.Floorboard`` builds them).

The cogs type against this class, never against ``bot.py``: the composition root imports the cogs, so a cog
importing it back would make a cycle (and would pull the whole bot into every cog's tests).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from discord.ext import commands

from config import Settings
from engine import Engine, Table
from engine.tournaments import Director


class StatusUpdates(Protocol):
    """The running games' status messages, kept current (cogs/utils/status.py's `StatusMessages`)."""

    async def adopt(self, table: Table, message_id: int, locale: str) -> None: ...

    async def update(self, table: Table, locale: str) -> None: ...

    async def close(self) -> None: ...


class App(commands.Bot):
    """Annotations only: every attribute is set by ``bot.Floorboard`` (in ``__init__`` or ``setup_hook``)."""

    settings: Settings
    now: Callable[[], datetime]
    engine: Engine
    director: Director
    surfaces: dict[str, Any]
    status_messages: StatusUpdates
    failed_extensions: dict[str, BaseException]
