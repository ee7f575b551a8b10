"""The team's shared plan for Floating World bots: who seals, who guards the Gate, who hunts which demon.

A pure function of the public state (what ``view(state, seat)`` shows every seat: the map, the demons, each
Kitsune's stats, Praise, Items and Legends), recomputed every turn, so every bot seat derives the same plan and
no memory lives outside the state (deterministic for a seed, and the same after a reload).

- **Sealer**: the living Kitsune whose *own* seal roll (Mind and the seal Legend: Items move, so they do not
  count) is best; ties go to more Praise, then the lower seat. It must be able to pay for the Spell some day
  (3.2 "spend 10 Praise"; Praise is not traded, 5.9.1): a fox with no Village (5.1, the only income) and under
  3 Praise (5.5, the price of one) is passed over for a partner holding the 10 Praise now (seed ``team-easy-3-144``
  never ended: the Mind fox had 1 Praise and no Village, the fox with 641 Praise Mind 2D+1; passing over every
  fox under 10 Praise with no Village cost 4 players 9 points). Its partners pass it Mind and reroll Items
  (5.9.1 "traded as a free action with any Kitsune on the same Land") and shop for it.
- **Guard**: exactly one Kitsune holds the Gate (a fox there stops spawns on it, 6.4.3, and takes the blows a
  demon would deal the Gate, 6.1). The sealer when it stands there (it must seal there, 3.2); else the fox
  nearest the Gate, then the healthiest, then the lower seat. One Wound from death hands the duty on (the rota).
- **Hunters**: every other fox. Each demon within ``HUNT_RANGE`` of the Gate goes to the nearest free hunter
  (ties: fewer Wounds, lower seat), the demons nearest the Gate first, so two foxes never chase one demon while
  another walks on the Gate. A hunter with no demon builds Villages and Lands (income the sealer's Items need).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.floating_world import nightmare as nm
from rules.floating_world.state import GATE, Kitsune, State
from rules.floating_world.state import max_wounds as st_max_wounds

Coord = tuple[int, int]
VILLAGE_COST = 3  # 5.5 "Create a Village: Spend 3 Praise"
SEAL_COST = 10  # 3.2 "spend 10 Praise"
HUNT_RANGE = 2  # demons this close to the Gate (by path) are hunted; farther ones are left to the Lands


@dataclass(frozen=True)
class Plan:
    sealer: int | None
    guard: int | None
    hunts: dict[int, Coord] = field(default_factory=dict)  # hunter seat -> the Land of its demon

    def role(self, seat: int) -> str:
        if seat == self.guard:
            return "guard"
        return "hunt" if seat in self.hunts else "build"


def seal_strength(k: Kitsune) -> int:
    """The fox's own seal roll in pips (Mind plus seal Legends' dice), Items left out: they can be passed."""
    legend_dice = sum(d.get("dice") for d in k.effects("contest_die") if d.get("contest") == "seal")
    rerolls = len(k.effects("legend_reroll"))
    return k.mind.value + 3 * legend_dice + 2 * rerolls


def can_pay(s: State, k: Kitsune) -> bool:
    """Holds the Spell's 10 Praise (3.2), owns a Village to earn them (5.1) or can still build one (5.5, 3
    Praise): Praise cannot be handed over, so a fox with none of these never pays (the gift aside: game.py)."""
    return k.praise >= VILLAGE_COST or any(land.village == k.seat for land in s.lands)


def last_wound(s: State, k: Kitsune) -> bool:
    return k.wounds + 1 >= st_max_wounds(s, k)


def make(s: State) -> Plan:
    foxes = [k for k in s.kitsune if k.on_map and k.pos is not None]
    if not foxes:
        return Plan(None, None)
    sealer = _sealer(s, foxes)
    dist = nm.distances(s.land_map(), [GATE])
    guard = _guard(s, foxes, sealer, dist)
    return Plan(sealer.seat, guard.seat, _hunts(s, [k for k in foxes if k.seat != guard.seat], dist))


def _sealer(s: State, foxes: list[Kitsune]) -> Kitsune:
    """The best own seal roll; if that fox is broke for good, the best of those who can pay the Spell now."""
    best = max(foxes, key=lambda k: (seal_strength(k), k.praise, -k.seat))
    rich = [k for k in foxes if k.praise >= SEAL_COST]
    if can_pay(s, best) or not rich:
        return best
    return max(rich, key=lambda k: (seal_strength(k), k.praise, -k.seat))


def _guard(s: State, foxes: list[Kitsune], sealer: Kitsune, dist: dict[Coord, int]) -> Kitsune:
    if sealer.pos == GATE and not (last_wound(s, sealer) and len(foxes) > 1):
        return sealer
    return min(foxes, key=lambda k: (last_wound(s, k), dist.get(k.pos, 99) if k.pos else 99, k.wounds,
                                     k.seat != sealer.seat, k.seat))


def _hunts(s: State, hunters: list[Kitsune], dist: dict[Coord, int]) -> dict[int, Coord]:
    lands = s.land_map()
    targets = sorted({d.at for d in s.demons if dist.get(d.at, 99) <= HUNT_RANGE and d.at != GATE},
                     key=lambda c: (dist.get(c, 99), c))
    free = [k for k in hunters if not last_wound(s, k)]
    out: dict[int, Coord] = {}
    for at in targets:
        if not free:
            break
        reach = nm.distances(lands, [at])
        k = min(free, key=lambda k: (reach.get(k.pos, 99) if k.pos else 99, k.wounds, k.seat))
        out[k.seat] = at
        free.remove(k)
    return out


__all__ = ["Plan", "can_pay", "last_wound", "make", "seal_strength"]
