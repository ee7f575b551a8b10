"""What the engine refuses (a `FloorboardError` each, so the surface answers it in the user's language)."""

from __future__ import annotations

import logging

from rules.base import FloorboardError
from storage import StorageBusyError, StorageError, StorageGoneError

log = logging.getLogger(__name__)


class EngineError(FloorboardError):
    """A request the engine refuses; the game is unchanged."""


class GameNotFoundError(EngineError):
    pass


class ChannelBusyError(EngineError):
    pass


class NotSeatedError(EngineError):
    pass


class StaleVersionError(EngineError):
    pass


class LobbyError(EngineError):
    pass


class PermissionDeniedError(EngineError):
    pass


class GameOverError(EngineError):
    pass


class DamagedGameError(EngineError):
    """The game's stored row fails to load or validate. It is isolated (marked damaged, its players told once);
    every other game keeps working, and the host or an admin can export (/record) or /abort it."""

    def __init__(self, table_id: int, reason: str = "") -> None:
        super().__init__("engine.damaged", table=table_id)
        self.table_id, self.reason = table_id, reason


class StorageUnavailableError(EngineError):
    """The database is busy past the bounded wait, or gone: nothing was applied; the player may try again."""


def unavailable(error: StorageError) -> StorageUnavailableError:
    if isinstance(error, StorageGoneError):
        return StorageUnavailableError("engine.storage_gone")
    if not isinstance(error, StorageBusyError):
        log.error("storage failed: %s", error)
    return StorageUnavailableError("engine.storage_busy")
