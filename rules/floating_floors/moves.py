"""Floating Floors' actions: each checks the rules, changes a `Work` copy and records what happened.

``perform`` dispatches by phase (hide → acquire → navigate; a reset before the turn after a collapse);
``arrange`` is the automatic legal reset of a collapsed card. What the rules accept now is listed in legal.py.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from rules.base import Event, IllegalActionError, Msg
from rules.floating_floors import notation as nt
from rules.floating_floors import statics
from rules.floating_floors.components import (
    BANSEN_BY_ID,
    FLOORBOARD_BY_ID,
    JUTSU_KINDS,
    KIND_COLOUR,
    KIND_SHAPE,
    PHYSICS,
    TERRAIN_BY_ID,
    WALKS_ON,
)
from rules.floating_floors.layout import Space, name
from rules.floating_floors.notation import Action
from rules.floating_floors.notation import parse as nt_parse
from rules.floating_floors.state import Board, Options, Piece, Player, Reset, State
from rules.floating_floors.turns import (
    KEEP,
    MASTER_STEPS,
    available,
    chakras_placed,
    end_turn,
    next_seat,
    side_alcoves,
    start_turn,
)
from rules.floating_floors.work import Work, balance_of, colour_at, colour_of, gather, is_land, ninja_at, settle

RESET_TRIES = 3
PHASE_VERBS = {"chakra": ("chakra",), "hide": ("hide",), "reset": ("reset", "place", "board", "stand"),
               "acquire": ("take",), "navigate": ("place", "board", "move", "claim", "use", "end", nt.TOGETHER)}


def perform(w: Work, seat: int, act: Action) -> None:
    phase = w.s.phase
    if act.verb == "timeout":
        timeout(w, seat)
        return
    if act.verb not in PHASE_VERBS[phase]:
        raise IllegalActionError(f"ff.err.phase_{phase}", verb=act.verb)
    for part in act.parts or (act,):
        if part.space is not None and not w.lay.on_map(part.space):  # a well-formed name past a smaller map's edge
            raise IllegalActionError("ff.err.off_map", space=name(part.space), last=name((w.lay.cols - 1,
                                                                                         w.lay.rows - 1)))
    if phase == "reset" and act.verb != "reset":
        RESET_ACTIONS[act.verb](w, seat, act)
        return
    ACTIONS[act.verb](w, seat, act)


# --- set-up -----------------------------------------------------------------------------------------------


def chakra(w: Work, seat: int, act: Action) -> None:
    """Place your Chakra (and your ninja on it) in an empty alcove on your side of the map."""
    mine = [a for a in side_alcoves(w.lay, w.s.players, seat) if not chakra_there(w, a)]
    alcove = w.lay.alcove_at(act.space)
    if alcove is None or alcove.index not in mine:
        raise IllegalActionError("ff.err.chakra_side", space=name(act.space),
                                 spaces=", ".join(name(w.lay.alcoves[a].space) for a in mine))
    x, y = alcove.point
    w.set_player(seat, home=alcove.index, alcove=alcove.index, x=x, y=y)
    w.events.append(Event("chakra", seat, {"alcove": alcove.index, "space": name(act.space)}))
    if all(q.alcove is not None for q in w.seats if not q.out):
        chakras_placed(w)
    else:
        w.changes["current"] = next_seat(w.s, seat, w.seats)


def chakra_there(w: Work, alcove: int) -> bool:
    return any(q.alcove == alcove for q in w.seats)


def default_chakra(s: State, seat: int) -> str:
    """The middle of the seat's side, or the first free alcove there."""
    free = [a for a in side_alcoves(s.layout, s.players, seat) if all(q.alcove != a for q in s.seats)]
    pick = free[len(free) // 2] if len(free) == 3 else free[0]
    return f"chakra {name(s.layout.alcoves[pick].space)}"


# --- Challenge 1 ------------------------------------------------------------------------------------------


def hide(w: Work, seat: int, act: Action) -> None:
    pending = list(w.s.hide)
    mine = [b for q, b in pending if q == seat]
    if act.bansen not in mine:
        raise IllegalActionError("ff.err.not_yours_to_hide", bansen=act.bansen, yours=", ".join(mine))
    alcove = w.lay.alcove_at(act.space)
    if alcove is None:
        raise IllegalActionError("ff.err.no_alcove", space=name(act.space))
    if w.alcoves[alcove.index] is not None or any(q.home == alcove.index for q in w.seats):
        raise IllegalActionError("ff.err.alcove_taken", space=name(act.space))
    w.alcoves[alcove.index] = act.bansen
    i = pending.index((seat, act.bansen))
    pending[i] = (seat, pending[0][1])
    pending.pop(0)
    w.events.append(Event("hide", seat, {"bansen": act.bansen, "alcove": alcove.index, "space": name(act.space)}))
    w.changes["hide"] = tuple(pending)
    if pending:
        w.changes["current"] = pending[0][0]
    else:
        start_turn(w, 0)


def first_free_alcove(w: Work) -> Space:
    homes = {q.home for q in w.seats}
    return next(a.space for a in w.lay.alcoves if w.alcoves[a.index] is None and a.index not in homes)


# --- acquiring -----------------------------------------------------------------------------------------------


def take(w: Work, seat: int, act: Action) -> None:
    to_take = list(w.get("to_take"))
    if act.kind not in to_take:
        raise IllegalActionError("ff.err.not_rolled", kind=act.kind, rolled=" ".join(to_take) or "—")
    if act.source == "pool":
        i = JUTSU_KINDS.index(act.kind)
        if w.pool[i] == 0:
            raise IllegalActionError("ff.err.pool_empty", kind=act.kind)
        w.pool[i] -= 1
        stood = True
    else:
        stood = _take_from_map(w, seat, act)
    me = w.seats[seat]
    w.set_player(seat, hand=tuple(sorted((*me.hand, act.kind))))
    to_take.remove(act.kind)
    w.events.append(Event("take", seat, {"kind": act.kind, "source": act.source,
                                         "space": name(act.space) if act.space else None}))
    if not stood:
        end_turn(w, seat, None)
        return
    to_take = [k for k in to_take if available(w, k)]
    w.changes.update(to_take=tuple(to_take), phase="acquire" if to_take else "navigate")


def _take_from_map(w: Work, seat: int, act: Action) -> bool:
    card = w.lay.card_of(act.space)
    board = w.boards.get(card)
    stood_on = {q.on for q in w.seats}
    if act.source == "under":
        if board is None:
            raise IllegalActionError("ff.err.no_board_over", space=name(act.space))
        level = "ground"
    else:
        level = "board" if board is not None else "ground"
    found = sorted((p for p in w.pieces.values() if p.space == act.space and p.kind == act.kind and p.level == level),
                   key=lambda p: p.id)
    if not found:
        raise IllegalActionError("ff.err.no_such_jutsu", kind=act.kind, space=name(act.space),
                                 where=Msg(f"ff.where.{'under' if act.source == 'under' else 'on'}"))
    free = [p for p in found if p.id not in stood_on]
    if not free:
        raise IllegalActionError("ff.err.stood_on", kind=act.kind, space=name(act.space))
    del w.pieces[free[0].id]
    if board is None:
        return True
    return settle(w, card, seat, "take", w.s.options.shaky_all)


# --- navigating ----------------------------------------------------------------------------------------------


def place(w: Work, seat: int, act: Action) -> None:
    check(w, seat, place_quietly(w, seat, act), "place")


def place_quietly(w: Work, seat: int, act: Action) -> list[int]:
    """A Jutsu from the hand, unchecked: the cards whose board it touched (to `check` after)."""
    me = w.seats[seat]
    if act.kind not in me.hand:
        raise IllegalActionError("ff.err.not_in_hand", kind=act.kind, hand=" ".join(me.hand) or "—")
    piece = put_jutsu(w, act, seat)
    hand = list(me.hand)
    hand.remove(act.kind)
    w.set_player(seat, hand=tuple(hand))
    w.events.append(Event("place", seat, {"kind": act.kind, "space": name(act.space), "offset": act.offset,
                                          "level": piece.level, "id": piece.id}))
    return [w.lay.card_of(act.space)] if piece.level == "board" else []


def check(w: Work, seat: int, cards: list[int], cause: str) -> None:
    """Check each touched board in order; the first that falls ends the turn (one collapse per action)."""
    shaky = w.s.options.shaky_all
    for card in cards:
        if card in w.boards and not settle(w, card, seat, cause, shaky):
            end_turn(w, seat, None)
            return


def together(w: Work, seat: int, act: Action) -> None:
    """Several placements (and at most one step) made at once: the rulebook's "multiple actions at the same
    time". Each is made as if alone, in the order given, but the boards they touch are checked once, after all
    of them, so a Jutsu and its counterweight stand together where either alone would tip the board."""
    touched: list[int] = []
    for part in act.parts:
        cards = place_quietly(w, seat, part) if part.verb == "place" else step_quietly(w, seat, part)
        touched += [c for c in cards if c not in touched]
    check(w, seat, touched, "move" if any(p.verb == "move" for p in act.parts) else "place")


def put_jutsu(w: Work, act: Action, seat: int | None = None) -> Piece:
    """A Jutsu where ``act`` says, if the rules allow it there: on the card's board if it has one, else on land.
    A piece it touches in that space is nudged (see `make_room`)."""
    card = w.lay.card_of(act.space)
    board = w.boards.get(card)
    level = "board" if board is not None else "ground"
    if board is None and not is_land(w.s, w.lay, act.space):
        raise IllegalActionError("ff.err.water", space=name(act.space))
    here = [p for p in w.pieces.values() if p.space == act.space and p.level == level]
    if level == "ground" and here and w.s.options.has(6):
        raise IllegalActionError("ff.err.one_per_space", space=name(act.space))
    shape = KIND_SHAPE[act.kind]
    point = statics.jutsu_position(act.space, shape, act.offset)
    make_room(w, act, level, statics.footprint(shape, point), None, by=seat)
    piece = Piece(w.next_piece, act.kind, act.space, level, point[0], point[1])
    w.pieces[piece.id] = piece
    w.next_piece += 1
    return piece


# --- nudging -------------------------------------------------------------------------------------------------
# "When placing Jutsu onto a space, you may nudge a Jutsu or Ninja Meeple already in that same space … All pieces
# must fit within the space they began." A piece has a position inside its space (x, y); the one piece that the
# newcomer's footprint would overlap moves to the offset the player names (``nudge se``) or, by default, to the
# free offset nearest where it was. Its weight moves with it; the check after the action decides if the board
# stands. A Jutsu a ninja stands on, and a ninja standing on a Jutsu, are not nudged (they would move together).

Occupant = tuple[str, int, str, statics.Point]  # ("jutsu", id, shape, point) or ("ninja", seat, "ninja", point)


def occupants(w: Work, space: Space, level: str, mover: int | None = None, landing: int | None = None
              ) -> list[Occupant]:
    """The pieces in ``space`` at ``level`` but the moving ninja and the Jutsu it lands on."""
    here = sorted((p for p in w.pieces.values() if p.space == space and p.level == level and p.id != landing),
                  key=lambda p: p.id)
    out: list[Occupant] = [("jutsu", p.id, KIND_SHAPE[p.kind], p.point) for p in here]
    if level == "board":
        out += [("ninja", q.seat, statics.NINJA, q.point) for q in w.seats if q.space == space and q.seat != mover]
    return out


def _touches(foot: tuple[statics.Point, ...], o: Occupant) -> bool:
    return statics.overlaps(foot, statics.footprint(o[2], o[3]))


def make_room(w: Work, act: Action, level: str, foot: tuple[statics.Point, ...], mover: int | None,
              only_ninjas: bool = False, landing: int | None = None, by: int | None = None) -> None:
    """Nudge the one piece in ``act.space`` that ``foot`` overlaps, or refuse. ``mover``: the stepping ninja (not
    an obstacle to itself); ``only_ninjas``: a step, whose landing spot is refused only by another ninja (Jutsu
    there are nudged when the player asks, as before); ``by``: the seat that nudges."""
    others = occupants(w, act.space, level, mover, landing)
    hit = [o for o in others if _touches(foot, o) and (o[0] == "ninja" or not only_ninjas or act.nudge)]
    if not hit:
        if act.nudge:
            raise IllegalActionError("ff.err.nudge_nothing", space=name(act.space))
        return
    stood = {q.on for q in w.seats}
    if any((o[0] == "jutsu" and o[1] in stood) or (o[0] == "ninja" and w.seats[o[1]].on is not None) for o in hit):
        raise IllegalActionError("ff.err.nudge_stood", space=name(act.space))
    if len(hit) > 1:
        raise IllegalActionError("ff.err.no_room", space=name(act.space), offset=act.offset)
    what, key, shape, at = hit[0]
    rest = [foot, *(statics.footprint(o[2], o[3]) for o in others if o is not hit[0])]
    for offset in _nudge_targets(act, shape, at):
        point = statics.jutsu_position(act.space, shape, offset)
        spot = statics.footprint(shape, point)
        if not any(statics.overlaps(spot, f) for f in rest):
            _moved(w, what, key, point)
            w.events.append(Event("nudge", mover if by is None else by,
                                  {"space": name(act.space), "what": what, "who": key, "offset": offset}))
            return
    if act.nudge:
        raise IllegalActionError("ff.err.nudge_blocked", space=name(act.space), offset=act.nudge)
    raise IllegalActionError("ff.err.no_room", space=name(act.space), offset=act.offset)


def _nudge_targets(act: Action, shape: str, at: statics.Point) -> list[str]:
    if act.nudge:
        return [act.nudge]
    points = {o: statics.jutsu_position(act.space, shape, o) for o in statics.OFFSETS}
    near = sorted(statics.OFFSETS, key=lambda o: (abs(points[o][0] - at[0]) + abs(points[o][1] - at[1]),
                                                  statics.OFFSETS.index(o)))
    return [o for o in near if points[o] != at]


def _moved(w: Work, what: str, key: int, point: statics.Point) -> None:
    if what == "jutsu":
        w.pieces[key] = replace(w.pieces[key], x=point[0], y=point[1])
    else:
        w.set_player(key, x=point[0], y=point[1])


def place_board(w: Work, seat: int, act: Action) -> None:
    card = w.lay.card_of(act.space)
    if card in w.boards:
        raise IllegalActionError("ff.err.has_board", space=name(act.space))
    if not w.deck:
        raise IllegalActionError("ff.err.deck_empty")
    if not any(p.level == "ground" and w.lay.card_of(p.space) == card for p in w.pieces.values()):
        raise IllegalActionError("ff.err.board_needs_jutsu", space=name(act.space))
    top = w.deck.pop(0)
    w.boards[card] = Board(card, top, act.back, act.turns)
    w.events.append(Event("board", seat, {"board": top, "card": card, "back": act.back, "turns": act.turns}))
    if not settle(w, card, seat, "board", w.s.options.shaky_all):
        end_turn(w, seat, None)


def standing_spot(w: Work, me: Player, space: Space, nudging: bool = False) -> tuple[float, float, int | None]:
    """Where ``me`` would stand on ``space`` (its centre or a Jutsu of its colour), or an error. ``nudging``: a
    step may share the space with another ninja (`make_room` nudges it or refuses)."""
    spot = _spot(w, me, space, nudging)
    if spot == "no_board":
        raise IllegalActionError("ff.err.no_board", space=name(space))
    if spot == "occupied":
        raise IllegalActionError("ff.err.occupied", space=name(space))
    if spot == "wrong_colour":
        colour = colour_of(me)
        raise IllegalActionError("ff.err.wrong_colour", space=name(space), colour=Msg(f"ff.colour.{colour}"),
                                 jutsu=Msg(f"ff.jutsu_colour.{WALKS_ON[colour]}"))
    return spot  # type: ignore[return-value]


def can_stand(w: Work, me: Player, space: Space) -> bool:
    """`standing_spot` accepts ``space`` (no nudge): the legal list asks it of every neighbour, so no error is made."""
    return not isinstance(_spot(w, me, space, False), str)


def _spot(w: Work, me: Player, space: Space, nudging: bool) -> tuple[float, float, int | None] | str:
    """`standing_spot`'s answer, or the reason it refuses ("no_board", "occupied", "wrong_colour")."""
    card = w.lay.card_of(space)
    board = w.boards.get(card)
    if board is None:
        return "no_board"
    other = ninja_at(w, space)
    if other is not None and other.seat != me.seat and not nudging:
        return "occupied"
    colour = colour_of(me)
    if colour_at(board, w.lay, space) == colour:
        return (space[0] + 0.5, space[1] + 0.5, None)
    jutsu = WALKS_ON[colour]
    stood = {q.on for q in w.seats}
    steps = sorted((p for p in w.pieces.values()
                    if p.space == space and p.level == "board" and KIND_COLOUR[p.kind] == jutsu and p.id not in stood),
                   key=lambda p: p.id)
    if not steps:
        return "wrong_colour"
    return (steps[0].x, steps[0].y, steps[0].id)


def move(w: Work, seat: int, act: Action) -> None:
    check(w, seat, step_quietly(w, seat, act), "move")


def step_quietly(w: Work, seat: int, act: Action) -> list[int]:
    """One step, unchecked: the boards to check after it, the one entered first, then the one left."""
    me = w.seats[seat]
    if me.alcove is not None:
        start = w.lay.alcoves[me.alcove].space
        if act.space != start:
            raise IllegalActionError("ff.err.from_alcove", space=name(start))
    elif me.space is None:
        raise IllegalActionError("ff.err.fallen")
    elif act.space not in w.lay.neighbours(me.space):
        raise IllegalActionError("ff.err.not_adjacent", space=name(act.space), at=name(me.space))
    if w.s.options.master == seat and w.s.options.master_steps and me.steps >= MASTER_STEPS:
        raise IllegalActionError("ff.err.master_steps", steps=MASTER_STEPS)
    x, y, on = standing_spot(w, me, act.space, nudging=True)
    foot = statics.footprint(statics.NINJA, (x, y))
    make_room(w, act, "board", foot, seat, only_ninjas=True, landing=on)
    left = w.lay.card_of(me.space) if me.space is not None else None
    w.set_player(seat, alcove=None, space=act.space, x=x, y=y, on=on, steps=me.steps + 1)
    w.events.append(Event("move", seat, {"from": name(me.space) if me.space else None, "to": name(act.space),
                                         "on": on}))
    entered = w.lay.card_of(act.space)
    return [entered] + ([left] if left is not None and left != entered else [])


def turn_board(w: Work, card: int, quarter: int) -> None:
    """Turn the board on ``card`` about its centre with everything on it; the supports stay."""
    centre = w.lay.centre(card)
    board = w.boards[card]
    w.boards[card] = Board(card, board.board, board.back, (board.turns + quarter) % 4)
    for p in list(w.pieces.values()):
        if p.level == "board" and w.lay.card_of(p.space) == card:
            x, y = statics.rotate(p.point, centre, quarter)
            w.pieces[p.id] = Piece(p.id, p.kind, _turned_space(p.space, centre, quarter), p.level, x, y)
    for q in w.seats:
        if q.space is not None and w.lay.card_of(q.space) == card:
            x, y = statics.rotate(q.point, centre, quarter)
            w.set_player(q.seat, space=_turned_space(q.space, centre, quarter), x=x, y=y)


def _turned_space(space: Space, centre: tuple[float, float], quarter: int) -> Space:
    x, y = statics.rotate((space[0] + 0.5, space[1] + 0.5), centre, quarter)
    return (int(x), int(y))


def claim(w: Work, seat: int, act: Action) -> None:
    me = w.seats[seat]
    if me.space is None:
        raise IllegalActionError("ff.err.not_on_board")
    if act.space is not None and act.space != me.space:
        raise IllegalActionError("ff.err.claim_from", space=name(act.space), at=name(me.space))
    alcove = w.lay.alcove_at(me.space)
    bansen = w.alcoves[alcove.index] if alcove is not None else None
    if bansen is None or bansen not in me.bansen:
        raise IllegalActionError("ff.err.no_bansen_here", space=name(me.space))
    if in_order(w.s.options, seat):
        lowest = min((b for b in me.bansen if b not in me.claimed and b not in me.used), key=number)
        if bansen != lowest:
            raise IllegalActionError("ff.err.in_order", bansen=bansen, first=lowest)
    card = w.lay.card_of(me.space)
    quarter = BANSEN_BY_ID[bansen].quarter_turns_cw
    turn_board(w, card, quarter)
    w.events.append(Event("rotate", seat, {"card": card, "quarter": quarter, "bansen": bansen}))
    if not settle(w, card, seat, "claim", w.s.options.shaky_claims):
        end_turn(w, seat, None)
        return
    w.alcoves[alcove.index] = None
    me = w.set_player(seat, claimed=(*me.claimed, bansen), fresh=(*me.fresh, bansen))
    w.events.append(Event("claim", seat, {"bansen": bansen, "alcove": alcove.index, "done": me.done,
                                          "needed": len(me.bansen)}))
    if me.done == len(me.bansen):
        w.changes.update(phase="over", winner=seat, reason="ff.outcome.bansen", roll=(), to_take=())
        w.events.append(Event("win", seat, {"reason": "ff.outcome.bansen"}))


def use(w: Work, seat: int, act: Action) -> None:
    if not w.s.options.has(4):
        raise IllegalActionError("ff.err.challenge4_off")
    me = w.seats[seat]
    if act.bansen not in me.claimed:
        raise IllegalActionError("ff.err.not_claimed", bansen=act.bansen)
    if act.bansen in me.fresh:
        raise IllegalActionError("ff.err.claimed_this_turn", bansen=act.bansen)
    if me.space is None:
        raise IllegalActionError("ff.err.not_on_board")
    card = w.lay.card_of(me.space)
    claimed = tuple(b for b in me.claimed if b != act.bansen)
    w.set_player(seat, claimed=claimed, used=(*me.used, act.bansen))
    quarter = BANSEN_BY_ID[act.bansen].quarter_turns_cw
    turn_board(w, card, quarter)
    w.events.append(Event("rotate", seat, {"card": card, "quarter": quarter, "bansen": act.bansen, "used": True}))
    if not settle(w, card, seat, "use", w.s.options.shaky_claims):
        end_turn(w, seat, None)


def end(w: Work, seat: int, act: Action) -> None:
    me = w.seats[seat]
    if act.keep is not None:
        mine = WALKS_ON[colour_of(me)]
        hand = list(me.hand)
        for k in act.keep:
            if KIND_COLOUR[k] != mine:
                raise IllegalActionError("ff.err.keep_colour", kind=k, colour=Msg(f"ff.jutsu_colour.{mine}"))
            if k not in hand:
                raise IllegalActionError("ff.err.not_in_hand", kind=k, hand=" ".join(me.hand) or "—")
            hand.remove(k)
    end_turn(w, seat, act.keep)


def in_order(options: Options, seat: int) -> bool:
    """Must ``seat`` claim its Bansen in number order (Challenge 1, or the Master's own rule)?"""
    return options.has(1) or (options.master == seat and options.master_order)


def number(bansen: str) -> int:
    return BANSEN_BY_ID[bansen].number


# --- timeouts and resets -------------------------------------------------------------------------------------


def timeout(w: Work, seat: int) -> None:
    """The turn deadline passed: a pending hide or reset is made automatically, then the turn ends."""
    w.events.append(Event("timeout", seat, {"phase": w.s.phase}))
    if w.s.phase == "chakra":
        chakra(w, seat, nt_parse(default_chakra(w.s, seat)))
        return
    if w.s.phase == "hide":
        bansen = w.s.hide[0][1]
        hide(w, seat, Action("hide", bansen=bansen, space=first_free_alcove(w)))
        return
    if w.s.phase == "reset":
        do_reset(w, seat, Action("timeout"))
        if w.changes.get("phase") == "reset":  # Challenge 5: it fell again and the reset passed on
            return
    end_turn(w, seat, None)


def do_reset(w: Work, seat: int, act: Action) -> None:
    """``reset``: finish an arrangement made by hand, or (nothing placed yet) make the automatic one. With shaky
    hands for everything the automatic arrangement is checked like any placement: if it falls, Challenge 5 makes
    the resetting player miss their turn and passes the reset on; otherwise they gather the pieces and try again
    (``RESET_TRIES`` times, then the board goes to the deck). A timeout in the middle of a hand-made arrangement
    gathers it and makes the automatic one."""
    reset: Reset = w.get("reset")
    if reset.manual and act.verb == "reset":
        finish_reset(w, seat, reset)
        start_turn(w, seat)
        return
    if reset.manual:
        board, kinds, fallen = gather(w, reset.card)
        reset = Reset(reset.card, seat, board or reset.board, tuple(sorted((*kinds, *reset.kinds))),
                      tuple(sorted({*fallen, *reset.ninjas})))
    for attempt in range(RESET_TRIES):
        arrange(w, reset, flat=attempt == RESET_TRIES - 1)
        stands = reset.card in w.boards
        w.events.append(Event("reset", seat, {"card": reset.card, "board": reset.board, "standing": stands,
                                              "margin": w.changes.get("last", {}).get("margin")}))
        if not stands or not w.s.options.shaky_all or settle(w, reset.card, seat, "reset", True):
            break
        reset, w.collapsed = w.collapsed, None
        if w.s.options.has(5):
            pass_reset_on(w, seat, reset)
            return
    w.changes["reset"] = None
    if act.verb == "reset":
        start_turn(w, seat)


def pass_reset_on(w: Work, seat: int, reset: Reset) -> None:
    """Challenge 5: the reset fell; this player misses the turn and the next one resets the card."""
    w.changes.update(reset=replace(reset, manual=False), phase="reset", current=reset.by, roll=(), to_take=())
    w.events.append(Event("skip", seat, {"challenge": 5}))


def unfinished(w: Work, reset: Reset) -> IllegalActionError | None:
    """Why a hand-made arrangement cannot be finished yet (None: ``reset`` finishes it). `legal` offers
    ``reset`` by the same test, so what is offered is what is accepted."""
    card = reset.card
    if reset.kinds:
        return IllegalActionError("ff.err.reset_jutsu_left", jutsu=" ".join(reset.kinds))
    laid = card in w.boards
    if not laid and reset.board is not None and any(w.lay.card_of(p.space) == card for p in w.pieces.values()):
        return IllegalActionError("ff.err.reset_board_left", board=reset.board)
    if reset.ninjas and laid:
        return IllegalActionError("ff.err.reset_ninjas_left", players=", ".join(str(q + 1) for q in reset.ninjas))
    return None


def finish_reset(w: Work, seat: int, reset: Reset) -> None:
    card = reset.card
    refusal = unfinished(w, reset)
    if refusal is not None:
        raise refusal
    laid = card in w.boards
    if not laid and reset.board is not None:
        w.deck.append(reset.board)  # no Jutsu fell with it: nothing can hold it up
    for q in reset.ninjas:
        home = w.seats[q].home
        x, y = w.lay.alcoves[home].point
        w.set_player(q, alcove=home, space=None, x=x, y=y, on=None)
    w.changes["reset"] = None
    margin = balance_of(w, card).margin if laid else None
    board = w.boards[card].board if laid else reset.board
    w.events.append(Event("reset", seat, {"card": card, "board": board, "standing": laid, "manual": True,
                                          "margin": round(margin, 4) if margin is not None else None}))


def _reset_card(w: Work, reset: Reset, space: Space) -> None:
    if w.lay.card_of(space) != reset.card:
        origin = w.lay.origin(reset.card)
        raise IllegalActionError("ff.err.reset_card", space=name(space), card=name((origin[0] + 1, origin[1] + 1)))


def reset_place(w: Work, seat: int, act: Action) -> None:
    reset: Reset = w.get("reset")
    if act.kind not in reset.kinds:
        raise IllegalActionError("ff.err.not_fallen", kind=act.kind, left=" ".join(reset.kinds) or "—")
    _reset_card(w, reset, act.space)
    piece = put_jutsu(w, act, seat)
    kinds = list(reset.kinds)
    kinds.remove(act.kind)
    w.changes["reset"] = replace(reset, kinds=tuple(kinds), manual=True)
    w.events.append(Event("place", seat, {"kind": act.kind, "space": name(act.space), "offset": act.offset,
                                          "level": piece.level, "id": piece.id, "reset": True}))
    if piece.level == "board":
        reset_check(w, seat)


def reset_board(w: Work, seat: int, act: Action) -> None:
    reset: Reset = w.get("reset")
    _reset_card(w, reset, act.space)
    if reset.board is None or reset.card in w.boards:
        raise IllegalActionError("ff.err.has_board", space=name(act.space))
    if not any(p.level == "ground" and w.lay.card_of(p.space) == reset.card for p in w.pieces.values()):
        raise IllegalActionError("ff.err.board_needs_jutsu", space=name(act.space))
    w.boards[reset.card] = Board(reset.card, reset.board, act.back, act.turns)
    w.changes["reset"] = replace(reset, board=None, manual=True)  # laid: no longer waiting (counted once)
    w.events.append(Event("board", seat, {"board": reset.board, "card": reset.card, "back": act.back,
                                          "turns": act.turns, "reset": True}))
    reset_check(w, seat)


def reset_stand(w: Work, seat: int, act: Action) -> None:
    reset: Reset = w.get("reset")
    if act.seat not in reset.ninjas:
        raise IllegalActionError("ff.err.not_fallen_ninja", player=act.seat + 1)
    _reset_card(w, reset, act.space)
    x, y, on = standing_spot(w, w.seats[act.seat], act.space)
    w.set_player(act.seat, space=act.space, x=x, y=y, on=on, alcove=None)
    w.changes["reset"] = replace(reset, ninjas=tuple(q for q in reset.ninjas if q != act.seat), manual=True)
    w.events.append(Event("stand", seat, {"player": act.seat, "space": name(act.space)}))
    reset_check(w, seat)


def reset_check(w: Work, seat: int) -> None:
    """A hand-made arrangement is checked like any placement. If it falls the pieces are gathered again: the same
    player starts over, or (Challenge 5) misses the turn and the next player resets."""
    reset: Reset = w.get("reset")
    if settle(w, reset.card, seat, "reset", w.s.options.shaky_all):
        return
    fell, w.collapsed = w.collapsed, None
    merged = Reset(reset.card, seat, fell.board or reset.board, tuple(sorted((*fell.kinds, *reset.kinds))),
                   tuple(sorted({*fell.ninjas, *reset.ninjas})))
    if w.s.options.has(5):
        pass_reset_on(w, seat, replace(merged, by=fell.by))
        return
    w.changes.update(reset=merged, phase="reset", current=seat)


def arrange(w: Work, reset: Reset, flat: bool = False) -> None:
    """The automatic legal reset: the most stable arrangement of the fallen pieces on their card, or (when
    nothing stands, or ``flat``) the board to the bottom of the deck, fallen ninjas to their Chakra, Jutsu on
    the land."""
    card = reset.card
    land = [sp for sp in w.lay.spaces(card) if is_land(w.s, w.lay, sp)]
    best = None
    if reset.kinds and reset.board is not None and not flat:
        # the Jutsu's two spreads read only the card's land, not the board's side or turn: spread once, not 8 times
        spreads = [_spread(_Dry(w), reset.kinds, land, w.next_piece, widest) for widest in (True, False)]
        for back, turns in itertools.product((False, True), range(4)):
            trial = _try_arrangement(w, reset, Board(card, reset.board, back, turns), spreads)
            if trial is not None and (best is None or trial[0] > best[0]):
                best = trial
    if best is not None:
        _, board, pieces, spots = best
        w.boards[card] = board
        left = list(reset.kinds)
        for p in pieces:
            left.remove(p.kind)
        for kind in left:  # no room for it on the card: back to the pool, as in the flat arrangement
            w.pool[JUTSU_KINDS.index(kind)] += 1
        for p in pieces:
            w.pieces[p.id] = p
        w.next_piece = max([w.next_piece, *(p.id + 1 for p in pieces)])
        for seat, (space, x, y) in spots.items():
            w.set_player(seat, space=space, x=x, y=y, on=None, alcove=None)
        bal = balance_of(w, card)
        w.changes["last"] = {"kind": "reset", "card": card, "margin": round(bal.margin, 4), "stable": True,
                             "chance": 0.0}
        return
    if reset.board is not None:
        w.deck.append(reset.board)
    for seat in reset.ninjas:
        home = w.seats[seat].home
        x, y = w.lay.alcoves[home].point
        w.set_player(seat, alcove=home, space=None, x=x, y=y, on=None)
    for p in _spread(w, reset.kinds, land, w.next_piece):
        w.pieces[p.id] = p
        w.next_piece = p.id + 1
    w.changes["last"] = {"kind": "reset", "card": card, "margin": None, "stable": False, "chance": 0.0}


def _spread(w: Work, kinds: tuple[str, ...], land: list[Space], first: int, widest: bool = True) -> list[Piece]:
    """The Jutsu on the land spaces, widest first (corners of the card out) or from the middle out, centred in
    their space, then in its corners."""
    centre = w.lay.centre(w.lay.card_of(land[0])) if land else (0.0, 0.0)
    sign = -1 if widest else 1
    order = sorted(land, key=lambda sp: (sign * (abs(sp[0] + 0.5 - centre[0]) + abs(sp[1] + 0.5 - centre[1])), sp))
    slots = [(sp, off) for off in ("c", "nw", "se", "ne", "sw") for sp in order]
    out: list[Piece] = []
    for kind in kinds:
        shape = KIND_SHAPE[kind]
        for sp, off in slots:
            point = statics.jutsu_position(sp, shape, off)
            here = [p for p in out if p.space == sp]
            if here and w.s.options.has(6):
                continue
            if here and any(statics.overlaps(statics.footprint(shape, point),
                                             statics.footprint(KIND_SHAPE[p.kind], p.point)) for p in here):
                continue
            out.append(Piece(first + len(out), kind, sp, "ground", point[0], point[1]))
            break
        else:
            w.pool[JUTSU_KINDS.index(kind)] += 1  # no room left on the card: back to the pool
    return out


def _try_arrangement(w: Work, reset: Reset, board: Board, spreads: list[list[Piece]]
                     ) -> tuple[float, Board, list[Piece], dict[int, tuple[Space, float, float]]] | None:
    centre = w.lay.centre(board.card)
    spots: dict[int, tuple[Space, float, float]] = {}
    for seat in reset.ninjas:
        colour = colour_of(w.seats[seat])
        free = [sp for sp in w.lay.spaces(board.card) if colour_at(board, w.lay, sp) == colour
                and sp not in {s for s, _, _ in spots.values()}]
        if not free:
            return None
        sp = min(free, key=lambda s: (abs(s[0] + 0.5 - centre[0]) + abs(s[1] + 0.5 - centre[1]), s))
        spots[seat] = (sp, sp[0] + 0.5, sp[1] + 0.5)
    loads = [((x, y), PHYSICS.ninja_weight) for _, x, y in spots.values()]
    best = None
    for pieces in spreads:  # widest first, then from the middle: few Jutsu stand best in the middle, many wide
        bal = statics.balance(centre, [(KIND_SHAPE[p.kind], p.point) for p in pieces], loads)
        if bal.stable and (best is None or bal.margin > best[0]):
            best = (bal.margin, board, pieces, spots)
    return best


class _Dry:
    """A stand-in for `Work` in trial arrangements: nothing returns to the pool."""

    def __init__(self, w: Work) -> None:
        self.lay, self.s = w.lay, w.s
        self.pool = [0] * len(JUTSU_KINDS)


RESET_ACTIONS = {"place": reset_place, "board": reset_board, "stand": reset_stand}
ACTIONS = {"chakra": chakra, "hide": hide, "take": take, "place": place, "board": place_board, "move": move,
           "claim": claim, "use": use, "end": end, "reset": do_reset, nt.TOGETHER: together}


def hand_limit() -> int:
    return KEEP


def board_pattern(board: Board) -> tuple[str, ...]:
    return FLOORBOARD_BY_ID[board.board].pattern(board.back, board.turns)


def land_of(terrain: str, side: str) -> frozenset[Space]:
    return TERRAIN_BY_ID[terrain].land(side)
