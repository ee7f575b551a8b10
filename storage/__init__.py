"""Persistence: the only SQL in the project. `Store` is the interface the engine uses; SQLite is the default."""

from __future__ import annotations

from storage.sqlite import ActionRow, DeadlineRow, GameRow, SqliteStore, StorageConflictError

Store = SqliteStore

__all__ = ["ActionRow", "DeadlineRow", "GameRow", "SqliteStore", "StorageConflictError", "Store"]
