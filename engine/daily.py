"""The Floor Plan daily challenge, the async side: one attempt per player per UTC day, its game, its result.

Where a daily game lives: the engine keeps one open game per ``channel_id``, and a daily attempt has no channel
of its own (it is played through ephemeral replies wherever ``/floorplan daily`` is used). Each attempt is a
``daily_results`` row written *before* its game, and its game takes the synthetic channel id ``-row.id``
(negative: never a Discord snowflake, unique per attempt, so it never blocks a channel nor another player's or
another day's attempt). The game's ``guild_id`` is None, so it stays out of ``/games`` and of the server's
status messages; the server the attempt was started from is in the row (for the server leaderboard).

Moves go through ``engine.act`` (versions, the action log, a redelivered interaction applied once) like any
game. When the game is over the result (final score, rating) is stored once; a second ``/floorplan daily``
the same day resumes the unfinished game or shows the stored result. A crash between the row and its game is
repaired on the next request: the row's game is found by its synthetic channel or created then.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from datetime import date, datetime

from engine import ActResult, Engine, SeatInfo, Table
from rules.base import IllegalActionError
from rules.floor_plan import daily as fpdaily
from rules.floor_plan import notation
from storage import DailyRow, DailyStore

APP_SETTINGS_GUILD = 0  # the app's own settings row, as in bot.py
SECRET_KEY = "floor_plan.daily_secret"


def daily_channel(row: DailyRow) -> int:
    """The synthetic channel id of an attempt's game."""
    return -row.id


@dataclass
class Attempt:
    row: DailyRow
    table: Table
    created: bool = False  # this request started the attempt


class DailyChallenge:
    """One player's attempt a day at the day's seed; the day comes from the engine's clock (``bot.now``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}
        self._lock_day = ""
        self._secret: str | None = None

    async def secret(self) -> str:
        """The bot-wide secret behind the daily seeds: made once, kept in the database (the app's own settings)."""
        if self._secret is None:
            stored = await self.engine.guild_setting(APP_SETTINGS_GUILD, SECRET_KEY)
            if stored is None:
                stored = secrets.token_hex(16)
                await self.engine.set_guild_setting(APP_SETTINGS_GUILD, SECRET_KEY, stored)
            self._secret = stored
        return self._secret

    @property
    def store(self) -> DailyStore:
        return self.engine.store

    def today(self) -> date:
        return fpdaily.day_of(self.engine.now())

    def _lock(self, day: str, user_id: int) -> asyncio.Lock:
        if day != self._lock_day:  # a new day: forget the idle locks of the days before
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
            self._lock_day = day
        return self._locks.setdefault((day, user_id), asyncio.Lock())

    async def by_id(self, daily_id: int) -> DailyRow | None:
        return await self.store.daily_by_id(daily_id)

    async def attempt(self, user_id: int, day: date | None = None) -> DailyRow | None:
        day = day or self.today()
        return await self.store.daily_attempt(day.isoformat(), user_id)

    async def open(self, user_id: int, name: str, guild_id: int | None, day: date | None = None) -> Attempt:
        """The player's attempt of the day: started now, or the one already there (resumed or finished)."""
        day = day or self.today()
        key = day.isoformat()
        async with self._lock(key, user_id):
            row, created = await self.store.claim_daily(key, user_id, guild_id, name, self.engine.now())
            table = await self._game_of(row, user_id, name, day)
            if table.status == "finished" and not row.finished:
                row = await self._record(row, table)
            return Attempt(row, table, created)

    async def _game_of(self, row: DailyRow, user_id: int, name: str, day: date) -> Table:
        if row.game_id is not None:
            return await self.engine.get(row.game_id)
        table = await self.engine.table_in_channel(daily_channel(row))
        if table is None:
            table = await self.engine.open_lobby(
                fpdaily.GAME, guild_id=None, channel_id=daily_channel(row), host=SeatInfo(user_id, name),
                options=dict(fpdaily.OPTIONS), seed=fpdaily.seed_for(day, await self.secret()))
        if table.status == "lobby":
            table = await self.engine.start(table.id, user_id)
        await self.store.set_daily_game(row.id, table.id)
        return table

    async def act(self, attempt: Attempt, user_id: int, action: str, *,
                  interaction_id: int | None = None) -> tuple[ActResult, DailyRow]:
        """A move in the attempt's game; when it ends the game, the result is stored (once).

        Resigning is refused: a solo resignation would score the unused round bubbles (a free score on the
        leaderboard), and an attempt left unfinished costs nothing (it has no clock and blocks nothing).
        """
        if any(step.verb == "resign" for step in notation.parse(action)):
            raise IllegalActionError("fpdaily.no_resign")
        result = await self.engine.act(attempt.table.id, user_id, action, interaction_id=interaction_id)
        row = attempt.row
        if result.table.status == "finished":
            row = await self._record(row, result.table)
        attempt.row, attempt.table = row, result.table
        return result, row

    async def _record(self, row: DailyRow, table: Table) -> DailyRow:
        score, rating = fpdaily.result_of(table.rules, table.state)
        finished: datetime = table.updated_at
        await self.store.finish_daily(row.id, score, rating, finished)
        fresh = await self.store.daily_by_id(row.id)
        assert fresh is not None
        return fresh

    async def leaderboard(self, guild_id: int | None, day: date | None = None,
                          limit: int = fpdaily.LEADERBOARD_SIZE) -> list[DailyRow]:
        """The day's top ``limit``: one server's (``guild_id``) or every server's (None)."""
        day = day or self.today()
        return await self.store.daily_leaderboard(day.isoformat(), guild_id, limit)

    async def ranks(self, row: DailyRow) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
        """(place, finishers) on the attempt's server and everywhere."""
        return await self.store.daily_rank(row, same_guild=True), await self.store.daily_rank(row)
