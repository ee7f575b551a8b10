"""The board being worked on: `Work` (a mutable copy of a state for one action), the geometry of the position,
the balance checks, what ``tension=bands`` hides, and a collapse gathering a card for its reset.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from rules import rng
from rules.base import Event
from rules.floating_floors import statics
from rules.floating_floors.components import FLOORBOARD_BY_ID, KIND_SHAPE, NINJA_BY_ID, PHYSICS, TERRAIN_BY_ID
from rules.floating_floors.layout import Layout, Space, card_table
from rules.floating_floors.options import Options
from rules.floating_floors.state import Board, Piece, Player, Reset, State, evolve

# --- the working copy ----------------------------------------------------------------------------------------


class Pieces(dict[int, Piece]):
    """A working copy's Jutsu by id that remembers the cards whose Jutsu changed (``changed``): every other card's
    supports and loads are still the state's own, computed once per state (`_by_card`) and shared by all the
    previews of that state. Change it one piece at a time (``w.pieces[id] = piece``, ``del w.pieces[id]``)."""

    def __init__(self, pieces: tuple[Piece, ...], card_at: dict[Space, int]) -> None:
        super().__init__(_indexed(pieces, card_at)[2])  # a C-level copy of the state's own id → piece dict
        self.card_at = card_at
        self.changed: set[int] = set()

    def __setitem__(self, pid: int, piece: Piece) -> None:
        old = self.get(pid)
        if old is not None:
            self.changed.add(self.card_at[old.space])
        self.changed.add(self.card_at[piece.space])
        super().__setitem__(pid, piece)

    def __delitem__(self, pid: int) -> None:
        self.changed.add(self.card_at[self[pid].space])
        super().__delitem__(pid)

    def _untracked(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("Work.pieces changes one piece at a time (item assignment or del)")

    pop = popitem = clear = update = setdefault = __ior__ = _untracked  # type: ignore[assignment]


class Work:
    """A mutable copy of a state for one action; `freeze` makes the next state."""

    def __init__(self, s: State, *, draws: bool = True) -> None:
        self.s = s
        self.draws = draws  # False in a preview: nothing is drawn from the seed (no dice, no shaky hands)
        self.lay: Layout = s.layout
        self.card_at = card_table(self.lay.card_cols, self.lay.card_rows)
        self.boards: dict[int, Board] = {b.card: b for b in s.boards}
        self.pieces = Pieces(s.pieces, self.card_at)
        self.seats: list[Player] = list(s.seats)
        self.pool = list(s.pool)
        self.alcoves = list(s.alcoves)
        self.deck = list(s.deck)
        self.counter = s.counter
        self.next_piece = s.next_piece
        self.events: list[Event] = []
        self.changes: dict[str, Any] = {}
        self.collapsed: Reset | None = None

    def freeze(self) -> State:
        pieces = tuple(self.pieces[i] for i in sorted(self.pieces)) if self.pieces.changed else self.s.pieces
        return evolve(self.s, boards=tuple(self.boards[c] for c in sorted(self.boards)),
                      pieces=pieces, seats=tuple(self.seats),
                      pool=tuple(self.pool), alcoves=tuple(self.alcoves), deck=tuple(self.deck),
                      counter=self.counter, next_piece=self.next_piece, **self.changes)

    def get(self, key: str) -> Any:
        return self.changes.get(key, getattr(self.s, key))

    def set_player(self, seat: int, **changes: Any) -> Player:
        self.seats[seat] = evolve(self.seats[seat], **changes)
        return self.seats[seat]

    def draw(self) -> float:
        if not self.draws:
            return 1.0  # steady: never below a fall chance
        value = rng.stream(self.s.seed, self.counter).random()
        self.counter += 1
        return value


# --- geometry of the position --------------------------------------------------------------------------------


def colour_at(board: Board, lay: Layout, space: Space) -> str:
    """'light' or 'shadow': the board's space as it lies now."""
    c, r = lay.local(space)
    return "light" if FLOORBOARD_BY_ID[board.board].pattern(board.back, board.turns)[r][c] == "L" else "shadow"


def is_land(s: State, lay: Layout, space: Space) -> bool:
    terrain, side = s.cards[lay.card_of(space)]
    return lay.local(space) in TERRAIN_BY_ID[terrain].land(side)


def colour_of(seat: Player) -> str:
    return NINJA_BY_ID[seat.ninja].colour


def supports(w: Work, card: int) -> list[tuple[str, statics.Point]]:
    at = w.card_at
    return [(KIND_SHAPE[p.kind], p.point) for p in w.pieces.values() if p.level == "ground" and at[p.space] == card]


def loads(w: Work, card: int) -> list[tuple[statics.Point, float]]:
    at = w.card_at
    on_top = [(p.point, PHYSICS.jutsu_weight) for p in w.pieces.values() if p.level == "board" and at[p.space] == card]
    ninjas = [(q.point, PHYSICS.ninja_weight) for q in w.seats if q.space is not None and at[q.space] == card]
    return on_top + ninjas


def balance_of(w: Work, card: int) -> statics.Balance:
    at = w.card_at
    if card in w.pieces.changed:
        under = tuple(supports(w, card))
        on_top = tuple([(p.point, PHYSICS.jutsu_weight) for p in w.pieces.values()
                        if p.level == "board" and at[p.space] == card])
    else:  # nothing on this card changed: the state's own lists
        under, on_top = _indexed(w.s.pieces, at)[3].get(card, ((), ()))
    ninjas = tuple([(q.point, PHYSICS.ninja_weight) for q in w.seats if q.space is not None and at[q.space] == card])
    return statics.balance(w.lay.centre(card), under, on_top + ninjas)


Lists = tuple[tuple[tuple[str, statics.Point], ...], tuple[tuple[statics.Point, float], ...]]
Index = tuple[tuple[Piece, ...], dict[Space, int], dict[int, Piece], dict[int, Lists]]
_INDEX: OrderedDict[int, Index] = OrderedDict()
_INDEX_SIZE = 64  # states: a turn's and a few concurrent games'
_INDEX_LOCK = threading.Lock()


def _indexed(pieces: tuple[Piece, ...], at: dict[Space, int]) -> Index:
    """A state's pieces by id, and per card their supports and Jutsu loads (as `supports` and `loads` list them),
    kept for the last few states by the identity of their (immutable) pieces tuple, which the entry holds alive:
    every preview of a state starts from the same pieces. Never mutate what it returns."""
    entry = _INDEX.get(id(pieces))
    if entry is not None and entry[0] is pieces and entry[1] is at:
        return entry
    ground: dict[int, list[tuple[str, statics.Point]]] = {}
    board: dict[int, list[tuple[statics.Point, float]]] = {}
    for p in pieces:
        if p.level == "ground":
            ground.setdefault(at[p.space], []).append((KIND_SHAPE[p.kind], p.point))
        elif p.level == "board":
            board.setdefault(at[p.space], []).append((p.point, PHYSICS.jutsu_weight))
    lists = {card: (tuple(ground.get(card, ())), tuple(board.get(card, ()))) for card in sorted({*ground, *board})}
    entry = (pieces, at, {p.id: p for p in pieces}, lists)
    with _INDEX_LOCK:  # build, then publish: a reader sees a whole entry or none
        _INDEX[id(pieces)] = entry
        while len(_INDEX) > _INDEX_SIZE:
            _INDEX.popitem(last=False)
    return entry


def ninja_at(w: Work, space: Space) -> Player | None:
    return next((q for q in w.seats if q.space == space), None)


# --- checks and collapses ------------------------------------------------------------------------------------


def settle(w: Work, card: int, seat: int, cause: str, shaky: bool) -> bool:
    """Check the board on ``card`` after a change; a fall gathers the card for a reset. True if it stands."""
    bal = balance_of(w, card)
    fell, chance = not bal.stable, 0.0
    if not fell and shaky:
        chance = statics.collapse_chance(bal.margin) if w.s.options.tension == "exact" else \
            statics.collapse_chance(bal.margin, shaky_below=statics.BAND_SHAKY_BELOW)
        if chance > 0:
            fell = w.draw() < chance
    margin = None if bal.margin == float("-inf") else round(bal.margin, 4)
    w.changes["last"] = {"kind": cause, "card": card, "margin": margin, "stable": not fell,
                         "chance": round(chance, 4)}
    w.events.append(Event("check", seat, {"card": card, "cause": cause, "margin": margin, "stable": not fell,
                                          "chance": round(chance, 4), "shaky": not bal.stable or chance > 0}))
    if fell:
        collapse(w, card, seat)
    return not fell


def shaky_below(options: Options) -> float:
    """Where shaky checks begin: the bands' threshold with ``tension=bands``, else the shaky-hands one."""
    return statics.BAND_SHAKY_BELOW if options.tension == "bands" else PHYSICS.shaky_below


def band_of(options: Options, margin: float | None) -> str:
    return statics.band(margin, shaky_below=shaky_below(options))


def masked(options: Options, data: dict[str, Any]) -> dict[str, Any]:
    """``tension=bands``: a margin (and the fall chance, which gives the margin back) becomes its band."""
    if options.tension != "bands" or "margin" not in data:
        return data
    out = {k: v for k, v in data.items() if k not in ("margin", "chance")}
    margin = data["margin"]
    out["band"] = band_of(options, margin) if margin is not None or data.get("stable") is False else None
    return out


def masked_events(options: Options, events: list[Event]) -> list[Event]:
    return [Event(e.kind, e.seat, masked(options, e.data)) if "margin" in e.data else e for e in events]


def masked_view(options: Options, view: dict[str, Any]) -> dict[str, Any]:
    """The view with each board's margin and centre of mass (with the support polygon, the margin again) and
    the last check's margin and chance replaced by bands when ``tension=bands``: players judge by eye."""
    if options.tension != "bands":
        return view
    for b in view["boards"]:
        b["band"] = band_of(options, b.pop("margin"))
        b["centre"] = None
    if view.get("last"):
        view["last"] = masked(options, view["last"])
    return view


def gather(w: Work, card: int) -> tuple[str | None, tuple[str, ...], tuple[int, ...]]:
    """Take everything off ``card``: (its board, the Jutsu on and under it, the seats whose ninjas stood on it)."""
    board = w.boards.pop(card, None)
    kinds = tuple(sorted(p.kind for p in w.pieces.values() if w.lay.card_of(p.space) == card))
    for pid in [p.id for p in w.pieces.values() if w.lay.card_of(p.space) == card]:
        del w.pieces[pid]
    fallen = tuple(q.seat for q in w.seats if q.space is not None and w.lay.card_of(q.space) == card)
    for q in fallen:
        w.set_player(q, space=None, on=None, x=0.0, y=0.0)
    return (board.board if board else None, kinds, fallen)


def collapse(w: Work, card: int, seat: int) -> None:
    board, kinds, fallen = gather(w, card)
    w.collapsed = Reset(card, next_seat(w.s, seat, w.seats), board, kinds, fallen)
    w.events.append(Event("collapse", seat, {"card": card, "board": board,
                                             "jutsu": list(kinds), "ninjas": list(fallen)}))



def next_seat(s: State, seat: int, seats: list[Player] | tuple[Player, ...]) -> int:
    for step in range(1, s.players + 1):
        nxt = (seat + step) % s.players
        if not seats[nxt].out:
            return nxt
    return seat
