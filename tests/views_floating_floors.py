"""Hand-built floating_floors views of the agreed shape, for the renderer's tests and a future benchmark.

They do not need the rules module (written in parallel): terrain and floorboards come from the box's data
(`rules.floating_floors.components`), positions from `rules.floating_floors.statics` when it imports (else the
space centres), and each board's support polygon, centre of mass and margin from its balance model when it
imports (else made-up plausible values). Once the rules exist, tests can render ``FloatingFloors().view(...)``.
"""

from __future__ import annotations

import random
from typing import Any

from rules.floating_floors.components import BANSEN, FLOORBOARDS, JUTSU_KINDS, KIND_SHAPE, PHYSICS, TERRAIN

try:
    from rules.floating_floors import statics
except Exception:  # the views work without the balance model
    statics = None  # type: ignore[assignment]

NINJA_ORDER = ("sun", "smoke", "moon", "night")  # 2 players: one light, one shadow
NINJA_COLOUR = {"sun": "light", "moon": "light", "smoke": "shadow", "night": "shadow"}
BANSEN_PER_PLAYER = {2: 4, 3: 3, 4: 2}
OFFSETS = ("c", "n", "ne", "e", "se", "s", "sw", "w", "nw")
STEPS = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}


def alcoves(card_cols: int, card_rows: int) -> list[tuple[tuple[int, int], str]]:
    """(space, side) of every alcove, clockwise from the top-left (as the layout module numbers them)."""
    cols, rows = card_cols * 3, card_rows * 3
    top = [((c * 3 + 1, 0), "n") for c in range(card_cols)]
    right = [((cols - 1, r * 3 + 1), "e") for r in range(card_rows)]
    bottom = [((c * 3 + 1, rows - 1), "s") for c in reversed(range(card_cols))]
    left = [((0, r * 3 + 1), "w") for r in reversed(range(card_rows))]
    return [*top, *right, *bottom, *left]


def position(space: tuple[int, int], shape: str, offset: str) -> tuple[float, float]:
    if statics is not None:
        return statics.jutsu_position(space, shape, offset)
    return space[0] + 0.5, space[1] + 0.5


def balance(centre: tuple[float, float], supports: list[tuple[str, tuple[float, float]]],
            loads: list[tuple[tuple[float, float], float]]) -> dict[str, Any]:
    """support/centre/load/margin/stable of a board: the statics model's, or a plausible made-up answer."""
    if statics is not None:
        b = statics.balance(centre, supports, loads)
        return {"support": [list(p) for p in b.support], "centre": list(b.centre), "load": b.load,
                "margin": b.margin, "stable": b.stable}
    xs = [p[0] for _, p in supports] or [centre[0]]
    ys = [p[1] for _, p in supports] or [centre[1]]
    hull = [[min(xs) - 0.25, min(ys) - 0.25], [max(xs) + 0.25, min(ys) - 0.25], [max(xs) + 0.25, max(ys) + 0.25],
            [min(xs) - 0.25, max(ys) + 0.25]]
    inside = min(centre[0] - hull[0][0], hull[1][0] - centre[0], centre[1] - hull[0][1], hull[2][1] - centre[1])
    return {"support": hull, "centre": list(centre), "load": 6.0 + sum(w for _, w in loads),
            "margin": round(inside, 3), "stable": inside >= PHYSICS.min_margin}


def _cells(rows: tuple[str, ...], char: str, origin: tuple[int, int]) -> list[tuple[int, int]]:
    return [(origin[0] + c, origin[1] + r) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == char]


def _jutsu(jid: str, kind: str, space: tuple[int, int], level: str, offset: str) -> dict[str, Any]:
    shape = KIND_SHAPE[kind]
    x, y = position(space, shape, offset)
    return {"id": jid, "kind": kind, "colour": "black" if kind[0] == "b" else "white", "shape": shape,
            "space": list(space), "level": level, "x": x, "y": y}


def make_view(players: int = 2, *, seed: int = 1, boards: int = 3, physics_ok: bool = True,
              **overrides: Any) -> dict[str, Any]:
    """A plausible view: terrain from the box, ``boards`` boards (the first unstable unless ``physics_ok``),
    Jutsu under and on them and on free land, one ninja on a board, the rest in their alcoves, Bansen hidden
    in the other alcoves (one claimed). ``overrides`` replace top-level keys."""
    rng = random.Random(seed)
    card_cols, card_rows = 3, 2 if players == 2 else 3
    n_cards = card_cols * card_rows
    terrain = rng.sample(TERRAIN, n_cards)
    cards, land_of = [], {}
    for i, t in enumerate(terrain):
        side = "lake" if rng.random() < 0.25 else "terrain"
        origin = ((i % card_cols) * 3, (i // card_cols) * 3)
        rows = t.side(side)
        land = _cells(rows, "L", origin)
        land_of[i] = land
        cards.append({"index": i, "terrain": t.id, "side": side, "land": [list(c) for c in land],
                      "water": [list(c) for c in _cells(rows, "W", origin)], "board": None})
    deck = rng.sample(FLOORBOARDS, len(FLOORBOARDS))
    steady = [i for i in range(n_cards) if _can_stand(i, card_cols, land_of[i])] or list(range(n_cards))
    board_cards = sorted(rng.sample(steady, min(boards, len(steady))))
    jutsu: list[dict[str, Any]] = []
    out_boards: list[dict[str, Any]] = []
    ninjas_order = list(NINJA_ORDER[:players])
    ninja_spot: dict[str, Any] = {}
    for b_index, card in enumerate(board_cards):
        fb = deck.pop()
        back, turns = rng.random() < 0.4, rng.randrange(4)
        origin = ((card % card_cols) * 3, (card // card_cols) * 3)
        pattern = fb.pattern(back, turns)
        light, shadow = _cells(pattern, "L", origin), _cells(pattern, "S", origin)
        centre = (origin[0] + 1.5, origin[1] + 1.5)
        land = land_of[card]
        unstable = not physics_ok and b_index == 0
        for _ in range(40):  # a stable board (unless wanted unstable): retry the random placement
            supports, on_top, loads = _board_pieces(rng, land, light, shadow, unstable, len(jutsu))
            spot = None
            if b_index == 0 and ninjas_order:  # the first ninja stands on the first board, on its own colour
                spaces = light if NINJA_COLOUR[ninjas_order[0]] == "light" else shadow
                taken = {tuple(j["space"]) for j in on_top}
                free = [s for s in spaces if s not in taken] or spaces
                spot = free[len(free) // 2]
                loads.append(((spot[0] + 0.5, spot[1] + 0.5), PHYSICS.ninja_weight))
            shapes = [(KIND_SHAPE[j["kind"]], (j["x"], j["y"])) for j in supports]
            physics = balance(centre, shapes, loads)
            if physics["stable"] != unstable:
                break
        if spot is not None:
            ninja_spot[ninjas_order[0]] = spot
        jutsu += supports + on_top
        cards[card]["board"] = b_index
        out_boards.append({"index": b_index, "card": card, "board": fb.id, "back": back, "turns": turns,
                           "light": [list(c) for c in light], "shadow": [list(c) for c in shadow], **physics})
    for card in range(n_cards):  # a few Jutsu waiting on free land
        if card not in board_cards and land_of[card]:
            space = rng.choice(land_of[card])
            jutsu.append(_jutsu(f"j{len(jutsu) + 1}", rng.choice(JUTSU_KINDS), space, "ground", "c"))
    view_alcoves, ninjas = _alcoves_and_ninjas(rng, players, card_cols, card_rows, ninjas_order, ninja_spot, jutsu)
    current = 1 % players
    view = {
        "game": "floating_floors", "players": players, "turn": 7, "current": current, "phase": "navigate",
        "size": [card_cols * 3, card_rows * 3], "card_cols": card_cols, "card_rows": card_rows,
        "cards": cards, "boards": out_boards, "jutsu": jutsu, "ninjas": ninjas, "alcoves": view_alcoves,
        "roll": ["bs", "wt", "wh"], "to_take": ["wt"],
        "hands": [[rng.choice(JUTSU_KINDS) for _ in range(rng.randrange(0, 4))] for _ in range(players)],
        "pool": {k: rng.randrange(3, 10) for k in JUTSU_KINDS},
        "deck": {"count": len(deck), "top": deck[-1].id if deck else None,
                 "top_light": [list(c) for c in deck[-1].light()] if deck else []},
        "reset": None, "last": None, "winner": None,
    }
    view.update(overrides)
    return view


def _can_stand(card: int, card_cols: int, land: list[tuple[int, int]]) -> bool:
    """Whether a board over this card stands on squares on all its land (some lake sides cannot hold one)."""
    origin = ((card % card_cols) * 3, (card // card_cols) * 3)
    supports = [("square", position(s, "square", "c")) for s in land]
    return bool(supports) and balance((origin[0] + 1.5, origin[1] + 1.5), supports, [])["margin"] >= 0.3


def _board_pieces(rng: random.Random, land: list[tuple[int, int]], light: list[tuple[int, int]],
                  shadow: list[tuple[int, int]], unstable: bool, first_id: int
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[tuple[tuple[float, float], float]]]:
    """Supports under a board (spread over its land; one corner-most support when ``unstable``) and 1–2 Jutsu
    on top, with their loads."""
    n = first_id
    if unstable:
        far = max(land, key=lambda s: abs(s[0] % 3 - 1) + abs(s[1] % 3 - 1))
        picks = [far]
    else:
        picks = rng.sample(land, min(len(land), 4))
    supports = []
    for space in picks:
        n += 1
        local = (space[0] % 3 - 1, space[1] % 3 - 1)  # push supports outwards: a wider polygon
        offset = {(0, 0): "c", (0, -1): "n", (1, -1): "ne", (1, 0): "e", (1, 1): "se", (0, 1): "s",
                  (-1, 1): "sw", (-1, 0): "w", (-1, -1): "nw"}[local]
        supports.append(_jutsu(f"j{n}", rng.choice(JUTSU_KINDS), space, "ground", offset))
    on_top = []
    for space in rng.sample(light + shadow, 2)[: rng.randrange(1, 3)]:
        n += 1
        on_top.append(_jutsu(f"j{n}", rng.choice(JUTSU_KINDS), space, "board", rng.choice(OFFSETS)))
    loads = [((j["x"], j["y"]), PHYSICS.jutsu_weight) for j in on_top]
    return supports, on_top, loads


def _alcoves_and_ninjas(rng: random.Random, players: int, card_cols: int, card_rows: int, order: list[str],
                        spots: dict[str, Any], jutsu: list[dict[str, Any]]
                        ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rim = alcoves(card_cols, card_rows)
    out = []
    for i, (space, side) in enumerate(rim):
        dx, dy = STEPS[side]
        out.append({"index": i, "space": list(space), "side": side, "x": space[0] + 0.5 + dx,
                    "y": space[1] + 0.5 + dy, "chakra": None, "bansen": None})
    chakra_at = [round(i * len(rim) / players) for i in range(players)]
    for seat, a in enumerate(chakra_at):
        out[a]["chakra"] = seat
    free = [i for i in range(len(rim)) if i not in chakra_at]
    per = BANSEN_PER_PLAYER.get(players, 2)
    mine = {name: rng.sample([b for b in BANSEN if b.ninja == name], per) for name in order}
    dealt = [b for k in range(per) for b in (mine[name][k] for name in order)]
    claimed: dict[str, list[str]] = {name: [] for name in order}
    first = dealt.pop(0) if dealt else None  # the first player's first seal is already claimed
    if first is not None:
        claimed[first.ninja].append(first.id)
    for a, b in zip(free, dealt, strict=False):
        seat = order.index(b.ninja)
        out[a]["bansen"] = {"id": b.id, "ninja": b.ninja, "seat": seat, "direction": b.direction,
                            "number": b.number if b.number % 2 else None}
    ninjas = []
    for seat, name in enumerate(order):
        spot = spots.get(name)
        a = out[chakra_at[seat]]
        on = next((j["id"] for j in jutsu if spot and tuple(j["space"]) == spot and j["level"] == "board"), None)
        x, y = (spot[0] + 0.5, spot[1] + 0.5) if spot else (a["x"], a["y"])
        ninjas.append({"seat": seat, "ninja": name, "colour": NINJA_COLOUR[name], "x": x, "y": y,
                       "space": list(spot) if spot else None, "alcove": None if spot else a["index"],
                       "on_jutsu": on, "claimed": claimed[name], "needed": per})
    return out, ninjas
