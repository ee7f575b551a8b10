"""The immutable game state and its JSON form."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rules import validate as v
from rules.flying_blades.board import CHARS, EMPTY, NINJAS, WARD, geometry, relations
from rules.flying_blades.cards import CARD_IDS, DECK_SIZE, TABLE

PHASES = ("draft", "play", "over")
CARD_OPTIONS = ("hidden", "open", "none")
MAX_TURN_MINUTES = 10080
ALL_PASSED = "fb.outcome.all_passed"
LAST_STANDING = "fb.outcome.last_standing"
REASONS = (ALL_PASSED, LAST_STANDING)
COUNTS = {c.id: c.count for c in TABLE.cards}


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
    passed: tuple[bool, ...]  # seats that passed since the last move (a timeout leaves the flags as they are)
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


STATE_KEYS = ("version", "players", "seed", "options", "board", "phase", "current", "hands", "drafted", "captured",
              "lost", "passed", "resigned", "turn", "last", "reason")
LAST_KEYS = ("seat", "action", "from", "to", "removed")


def from_json(d: dict[str, Any]) -> State:
    """Read a state written by ``to_json``; raises `StateError` naming the field when it is damaged."""
    with v.guard("flying_blades"):
        return _from_json(d)


def _from_json(d: dict[str, Any]) -> State:
    v.as_dict(d, "", STATE_KEYS)
    v.require(d["version"] == 1 and type(d["version"]) is int, "version", f"unknown version {v.show(d['version'])}")
    n = v.require_int(d, "players", 2, 5)
    geo, colours = geometry(n), relations(n).colours
    opts = v.require_dict(d, "options", keys=("cards", "turn_minutes"))
    s = State(
        players=n, seed=v.require_str(d, "seed"),
        cards=v.require_str(opts, "cards", "options", choices=CARD_OPTIONS),
        turn_minutes=v.require_int(opts, "turn_minutes", 0, MAX_TURN_MINUTES, "options"),
        board=_board(d["board"], geo), phase=v.require_str(d, "phase", choices=PHASES),
        current=v.require_int(d, "current", 0, n - 1),
        hands=tuple(_hand(h, ("hands", i), n) for i, h in enumerate(v.require_list(d, "hands", length=n))),
        drafted=tuple(v.as_bools(d["drafted"], "drafted", n)),
        captured=tuple(v.as_ints(d["captured"], "captured", 0, NINJAS * colours, n)),
        lost=tuple(v.as_ints(d["lost"], "lost", 0, NINJAS, colours)),
        passed=tuple(v.as_bools(d["passed"], "passed", n)), resigned=tuple(v.as_bools(d["resigned"], "resigned", n)),
        turn=v.require_int(d, "turn", 0, v.MAX_COUNTER), last=v.as_optional(d["last"], "last", _last, geo),
        reason=v.require_str(d, "reason", choices=("", *REASONS)),
    )
    check(s)
    _check_stored(s)
    return s


def _board(raw: Any, geo: Any) -> str:
    """The stored rows (top row first) as the board string (row 1 first); cells are checked by `check`."""
    rows = v.as_list(raw, "board", length=geo.height)
    for i, row in enumerate(rows):
        v.as_str(row, ("board", i), geo.width)
        if len(row) != geo.width:
            v.fail(("board", i), f"a row has {geo.width} cells, not {len(row)}")
    return "".join(reversed(rows))


def _hand(raw: Any, where: v.Where, players: int) -> tuple[str, ...]:
    hand = v.as_strs(raw, where, choices=CARD_IDS, max_items=DECK_SIZE // players)
    v.require(hand == sorted(hand), where, "a hand is stored sorted")
    return tuple(hand)


def _last(raw: Any, where: v.Where, geo: Any) -> Last:
    v.as_dict(raw, where, LAST_KEYS)
    frm, to = (v.as_optional(raw[k], v.at(where, k), _cell, geo) for k in ("from", "to"))
    cells = v.require_list(raw, "removed", where, max_len=geo.size)
    removed = [_cell(c, v.at(where, "removed", i), geo) for i, c in enumerate(cells)]
    v.ascending(removed, v.at(where, "removed"))
    seat = v.require_int(raw, "seat", 0, geo.players - 1, where)
    return Last(seat, v.require_str(raw, "action", where), frm, to, tuple(removed))


def _cell(raw: Any, where: v.Where, geo: Any) -> int:
    cell = v.as_int(raw, where, 0, geo.size - 1)
    if cell in geo.warded:
        v.fail(where, f"{geo.cell(cell)} is warded")
    return cell


def _check_stored(s: State) -> None:
    """What the rules keep true between actions, checked where a damaged value would stall or mislead the game."""
    rel = relations(s.players)
    for c in range(rel.colours):
        v.require(s.board.count(CHARS[c]) == NINJAS - s.lost[c], ("lost", c), "disagrees with the board")
    v.require(sum(s.captured) <= sum(s.lost), "captured", "more prey captured than ninjas lost")
    held = Counter(c for h in s.hands for c in h)
    for card, count in held.items():
        v.require(count <= COUNTS[card], "hands", f"more {card} cards than the deck holds")
    v.require(s.cards != "none" or not held, "hands", "cards in hand in a game without cards")
    over = s.phase == "over"
    v.require(over == (s.reason != ""), "reason", "a reason is given exactly when the game is over")
    if not over:
        v.require(len(s.active()) >= 2, "resigned", "fewer than two seats left in a running game")
    if s.phase == "draft":
        v.require(s.cards != "none", "phase", "a draft in a game without cards")
        v.require(any(not s.drafted[i] and not s.resigned[i] for i in range(s.players)), "drafted",
                  "a draft with nobody left to keep cards")
    if s.phase == "play":
        v.require(not s.resigned[s.current], "current", "the seat to move has resigned")


def check(s: State) -> None:
    """Structural sanity of a state read from outside (JSON or a position); raises `StateError`."""
    geo, rel = geometry(s.players), relations(s.players)
    v.require(s.phase in PHASES, "phase", f"unknown phase {v.show(s.phase)}")
    v.require(s.cards in CARD_OPTIONS, "options.cards", f"unknown cards option {v.show(s.cards)}")
    v.require(0 <= s.current < s.players, "current", f"seat {s.current} is not in 0..{s.players - 1}")
    allowed = set(CHARS[: rel.colours]) | {EMPTY}
    for i, ch in enumerate(s.board):
        if (ch == WARD) != (i in geo.warded) or (ch != WARD and ch not in allowed):
            v.fail("board", f"bad cell {geo.cell(i)}: {ch!r}")
    v.require(len(s.lost) == rel.colours, "lost", f"expected {rel.colours} counters")
    v.require(all(x >= 0 for x in s.lost + s.captured) and s.turn >= 0, "captured/lost/turn", "a negative counter")
