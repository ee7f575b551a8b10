"""One lock per game: every change to a game (a move, a timer, an admin's act) is made under it."""

from __future__ import annotations

import asyncio


class TableLocks:
    """The locks of the games in play. A closed game's lock is forgotten (while still held: its holder and any
    waiter keep their reference and find the game closed) so that a server's history does not accumulate locks."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}

    def of(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def forget(self, table_id: int) -> None:
        self._locks.pop(table_id, None)

    def __len__(self) -> int:
        return len(self._locks)
