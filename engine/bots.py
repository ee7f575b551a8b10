"""Bot seats: a bot player, or a stand-in for an absent player (the ``bot`` timeout policy), moves whenever it
is to move. Its choice comes from the rules' ``bot_action``, computed off the event loop: in a thread, or where
the composition root says (``offload``: the bot's worker processes, so that the thinking neither holds the GIL
the loop needs nor leaves its caches and heap in the process that holds every game). A bot that has not chosen
within `THINK_SECONDS` is absent: its turn is the rules' timeout and the game goes on (a worker stops the choice)."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import rules
from engine.book import TableBook
from engine.moves import Moves
from engine.tables import ActResult, Table

MAX_BOT_STEPS = 5000  # a guard against a rules bug that would keep bots moving for ever
# A bot that has not chosen after this long is taken as absent: a rules bug that never returns must not hold its
# game's lock (every player's command in it) and a worker for ever. Choices take milliseconds (docs/benchmarks.md).
THINK_SECONDS = 60.0

log = logging.getLogger(__name__)
T = TypeVar("T")


class ThoughtTooLong(BaseException):
    """A bot's choice stopped at its time limit. A BaseException, as KeyboardInterrupt: a rules bot's own
    ``except Exception`` must not swallow it and go on thinking."""


def within(limit: float, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, interrupted after ``limit`` seconds by a SIGALRM (`ThoughtTooLong` raised where it runs), in
    a worker process's main thread, where bots think. Anywhere else ``fn`` runs unlimited and the caller's own wait
    gives up instead (`BotSeats.decide`): only a main thread takes signals, and a main process's alarm may be
    somebody else's (pytest-timeout's)."""
    worker = multiprocessing.parent_process() is not None and threading.current_thread() is threading.main_thread()
    if not worker or not hasattr(signal, "setitimer"):
        return fn(*args)

    def expire(signum: int, frame: object) -> None:
        raise ThoughtTooLong(f"{getattr(fn, '__qualname__', fn)} ran over {limit:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def think(game: str, state: Any, seat: int, limit: float = THINK_SECONDS) -> str:
    """The registry's bot choice for ``seat`` (`rules.bot_choice`) within ``limit`` seconds: what `BotSeats` sends
    a worker process."""
    return within(limit, rules.bot_choice, game, state, seat)

# Runs ``fn(*args)`` off the event loop and returns its result: ``fn`` a module-level function, every argument
# picklable (a worker process may run it). The bot passes `render.pool.draw`; the engine cannot import it.
Offload = Callable[..., Awaitable[Any]]


class BotSeats:
    """Plays the bot seats of the book's tables through the move path."""

    def __init__(self, book: TableBook, moves: Moves, offload: Offload | None = None,
                 think_seconds: float = THINK_SECONDS) -> None:
        self.book = book
        self.moves = moves
        self.offload = offload
        self.think_seconds = think_seconds

    async def decide(self, table: Table, seat: int) -> str | None:
        """The bot's action for ``seat``, or None if it did not choose within `think_seconds`. A bot may think
        for a while: off the loop (Discord's heartbeat, every other game's moves). Only the registry's own rules
        go to ``offload``: a worker finds them by the game's id and stops a choice at its limit; any other rules
        object (a simulation's wrapper, a test's) thinks in a thread of this process, which cannot be stopped:
        it is left to finish on its own and the game goes on without it."""
        limit = self.think_seconds
        try:
            if self.offload is not None and rules.GAMES.get(table.game) is table.rules:
                # A worker stops the choice at ``limit`` itself; this wait is the backstop where none can (a pool
                # drawing in threads), with room for images queued ahead of the choice.
                choice = self.offload(think, table.game, table.state, seat, limit)
                return str(await asyncio.wait_for(choice, 2 * limit))
            return await asyncio.wait_for(asyncio.to_thread(table.rules.bot_action, table.state, seat), limit)
        except (ThoughtTooLong, TimeoutError):
            log.warning("game %s: the bot of seat %d did not choose within %g s; its turn is a timeout",
                        table.id, seat, limit)
            return None

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
                if action is None:  # absence is not a move: the rules' timeout, and no more bot turns for now
                    timeout = table.rules.default_action(table.state, seat)
                    results.append(await self.moves.apply(table, seat, timeout, source="bot"))
                    break
                results.append(await self.moves.apply(table, seat, action, source="bot"))
        return results
