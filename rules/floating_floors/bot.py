"""The Floating Floors bot: plans a path to its nearest Bansen and keeps that path standing.

The plan, one action per call (the bot keeps no memory; every call plans again from the state):

- **Path.** A Dijkstra search over map spaces from the ninja (or its Chakra) to the space next to an alcove
  holding one of its claimable Bansen. A step costs 1; a board space of the wrong colour without a free stepping
  stone costs ``STONE`` more (impassable-ish when the hand holds none of the ninja's colour); a step that the
  statics say would tip the board costs ``FALL``; entering a card with no board costs ``BUILD`` and each of its
  spaces ``UNBUILT`` (plus ``DEFICIT`` if its supports would not yet hold the ninja there with ``SAFE`` margin);
  a target whose claim rotation would tip costs ``CLAIM_FIX``; a space another ninja stands on ``OCCUPIED``.
- **Navigate.** Claim when the simulated rotation stands; otherwise add the counterweight that makes it stand.
  Else look at the first step of the path: a card with no board gets supports (greedily, the placement that
  raises the worst margin over the planned loads most: the board alone, the ninja on each path space of the card
  and the claim rotation), then the board in the side and rotation whose simulated result stands and gives the
  cheapest path; a wrong-coloured space gets a stepping stone of the ninja's colour; a step that would tip gets
  a counterweight first (every candidate is tried with ``FloatingFloors().apply`` and the step after it). The
  plan is probed along its plain moves; a space the bot cannot enter now is blocked and the plan made again
  (``DETOURS``); failing that it walks as far as its best plan goes. Before ``end``, Jutsu that the end of the
  turn would return to the pool are spent on stones and supports further on; a ninja stuck on another player's
  claim space steps off it (two stuck ninjas could each stand on the other's space for ever).
- **Shaky hands.** The bot judges by the statics on a steady copy of the state (never by the seeded chance of
  a fall: its trials draw nothing from the seed); with shaky claims it first adds a counterweight when the
  claim's margin is under ``shaky_below``.
- **Bands** (``tension=bands``). Every position is public, as on a table, so the bot still measures the
  geometry (a player judges it by eye: how far a board is from tipping, what a support adds), but it never
  tells one shaky placement from another: every margin in the shaky band reads as one value (`sense`), so it
  cannot pick the least risky shaky move that a player, shown only "shaky", cannot tell apart.
- **Shaky boards** (``tension=bands``, or shaky hands for everything: every shaky check may fall). The bot weighs
  the band a player sees: a path step onto a board it would leave shaky costs ``SHAKY`` more, so it takes a safe
  route unless the shaky one is more than that shorter; a shaky step on its path first gets a counterweight from
  Jutsu the end of the turn would return anyway, if one makes it safe; and every placement it weighs (`worth`)
  loses ``SHAKY_PENALTY`` per shaky check, so any safe result outranks any shaky one. Boards laid and Jutsu taken
  count their shaky checks the same way.
- **Combos** (the rulebook's "multiple actions at the same time"). A counterweight is searched among single
  placements, then the best ``COMBO_FROM`` of them each extended by a second Jutsu laid at once (bounded: never
  the full product); a pair is chosen only when it scores strictly better — it may stand where either alone
  tips. Before a step (and a stepping stone before the step onto it) the placements and the step go as one
  action when that scores better: one check instead of two. A combo that would fall is never played.
- **Acquire.** Pool first; otherwise the source that leaves the bot's path cheapest and collapses nothing.
- **Chakra**: the middle alcove of its side (the Bansen are placed only after every Chakra, so nothing better
  is known yet).
- **Hide** (Challenge 1): each opponent's Bansen in the free alcove farthest from its owner's Chakra.
- **Safety.** Nothing that collapses a board is chosen while a safe alternative exists, and every action is
  tried with ``apply`` before it is returned (``end`` or the first legal action otherwise).

Measured with ``tools/floating_floors_sim.py --games 50`` (steady hands, no Challenges; seeds ffsim-P-i), every
game won, no collapse at all (the bot never tips a board in steady hands):

    players  win shares by seat    avg turns  longest  ms/action  ms/turn  slowest turn
       2     68% 32%                  10.6       16       4.9       63       290 ms
       3     56% 26% 18%              14.7       20       7.2       94       483 ms
       4     28% 44% 16% 12%          12.1       18       7.3      100       536 ms

The first seat's edge at 2–3 players comes from the race (about 5–7 turns each) and the set-up: the Bansen are
placed clockwise from the alcove next to the first player's Chakra, the first player's first.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field, replace
from functools import cached_property

from rules.base import Event, RulesError
from rules.floating_floors import statics
from rules.floating_floors.components import BANSEN_BY_ID, KIND_COLOUR, KIND_SHAPE, PHYSICS, WALKS_ON
from rules.floating_floors.layout import Layout, Space, name
from rules.floating_floors.moves import default_chakra
from rules.floating_floors.play import legal_actions, play
from rules.floating_floors.state import Player, State
from rules.floating_floors.work import colour_at, colour_of, is_land, shaky_below

STEP, STONE, NO_STONE, FALL, UNBUILT, BUILD, DEFICIT, CLAIM_FIX = 1.0, 2.0, 6.0, 3.0, 1.0, 4.0, 0.5, 2.0
OCCUPIED = 8.0  # another ninja stands there: it may move away
SHAKY = 1.5  # path cost of a step onto a board left shaky: it may fall, and a fall loses the rest of the turn
SHAKY_PENALTY = 0.2  # per shaky check, in margin units: any safe result outranks any shaky one
COMBO_FROM = 3  # the best single placements extended by a second one (a bounded search, not every pair)
EPS = 0.005  # a margin gain smaller than this is no gain
SAFE = 0.15  # the margin the bot wants under its planned loads
CAP = 0.4  # margins above this are all "safe enough" when comparing supports
MAX_STEPS_A_TURN = 20  # a guard against walking back and forth
DETOURS = 3  # plans tried around spaces the bot cannot enter
KEEP = 3
INF = float("inf")
SHAKY_CHALLENGES = (2, 8)  # they only make hands shaky

Point = tuple[float, float]


# --- simulation ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trial:
    """An action tried on a state: the state after it, whether anything fell, the smallest margin checked."""

    action: str
    after: State
    fell: bool
    margin: float
    shaky: int = 0  # checks that stood in the shaky band (each may fall when shaky checks are drawn)


def attempt(s: State, seat: int, action: str) -> Trial | None:
    """Apply ``action``; None if the rules refuse it."""
    try:
        after, events = play(_exact(s), seat, action, draws=False)
    except RulesError:
        return None
    return Trial(action, replace(after, options=s.options), _fell(events), sense(_min_margin(events), s),
                 _shaky_checks(events, s))


def _exact(s: State) -> State:
    """The bot's eye on the geometry (see `sense`): the same state with exact margins in its trials."""
    return s if s.options.tension == "exact" else replace(s, options=replace(s.options, tension="exact"))


def sense(margin: float, s: State) -> float:
    """A margin as the bot may use it: with ``tension=bands`` the whole shaky band reads as its middle."""
    if s.options.tension != "bands" or not PHYSICS.min_margin <= margin < statics.BAND_SHAKY_BELOW:
        return margin
    return (PHYSICS.min_margin + statics.BAND_SHAKY_BELOW) / 2


def _fell(events: list[Event]) -> bool:
    return any(e.kind == "collapse" for e in events)


def _shaky_checks(events: list[Event], s: State) -> int:
    """The checks a player would see called shaky (the band, or the shaky-hands zone with exact margins)."""
    edge = shaky_below(s.options)
    return sum(e.data["margin"] is not None and PHYSICS.min_margin <= e.data["margin"] < edge
               for e in events if e.kind == "check")


def _min_margin(events: list[Event]) -> float:
    margins = [e.data["margin"] for e in events if e.kind == "check"]
    return min((-INF if m is None else m for m in margins), default=INF)


def then(trial: Trial | None, seat: int, action: str) -> Trial | None:
    """Try ``action`` after ``trial`` (same turn only); the margin is the smaller of the two."""
    if trial is None or trial.fell or trial.after.current != seat or trial.after.phase != "navigate":
        return None
    nxt = attempt(trial.after, seat, action)
    if nxt is None:
        return None
    return Trial(trial.action, nxt.after, nxt.fell, min(trial.margin, nxt.margin), trial.shaky + nxt.shaky)


def worth(trial: Trial, wary: bool) -> float:
    """How good the checks of a trial are, higher better: the smallest margin (capped: far from tipping is
    enough), less ``SHAKY_PENALTY`` per shaky check when shaky checks may fall (``wary``); a fall is worst."""
    if trial.fell:
        return max(trial.margin, -3.0) - 1.0
    return min(trial.margin, CAP) - (SHAKY_PENALTY * trial.shaky if wary else 0.0)


# --- the position as the bot sees it -------------------------------------------------------------------------


@dataclass
class Plan:
    cost: float
    path: list[Space]  # spaces to enter, in order (the first is the next step)
    target: Space


@dataclass
class Ctx:
    """One state seen by one seat, with the per-card supports and loads computed once."""

    s: State
    seat: int
    exclude: frozenset[Space] = frozenset()  # targets given up for now
    blocked: frozenset[Space] = frozenset()  # spaces the bot found it cannot enter now
    careful: bool = False  # shaky hands for claims: steady the claim first when its margin is thin
    wary: bool = False  # every shaky check may fall (bands, shaky hands for all): shaky boards cost more
    _cards: dict[int, tuple[list, list]] = field(default_factory=dict)
    _nodes: dict[Space, float] = field(default_factory=dict)

    @cached_property
    def me(self) -> Player:
        return self.s.seats[self.seat]

    @cached_property
    def lay(self) -> Layout:
        return self.s.layout

    @cached_property
    def boards(self) -> dict:
        return {b.card: b for b in self.s.boards}

    @cached_property
    def colour(self) -> str:
        return colour_of(self.me)

    @cached_property
    def jutsu(self) -> str:
        return WALKS_ON[self.colour]

    @cached_property
    def others(self) -> set[Space]:
        return {q.space for q in self.s.seats if q.seat != self.seat and q.space is not None}

    @cached_property
    def own_in_hand(self) -> int:
        return sum(KIND_COLOUR[k] == self.jutsu for k in self.me.hand)

    def card(self, space: Space) -> int:
        return self.lay.card_of(space)

    def parts(self, card: int) -> tuple[list, list]:
        """(supports, loads without this seat's ninja) of ``card``."""
        if card not in self._cards:
            lay, s = self.lay, self.s
            sup = [(KIND_SHAPE[p.kind], p.point) for p in s.pieces
                   if p.level == "ground" and lay.card_of(p.space) == card]
            loads = [(p.point, PHYSICS.jutsu_weight) for p in s.pieces
                     if p.level == "board" and lay.card_of(p.space) == card]
            loads += [(q.point, PHYSICS.ninja_weight) for q in s.seats
                      if q.seat != self.seat and q.space is not None and lay.card_of(q.space) == card]
            self._cards[card] = (sup, loads)
        return self._cards[card]

    def margin(self, card: int, point: Point | None, quarter: int = 0) -> float:
        """The card's margin with this seat's ninja at ``point`` (None: off the card), loads turned ``quarter``."""
        sup, loads = self.parts(card)
        loads = loads + ([(point, PHYSICS.ninja_weight)] if point is not None else [])
        centre = self.lay.centre(card)
        if quarter:
            loads = [(statics.rotate(pt, centre, quarter), w) for pt, w in loads]
        return sense(statics.balance(centre, sup, loads).margin, self.s)

    def stone(self, space: Space) -> Point | None:
        """Where the ninja would stand on ``space`` of a board: its centre if the colour is right, or a free
        stepping stone of its colour; None if it needs a stone."""
        board = self.boards[self.card(space)]
        if colour_at(board, self.lay, space) == self.colour:
            return (space[0] + 0.5, space[1] + 0.5)
        stood = {q.on for q in self.s.seats if q.seat != self.seat}
        for p in self.s.pieces:
            if p.space == space and p.level == "board" and KIND_COLOUR[p.kind] == self.jutsu and p.id not in stood:
                return p.point
        return None

    @cached_property
    def claimable(self) -> set[str]:
        me = self.me
        left = [b for b in me.bansen if b not in me.claimed and b not in me.used]
        if left and (self.s.options.has(1) or (self.s.options.master == self.seat and self.s.options.master_order)):
            left = [min(left, key=lambda b: BANSEN_BY_ID[b].number)]
        return set(left)

    @cached_property
    def targets(self) -> dict[Space, str]:
        out = {}
        for a in self.lay.alcoves:
            bansen = self.s.alcoves[a.index]
            if bansen in self.claimable and a.space not in self.exclude:
                out[a.space] = bansen
        return out

    # --- costs -----------------------------------------------------------------------------------------------

    def enter_cost(self, space: Space, came_from: Space | None) -> float:
        cost = self.node_cost(space)
        if self.card(space) not in self.boards and (came_from is None or self.card(came_from) != self.card(space)):
            cost += BUILD
        return cost

    def node_cost(self, space: Space) -> float:
        if space not in self._nodes:
            self._nodes[space] = self._node_cost(space)
        return self._nodes[space]

    def _node_cost(self, space: Space) -> float:
        if space in self.blocked:
            return INF
        if space in self.others:
            return OCCUPIED
        card = self.card(space)
        if card not in self.boards:
            cost = STEP + UNBUILT
            if self.margin(card, (space[0] + 0.5, space[1] + 0.5)) < SAFE:
                cost += DEFICIT
            return cost
        point = self.stone(space)
        cost = STEP
        if point is None:
            cost += STONE if self.own_in_hand else NO_STONE
            point = (space[0] + 0.5, space[1] + 0.5)
        margin = self.margin(card, point)
        if margin < PHYSICS.min_margin:
            cost += FALL
        elif self.wary and margin < shaky_below(self.s.options):
            cost += SHAKY
        return cost

    def claim_cost(self, space: Space) -> float:
        card = self.card(space)
        if card not in self.boards:
            return 0.0
        point = self.stone(space) or (space[0] + 0.5, space[1] + 0.5)
        quarter = BANSEN_BY_ID[self.targets[space]].quarter_turns_cw
        return CLAIM_FIX if self.margin(card, point, quarter) < SAFE else 0.0

    def plan(self) -> Plan | None:
        """The cheapest path to a claimable Bansen's space (Dijkstra), or None."""
        if not self.targets:
            return None
        me = self.me
        if me.alcove is not None:
            starts = [(self.lay.alcoves[me.alcove].space, None)]
        elif me.space is not None:
            if me.space in self.targets:
                return Plan(self.claim_cost(me.space), [], me.space)
            starts = [(sp, me.space) for sp in self.lay.neighbours(me.space)]
        else:
            return None
        return self._search(starts)

    def _search(self, starts: list[tuple[Space, Space | None]]) -> Plan | None:
        best: dict[Space, float] = {}
        back: dict[Space, Space | None] = {}
        heap: list[tuple[float, int, Space, Space | None]] = []
        tie = itertools.count()
        for sp, came in starts:
            heapq.heappush(heap, (self.enter_cost(sp, came), next(tie), sp, None))
        done: set[Space] = set()
        finish: Plan | None = None
        while heap:
            cost, _, sp, prev = heapq.heappop(heap)
            if sp in done or cost == INF:
                continue
            done.add(sp)
            back[sp] = prev
            best[sp] = cost
            if sp in self.targets:
                total = cost + self.claim_cost(sp)
                if finish is None or total < finish.cost:
                    finish = Plan(total, self._path(back, sp), sp)
            if finish is not None and cost >= finish.cost:
                break
            for nb in self.lay.neighbours(sp):
                if nb not in done:
                    heapq.heappush(heap, (cost + self.enter_cost(nb, sp), next(tie), nb, sp))
        return finish

    @staticmethod
    def _path(back: dict[Space, Space | None], end: Space) -> list[Space]:
        out = [end]
        while back[out[-1]] is not None:
            out.append(back[out[-1]])
        return out[::-1]


def plan_cost(s: State, seat: int) -> float:
    plan = Ctx(s, seat).plan()
    return INF if plan is None else plan.cost


# --- entry point ---------------------------------------------------------------------------------------------


def choose(s: State, seat: int) -> str:
    """The bot's next action for ``seat``: always one the rules accept now."""
    sim = steady(s)
    if s.phase == "chakra":
        action = default_chakra(s, seat)  # the middle of its side: the Bansen are not out yet
    elif s.phase == "hide":
        action = hide_choice(sim, seat)
    elif s.phase == "reset":
        action = "reset"
    elif s.phase == "acquire":
        action = take_choice(sim, seat, wary=s.options.shaky_all)
    else:
        action = navigate(Ctx(sim, seat, careful=s.options.shaky_claims, wary=s.options.shaky_all))
    if attempt(s, seat, action) is not None:
        return action
    legal = legal_actions(s, seat)
    return "end" if "end" in legal else legal[0]


def steady(s: State) -> State:
    """The state with steady hands: the bot judges by the statics, never by the seeded chance of a fall."""
    if not (s.options.shaky_all or s.options.shaky_claims):
        return s
    challenges = tuple(n for n in s.options.challenges if n not in SHAKY_CHALLENGES)
    return replace(s, options=replace(s.options, shaky="off", challenges=challenges))


# --- set-up and acquiring ------------------------------------------------------------------------------------


def hide_choice(s: State, seat: int) -> str:
    """Challenge 1: the Bansen goes to the free alcove farthest from its owner's Chakra."""
    lay = s.layout

    def score(action: str) -> tuple[int, str]:
        _, bansen, where = action.split()
        owner = next(q for q in s.seats if bansen in q.bansen)
        home = lay.alcoves[owner.home].space
        target = next(a.space for a in lay.alcoves if name(a.space) == where)
        return (abs(home[0] - target[0]) + abs(home[1] - target[1]), action)

    return max(legal_actions(s, seat), key=score)


def take_choice(s: State, seat: int, wary: bool = False) -> str:
    """Pool first; else the source that keeps the bot's path cheapest and collapses nothing."""
    legal = legal_actions(s, seat)
    pool = [a for a in legal if a.endswith(" pool")]
    if pool:
        return _best_pool(s, seat, pool)
    scored = []
    for action in legal:
        trial = attempt(s, seat, action)
        if trial is None:
            continue
        cost = plan_cost(trial.after, seat) + (SHAKY * trial.shaky if wary else 0.0) if not trial.fell else INF
        scored.append((trial.fell, cost, -trial.margin, action))
    return min(scored)[3] if scored else legal[0]


def _best_pool(s: State, seat: int, pool: list[str]) -> str:
    """Every die is taken anyway: the bot's colour first, then by name (deterministic)."""
    mine = WALKS_ON[colour_of(s.seats[seat])]
    return min(pool, key=lambda a: (KIND_COLOUR[a.split()[1]] != mine, a))


# --- navigating ----------------------------------------------------------------------------------------------


def navigate(c: Ctx) -> str:
    me, seat = c.me, c.seat
    if me.space is not None and me.space in c.targets:
        claim = attempt(c.s, seat, "claim")
        if claim is not None and not claim.fell:
            if c.careful and claim.margin < shaky_below(c.s.options):
                return counterweight(c, "claim", me.space) or "claim"
            return "claim"
        fix = counterweight(c, "claim", me.space)
        if fix is not None:
            return fix
        return spare(c, c.plan()) or "end"  # new Jutsu next turn
    return route(c) or spare(c, c.plan()) or step_aside(c) or fallback(c, c.plan())


def route(c: Ctx) -> str | None:
    """The first action of the best plan that can be carried out; a space where it cannot (probed after the
    plain moves before it) is blocked and the plan made again, up to ``DETOURS`` times. Failing every detour,
    the bot still goes as far as it can along its best plan (never along a detour: that could walk it back
    and forth)."""
    if c.me.steps >= MAX_STEPS_A_TURN:
        return None
    closer = None
    for detour in range(DETOURS):
        plan = c.plan()
        if plan is None or not plan.path:
            break
        action, stuck = probe(c, plan)
        if stuck is None:
            return action
        if detour == 0:
            closer = action
        c = replace(c, blocked=c.blocked | {stuck}, _nodes={})
    return closer


def probe(c: Ctx, plan: Plan) -> tuple[str | None, Space | None]:
    """(the plan's first action, the first space on it the bot cannot enter now), walking the plain moves."""
    s, first = c.s, None
    for i, space in enumerate(plan.path):
        here = replace(c, s=s, _cards={}, _nodes={})
        action = advance(here, Plan(plan.cost, plan.path[i:], plan.target))
        if action is None:
            return first, space
        first = first or action
        if action != f"move {name(space)}":
            return first, None
        step = attempt(s, c.seat, action)
        if step is None:
            return first, space
        s = step.after
    return first, None


def advance(c: Ctx, plan: Plan) -> str | None:
    nxt = plan.path[0]
    if nxt in c.others:
        return None
    card = c.card(nxt)
    if card not in c.boards:
        return build(c, card, plan, spare_only=False)
    if c.stone(nxt) is None:
        return stepping_stone(c, nxt)
    move = attempt(c.s, c.seat, f"move {name(nxt)}")
    stands = move is not None and not move.fell
    if stands and not (c.wary and move.shaky):
        return move.action
    # a step that tips gets any counterweight; a shaky one only Jutsu the end of the turn would return anyway
    fix = counterweight(c, f"move {name(nxt)}", nxt, spare_only=stands)
    return fix or (move.action if stands else None)


def step_aside(c: Ctx) -> str | None:
    """Stuck on the space next to another player's Bansen: step off it (two stuck ninjas may each stand on the
    other's space)."""
    me = c.me
    if me.space is None or me.steps >= MAX_STEPS_A_TURN:
        return None
    theirs = {a.space for a in c.lay.alcoves if c.s.alcoves[a.index] is not None} - set(c.targets)
    if me.space not in theirs:
        return None
    options = []
    for sp in c.lay.neighbours(me.space):
        if sp in theirs:
            continue
        trial = attempt(c.s, c.seat, f"move {name(sp)}")
        if trial is not None and not trial.fell:
            options.append((plan_cost(trial.after, c.seat), -trial.margin, trial.action))
    return min(options)[2] if options else None


def fallback(c: Ctx, plan: Plan | None) -> str:
    """Stuck: Challenge 4 lets a spent Bansen turn the board if that makes the path cheaper."""
    if c.s.options.has(4) and plan is not None:
        for b in c.me.claimed:
            trial = attempt(c.s, c.seat, f"use {b}")
            if trial is not None and not trial.fell and plan_cost(trial.after, c.seat) < plan.cost - 1:
                return trial.action
    return "end"


# --- pieces to place -----------------------------------------------------------------------------------------


def spendable(c: Ctx, spare_only: bool) -> list[str]:
    """The kinds to try, one per shape: off-colour first (the end of the turn would return them). With
    ``spare_only``, only Jutsu the end of the turn would return anyway."""
    hand = list(c.me.hand)
    own = [k for k in hand if KIND_COLOUR[k] == c.jutsu]
    off = [k for k in hand if KIND_COLOUR[k] != c.jutsu]
    spare = off + own[KEEP:] if spare_only else off + own
    out: dict[str, str] = {}
    for k in spare:
        out.setdefault(KIND_SHAPE[k], k)
    return list(out.values())


def outward(c: Ctx, space: Space) -> str:
    """The offset pointing from the card's centre out through ``space``."""
    cx, cy = c.lay.centre(c.card(space))
    dx = (space[0] + 0.5 > cx + 0.25) - (space[0] + 0.5 < cx - 0.25)
    dy = (space[1] + 0.5 > cy + 0.25) - (space[1] + 0.5 < cy - 0.25)
    return statics.OFFSET_OF[(dx, dy)]


def offsets(c: Ctx, space: Space) -> list[str]:
    """Outward first, then the centre, then the rest (a crowded space may have room only in a corner)."""
    return list(dict.fromkeys((outward(c, space), "c", *statics.OFFSETS)))


def place_text(kind: str, space: Space, offset: str) -> str:
    return f"place {kind} {name(space)}" + ("" if offset == "c" else f" {offset}")


def counterweight(c: Ctx, action: str, space: Space, spare_only: bool = False) -> str | None:
    """Placements on ``space``'s card after which ``action`` stands best (by `worth`); failing that, the ones that
    raise it most (another Jutsu may finish the job). Every single placement is tried; the best ``COMBO_FROM`` are
    extended by a second one laid at the same time, which is chosen only when strictly better (a pair may stand
    where either alone tips: the rulebook's "placing multiple Jutsu at once"). A step joins its placements as
    one action when that scores better: one check instead of two."""
    card = c.card(space)
    kinds = spendable(c, spare_only)
    if not kinds:
        return None
    heed = c.wary or (action == "claim" and c.careful)
    singles = [found for kind, sp in itertools.product(kinds, c.lay.spaces(card)) for offset in offsets(c, sp)
               if (found := _before(c, [place_text(kind, sp, offset)], action, heed)) is not None]
    if not singles:
        return None
    best = max(singles, key=lambda f: f[0])  # the first of equals: deterministic
    if best[0] < CAP:  # a capped score cannot be beaten
        for _, parts, _ in sorted(singles, key=lambda f: -f[0])[:COMBO_FROM]:
            best = _extended(c, parts, kinds, card, action, heed, best)
    now = attempt(c.s, c.seat, action)
    base = -INF if now is None else worth(now, heed)
    return best[2] if best[0] > base + 0.01 else None


Found = tuple[float, list[str], str]  # (score, the placements, the action to play now)


def _before(c: Ctx, parts: list[str], action: str, heed: bool) -> Found | None:
    """The better way to make ``parts`` (laid together) before ``action``: first, or joined with a step."""
    placed = " + ".join(parts)
    ways = []
    after = then(attempt(c.s, c.seat, placed), c.seat, action)
    if after is not None:
        ways.append((worth(after, heed), parts, placed))
    if action.startswith("move "):
        joint = attempt(c.s, c.seat, f"{placed} + {action}")
        if joint is not None and not joint.fell:  # played now: a fall could not be mended by a next Jutsu
            ways.append((worth(joint, heed) - EPS, parts, joint.action))  # joined only when strictly better
    return max(ways, key=lambda f: f[0]) if ways else None


def _extended(c: Ctx, parts: list[str], kinds: list[str], card: int, action: str, heed: bool,
              best: Found) -> Found:
    """``best``, or ``parts`` with one more placement on the card when that scores strictly better."""
    hand = list(c.me.hand)
    for part in parts:
        hand.remove(part.split()[1])
    for kind, sp in itertools.product([k for k in kinds if k in hand], c.lay.spaces(card)):
        for offset in dict.fromkeys((outward(c, sp), "c")):
            found = _before(c, [*parts, place_text(kind, sp, offset)], action, heed)
            if found is not None and found[0] > best[0] + EPS:
                best = found
    return best


def stepping_stone(c: Ctx, space: Space) -> str | None:
    """A Jutsu of the ninja's colour on ``space``, where the step onto it stands best; the stone and the step
    as one action (one check) when that is strictly better."""
    kinds = [k for k in dict.fromkeys(sorted(c.me.hand)) if KIND_COLOUR[k] == c.jutsu]
    step = f"move {name(space)}"
    near = space in reachable(c)
    best: tuple[float, str] | None = None
    towards = statics.rotate_offset(outward(c, space), 2)
    for kind in kinds:
        for offset in dict.fromkeys(("c", towards, *statics.OFFSETS)):
            trial = attempt(c.s, c.seat, place_text(kind, space, offset))
            if trial is None:
                continue
            ways = []
            if not trial.fell:
                after = then(trial, c.seat, step) if near else None
                ways.append((worth(after or trial, c.wary), trial.action))
            joint = attempt(c.s, c.seat, f"{trial.action} + {step}") if near else None
            if joint is not None and not joint.fell:
                ways.append((worth(joint, c.wary) - EPS, joint.action))
            for way in ways:
                if best is None or way[0] > best[0]:
                    best = way
    return None if best is None else best[1]


def reachable(c: Ctx) -> list[Space]:
    """The spaces the ninja can step onto next."""
    if c.me.alcove is not None:
        return [c.lay.alcoves[c.me.alcove].space]
    return c.lay.neighbours(c.me.space) if c.me.space is not None else []


# --- building a card -----------------------------------------------------------------------------------------


def planned_points(c: Ctx, card: int, plan: Plan) -> list[tuple[Point | None, int]]:
    """The loads the card must hold: nothing, the ninja on each path space on it, the claim rotation."""
    out: list[tuple[Point | None, int]] = [(None, 0)]
    for sp in plan.path:
        if c.card(sp) == card:
            out.append(((sp[0] + 0.5, sp[1] + 0.5), 0))
    if c.card(plan.target) == card:
        quarter = BANSEN_BY_ID[c.targets[plan.target]].quarter_turns_cw
        out.append(((plan.target[0] + 0.5, plan.target[1] + 0.5), quarter))
    return out


def support_score(c: Ctx, card: int, extra: tuple[str, Point] | None, loads: list) -> tuple[float, float]:
    sup, _ = c.parts(card)
    sup = sup + ([extra] if extra else [])
    centre = c.lay.centre(card)
    margins = []
    for point, quarter in loads:
        at = [(point, PHYSICS.ninja_weight)] if point is not None else []
        if quarter:
            at = [(statics.rotate(p, centre, quarter), w) for p, w in at]
        m = sense(statics.balance(centre, sup, at).margin, c.s)
        margins.append(min(max(m, -3.0), CAP))
    return (min(margins), sum(margins))


def build(c: Ctx, card: int, plan: Plan, spare_only: bool) -> str | None:
    """Supports under the card while they raise the worst planned margin below ``SAFE``; then the board."""
    loads = planned_points(c, card, plan)
    now = support_score(c, card, None, loads)
    if now[0] < SAFE:
        support = best_support(c, card, loads, now, spare_only)
        if support is not None or not spendable(c, spare_only):
            return support  # more supports next turn: a board on weak supports can never get more
    if not c.parts(card)[0] or not c.s.deck:
        return None
    return best_board(c, card)


def best_support(c: Ctx, card: int, loads: list, now: tuple[float, float], spare_only: bool) -> str | None:
    best: tuple[tuple[float, float], str] | None = None
    here = [p for p in c.s.pieces if p.level == "ground" and c.card(p.space) == card]
    for kind in spendable(c, spare_only):
        shape = KIND_SHAPE[kind]
        for sp in c.lay.spaces(card):
            if not is_land(c.s, c.lay, sp) or (c.s.options.has(6) and any(p.space == sp for p in here)):
                continue
            for offset in dict.fromkeys((outward(c, sp), "c")):
                point = statics.jutsu_position(sp, shape, offset)
                foot = statics.footprint(shape, point)
                if any(p.space == sp and statics.overlaps(foot, statics.footprint(KIND_SHAPE[p.kind], p.point))
                       for p in here):
                    continue
                score = support_score(c, card, (shape, point), loads)
                if best is None or score > best[0]:
                    best = (score, place_text(kind, sp, offset))
    if best is None or best[0] <= (now[0] + 0.005, now[1] + 0.005):
        return None
    return best[1]


def best_board(c: Ctx, card: int) -> str | None:
    """The side and rotation that stand and leave the cheapest path (then the largest margin)."""
    ox, oy = c.lay.origin(card)
    middle = name((ox + 1, oy + 1))
    best: tuple[float, float, str] | None = None
    for back, turns in itertools.product((False, True), range(4)):
        action = f"board {middle}" + (" back" if back else "") + (f" r{turns * 90}" if turns else "")
        trial = attempt(c.s, c.seat, action)
        if trial is None or trial.fell:
            continue
        cost = plan_cost(trial.after, c.seat)
        cost += SHAKY * trial.shaky if c.wary else 0.0
        if best is None or (cost, -trial.margin) < best[:2]:
            best = (cost, -trial.margin, action)
    return None if best is None else best[2]


# --- spending what the end of the turn would return ----------------------------------------------------------


def spare(c: Ctx, plan: Plan | None) -> str | None:
    """Before ending: Jutsu that would go back to the pool become supports or stones further along the path."""
    if plan is None or not spendable(c, spare_only=True):
        return None
    for sp in plan.path:
        card = c.card(sp)
        if card not in c.boards:
            loads = planned_points(c, card, plan)
            now = support_score(c, card, None, loads)
            return best_support(c, card, loads, now, spare_only=True) if now[0] < SAFE else None
        if c.stone(sp) is None and sp not in c.others:
            own = [k for k in spendable(c, spare_only=True) if KIND_COLOUR[k] == c.jutsu]
            for kind in own:
                trial = attempt(c.s, c.seat, place_text(kind, sp, "c"))
                if trial is not None and not trial.fell:
                    return trial.action
    return None
