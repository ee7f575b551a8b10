"""Persistence: the only SQL in the project. `Store` is the interface the engine uses; SQLite is the default."""

from __future__ import annotations

from storage.sqlite import ActionRow, DailyRow, DeadlineRow, GameRow, SqliteStore, StorageConflictError

Store = SqliteStore

__all__ = ["ActionRow", "DailyRow", "DeadlineRow", "GameRow", "SqliteStore", "StorageConflictError", "Store"]
