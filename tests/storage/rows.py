"""Small row builders shared by the storage contract tests."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from storage import DeadlineRow, GameRow, Store

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
GUILD = 10


def game_row(channel: int, *, users: tuple[int, ...] = (1, 2), status: str = "active",
             guild_id: int | None = GUILD) -> GameRow:
    return GameRow(id=0, game="nim", guild_id=guild_id, channel_id=channel, host_id=users[0], status=status,
                   options={"pile": 5}, seed="secret", seats=[{"user_id": u, "name": f"p{u}", "bot": False}
                                                               for u in users],
                   version=1, moves=0, state={"pile": 5}, meta={}, outcome=None, created_at=NOW, updated_at=NOW)


async def inserted(store: Store, channel: int, **kw: object) -> GameRow:
    row = game_row(channel, **kw)  # type: ignore[arg-type]
    return replace(row, id=await store.insert_game(row))


def deadline(kind: str = "turn", *, at: datetime = NOW, seat: int | None = 0) -> DeadlineRow:
    return DeadlineRow(game_id=0, kind=kind, due_at=at, seat=seat, data={"n": 1})
