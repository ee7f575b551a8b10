"""The engine: everything between the pure rules and the surfaces (Discord, the terminal).

`Engine` (engine/core.py) is assembled from parts over one table book (book.py: the loaded games, their locks,
load and save): timers.py (turn clocks), moves.py (the move path and timeouts), bots.py, log.py (records and
replay), scheduler.py (fires each deadline kind through the handler its part registered); admin.py, undo.py and
vacation.py are functions over those parts (parts.py); clock.py (time controls) and policies.py are pure;
`Table` and the results it hands out are in engine/tables.py, its refusals in engine/errors.py, content stored
once per game in engine/shared.py. It is a package apart from ``rules/`` because the rules stay pure (no clock,
no storage, no asyncio), and the engine is where time, storage and concurrency enter.
"""

from __future__ import annotations

from engine.clock import TURN_KINDS, TURN_REMINDER, TURN_TIMEOUT, TURN_WARNING
from engine.core import Engine
from engine.errors import (
    ChannelBusyError,
    DamagedGameError,
    EngineError,
    GameNotFoundError,
    GameOverError,
    LobbyError,
    NotSeatedError,
    PermissionDeniedError,
    StaleVersionError,
    StorageUnavailableError,
    unavailable,
)
from engine.log import replay
from engine.meta import LOBBY_OPTIONS
from engine.shared import SharedContent
from engine.tables import CLOSED_STATUSES, GUEST_SEAT, ActResult, Listener, Notice, SeatInfo, Table, utcnow
from engine.timers import ACTION_TIMER, LOBBY_EXPIRY

__all__ = [
    "ACTION_TIMER", "CLOSED_STATUSES", "GUEST_SEAT", "LOBBY_EXPIRY", "LOBBY_OPTIONS", "TURN_KINDS", "TURN_REMINDER",
    "TURN_TIMEOUT", "TURN_WARNING", "ActResult", "ChannelBusyError", "DamagedGameError", "Engine", "EngineError",
    "GameNotFoundError", "GameOverError", "Listener", "LobbyError", "NotSeatedError", "Notice",
    "PermissionDeniedError", "SeatInfo", "SharedContent", "StaleVersionError", "StorageUnavailableError", "Table",
    "replay", "unavailable", "utcnow",
]
