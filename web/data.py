"""What the pages read: the object a slug names (only for a server that opted in), a game's public positions
replayed from its log, and display names. Read-only: nothing here writes to the store."""

from __future__ import annotations

import asyncio
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web

from engine.replays import Replay as GameReplay
from engine.replays import Source
from engine.web import SETTING
from rules import GAMES
from storage import GameRow, Store

SLUG = re.compile(r"[A-Za-z0-9_-]{8,32}")  # token_urlsafe's alphabet; anything else is never looked up
REPLAYS_KEPT = 16  # games whose public positions stay in memory (a 300-move game: a few MB at most)
NAMES_KEPT = 4096
T = TypeVar("T")
KEPT = 64  # small derived values kept (a game's escaped move list per language)
PAGES_KEPT = 64  # built pages and board images kept (a 256-entrant tournament page: about 300 kB)
# A kept page is rebuilt after this long even when its version did not change: a slug given without a new
# version (a player's page made by another game) shows up within it.
PAGE_SECONDS = 30.0


class NotFound(Exception):
    """The page does not exist for this visitor: unknown slug, server not opted in, or it would need a secret."""


@dataclass(frozen=True)
class Target:
    kind: str
    guild_id: int
    object_id: int


@dataclass(frozen=True)
class Replay:
    """A game's public views after each standing action (index 0: the start) and the actions themselves."""

    views: tuple[dict[str, Any], ...]
    actions: tuple[tuple[int, str], ...]


class Reader:
    """The web site's reads over one store, with the caches that make a page cheap to serve again."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._replays: OrderedDict[tuple[int, int], Replay] = OrderedDict()
        self._names: OrderedDict[tuple[int, int], str] = OrderedDict()
        self._pages: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self._building: dict[Hashable, asyncio.Future[Any]] = {}
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()

    async def kept(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()`` (CPU: run in a thread) once per ``key``, which must name everything it depends on."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]  # type: ignore[no-any-return]
        value = await asyncio.to_thread(make)
        self._kept[key] = value
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return value

    async def page(self, key: Hashable, build: Callable[[], Awaitable[T]]) -> T:
        """What ``key`` names (a page, a board image: the object's version and the language in the key), built
        once while it stays fresh; requests arriving while it is built wait for that one build instead of
        starting their own (a live game's new move, fetched by every spectator at once, is drawn once)."""
        kept = self._pages.get(key)
        if kept is not None and self.clock() - kept[0] < PAGE_SECONDS:
            self._pages.move_to_end(key)
            return kept[1]  # type: ignore[no-any-return]
        pending = self._building.get(key)
        if pending is None:
            pending = self._building[key] = asyncio.ensure_future(build())
            pending.add_done_callback(lambda _: self._building.pop(key, None))
        value: T = await asyncio.shield(pending)
        self._pages[key] = (self.clock(), value)
        self._pages.move_to_end(key)
        while len(self._pages) > PAGES_KEPT:
            self._pages.popitem(last=False)
        return value

    async def target(self, slug: str, kind: str) -> Target:
        if not SLUG.fullmatch(slug):
            raise NotFound
        found = await self.store.web_target(slug)
        if found is None or found[0] != kind:
            raise NotFound
        if await self.store.get_setting(found[1], SETTING) is not True:
            raise NotFound  # the server turned its pages off (or never turned them on)
        return Target(*found)

    async def game(self, target: Target) -> GameRow:
        row = await self.store.load_game(target.object_id)
        if row is None or row.guild_id != target.guild_id or row.error is not None or row.game not in GAMES:
            raise NotFound
        return row

    async def replay(self, row: GameRow) -> Replay:
        """Every public view of the game (``view(state, None)``: what a spectator sees, never a seat's hand)."""
        key = (row.id, row.version)
        if key in self._replays:
            self._replays.move_to_end(key)
            return self._replays[key]
        actions = [(a.seat, a.action) for a in await self.store.actions(row.id)]
        result = await asyncio.to_thread(_replay, row, actions)  # CPU: off the event loop
        self._replays[key] = result
        while len(self._replays) > REPLAYS_KEPT:
            self._replays.popitem(last=False)
        return result

    async def player_name(self, guild_id: int, user_id: int) -> str:
        """The name the player last played under on this server (their seat's name), else their id."""
        key = (guild_id, user_id)
        if key not in self._names:
            name = str(user_id)
            for result in await self.store.results_of(user_id, guild_id=guild_id, limit=1):
                row = await self.store.load_game(result.game_id)
                seats = row.seats if row is not None else []
                if 0 <= result.seat < len(seats):
                    name = str(seats[result.seat].get("name") or name)
            self._names[key] = name
            while len(self._names) > NAMES_KEPT:
                self._names.popitem(last=False)
        return self._names[key]


def _replay(row: GameRow, actions: list[tuple[int, str]]) -> Replay:
    game = GameReplay(GAMES[row.game], Source(row.game, len(row.seats), dict(row.options), row.seed, [], actions))
    return Replay(tuple(game.views()), tuple(game.actions))


READER = web.AppKey("reader", Reader)
