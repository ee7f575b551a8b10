"""Hand-built floor_plan views of the agreed shape (docs/floor_plan.md), for the renderer's tests and the benchmark.

They do not need the rules module (written in parallel); once it exists, tests can render
``FloorPlan().view(state, seat)`` as well. Cells are ``[x, y]``, 0-based, ``A1 = [0, 0]``, rows top to bottom.
"""

from __future__ import annotations

import copy
import random
from typing import Any

BONUSES = ("double_feature", "double_room", "two_doors", "double_feature", "double_room", "two_doors")
CLIENTS = [
    {
        "id": "hosts",
        "kind": "build",
        "demands": [{"id": "hosts.1", "points": 3}, {"id": "hosts.2", "points": 4}],
        "door_bonus": None,
    },
    {
        "id": "swimmer",
        "kind": "design",
        "demands": [{"id": "swimmer.1", "points": 4}, {"id": "swimmer.2", "points": 3}],
        "door_bonus": None,
    },
    {"id": "step_free", "kind": "layout", "demands": [{"id": "step_free.1", "points": 5}], "door_bonus": {"points": 1}},
]


def room(rtype: str, x: int, y: int, w: int, h: int, label: tuple[int, int] | None = None) -> dict[str, Any]:
    lx, ly = label if label is not None else (x, y)
    return {"type": rtype, "x": x, "y": y, "w": w, "h": h, "label": [lx, ly]}


def notes(filled: list[tuple[int, str, bool]] | None = None) -> list[dict[str, Any]]:
    """Six notes; the first ones filled with (points, demand, bonus used)."""
    out = []
    for i, bonus in enumerate(BONUSES):
        if filled and i < len(filled):
            points, demand, used = filled[i]
            out.append({"points": points, "demand": demand, "bonus": bonus, "bonus_used": used})
        else:
            out.append({"points": None, "demand": None, "bonus": bonus, "bonus_used": False})
    return out


def empty_sheet(seat: int = 0) -> dict[str, Any]:
    return {
        "seat": seat,
        "rooms": [],
        "trees": [],
        "doors": [],
        "windows": [],
        "furnishings": [],
        "decks": [],
        "stones": [],
        "pools": [],
        "notes": notes(),
        "wild_used": False,
        "bubbles_used": None,
        "score": 0,
        "claims": [],
        "pending": None,
    }


def early_sheet(seat: int = 0) -> dict[str, Any]:
    """Round 1: the starting living room F6 6x3 (label on I7) and one kitchen."""
    sheet = empty_sheet(seat)
    sheet["rooms"] = [room("L", 5, 5, 6, 3, (8, 6)), room("K", 11, 4, 3, 4, (12, 5))]
    return sheet


def late_sheet(seat: int = 0) -> dict[str, Any]:
    """A busy sheet: seven rooms, two trees, doors, windows, furnishing arrangements, decks and a stone pool."""
    sheet = empty_sheet(seat)
    sheet["rooms"] = [
        room("L", 5, 5, 6, 3, (8, 6)),
        room("K", 5, 1, 4, 4, (6, 2)),
        room("D", 9, 2, 3, 3, (10, 3)),
        room("B", 11, 5, 4, 5, (12, 8)),
        room("W", 2, 5, 3, 2, (3, 5)),
        room("C", 5, 8, 2, 2, (5, 8)),
        room("B", 7, 8, 4, 3, (9, 9)),
    ]
    sheet["trees"] = [[0, 0], [13, 0]]
    sheet["doors"] = [[8, 4], [10, 4], [11, 6], [4, 6], [14, 8], [5, 3], [6, 9]]
    sheet["windows"] = [[6, 1], [11, 3], [2, 5], [12, 9], [9, 10], [14, 5]]
    sheet["furnishings"] = [[6, 6], [7, 6], [7, 7], [12, 6], [13, 6], [13, 7], [7, 2], [7, 3]]
    sheet["decks"] = [[15, 7], [15, 8], [15, 9], [11, 10], [12, 10], [13, 10]]
    sheet["stones"] = [[1, 8], [2, 8], [0, 9], [3, 9], [0, 10], [3, 10], [1, 11], [2, 11], [16, 12], [4, 0]]
    sheet["pools"] = [[[1, 9], [2, 9], [1, 10], [2, 10]]]
    sheet["notes"] = notes([(3, "hosts.1", True), (4, "swimmer.1", False), (3, "swimmer.2", False)])
    sheet["wild_used"] = True
    sheet["score"] = 10
    sheet["claims"] = [{"demand": "hosts.1", "points": 3, "cells": [[6, 2], [10, 3]]}]
    return sheet


PENDING_ROOM = room("W", 1, 3, 3, 2, (1, 3))


def preview_sheet(seat: int = 0) -> dict[str, Any]:
    """The late sheet with this round's placement (a washroom B4 3x2) pending: what the Confirm preview shows."""
    sheet = late_sheet(seat)
    sheet["rooms"].append(copy.deepcopy(PENDING_ROOM))
    cells = [[x, y] for y in range(3, 5) for x in range(1, 4)]
    sheet["pending"] = {"action": "room B4 3x2 W@B4", "cells": cells}
    return sheet


def random_sheet(seat: int, seed: int) -> dict[str, Any]:
    """A plausible varied sheet: the late sheet with some parts dropped and a few extra stones."""
    rng = random.Random(seed)
    sheet = late_sheet(seat)
    keep = 2 + rng.randrange(len(sheet["rooms"]) - 1)
    sheet["rooms"] = sheet["rooms"][:keep]
    for kind in ("doors", "windows", "furnishings", "decks"):
        sheet[kind] = [c for c in sheet[kind] if rng.random() < 0.7]
    sheet["score"] = rng.randrange(0, 30)
    sheet["notes"] = notes([(rng.randrange(2, 6), "hosts.1", rng.random() < 0.5) for _ in range(rng.randrange(5))])
    return sheet


def make_view(
    players: int = 4,
    *,
    seed: int = 1,
    round_no: int = 7,
    roll: list[int] | None = None,
    viewer: int | None = 0,
    sheet: dict[str, Any] | None = None,
    phase: str = "play",
    ending: str | None = None,
    outcome: dict[str, Any] | None = None,
    solo: bool = False,
) -> dict[str, Any]:
    rng = random.Random(seed)
    scores = [rng.randrange(0, 40) for _ in range(players)]
    done = [rng.randrange(0, 6) for _ in range(players)]
    if sheet is None and viewer is not None:
        sheet = late_sheet(viewer)
    if solo and sheet is not None:
        sheet = {**sheet, "bubbles_used": round_no}
    return {
        "game": "floor_plan",
        "width": 17,
        "height": 13,
        "round": round_no,
        "roll": roll if roll is not None else [3, 5],
        "phase": phase,
        "solo": solo,
        "players": players,
        "to_move": list(range(players))[: max(0, players // 3)],
        "viewer": viewer,
        "ending": ending,
        "clients": copy.deepcopy(CLIENTS),
        "scores": scores,
        "demands_done": done,
        "sheet": sheet,
        "outcome": outcome,
    }


def summary_sheets(players: int) -> list[dict[str, Any]]:
    return [random_sheet(seat, seed=seat) for seat in range(players)]
