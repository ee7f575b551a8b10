"""Standings: points per table, named tie-break systems and the ranked table of entrants.

Points are pairwise, so one rule serves duels and pods: against each table-mate a player scores 1 for finishing
ahead, 1/2 for a tie and 0 behind, and the sum is divided by (table size − 1). A 2-player game gives 1 / 0.5 / 0,
a 3-player pod 1 / 0.5 / 0 for 1st / 2nd / 3rd, and tied players share.

Unplayed rounds follow the FIDE Play-off and Tie-Break Regulations (Handbook C.07, applied from 2023/2024),
Article 16:
- 16.4 "dummy opponent": each of a player's own unplayed rounds (pairing-allocated bye, forfeit given or received,
  the rounds before a late join and after a withdrawal) counts, for their own opponent-based tie-breaks, as a game
  against a dummy whose score is the player's own final score, with the points awarded as the result. (The 2026
  revision caps the dummy's score; the 2023 rule the issue asks for does not.)
- 16.3 for the tie-breaks of their opponents a player's score counts the awarded points, except that rounds after a
  withdrawal (zero-point byes followed only by more of them, 16.2.5) count as draws.
- 16.5 cut-1 cuts a *voluntarily* unplayed round (VUR: a forfeit loss or a requested/zero-point bye) first; a
  pairing-allocated bye and a forfeit win count like played games and are cut only if they are the lowest.
- 15.2 round robins (`Scoring.round_robin`): a forfeit is treated as a regular game, so the forfeiter and the
  opponent count each other's real score (no dummy), and a withdrawn player's walkovers are losses, not draws.
- Article 6, direct encounter: see `_direct`.
Older FIDE rules (2009: a virtual opponent who draws every later round) are not implemented: the 2023 rewrite
abolished it in favour of the dummy above.
Text: https://handbook.fide.com/chapter/TieBreakRegulations042024 (approved 01/08/2023).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from league.model import Entrant, Ranking, Round, Table

SWISS: tuple[str, ...] = ("buchholz_cut1", "buchholz", "sonneborn_berger", "wins")
ROUND_ROBIN: tuple[str, ...] = ("sonneborn_berger", "wins", "direct")
PODS: tuple[str, ...] = ("opponents_points", "table_points_avg", "firsts")
SCORE_EVENT: tuple[str, ...] = ("best_round", "total_score")
DEFAULTS: dict[str, tuple[str, ...]] = {"swiss": SWISS, "round-robin": ROUND_ROBIN, "pods": PODS,
                                        "score": SCORE_EVENT}

_DIGITS = 9  # points are sums of fractions like 1/3: compare rounded so float noise never splits a tie


@dataclass(frozen=True)
class Scoring:
    bye_points: float = 1.0  # a bye is worth a win unless the organiser says otherwise
    half_bye_points: float = 0.5  # a requested bye (Round.half_byes): a voluntarily unplayed round
    tiebreaks: tuple[str, ...] = SWISS
    round_robin: bool = False  # FIDE C.07 15.2: forfeits are regular games (no dummy opponent)

    def __post_init__(self) -> None:
        unknown = [t for t in self.tiebreaks if t not in TIEBREAKS]
        if unknown:
            raise ValueError(f"unknown tie-break(s): {', '.join(unknown)}")


@dataclass(frozen=True)
class Standing:
    player: str
    rank: int  # shared by complete ties (1, 2, 2, 4)
    points: float
    tiebreaks: dict[str, float]
    played: int  # decided tables seated at (a forfeit counts, a bye does not)
    wins: int  # tables finished sole first (a forfeit win counts)
    byes: int
    dropped: bool
    half_byes: int = 0  # requested byes taken


# --- one table -------------------------------------------------------------------------------------------------


def _places(table: Table) -> dict[str, int]:
    """Effective place of every seat, lower is better: the ranking, then unranked seats, then forfeits last.

    Forfeits go last whatever the ranking says, so a forfeiter's table-mates always score against them as a win.
    """
    assert table.ranking is not None
    seats, forfeited = set(table.seats), set(table.forfeited)
    place: dict[str, int] = {}
    for i, group in enumerate(table.ranking):
        place.update((p, i) for p in group if p in seats and p not in forfeited)
    unranked = len(table.ranking)
    for p in table.seats:
        place[p] = unranked + 1 if p in forfeited else place.get(p, unranked)
    return place


def _pair_score(place: dict[str, int], forfeited: tuple[str, ...], p: str, q: str) -> float:
    """What p scores against q at one table: 1 ahead, 1/2 tied, 0 behind, and 0 whenever p forfeited."""
    if p in forfeited or place[p] > place[q]:
        return 0.0
    return 1.0 if place[p] < place[q] else 0.5


def table_points(table: Table) -> dict[str, float]:
    """Points of each seat at a decided table (empty while undecided); a forfeiter scores 0.

    A solo table scores 0: points come only from table-mates (score events seat everyone at one table).
    """
    if not table.decided:
        return {}
    place, mates = _places(table), len(table.seats) - 1
    if mates == 0:
        return {p: 0.0 for p in table.seats}
    return {p: sum(_pair_score(place, table.forfeited, p, q) for q in table.seats if q != p) / mates
            for p in table.seats}


def score_event_ranking(scores: dict[str, float], *, higher_is_better: bool = True) -> Ranking:
    """One round's raw game scores as ranking groups, best first; equal scores share a group (ids sorted)."""
    by_score: dict[float, list[str]] = defaultdict(list)
    for player, score in scores.items():
        by_score[score].append(player)
    order = sorted(by_score, reverse=higher_is_better)
    return tuple(tuple(sorted(by_score[s])) for s in order)


# --- records of the whole event ----------------------------------------------------------------------------------


class _Meeting(NamedTuple):
    opponent: str | None  # None for a bye
    result: float  # what the player scored against this opponent (a bye: bye_points)
    unplayed: bool  # bye or forfeit: counts as the FIDE dummy opponent for opponent-based tie-breaks
    voluntary: bool = False  # FIDE C.07 16.1.2 VUR: forfeit loss, or a round missed before joining / after leaving


@dataclass
class _Record:
    table_points: float = 0.0
    played: int = 0
    wins: int = 0
    byes: int = 0
    meetings: list[_Meeting] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)  # raw game scores (score events)
    terminal_byes: int = 0  # zero-point rounds after a withdrawal: draws for the opponents' tie-breaks (16.3.2)
    half_byes: int = 0  # requested byes: voluntarily unplayed rounds (16.1.2), cut first by cut-1


def _record_table(records: dict[str, _Record], table: Table, round_robin: bool = False) -> None:
    place, points = _places(table), table_points(table)
    best = min(place.values())
    firsts = [p for p in table.seats if place[p] == best]
    for p in table.seats:
        rec = records[p]
        rec.table_points += points[p]
        rec.played += 1
        rec.wins += int(len(table.seats) > 1 and firsts == [p])
        if table.scores is not None and p in table.scores:
            rec.scores.append(table.scores[p])
        for q in table.seats:
            if q != p:
                unplayed = (p in table.forfeited or q in table.forfeited) and not round_robin  # C.07 15.2
                rec.meetings.append(_Meeting(q, _pair_score(place, table.forfeited, p, q), unplayed,
                                             p in table.forfeited))


def _collect(entrants: Sequence[Entrant], rounds: Sequence[Round], bye_points: float,
             half_bye_points: float = 0.5, round_robin: bool = False) -> dict[str, _Record]:
    records: dict[str, _Record] = defaultdict(_Record)
    for rnd in rounds:
        for p in rnd.half_byes:
            records[p].half_byes += 1
            records[p].meetings.append(_Meeting(None, half_bye_points, True, True))
        for p in rnd.byes:
            records[p].byes += 1
            records[p].meetings.append(_Meeting(None, bye_points, True))
        for table in rnd.tables:
            if table.decided:
                _record_table(records, table, round_robin)
    for e in entrants:
        # A round robin keeps a withdrawn player's later games as walkovers: those are regular games (15.2).
        seated = {r.number for r in rounds if any(e.id in t.seats for t in r.tables)} if round_robin else set()
        _record_absences(records[e.id], e, [r for r in rounds if r.number not in seated])
    return records


def _record_absences(rec: _Record, entrant: Entrant, rounds: Sequence[Round]) -> None:
    """Rounds missed before a late join (requested byes worth the late points) and after a withdrawal (zero-point
    byes): voluntarily unplayed rounds, each a dummy opponent for the player's own tie-breaks (FIDE C.07 16.1-16.4)."""
    missed_before = [r for r in rounds if r.number < entrant.joined_round]
    for _ in missed_before:
        rec.meetings.append(_Meeting(None, entrant.start_points / len(missed_before), True, True))
    missed_between = sum(1 for r in rounds if r.number in entrant.missed)  # dropped, then re-admitted
    rec.meetings.extend(_Meeting(None, 0.0, True, True) for _ in range(missed_between))
    if entrant.dropped_after is not None:
        after = sum(1 for r in rounds if r.number > entrant.dropped_after)
        rec.terminal_byes += after
        rec.meetings.extend(_Meeting(None, 0.0, True, True) for _ in range(after))


@dataclass(frozen=True)
class _Context:
    records: dict[str, _Record]
    points: dict[str, float]

    def adjusted(self, p: str) -> float:
        """p's score as their opponents' tie-breaks see it: rounds after a withdrawal count as draws (C.07 16.3.2)."""
        return self.points[p] + 0.5 * self.records[p].terminal_byes

    def contributions(self, p: str) -> list[tuple[float, _Meeting]]:
        """Each meeting's opponent points: the real opponent's adjusted score, or p's own for the dummy (16.4)."""
        return [(self.points[p] if m.unplayed or m.opponent is None else self.adjusted(m.opponent), m)
                for m in self.records[p].meetings]


# --- tie-break systems ---------------------------------------------------------------------------------------------


def _buchholz(ctx: _Context, p: str) -> float:
    """Sum of the final points of every opponent met (pods: every table-mate, once per table shared).

    A bye or forfeit counts as a dummy opponent holding the player's own final points (FIDE C.07 Art. 16).
    """
    return sum(pts for pts, _ in ctx.contributions(p))


def _buchholz_cut1(ctx: _Context, p: str) -> float:
    """Buchholz minus its least significant contribution (FIDE C.07 14.1).

    A voluntarily unplayed round is cut first (16.5.1: its contribution is never below the least significant one);
    a pairing-allocated bye or a forfeit win is an ordinary contribution, cut only when it is the lowest.
    """
    contributions = ctx.contributions(p)
    if not contributions:
        return 0.0
    voluntary = [pts for pts, m in contributions if m.voluntary]
    cut = min(voluntary) if voluntary else min(pts for pts, _ in contributions)
    return sum(pts for pts, _ in contributions) - cut


def _sonneborn_berger(ctx: _Context, p: str) -> float:
    """Sum over opponents of their final points × what the player scored against them (win 1, draw 1/2).

    Pods use the pairwise result against each table-mate. Unplayed rounds use the dummy opponent, so a full bye is
    worth the player's own points × bye_points.
    """
    return sum(pts * m.result for pts, m in ctx.contributions(p))


def _wins(ctx: _Context, p: str) -> float:
    """Tables finished sole first (forfeit wins included, byes not)."""
    return float(ctx.records[p].wins)


def _firsts(ctx: _Context, p: str) -> float:
    """Pods: tables finished sole first, as `wins`."""
    return _wins(ctx, p)


def _opponents_points(ctx: _Context, p: str) -> float:
    """Pods: average final points over the Buchholz contributions (table-mates met, dummy opponents)."""
    contributions = ctx.contributions(p)
    return _buchholz(ctx, p) / len(contributions) if contributions else 0.0


def _table_points_avg(ctx: _Context, p: str) -> float:
    """Points earned at tables / tables played; byes and late-join grants are left out as not earned in play."""
    rec = ctx.records[p]
    return rec.table_points / rec.played if rec.played else 0.0


def _best_round(ctx: _Context, p: str) -> float:
    """Score events: best single raw game score (higher is better)."""
    return max(ctx.records[p].scores, default=0.0)


def _total_score(ctx: _Context, p: str) -> float:
    """Score events: sum of raw game scores."""
    return sum(ctx.records[p].scores)


def _direct(ctx: _Context, group: Sequence[str]) -> dict[str, float]:
    """Direct encounter (FIDE C.07 Art. 6): how many of the tied group the games among them rank below the player.

    The group is the players still tied on points and every earlier tie-break (Art. 4.2), so "direct" is only
    meaningful after the systems listed before it. 6.1: the games among the tied players make separate standings;
    forfeits are left out (6.1.1) except in a round robin, where they are regular games (15.2); two who met more
    than once count the average of their games (6.1.2). 6.2: "If all the tied participants have met each other",
    the separate standings rank them, and Art. 6 is applied again to any sub-group still tied. 6.3: if not all met,
    a player ranks first only when alone at the top "whatever the outcome of the missing games", then the same for
    second place, and so on; the rest stay tied (0 below them).
    """
    levels = _direct_levels(ctx, list(group))
    below, out = len(group), {}
    for level in levels:
        below -= len(level)
        out.update(dict.fromkeys(level, float(below)))
    return out


def _direct_levels(ctx: _Context, group: list[str]) -> list[list[str]]:
    """The tied group split into ranked levels, best first (a single level: nothing resolved)."""
    if len(group) < 2:
        return [group]
    score, missing = _separate_standings(ctx, group)
    if not any(missing.values()):  # 6.2
        levels = [[p for p in group if score[p] == v] for v in sorted(set(score.values()), reverse=True)]
        if len(levels) == 1:
            return levels
        return [sub for level in levels for sub in _direct_levels(ctx, level)]
    alone = [p for p in group if all(score[p] > score[q] + missing[q] for q in group if q != p)]  # 6.3
    if not alone:
        return [group]
    return [alone, *_direct_levels(ctx, [p for p in group if p != alone[0]])]


def _separate_standings(ctx: _Context, group: list[str]) -> tuple[dict[str, float], dict[str, int]]:
    """Each player's points against the rest of the group (6.1) and how many of them they have not played."""
    members = set(group)
    score: dict[str, float] = {}
    missing: dict[str, int] = {}
    for p in group:
        results: dict[str, list[float]] = defaultdict(list)
        for m in ctx.records[p].meetings:
            if m.opponent in members and not m.unplayed:  # a forfeit is unplayed outside round robins (6.1.1)
                results[m.opponent].append(m.result)
        score[p] = _key(sum(sum(r) / len(r) for r in results.values()))
        missing[p] = len(members) - 1 - len(results)
    return score, missing


_PER_PLAYER: dict[str, Callable[[_Context, str], float]] = {
    "buchholz": _buchholz, "buchholz_cut1": _buchholz_cut1, "sonneborn_berger": _sonneborn_berger,
    "wins": _wins, "firsts": _firsts, "opponents_points": _opponents_points,
    "table_points_avg": _table_points_avg, "best_round": _best_round, "total_score": _total_score,
}
TIEBREAKS: frozenset[str] = frozenset({*_PER_PLAYER, "direct"})


# --- standings -------------------------------------------------------------------------------------------------


def _key(value: float) -> float:
    return round(value, _DIGITS)


def _tiebreak_values(name: str, ctx: _Context, ids: Sequence[str],
                     keys: dict[str, tuple[float, ...]]) -> dict[str, float]:
    if name != "direct":
        return {p: _PER_PLAYER[name](ctx, p) for p in ids}
    groups: dict[tuple[float, ...], list[str]] = defaultdict(list)
    for p in ids:
        groups[keys[p]].append(p)
    return {p: v for group in groups.values() for p, v in _direct(ctx, group).items()}


def _points(entrants: Sequence[Entrant], records: dict[str, _Record], bye_points: float,
            half_bye_points: float = 0.5) -> dict[str, float]:
    """Final points of everyone met, entrant or not: late-join grant + table points + byes + requested byes."""
    start = {e.id: e.start_points for e in entrants}
    ids = {*start, *records}
    return {p: start.get(p, 0.0) + records[p].table_points + records[p].byes * bye_points
            + records[p].half_byes * half_bye_points for p in ids}


def standings(entrants: Sequence[Entrant], rounds: Sequence[Round], scoring: Scoring) -> list[Standing]:
    """Entrants ranked by points, then `scoring.tiebreaks` in order; complete ties share a rank, shown by id.

    Dropped entrants stay (flagged); undecided tables are ignored.
    """
    records = _collect(entrants, rounds, scoring.bye_points, scoring.half_bye_points, scoring.round_robin)
    ctx = _Context(records, _points(entrants, records, scoring.bye_points, scoring.half_bye_points))
    ids = [e.id for e in entrants]
    keys = {p: (_key(ctx.points[p]),) for p in ids}
    values: dict[str, dict[str, float]] = {p: {} for p in ids}
    for name in scoring.tiebreaks:
        for p, v in _tiebreak_values(name, ctx, ids, keys).items():
            values[p][name] = v
            keys[p] = (*keys[p], _key(v))
    order = sorted(ids, key=lambda p: (tuple(-k for k in keys[p]), p))
    dropped = {e.id for e in entrants if e.dropped_after is not None}
    result: list[Standing] = []
    for i, p in enumerate(order):
        rank = result[-1].rank if result and keys[order[i - 1]] == keys[p] else i + 1
        rec = records[p]
        result.append(Standing(p, rank, ctx.points[p], values[p], rec.played, rec.wins, rec.byes, p in dropped,
                               rec.half_byes))
    return result
