"""A competent Floating World policy: exact contest odds (dice distributions), then a fixed priority.

Priorities: seal at the Gate when the odds are decent (or the Gate is in danger); fight a demon on your Land
when the odds favour you, in its weakest stat (outwit the Oni, impress the Tengu, bust the Gaki: 8.1);
otherwise heal, build a Village, harvest and buy a useful card, create Land next to the Gate's side that needs
it; before acting, move toward the Gate when ready to seal, onto a beatable demon (the Gate's first), or to a
Village to harvest. A dead vengeful player walks its strongest type toward the Gate and spawns next to it.
Always returns a legal action.
"""

from __future__ import annotations

import functools

from rules.floating_world import nightmare as nm
from rules.floating_world import notation as nt
from rules.floating_world.content import DREAM_BY_ID, STATS
from rules.floating_world.state import DEMON_STATS, GATE, HIGHEST, Kitsune, State, Work, neighbours

SEAL_ODDS, SEAL_ODDS_DANGER, FIGHT_ODDS = 0.20, 0.10, 0.55


@functools.cache
def distribution(dice: int, plus: int) -> dict[int, float]:
    dist = {plus: 1.0}
    for _ in range(dice):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / 6
        dist = nxt
    return dist


def p_at_least(dice: int, plus: int, target: int) -> float:
    return sum(p for t, p in distribution(dice, plus).items() if t >= target)


@functools.cache
def p_beats(a: tuple[int, int], b: tuple[int, int]) -> float:
    """P(roll a > roll b), each (dice, plus)."""
    da, db = distribution(*a), distribution(*b)
    return sum(pa * pb for x, pa in da.items() for y, pb in db.items() if x > y)


def my_roll(k: Kitsune, stat: str, contest: str, boost: int = 0) -> tuple[int, int]:
    pips = k.stat(stat).value + sum(d.get("pips") for d in k.effects("stat_bonus") if d.get("stat") == stat)
    dice = pips // 3 + boost + sum(d.get("dice") for d in k.effects("contest_die") if d.get("contest") == contest)
    return dice, pips % 3


def with_reroll(p: float, k: Kitsune) -> float:
    has = (not k.legend_reroll_used and k.effects("legend_reroll")) or k.effects("reroll")
    return 1 - (1 - p) ** 2 if has else p


def demon_odds(s: State, k: Kitsune, demon_type: str, stat: str) -> float:
    base = DEMON_STATS[demon_type][stat]
    theirs = (base.dice + s.strength.dice, base.pips + s.strength.pips)
    return with_reroll(p_beats(my_roll(k, stat, "demon"), theirs), k)


def seal_odds(k: Kitsune) -> float:
    return with_reroll(p_at_least(*my_roll(k, "mind", "seal"), 15), k)


def best_fight(s: State, k: Kitsune, at: tuple[int, int]) -> tuple[float, str, str] | None:
    """(odds, demon type, stat) of the best fight on ``at``; mind first on ties (it is what seals)."""
    order = ("mind", "spirit", "body")
    options = [(demon_odds(s, k, d.type, x), d.type, x) for d in s.demons_at(at) for x in order]
    if not options:
        return None
    return max(options, key=lambda o: (round(o[0], 3), -order.index(o[2])))


def card_value(s: State, k: Kitsune, card: str) -> float:
    d = DREAM_BY_ID[card]
    value = {"stat_bonus": 1.0 + (1.5 if d.get("stat") == "mind" else 0), "reroll": 1.5, "harvest_praise": 0.5,
             "village_praise": 2.5, "heal": 0.8, "land_guard": 1.8, "legend_reroll": 2.5, "harvest_draw": 0.6,
             "max_wounds": 2.0}.get(d.kind, 0.0)
    if d.kind == "contest_die":
        value = {"seal": 3.5, "demon": 3.0, "village": 0.2, "kitsune": 0.1}[d.get("contest")]
    return value


def danger(s: State) -> bool:
    """A demon on or next to the Gate."""
    near = {GATE, *neighbours(GATE)}
    return any(d.at in near for d in s.demons)


def choose(s: State, seat: int) -> str:
    if s.phase == "haunt":
        return _haunt(s, seat)
    k = s.kitsune[seat]
    if s.harvest is not None:
        return _buy(s, k)
    pos = k.pos or GATE
    lands = s.land_map()
    odds = seal_odds(k)
    if pos == GATE and "seal" not in k.used and k.praise >= 10 and (
            odds >= SEAL_ODDS or (danger(s) and odds >= SEAL_ODDS_DANGER) or k.praise >= 20):
        return "seal"
    fight = best_fight(s, k, pos)
    if fight and "attack_demon" not in k.used and fight[0] >= FIGHT_ODDS:
        return f"attack {fight[1]}@{nt.xy(pos)} {fight[2]}"
    if not k.used and not k.moved:
        step = _step(s, k, pos, lands)
        if step is not None:
            return f"move {nt.xy(step)}"
    land = lands[pos]
    owner = land.village
    if owner is not None and owner != seat and not s.kitsune[owner].on_map and "takeover" not in k.used and \
            sum(1 for x in s.lands if x.village == seat) < 4:
        return f"takeover {max(STATS, key=lambda x: my_roll(k, x, 'village'))}"  # a free roll: the dead don't mind
    if land.village is not None and k.wounds and not k.moved and "heal" not in k.used:
        return "heal"
    saving = k.praise >= 10 and odds >= SEAL_ODDS
    if "village" not in k.used and k.praise >= 3 and not saving and _village_ok(s, pos, seat):
        return "village"
    if "harvest" not in k.used and land.village is not None and k.praise >= 3 and not saving:
        return "harvest"
    spot = _land_spot(s, pos)
    if "land" not in k.used and spot is not None and not saving and k.praise >= 3 and (
            k.praise >= 6 or len(lands) < 5):
        return f"land {nt.xy(spot)}"
    if fight and "attack_demon" not in k.used and fight[0] >= 0.35:
        return f"attack {fight[1]}@{nt.xy(pos)} {fight[2]}"
    if hopeless(s):
        return "resign"
    return "end"


def hopeless(s: State) -> bool:
    """Nothing can ever change: no living Kitsune owns a Village or can pay for anything, and no Village is left
    to take over. (A Kitsune alone on the Gate even stops the spawns: the world would wait forever.)"""
    living = [k for k in s.kitsune if k.on_map]
    if any(land.village is not None and s.kitsune[land.village].on_map for land in s.lands):
        return False
    if any(land.village is not None for land in s.lands):
        return False
    return all(k.praise < 3 for k in living)


def _buy(s: State, k: Kitsune) -> str:
    affordable = [c for c in s.harvest or () if DREAM_BY_ID[c].cost <= k.praise]
    if not affordable:
        return "keep none"
    best = max(affordable, key=lambda c: (card_value(s, k, c) / DREAM_BY_ID[c].cost, c))
    if card_value(s, k, best) < 1.0:
        return "keep none"
    return f"buy {best}"


def _village_ok(s: State, pos: tuple[int, int], seat: int) -> bool:
    lands = s.land_map()
    if sum(1 for land in s.lands if land.village == seat) >= 4:
        return False
    return all(c not in lands or lands[c].village is None for c in [pos, *neighbours(pos)])


def _land_spot(s: State, pos: tuple[int, int]) -> tuple[int, int] | None:
    """An empty neighbour, preferring one close to the Gate (a compact world is hard to cut off)."""
    lands = s.land_map()
    empty = [c for c in neighbours(pos) if c not in lands]
    if not empty:
        return None
    return min(empty, key=lambda c: (abs(c[0]) + abs(c[1]), neighbours(pos).index(c)))


def _step(s: State, k: Kitsune, pos: tuple[int, int], lands: dict) -> tuple[int, int] | None:
    adjacent = [c for c in neighbours(pos) if c in lands]
    if not adjacent:
        return None
    dist = nm.distances(lands, [GATE])
    if k.praise >= 10 and seal_odds(k) >= SEAL_ODDS and pos != GATE:
        return min(adjacent, key=lambda c: dist.get(c, 99))
    # a beatable demon next door, the Gate's first
    fights = [(c, best_fight(s, k, c)) for c in adjacent]
    good = [(c, f) for c, f in fights if f and f[0] >= 0.65]
    here = best_fight(s, k, pos)
    if good and not (here and here[0] >= FIGHT_ODDS):
        return min(good, key=lambda cf: (cf[0] != GATE, -cf[1][0]))[0]
    if k.wounds and lands[pos].village is not None:
        return None  # stay and heal
    if lands[pos].village is None:
        villages = [c for c in adjacent if lands[c].village is not None and not s.demons_at(c)]
        if villages:
            return villages[0]
    return None


def _haunt(s: State, seat: int) -> str:
    if not s.haunted and not s.spawned:
        counts = {t: sum(1 for d in s.demons if d.type == t) for t in nt.DEMON_TYPES}
        kind = max(nt.DEMON_TYPES, key=lambda t: counts[t])
        dist = nm.distances(s.land_map(), [GATE])
        moves = []
        for d in s.demons:
            if d.type != kind:
                continue
            adj = [c for c in neighbours(d.at) if c in dist]
            if adj and d.at in dist:
                best = min(adj, key=lambda c: dist[c])
                if dist[best] < dist[d.at]:
                    moves.append(f"{d.id}>{nt.xy(best)}")
        return " ".join(["haunt", kind, *moves])
    w = Work.of(s)
    spots = nm.valid_spawn_lands(w)
    free = [t for t in nt.DEMON_TYPES if sum(1 for d in s.demons if d.type == t) < 4]
    if not s.spawned and spots and free:
        dist = nm.distances(s.land_map(), [GATE])
        spot = min(spots, key=lambda c: (dist.get(c, 99), c))
        return f"spawn {free[0]} {nt.xy(spot)}"
    return "end"


__all__ = ["HIGHEST", "STATS", "choose"]
