"""The Nightmare phase (rulebook 6.0): ``begin`` + ``advance`` run it, pausing where the rulebook lets the players
decide; ``run`` is the whole phase with every choice automatic. Every step is recorded.

Order: the demons on the map attack one at a time, except those spawned this turn (6.4.2: they do not attack);
Lands cut off from the Gate are destroyed (6.3); spawn dice (6.4); deaths are checked after each Wound.

**The players' decisions** (issue 23), asked of the player they belong to (``decider``) while that player's
Kitsune is on the map, only where there are two or more choices, never with ``auto_nightmare`` on, and never of
a seat that timed out in this phase (absence is not a move: that seat's decisions take the automatic choice, the
others are still asked). The order and the spawns are the current player's (the active player runs the
Nightmare); a flee is the fleeing Kitsune's owner's (6.2: the Kitsune "may move", so its player decides):

- ``resolve type@x,y`` — which demon attacks next (6.1 "Handle them in any order"); ``resolve all`` = the rest in
  id order. Automatic: id order (oni1…gaki4).
- ``flee x,y`` — where a Kitsune left on a destroyed Land goes (6.2 "may move for free to an adjacent Land"):
  an adjacent surviving Land connected to the Gate (a Land about to be cut off would only destroy it again);
  with none (a cut-off Land, 6.3, has no surviving neighbour) the Lands connected to the Gate nearest to it, or
  the Gate. Automatic: the first in N, E, S, W order, else the Gate. **Never a Wound** ("for free"). A demon only
  attacks a Land with no Kitsune on it, so in practice a Kitsune flees a cut-off Land.
- ``spawn x,y`` — the Land a spawned demon appears on (6.4.3 "on any Land that has an empty border and no
  Kitsune"). Automatic: a seeded-random valid Land (one random stream, as before).

While a decision waits the state's ``pending`` holds `Night` (where the phase stands) and the choices; the steps
so far are in ``nightmare``. ``suggestion`` is the bot's answer (and the hint shown to players).

Decisions where the rulebook is silent, with reasons:

- **A demon moves only after it destroys a Land** (6.1.2 names no other movement); it steps to a Land adjacent
  to the destroyed one, chosen by its type; with none it returns to the supply. Other demons on the destroyed
  Land vanish with it ("along with anything on it") and return to the supply.
- **Oni** go "straight toward the Gate": to the adjacent Land with the shortest path to the Gate over existing
  Lands. **Tengu** go to an adjacent Land on the map's edge (a Land with an empty orthogonal neighbour), judged
  on the map *before* the destruction (afterwards every neighbour of the hole would count as an edge); if none
  is, to the first adjacent Land ("if possible"). **Gaki** go toward the nearest Village by path; with no
  Village they go toward the Gate like Oni (the Gate is what they would tear next). Every tie: N, E, S, W.
- **Targets**: the current player if on the Land, else the next seat clockwise (6.1).
- **Land defence** is the ``land_defence`` option (10 by default; rulebook "vs. 10") plus the ``land_guard``
  upgrades of the Village's owner on that Land; the demon must roll strictly higher (6.1.2).
- **Spawn dice**: ⌈Lands / spawn_divisor⌉; all sixes raise Demon Strength by one pip (+1, +2, +1D, +1D+1…);
  each 1–2 spawns a demon whose type is a d6 (1–2 Oni, 3–4 Tengu, 5–6 Gaki) on a valid Land (an empty
  orthogonal neighbour and no Kitsune), or none if no Land is valid or no token of that type is left.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from math import ceil
from typing import Any

from rules.floating_world.dice import Roll
from rules.floating_world.notation import DEMON_TYPES, Coord, xy
from rules.floating_world.state import (
    DEMON_IDS,
    DEMON_STATS,
    GATE,
    HIGHEST,
    Demon,
    Kitsune,
    Land,
    State,
    Work,
    max_wounds,
    neighbours,
)

INF = 10**9


def distances(lands: dict[Coord, Land] | set[Coord], sources: list[Coord]) -> dict[Coord, int]:
    """Path lengths over existing Lands (orthogonal steps) from the nearest source."""
    cells = set(lands)
    dist = {c: 0 for c in sources if c in cells}
    queue = deque(dist)
    while queue:
        c = queue.popleft()
        for n in neighbours(c):
            if n in cells and n not in dist:
                dist[n] = dist[c] + 1
                queue.append(n)
    return dist


def is_edge(cells: set[Coord] | dict[Coord, Land], c: Coord) -> bool:
    return any(n not in cells for n in neighbours(c))


def move_target(kind: str, frm: Coord, lands: dict[Coord, Land], before: set[Coord]) -> Coord | None:
    """Where a demon of ``kind`` goes from ``frm`` (its Land just destroyed): an adjacent Land, or None."""
    options = [n for n in neighbours(frm) if n in lands]
    if not options:
        return None
    if kind == "tengu":
        edge = [n for n in options if is_edge(before, n)]
        return (edge or options)[0]
    villages = [c for c, land in lands.items() if land.village is not None]
    sources = villages if kind == "gaki" and villages else [GATE]
    dist = distances(lands, sources)
    return min(options, key=lambda n: (dist.get(n, INF), options.index(n)))


def demon_roll(w: Work, demon_type: str, stat: str) -> Roll:
    """The demon's stat plus Demon Strength (dice and pips added separately, like a Kitsune's bonuses)."""
    base = DEMON_STATS[demon_type][stat]
    return w.roll(base.dice + w.s.strength.dice, base.pips + w.s.strength.pips)


def kitsune_roll(w: Work, k: Kitsune, stat: str, contest: str, extra_dice: int = 0) -> Roll:
    """A Kitsune's stat with its carried ``stat_bonus`` items and ``contest_die`` legends."""
    pips = k.stat(stat).value + sum(d.get("pips") for d in k.effects("stat_bonus") if d.get("stat") == stat)
    dice = pips // 3 + extra_dice + sum(d.get("dice") for d in k.effects("contest_die") if d.get("contest") == contest)
    return w.roll(dice, pips % 3)


def wound(w: Work, seat: int, steps: list[dict[str, Any]]) -> None:
    k = w.set_kit(seat, wounds=w.kit[seat].wounds + 1)
    if k.wounds >= max_wounds(w.s, k):
        kill(w, seat, steps)


def kill(w: Work, seat: int, steps: list[dict[str, Any]]) -> None:
    """A dead Kitsune leaves the map; its Items return to the Dream discards (Legends and Upgrades stay with it
    for the scoring). Its Villages stay on the map, owned by nobody who collects."""
    k = w.kit[seat]
    w.dream_discard.extend(k.items)
    w.set_kit(seat, alive=False, pos=None, items=())
    steps.append({"kind": "death", "seat": seat, "at": None if k.pos is None else list(k.pos)})


def clockwise_from(w: Work, current: int) -> list[int]:
    n = len(w.kit)
    return [(current + i) % n for i in range(n)]


def _attack_kitsune(w: Work, d: Demon, seat: int, steps: list[dict[str, Any]]) -> None:
    stat = HIGHEST[d.type]
    mine = demon_roll(w, d.type, stat)
    theirs = kitsune_roll(w, w.kit[seat], stat, "demon")
    hit = mine.total > theirs.total
    steps.append({"kind": "attack_kitsune", "demon": d.id, "type": d.type, "at": list(d.at), "seat": seat,
                  "stat": stat, "rolls": {"demon": mine.to_json(), "target": theirs.to_json()}, "wound": hit})
    if hit:
        wound(w, seat, steps)


def land_defence(w: Work, land: Land) -> int:
    guard = 0
    if land.village is not None:
        guard = sum(c.get("amount") for c in w.kit[land.village].effects("land_guard"))
    return w.s.options.land_defence + guard


def _attack_land(w: Work, d: Demon, steps: list[dict[str, Any]]) -> None:
    """The demon against its Land (6.1.2); Kitsune left on a shredded Land flee afterwards (`Night.flee`)."""
    land = w.lands[d.at]
    stat = HIGHEST[d.type]
    defence = land_defence(w, land)
    mine = demon_roll(w, d.type, stat)
    destroyed = mine.total > defence
    steps.append({"kind": "attack_land", "demon": d.id, "type": d.type, "at": list(d.at), "stat": stat,
                  "defence": defence, "rolls": {"demon": mine.to_json()}, "destroyed": destroyed})
    if not destroyed:
        return
    before = set(w.lands)
    destroy(w, d.at, "destroyed", steps, keep=d.id)
    to = move_target(d.type, d.at, w.lands, before)
    if to is None:
        del w.demons[d.id]
        steps.append({"kind": "returned", "demon": d.id, "type": d.type, "from": list(d.at)})
    else:
        w.demons[d.id] = Demon(d.id, d.type, *to)
        steps.append({"kind": "move", "demon": d.id, "type": d.type, "from": list(d.at), "to": list(to)})


def destroy(w: Work, at: Coord, kind: str, steps: list[dict[str, Any]], keep: str | None = None) -> None:
    """The Land vanishes with its Village; demons on it (but ``keep``, the attacker) return to the supply."""
    land = w.lands.pop(at)
    if at != GATE:  # the Gate's card is not in the deck
        w.land_discard.append(land.card)
    returned = [i for i, d in sorted(w.demons.items()) if d.at == at and i != keep]
    for i in returned:
        del w.demons[i]
    steps.append({"kind": kind, "at": list(at), "land": land.card, "gate": at == GATE, "village": land.village,
                  "returned": returned})


def flee_choices(w: Work, frm: Coord) -> tuple[list[Coord], Coord]:
    """Where a Kitsune on a destroyed Land ``frm`` may go (6.2 "move for free to an adjacent Land") and today's
    automatic choice. Adjacent surviving Lands connected to the Gate (a Land about to be cut off would only
    destroy it again); with none (a cut-off Land, 6.3) the nearest Lands connected to the Gate and the Gate."""
    linked = distances(w.lands, [GATE])
    near = [n for n in neighbours(frm) if n in linked]
    if near:
        return near, near[0]
    reach = min(abs(c[0] - frm[0]) + abs(c[1] - frm[1]) for c in linked)
    spots = sorted({GATE, *(c for c in linked if abs(c[0] - frm[0]) + abs(c[1] - frm[1]) == reach)})
    return spots, GATE


def rescue(w: Work, hole: Coord, steps: list[dict[str, Any]]) -> None:
    """Kitsune on the destroyed ``hole`` move free (6.2) to today's automatic choice (`flee_choices`)."""
    for k in w.on_map():
        if k.pos == hole:
            _relocate(w, k.seat, hole, flee_choices(w, hole)[1], steps)


def _relocate(w: Work, seat: int, frm: Coord, to: Coord, steps: list[dict[str, Any]]) -> None:
    """6.2 "may move for free": never a Wound, whether the Land was shredded or cut off."""
    w.set_kit(seat, pos=to)
    steps.append({"kind": "kitsune_moved", "seat": seat, "from": list(frm), "to": list(to), "wound": False})


def cut_off(w: Work, steps: list[dict[str, Any]]) -> list[int]:
    """Destroy the Lands cut off from the Gate (6.3); returns the seats left on a destroyed Land."""
    linked = distances(w.lands, [GATE])
    for at in sorted(c for c in w.lands if c not in linked):
        destroy(w, at, "cut_off", steps)
    return [k.seat for k in w.on_map() if k.pos is not None and k.pos not in w.lands]


def valid_spawn_lands(w: Work) -> list[Coord]:
    occupied = {k.pos for k in w.on_map()}
    return [c for c in sorted(w.lands) if is_edge(w.lands, c) and c not in occupied]


def place(w: Work, demon_type: str, at: Coord) -> str | None:
    free = [i for i in DEMON_IDS if i.startswith(demon_type) and i not in w.demons]
    if not free:
        return None
    w.demons[free[0]] = Demon(free[0], demon_type, *at)
    return free[0]



# --- the phase, paused where the rulebook lets the players decide ----------------------------------------

DECISIONS = ("resolve", "flee", "spawn")
ALL = "resolve all"


@dataclass
class Night:
    """Where a Nightmare phase stands: stored as the state's ``pending`` while a decision waits.

    ``todo``: demons still to resolve (id order); ``in_order``: the player said "resolve all"; ``flee``: seats
    still on a destroyed Land; ``stage``: attack → roll (6.3 done, spawn dice next) → spawn → done; ``dice``:
    spawn dice still to read; ``spawn``: the demon (type, type die) waiting for its Land; ``absent``: seats
    that timed out in this phase (their decisions are automatic). Stored without ``absent`` when it is empty,
    so a state saved before it existed reads the same."""

    current: int
    ask: bool
    todo: list[str] = field(default_factory=list)
    in_order: bool = False
    flee: list[int] = field(default_factory=list)
    stage: str = "attack"
    dice: list[int] = field(default_factory=list)
    spawn: dict[str, Any] | None = None
    absent: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = {"current": self.current, "ask": self.ask, "todo": list(self.todo), "in_order": self.in_order,
               "flee": list(self.flee), "stage": self.stage, "dice": list(self.dice),
               "spawn": None if self.spawn is None else dict(self.spawn)}
        return {**out, "absent": list(self.absent)} if self.absent else out

    @staticmethod
    def of(d: dict[str, Any]) -> Night:
        return Night(d["current"], d["ask"], list(d["todo"]), d["in_order"], list(d["flee"]), d["stage"],
                     list(d["dice"]), None if d["spawn"] is None else dict(d["spawn"]), list(d.get("absent", [])))

    def decider(self) -> int:
        """Whose decision comes next: the fleeing Kitsune's owner (6.2), else the current player."""
        return self.flee[0] if self.flee else self.current


def begin(w: Work, current: int, fresh: frozenset[str] = frozenset(), ask: bool = False,
          absent: tuple[int, ...] = ()) -> Night:
    return Night(current, ask, todo=[i for i in sorted(w.demons) if i not in fresh], absent=list(absent))


def run(w: Work, current: int, fresh: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The whole Nightmare phase on ``w`` with every choice automatic; returns the steps."""
    steps: list[dict[str, Any]] = []
    advance(w, begin(w, current, fresh), steps)
    return steps


def pending_of(w: Work, night: Night, decision: str, choices: list[str]) -> dict[str, Any]:
    """The decision waiting for its player (``seat``: `Night.decider`): the runner's place plus the choices."""
    out = {**night.to_json(), "decision": decision, "seat": night.decider(), "choices": sorted(choices)}
    if decision == "flee":
        k = w.kit[night.flee[0]]
        out["fleeing"] = k.seat
        out["from"] = None if k.pos is None else list(k.pos)
    return out


def decider_of(pending: dict[str, Any]) -> int:
    """Who answers a stored decision: a flee is the fleeing Kitsune's owner's (6.2), also in a state saved
    when every decision was the current player's (its ``seat`` said so); the rest the current player's."""
    return pending["fleeing"] if pending["decision"] == "flee" else pending["current"]


def _asks(w: Work, night: Night, choices: list[str]) -> bool:
    """A decision is asked only when there is a choice and its player (`Night.decider`) can answer: still on
    the map and not timed out in this phase."""
    seat = night.decider()
    return night.ask and len(choices) > 1 and w.kit[seat].on_map and seat not in night.absent


def resolve_choices(w: Work, night: Night) -> list[str]:
    picks = {f"resolve {w.demons[i].type}@{xy(w.demons[i].at)}" for i in night.todo if i in w.demons}
    return [*picks, ALL] if len(picks) > 1 else list(picks)


def chosen_demon(w: Work, night: Night, choice: str) -> str:
    """The first demon still to resolve matching ``resolve type@x,y`` (same type, same Land: identical)."""
    return next(i for i in night.todo if i in w.demons and choice == f"resolve {w.demons[i].type}@{xy(w.demons[i].at)}")


def advance(w: Work, night: Night, steps: list[dict[str, Any]], choice: str | None = None) -> dict[str, Any] | None:
    """Run the phase on from ``night`` until it ends (None) or a decision waits (the pending dict). ``choice``,
    already checked against the pending choices, answers the first decision reached."""
    while True:
        if GATE not in w.lands:
            return None
        if night.flee:
            seat = night.flee[0]
            k = w.kit[seat]
            if not k.on_map or k.pos is None or k.pos in w.lands:
                night.flee.pop(0)
                continue
            spots, default = flee_choices(w, k.pos)
            texts = [f"flee {xy(c)}" for c in spots]
            if _asks(w, night, texts) and choice is None:
                return pending_of(w, night, "flee", texts)
            to = default if choice is None or not _asks(w, night, texts) else spots[texts.index(choice)]
            choice = None
            night.flee.pop(0)
            _relocate(w, seat, k.pos, to, steps)
        elif night.stage == "attack":
            choice = _attack_next(w, night, steps, choice)
            if choice == "pause":
                return pending_of(w, night, "resolve", resolve_choices(w, night))
        elif night.stage == "roll":
            night.dice = _spawn_dice(w, steps)
            night.stage = "spawn"
        elif night.stage == "spawn":
            if night.spawn is None and not _next_spawn(w, night, steps):
                night.stage = "done"
                return None
            if night.spawn is None:
                continue
            lands = valid_spawn_lands(w)
            texts = [f"spawn {xy(c)}" for c in lands]
            if _asks(w, night, texts) and choice is None:
                return pending_of(w, night, "spawn", texts)
            at = lands[texts.index(choice)] if choice is not None and _asks(w, night, texts) else \
                lands[w.pick(len(lands))]
            choice = None
            kind, type_die = night.spawn["type"], night.spawn["type_die"]
            night.spawn = None
            did = place(w, kind, at)
            steps.append({"kind": "spawn", "demon": did, "type": kind, "at": list(at), "type_die": type_die})
        else:
            return None


def _attack_next(w: Work, night: Night, steps: list[dict[str, Any]], choice: str | None) -> str | None:
    """One demon resolves (6.1), or "pause" for the order, or 6.3 when none is left. Returns the unused choice."""
    night.todo = [i for i in night.todo if i in w.demons]  # returned to the supply earlier this phase
    if not night.todo:
        night.flee.extend(cut_off(w, steps))
        night.stage = "roll"
        return choice
    options = resolve_choices(w, night)
    asked = not night.in_order and _asks(w, night, options)
    if asked and choice is None:
        return "pause"
    did = night.todo[0]
    if asked and choice == ALL:
        night.in_order = True
    elif asked and choice is not None:
        did = chosen_demon(w, night, choice)
    night.todo.remove(did)
    d = w.demons[did]
    here = [k.seat for k in w.on_map() if k.pos == d.at]
    if here:
        target = next(i for i in clockwise_from(w, night.current) if i in here)
        _attack_kitsune(w, d, target, steps)
    else:
        _attack_land(w, d, steps)
        if d.at not in w.lands:
            night.flee.extend(k.seat for k in w.on_map() if k.pos == d.at)
    return None


def _spawn_dice(w: Work, steps: list[dict[str, Any]]) -> list[int]:
    count = ceil(len(w.lands) / w.s.options.spawn_divisor)
    dice = w.roll(count, 0).dice
    steps.append({"kind": "spawn_dice", "count": count, "dice": list(dice)})
    if all(x == 6 for x in dice):
        old = w.s.strength
        w.s = replace(w.s, strength=old.plus(1))
        steps.append({"kind": "strength", "from": old.modifier, "to": w.s.strength.modifier})
    return list(dice)


def _next_spawn(w: Work, night: Night, steps: list[dict[str, Any]]) -> bool:
    """Read spawn dice up to the next demon that appears (6.4.2, 6.4.3); False when none is left."""
    while night.dice:
        if night.dice.pop(0) > 2:
            continue
        type_die = w.roll(1, 0).dice[0]
        kind = DEMON_TYPES[(type_die - 1) // 2]
        lands = valid_spawn_lands(w)
        if not any(i.startswith(kind) and i not in w.demons for i in DEMON_IDS) or not lands:
            steps.append({"kind": "no_spawn", "type": kind, "type_die": type_die,
                          "reason": "no_land" if not lands else "no_token"})
            continue
        night.spawn = {"type": kind, "type_die": type_die}
        return True
    return False


def spawn(w: Work, steps: list[dict[str, Any]]) -> None:
    """The spawn dice alone (6.4), every demon placed automatically."""
    advance(w, Night(current=0, ask=False, stage="roll"), steps)


# --- the bot's answer (also the hint shown to players) ------------------------------------------------------

def suggestion(s: State) -> str:
    """A sensible answer to the pending decision, never random: a spawn where it hurts least (the Land farthest
    from the Gate, better without a Village); the demon threatening the Gate first (the nearest by path); a
    fleeing Kitsune to its own Village, else as near the Gate as it can."""
    p = s.pending
    assert p is not None
    cells = s.land_map()
    dist = distances(cells, [GATE])

    def coord_of(choice: str) -> Coord:
        x, y = choice.rsplit(" ", 1)[1].rsplit("@", 1)[-1].split(",")
        return int(x), int(y)

    choices = [c for c in p["choices"] if c != ALL]
    if p["decision"] == "spawn":
        return max(choices, key=lambda c: (dist.get(coord_of(c), INF), cells[coord_of(c)].village is None,
                                           -choices.index(c)))
    if p["decision"] == "resolve":
        return min(choices, key=lambda c: (dist.get(coord_of(c), INF), choices.index(c)))
    own = {c for c, land in cells.items() if land.village == p["fleeing"]}
    return min(choices, key=lambda c: (coord_of(c) not in own, dist.get(coord_of(c), INF), choices.index(c)))
