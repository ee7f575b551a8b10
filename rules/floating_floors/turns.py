"""Turn bookkeeping and set-up: dice, the start and end of a turn, each seat's side, the Bansen deal, and
`new_state` (a game's first position).
"""

from __future__ import annotations

from dataclasses import replace

from rules import rng
from rules.base import Event
from rules.floating_floors.components import (
    BANSEN,
    DICE,
    FLOORBOARDS,
    JUTSU,
    JUTSU_KINDS,
    KIND_COLOUR,
    NINJA_BY_ID,
    TERRAIN,
    WALKS_ON,
)
from rules.floating_floors.layout import Layout, layout_for
from rules.floating_floors.options import Options
from rules.floating_floors.state import Player, State
from rules.floating_floors.work import Work, colour_of, next_seat

NINJA_ORDER = ("sun", "smoke", "moon", "night")
SIDE_ORDER = ("s", "w", "n", "e")  # where each seat's Chakra goes, in turn order
BANSEN_COUNT = {2: 4, 3: 3, 4: 2}
MASTER_STEPS = 4
KEEP = 3
TERRAIN_STREAM, DECK_STREAM, BANSEN_STREAM, LAKE_STREAM = 0, 1, 2, 3
FIRST_ROLL = 10  # draws from the counter start here


# --- turn bookkeeping ----------------------------------------------------------------------------------------


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

