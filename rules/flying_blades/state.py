"""The immutable game state and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.flying_blades.board import EMPTY, geometry, relations
from rules.flying_blades.cards import CARD_IDS

PHASES = ("draft", "play", "over")
CARD_OPTIONS = ("hidden", "open", "none")


@dataclass(frozen=True)
class Last:
    """The last action applied, for highlighting: who, what, from where to where, which cells were emptied."""

    seat: int
    action: str
    frm: int | None = None
    to: int | None = None
    removed: tuple[int, ...] = ()


@dataclass(frozen=True)
class State:
    players: int
    seed: str
    cards: str  # the cards option: hidden | open | none
    turn_minutes: int
    board: str  # one char per cell, row 1 first: r y b g k, '.' empty, '#' warded
    phase: str  # draft | play | over
    current: int  # the seat to move during play
    hands: tuple[tuple[str, ...], ...]  # sorted card ids; during the draft, the dealt hand until kept
    drafted: tuple[bool, ...]
    captured: tuple[int, ...]  # prey ninjas eliminated, per seat
    lost: tuple[int, ...]  # ninjas eliminated, per colour on the board
    passed: tuple[bool, ...]  # seats that passed since the last action that was not a pass
    resigned: tuple[bool, ...]
    turn: int  # number of actions applied
    last: Last | None = None
    reason: str = ""  # the outcome's reason once over

    @property
    def options(self) -> dict[str, Any]:
        return {"cards": self.cards, "turn_minutes": self.turn_minutes}

    def count(self, colour_char: str) -> int:
        return self.board.count(colour_char)

    def active(self) -> list[int]:
        return [s for s in range(self.players) if not self.resigned[s]]


def board_rows(s: State) -> list[str]:
    """The board as text rows, top row (row 9) first."""
    w = geometry(s.players).width
    return [s.board[r * w:(r + 1) * w] for r in range(geometry(s.players).height - 1, -1, -1)]


def to_json(s: State) -> dict[str, Any]:
    last = None
    if s.last is not None:
        last = {"seat": s.last.seat, "action": s.last.action, "from": s.last.frm, "to": s.last.to,
                "removed": list(s.last.removed)}
    return {
        "version": 1, "players": s.players, "seed": s.seed, "options": s.options,
        "board": board_rows(s), "phase": s.phase, "current": s.current,
        "hands": [list(h) for h in s.hands], "drafted": list(s.drafted), "captured": list(s.captured),
        "lost": list(s.lost), "passed": list(s.passed), "resigned": list(s.resigned), "turn": s.turn,
        "last": last, "reason": s.reason,
    }


def _seat_tuple(value: Any, n: int, kind: type) -> tuple[Any, ...]:
    if not isinstance(value, list) or len(value) != n or not all(type(v) is kind for v in value):
        raise ValueError(f"expected {n} values of type {kind.__name__}, got {value!r}")
    return tuple(value)


def from_json(d: dict[str, Any]) -> State:
    """Read a state written by ``to_json``; raises ValueError when it is malformed."""
    try:
        return _from_json(d)
    except (KeyError, IndexError, TypeError, AttributeError) as e:
        raise ValueError(f"malformed state: {e!r}") from e


def _from_json(d: dict[str, Any]) -> State:
    n = d["players"]
    if not isinstance(n, int) or not 2 <= n <= 5:
        raise ValueError(f"bad player count {n!r}")
    geo = geometry(n)
    rows = d["board"]
    if len(rows) != geo.height or any(len(r) != geo.width for r in rows):
        raise ValueError("bad board size")
    hands = tuple(tuple(h) for h in d["hands"])
    if len(hands) != n or any(c not in CARD_IDS for h in hands for c in h):
        raise ValueError("bad hands")
    raw = d["last"]
    last = None
    if raw is not None:
        last = Last(raw["seat"], raw["action"], raw["from"], raw["to"], tuple(raw["removed"]))
    opts = d["options"]
    s = State(
        players=n, seed=str(d["seed"]), cards=opts["cards"], turn_minutes=opts["turn_minutes"],
        board="".join(reversed(rows)), phase=d["phase"], current=d["current"], hands=hands,
        drafted=_seat_tuple(d["drafted"], n, bool), captured=_seat_tuple(d["captured"], n, int),
        lost=_seat_tuple(d["lost"], relations(n).colours, int), passed=_seat_tuple(d["passed"], n, bool),
        resigned=_seat_tuple(d["resigned"], n, bool), turn=d["turn"], last=last, reason=d["reason"],
    )
    check(s)
    return s


def check(s: State) -> None:
    """Structural sanity of a state read from outside (JSON or a position)."""
    geo, rel = geometry(s.players), relations(s.players)
    if s.phase not in PHASES or s.cards not in CARD_OPTIONS or not 0 <= s.current < s.players:
        raise ValueError("bad phase, cards option or current seat")
    allowed = set("rybgk"[: rel.colours]) | {EMPTY}
    for i, ch in enumerate(s.board):
        if (ch == "#") != (i in geo.warded) or (ch != "#" and ch not in allowed):
            raise ValueError(f"bad board cell {geo.cell(i)}: {ch!r}")
    if len(s.lost) != rel.colours or any(x < 0 for x in s.lost + s.captured) or s.turn < 0:
        raise ValueError("bad counters")
