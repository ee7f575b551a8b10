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

import itertools
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
from rules.floating_floors.state import Options, Piece, State
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
    tokens: list[int]  # per card: the token of everything on it (`_card_keys`)


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
    feet, piece_tokens, grounded = _pieces_part(s.pieces, at, lay.cards)
    on_card: list[list[tuple[Any, ...]]] = [[] for _ in range(lay.cards)]
    ninja_feet: dict[Space, list[Foot]] = {}
    ninja_loads: dict[int, list[tuple[statics.Point, float]]] = {}
    for q in s.seats:  # in seat order, as `work.balance_of` lists them
        if q.space is not None:
            ninja_feet.setdefault(q.space, []).append(statics.footprint(statics.NINJA, q.point))
            ninja_loads.setdefault(at[q.space], []).append((q.point, PHYSICS.ninja_weight))
            on_card[at[q.space]].append((q.seat, q.space, q.x, q.y, q.on))
    index = _indexed(s.pieces, at)
    for q in s.seats:  # a ninja standing on a Jutsu of another card (never in play) keys that card too
        stood = index[2].get(q.on) if q.on is not None else None
        if stood is not None and (q.space is None or at[q.space] != at[stood.space]):
            on_card[at[stood.space]].append((q.seat, "on", q.on))
    game = _game(s.options, s.cards, lay)
    boards = {b.card: (b.board, b.back, b.turns) for b in s.boards}
    tokens = [_token((game, card, boards.get(card), piece_tokens[card], tuple(ninjas)))
              for card, ninjas in enumerate(on_card)]
    entry = Position(s, lay, at, frozenset(boards), feet, ninja_feet,
                     {card: tuple(loads) for card, loads in ninja_loads.items()}, index[3], grounded,
                     _spaces(lay), _land(s.cards, lay), tokens)
    with _LOCK:  # build, then publish: a reader sees a whole entry or none
        _POSITIONS[id(s)] = entry
        while len(_POSITIONS) > _POSITIONS_SIZE:
            _POSITIONS.popitem(last=False)
    return entry


PiecesPart = tuple[dict[tuple[Space, str], list[Foot]], list[int], frozenset[int]]
_PIECES: OrderedDict[int, tuple[tuple[Piece, ...], dict[Space, int], PiecesPart]] = OrderedDict()


def _pieces_part(pieces: tuple[Piece, ...], at: dict[Space, int], cards: int) -> PiecesPart:
    """What a `Position` reads of the Jutsu alone — footprints per (space, level), per card the token of its Jutsu,
    the cards with a Jutsu on the ground — kept by the identity of the (immutable) pieces tuple, which the entry
    holds alive: a step or a claim leaves the pieces tuple as it was."""
    entry = _PIECES.get(id(pieces))
    if entry is not None and entry[0] is pieces and entry[1] is at:
        return entry[2]
    feet: dict[tuple[Space, str], list[Foot]] = {}
    on_card: list[list[tuple[Any, ...]]] = [[] for _ in range(cards)]
    for p in pieces:
        feet.setdefault((p.space, p.level), []).append(statics.footprint(KIND_SHAPE[p.kind], p.point))
        on_card[at[p.space]].append((p.id, p.kind, p.space, p.level, p.x, p.y))
    part = (feet, [_token(("jutsu", *things)) for things in on_card],
            frozenset(at[p.space] for p in pieces if p.level == "ground"))
    with _LOCK:
        _PIECES[id(pieces)] = (pieces, at, part)
        while len(_PIECES) > _POSITIONS_SIZE:
            _PIECES.popitem(last=False)
    return part


# A card's token names everything a quick answer about that card reads (`card_answer`, the legal placements):
# the game's options, map and layout, the card, its board, every Jutsu on it (id, kind, space, level, position:
# the token of their tuple) and every ninja on it (seat, space, position, the Jutsu it stands on). Equal keys get
# the same token; a token is never given to another key (the counter only grows), so an answer kept by token is
# an answer for those contents.
_TOKENS: OrderedDict[tuple[Any, ...], int] = OrderedDict()
_TOKENS_SIZE = 1024  # cards and card contents: a few turns of a few games (the bot's process: ~2,100 in 11,000 moves)
_COUNTER = itertools.count()


def _token(key: tuple[Any, ...]) -> int:
    token = _TOKENS.get(key)
    if token is None:
        with _LOCK:
            token = _TOKENS.setdefault(key, next(_COUNTER))
            while len(_TOKENS) > _TOKENS_SIZE:
                _TOKENS.popitem(last=False)
        return token
    # Least recently used goes first, not first made: a running game's key and its cards' are asked all the time,
    # and a new token for them would make every answer kept for them unusable.
    try:  # noqa: SIM105 (every token asked for goes here: a `with contextlib.suppress` costs 13× a `try`)
        _TOKENS.move_to_end(key)
    except KeyError:  # gone meanwhile (another thread's eviction): the token stays right
        pass
    return token


_GAMES: OrderedDict[tuple[int, int, int], tuple[Options, tuple[tuple[str, str], ...], Layout, int]] = OrderedDict()


def _game(options: Options, cards: tuple[tuple[str, str], ...], lay: Layout) -> int:
    """The token of a game's options, map and layout, found by the identity of those (immutable) values, which
    every state of a game shares (the entry holds them alive): hashing the options costs more than a lookup."""
    entry = _GAMES.get((id(options), id(cards), id(lay)))
    if entry is not None and entry[0] is options and entry[1] is cards and entry[2] is lay:
        return entry[3]
    token = _token(("game", options, cards, lay))
    with _LOCK:
        _GAMES[(id(options), id(cards), id(lay))] = (options, cards, lay, token)
        while len(_GAMES) > _POSITIONS_SIZE:
            _GAMES.popitem(last=False)
    return token


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
    return _one(s, position(s), seat, action) if _answerable(s, seat) else None


def previews(s: State, seat: int, actions: list[str]) -> list[dict[str, Any] | None]:
    """`preview` of each of ``actions`` (a select's options), the seat checked and the position found once: a
    turn's surface previews a few hundred options, and those checks cost a third of a kept answer."""
    if not _answerable(s, seat):
        return [None] * len(actions)
    pos = position(s)
    return [_one(s, pos, seat, action) for action in actions]


def _answerable(s: State, seat: int) -> bool:
    return s.phase in ("navigate", "acquire") and type(seat) is int and seat == s.current \
        and 0 <= seat < s.players and not s.seats[seat].out


def _one(s: State, pos: Position, seat: int, action: str) -> dict[str, Any] | None:
    if not isinstance(action, str) or "+" in action:
        return None
    try:
        act, text = _parsed(action)
    except Exception:  # a refusal: the generic path words it
        return None
    if act.verb == "take" and s.phase == "acquire":
        if act.kind not in s.to_take:
            return None
        if act.source == "pool":
            return _plain(text) if s.pool[JUTSU_KINDS.index(act.kind)] else None
        return _kept(pos, action, act, text) if act.space in pos.spaces else None
    if s.phase != "navigate" or act.space not in pos.spaces:
        return None
    if act.verb == "place" and act.nudge is None:
        return _kept(pos, action, act, text) if act.kind in s.seats[seat].hand else None
    if act.verb == "board":
        return _kept(pos, action, act, text) if s.deck else None
    if act.verb == "move" and act.nudge is None:
        return _step_kept(pos, seat, action, act, text)
    return None


# Answers by (action, token of the card it touches): what the last action did not touch keeps its answer from the
# state before. What a placement, board or take reads beyond its card (the hand, the deck, the Jutsu still to
# take, the pool) is checked by `preview` before it gets here; `card_answer` reads only the card's contents.
_ANSWERS: OrderedDict[tuple[Any, ...], dict[str, Any] | None] = OrderedDict()
_ANSWERS_SIZE = 4096  # answers: a long turn's previews (~2,400) and more; each a small dict the GC tracks


def _kept(pos: Position, action: str, act: Action, text: str) -> dict[str, Any] | None:
    return _remembered((action, pos.tokens[pos.at[act.space]]), lambda: card_answer(pos, act, text))


def _step_kept(pos: Position, seat: int, action: str, act: Action, text: str) -> dict[str, Any] | None:
    """`_stepped`, kept by what it reads: the stepping ninja (seat, colour, where it stands, whether the Master's
    steps are spent) and the tokens of the card it enters and the card it leaves (their boards, Jutsu and ninjas;
    the game's options in each). A placement elsewhere keeps every step's answer."""
    me = pos.s.seats[seat]
    options = pos.s.options
    spent = options.master == seat and options.master_steps and me.steps >= MASTER_STEPS
    left = pos.tokens[pos.at[me.space]] if me.space is not None else None
    entered = pos.tokens[pos.at[act.space]]
    key = ("step", action, seat, colour_of(me), me.alcove, me.space, spent, entered, left)
    return _remembered(key, lambda: _stepped(pos, seat, act, text))


def _remembered(key: tuple[Any, ...], answer_of: Any) -> dict[str, Any] | None:
    try:
        answer = _ANSWERS[key]
    except KeyError:
        answer = answer_of()
        with _LOCK:
            _ANSWERS[key] = answer
            while len(_ANSWERS) > _ANSWERS_SIZE:
                _ANSWERS.popitem(last=False)
    if answer is None:
        return None
    return {**answer, "checks": [dict(c) for c in answer["checks"]]}  # the caller's own copy


def card_answer(pos: Position, act: Action, text: str) -> dict[str, Any] | None:
    """The quick answer to a placement, a board or a take off the map, from the contents of its card alone (the
    preconditions on the hand, deck and Jutsu to take met)."""
    if act.verb == "take":
        return _taken(pos, act, text)
    card = _placed(pos, act) if act.verb == "place" else _boarded(pos, act)
    return None if card is None else _answer(pos, act, text, card)


@lru_cache(maxsize=512)  # a turn's previews name the same few hundred actions (97% hits in the soak)
def _parsed(action: str) -> tuple[Action, str]:
    act = nt.parse(action)
    return act, nt.text(act)


def _plain(text: str) -> dict[str, Any]:
    return {"action": text, "checks": [], "collapse": None, "claim": None, "win": False}


def _taken(pos: Position, act: Action, text: str) -> dict[str, Any] | None:
    """A take (`moves.take`): from the pool or off the ground nothing is checked; off or from under a board,
    that board is checked without the Jutsu (the lowest id of its kind there that no ninja stands on)."""
    s = pos.s
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


def _placed(pos: Position, act: Action) -> int | None:
    """The card whose board a placement loads (-1: on the ground, nothing to check), or None if it is refused or
    touches a piece (a nudge: the generic path moves it)."""
    s = pos.s
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
    if card in pos.boards or card not in pos.grounded:
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
