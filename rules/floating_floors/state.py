"""Floating Floors' state: immutable values, their JSON form and its validation.

The state keeps every piece where it is: the terrain cards (and their side), the floorboards placed (card, side,
quarter turns), the deck (top first; its order after the top is secret), each Jutsu on the map with its exact
position and level ("ground" on a terrain card, under a board if one covers it; "board" on top of a board), the
pool, each player's ninja, hand and Bansen, and what each alcove holds. Randomness (dice, shaky hands) is drawn
from the seed and ``counter`` (rules.rng), so the state alone replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from rules import validate as v
from rules.floating_floors.components import BANSEN_BY_ID, FLOORBOARD_BY_ID, JUTSU_KINDS, NINJA_BY_ID, TERRAIN_BY_ID
from rules.floating_floors.layout import Layout, Space, layout_for
from rules.floating_floors.options import Options as Options
from rules.floating_floors.options import options_of

PHASES = ("chakra", "hide", "acquire", "navigate", "reset", "over")
LEVELS = ("ground", "board")
CHALLENGES = tuple(range(1, 9))
MAX_STEPS = v.MAX_COUNTER  # turns, ids and counters: play never bounds them (timeouts alone go on)
T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """`dataclasses.replace` for this package's frozen dataclasses (no ``__post_init__``, no ``init=False``
    fields, no slots): a copy of the instance's fields with ``changes``. ``replace`` re-runs ``__init__`` field
    by field, the largest single cost of a preview (issue 25)."""
    fields = obj.__dataclass_fields__  # type: ignore[attr-defined]
    unknown = [k for k in changes if k not in fields]
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {unknown[0]!r}")
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


@dataclass(frozen=True)
class Piece:
    """A Jutsu on the map."""

    id: int
    kind: str
    space: Space
    level: str
    x: float
    y: float

    @property
    def point(self) -> tuple[float, float]:
        return (self.x, self.y)


@dataclass(frozen=True)
class Board:
    """A floorboard over a card: ``back`` side up, turned ``turns`` quarter turns clockwise."""

    card: int
    board: str
    back: bool = False
    turns: int = 0


@dataclass(frozen=True)
class Player:
    seat: int
    ninja: str
    bansen: tuple[str, ...]  # the Bansen this player must recover
    claimed: tuple[str, ...] = ()
    used: tuple[str, ...] = ()  # Challenge 4: spent to turn a board (they still count)
    hand: tuple[str, ...] = ()
    home: int = 0  # the alcove of its Chakra
    alcove: int | None = None  # standing on its Chakra
    space: Space | None = None
    x: float = 0.0
    y: float = 0.0
    on: int | None = None  # the Jutsu it stands on
    steps: int = 0  # this turn
    fresh: tuple[str, ...] = ()  # claimed this turn (Challenge 4 may not spend them yet)
    skip: bool = False  # Challenge 5: misses its next turn
    out: bool = False  # resigned

    @property
    def point(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def done(self) -> int:
        return len(self.claimed) + len(self.used)


@dataclass(frozen=True)
class Reset:
    """A collapsed card waiting for the next player to set it up again."""

    card: int
    by: int
    board: str | None  # the fallen board still to lay (None once laid over the card: it is counted there)
    kinds: tuple[str, ...]  # the fallen Jutsu still to place
    ninjas: tuple[int, ...]  # the seats whose ninjas fell and still wait for a space
    manual: bool = False  # the resetting player has placed something by hand


@dataclass(frozen=True)
class State:
    players: int
    seed: str
    options: Options
    cards: tuple[tuple[str, str], ...]  # (terrain id, side) per card
    boards: tuple[Board, ...]  # sorted by card
    deck: tuple[str, ...]  # floorboards, top first
    pieces: tuple[Piece, ...]  # sorted by id
    pool: tuple[int, ...]  # per JUTSU_KINDS
    seats: tuple[Player, ...]
    alcoves: tuple[str | None, ...]  # the Bansen hidden in each alcove
    phase: str = "acquire"
    current: int = 0
    turn: int = 1
    roll: tuple[str, ...] = ()
    to_take: tuple[str, ...] = ()
    counter: int = 1
    next_piece: int = 1
    reset: Reset | None = None
    hide: tuple[tuple[int, str], ...] = ()  # Challenge 1: (seat, Bansen) still to hide, in order
    last: dict[str, Any] | None = None
    winner: int | None = None
    reason: str | None = None
    removed: tuple[int, ...] = field(default=(0, 0, 0, 0, 0, 0))  # per kind, out of the game (Challenge 7)

    @property
    def layout(self) -> Layout:
        return layout_for(self.players)

    def board_on(self, card: int) -> Board | None:
        return next((b for b in self.boards if b.card == card), None)

    def piece(self, pid: int) -> Piece | None:
        return next((p for p in self.pieces if p.id == pid), None)


# --- JSON ---------------------------------------------------------------------------------------------------


def to_json(s: State) -> dict[str, Any]:
    return {
        "version": 1, "players": s.players, "seed": s.seed, "options": s.options.to_dict(),
        "cards": [list(c) for c in s.cards], "boards": [[b.card, b.board, b.back, b.turns] for b in s.boards],
        "deck": list(s.deck), "pieces": [[p.id, p.kind, list(p.space), p.level, p.x, p.y] for p in s.pieces],
        "pool": list(s.pool), "removed": list(s.removed), "seats": [_player_json(p) for p in s.seats],
        "alcoves": list(s.alcoves), "phase": s.phase, "current": s.current, "turn": s.turn, "roll": list(s.roll),
        "to_take": list(s.to_take), "counter": s.counter, "next_piece": s.next_piece,
        "reset": None if s.reset is None else {"card": s.reset.card, "by": s.reset.by, "board": s.reset.board,
                                               "kinds": list(s.reset.kinds), "ninjas": list(s.reset.ninjas),
                                               "manual": s.reset.manual},
        "hide": [[seat, b] for seat, b in s.hide], "last": s.last, "winner": s.winner, "reason": s.reason,
    }


def _player_json(p: Player) -> dict[str, Any]:
    return {"seat": p.seat, "ninja": p.ninja, "bansen": list(p.bansen), "claimed": list(p.claimed),
            "used": list(p.used), "hand": list(p.hand), "home": p.home, "alcove": p.alcove,
            "space": None if p.space is None else list(p.space), "x": p.x, "y": p.y, "on": p.on, "steps": p.steps,
            "fresh": list(p.fresh), "skip": p.skip, "out": p.out}


STATE_KEYS = ("version", "players", "seed", "options", "cards", "boards", "deck", "pieces", "pool", "removed",
              "seats", "alcoves", "phase", "current", "turn", "roll", "to_take", "counter", "next_piece", "reset",
              "hide", "last", "winner", "reason")
PLAYER_KEYS = ("seat", "ninja", "bansen", "claimed", "used", "hand", "home", "alcove", "space", "x", "y", "on",
               "steps", "fresh", "skip", "out")
BANSEN_IDS = tuple(sorted(BANSEN_BY_ID))


def from_json(d: dict[str, Any]) -> State:
    """Read a state written by `to_json`; raises `StateError` naming the damaged field."""
    with v.guard("floating_floors"):
        return _from_json(d)


def _from_json(d: dict[str, Any]) -> State:
    v.as_dict(d, "", STATE_KEYS)
    v.require(d["version"] == 1, "version", f"unknown version {v.show(d['version'])}")
    n = v.require_int(d, "players", 2, 4)
    lay = layout_for(n)
    try:
        # A game saved before the tension option keeps the exact previews it was started with.
        options = options_of(n, {"tension": "exact", **v.require_dict(d, "options", extra_ok=True)})
    except Exception as e:  # an OptionsError: the stored options are damaged
        v.fail("options", str(e))
    cards = [_card(raw, v.at("cards", i)) for i, raw in enumerate(v.require_list(d, "cards", length=lay.cards))]
    boards = [_board(raw, v.at("boards", i), lay) for i, raw in enumerate(v.require_list(d, "boards",
                                                                                          max_len=lay.cards))]
    v.ascending([b.card for b in boards], "boards")
    v.distinct([b.card for b in boards], "boards")
    pieces = [_piece(raw, v.at("pieces", i), lay) for i, raw in enumerate(v.require_list(d, "pieces", max_len=60))]
    v.ascending([p.id for p in pieces], "pieces")
    v.distinct([p.id for p in pieces], "pieces")
    seats = [_player(raw, v.at("seats", i), n, lay) for i, raw in enumerate(v.require_list(d, "seats", length=n))]
    v.require([p.seat for p in seats] == list(range(n)), "seats", "seats out of order")
    reset = v.as_optional(d["reset"], "reset", _reset, n, lay)
    s = State(
        players=n, seed=v.require_str(d, "seed"), options=options, cards=tuple(cards), boards=tuple(boards),
        deck=tuple(v.as_strs(d["deck"], "deck", choices=tuple(FLOORBOARD_BY_ID))),
        pieces=tuple(pieces), pool=tuple(v.as_ints(d["pool"], "pool", 0, 10, len(JUTSU_KINDS))),
        removed=tuple(v.as_ints(d["removed"], "removed", 0, 10, len(JUTSU_KINDS))), seats=tuple(seats),
        alcoves=tuple(v.as_optional(a, v.at("alcoves", i), v.as_str, 20, BANSEN_IDS)
                      for i, a in enumerate(v.require_list(d, "alcoves", length=len(lay.alcoves)))),
        phase=v.require_str(d, "phase", choices=PHASES), current=v.require_int(d, "current", 0, n - 1),
        turn=v.require_int(d, "turn", 0, MAX_STEPS), roll=tuple(v.as_strs(d["roll"], "roll", choices=JUTSU_KINDS)),
        to_take=tuple(v.as_strs(d["to_take"], "to_take", choices=JUTSU_KINDS)),
        counter=v.require_int(d, "counter", 0, MAX_STEPS), next_piece=v.require_int(d, "next_piece", 1, MAX_STEPS),
        reset=reset, hide=tuple(_hide(raw, v.at("hide", i), n) for i, raw in enumerate(v.require_list(d, "hide"))),
        last=v.as_optional(d["last"], "last", _last),
        winner=v.as_optional(d["winner"], "winner", v.as_int, 0, n - 1),
        reason=v.as_optional(d["reason"], "reason", v.as_str, 80),
    )
    _check_totals(s)
    return s


def _card(raw: Any, where: v.Where) -> tuple[str, str]:
    terrain, side = v.as_strs(raw, where, length=2)
    v.require(terrain in TERRAIN_BY_ID and side in ("terrain", "lake"), where, f"no such card {v.show(raw)}")
    return (terrain, side)


def _board(raw: Any, where: v.Where, lay: Layout) -> Board:
    v.as_list(raw, where, 4)
    card = v.as_int(raw[0], v.at(where, 0), 0, lay.cards - 1)
    v.require(raw[1] in FLOORBOARD_BY_ID, where, f"no such floorboard {v.show(raw[1])}")
    return Board(card, raw[1], v.as_bool(raw[2], v.at(where, 2)), v.as_int(raw[3], v.at(where, 3), 0, 3))


def _space(raw: Any, where: v.Where, lay: Layout) -> Space:
    c, r = v.as_ints(raw, where, 0, max(lay.cols, lay.rows) - 1, 2)
    v.require(lay.on_map((c, r)), where, "off the map")
    return (c, r)


def _coord(raw: Any, where: v.Where) -> float:
    v.require(isinstance(raw, int | float) and not isinstance(raw, bool) and -100 <= raw <= 100, where,
              f"not a coordinate: {v.show(raw)}")
    return float(raw)


def _piece(raw: Any, where: v.Where, lay: Layout) -> Piece:
    v.as_list(raw, where, 6)
    space = _space(raw[2], v.at(where, 2), lay)
    x, y = _coord(raw[4], v.at(where, 4)), _coord(raw[5], v.at(where, 5))
    v.require(space[0] <= x <= space[0] + 1 and space[1] <= y <= space[1] + 1, where, "not within its space")
    return Piece(v.as_int(raw[0], v.at(where, 0), 1, MAX_STEPS), v.as_str(raw[1], v.at(where, 1), 2, JUTSU_KINDS),
                 space, v.as_str(raw[3], v.at(where, 3), 8, LEVELS), x, y)


def _player(raw: Any, where: v.Where, n: int, lay: Layout) -> Player:
    v.as_dict(raw, where, PLAYER_KEYS)
    ninja = v.require_str(raw, "ninja", where, choices=tuple(NINJA_BY_ID))
    mine = tuple(b for b in BANSEN_IDS if BANSEN_BY_ID[b].ninja == ninja)
    alcoves = len(lay.alcoves) - 1
    return Player(
        seat=v.require_int(raw, "seat", 0, n - 1, where), ninja=ninja,
        bansen=tuple(v.as_strs(raw["bansen"], v.at(where, "bansen"), choices=mine)),
        claimed=tuple(v.as_strs(raw["claimed"], v.at(where, "claimed"), choices=mine)),
        used=tuple(v.as_strs(raw["used"], v.at(where, "used"), choices=mine)),
        hand=tuple(v.as_strs(raw["hand"], v.at(where, "hand"), choices=JUTSU_KINDS)),
        home=v.require_int(raw, "home", 0, alcoves, where),
        alcove=v.as_optional(raw["alcove"], v.at(where, "alcove"), v.as_int, 0, alcoves),
        space=v.as_optional(raw["space"], v.at(where, "space"), _space, lay),
        x=_coord(raw["x"], v.at(where, "x")), y=_coord(raw["y"], v.at(where, "y")),
        on=v.as_optional(raw["on"], v.at(where, "on"), v.as_int, 1, MAX_STEPS),
        steps=v.require_int(raw, "steps", 0, MAX_STEPS, where),
        fresh=tuple(v.as_strs(raw["fresh"], v.at(where, "fresh"), choices=mine)),
        skip=v.require_bool(raw, "skip", where), out=v.require_bool(raw, "out", where),
    )


def _reset(raw: Any, where: v.Where, n: int, lay: Layout) -> Reset:
    v.as_dict(raw, where, ("card", "by", "board", "kinds", "ninjas", "manual"))
    return Reset(v.require_int(raw, "card", 0, lay.cards - 1, where), v.require_int(raw, "by", 0, n - 1, where),
                 v.as_optional(raw["board"], v.at(where, "board"), v.as_str, 8, tuple(FLOORBOARD_BY_ID)),
                 tuple(v.as_strs(raw["kinds"], v.at(where, "kinds"), choices=JUTSU_KINDS)),
                 tuple(v.as_ints(raw["ninjas"], v.at(where, "ninjas"), 0, n - 1)),
                 v.require_bool(raw, "manual", where))


def _last(raw: Any, where: v.Where) -> dict[str, Any]:
    v.as_dict(raw, where, ("kind", "card", "margin", "stable", "chance"))
    return dict(raw)


def _hide(raw: Any, where: v.Where, n: int) -> tuple[int, str]:
    v.as_list(raw, where, 2)
    return (v.as_int(raw[0], v.at(where, 0), 0, n - 1), v.as_str(raw[1], v.at(where, 1), 20, BANSEN_IDS))


def jutsu_total(s: State) -> list[int]:
    """Per kind: pool + on the map + in hands + waiting in a reset + out of the game. Always 10 each."""
    total = [a + b for a, b in zip(s.pool, s.removed, strict=True)]
    kinds = [p.kind for p in s.pieces] + [k for p in s.seats for k in p.hand]
    kinds += list(s.reset.kinds) if s.reset is not None else []
    for k in kinds:
        total[JUTSU_KINDS.index(k)] += 1
    return total


def _check_totals(s: State) -> None:
    v.require(all(t == 10 for t in jutsu_total(s)), "pool", "the Jutsu do not add up to 10 of each kind")
    boards = [b.board for b in s.boards] + list(s.deck) + ([s.reset.board] if s.reset and s.reset.board else [])
    v.require(sorted(boards) == sorted(FLOORBOARD_BY_ID), "deck", "the floorboards do not add up to the box")
