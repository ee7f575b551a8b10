"""What the rules accept now in a Floating Floors position (`legal`, the facade's ``legal_actions``): each phase's
actions as the moves in moves.py would check them.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict

from rules.base import IllegalActionError
from rules.floating_floors import statics
from rules.floating_floors.components import JUTSU_KINDS, KIND_SHAPE
from rules.floating_floors.layout import NAMES, name
from rules.floating_floors.moves import can_stand, chakra_there, in_order, number, standing_spot, unfinished
from rules.floating_floors.quick import Position, position
from rules.floating_floors.state import Player, Reset, State
from rules.floating_floors.turns import MASTER_STEPS, side_alcoves
from rules.floating_floors.work import Work, is_land


def legal(s: State, seat: int) -> list[str]:
    phase = s.phase
    if phase == "navigate":  # the commonest list, after every step and placement: no working copy unless asked
        return sorted(set(_legal_navigate(s, seat)))
    w = Work(s)
    if phase == "chakra":
        free = [a for a in side_alcoves(w.lay, s.players, seat) if not chakra_there(w, a)]
        return sorted(f"chakra {name(w.lay.alcoves[a].space)}" for a in free)
    if phase == "hide":
        mine = sorted({b for q, b in s.hide if q == seat})
        homes = {q.home for q in s.seats}
        free = [a.space for a in w.lay.alcoves if s.alcoves[a.index] is None and a.index not in homes]
        return [f"hide {b} {name(sp)}" for b in mine for sp in free]
    if phase == "reset":
        ready = not s.reset.manual or unfinished(w, s.reset) is None
        return sorted({*(["reset"] if ready else []), *_legal_reset(w)})
    if phase == "acquire":
        return _legal_takes(w, seat)
    return sorted(set(_legal_navigate(s, seat)))  # no other phase: the rules refuse everything but its actions


def _legal_reset(w: Work) -> list[str]:
    """Placing the fallen pieces by hand: Jutsu at space centres, the board in 8 ways, ninjas on their colour."""
    reset: Reset = w.s.reset
    out = []
    spaces = w.lay.spaces(reset.card)
    board = w.boards.get(reset.card)
    occupied = {q.space for q in w.seats if q.space is not None}
    for kind in sorted(set(reset.kinds)):
        for sp in spaces:
            if sp in occupied or (board is None and not is_land(w.s, w.lay, sp)):
                continue
            level = "board" if board is not None else "ground"
            here = [p for p in w.pieces.values() if p.space == sp and p.level == level]
            point = statics.jutsu_position(sp, KIND_SHAPE[kind], "c")
            foot = statics.footprint(KIND_SHAPE[kind], point)
            if not (level == "ground" and here and w.s.options.has(6)) and not any(
                    statics.overlaps(foot, statics.footprint(KIND_SHAPE[p.kind], p.point)) for p in here):
                out.append(f"place {kind} {name(sp)}")
    if board is None and reset.board is not None and any(
            p.level == "ground" and w.lay.card_of(p.space) == reset.card for p in w.pieces.values()):
        middle = name(spaces[4])
        out += [f"board {middle}" + (" back" if back else "") + (f" r{turns * 90}" if turns else "")
                for back, turns in itertools.product((False, True), range(4))]
    if board is not None:
        for q in reset.ninjas:
            for sp in spaces:
                try:
                    standing_spot(w, w.seats[q], sp)
                except IllegalActionError:
                    continue
                out.append(f"stand {q + 1} {name(sp)}")
    return out


def _legal_takes(w: Work, seat: int) -> list[str]:
    out = []
    stood = {q.on for q in w.seats}
    for kind in sorted(set(w.s.to_take)):
        if w.pool[JUTSU_KINDS.index(kind)]:
            out.append(f"take {kind} pool")
        for p in w.pieces.values():
            if p.kind != kind or p.id in stood:
                continue
            covered = w.lay.card_of(p.space) in w.boards and p.level == "ground"
            out.append(f"take {kind} under {name(p.space)}" if covered else f"take {kind} {name(p.space)}")
    return sorted(set(out))


def _legal_navigate(s: State, seat: int) -> list[str]:
    """Read from the state and its shared `Position` (the footprints per space and level, the card tokens): a
    working copy is made only for steps not kept."""
    me = s.seats[seat]
    lay = s.layout
    out = ["end"]
    pos = position(s)  # the state's footprints per (space, level), shared with its previews
    kinds = tuple(sorted(set(me.hand)))
    for card in range(lay.cards):
        out += _placements(pos, card, kinds)  # `legal` sorts them
    if s.deck:
        for card in range(lay.cards):
            if card not in pos.boards and card in pos.grounded:
                origin = lay.origin(card)
                middle = name((origin[0] + 1, origin[1] + 1))
                for back, turns in itertools.product((False, True), range(4)):
                    out.append(f"board {middle}" + (" back" if back else "") + (f" r{turns * 90}" if turns else ""))
    out += _legal_steps(s, me, pos)
    if me.space is not None:
        alcove = lay.alcove_at(me.space)
        bansen = s.alcoves[alcove.index] if alcove is not None else None
        if bansen in me.bansen and (not in_order(s.options, seat) or bansen == min(
                (b for b in me.bansen if b not in me.claimed and b not in me.used), key=number)):
            out.append("claim")
        if s.options.has(4):
            out += [f"use {b}" for b in me.claimed if b not in me.fresh]
    return out


# A card's placements of one kind by (kind, card token): what the last action did not touch is listed as before.
# Where a Jutsu fits reads only the card's contents (its board, Jutsu and ninjas), the map's land and Challenge 6:
# the token (`quick.position`). Keyed by kind, not by the whole hand: a placement changes the hand, and the other
# kinds' lists on the cards it did not touch stay good.
_PLACEMENTS: OrderedDict[tuple[str, int], tuple[str, ...]] = OrderedDict()
_PLACEMENTS_SIZE = 512  # (kind, card) pairs: a long turn makes a few dozen
_LOCK = threading.Lock()


def _placements(pos: Position, card: int, kinds: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for kind in kinds:
        key = (kind, pos.tokens[card])
        found = _PLACEMENTS.get(key)
        if found is None:
            found = card_placements(pos, card, kind)
            with _LOCK:
                _PLACEMENTS[key] = found
                while len(_PLACEMENTS) > _PLACEMENTS_SIZE:
                    _PLACEMENTS.popitem(last=False)
        out += found
    return out


def card_placements(pos: Position, card: int, kind: str) -> tuple[str, ...]:
    """``place <kind> <space>`` for each space of ``card`` where the Jutsu fits at the centre: free of ninjas, land
    or a board, not touching a piece there (Challenge 6: no second Jutsu on a ground space)."""
    occupied = {q.space for q in pos.s.seats if q.space is not None}
    level = "board" if card in pos.boards else "ground"
    shape = KIND_SHAPE[kind]
    out = []
    for sp in pos.lay.spaces(card):
        if sp in occupied or (level == "ground" and sp not in pos.land):
            continue
        here = pos.feet.get((sp, level), ())
        if level == "ground" and here and pos.s.options.has(6):
            continue
        # an empty space fits every shape: no footprint to compare
        if not here or not any(statics.overlaps(statics.footprint(shape, statics.jutsu_position(sp, shape, "c")),
                                                other) for other in here):
            out.append(f"place {kind} {NAMES[sp]}")
    return tuple(out)


# A ninja's steps by what `can_stand` reads: the ninja (seat, colour, where it stands) and the tokens of the cards
# it could step onto (their boards, Jutsu and ninjas, and who stands on which Jutsu). A placement elsewhere, or
# another seat's turn on other cards, keeps the list; each `can_stand` walks the whole position.
_STEPS: OrderedDict[tuple[object, ...], tuple[str, ...]] = OrderedDict()
_STEPS_SIZE = 256  # (ninja, neighbourhood) pairs: a turn makes a dozen


def _legal_steps(s: State, me: Player, pos: Position) -> list[str]:
    if s.options.master == me.seat and s.options.master_steps and me.steps >= MASTER_STEPS:
        return []
    if me.alcove is not None:
        targets = [s.layout.alcoves[me.alcove].space]
    elif me.space is not None:
        targets = s.layout.neighbours(me.space)
    else:
        return []
    key = (me.seat, me.ninja, me.alcove, me.space, *(pos.tokens[pos.at[sp]] for sp in targets))
    found = _STEPS.get(key)
    if found is None:
        w = Work(s)
        found = tuple(f"move {name(sp)}" for sp in targets if can_stand(w, me, sp))
        with _LOCK:
            _STEPS[key] = found
            while len(_STEPS) > _STEPS_SIZE:
                _STEPS.popitem(last=False)
    return list(found)
