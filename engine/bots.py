"""Bot seats: a bot player, or a stand-in for an absent player (the ``bot`` timeout policy), moves whenever it
is to move. Its choice comes from the rules' ``bot_action``, computed off the event loop."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from engine.tables import ActResult, Table

MAX_BOT_STEPS = 5000  # a guard against a rules bug that would keep bots moving for ever


class BotSeats:
    """Mixed into `Engine` (engine/core.py)."""

    if TYPE_CHECKING:
        def _lock(self, table_id: int) -> asyncio.Lock: ...
        async def get(self, table_id: int) -> Table: ...
        async def _apply(self, table: Table, seat: int, action: str, **kw: Any) -> ActResult: ...

    async def play_bots(self, table_id: int) -> list[ActResult]:
        """Let bot seats move while any is to move (humans in a simultaneous phase are not waited for)."""
        results: list[ActResult] = []
        for _ in range(MAX_BOT_STEPS):
            async with self._lock(table_id):
                table = await self.get(table_id)
                bots = sorted(s for s in table.to_move() if table.seats[s].bot or s in table.standins())
                defers = getattr(table.rules, "bot_defers", None)  # e.g. a bot on a team with a human
                if defers is not None and bots:
                    humans = frozenset(i for i, info in enumerate(table.seats) if not info.bot)
                    bots = [b for b in bots if not defers(table.state, b, humans)]
                if not bots:
                    break
                seat = bots[0]
                # A bot may think for a while: keep the event loop (and Discord's heartbeat) free.
                action = await asyncio.to_thread(table.rules.bot_action, table.state, seat)
                results.append(await self._apply(table, seat, action, source="bot"))
        return results
