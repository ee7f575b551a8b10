"""The play-phase actions: checking one (with a precise reason when illegal), listing all, their effect."""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import IllegalActionError, Msg
from rules.flying_blades.board import (
    CHAR_INDEX,
    CHARS,
    EMPTY,
    Geometry,
    Relations,
    colour_msg,
    geometry,
    relations,
)
from rules.flying_blades.notation import CARD_VERBS, Action
from rules.flying_blades.state import State

KICK_LENGTH = {"double": 2, "triple": 3}


@dataclass(frozen=True)
class Effect:
    """What an action does: cells emptied, and optionally the acting ninja moving from ``frm`` to ``to``."""

    removed: tuple[int, ...]
    frm: int | None
    to: int | None
    moves: bool

    def changes(self, board: str) -> dict[int, str]:
        out = {c: EMPTY for c in self.removed}
        if self.moves and self.frm is not None and self.to is not None:
            out[self.to] = board[self.frm]
            out[self.frm] = EMPTY
        return out


@dataclass(frozen=True)
class Ctx:
    """Everything a legality check needs, precomputed once per (state, seat)."""

    board: str
    geo: Geometry
    rel: Relations
    seat: int
    own: str
    prey: str

    @classmethod
    def of(cls, s: State, seat: int, board: str | None = None) -> Ctx:
        rel = relations(s.players)
        return cls(board if board is not None else s.board, geometry(s.players), rel, seat, CHARS[seat],
                   rel.prey_chars(seat))

    def name(self, cell: int) -> str:
        return self.geo.cell(cell)

    def prey_msg(self) -> Msg:
        cols = [colour_msg(CHAR_INDEX[c]) for c in self.prey]
        return cols[0] if len(cols) == 1 else Msg("fb.and", a=cols[0], b=cols[1])


def _fail(key: str, **params: object) -> IllegalActionError:
    return IllegalActionError(key, **params)


def _need_own(ctx: Ctx, cell: int) -> None:
    if ctx.board[cell] != ctx.own:
        raise _fail("fb.not_own", cell=ctx.name(cell), colour=colour_msg(ctx.seat))


def _need_prey(ctx: Ctx, cell: int) -> None:
    ch = ctx.board[cell]
    if ch == EMPTY:
        raise _fail("fb.empty_target", cell=ctx.name(cell))
    if ch not in ctx.prey:
        raise _fail("fb.not_prey", cell=ctx.name(cell), target=colour_msg(CHAR_INDEX[ch]),
                    colour=colour_msg(ctx.seat), prey=ctx.prey_msg())


def _line(ctx: Ctx, a: int, b: int) -> tuple[int, ...]:
    if a == b:
        raise _fail("fb.same_cell", cell=ctx.name(a))
    between = ctx.geo.line_between(a, b)
    if between is None:
        raise _fail("fb.not_straight", frm=ctx.name(a), to=ctx.name(b))
    return between


def check_attack(ctx: Ctx, a: int, b: int) -> Effect:
    _need_own(ctx, a)
    if b not in ctx.geo.neighbours[a]:
        raise _fail("fb.not_adjacent", frm=ctx.name(a), to=ctx.name(b))
    _need_prey(ctx, b)
    return Effect((b,), a, b, True)


def check_vanish(ctx: Ctx, a: int, b: int) -> Effect:
    _need_own(ctx, a)
    if a == b:
        raise _fail("fb.same_cell", cell=ctx.name(a))
    if ctx.board[b] != EMPTY:
        raise _fail("fb.not_empty", cell=ctx.name(b))
    return Effect((), a, b, True)


def check_shuriken(ctx: Ctx, a: int, b: int) -> Effect:
    _need_own(ctx, a)
    for c in _line(ctx, a, b):
        if ctx.board[c] != EMPTY:
            raise _fail("fb.shuriken_blocked", cell=ctx.name(c), to=ctx.name(b))
    _need_prey(ctx, b)
    return Effect((b,), a, b, False)


def check_kick(ctx: Ctx, verb: str, a: int, b: int) -> Effect:
    _need_own(ctx, a)
    between = _line(ctx, a, b)
    length = KICK_LENGTH[verb]
    if len(between) + 1 != length:
        raise _fail("fb.kick_distance", card=Msg(f"fb.card.{verb}"), count=length)
    hit = (*between, b)
    for c in hit:
        if ctx.board[c] == EMPTY:
            raise _fail("fb.kick_empty", cell=ctx.name(c), card=Msg(f"fb.card.{verb}"))
        _need_prey(ctx, c)
    return Effect(hit, a, b, True)


def check_dragon(ctx: Ctx, target: int, frm: int) -> Effect:
    ch = ctx.board[target]
    if ch == EMPTY:
        raise _fail("fb.empty_target", cell=ctx.name(target))
    if ch == ctx.own:
        raise _fail("fb.dragon_own", cell=ctx.name(target))
    if ch in ctx.prey:
        raise _fail("fb.dragon_prey", cell=ctx.name(target))
    _need_own(ctx, frm)
    if frm not in ctx.geo.neighbours[target]:
        raise _fail("fb.not_adjacent", frm=ctx.name(frm), to=ctx.name(target))
    support = sum(1 for n in ctx.geo.neighbours[target] if ctx.board[n] == ctx.own)
    if support < 2:
        raise _fail("fb.dragon_support", cell=ctx.name(target), count=support)
    return Effect((target,), frm, target, True)


def check_circle(ctx: Ctx, a: int) -> Effect:
    _need_own(ctx, a)
    hit = tuple(c for c in ctx.geo.ring[a] if ctx.board[c] in ctx.prey)
    if not hit:
        raise _fail("fb.circle_nothing", cell=ctx.name(a))
    return Effect(hit, a, None, False)


def bomb_area(ctx: Ctx, b: int) -> tuple[int, ...]:
    """The non-own ninjas in the 3×3 area centred on b (warded cells never hold ninjas)."""
    return tuple(sorted(c for c in (b, *ctx.geo.ring[b]) if ctx.board[c] not in (EMPTY, ctx.own)))


def check_bomb(ctx: Ctx, a: int, b: int) -> Effect:
    _need_own(ctx, a)
    _line(ctx, a, b)
    hit = bomb_area(ctx, b)
    if not hit:
        raise _fail("fb.bomb_nothing", cell=ctx.name(b))
    return Effect(hit, a, b, False)


def check(ctx: Ctx, action: Action) -> Effect:
    """The effect of a play action, or IllegalActionError (the card in hand is checked by the caller)."""
    verb, cells = action.verb, action.cells
    if verb == "attack":
        return check_attack(ctx, *cells)
    if verb == "vanish":
        return check_vanish(ctx, *cells)
    if verb == "shuriken":
        return check_shuriken(ctx, *cells)
    if verb in KICK_LENGTH:
        return check_kick(ctx, verb, *cells)
    if verb == "dragon":
        return check_dragon(ctx, *cells)
    if verb == "circle":
        return check_circle(ctx, *cells)
    return check_bomb(ctx, *cells)


# --- listing every legal action ----------------------------------------------------------------------------


def own_cells(ctx: Ctx) -> list[int]:
    board, own = ctx.board, ctx.own
    return [i for i, ch in enumerate(board) if ch == own]


def gen_attacks(ctx: Ctx, mine: list[int]) -> list[Action]:
    board, prey, nb = ctx.board, ctx.prey, ctx.geo.neighbours
    return [Action("attack", (a, b)) for a in mine for b in nb[a] if board[b] in prey]


def gen_vanish(ctx: Ctx, mine: list[int]) -> list[Action]:
    empty = [i for i, ch in enumerate(ctx.board) if ch == EMPTY]
    return [Action("vanish", (a, b)) for a in mine for b in empty]


def gen_shuriken(ctx: Ctx, mine: list[int]) -> list[Action]:
    out, board, prey = [], ctx.board, ctx.prey
    for a in mine:
        for ray in ctx.geo.rays[a]:
            for c in ray:
                if board[c] != EMPTY:
                    if board[c] in prey:
                        out.append(Action("shuriken", (a, c)))
                    break
    return out


def gen_kicks(ctx: Ctx, verb: str, mine: list[int]) -> list[Action]:
    length, board, prey = KICK_LENGTH[verb], ctx.board, ctx.prey
    return [Action(verb, (a, ray[length - 1])) for a in mine for ray in ctx.geo.rays[a]
            if len(ray) >= length and all(board[c] in prey for c in ray[:length])]


def gen_dragons(ctx: Ctx) -> list[Action]:
    out, board, own, prey = [], ctx.board, ctx.own, ctx.prey
    for t, ch in enumerate(board):
        if ch in (EMPTY, own, "#") or ch in prey:
            continue
        support = [n for n in ctx.geo.neighbours[t] if board[n] == own]
        if len(support) >= 2:
            out.extend(Action("dragon", (t, f)) for f in support)
    return out


def gen_circles(ctx: Ctx, mine: list[int]) -> list[Action]:
    board, prey, ring = ctx.board, ctx.prey, ctx.geo.ring
    return [Action("circle", (a,)) for a in mine if any(board[c] in prey for c in ring[a])]


def bomb_targets(ctx: Ctx) -> set[int]:
    """Cells whose 3×3 area holds a non-own ninja."""
    board, own, ring = ctx.board, ctx.own, ctx.geo.ring
    return {b for b in range(len(board)) if board[b] != "#"
            and any(board[c] not in (EMPTY, own) for c in (b, *ring[b]))}


def gen_bombs(ctx: Ctx, mine: list[int]) -> list[Action]:
    targets = bomb_targets(ctx)
    return [Action("bomb", (a, b)) for a in mine for ray in ctx.geo.rays[a] for b in ray if b in targets]


def generate(ctx: Ctx, hand: tuple[str, ...]) -> list[Action]:
    """Every legal play action except pass and resign."""
    mine = own_cells(ctx)
    out = gen_attacks(ctx, mine)
    cards = set(hand)
    gens = {
        "vanish": lambda: gen_vanish(ctx, mine), "shuriken": lambda: gen_shuriken(ctx, mine),
        "double": lambda: gen_kicks(ctx, "double", mine), "triple": lambda: gen_kicks(ctx, "triple", mine),
        "dragon": lambda: gen_dragons(ctx), "circle": lambda: gen_circles(ctx, mine),
        "bomb": lambda: gen_bombs(ctx, mine),
    }
    for verb in CARD_VERBS:
        if verb in cards:
            out.extend(gens[verb]())
    return out
