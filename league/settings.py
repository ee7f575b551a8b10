"""What an organiser sets for a tournament (`Settings`), the formats, and the checks on rounds and fields.

Below `league.tournament` (the tournament as a value), so the surfaces and the engine read settings alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from league import pods as pd
from league import stages as stg
from league import standings as st
from rules.base import FloorboardError

FORMATS = ("swiss", "round-robin", "single-elimination", "double-elimination", "pods", "score")
TWO_PLAYER = ("swiss", "round-robin", "single-elimination", "double-elimination")
REGISTRATION, RUNNING, FINISHED, CANCELLED = "registration", "running", "finished", "cancelled"
SCORE_ROUNDS = 3  # a score event's default number of rounds
MAX_ENTRANTS = 512
DRAW_RULES = ("rematch", "higher_seed")  # what a drawn elimination game leads to (Settings.draw_rule)
MAX_REPLAYS = 3  # deciding games after a drawn elimination game; then the higher seed goes through
BYE_FORMATS = ("swiss", "pods")  # formats paired round by round, where an entrant may ask to sit a round out


def resolve_format(name: str, table_size: int) -> str:
    """The format an organiser names, for the table size they chose: a Swiss of multiplayer tables is pods (seated
    by standing, like Swiss), and a Swiss of one-player games is a score event."""
    name = name.strip().lower()
    if name == "swiss" and table_size >= 3:
        return "pods"
    if name == "swiss" and table_size == 1:
        return "score"
    return name


class TournamentError(FloorboardError):
    """A step the tournament does not take now (the message says why: a ``tour.*`` key)."""


def most_rounds(settings: Settings, players: int) -> int | None:
    """The most rounds a field of ``players`` may be given (None: no bound, or the format fixes its rounds).

    Swiss: the most that are sure to pair without a rematch or a second bye. A round is a split of the field (a
    bye as one more player) into pairs who have not met: an equitable colouring of the "have met" graph, and by
    Hajnal-Szemeredi a graph of maximum degree D has one with any t >= D + 1 classes; after r rounds D = r, so
    with t = n/2 tables round r + 1 is sure while r <= n/2 - 1: n/2 rounds, rounded up for an odd field (up to 4
    players every round robin is reachable: n - 1). Not n - 1 in general: greedy Swiss rounds can leave the last
    ones impossible (seen: 5 players over 5 rounds, 6 over 4, 8 over 6 paired rematches in some seeds).
    Pods: a seated player meets at most (smallest table - 1) new people a round, so past (n - 1) // that many
    rounds everyone is seated with someone again (the seating avoids repeats before that as far as it can;
    small fields cannot avoid them: 8 at tables of 4 repeat in round 2 whatever the seating).
    """
    if settings.format == "swiss":
        field = players + players % 2  # the bye is one more "player" nobody meets twice
        return max(1, field - 1 if field <= 4 else field // 2)
    if settings.format == "pods":
        low, high = settings.sizes
        sizes, _ = pd.table_sizes(players, settings.table_size, min_size=low, max_size=high)
        return max(1, (players - 1) // max(1, min(sizes, default=2) - 1))
    return None


def check_rounds(settings: Settings, players: int) -> None:
    """Refuse rounds the field cannot play without rematches (the organiser lowers them or adds players)."""
    most = most_rounds(settings, players)
    if most is not None and settings.rounds > most:
        raise TournamentError("tour.too_many_rounds", rounds=settings.rounds, players=players, most=most)


@dataclass(frozen=True)
class Settings:
    game: str
    format: str
    table_size: int = 2
    min_size: int = 0  # pods: the smallest table allowed when the count does not divide (0: table_size)
    max_size: int = 0  # pods: the largest (0: table_size)
    rounds: int = 0  # swiss, pods, score (0: the recommended number); fixed by the format otherwise
    max_players: int = 0  # 0: no cap
    min_players: int = 2
    checkin: bool = False  # only checked-in entrants are paired at the start
    late_join_rounds: int = 0  # late joins are taken until this round is paired (0: none)
    late_points: float = 0.0  # what a late entrant is given for each round they missed (the organiser's choice)
    bye_points: float | None = None  # None: a win (1) in two-player formats, 1/2 in pods (see bye_value)
    tiebreaks: tuple[str, ...] = ()  # the organiser's order, names from standings.TIEBREAKS (empty: the format's)
    round_hours: int = 72  # each round's window; unfinished games are adjudicated at its end
    grand_final_reset: bool = True
    draw_rule: str = "rematch"  # elimination: a drawn game is replayed, seats swapped, or goes to the higher seed
    half_bye_points: float = 0.5  # a requested bye (asked before its round is paired): FIDE's half-point bye
    max_half_byes: int = 1  # requested byes each entrant may take in the event
    top_cut: int = 0  # a playoff of the best 4, 8 or 16 after the Swiss or pods (league/stages.py); 0: none
    cut_format: str = "single"  # the playoff: single or double elimination
    third_place: bool | None = None  # a single-elimination playoff's third-place match (None: on for a playoff)
    groups: int = 0  # round robin: this many pools, then a playoff of the top `advance` of each (0: one pool)
    advance: int = 2  # groups: how many of each pool go through
    rated: bool = True
    options: dict[str, Any] = field(default_factory=dict)  # the games' own options and play settings

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise TournamentError("tour.bad_format", value=str(self.format)[:30], allowed=", ".join(FORMATS))
        if self.format in TWO_PLAYER and self.table_size != 2:
            raise TournamentError("tour.two_player_format", format=self.format)
        if self.format == "score" and self.table_size != 1:
            raise TournamentError("tour.score_is_solo")
        if self.format == "pods" and not 2 <= self.table_size <= 10:
            raise TournamentError("tour.bad_table_size", size=self.table_size)
        low, high = self.sizes
        if (self.min_size or self.max_size) and not (self.format == "pods" and 2 <= low <= self.table_size <= high
                                                     <= 10):
            raise TournamentError("tour.bad_pod_sizes", low=low, size=self.table_size, high=high)
        if self.bye_points is not None and not 0 <= self.bye_points <= 1:
            raise TournamentError("tour.bad_bye_points", value=self.bye_points)
        if not 0 <= self.half_bye_points <= 1:
            raise TournamentError("tour.bad_bye_points", value=self.half_bye_points)
        if self.max_half_byes < 0:
            raise TournamentError("tour.bad_max_half_byes", value=self.max_half_byes)
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))  # stored as a JSON list
        if set(self.tiebreaks) - st.TIEBREAKS or len(set(self.tiebreaks)) < len(self.tiebreaks):
            raise TournamentError("tour.bad_tiebreaks", value=", ".join(self.tiebreaks)[:60],
                                  allowed=", ".join(sorted(st.TIEBREAKS)))
        if self.rounds < 0:
            raise TournamentError("tour.bad_rounds", value=self.rounds)
        if self.draw_rule not in DRAW_RULES:
            raise TournamentError("tour.bad_draw_rule", value=str(self.draw_rule)[:30], allowed=", ".join(DRAW_RULES))
        wrong = stg.problem(self)
        if wrong is not None:
            raise TournamentError(wrong[0], **wrong[1])

    @property
    def sizes(self) -> tuple[int, int]:
        """Pods: the smallest and largest table. Unset, the smallest is one less than the size asked, so a field
        that can be split into such tables is seated whole (9 at 5: 5 + 4, not 5 and four byes)."""
        low = self.min_size or (max(2, self.table_size - 1) if self.format == "pods" else self.table_size)
        return low, self.max_size or self.table_size

    @property
    def bye_value(self) -> float:
        """What a bye is worth: the organiser's `bye_points`, else a win in two-player formats and, in pods, the
        average table points (1/2): a table win would reward sitting out over playing."""
        if self.bye_points is not None:
            return self.bye_points
        return 0.5 if self.format == "pods" else 1.0

    @property
    def tiebreak_order(self) -> tuple[str, ...]:
        """The organiser's `tiebreaks`, else the format's usual order."""
        return self.tiebreaks or st.DEFAULTS.get(self.format, st.SWISS)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "format": self.format, "table_size": self.table_size, "min_size": self.min_size,
                "max_size": self.max_size, "rounds": self.rounds, "max_players": self.max_players,
                "min_players": self.min_players, "checkin": self.checkin, "late_join_rounds": self.late_join_rounds,
                "late_points": self.late_points,
                "bye_points": self.bye_points, "tiebreaks": list(self.tiebreaks), "round_hours": self.round_hours,
                "grand_final_reset": self.grand_final_reset, "draw_rule": self.draw_rule,
                "half_bye_points": self.half_bye_points, "max_half_byes": self.max_half_byes,
                "top_cut": self.top_cut, "cut_format": self.cut_format, "third_place": self.third_place,
                "groups": self.groups, "advance": self.advance, "rated": self.rated, "options": dict(self.options)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Settings:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})
