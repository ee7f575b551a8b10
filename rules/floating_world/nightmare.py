"""The Nightmare phase (rulebook 6.0), automatic: ``run(work, current, fresh) -> steps``, every step recorded.

Order: each demon on the map attacks in id order (oni1…gaki4), except those spawned this turn (6.4.2: they
do not attack); Lands cut off from the Gate are destroyed (6.3); spawn dice (6.4); deaths are checked after
each Wound. Decisions where the rulebook is silent, with reasons:

- **A demon moves only after it destroys a Land** (6.1.2 names no other movement); it steps to a Land adjacent
  to the destroyed one, chosen by its type; with none it returns to the supply. Other demons on the destroyed
  Land vanish with it ("along with anything on it") and return to the supply.
- **Oni** go "straight toward the Gate": to the adjacent Land with the shortest path to the Gate over existing
  Lands. **Tengu** go to an adjacent Land on the map's edge (a Land with an empty orthogonal neighbour), judged
  on the map *before* the destruction (afterwards every neighbour of the hole would count as an edge); if none
  is, to the first adjacent Land ("if possible"). **Gaki** go toward the nearest Village by path; with no
  Village they go toward the Gate like Oni (the Gate is what they would tear next). Every tie: N, E, S, W.
- **Kitsune on a destroyed Land** move free (6.2) to the first adjacent surviving Land in N, E, S, W order that
  is connected to the Gate (a Land about to be cut off would only destroy them again); with none they are put
  on the Gate with a Wound (our adaptation's decision: the world throws them back, hurt). Kitsune on a Land cut
  off from the Gate (6.3) have no surviving neighbour by definition: Gate, with a Wound.
- **Targets**: the current player if on the Land, else the next seat clockwise (6.1).
- **Land defence** is the ``land_defence`` option (10 by default; rulebook "vs. 10") plus the ``land_guard``
  upgrades of the Village's owner on that Land; the demon must roll strictly higher (6.1.2).
- **Spawn dice**: ⌈Lands / spawn_divisor⌉; all sixes raise Demon Strength by one pip (+1, +2, +1D, +1D+1…);
  each 1–2 spawns a demon whose type is a d6 (1–2 Oni, 3–4 Tengu, 5–6 Gaki) on a seeded-random valid Land
  (an empty orthogonal neighbour and no Kitsune), or none if no Land is valid or no token of that type is left.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from math import ceil
from typing import Any

from rules.floating_world.dice import Roll
from rules.floating_world.notation import DEMON_TYPES, Coord
from rules.floating_world.state import (
    DEMON_IDS,
    DEMON_STATS,
    GATE,
    HIGHEST,
    Demon,
    Kitsune,
    Land,
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
    if d.at != GATE:
        rescue(w, d.at, steps)


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


def rescue(w: Work, hole: Coord, steps: list[dict[str, Any]]) -> None:
    """Kitsune on the destroyed Land move free to an adjacent surviving Land connected to the Gate (6.2)."""
    linked = distances(w.lands, [GATE])
    for k in w.on_map():
        if k.pos != hole:
            continue
        to = next((n for n in neighbours(hole) if n in linked), None)
        _relocate(w, k.seat, hole, to, steps)


def _relocate(w: Work, seat: int, frm: Coord, to: Coord | None, steps: list[dict[str, Any]]) -> None:
    hurt = to is None
    dest = GATE if to is None else to
    w.set_kit(seat, pos=dest)
    steps.append({"kind": "kitsune_moved", "seat": seat, "from": list(frm), "to": list(dest), "wound": hurt})
    if hurt:
        wound(w, seat, steps)


def cut_off(w: Work, steps: list[dict[str, Any]]) -> None:
    linked = distances(w.lands, [GATE])
    for at in sorted(c for c in w.lands if c not in linked):
        destroy(w, at, "cut_off", steps)
    for k in w.on_map():
        if k.pos is not None and k.pos not in w.lands:
            _relocate(w, k.seat, k.pos, None, steps)


def valid_spawn_lands(w: Work) -> list[Coord]:
    occupied = {k.pos for k in w.on_map()}
    return [c for c in sorted(w.lands) if is_edge(w.lands, c) and c not in occupied]


def place(w: Work, demon_type: str, at: Coord) -> str | None:
    free = [i for i in DEMON_IDS if i.startswith(demon_type) and i not in w.demons]
    if not free:
        return None
    w.demons[free[0]] = Demon(free[0], demon_type, *at)
    return free[0]


def spawn(w: Work, steps: list[dict[str, Any]]) -> None:
    count = ceil(len(w.lands) / w.s.options.spawn_divisor)
    dice = w.roll(count, 0).dice
    steps.append({"kind": "spawn_dice", "count": count, "dice": list(dice)})
    if all(x == 6 for x in dice):
        old = w.s.strength
        w.s = replace(w.s, strength=old.plus(1))
        steps.append({"kind": "strength", "from": old.modifier, "to": w.s.strength.modifier})
    for x in dice:
        if x > 2:
            continue
        type_die = w.roll(1, 0).dice[0]
        kind = DEMON_TYPES[(type_die - 1) // 2]
        lands = valid_spawn_lands(w)
        if not any(i.startswith(kind) and i not in w.demons for i in DEMON_IDS) or not lands:
            steps.append({"kind": "no_spawn", "type": kind, "type_die": type_die,
                          "reason": "no_land" if not lands else "no_token"})
            continue
        at = lands[w.pick(len(lands))]
        did = place(w, kind, at)
        steps.append({"kind": "spawn", "demon": did, "type": kind, "at": list(at), "type_die": type_die})


def run(w: Work, current: int, fresh: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The whole Nightmare phase on ``w``; returns the steps. Stops early when the Gate falls."""
    steps: list[dict[str, Any]] = []
    for did in sorted(w.demons):
        d = w.demons.get(did)
        if d is None or did in fresh:
            continue  # returned to the supply earlier this phase, or spawned this turn
        here = [k.seat for k in w.on_map() if k.pos == d.at]
        if here:
            target = next(i for i in clockwise_from(w, current) if i in here)
            _attack_kitsune(w, d, target, steps)
        else:
            _attack_land(w, d, steps)
        if GATE not in w.lands:
            return steps
    cut_off(w, steps)
    spawn(w, steps)
    return steps
