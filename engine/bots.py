"""Bot seats: a bot player, or a stand-in for an absent player (the ``bot`` timeout policy), moves whenever it
is to move. Its choice comes from the rules' ``bot_action``, computed off the event loop."""

from __future__ import annotations

import asyncio

from engine.book import TableBook
from engine.moves import Moves
from engine.tables import ActResult

MAX_BOT_STEPS = 5000  # a guard against a rules bug that would keep bots moving for ever


class BotSeats:
    """Plays the bot seats of the book's tables through the move path."""

    def __init__(self, book: TableBook, moves: Moves) -> None:
        self.book = book
        self.moves = moves

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
                # A bot may think for a while: keep the event loop (and Discord's heartbeat) free.
                action = await asyncio.to_thread(table.rules.bot_action, table.state, seat)
                results.append(await self.moves.apply(table, seat, action, source="bot"))
        return results
