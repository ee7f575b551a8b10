"""``FloatingFloors``: the rules contract for Floating Floors (2–4 ninjas), with the balance model for hands.

Decisions where the rulebook leaves the digital game to us (each with its reason):

- **Set-up.** The map is 3 cards wide and 2 tall (2 players) or 3×3, terrain side up (Challenge 3: one random
  card per player lake side up). Ninjas are Sun (light) and Smoke (shadow) for 2 players, then Moon and Night, so
  two players always differ. In turn order each player places their Chakra in a free alcove on their side
  (south, west, north, east in turn order; 2 players face each other) — ``chakra=middle`` puts it in the middle
  of the side without asking, as does a timeout. The Bansen are then placed clockwise from the alcove left of
  the starting player's Chakra, alternating players (each player's Bansen in a random order), as the rulebook
  says. Each player starts with one Jutsu of each shape in their colour (light ninjas walk on white).
- **The top floorboard is public.** It lies face up on the deck (its back is the same pattern inverted), so the
  image shows it; the order below it is secret.
- **Space and pieces.** Every piece has a position inside its space; a ninja's base is a 0.25 square
  (`statics.NINJA_BASE`). Pieces in one space may not overlap (their footprints, `statics.overlaps`): a Jutsu
  placed, or a ninja stepping, onto a space *nudges* the one piece it would overlap there (the rulebook's nudge)
  to the offset the player names (``nudge se``) or the nearest free one, and its weight moves with it; a piece a
  ninja stands on is never nudged. A step lands at the centre (or on its Jutsu) as before: only another ninja
  there must be nudged; a Jutsu there only when the player names a nudge (`moves.make_room`).
- **Several actions at once** (``place … + place … + move …``): placements and at most one step, made in order
  and checked as one board after all of them; a claim is made by itself (`moves.together`).
- **Moving** onto a space of your colour puts the ninja at its centre; onto a space of the other colour it stands
  on a Jutsu of its colour there (the first by id not stood on), as the rulebook allows.
- **Every check** runs after each change that touches a board (a Jutsu placed on it or taken from on or under
  it, a board placed, each step — the board entered first, then the board left — a rotation). One collapse per
  action: the turn ends at once.
- **Collapse.** Everything on that card is gathered (board, every Jutsu on or under it, ninjas on it) and the
  next player resets the card before their turn. ``reset`` is the automatic legal arrangement (`arrange`): the
  board over the card in the side and rotation, and the fallen Jutsu on the land spaces, that give the largest
  margin with every fallen ninja on a space of its colour nearest the centre. If no arrangement stands, or no
  Jutsu fell (a board needs one beneath), the board goes to the bottom of the deck, the fallen ninjas to their
  Chakra, and the Jutsu stay on the card's land.
- **Ending a turn** keeps up to 3 unplaced Jutsu of your ninja's colour (``end keep …`` chooses; plain ``end``
  keeps the first three of your colour); the rest go back to the pool. A timeout ends the turn the same way and
  runs a pending reset automatically. Dice with no matching Jutsu anywhere are dropped (the rulebook: "nothing
  for that die").
- **Resigning** takes the ninja off the map (its unclaimed Bansen stay where they are); the last player left wins.
- **Tension** (issue 23). ``tension=bands`` (the default for new games) keeps the risk a player feels at the
  table: views, events and previews give each check only its band (safe / shaky / falls, `statics.band`), never
  the margin, the centre of mass or the fall chance (each gives the margin back), and every shaky check falls
  with the shaky-hands chance (`statics.collapse_chance` up to `statics.BAND_SHAKY_BELOW`), drawn from the
  state's seed. ``tension=exact`` is today's game: margins shown, pure statics (unless shaky hands). A game saved
  before the option existed loads as ``exact``, the game it was started as.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from rules import rng
from rules.base import Event, IllegalActionError, InvalidActionError, NotYourTurnError, OptionsError, Outcome
from rules.floating_floors import notation as nt
from rules.floating_floors import state as st
from rules.floating_floors import statics
from rules.floating_floors.components import (
    BANSEN,
    BANSEN_BY_ID,
    DICE,
    FLOORBOARD_BY_ID,
    FLOORBOARDS,
    JUTSU,
    JUTSU_KINDS,
    KIND_COLOUR,
    KIND_SHAPE,
    NINJA_BY_ID,
    PHYSICS,
    TERRAIN,
    TERRAIN_BY_ID,
    WALKS_ON,
)
from rules.floating_floors.layout import Layout, Space, layout_for, name
from rules.floating_floors.state import Board, Options, Piece, Player, Reset, State

NINJA_ORDER = ("sun", "smoke", "moon", "night")
SIDE_ORDER = ("s", "w", "n", "e")  # where each seat's Chakra goes, in turn order
BANSEN_COUNT = {2: 4, 3: 3, 4: 2}
MASTER_STEPS = 4
KEEP = 3
TERRAIN_STREAM, DECK_STREAM, BANSEN_STREAM, LAKE_STREAM = 0, 1, 2, 3
FIRST_ROLL = 10  # draws from the counter start here
OPTION_KEYS = ("shaky", "challenges", "master", "master_dice", "master_steps", "master_order", "overlay", "chakra",
               "tension")
DEFAULT_TENSION = "bands"  # a new game's (measured in docs/floating_floors.md, tools/ff_tension_sim.py)
LEGACY_TENSION = "exact"  # absent from the options: how games made before the option played (they replay exactly)
WON = "ff.outcome.bansen"


# --- options -------------------------------------------------------------------------------------------------


def _switch(options: dict[str, Any], key: str, default: bool) -> bool:
    raw = options.get(key, "on" if default else "off")
    value = {True: True, False: False, "on": True, "off": False}.get(raw) if isinstance(raw, bool | str) else None
    if value is None:
        raise OptionsError("ff.options.switch", option=key, value=repr(raw)[:20])
    return value


def _challenges(raw: Any) -> tuple[int, ...]:
    if raw in (None, "", "none", ()):
        return ()
    if isinstance(raw, str) and raw.startswith("campaign"):
        upto = raw.removeprefix("campaign").strip(":= ")
        if upto.isdigit() and 1 <= int(upto) <= 8:
            return tuple(range(1, int(upto) + 1))
    # One challenge typed alone arrives as a number (`challenges=5`), a list from a lobby as a list.
    parts = [p.strip() for p in raw.split(",")] if isinstance(raw, str) else \
        list(raw) if isinstance(raw, list | tuple) else [raw]
    if not parts or not all(str(p).isdigit() and 1 <= int(p) <= 8 for p in parts):
        raise OptionsError("ff.options.challenges", value=repr(raw)[:30])
    return tuple(sorted({int(p) for p in parts}))


def options_of(players: int, options: dict[str, Any]) -> Options:
    options = dict(options or {})
    for key in sorted(set(options) - set(OPTION_KEYS)):
        raise OptionsError("ff.options.unknown", option=key[:30], known=", ".join(OPTION_KEYS))
    shaky = options.get("shaky", "off")
    if shaky not in st.SHAKY:
        raise OptionsError("ff.options.shaky", value=repr(shaky)[:20], allowed=", ".join(st.SHAKY))
    master_raw = options.get("master", "none")
    master = None
    if master_raw not in (None, "none", "off"):
        if not str(master_raw).isdigit() or not 1 <= int(master_raw) <= players:
            raise OptionsError("ff.options.master", value=repr(master_raw)[:20], players=players)
        master = int(master_raw) - 1
    chakra = options.get("chakra", "choose")
    if chakra not in st.CHAKRA:
        raise OptionsError("ff.options.chakra", value=repr(chakra)[:20], allowed=", ".join(st.CHAKRA))
    tension = options.get("tension", LEGACY_TENSION)
    if tension not in st.TENSION:
        raise OptionsError("ff.options.tension", value=repr(tension)[:20], allowed=", ".join(st.TENSION))
    dice = options.get("master_dice", 2)
    if not str(dice).isdigit() or not 1 <= int(dice) <= 3:
        raise OptionsError("ff.options.master_dice", value=repr(dice)[:20])
    return Options(shaky=shaky, challenges=_challenges(options.get("challenges")), master=master,
                   master_dice=int(dice), master_steps=_switch(options, "master_steps", True),
                   master_order=_switch(options, "master_order", True), overlay=_switch(options, "overlay", True),
                   chakra=chakra, tension=tension)


def normalize(players: Any, options: Any) -> dict[str, Any]:
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise OptionsError("ff.options.players", count=players, min=2, max=4)
    return options_of(players, options or {}).to_dict()


# --- the working copy ----------------------------------------------------------------------------------------


class Work:
    """A mutable copy of a state for one action; `freeze` makes the next state."""

    def __init__(self, s: State, *, draws: bool = True) -> None:
        self.s = s
        self.draws = draws  # False in a preview: nothing is drawn from the seed (no dice, no shaky hands)
        self.lay: Layout = s.layout
        self.boards: dict[int, Board] = {b.card: b for b in s.boards}
        self.pieces: dict[int, Piece] = {p.id: p for p in s.pieces}
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
        return replace(self.s, boards=tuple(self.boards[c] for c in sorted(self.boards)),
                       pieces=tuple(self.pieces[i] for i in sorted(self.pieces)), seats=tuple(self.seats),
                       pool=tuple(self.pool), alcoves=tuple(self.alcoves), deck=tuple(self.deck),
                       counter=self.counter, next_piece=self.next_piece, **self.changes)

    def get(self, key: str) -> Any:
        return self.changes.get(key, getattr(self.s, key))

    def set_player(self, seat: int, **changes: Any) -> Player:
        self.seats[seat] = replace(self.seats[seat], **changes)
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
    return [(KIND_SHAPE[p.kind], p.point) for p in w.pieces.values()
            if p.level == "ground" and w.lay.card_of(p.space) == card]


def loads(w: Work, card: int) -> list[tuple[statics.Point, float]]:
    on_top = [(p.point, PHYSICS.jutsu_weight) for p in w.pieces.values()
              if p.level == "board" and w.lay.card_of(p.space) == card]
    ninjas = [(q.point, PHYSICS.ninja_weight) for q in w.seats
              if q.space is not None and w.lay.card_of(q.space) == card]
    return on_top + ninjas


def balance_of(w: Work, card: int) -> statics.Balance:
    return statics.balance(w.lay.centre(card), supports(w, card), loads(w, card))


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
    return [replace(e, data=masked(options, e.data)) if "margin" in e.data else e for e in events]


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


# --- turn bookkeeping ----------------------------------------------------------------------------------------


def next_seat(s: State, seat: int, seats: list[Player] | tuple[Player, ...]) -> int:
    for step in range(1, s.players + 1):
        nxt = (seat + step) % s.players
        if not seats[nxt].out:
            return nxt
    return seat


def dice_count(s: State, seat: int) -> int:
    return s.options.master_dice if s.options.master == seat else DICE.count


def available(w: Work, kind: str) -> bool:
    if w.pool[JUTSU_KINDS.index(kind)] > 0:
        return True
    stood = {q.on for q in w.seats}
    return any(p.kind == kind and p.id not in stood for p in w.pieces.values())


def start_turn(w: Work, seat: int) -> None:
    """``seat`` begins a turn: a skipped turn passes (Challenge 5); otherwise roll the Jutsu dice."""
    for _ in range(w.s.players):
        if not w.seats[seat].skip:
            break
        w.set_player(seat, skip=False)
        w.events.append(Event("skip", seat, {}))
        seat = next_seat(w.s, seat, w.seats)
    w.set_player(seat, steps=0, fresh=())
    if not w.draws:  # a preview stops before the next turn's dice: they are that player's secret to come
        w.changes.update(current=seat, roll=(), to_take=(), phase="acquire", turn=w.get("turn") + 1)
        return
    roll = tuple(DICE.faces[rng.below(rng.stream(w.s.seed, w.counter + i), len(DICE.faces))]
                 for i in range(dice_count(w.s, seat)))
    w.counter += len(roll)
    take = tuple(k for k in roll if available(w, k))
    w.changes.update(current=seat, roll=roll, to_take=take, phase="acquire" if take else "navigate",
                     turn=w.get("turn") + 1)
    w.events.append(Event("roll", seat, {"roll": list(roll), "dropped": len(roll) - len(take)}))


def _variety(own: list[str]) -> tuple[str, ...]:
    distinct = sorted(set(own))
    rest = list(own)
    for k in distinct:
        rest.remove(k)
    return tuple([*distinct, *sorted(rest)][:KEEP])


def end_turn(w: Work, seat: int, keep: tuple[str, ...] | None) -> None:
    me = w.seats[seat]
    mine = WALKS_ON[colour_of(me)]
    if keep is None:  # one of each shape first: variety is worth more than a second of a kind
        own = [k for k in me.hand if KIND_COLOUR[k] == mine]
        keep = _variety(own)
    left = list(me.hand)
    for k in keep:
        left.remove(k)
    for k in left:
        w.pool[JUTSU_KINDS.index(k)] += 1
    w.set_player(seat, hand=tuple(sorted(keep)), steps=0)
    w.events.append(Event("end", seat, {"kept": list(keep), "returned": sorted(left)}))
    nxt = next_seat(w.s, seat, w.seats)
    if w.collapsed is not None:
        w.changes.update(reset=w.collapsed, phase="reset", current=w.collapsed.by, roll=(), to_take=())
        return
    start_turn(w, nxt)


# --- set-up --------------------------------------------------------------------------------------------------


def side_of(players: int, seat: int) -> str:
    """The map edge in front of a seat: south, then west, north, east in turn order (2 players face each other)."""
    return (SIDE_ORDER if players > 2 else ("s", "n"))[seat]


def side_alcoves(lay: Layout, players: int, seat: int) -> list[int]:
    return [a.index for a in lay.alcoves if a.side == side_of(players, seat)]


def homes(lay: Layout, players: int) -> list[int]:
    """The middle alcove of each seat's side (the Chakra's place without a choice)."""
    return [side_alcoves(lay, players, seat)[1] for seat in range(players)]


def chakras_placed(w: Work) -> None:
    """Every Chakra is down: the Bansen go out (or are hidden by the players, Challenge 1), then the first turn."""
    s = w.s
    bansen = [q.bansen for q in w.seats]
    if s.options.has(1):
        order = hide_order(s.players, bansen)
        w.changes.update(phase="hide", hide=order, current=order[0][0])
        return
    w.alcoves = place_bansen(w.lay, [q.home for q in w.seats], bansen)
    start_turn(w, 0)


def deal_bansen(seed: str, players: int, challenge1: bool) -> list[tuple[str, ...]]:
    count = BANSEN_COUNT[players]
    r = rng.stream(seed, BANSEN_STREAM)
    out = []
    for ninja in NINJA_ORDER[:players]:
        mine = sorted((b for b in BANSEN if b.ninja == ninja), key=lambda b: b.number)
        if challenge1:
            chosen = mine[:count]
        else:
            pool = list(mine)
            chosen = [pool.pop(rng.below(r, len(pool))) for _ in range(count)]
        out.append(tuple(b.id for b in chosen))
    return out


def place_bansen(lay: Layout, home: list[int], bansen: list[tuple[str, ...]]) -> list[str | None]:
    """Clockwise from the alcove left of the starting player's Chakra, alternating players."""
    n = len(lay.alcoves)
    alcoves: list[str | None] = [None] * n
    queues = [list(b) for b in bansen]
    order = [(home[0] + step) % n for step in range(1, n + 1)]
    free = [a for a in order if a not in home]
    turn = 0
    for a in free:
        while not queues[turn % len(queues)] and any(queues):
            turn += 1
        if not any(queues):
            break
        alcoves[a] = queues[turn % len(queues)].pop(0)
        turn += 1
    return alcoves


def hide_order(players: int, bansen: list[tuple[str, ...]]) -> tuple[tuple[int, str], ...]:
    """Challenge 1: each player holds the Bansen of the player on their left (passed to the right) and hides
    them one at a time, in reverse turn order."""
    held = [list(bansen[(seat + 1) % players]) for seat in range(players)]
    out = []
    for rnd in range(max(len(h) for h in held)):
        for seat in reversed(range(players)):
            if rnd < len(held[seat]):
                out.append((seat, held[seat][rnd]))
    return tuple(out)


def new_state(players: int, options: Options, seed: str) -> State:
    lay = layout_for(players)
    terrain = rng.shuffled(seed, TERRAIN_STREAM, [t.id for t in TERRAIN])[:lay.cards]
    lakes = set(rng.shuffled(seed, LAKE_STREAM, list(range(lay.cards)))[:players]) if options.has(3) else set()
    cards = tuple((t, "lake" if i in lakes else "terrain") for i, t in enumerate(terrain))
    deck = tuple(rng.shuffled(seed, DECK_STREAM, [b.id for b in FLOORBOARDS]))
    home = homes(lay, players)
    bansen = deal_bansen(seed, players, options.has(1))
    alcoves = [None] * len(lay.alcoves)
    removed = [4 if options.has(7) else 0] * len(JUTSU_KINDS)
    pool = [JUTSU.per_kind - r for r in removed]
    seats = []
    for seat in range(players):
        ninja = NINJA_ORDER[seat]
        colour = WALKS_ON[NINJA_BY_ID[ninja].colour]
        hand = tuple(sorted(k for k in JUTSU_KINDS if KIND_COLOUR[k] == colour))
        for k in hand:
            pool[JUTSU_KINDS.index(k)] -= 1
        x, y = lay.alcoves[home[seat]].point
        seats.append(Player(seat, ninja, bansen[seat], hand=hand, home=home[seat], alcove=home[seat], x=x, y=y))
    s = State(players=players, seed=seed, options=options, cards=cards, boards=(), deck=deck, pieces=(),
              pool=tuple(pool), removed=tuple(removed), seats=tuple(seats), alcoves=tuple(alcoves),
              counter=FIRST_ROLL, turn=0)
    if options.chakra == "choose":  # the rulebook: each places their Chakra on their side, in turn order
        waiting = tuple(replace(q, alcove=None) for q in seats)
        return replace(s, phase="chakra", current=0, seats=waiting)
    w = Work(s)
    chakras_placed(w)
    return w.freeze()


# --- the rules object ----------------------------------------------------------------------------------------


class FloatingFloors:
    """Floating Floors. See ``shared/games/floating_floors.md``, this module's docs and ``statics.py``."""

    id: ClassVar[str] = "floating_floors"
    name: ClassVar[str] = "Floating Floors"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    ENGINE_VERBS: ClassVar[frozenset[str]] = frozenset(nt.ENGINE_VERBS)
    TIMEOUT_POLICIES: ClassVar[tuple[str, ...]] = ("skip", "bot", "forfeit")
    new_game_options: ClassVar[dict[str, Any]] = {"tension": DEFAULT_TENSION}

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        return normalize(players, options)

    def new(self, players: int, options: dict[str, Any], seed: str) -> State:
        normalize(players, options)
        return new_state(players, options_of(players, options), seed)

    def to_move(self, s: State) -> frozenset[int]:
        return frozenset() if s.phase == "over" else frozenset({s.current})

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != "over" or s.winner is None:
            return None
        rest = sorted((q for q in s.seats if q.seat != s.winner), key=lambda q: (q.out, -q.done, q.seat))
        ranking: list[tuple[int, ...]] = [(s.winner,)]
        for q in rest:
            if ranking[-1] != (s.winner,) and _rank_key(s.seats[ranking[-1][0]]) == _rank_key(q):
                ranking[-1] = (*ranking[-1], q.seat)
            else:
                ranking.append((q.seat,))
        return Outcome((s.winner,), tuple(ranking), tuple(float(q.done) for q in s.seats), s.reason or WON)

    def standings(self, s: State) -> list[float]:
        """Bansen recovered so far (an admin ending the game early adjudicates by them)."""
        return [float(q.done) for q in s.seats]

    def notation(self, s: State, action: str) -> str:
        return nt.text(nt.parse(action))

    def to_json(self, s: State) -> dict[str, Any]:
        return st.to_json(s)

    def from_json(self, d: dict[str, Any]) -> State:
        return st.from_json(d)

    def default_action(self, s: State, seat: int) -> str:
        """``timeout``: the turn ends as with ``end`` (a pending reset is made automatically)."""
        return "timeout"

    def bot_action(self, s: State, seat: int) -> str:
        from rules.floating_floors.bot import choose

        if seat not in self.to_move(s):
            raise NotYourTurnError("ff.err.not_your_turn", player=s.current + 1)
        return choose(s, seat)

    def undo_blocker(self, before: State, after: State, events: list[Event]) -> str | None:
        """Refused after anything random or revealed (dice, shaky hands, a board drawn from the deck), a
        collapse, the end of a turn, a resignation, a timeout or the game's end."""
        kinds = {e.kind for e in events}
        if after.phase == "over":
            return "undo.reason.over"
        if "resign" in kinds:
            return "undo.reason.resign"
        if "timeout" in kinds:
            return "undo.reason.timeout"
        if after.counter != before.counter or "collapse" in kinds or after.current != before.current:
            return "undo.reason.rolled"
        if after.deck != before.deck:
            return "undo.reason.revealed"
        return None

    # --- legal actions -------------------------------------------------------------------------------------

    def legal_actions(self, s: State, seat: int) -> list[str]:
        """Every action the rules accept now (a board may still fall: a collapse is a legal outcome). Jutsu are
        listed at their space's centre only (the offsets multiply the list by nine); ``resign`` and ``timeout``
        are not listed. Nudges and several actions at once (``a + b``) are accepted when typed or built, never
        listed: their number is the product of the singles'."""
        if seat not in self.to_move(s):
            return []
        from rules.floating_floors.moves import legal

        return legal(s, seat)

    # --- applying ------------------------------------------------------------------------------------------

    def apply(self, s: State, seat: int, action: str) -> tuple[State, list[Event]]:
        return play(s, seat, action)

    # --- the view ------------------------------------------------------------------------------------------

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        """The whole public position, JSON-ready (no seed, no deck order below the top board, no future roll).
        ``view["boards"][i]`` holds the numbers the image's physics overlay draws."""
        from rules.floating_floors.views import public_view

        return masked_view(s.options, public_view(s, seat))


def play(s: State, seat: int, action: str, *, draws: bool = True) -> tuple[State, list[Event]]:
    """`FloatingFloors.apply`; ``draws=False`` (previews) draws nothing from the seed."""
    if s.phase == "over":
        raise IllegalActionError("ff.err.game_over")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < s.players:
        raise NotYourTurnError("ff.err.bad_seat", seat=seat, players=s.players)
    act = nt.parse(action)
    if act.verb == "resign":
        return resign(s, seat, draws=draws)
    if s.seats[seat].out:
        raise NotYourTurnError("ff.err.resigned")
    if seat != s.current:
        raise NotYourTurnError("ff.err.not_your_turn", player=s.current + 1)
    from rules.floating_floors.moves import perform

    w = Work(s, draws=draws)
    perform(w, seat, act)
    return w.freeze(), masked_events(s.options, w.events)


def _rank_key(q: Player) -> tuple[bool, int]:
    return (q.out, q.done)


def resign(s: State, seat: int, *, draws: bool = True) -> tuple[State, list[Event]]:
    if s.seats[seat].out:
        raise IllegalActionError("ff.err.resigned")
    w = Work(s, draws=draws)
    me = w.seats[seat]
    for k in me.hand:
        w.pool[JUTSU_KINDS.index(k)] += 1
    w.set_player(seat, out=True, hand=(), space=None, on=None, alcove=None)
    w.events.append(Event("resign", seat, {}))
    if s.reset is not None and seat in s.reset.ninjas:  # its fallen ninja leaves the game, not the reset
        w.changes["reset"] = replace(s.reset, ninjas=tuple(q for q in s.reset.ninjas if q != seat))
    left = [q.seat for q in w.seats if not q.out]
    if len(left) == 1:
        w.changes.update(phase="over", winner=left[0], reason="ff.outcome.last_standing", roll=(), to_take=())
        w.events.append(Event("win", left[0], {"reason": "ff.outcome.last_standing"}))
    elif s.current == seat and s.phase != "over":
        if s.phase == "reset" and s.reset is not None and s.reset.by == seat:
            w.collapsed = replace(w.get("reset"), by=next_seat(s, seat, w.seats))
            w.changes.update(reset=w.collapsed, current=w.collapsed.by)
        elif s.phase == "hide":
            w.changes.update(hide=tuple((q, b) for q, b in s.hide if q != seat))
        else:
            start_turn(w, next_seat(s, seat, w.seats))
    return w.freeze(), masked_events(s.options, w.events)


def space_name(space: Space | None) -> str:
    return name(space) if space is not None else "—"


def bansen_number(bansen: str) -> int:
    return BANSEN_BY_ID[bansen].number


def check_kind(kind: str) -> None:
    if kind not in JUTSU_KINDS:
        raise InvalidActionError("ff.err.bad_kind", word=kind, usage=nt.USAGE["place"])


def look_ahead(s: State, seat: int, action: str) -> tuple[State, list[Event]]:
    """The action tried on a copy that draws nothing from the seed: steady hands, and it stops before the next
    turn's dice. Every preview starts here, so none can show a draw the real move has not made yet."""
    steady = replace(s.options, shaky="off", challenges=tuple(c for c in s.options.challenges if c not in (2, 8)))
    after, events = play(replace(s, options=steady), seat, action, draws=False)
    return replace(after, options=s.options), events


def preview_view(s: State, seat: int, action: str) -> dict[str, Any]:
    """The public view of the board as ``action`` would leave it, for the seat that asks: without the next
    turn's dice, and without a floorboard the move would newly turn face up (the deck's order is secret)."""
    from rules.floating_floors.views import public_view

    after, _ = look_ahead(s, seat, action)
    view = masked_view(s.options, public_view(after, seat))
    known = {*s.deck[:1], *(b.board for b in s.boards), *([s.reset.board] if s.reset and s.reset.board else [])}
    if after.deck and after.deck[0] not in known:
        view["deck"].update(top=None, top_light=[])
    return view


def preview(s: State, seat: int, action: str) -> dict[str, Any]:
    """"What if": the action tried on a copy with steady hands, so the answer never reveals a shaky-hands draw.

    ``{"action", "checks": [{"card", "margin", "stable", "chance"}], "collapse": card | None, "claim": bansen |
    None, "win": bool}``; ``chance`` is the shaky-hands fall chance the real move would run (0 without them).
    With ``tension=bands`` each check has its ``band`` instead (margin and chance None). Raises the rules'
    error when the action is refused."""
    after, events = look_ahead(s, seat, action)
    verb = action.split()[0] if action.strip() else ""
    shaky = s.options.shaky_claims if verb in ("claim", "use") else s.options.shaky_all
    if s.options.tension == "bands":  # the band only: the margin and the exact chance stay unsaid
        checks = [{"card": e.data["card"], "band": e.data["band"], "stable": e.data["stable"], "margin": None,
                   "chance": None} for e in events if e.kind == "check"]
    else:
        checks = [{"card": e.data["card"], "margin": e.data["margin"], "stable": e.data["stable"],
                   "chance": statics.collapse_chance(e.data["margin"]) if shaky and e.data["stable"] else 0.0}
                  for e in events if e.kind == "check"]
    collapse = next((e.data["card"] for e in events if e.kind == "collapse"), None)
    claim = next((e.data["bansen"] for e in events if e.kind == "claim"), None)
    return {"action": nt.text(nt.parse(action)), "checks": checks, "collapse": collapse, "claim": claim,
            "win": after.phase == "over" and after.winner == seat}
