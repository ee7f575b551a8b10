"""Hand-built flying_blades views of the agreed shape, for the renderer's tests and the benchmark.

They do not need the rules module (written in parallel); once it exists, tests can render
``FlyingBlades().view(state, seat)`` as well.
"""

from __future__ import annotations

import random
from typing import Any

SEAT_COLOURS = ("red", "yellow", "blue", "green", "black")
MOVING = ("attack", "vanish", "double", "triple", "dragon")
CHARS = {"red": "r", "yellow": "y", "blue": "b", "green": "g", "black": "k"}


def relations(players: int) -> tuple[list[list[int]], list[list[int]]]:
    """(prey, hunters) per seat as the game defines them."""
    if players == 2:
        return [[], []], [[], []]
    steps = (1, 2) if players == 5 else (1,)
    prey = [sorted((s + k) % players for k in steps) for s in range(players)]
    hunters = [sorted((s - k) % players for k in steps) for s in range(players)]
    return prey, hunters


def make_view(
    players: int = 3,
    *,
    seed: int = 1,
    empty: int = 0,
    phase: str = "play",
    to_move: list[int] | None = None,
    viewer: int | None = None,
    hand: list[str] | None = None,
    hands: list[list[str]] | None = None,
    last: dict[str, Any] | None = None,
    outcome: dict[str, Any] | None = None,
    turn: int = 1,
) -> dict[str, Any]:
    """A valid view: 27 ninjas of each colour in play shuffled onto the board, ``empty`` of them removed."""
    temple = players >= 4
    width = 15 if temple else 9
    colours = list(SEAT_COLOURS[:players])
    neutral = "blue" if players == 2 else None
    in_play = colours + ([neutral] if neutral else [])
    usable = 12 if players == 4 else width
    rng = random.Random(seed)
    pieces = [CHARS[c] for c in in_play for _ in range(27)]
    rng.shuffle(pieces)
    for i in rng.sample(range(len(pieces)), empty):
        pieces[i] = "."
    rows = []
    for y in range(9):
        row = pieces[y * usable : (y + 1) * usable]
        rows.append("".join(row) + "#" * (width - usable))
    if last:  # make the board agree with the last move
        grid = [list(r) for r in rows]

        def put(cell: str, char: str) -> None:
            grid[9 - int(cell[1:])][ord(cell[0]) - 97] = char

        for cell in last.get("removed") or []:
            put(cell, ".")
        verb = last["action"].split()[0]
        if verb in MOVING and last.get("to"):  # the mover stands on `to`; `from` is left empty
            put(last["to"], CHARS[colours[last["seat"]]])
            if last.get("from"):
                put(last["from"], ".")
        elif last.get("from"):  # a thrower stays put
            put(last["from"], CHARS[colours[last["seat"]]])
        rows = ["".join(r) for r in grid]
    counts = {c: sum(r.count(CHARS[c]) for r in rows) for c in in_play}
    prey, hunters = relations(players)
    if players == 2:
        prey = [[], []]
    if to_move is None:
        to_move = list(range(players)) if phase == "draft" else [] if phase == "over" else [turn % players]
    return {
        "game": "flying_blades",
        "board_name": "temple" if temple else "house",
        "width": width,
        "height": 9,
        "board": rows,
        "players": players,
        "colours": colours,
        "neutral": neutral,
        "phase": phase,
        "to_move": sorted(to_move),
        "turn": turn,
        "viewer": viewer,
        "prey": prey,
        "hunters": hunters,
        "ninjas": counts,
        "captured": [0] * players,
        "hand_counts": [3] * players,
        "hand": hand if viewer is not None else None,
        "hands": hands,
        "drafted": [phase != "draft"] * players,
        "resigned": [False] * players,
        "passes": 0,
        "last_action": last,
        "options": {},
        "outcome": outcome,
    }


def sample_last_moves(players: int) -> list[dict[str, Any]]:
    """A few typical last moves (attack, card plays) for a board of that size."""
    return [
        {"seat": 0, "action": "attack c3 c4", "from": "c3", "to": "c4", "removed": ["c4"]},
        {"seat": 1 % players, "action": "shuriken b2 b7", "from": "b2", "to": "b7", "removed": ["b7"]},
        {"seat": 0, "action": "bomb e5 e8", "from": "e5", "to": "e8", "removed": ["d7", "e7", "f9"]},
        {"seat": 1 % players, "action": "double d4 d6", "from": "d4", "to": "d6", "removed": ["d5", "d6"]},
        {"seat": 0, "action": "pass", "from": None, "to": None, "removed": []},
    ]
