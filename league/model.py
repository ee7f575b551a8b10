"""The tournament's shared vocabulary: entrants, tables, rounds and a round's pairing.

Player ids are strings (a Discord id as text, or "bot-3" in a simulation) so that the export and the pairing
libraries see one kind of id. Everything is a frozen value that turns into JSON and back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Ranking = tuple[tuple[str, ...], ...]
"""Finishing order of one table: groups of ids tied at that place, best first (`(("a",), ("b", "c"))`)."""


@dataclass(frozen=True)
class Entrant:
    id: str
    name: str
    rating: float = 0.0  # seeding strength (a display rating); higher is stronger
    joined_round: int = 1  # a late join starts in this round
    start_points: float = 0.0  # points granted to a late join (the organiser's choice)
    dropped_after: int | None = None  # last round played before a drop, disqualification or withdrawal
    missed: tuple[int, ...] = ()  # rounds missed between a drop and a re-admission (unplayed, no points)

    def active_in(self, round_number: int) -> bool:
        if round_number < self.joined_round or round_number in self.missed:
            return False
        return self.dropped_after is None or round_number <= self.dropped_after

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "rating": self.rating, "joined_round": self.joined_round,
                "start_points": self.start_points, "dropped_after": self.dropped_after, "missed": list(self.missed)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Entrant:
        return cls(str(d["id"]), str(d["name"]), float(d.get("rating", 0.0)), int(d.get("joined_round", 1)),
                   float(d.get("start_points", 0.0)), d.get("dropped_after"),
                   tuple(int(r) for r in d.get("missed", ())))


@dataclass(frozen=True)
class Table:
    """One game of a round: seats in seat order; the ranking once it is decided (None while it is played)."""

    seats: tuple[str, ...]
    ranking: Ranking | None = None
    scores: dict[str, float] | None = None  # score events and pods may keep the game's own scores
    forfeited: tuple[str, ...] = ()  # ids that lost by forfeit or no-show (ranked last, shown as such)
    game_id: int | None = None  # the engine's table id, once the game exists

    @property
    def decided(self) -> bool:
        return self.ranking is not None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seats": list(self.seats),
                             "ranking": None if self.ranking is None else [list(g) for g in self.ranking]}
        if self.scores is not None:
            d["scores"] = dict(self.scores)
        if self.forfeited:
            d["forfeited"] = list(self.forfeited)
        if self.game_id is not None:
            d["game_id"] = self.game_id
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Table:
        ranking = d.get("ranking")
        return cls(tuple(str(s) for s in d["seats"]),
                   None if ranking is None else tuple(tuple(str(i) for i in g) for g in ranking),
                   None if d.get("scores") is None else {str(k): float(v) for k, v in d["scores"].items()},
                   tuple(str(i) for i in d.get("forfeited", ())), d.get("game_id"))


@dataclass(frozen=True)
class Pairing:
    """What a pairing function returns for one round: tables (seat order) and the ids sitting out with a bye."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)  # format-specific data (a bracket's match ids, ...)
    half_byes: tuple[str, ...] = ()  # requested half-point byes: not paired this round (a voluntary unplayed round)

    @property
    def complete(self) -> bool:
        return all(t.decided for t in self.tables)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"number": self.number, "tables": [t.to_json() for t in self.tables],
                             "byes": list(self.byes)}
        if self.extra:
            d["extra"] = self.extra
        if self.half_byes:
            d["half_byes"] = list(self.half_byes)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Round:
        return cls(int(d["number"]), tuple(Table.from_json(t) for t in d["tables"]),
                   tuple(str(b) for b in d.get("byes", ())), dict(d.get("extra", {})),
                   tuple(str(b) for b in d.get("half_byes", ())))
