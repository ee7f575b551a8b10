"""Persistence: the only SQL in the project. `Store` (storage/store.py) is the interface the engine uses, one
narrow Protocol per concern; `SqliteStore` is the default backend, opened by `open_store(url)`."""

from __future__ import annotations

from storage.errors import (
    ChallengeClosedError,
    DuplicateNameError,
    QueueEntryGoneError,
    StorageBusyError,
    StorageConflictError,
    StorageError,
    StorageGoneError,
    StorageOpenError,
    TournamentConflictError,
)
from storage.rows import (
    GLOBAL,
    SERVER_CATEGORY_PREFIX,
    ActionRow,
    ChallengeRow,
    DailyRow,
    DeadlineRow,
    Finish,
    FollowRow,
    GameRow,
    QueueRow,
    RatingRow,
    ResultRow,
    SeatResult,
    Shards,
    TournamentRow,
    WebKey,
    server_category_number,
)
from storage.sqlite import SqliteStore
from storage.store import (
    ContentStore,
    DailyStore,
    DamageStore,
    DeadlineStore,
    GameStore,
    LeagueStore,
    QueueStore,
    SettingsStore,
    Store,
    TournamentStore,
    WebStore,
    open_read_only,
    open_store,
    sqlite_path,
)

__all__ = ["GLOBAL", "SERVER_CATEGORY_PREFIX", "ActionRow", "ChallengeClosedError", "ChallengeRow", "ContentStore",
           "DailyRow", "DailyStore", "DamageStore",
           "DeadlineRow", "DeadlineStore", "DuplicateNameError", "Finish", "FollowRow", "GameRow", "GameStore",
           "LeagueStore", "QueueEntryGoneError", "QueueRow", "QueueStore",
           "RatingRow", "ResultRow", "SeatResult", "SettingsStore", "Shards", "SqliteStore", "StorageBusyError",
           "StorageConflictError", "StorageError", "StorageGoneError", "StorageOpenError", "Store",
           "TournamentConflictError", "TournamentRow", "TournamentStore", "WebKey", "WebStore", "open_read_only",
           "open_store", "server_category_number",
           "sqlite_path"]
