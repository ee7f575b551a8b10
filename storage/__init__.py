"""Persistence: the only SQL in the project. `Store` is the interface the engine uses; SQLite is the default."""

from __future__ import annotations

from storage.sqlite import (
    SERVER_CATEGORY_PREFIX,
    ActionRow,
    DailyRow,
    DeadlineRow,
    DuplicateNameError,
    GameRow,
    SqliteStore,
    StorageBusyError,
    StorageConflictError,
    StorageError,
    StorageGoneError,
    StorageOpenError,
    server_category_number,
)
from storage.tournaments import TournamentConflictError, TournamentRow

Store = SqliteStore

__all__ = ["SERVER_CATEGORY_PREFIX", "ActionRow", "DailyRow", "DeadlineRow", "DuplicateNameError", "GameRow",
           "SqliteStore", "StorageBusyError", "StorageConflictError", "StorageError", "StorageGoneError",
           "StorageOpenError", "Store", "TournamentConflictError", "TournamentRow", "server_category_number"]
