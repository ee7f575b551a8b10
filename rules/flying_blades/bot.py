"""The AI: a knapsack draft, then a greedy one-ply search with a static threat term, and for the best few
candidates a look-ahead at the worst reply of a hunter (the opponent in a 2-player game).

Scores are in ninjas. 3–5 players: the smallest margin of my (threat-discounted) ninjas over any other active
seat's, plus a little of the average margin. 2 players: prey captured minus the opponent's, plus the prey each
side can reach. A card costs its value (scaled by how full the board still is) so that it is not wasted.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import rng
from rules.flying_blades import draft, moves
from rules.flying_blades import notation as nt
from rules.flying_blades.board import CHAR_INDEX, CHARS, EMPTY, NINJAS, geometry, relations
from rules.flying_blades.notation import Action
from rules.flying_blades.score import scores
from rules.flying_blades.state import State

DRAFT_VALUE = {
    2: {"vanish": 0.8, "shuriken": 1.5, "double": 2.6, "triple": 3.6, "dragon": 1.5, "circle": 4.5,
        "bomb": 5.0},
    3: {"vanish": 0.8, "shuriken": 1.2, "double": 2.0, "triple": 2.8, "dragon": 2.6, "circle": 3.4,
        "bomb": 6.5},
}
PLAY_VALUE = {"vanish": 0.3, "shuriken": 0.5, "double": 1.0, "triple": 1.5, "dragon": 1.0, "circle": 1.2,
              "bomb": 2.0}
THREAT = 0.5  # the share of an exposed ninja counted as already lost
LOOKAHEAD = 6  # candidates that get the reply look-ahead
BOMB_TARGETS = 8
VANISH_TARGETS = 4
TIEBREAK_STREAM = 1_000_000


def choose_keep(hand: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The affordable keep of highest total value (ties: the first in enumeration order)."""
    values = DRAFT_VALUE[2 if players == 2 else 3]
    return max(draft.keeps(hand), key=lambda k: sum(values[c] for c in k))


Stats = tuple[list[int], list[int], list[int]]  # per colour: ninjas, ninjas exposed; per seat: prey reachable


class Evaluator:
    """Position statistics, full or incremental (only cells around a change are re-examined)."""

    def __init__(self, s: State, seat: int) -> None:
        self.s, self.seat = s, seat
        self.geo, self.rel = geometry(s.players), relations(s.players)
        self.nb = self.geo.neighbours
        self.hunt = {CHARS[c]: "".join(CHARS[h] for h in self.rel.hunter_seats(c) if not s.resigned[h])
                     for c in range(self.rel.colours)}
        self.others = [o for o in s.active() if o != seat]
        self.occupancy = max(0.2, sum(1 for ch in s.board if ch in CHARS) / (NINJAS * self.rel.colours))

    def _add(self, stats: Stats, board: str, changes: dict[int, str], i: int, sign: int) -> None:
        ch = changes.get(i, board[i]) if changes else board[i]
        if ch not in CHAR_INDEX:
            return
        cnt, att, opp = stats
        cnt[CHAR_INDEX[ch]] += sign
        hunters = self.hunt[ch]
        if not hunters:
            return
        around = [changes.get(n, board[n]) for n in self.nb[i]] if changes else [board[n] for n in self.nb[i]]
        hit = False
        for h in hunters:
            if h in around:
                opp[CHAR_INDEX[h]] += sign
                hit = True
        if hit:
            att[CHAR_INDEX[ch]] += sign

    def full(self, board: str) -> Stats:
        stats: Stats = ([0] * 5, [0] * 5, [0] * 5)
        for i in range(len(board)):
            self._add(stats, board, {}, i, 1)
        return stats

    def delta(self, board: str, stats: Stats, changes: dict[int, str]) -> Stats:
        out: Stats = (stats[0][:], stats[1][:], stats[2][:])
        cells = set(changes)
        for c in changes:
            cells.update(self.nb[c])
        for i in cells:
            self._add(out, board, {}, i, -1)
            self._add(out, board, changes, i, 1)
        return out

    def score(self, stats: Stats, captured: list[int]) -> float:
        cnt, att, opp = stats
        me = self.seat
        if self.s.players == 2:
            ot = 1 - me
            return captured[me] - captured[ot] + 0.35 * (opp[me] - opp[ot]) + 0.05 * (cnt[me] - cnt[ot])
        if not self.others:
            return float(cnt[me])
        eff = [cnt[c] - THREAT * att[c] for c in range(self.s.players)]
        margins = [eff[me] - eff[o] for o in self.others]
        return min(margins) + 0.25 * sum(margins) / len(margins) + 0.05 * opp[me]


@dataclass
class Candidate:
    action: Action
    changes: dict[int, str]
    gain: int  # prey captured
    card_cost: float
    stats: Stats | None = None
    value: float = 0.0


def _candidates(ctx: moves.Ctx, ev: Evaluator, hand: tuple[str, ...]) -> list[Action]:
    mine = moves.own_cells(ctx)
    out = moves.gen_attacks(ctx, mine)
    cards = set(hand)
    if "shuriken" in cards:
        out += list({a.cells[1]: a for a in moves.gen_shuriken(ctx, mine)}.values())
    for verb in ("double", "triple"):
        if verb in cards:
            out += moves.gen_kicks(ctx, verb, mine)
    if "dragon" in cards:
        out += moves.gen_dragons(ctx)
    if "circle" in cards:
        out += moves.gen_circles(ctx, mine)
    if "bomb" in cards:
        out += _bombs(ctx, mine)
    if "vanish" in cards:
        out += _vanishes(ctx, ev, mine)
    return out


def _bombs(ctx: moves.Ctx, mine: list[int]) -> list[Action]:
    thrower: dict[int, int] = {}
    for a in mine:
        for ray in ctx.geo.rays[a]:
            for b in ray:
                thrower.setdefault(b, a)
    hits = {b: len(moves.bomb_area(ctx, b)) for b in thrower}
    best = sorted((b for b in hits if hits[b]), key=lambda b: (-hits[b], b))[:BOMB_TARGETS]
    return [Action("bomb", (thrower[b], b)) for b in best]


def _vanishes(ctx: moves.Ctx, ev: Evaluator, mine: list[int]) -> list[Action]:
    board, nb = ctx.board, ctx.geo.neighbours
    danger = ev.hunt[ctx.own]

    def exposed(i: int) -> bool:
        if danger:
            return any(board[n] in danger for n in nb[i])
        return not any(board[n] in ctx.prey for n in nb[i])

    sources = [a for a in mine if exposed(a)][:VANISH_TARGETS]
    spots = [i for i, ch in enumerate(board) if ch == EMPTY and not any(board[n] in danger for n in nb[i])]
    spots.sort(key=lambda i: (-sum(1 for n in nb[i] if board[n] in ctx.prey), i))
    return [Action("vanish", (a, b)) for a in sources for b in spots[:VANISH_TARGETS]]


def _evaluate(c: Candidate, ev: Evaluator, board: str, base: Stats) -> None:
    captured = list(ev.s.captured)
    captured[ev.seat] += c.gain
    c.stats = ev.delta(board, base, c.changes) if c.changes else base
    c.value = ev.score(c.stats, captured) - c.card_cost


def _reply_value(c: Candidate, ev: Evaluator, board: str) -> float:
    """My score after the worst single attack by a hunter (2 players: by the opponent)."""
    assert c.stats is not None
    after = list(board)
    for cell, ch in c.changes.items():
        after[cell] = ch
    new_board = "".join(after)
    repliers = [1 - ev.seat] if ev.s.players == 2 else [h for h in ev.rel.hunter_seats(ev.seat)
                                                       if not ev.s.resigned[h]]
    worst = None
    captured = list(ev.s.captured)
    captured[ev.seat] += c.gain
    for h in repliers:
        hctx = moves.Ctx.of(ev.s, h, new_board)
        for a in moves.gen_attacks(hctx, moves.own_cells(hctx)):
            src, dst = a.cells
            stats = ev.delta(new_board, c.stats, {dst: new_board[src], src: EMPTY})
            cap = captured[:]
            cap[h] += 1
            value = ev.score(stats, cap) - c.card_cost
            worst = value if worst is None else min(worst, value)
    return c.value if worst is None else worst


def _pass_ends_game(s: State, seat: int) -> bool:
    return all(s.passed[i] or s.resigned[i] for i in range(s.players) if i != seat)


def _would_win(s: State, seat: int) -> bool:
    sc = scores(s)
    return all(sc[seat] >= sc[o] for o in s.active())


def choose(s: State, seat: int) -> str:
    if s.phase == "draft":
        return draft.keep_text(choose_keep(s.hands[seat], s.players))
    ctx = moves.Ctx.of(s, seat)
    ev = Evaluator(s, seat)
    base = ev.full(s.board)
    cands = [Candidate(Action("pass"), {}, 0, 0.0)]
    for act in _candidates(ctx, ev, s.hands[seat]):
        effect = moves.check(ctx, act)
        gain = sum(1 for r in effect.removed if s.board[r] in ctx.prey)
        cost = 0.0 if act.verb == "attack" else PLAY_VALUE[act.verb] * ev.occupancy
        cands.append(Candidate(act, effect.changes(s.board), gain, cost))
    for c in cands:
        _evaluate(c, ev, s.board, base)
    if _pass_ends_game(s, seat):
        cands[0].value = 1000.0 if _would_win(s, seat) else -1000.0
    r = rng.stream(s.seed, TIEBREAK_STREAM + s.turn)
    noise = {id(c): r.random() for c in cands}
    cands.sort(key=lambda c: (c.value, noise[id(c)]), reverse=True)
    top = cands[:LOOKAHEAD]
    final = {id(c): (c.value if abs(c.value) >= 1000 else _reply_value(c, ev, s.board)) for c in top}
    best = max(top, key=lambda c: (final[id(c)], c.value, noise[id(c)]))
    return "pass" if best.action.verb == "pass" else nt.text(best.action, ev.geo)
