"""Multi-stage events: a first stage (Swiss, pods, or round-robin groups), then a playoff bracket.

The organiser's plan is in `Settings` (league/tournament.py): ``top_cut`` (4, 8 or 16) after a Swiss or pods stage,
``groups`` round-robin pools of which the top ``advance`` of each go through, ``cut_format`` (single or double
elimination) and ``third_place`` (a match between the single-elimination semi-final losers; on by default for a
playoff). The `Tournament` records each stage as a `Stage` (its format, its first round, the playoff's seeds, the
pools) in ``Tournament.stages``; a tournament of one format has none.

How seeds and places are decided (docs/tournaments.md, "Multi-stage events"):
- top cut: the first ``top_cut`` of the Swiss (or pods) standings, tie-breaks included, dropped players skipped,
  seeded in that order (1 v 8, 4 v 5, ...). Fewer players left than the cut: all of them.
- groups: entrants snake-seeded into pools by seed (rating): A B C D D C B A ...; each pool is a round robin, the
  pools' rounds are played side by side. The top ``advance`` of each pool go through, cross-seeded so that pool
  mates do not meet in the first playoff round (two pools: A1 v B2, B1 v A2).
- final places: the playoff's order (the bracket's places), then everyone else by their first-stage standing.
  Groups' first-stage standing: place in the pool, then points, then pool order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from league.model import Pairing
from league.standings import Standing

CUTS = (0, 4, 8, 16)
CUT_FORMATS = ("single", "double")
CUT_FROM = ("swiss", "pods")  # first stages a top cut may follow
MIN_GROUP = 3  # players in a pool: fewer is a single game, not a round robin
MAX_GROUPS = 16
MAX_ADVANCE = 8


class PlanSettings(Protocol):
    format: str
    top_cut: int
    cut_format: str
    third_place: bool | None
    groups: int
    advance: int
    max_players: int


@dataclass(frozen=True)
class Stage:
    """One stage as played: its format, the tournament round it starts with, and what it was built from."""

    format: str
    first_round: int = 1
    seeds: tuple[str, ...] = ()  # a playoff: its players, best seed first
    groups: tuple[tuple[str, ...], ...] = ()  # a group stage: the pools, best seed first in each
    order: tuple[str, ...] = ()  # once over: the stage's standing order (who advanced first)

    def to_json(self) -> dict[str, Any]:
        return {"format": self.format, "first_round": self.first_round, "seeds": list(self.seeds),
                "groups": [list(g) for g in self.groups], "order": list(self.order)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Stage:
        return cls(str(d["format"]), int(d.get("first_round", 1)), tuple(str(p) for p in d.get("seeds", ())),
                   tuple(tuple(str(p) for p in g) for g in d.get("groups", ())),
                   tuple(str(p) for p in d.get("order", ())))


# --- the plan ---------------------------------------------------------------------------------------------------


def has_playoff(s: PlanSettings) -> bool:
    return bool(s.top_cut or s.groups)


def playoff_format(s: PlanSettings) -> str:
    return "double-elimination" if s.cut_format == "double" else "single-elimination"


def third_place(s: PlanSettings) -> bool:
    """A third-place match: the organiser's choice, by default on for a playoff (a single-elimination one)."""
    return has_playoff(s) if s.third_place is None else bool(s.third_place)


def problem(s: PlanSettings) -> tuple[str, dict[str, Any]] | None:
    """What is wrong with the plan, known from the settings alone (a ``tour.*`` key and its values), or None."""
    if s.top_cut not in CUTS:
        return "tour.bad_top_cut", {"value": s.top_cut, "allowed": ", ".join(str(c) for c in CUTS[1:])}
    if s.cut_format not in CUT_FORMATS:
        return "tour.bad_cut_format", {"value": str(s.cut_format)[:30], "allowed": ", ".join(CUT_FORMATS)}
    if s.top_cut and s.groups:
        return "tour.cut_and_groups", {}
    if s.top_cut and s.format not in CUT_FROM:
        return "tour.cut_needs_swiss", {"format": s.format}
    if not 0 <= s.groups <= MAX_GROUPS:
        return "tour.bad_groups", {"value": s.groups, "most": MAX_GROUPS}
    if s.groups and s.format != "round-robin":
        return "tour.groups_need_round_robin", {"format": s.format}
    if s.groups and not 1 <= s.advance <= MAX_ADVANCE:
        return "tour.bad_advance", {"value": s.advance, "most": MAX_ADVANCE}
    if s.groups and s.groups * s.advance < 2:
        return "tour.playoff_too_small", {"count": s.groups * s.advance}
    if s.max_players:
        return field_problem(s, s.max_players)
    return None


def field_problem(s: PlanSettings, players: int) -> tuple[str, dict[str, Any]] | None:
    """What a field of ``players`` cannot play (the simulation, and a capped field at create)."""
    if s.top_cut > players:
        return "tour.cut_too_large", {"cut": s.top_cut, "players": players}
    if s.groups and players < MIN_GROUP * s.groups:
        return "tour.groups_too_small", {"groups": s.groups, "players": players, "least": MIN_GROUP}
    if s.groups and players // s.groups <= s.advance:
        return "tour.advance_whole_group", {"advance": s.advance, "size": players // s.groups}
    return None


# --- groups -----------------------------------------------------------------------------------------------------


def snake(ids: Sequence[str], groups: int) -> tuple[tuple[str, ...], ...]:
    """Pools snake-seeded from ``ids`` (best first): A B C D D C B A A B ... (each pool's best first). A field too
    small for the pools asked gets as many pools of 3 as it fills."""
    count = max(1, min(groups, len(ids) // MIN_GROUP))
    pools: list[list[str]] = [[] for _ in range(count)]
    for i, p in enumerate(ids):
        lap, at = divmod(i, count)
        pools[at if lap % 2 == 0 else count - 1 - at].append(p)
    return tuple(tuple(g) for g in pools)


def group_schedule(pools: Sequence[Sequence[str]]) -> tuple[Pairing, ...]:
    """Every pool's Berger round robin, played side by side: round r holds each pool's round r."""
    from league import pairing as pr  # pairing-core is heavy: loaded when a group stage starts

    each = [pr.round_robin(list(pool)) for pool in pools]
    rounds = max((len(s) for s in each), default=0)
    return tuple(Pairing(tuple(t for s in each if r < len(s) for t in s[r].tables),
                         tuple(b for s in each if r < len(s) for b in s[r].byes)) for r in range(rounds))


def group_order(tables: Sequence[Sequence[Standing]]) -> list[Standing]:
    """One standing over all pools: place in the pool, then points, then pool order; ranks follow that order,
    shared where place and points are equal. ``tables``: each pool's standings, best first."""
    keyed = [(place, -s.points, g, s) for g, table in enumerate(tables) for place, s in enumerate(table)]
    keyed.sort(key=lambda k: k[:3])
    out: list[Standing] = []
    for i, (place, points, _, s) in enumerate(keyed):
        tied = i and keyed[i - 1][:2] == (place, points)
        out.append(replace(s, rank=out[-1].rank if tied else i + 1))
    return out


def cross_seeds(tables: Sequence[Sequence[str]], advance: int) -> tuple[str, ...]:
    """The playoff's seeds from each pool's order (best first): every pool's winner, then every runner-up, ...
    with each place's pools rotated so that the standard bracket (1 v last) pairs no pool mates first: two pools
    give A1 v B2, B1 v A2; four give A1 v B2, B1 v C2, C1 v D2, D1 v A2."""
    count = len(tables)
    seeds: list[str] = []
    for place in range(advance):
        ring = list(range(count))
        if place % 2 == 1:  # seed G+q meets seed G+1-q: pool (G-q+1) mod G, never the same pool when G > 1
            ring = [(count - q + 1) % count for q in range(1, count + 1)] if count > 1 else ring
        seeds.extend(tables[g][place] for g in ring if place < len(tables[g]))
    return tuple(seeds)


# --- final places -----------------------------------------------------------------------------------------------


def combined(playoff: Sequence[Standing], first: Sequence[Standing]) -> list[Standing]:
    """The whole ranking: the playoff's players in its order, then everyone else by first-stage standing; ranks
    continue below the playoff's, ties kept. Points are everyone's first-stage points (one meaning for the column:
    the playoff's order is its ranks)."""
    inside = {s.player for s in playoff}
    points = {s.player: s.points for s in first}
    out = [replace(s, points=points.get(s.player, s.points)) for s in playoff]
    below = len(out)
    previous: Standing | None = None
    for s in (x for x in first if x.player not in inside):
        below += 1
        tied = previous is not None and previous.rank == s.rank
        out.append(replace(s, rank=out[-1].rank if tied else below))
        previous = s
    return out
