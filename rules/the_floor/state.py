"""The immutable state of The Floor and its JSON form."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

PHASES = ("draft", "play", "final", "over")
JUDGING = ("vote", "host", "trust")


@dataclass(frozen=True)
class Duel:
    """A duel between two sides; index 0 is the challenger, 1 the challenged side. Clocks are ms left."""

    challenger: int
    defender: int
    frm: int | None  # the challenger's cell (None in the Final)
    to: int | None  # the challenged cell
    category: str
    ready: tuple[bool, bool]
    started: bool
    clocks: tuple[int, int]
    active: int  # 0 or 1: whose clock runs
    decks: tuple[tuple[str, ...], tuple[str, ...]]
    drawn: tuple[int, int]  # letters revealed so far from each deck
    letter: str
    given: tuple[str, ...]  # canonical answers accepted in this duel
    log: tuple[tuple[int, str, str], ...]  # (0|1, text, mark): accepted | trusted | judged | rejected | pass
    judging: str = ""  # an answer awaiting judgment (its clock is stopped)
    votes: tuple[tuple[int, bool], ...] = ()  # (seat, accept) of the judges so far
    # (user id, accept): members without a seat who voted (the referee, spectators); absent from older saves
    guests: tuple[tuple[int, bool], ...] = ()


@dataclass(frozen=True)
class Pending:
    """A choice a side owes: take cells, keep a category for a field, keep one for the Final, pick a Final card."""

    kind: str  # take | keep | final | final_pick
    side: int
    options: tuple[str, ...] = ()
    cells: tuple[int, ...] = ()
    count: int = 0


@dataclass(frozen=True)
class State:
    players: int
    sides: int
    seed: str
    lang: str
    clock_s: int
    judging_mode: str
    seat_side: tuple[int, ...]
    board: tuple[int, ...]  # cell -> side, -1 empty
    cards: tuple[tuple[int, str], ...]  # (cell, category id): the category card lying on a field
    deck: tuple[str, ...]  # the draw pile, top first
    discard: tuple[str, ...]
    draws: int  # the next rng stream counter
    phase: str
    hands: tuple[tuple[str, ...], ...]  # draft hands per side
    picked: tuple[tuple[str, ...], ...]  # draft picks per side, in order
    chosen: tuple[str, ...]  # this pass's hidden pick per side ("" = not yet)
    final_cards: tuple[str, ...]
    round: int
    current: int  # the side to challenge
    challenged: tuple[bool, ...]  # per side, this round
    last_turn: tuple[int, ...]  # per side, the turn number of its last challenge (-1 never)
    turn_no: int
    duel: Duel | None
    pending: tuple[Pending, ...]
    final_cats: tuple[str, ...]  # per side, "" = none
    ladder: tuple[int, ...]  # Final: sides from the lowest ranked up
    ladder_pos: int  # index in ladder of the next side to be challenged
    holder: int  # Final: the side holding the ladder (the last duel's winner)
    final_out: tuple[int, ...]  # sides beaten in the Final, in order
    eliminated: tuple[int, ...]  # sides that lost their last cell, in order
    resigned: tuple[bool, ...]  # per side
    round_winners: tuple[int, ...]
    champion: int
    turn: int  # actions applied
    kids: bool = False  # only categories flagged for children (10–14)
    custom: str = ""  # the server's own content at the game's start, canonical JSON (see TheFloor.catalog)
    # A letter the duel's category cannot answer goes to the bottom of the deck (option letters=answerable). Off in
    # games made before it, so their records replay with the decks they were dealt.
    fair_letters: bool = False
    # Judges without a seat (issue 10, optional in older saves): the referee named in the lobby (a user id, 0 =
    # none) and whether the thread's spectators may vote when no seat outside the duel can judge.
    referee: int = 0
    spectators: bool = False
    doubt_cap: int = 0  # doubtful answers sent to the judges per letter and duellist (0 = no cap: older games)

    @property
    def options(self) -> dict[str, Any]:
        return {"sides": self.sides, "lang": self.lang, "clock": self.clock_s, "judging": self.judging_mode,
                "kids": self.kids}

    def seats_of(self, side: int) -> list[int]:
        return [i for i, x in enumerate(self.seat_side) if x == side]

    def alive(self) -> list[int]:
        return [x for x in range(self.sides) if x in self.board and not self.resigned[x]]


def _lists(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_lists(v) for v in x]
    if isinstance(x, dict):
        return {k: _lists(v) for k, v in x.items()}
    return x


def to_json(s: State) -> dict[str, Any]:
    return {"version": 1, **_lists(asdict(s))}
