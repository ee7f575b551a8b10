"""The bot's answers to the Nightmare's decisions (issue 23: 6.1 order, 6.2 flee, 6.4.3 spawn Land).

A pure function of the public state and the pending decision (no randomness, no memory), always one of the listed
choices. Reasoned from the rulebook and measured against the automatic choices with
``tools/floating_world_nightmare_decisions.py --paired`` (figures in docs/floating_world.md):

- **Spawn (6.4.3 "on any Land that has an empty border and no Kitsune").** A new demon does not attack this turn
  (6.4.2); afterwards it rolls against its Land every Nightmare and, when it shreds it, moves by its type (7.x).
  Put it where a shred costs least: never the Gate while another Land will do (3.4), on a Land whose loss cuts
  nothing else off (6.3), onto a Land a demon already holds (6.1.2 "The Land vanishes along with anything on it": one
  shred then takes both, two demons cost one Land), away from Villages (income, and where a Gaki walks), far from
  the Gate by path (an Oni walks "straight toward the Gate"). Lands are what keep spawn dice many and all-sixes
  (Demon Strength, 6.4.1) rare, so a Land saved is the team's margin.
- **Order (6.1 "Handle them in any order").** The demons that attack a Kitsune first, the most dangerous first,
  then those that attack Lands, nearest the Gate first.
- **Flee (6.2 "may move for free to an adjacent Land").** An unguarded Gate first (a Kitsune there stops spawns on
  it, 6.4.3, and takes the blows the Gate would), else a Land without a demon the fox cannot beat, its own
  Village, then as near the Gate as it can.

Measured (400 seeded games per player count, 2–4): no worse than the automatic choices and not measurably better
(docs/floating_world.md); kept because each choice follows from a rule and none needs a random stream.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.floating_world import nightmare as nm
from rules.floating_world.content import STATS
from rules.floating_world.state import GATE, HIGHEST, Kitsune, State, neighbours

Coord = tuple[int, int]
Odds = Callable[[State, Kitsune, str, str], float]  # bot.demon_odds, passed in (bot imports this module)


def coord_of(choice: str) -> Coord:
    """The Land a choice names: ``spawn 1,0``, ``flee 1,0``, ``resolve oni@1,0``."""
    x, y = choice.rsplit(" ", 1)[1].rsplit("@", 1)[-1].split(",")
    return int(x), int(y)


def choose(s: State, odds: Odds) -> str:
    """The bot's answer to ``s.pending``: one of its choices, the same for the same state."""
    p = s.pending
    assert p is not None
    choices = sorted(c for c in p["choices"] if c != nm.ALL)
    if p["decision"] == "spawn":
        return min(choices, key=lambda c: (_spawn_cost(s, coord_of(c)), c))
    if p["decision"] == "resolve":
        return min(choices, key=lambda c: (_resolve_rank(s, coord_of(c), c.split(" ", 1)[1].split("@")[0], odds), c))
    k = s.kitsune[p["fleeing"]]
    return min(choices, key=lambda c: (_flee_rank(s, k, coord_of(c), odds), c))


def cut_by(lands: set[Coord], c: Coord) -> int:
    """How many other Lands losing ``c`` would cut off from the Gate (6.3)."""
    if c == GATE:
        return len(lands)
    rest = lands - {c}
    return len(rest) - len(nm.distances(rest, [GATE]))


def _spawn_cost(s: State, c: Coord) -> tuple[bool, int, int, int, int]:
    lands = s.land_map()
    dist = nm.distances(lands, [GATE])
    owned = {at for at, land in lands.items() if land.village is not None}
    near_village = sum(1 for n in [c, *neighbours(c)] if n in owned)
    return c == GATE, cut_by(set(lands), c), -len(s.demons_at(c)), near_village, -dist.get(c, 99)


def _resolve_rank(s: State, c: Coord, kind: str, odds: Odds) -> tuple[int, float, int]:
    """Attacks on Kitsune first (the worst defence first), then Lands nearest the Gate."""
    foxes = [k for k in s.kitsune if k.on_map and k.pos == c]
    if foxes:
        worst = min(odds(s, k, kind, HIGHEST[kind]) for k in foxes)
        return 0, worst, 0
    return 1, 0.0, nm.distances(s.land_map(), [GATE]).get(c, 99)


def _flee_rank(s: State, k: Kitsune, c: Coord, odds: Odds) -> tuple[int, int, int, int]:
    lands = s.land_map()
    guarded = any(f.on_map and f.pos == GATE and f.seat != k.seat for f in s.kitsune)
    threat = sum(1 for d in s.demons_at(c) if max(odds(s, k, d.type, x) for x in STATS) < 0.55)
    home = lands[c].village == k.seat if c in lands else False
    return (0 if c == GATE and not guarded else 1), threat, not home, nm.distances(lands, [GATE]).get(c, 99)


__all__ = ["choose", "coord_of", "cut_by"]
