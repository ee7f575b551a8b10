"""What the store raises: every backend raises these, so the engine catches one set."""

from __future__ import annotations


class StorageConflictError(Exception):
    """A write lost a race: the channel already has an open game, or the version moved on."""


class QueueEntryGoneError(StorageConflictError):
    """An entry a matched lobby takes out of the queue left it meanwhile: nothing was written."""


class ChallengeClosedError(StorageConflictError):
    """The challenge a new game answers was no longer open (declined, expired, a double click): nothing was
    written."""


class StorageError(Exception):
    """The database cannot serve a request; nothing was written."""


class StorageBusyError(StorageError):
    """Another process holds the database's write lock past the bounded wait."""


class StorageGoneError(StorageError):
    """The database file was removed or replaced while the bot ran: writes would vanish, so none are accepted."""


class StorageOpenError(StorageError):
    """The database cannot be opened at start (locked, read-only, not a database)."""

    def __init__(self, path: str, reason: str, hint: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason, self.hint = path, reason, hint


class DuplicateNameError(StorageConflictError):
    """A server already has a The Floor category of that name in that language."""


class TournamentConflictError(Exception):
    """Another writer saved the tournament first (its version moved on)."""
