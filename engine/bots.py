"""Bot seats: a bot player, or a stand-in for an absent player (the ``bot`` timeout policy), moves whenever it
is to move. Its choice comes from the rules' ``bot_action``, computed off the event loop: in a thread, or where
the composition root says (``offload``: the bot's worker processes, so that the thinking neither holds the GIL
the loop needs nor leaves its caches and heap in the process that holds every game)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import rules
from engine.book import TableBook
from engine.moves import Moves
from engine.tables import ActResult, Table

MAX_BOT_STEPS = 5000  # a guard against a rules bug that would keep bots moving for ever

# Runs ``fn(*args)`` off the event loop and returns its result: ``fn`` a module-level function, every argument
# picklable (a worker process may run it). The bot passes `render.pool.draw`; the engine cannot import it.
Offload = Callable[..., Awaitable[Any]]


class BotSeats:
    """Plays the bot seats of the book's tables through the move path."""

    def __init__(self, book: TableBook, moves: Moves, offload: Offload | None = None) -> None:
        self.book = book
        self.moves = moves
        self.offload = offload

    async def decide(self, table: Table, seat: int) -> str:
        """The bot's action for ``seat``. A bot may think for a while: off the loop (Discord's heartbeat, every
        other game's moves). Only the registry's own rules go to ``offload``: a worker finds them by the game's
        id; any other rules object (a simulation's wrapper, a test's) thinks in a thread of this process."""
        registry = rules.GAMES
        if self.offload is not None and registry.get(table.game) is table.rules:
            return str(await self.offload(rules.bot_choice, table.game, table.state, seat))
        return await asyncio.to_thread(table.rules.bot_action, table.state, seat)

    async def play(self, table_id: int) -> list[ActResult]:
        """Let bot seats move while any is to move (humans in a simultaneous phase are not waited for)."""
        results: list[ActResult] = []
        for _ in range(MAX_BOT_STEPS):
            async with self.book.editing(table_id) as e:
                table = e.table
                bots = sorted(s for s in table.to_move() if table.seats[s].bot or s in table.standins())
                defers = getattr(table.rules, "bot_defers", None)  # e.g. a bot on a team with a human
                if defers is not None and bots:
                    humans = frozenset(i for i, info in enumerate(table.seats) if not info.bot)
                    bots = [b for b in bots if not defers(table.state, b, humans)]
                if not bots:
                    break
                seat = bots[0]
                action = await self.decide(table, seat)
                results.append(await self.moves.apply(table, seat, action, source="bot"))
        return results
