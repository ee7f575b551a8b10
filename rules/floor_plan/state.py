"""Floor Plan's position: the sheet data, each seat's board and claims, the game state, and option checks.

Below the game facade, so the bot, the planner and the stored-state reader build on it without importing
`game.py`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from rules.base import OptionsError
from rules.floor_plan import demands as dm
from rules.floor_plan.sheet import (
    Sheet,
)

SHEET_PATH = Path(__file__).resolve().parents[2] / "data" / "floor_plan" / "sheet.json"
BONUSES = ("double_feature", "double_room", "two_doors")
MAX_ROUND_MINUTES = 10080
CLIENT_STREAM = 1  # streams 1..3: the client draws; 100 + round: the rolls
ROLL_STREAM = 100
OUTCOMES = ("fp.outcome.sixth", "fp.outcome.full", "fp.outcome.bubbles", "fp.outcome.resigned")


# --- the sheet data (note bonuses, bubbles, ratings) -------------------------------------------------------


@dataclass(frozen=True)
class SheetData:
    notes: tuple[str, ...]
    solo_bubbles: int
    sixth_bonus: int
    ratings: tuple[tuple[int, str], ...]  # (min score, id), ascending

    def rating(self, score: int) -> str:
        best = self.ratings[0][1]
        for low, rid in self.ratings:
            if score >= low:
                best = rid
        return best


def parse_sheet_data(raw: Any) -> SheetData:
    if not isinstance(raw, dict) or set(raw) != {"notes", "solo_bubbles", "sixth_demand_bonus", "ratings"}:
        raise ValueError("sheet.json: expected notes, solo_bubbles, sixth_demand_bonus, ratings")
    notes = raw["notes"]
    if not isinstance(notes, list) or len(notes) != 6 or any(n not in BONUSES for n in notes):
        raise ValueError(f"sheet.json: six notes from {BONUSES}")
    bubbles, bonus = raw["solo_bubbles"], raw["sixth_demand_bonus"]
    for v in (bubbles, bonus):
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise ValueError(f"sheet.json: bad number {v!r}")
    ratings = []
    for r in raw["ratings"]:
        if not isinstance(r, dict) or set(r) != {"min", "id"} or not isinstance(r["min"], int):
            raise ValueError(f"sheet.json: bad rating {r!r}")
        ratings.append((r["min"], r["id"]))
    mins = [m for m, _ in ratings]
    if not ratings or mins[0] != 0 or mins != sorted(set(mins)):
        raise ValueError("sheet.json: ratings must start at 0 and ascend")
    return SheetData(tuple(notes), bubbles, bonus, tuple(ratings))


SHEET_DATA = parse_sheet_data(json.loads(SHEET_PATH.read_text(encoding="utf-8")))


# --- state ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    demand: str
    points: int
    note: int  # 0-based note space
    tokens: frozenset[str]


@dataclass(frozen=True)
class Board:
    """One seat's sheet and notes."""

    sheet: Sheet
    notes: tuple[int | None, ...]  # points per note space
    bonus_used: tuple[bool, ...]
    claims: tuple[Claim, ...] = ()
    wild_used: bool = False
    end_bonus: int = 0

    @classmethod
    def empty(cls) -> Board:
        n = len(SHEET_DATA.notes)
        return cls(Sheet(), (None,) * n, (False,) * n)

    def used_for(self, demand: str) -> frozenset[str]:
        return frozenset().union(*(c.tokens for c in self.claims if c.demand == demand))

    def used_by_demand(self) -> dict[str, frozenset[str]]:
        return {c.demand: self.used_for(c.demand) for c in self.claims}

    def notes_total(self) -> int:
        return sum(p for p in self.notes if p is not None)

    def bonuses_used(self) -> int:
        return sum(self.bonus_used) + int(self.wild_used)

    def open_bonus(self, bonus: str) -> int | None:
        for i, kind in enumerate(SHEET_DATA.notes):
            if kind == bonus and self.notes[i] is not None and not self.bonus_used[i]:
                return i
        return None


@dataclass(frozen=True)
class State:
    players: int
    seed: str
    round_minutes: int
    clients: tuple[str, ...]  # build, design, layout
    phase: str  # setup | play | over
    round: int  # 0 in setup
    roll: tuple[int, int] | None
    boards: tuple[Board, ...]  # committed (public)
    pending: tuple[Board | None, ...]  # this round's private work
    actions: tuple[str, ...]  # this round's action texts per seat ("" = none yet)
    to_act: frozenset[int]
    stuck: frozenset[int]  # seats that cannot use this round's roll
    resigned: frozenset[int] = frozenset()
    ending: str | None = None  # sixth | full
    last_round: bool = False
    reason: str = ""

    @property
    def solo(self) -> bool:
        return self.players == 1

    def board(self, seat: int, private: bool = False) -> Board:
        pending = self.pending[seat] if private else None
        return pending or self.boards[seat]


_Frozen = TypeVar("_Frozen", "Board", "Claim")


def evolve(obj: _Frozen, **changes: Any) -> _Frozen:
    """`dataclasses.replace` of a Board or a Claim: their fields copied and ``changes`` set, without running
    ``__init__`` again (a frozen dataclass's sets each field through ``object.__setattr__``; neither checks
    anything there nor has a ``__post_init__``). The planner makes thousands of boards a decision."""
    new = object.__new__(type(obj))
    values = new.__dict__
    values.update(obj.__dict__)
    for name, value in changes.items():
        if name not in values:
            raise TypeError(f"{type(obj).__name__} has no field {name!r}")
        values[name] = value
    return new


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1:])


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _normalize(players: Any, options: Any) -> dict[str, Any]:
    if not _int(players) or not 1 <= players <= 100:
        raise OptionsError("fp.options.players", count=players, min=1, max=100)
    options = dict(options or {})
    for key in sorted(set(options) - {"round_minutes", "clients"}):
        raise OptionsError("fp.options.unknown", option=key, known="round_minutes, clients")
    minutes = options.get("round_minutes", 0)
    if not _int(minutes) or not 0 <= minutes <= MAX_ROUND_MINUTES:
        raise OptionsError("fp.options.round_minutes", value=repr(minutes), max=MAX_ROUND_MINUTES)
    out: dict[str, Any] = {"round_minutes": minutes}
    clients = options.get("clients")
    if clients is not None:
        kinds = [dm.CLIENTS[c].kind if isinstance(c, str) and c in dm.CLIENTS else None for c in clients] \
            if isinstance(clients, list | tuple) else []
        if kinds != list(dm.KINDS):
            raise OptionsError("fp.options.clients", value=repr(clients), build=", ".join(dm.by_kind("build")),
                               design=", ".join(dm.by_kind("design")), layout=", ".join(dm.by_kind("layout")))
        out["clients"] = list(clients)
    return out


class PlanRules(Protocol):
    """What the bot and the planner ask of the game: the facade implements it, and they never import it."""

    def to_move(self, s: State) -> frozenset[int]: ...

    def run_steps(self, s: State, seat: int, steps: Any) -> tuple[Board, bool]: ...

    def _claim(self, s: State, board: Board, step: Any, assign: Any = None) -> Board: ...

    def _doors(self, board: Board, step: Any) -> Board: ...
