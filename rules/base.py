"""The rules contract every game implements, its value types and its error hierarchy.

Nothing in rules/ knows Discord, storage, the clock or the global RNG: a game is a pure function of
(seed, options, actions). Errors carry a translatable message (`Msg`) so that the surface can reply in the
player's language while tests and the CLI read plain English through ``str(error)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

# `Msg` is the i18n layer's (the bottom layer); re-exported because every game raises errors with it.
from i18n import Msg as Msg


class FloorboardError(Exception):
    """Base of every error a user can cause; the message is a `Msg` the surface translates."""

    def __init__(self, key: str | Msg, **params: Any) -> None:
        self.msg = key if isinstance(key, Msg) else Msg(key, **params)
        super().__init__(self.msg.key)

    def __str__(self) -> str:
        return str(self.msg)


class RulesError(FloorboardError):
    """The rules refused an action; the state is unchanged."""


class InvalidActionError(RulesError):
    """The action text cannot be parsed (a typo, an unknown verb, a malformed cell)."""


class IllegalActionError(RulesError):
    """The action parses but the rules forbid it in this position."""


class NotYourTurnError(RulesError):
    """The seat may not act now."""


class OptionsError(RulesError):
    """Game options are unknown or out of range, or the player count does not fit the game."""


class StateError(ValueError):
    """A stored state (``from_json``) has the wrong shape or a value out of range: the row is damaged.

    Not a `FloorboardError`: no player caused it. The engine marks that one table damaged and serves the rest.
    """


@dataclass(frozen=True)
class Event:
    """Something that happened while applying an action, for the surface to announce or draw."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """The end of a game. ``winners`` may hold several seats (a shared result)."""

    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]  # groups of tied seats, best first
    scores: tuple[float, ...]  # one per seat
    reason: str  # an i18n key, e.g. "outcome.all_passed"

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "ranking": [list(g) for g in self.ranking],
            "scores": list(self.scores),
            "reason": self.reason,
        }


S = TypeVar("S")


class Game(Protocol, Generic[S]):
    """The contract of DESIGN.md. States are immutable values; ``apply`` returns a new one."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # Verbs only the engine may apply (the turn deadline's ``timeout``): a player sending one is refused by the
    # engine before the rules see it, and ``legal_actions`` never lists them.
    ENGINE_VERBS: ClassVar[frozenset[str]]

    def new(self, players: int, options: dict[str, Any], seed: str) -> S: ...

    def to_move(self, s: S) -> frozenset[int]: ...

    def legal_actions(self, s: S, seat: int) -> list[str] | None: ...

    def apply(self, s: S, seat: int, action: str) -> tuple[S, list[Event]]: ...

    def outcome(self, s: S) -> Outcome | None: ...

    def view(self, s: S, seat: int | None) -> dict[str, Any]: ...

    def to_json(self, s: S) -> dict[str, Any]: ...

    def from_json(self, d: dict[str, Any]) -> S: ...

    def notation(self, s: S, action: str) -> str: ...  # canonical spelling; raises InvalidActionError

    def bot_action(self, s: S, seat: int) -> str: ...  # the AI's choice; always legal

    def default_action(self, s: S, seat: int) -> str:
        """The action the engine logs when the seat's turn deadline passes. Absence is not a move: it is a
        timeout (normally the verb ``timeout``, one of `ENGINE_VERBS`), never a choice the player could make, so
        rules that end on passes in succession count only chosen passes."""
        ...

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]: ...

    def undo_blocker(self, before: S, after: S, events: list[Event]) -> str | None:
        """Why the action that led from ``before`` to ``after`` may not be taken back (an ``undo.reason.*`` key),
        or None when it may: it revealed no hidden information, drew no randomness and did not end the game.
        Optional: a game without it allows no undo (engine/undo.py)."""
        ...
