"""the_floor views for the renderer's tests and the benchmark: real views from bot playouts of
``rules.the_floor.TheFloor`` at the positions worth drawing, plus a few synthetic twists of them (a judged
answer, a resigned side, a very long category name) that a scripted playout rarely reaches.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

from rules.the_floor import State, TheFloor

G = TheFloor()
NAMES = ["Ann", "Bożena", "Cyprian", "Dagny", "Eun-ji", "Filip", "Gosia", "Hiro", "Ilse", "Jędrzej"]

# kind -> does this view show it
KINDS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "draft": lambda v: v["phase"] == "draft",
    "play": lambda v: v["phase"] == "play" and not v["duel"] and not v["pending"] and v["round"] >= 2,
    "duel_ready": lambda v: v["phase"] == "play" and bool(v["duel"]) and not v["duel"]["started"],
    "duel": lambda v: v["phase"] == "play" and bool(v["duel"]) and len(v["duel"]["answers"]) >= 3,
    "take": lambda v: bool(v["pending"]) and v["pending"]["kind"] == "take",
    "keep": lambda v: bool(v["pending"]) and v["pending"]["kind"] == "keep",
    "round_final_card": lambda v: bool(v["pending"]) and v["pending"]["kind"] == "final",
    "final_pick": lambda v: bool(v["pending"]) and v["pending"]["kind"] == "final_pick",
    "final": lambda v: (
        v["phase"] == "final"
        and bool(v["duel"])
        and len(v["duel"]["answers"]) >= 2
        and (bool(v["final_out"]) or v["sides"] == 2)
    ),  # past the first Final duel where there is one
    "over": lambda v: v["phase"] == "over",
}


@functools.lru_cache(maxsize=64)
def playout(players: int, seed: str, lang: str = "en") -> tuple[State, ...]:
    """Every state of a scripted game (the rules' bot at every seat) from the deal to the end."""
    s = G.new(players, {"lang": lang}, seed)
    out = [s]
    for n in range(5000):
        movers = sorted(G.to_move(s))
        if not movers:
            break
        seat = movers[n % len(movers)]
        s, _ = G.apply(s, seat, G.bot_action(s, seat))
        out.append(s)
    return tuple(out)


def real_view(players: int, kind: str, seat: int | None = None, *, lang: str = "en", seed: str = "") -> dict[str, Any]:
    """The first view of a ``kind`` position (see `KINDS`) in a scripted game of that many players, seen by
    ``seat`` (None: a spectator). Tries a few seeds for positions that not every game reaches."""
    test = KINDS[kind]
    seeds = [seed] if seed else [f"render-{players}-{i}" for i in range(12)]
    for sd in seeds:
        for s in playout(players, sd, lang):
            view = G.view(s, None)
            if test(view):
                return G.view(s, seat) if seat is not None else view
    raise LookupError(f"no {kind} position for {players} players")


def all_views(players: int, seed: str, every: int = 1, seat: int | None = None) -> list[dict[str, Any]]:
    """Every ``every``-th view of one scripted game."""
    return [G.view(s, seat) for s in playout(players, seed)[::every]]


def names_for(view: dict[str, Any]) -> list[str]:
    return NAMES[: view["players"]]


# --------------------------------------------------------------------------------------- synthetic twists


def with_judging(view: dict[str, Any], answer: str = "Zebra finch", votes: int = 1) -> dict[str, Any]:
    """A duel view whose running side's last answer is being judged (the clock stopped)."""
    v = copy.deepcopy(view)
    d = v["duel"]
    d["judging"], d["votes"], d["running"] = answer, votes, None
    return v


def with_resigned(view: dict[str, Any], side: int) -> dict[str, Any]:
    v = copy.deepcopy(view)
    v["resigned"][side] = True
    return v


def with_long_category(view: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    """Every field's category renamed to a very long one (and the duel's, if any)."""
    long = name or "Famous bridges, tunnels and other feats of civil engineering of the nineteenth century"
    v = copy.deepcopy(view)
    for f in v["fields"]:
        f["categories"] = [{"id": c["id"], "name": long} for c in f["categories"]]
    if v["duel"]:
        v["duel"]["category"] = {"id": "x", "name": long}
    return v
