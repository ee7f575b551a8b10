"""A finished game's key moments, named by its rules from the replayed log (the end-of-game summary shows them).

Each game has ``rules/<id>/moments.py`` with ``moments(steps, revealed) -> list[Moment]``: pure, from the
replayed sequence of `Played` steps (seat, action, events, the states before and after). A moment names its kind
(the i18n key ``moments.<game>.<kind>``), the seats it is about, the numbers its text shows, and the step of the
log where it happened (the /replay step). ``revealed`` is False when what stays secret after the game (the lobby's
``reveal=no``, or a record without the seed) must stay secret: a game then names only moments built from public
facts.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.base import Event

MAX_MOMENTS = 3  # a summary names a few moments a player recognises, not a list


@dataclass(frozen=True)
class Moment:
    kind: str  # the i18n key's last part: moments.<game>.<kind>
    seats: tuple[int, ...]  # whom it is about, the main actor first
    numbers: dict[str, int | float] = field(default_factory=dict)  # the text's placeholders
    step: int = 0  # the replay step after which it happened (1 = after the first action)


@dataclass(frozen=True)
class Played:
    step: int  # 1-based, as /replay counts
    seat: int
    action: str
    events: list[Event]
    before: Any
    after: Any


Namer = Callable[[Sequence[Played], bool], list[Moment]]


def replay(rules: Any, players: int, options: dict[str, Any], seed: str,
           actions: Sequence[tuple[int, str]]) -> list[Played]:
    """Every action of a log applied again from the start (the log's standing actions, undo rows removed)."""
    state = rules.new(players, options, seed)
    out = []
    for i, (seat, action) in enumerate(actions, start=1):
        after, events = rules.apply(state, seat, action)
        out.append(Played(i, seat, action, events, state, after))
        state = after
    return out


def namer(game: str) -> Namer | None:
    """The game's ``moments`` function; None for a game that names none."""
    try:
        module = importlib.import_module(f"rules.{game}.moments")  # lazy: only the finished game's own module
    except ModuleNotFoundError:
        return None
    return getattr(module, "moments", None)


def moments_of(game: str, steps: Sequence[Played], revealed: bool) -> list[Moment]:
    name = namer(game)
    return [] if name is None else name(steps, revealed)[:MAX_MOMENTS]


def from_log(game: str, players: int, options: dict[str, Any], seed: str, actions: Sequence[tuple[int, str]],
             revealed: bool) -> list[Moment]:
    """A game's moments from its header and log (module-level and picklable: it may run in a worker process)."""
    from rules import GAMES  # lazy: rules/__init__ imports every game, which would import this module back

    return moments_of(game, replay(GAMES[game], players, options, seed, actions), revealed)


def best(candidates: Sequence[tuple[float, Moment]]) -> Moment | None:
    """The moment with the highest value; the earliest of equals (a tie keeps the first time it happened)."""
    top: tuple[float, Moment] | None = None
    for value, moment in candidates:
        if top is None or value > top[0]:
            top = (value, moment)
    return None if top is None else top[1]
