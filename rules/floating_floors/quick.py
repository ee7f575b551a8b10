"""A preview's answer for the commonest options without the generic rules path (issue 25).

A turn's selects preview every placement and every board the player could lay, a few hundred "what if"s per
action; the generic path (`play.preview`) makes each on a working copy of the whole position. For a plain
placement (``place bs e5``, no nudge) or a board laid while navigating, the answer is one balance check at most,
read here straight from the state and its shared per-card lists (`work._indexed`). Anything else — another
phase, a nudge, an offset that touches a piece, an action the rules refuse — returns None and goes the generic
way, so a refusal always carries the rules' own words. tests/rules/test_floating_floors_quick.py proves both
ways answer the same over random positions of every mode.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from rules.floating_floors import notation as nt
from rules.floating_floors import statics
from rules.floating_floors.components import JUTSU_KINDS, KIND_COLOUR, KIND_SHAPE, PHYSICS, TERRAIN_BY_ID, WALKS_ON
from rules.floating_floors.layout import Layout, Space, card_table
from rules.floating_floors.notation import Action
from rules.floating_floors.state import State
from rules.floating_floors.turns import MASTER_STEPS
from rules.floating_floors.work import Lists, _indexed, band_of, colour_at, colour_of

Foot = tuple[statics.Point, ...]


@dataclass
class Position:
    """What a state's quick previews read, gathered once per state (all its previews share it)."""

    s: State
    lay: Layout
    at: dict[Space, int]
    boards: frozenset[int]  # the cards with a board
    feet: dict[tuple[Space, str], list[Foot]]  # the Jutsu footprints at each (space, level)
    ninja_feet: dict[Space, list[Foot]]
    ninja_loads: dict[int, tuple[tuple[statics.Point, float], ...]]  # per card
    lists: dict[int, Lists]  # per card: the state's supports and Jutsu loads (`work._indexed`)
    grounded: frozenset[int]  # the cards with a Jutsu on the ground
    spaces: frozenset[Space]  # on the map
    land: frozenset[Space]  # the spaces `work.is_land` says are land


_POSITIONS: OrderedDict[int, Position] = OrderedDict()
_POSITIONS_SIZE = 16  # states: a turn's and a few concurrent games'
_LOCK = threading.Lock()


def position(s: State) -> Position:
    """The state's `Position`, kept for the last few states by identity (the entry holds the state alive)."""
    entry = _POSITIONS.get(id(s))
    if entry is not None and entry.s is s:
        return entry
    lay = s.layout
    at = card_table(lay.card_cols, lay.card_rows)
    feet: dict[tuple[Space, str], list[Foot]] = {}
    for p in s.pieces:
        feet.setdefault((p.space, p.level), []).append(statics.footprint(KIND_SHAPE[p.kind], p.point))
    ninja_feet: dict[Space, list[Foot]] = {}
    ninja_loads: dict[int, list[tuple[statics.Point, float]]] = {}
    for q in s.seats:  # in seat order, as `work.balance_of` lists them
        if q.space is not None:
            ninja_feet.setdefault(q.space, []).append(statics.footprint(statics.NINJA, q.point))
            ninja_loads.setdefault(at[q.space], []).append((q.point, PHYSICS.ninja_weight))
    entry = Position(s, lay, at, frozenset(b.card for b in s.boards), feet, ninja_feet,
                     {card: tuple(loads) for card, loads in ninja_loads.items()}, _indexed(s.pieces, at)[3],
                     frozenset(at[p.space] for p in s.pieces if p.level == "ground"), _spaces(lay),
                     _land(s.cards, lay))
    with _LOCK:  # build, then publish: a reader sees a whole entry or none
        _POSITIONS[id(s)] = entry
        while len(_POSITIONS) > _POSITIONS_SIZE:
            _POSITIONS.popitem(last=False)
    return entry


@cache
def _spaces(lay: Layout) -> frozenset[Space]:
    return frozenset((c, r) for c in range(lay.cols) for r in range(lay.rows))


@lru_cache(maxsize=64)  # the cards of a game never change (their side is set at the start)
def _land(cards: tuple[tuple[str, str], ...], lay: Layout) -> frozenset[Space]:
    """The land spaces of a map of ``cards``, each as `work.is_land` tells it."""
    return frozenset(sp for sp in _spaces(lay)
                     if lay.local(sp) in TERRAIN_BY_ID[cards[lay.card_of(sp)][0]].land(cards[lay.card_of(sp)][1]))


def preview(s: State, seat: int, action: str) -> dict[str, Any] | None:
    """`play.preview`'s answer for a plain placement, board or step while navigating and a take while acquiring;
    None: ask the generic path."""
    if s.phase not in ("navigate", "acquire") or type(seat) is not int or seat != s.current \
            or not 0 <= seat < s.players or s.seats[seat].out or not isinstance(action, str) or "+" in action:
        return None
    try:
        act, text = _parsed(action)
    except Exception:  # a refusal: the generic path words it
        return None
    pos = position(s)
    if act.verb == "take" and s.phase == "acquire":
        return _taken(pos, act, text) if act.source == "pool" or act.space in pos.spaces else None
    if s.phase != "navigate" or act.space not in pos.spaces:
        return None
    if act.verb == "place" and act.nudge is None:
        card = _placed(pos, seat, act)
    elif act.verb == "board":
        card = _boarded(pos, act)
    elif act.verb == "move" and act.nudge is None:
        return _stepped(pos, seat, act, text)
    else:
        return None
    if card is None:
        return None
    return _answer(pos, act, text, card)


@lru_cache(maxsize=4096)  # a turn's previews name the same few hundred actions
def _parsed(action: str) -> tuple[Action, str]:
    act = nt.parse(action)
    return act, nt.text(act)


def _plain(text: str) -> dict[str, Any]:
    return {"action": text, "checks": [], "collapse": None, "claim": None, "win": False}


def _taken(pos: Position, act: Action, text: str) -> dict[str, Any] | None:
    """A take (`moves.take`): from the pool or off the ground nothing is checked; off or from under a board,
    that board is checked without the Jutsu (the lowest id of its kind there that no ninja stands on)."""
    s = pos.s
    if act.kind not in s.to_take:
        return None
    if act.source == "pool":
        return _plain(text) if s.pool[JUTSU_KINDS.index(act.kind)] else None
    card = pos.at[act.space]
    on_board = card in pos.boards
    if act.source == "under" and not on_board:
        return None
    level = "ground" if act.source == "under" or not on_board else "board"
    stood = {q.on for q in s.seats}
    gone = next((p for p in s.pieces if p.space == act.space and p.kind == act.kind and p.level == level
                 and p.id not in stood), None)  # `s.pieces` is sorted by id
    if gone is None:
        return None
    if not on_board:
        return _plain(text)
    under = tuple([(KIND_SHAPE[p.kind], p.point) for p in s.pieces
                   if p.level == "ground" and pos.at[p.space] == card and p is not gone])
    on_top = tuple([(p.point, PHYSICS.jutsu_weight) for p in s.pieces
                    if p.level == "board" and pos.at[p.space] == card and p is not gone])
    out = _plain(text)
    _check(pos, out, card, under, on_top + pos.ninja_loads.get(card, ()))
    return out


def _stepped(pos: Position, seat: int, act: Action, text: str) -> dict[str, Any] | None:
    """A step (`moves.step_quietly`) into a space no other ninja stands on: the board entered is checked with the
    ninja's weight where it lands, then the board left without it; the first that falls ends the checks."""
    s = pos.s
    me = s.seats[seat]
    if me.alcove is not None:
        if act.space != pos.lay.alcoves[me.alcove].space:
            return None
    elif me.space is None or act.space not in pos.lay.neighbours(me.space):
        return None
    if s.options.master == seat and s.options.master_steps and me.steps >= MASTER_STEPS:
        return None
    entered = pos.at[act.space]
    board = next((b for b in s.boards if b.card == entered), None)
    if board is None or any(q.space == act.space for q in s.seats if q.seat != seat):
        return None
    colour = colour_of(me)
    if colour_at(board, pos.lay, act.space) == colour:
        point = (act.space[0] + 0.5, act.space[1] + 0.5)
    else:
        jutsu, stood = WALKS_ON[colour], {q.on for q in s.seats}
        step = next((p for p in s.pieces if p.space == act.space and p.level == "board"
                     and KIND_COLOUR[p.kind] == jutsu and p.id not in stood), None)  # the lowest id
        if step is None:
            return None
        point = step.point
    left = pos.at[me.space] if me.space is not None else None
    out = _plain(text)
    for card in [entered] + ([left] if left is not None and left != entered else []):
        if card not in pos.boards:
            continue
        ninjas = tuple([((point if q.seat == seat else q.point), PHYSICS.ninja_weight) for q in s.seats
                        if (q.space if q.seat != seat else act.space) is not None
                        and pos.at[q.space if q.seat != seat else act.space] == card])
        under, on_top = pos.lists.get(card, ((), ()))
        if not _check(pos, out, card, under, on_top + ninjas):
            break
    return out


def _placed(pos: Position, seat: int, act: Action) -> int | None:
    """The card whose board a placement loads (-1: on the ground, nothing to check), or None if it is refused or
    touches a piece (a nudge: the generic path moves it)."""
    s = pos.s
    if act.kind not in s.seats[seat].hand:
        return None
    card = pos.at[act.space]
    on_board = card in pos.boards
    if not on_board and act.space not in pos.land:
        return None
    here = pos.feet.get((act.space, "board" if on_board else "ground"), [])
    if here and not on_board and s.options.has(6):
        return None
    shape = KIND_SHAPE[act.kind]
    foot = statics.footprint(shape, statics.jutsu_position(act.space, shape, act.offset))
    if any(statics.overlaps(foot, f) for f in here):
        return None
    if on_board and any(statics.overlaps(foot, f) for f in pos.ninja_feet.get(act.space, ())):
        return None
    return card if on_board else -1


def _boarded(pos: Position, act: Action) -> int | None:
    """The card a board is laid over, or None if the rules refuse it there."""
    card = pos.at[act.space]
    if not pos.s.deck or card in pos.boards or card not in pos.grounded:
        return None
    return card


def _answer(pos: Position, act: Action, text: str, card: int) -> dict[str, Any]:
    """The preview dict as `play.preview` builds it from the one check (and the collapse it may bring)."""
    out = _plain(text)
    if card < 0:
        return out
    under, on_top = pos.lists.get(card, ((), ()))
    if act.verb == "place":
        point = statics.jutsu_position(act.space, KIND_SHAPE[act.kind], act.offset)
        on_top = (*on_top, (point, PHYSICS.jutsu_weight))
    _check(pos, out, card, under, on_top + pos.ninja_loads.get(card, ()))
    return out


def _check(pos: Position, out: dict[str, Any], card: int, under: tuple[tuple[str, statics.Point], ...],
           loads: tuple[tuple[statics.Point, float], ...]) -> bool:
    """`work.settle` as a preview reports it, added to ``out``; a fall is the collapse. True if it stands."""
    s = pos.s
    bal = statics.balance_of_tuples(pos.lay.centre(card), under, loads)
    stable = bal.stable  # a preview has steady hands: only statics can make it fall
    margin = None if bal.margin == float("-inf") else round(bal.margin, 4)
    if s.options.tension == "bands":
        band = band_of(s.options, margin) if margin is not None or not stable else None
        out["checks"].append({"card": card, "band": band, "stable": stable, "margin": None, "chance": None})
    else:
        chance = statics.collapse_chance(margin) if s.options.shaky_all and stable else 0.0
        out["checks"].append({"card": card, "margin": margin, "stable": stable, "chance": chance})
    if not stable:
        out["collapse"] = card
    return stable
