"""What the steps over a running game (admin, undo, vacation) use of the engine: its table book, its turn clocks
and its server settings. A Protocol, so that they never import `Engine` nor reach into it."""

from __future__ import annotations

from typing import Any, Protocol

from engine.book import TableBook
from engine.timers import TurnTimers


class Parts(Protocol):
    @property
    def book(self) -> TableBook: ...

    @property
    def timers(self) -> TurnTimers: ...

    async def guild_setting(self, guild_id: int, key: str, default: Any = None) -> Any: ...
