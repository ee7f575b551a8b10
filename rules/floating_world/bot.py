"""A Floating World policy that plays to win: exact contest odds (dice distributions), then a fixed plan.

The plan (measured with ``tools/floating_world_sim.py``; see docs/floating_world.md for the figures):

- **Home on the Gate.** A Kitsune on the Gate keeps demons from appearing there (6.4.3) and takes the hits a
  demon would deal the Gate itself; a Village on the Gate lets it harvest, heal and seal without moving.
- **Ring the Gate** with its four neighbours early: the Gate stops being an edge (no spawn on it even when the
  Kitsune is away) and five Lands roll two spawn dice, so all-sixes (Demon Strength) come 1 time in 36, not 6.
- **Villages for income**: the Gate's own first. Trips to diagonal Village sites (``EXPEDITIONS``) and fights
  away from the Gate (``STAY_HOME`` off) measured worse: an unguarded Gate was most of the losses, so both are
  off and the Kitsune leaves the Gate only when one more Wound would kill it and the Gate alone is likelier to
  hold (``_gate_safer_alone``).
- **Fight in the weak stat** when the odds favour it (outwit the Oni, impress the Tengu, bust the Gaki: 8.1),
  preferring Mind on near-ties (it is what seals); step onto a beatable demon next door, the Gate's first;
  never end a turn beside a demon it cannot beat unless it is guarding the Gate.
- **Harvest what helps the seal** (Mind, the seal legend, rerolls) and income, keeping Praise for the seal.
- **Seal** when the odds are decent, sooner as Demon Strength grows; ``boost`` (9.2) is spent on the seal and
  on close fights when the table allows it.
- A Kitsune away from the Gate with nothing to pay for walks home (the Gate's people help it: game.gate_gift).
- **The long night.** Once Demon Strength has grown past every fight (``hopeless``: no stat beats any demon
  type 1 time in 5), or past +3D while the seal is still unlikely, Lands only feed the demons and only the
  seal can win: the Kitsune goes home, fights only what it beats, builds a Village if it has none, harvests
  for the seal (Mind, the seal legend, rerolls) and casts the Spell whenever it can pay and the roll can reach
  15. Without this a two-Kitsune table with a Body-strong, Mind-poor fox never died and never sealed (3,241 turns).

- **A team** (two or more Kitsune on the map) follows one shared plan (``plan.py``, a pure function of the
  public state): one guard holds the Gate and plays the plan above; the sealer receives its partners' Mind and
  reroll Items (free trades, 5.9.1) and they shop for it; the others hunt the demons near the Gate (split by
  proximity, one fox per demon) or build Lands and Villages away from the Gate. Measured with
  ``tools/fw_team_sim.py``. A phase this bot does not know gets the first legal action.
- **The Nightmare's decisions** (spawn Land, demon order, flee) are ``bot_nightmare``'s rule.

A dead vengeful player walks its strongest type toward the Gate and spawns next to it. Always returns a legal
action.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from rules.floating_world import bot_nightmare, plan
from rules.floating_world import nightmare as nm
from rules.floating_world import notation as nt
from rules.floating_world.content import DREAM_BY_ID, STATS
from rules.floating_world.state import DEMON_STATS, GATE, HIGHEST, Kitsune, State, Work, neighbours
from rules.floating_world.state import max_wounds as st_max_wounds

SEAL_ODDS, SEAL_ODDS_DANGER, FIGHT_ODDS, STEP_ODDS = 0.20, 0.10, 0.55, 0.65
Legal = Callable[[State, int], list[str] | None]  # the game's legal_actions, passed in (no import of game.py)
HOPELESS = 0.2  # below these odds against every demon type, fighting (and building) is over: save for the seal
SEAL_ENOUGH = 0.3  # the long night stops shopping for Mind at these seal odds
LONG_NIGHT = 9  # Demon Strength (in pips, +3D) past which Lands are fodder and only the seal matters
EXPEDITIONS = False
STAY_HOME = True
KNOWN_PHASES = ("dream", "haunt")
TEAM_LANDS = 9  # a partner keeps building Lands up to this many: three spawn dice rarely all show 6 (8.2)
RING = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONALS = ((1, 1), (-1, -1), (1, -1), (-1, 1))


@functools.lru_cache(maxsize=128)  # (dice, plus): 36 seen over 36 bot games of every difficulty and size
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


@functools.lru_cache(maxsize=1024)  # pairs of rolls: ~270 seen over the same 36 games
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


def demon_odds(s: State, k: Kitsune, demon_type: str, stat: str, boost: int = 0) -> float:
    base = DEMON_STATS[demon_type][stat]
    theirs = (base.dice + s.strength.dice, base.pips + s.strength.pips)
    return with_reroll(p_beats(my_roll(k, stat, "demon", boost), theirs), k)


def seal_odds(k: Kitsune, boost: int = 0) -> float:
    return with_reroll(p_at_least(*my_roll(k, "mind", "seal", boost), 15), k)


def defence_odds(s: State, k: Kitsune, demon_type: str) -> float:
    """The chance a demon's attack on ``k`` (its highest stat vs the same stat) misses."""
    stat = HIGHEST[demon_type]
    base = DEMON_STATS[demon_type][stat]
    return 1 - p_beats((base.dice + s.strength.dice, base.pips + s.strength.pips), my_roll(k, stat, "demon"))


def best_fight(s: State, k: Kitsune, at: tuple[int, int], boost: int = 0) -> tuple[float, str, str] | None:
    """(odds, demon type, stat) of the best fight on ``at``; Mind is worth a little more (it is what seals)."""
    order = ("mind", "spirit", "body")
    options = [(demon_odds(s, k, d.type, x, boost), d.type, x) for d in s.demons_at(at) for x in order]
    if not options:
        return None
    return max(options, key=lambda o: (o[0] + (0.04 if o[2] == "mind" else 0), -order.index(o[2])))


def card_value(s: State, k: Kitsune, card: str) -> float:
    """How much a Dream card helps this Kitsune win (roughly, in Praise-sized units)."""
    d = DREAM_BY_ID[card]
    villages = sum(1 for land in s.lands if land.village == k.seat)
    kind = d.kind
    if kind == "stat_bonus":
        return {"mind": 3.0, "body": 0.8, "spirit": 0.8}[d.get("stat")] * d.get("pips")
    if kind == "contest_die":
        return {"seal": 9.0, "demon": 4.0, "village": 0.0, "kitsune": 0.0}[d.get("contest")]
    if kind == "village_praise":
        return d.get("amount") * max(villages, 1) * 2.0
    if kind == "reroll":
        return 0.0 if k.effects("legend_reroll") else 3.5 - 1.0 * len(k.effects("reroll"))
    if kind == "legend_reroll":
        return 6.0
    return {"harvest_praise": 1.0, "heal": 0.8, "land_guard": 1.5, "harvest_draw": 0.8,
            "max_wounds": 4.0}.get(kind, 0.0)


def danger(s: State) -> bool:
    """A demon on or next to the Gate."""
    near = {GATE, *neighbours(GATE)}
    return any(d.at in near for d in s.demons)


def seal_threshold(s: State) -> float:
    """Lower as the demons grow: waiting costs more when they are strong."""
    grown = s.strength.value
    return max(0.12, SEAL_ODDS - 0.03 * grown - (0.05 if danger(s) else 0.0))


def _boosted(s: State, k: Kitsune, spare: int) -> bool:
    return s.options.boost and k.praise >= spare + 1


def choose(s: State, seat: int, legal: Legal | None = None) -> str:
    """The bot's action; ``legal`` (the game's `legal_actions`) answers a phase this bot was not taught."""
    if s.phase not in KNOWN_PHASES:
        return _first_legal(s, seat, legal)
    if s.phase == "haunt":
        return _haunt(s, seat)
    k = s.kitsune[seat]
    if s.pending is not None:  # the Nightmare waits for this seat's decision (issue 23)
        return nightmare_choice(s)
    team = team_plan(s)
    if s.harvest is not None:
        return _buy(s, k, team)
    pos = k.pos or GATE
    lands = s.land_map()
    gift = _gift(s, k, team)
    if gift is not None:
        return gift
    if long_night(s, k):
        return _long_night(s, k, pos, lands)
    boost = _boosted(s, k, 10)
    odds = seal_odds(k, int(boost))
    ready = k.praise >= 10 and odds >= seal_threshold(s)
    if pos == GATE and "seal" not in k.used and k.praise >= 10 and (ready or k.praise >= 20):
        return "seal boost" if boost else "seal"
    fight = best_fight(s, k, pos)
    if fight and "attack_demon" not in k.used:
        fb = _boosted(s, k, 10 if ready else 3)
        strong = best_fight(s, k, pos, 1) if fb else None
        if strong and strong[0] >= FIGHT_ODDS and (fight[0] < FIGHT_ODDS or strong[0] - fight[0] > 0.15):
            return f"attack {strong[1]}@{nt.xy(pos)} {strong[2]} boost"
        if fight[0] >= FIGHT_ODDS:
            return f"attack {fight[1]}@{nt.xy(pos)} {fight[2]}"
    if not k.used and not k.moved:
        step = _step(s, k, pos, lands, ready, team)
        if step is not None:
            return f"move {nt.xy(step)}"
    land = lands[pos]
    owner = land.village
    mine = sum(1 for x in s.lands if x.village == seat)
    if owner is not None and owner != seat and not s.kitsune[owner].on_map and "takeover" not in k.used and \
            mine < 4:
        return f"takeover {max(STATS, key=lambda x: my_roll(k, x, 'village'))}"  # a free roll: the dead don't mind
    if land.village is not None and k.wounds and not k.moved and "heal" not in k.used:
        return "heal"
    saving = ready and pos == GATE
    if "village" not in k.used and k.praise >= 3 and not saving and _village_ok(s, pos, seat):
        return "village"
    spot = _land_spot(s, pos, seat)
    viable = odds >= seal_threshold(s) and mine > 0  # only Praise is missing: Lands can wait
    builder = team is not None and team.role(seat) != "guard" and len(lands) < TEAM_LANDS
    if "land" not in k.used and spot is not None and not saving and (builder or not viable) and k.praise >= 3 and (
            len(lands) < 5 or k.praise >= 6 or _needed(s, spot) or builder):
        return f"land {nt.xy(spot)}"
    if "harvest" not in k.used and land.village is not None and k.praise >= 2 and not saving:
        return "harvest"
    if fight and "attack_demon" not in k.used and fight[0] >= 0.35:
        return f"attack {fight[1]}@{nt.xy(pos)} {fight[2]}"
    return "end"


def nightmare_choice(s: State) -> str:
    """The Nightmare's pending decision (resolve order, flee, spawn Land): ``bot_nightmare``'s rule."""
    return bot_nightmare.choose(s, demon_odds)


def _first_legal(s: State, seat: int, legal: Legal | None) -> str:
    """A decision this bot was not taught (a phase added later): the first legal action, never a stall."""
    actions = legal(s, seat) if legal is not None else None
    return actions[0] if actions else "end"


def team_plan(s: State) -> plan.Plan | None:
    """The shared plan when two or more Kitsune are on the map; solo play keeps the lone fox's plan."""
    if sum(1 for k in s.kitsune if k.on_map) < 2:
        return None
    return plan.make(s)


def passable(card: str) -> bool:
    """An Item the sealer wants: Mind (what seals) or a reroll."""
    d = DREAM_BY_ID[card]
    return d.type == "item" and (d.kind == "reroll" or (d.kind == "stat_bonus" and d.get("stat") == "mind"))


def _gift(s: State, k: Kitsune, team: plan.Plan | None) -> str | None:
    """Hand the sealer, on this Land, the Items that raise its seal (a free trade, 5.9.1)."""
    if team is None or team.sealer is None or team.sealer == k.seat:
        return None
    sealer = s.kitsune[team.sealer]
    if sealer.pos != k.pos:
        return None
    card = next((c for c in k.items if passable(c)), None)
    return None if card is None else f"trade {card} to {sealer.seat + 1}"


def long_night(s: State, k: Kitsune) -> bool:
    """Every fight is hopeless, or the demons are strong and only better Mind can ever seal."""
    return hopeless(s, k) or (s.strength.value >= LONG_NIGHT and seal_odds(k) < SEAL_ENOUGH)


def hopeless(s: State, k: Kitsune) -> bool:
    """No stat of ``k`` beats any demon type often enough to be worth a fight."""
    return all(demon_odds(s, k, kind, stat) < HOPELESS for kind in DEMON_STATS for stat in STATS)


def _long_night(s: State, k: Kitsune, pos: tuple[int, int], lands: dict) -> str:
    """Demons past every fight: go home, keep (or build) an income, and spend Praise only on the seal."""
    odds = seal_odds(k)
    if pos != GATE:
        adjacent = [c for c in neighbours(pos) if c in lands]
        dist = nm.distances(lands, [GATE])
        if not k.used and not k.moved and adjacent:
            return f"move {nt.xy(min(adjacent, key=lambda c: dist.get(c, 99)))}"
    elif "seal" not in k.used and k.praise >= 10 and odds > 0:
        return "seal"
    fight = best_fight(s, k, pos)
    if fight and "attack_demon" not in k.used and fight[0] >= FIGHT_ODDS:
        return f"attack {fight[1]}@{nt.xy(pos)} {fight[2]}"
    mine = sum(1 for land in s.lands if land.village == k.seat)
    owner = lands[pos].village
    if owner is not None and owner != k.seat and not s.kitsune[owner].on_map and "takeover" not in k.used:
        return f"takeover {max(STATS, key=lambda x: my_roll(k, x, 'village'))}"  # income, or no seal ever
    if mine == 0 and "village" not in k.used and k.praise >= 3 and _village_ok(s, pos, k.seat):
        return "village"
    land = lands[pos]
    if land.village is not None and k.wounds and not k.moved and "heal" not in k.used:
        return "heal"
    if land.village is not None and "harvest" not in k.used and odds < SEAL_ENOUGH and k.praise >= 3:
        return "harvest"
    return "end"


def _needed(s: State, spot: tuple[int, int]) -> bool:
    """A Land that rings the Gate or makes room for a Village of ours."""
    return spot in RING or spot in DIAGONALS


def _buy(s: State, k: Kitsune, team: plan.Plan | None = None) -> str:
    affordable = [c for c in s.harvest or () if DREAM_BY_ID[c].cost <= k.praise]
    if team is not None and team.sealer not in (None, k.seat):
        return _buy_for(s, k, s.kitsune[team.sealer], affordable)
    if long_night(s, k):  # the long night: Praise is for the seal, and only what helps it is worth buying
        useful = [c for c in affordable if seal_gain(k, c) > 0] if seal_odds(k) < SEAL_ENOUGH else []
        return f"buy {max(useful, key=lambda c: (seal_gain(k, c), c))}" if useful else "keep none"
    if not affordable:
        return "keep none"
    best = max(affordable, key=lambda c: (card_value(s, k, c) - DREAM_BY_ID[c].cost, c))
    value, cost = card_value(s, k, best), DREAM_BY_ID[best].cost
    odds = seal_odds(k)
    if odds >= seal_threshold(s) and value < 8:
        return "keep none"  # only Praise is missing: it is for the seal
    if value < cost * 0.8:
        return "keep none"
    return f"buy {best}"


def _buy_for(s: State, k: Kitsune, sealer: Kitsune, affordable: list[str]) -> str:
    """A partner shops for the team: what helps the sealer's roll is valued as the sealer would value it."""
    if not affordable:
        return "keep none"

    def value(c: str) -> float:
        return card_value(s, sealer if passable(c) else k, c) - DREAM_BY_ID[c].cost

    best = max(affordable, key=lambda c: (value(c), c))
    if value(best) + DREAM_BY_ID[best].cost < DREAM_BY_ID[best].cost * 0.8:
        return "keep none"
    return f"buy {best}"


def seal_gain(k: Kitsune, card: str) -> float:
    """How much a Dream card would raise this Kitsune's chance to cast the Spell (a reroll of 0 is still 0)."""
    d = DREAM_BY_ID[card]
    dice, plus = my_roll(k, "mind", "seal")
    base = p_at_least(dice, plus, 15)
    if d.kind == "stat_bonus" and d.get("stat") == "mind":
        pips = dice * 3 + plus + d.get("pips")
        new = p_at_least(pips // 3, pips % 3, 15)
    elif d.kind == "contest_die" and d.get("contest") == "seal":
        new = p_at_least(dice + 1, plus, 15)
    elif d.kind in ("reroll", "legend_reroll"):
        new = 1 - (1 - base) ** 2
    else:
        return 0.0
    return with_reroll(new, k) - with_reroll(base, k) if d.kind not in ("reroll", "legend_reroll") else new - base


def _village_ok(s: State, pos: tuple[int, int], seat: int) -> bool:
    lands = s.land_map()
    if sum(1 for land in s.lands if land.village == seat) >= 4:
        return False
    if s.demons_at(pos) and pos != GATE:
        return False  # it would likely be torn down at once
    return all(c not in lands or lands[c].village is None for c in [pos, *neighbours(pos)])


def _land_spot(s: State, pos: tuple[int, int], seat: int) -> tuple[int, int] | None:
    """An empty neighbour: the Gate's ring first, then a diagonal (a Village site), then close to the Gate."""
    lands = s.land_map()
    empty = [c for c in neighbours(pos) if c not in lands]
    if not empty:
        return None
    return min(empty, key=lambda c: (c not in RING, c not in DIAGONALS, abs(c[0]) + abs(c[1]),
                                     neighbours(pos).index(c)))


def _safe(s: State, k: Kitsune, c: tuple[int, int]) -> bool:
    return not s.demons_at(c)


def _step(s: State, k: Kitsune, pos: tuple[int, int], lands: dict, ready: bool,
          team: plan.Plan | None = None) -> tuple[int, int] | None:
    adjacent = [c for c in neighbours(pos) if c in lands]
    if not adjacent:
        return None
    dist = nm.distances(lands, [GATE])
    home = min(adjacent, key=lambda c: dist.get(c, 99))
    last = k.wounds + 1 >= st_max_wounds(s, k)
    here = best_fight(s, k, pos)
    if ready and pos != GATE:
        return home
    if GATE in adjacent and s.demons_at(GATE) and not last:
        return GATE  # fight it there, or at least take its blows instead of the Gate
    if team is not None and team.role(k.seat) != "guard":
        return _partner_step(s, k, pos, lands, team, adjacent, dist)
    if team is not None and pos != GATE and _safe(s, k, home):
        return home  # the guard's place is the Gate
    if pos == GATE and STAY_HOME and not (here and last):
        return None
    # a beatable demon next door, the Gate's first
    fights = [(c, best_fight(s, k, c)) for c in adjacent]
    good = [(c, f) for c, f in fights if f and f[0] >= (STEP_ODDS + (0.15 if last else 0.0))
            and len(s.demons_at(c)) == 1]
    if good and not (here and here[0] >= FIGHT_ODDS):
        return min(good, key=lambda cf: (cf[0] != GATE, -cf[1][0]))[0]
    if here and pos != GATE:
        safe = [c for c in adjacent if _safe(s, k, c)]
        if safe:
            return min(safe, key=lambda c: dist.get(c, 99))  # don't wait beside a demon you cannot beat
    if here and pos == GATE and last and _gate_safer_alone(s, k):
        safe = [c for c in adjacent if _safe(s, k, c)]
        if safe:
            return safe[0]  # one more Wound would kill: let the Gate take its chance
    if k.wounds and lands[pos].village is not None and not here:
        return None  # stay and heal
    if pos == GATE:
        return _expedition(s, k, lands, adjacent)
    # away from the Gate: build a Village here if we can, else go on to a Village site, else home
    if _village_ok(s, pos, k.seat) and k.praise >= 3:
        return None
    if nm.is_edge(lands, GATE) and home is not None and _safe(s, k, home):
        return home  # the Gate is open to spawns
    site = _site_next_to(s, k, pos, lands)
    if site is not None and k.praise >= 3:
        return site if site in lands and _safe(s, k, site) else None
    if home is not None and _safe(s, k, home):
        return home
    return None


def _partner_step(s: State, k: Kitsune, pos: tuple[int, int], lands: dict, team: plan.Plan, adjacent: list,
                  dist: dict) -> tuple[int, int] | None:
    """A fox that is not guarding: hunt its demon, bring the sealer its Items, else build away from the Gate."""
    last = k.wounds + 1 >= st_max_wounds(s, k)
    here = best_fight(s, k, pos)
    target = team.hunts.get(k.seat)
    if target is not None and target != pos:
        reach = nm.distances(lands, [target])
        nxt = min(adjacent, key=lambda c: (reach.get(c, 99), c))
        fight = best_fight(s, k, nxt)
        if nxt == target and fight and fight[0] >= STEP_ODDS and len(s.demons_at(nxt)) == 1:
            return nxt
        if nxt != target and _safe(s, k, nxt) and not (here and here[0] >= FIGHT_ODDS):
            return nxt
    sealer = s.kitsune[team.sealer] if team.sealer is not None else None
    if sealer is not None and sealer.pos not in (None, pos) and any(passable(c) for c in k.items):
        reach = nm.distances(lands, [sealer.pos])
        nxt = min(adjacent, key=lambda c: (reach.get(c, 99), c))
        if _safe(s, k, nxt) or nxt == sealer.pos:
            return nxt
    if here and pos != GATE and not (here[0] >= FIGHT_ODDS):
        safe = [c for c in adjacent if _safe(s, k, c)]
        if safe:
            return min(safe, key=lambda c: dist.get(c, 99))
    if last or (k.wounds and lands[pos].village is not None):
        return None if lands[pos].village is not None else home_or_none(s, k, adjacent, dist)
    if pos == GATE:
        return _expedition(s, k, lands, adjacent, force=True)
    if _village_ok(s, pos, k.seat) and k.praise >= 3:
        return None
    site = _site_next_to(s, k, pos, lands)
    if site is not None and k.praise >= 3:
        return site if site in lands and _safe(s, k, site) else None
    if k.praise < 3 and not any(x.village == k.seat for x in s.lands):
        return home_or_none(s, k, adjacent, dist)  # no income out here: the Gate's people help at home
    if lands[pos].village == k.seat or k.praise < 3:
        return None  # at home in its own Village (harvest, heal) or saving for the next build
    return home_or_none(s, k, adjacent, dist)


def home_or_none(s: State, k: Kitsune, adjacent: list, dist: dict) -> tuple[int, int] | None:
    home = min(adjacent, key=lambda c: dist.get(c, 99))
    return home if _safe(s, k, home) and dist.get(home, 99) < 99 else None


def _gate_safer_alone(s: State, k: Kitsune) -> bool:
    """Would the Gate left alone (its demons roll vs its defence) lose less often than a fox one Wound from
    death staying to fight (a failed attack, then every demon there strikes)?"""
    demons = s.demons_at(GATE)
    fight = best_fight(s, k, GATE)
    p_kill = fight[0] if fight else 0.0
    survive = 1.0
    for i, d in enumerate(demons):
        miss = defence_odds(s, k, d.type)
        survive *= miss if i else (p_kill + (1 - p_kill) * miss) if len(demons) == 1 else miss
    stay_loss = 1 - survive
    defence = s.options.land_defence
    hold = 1.0
    for d in demons:
        stat = DEMON_STATS[d.type][HIGHEST[d.type]]
        hold *= 1 - p_at_least(stat.dice + s.strength.dice, stat.pips + s.strength.pips, defence + 1)
    return 1 - hold < stay_loss


def _expedition(s: State, k: Kitsune, lands: dict, adjacent: list, force: bool = False) -> tuple[int, int] | None:
    """Leave the Gate only when its ring is whole, there is Praise for a Village, and none is being saved."""
    if EXPEDITIONS is False and not force:
        return None
    if any(c not in lands for c in RING) or k.praise < 3:
        return None
    if lands[GATE].village is None and _village_ok(s, GATE, k.seat):
        return None  # the Gate's own Village first
    if sum(1 for land in s.lands if land.village == k.seat) >= 4:
        return None
    for c in adjacent:
        if _site_next_to(s, k, c, lands) is not None and _safe(s, k, c):
            return c
    return None


def _site_next_to(s: State, k: Kitsune, pos: tuple[int, int], lands: dict) -> tuple[int, int] | None:
    """A diagonal Village site next to ``pos``: an existing Land where a Village may go, or an empty space."""
    for c in neighbours(pos):
        if c not in DIAGONALS:
            continue
        ok = all(n not in lands or lands[n].village is None for n in [c, *neighbours(c)])
        if ok and (c not in lands or not s.demons_at(c)):
            return c
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
