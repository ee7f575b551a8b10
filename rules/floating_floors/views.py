"""The public view of a Floating Floors position: everything on the table, nothing the seed still hides.

The deck's order below the top board and future rolls are never shown; the top board is (it lies face up).
Every placed board carries the balance model's numbers (support polygon, centre of mass, load, margin), the
same ones the image's physics overlay draws.
"""

from __future__ import annotations

from typing import Any

from rules.floating_floors.components import (
    BANSEN_BY_ID,
    FLOORBOARD_BY_ID,
    JUTSU_KINDS,
    KIND_COLOUR,
    KIND_SHAPE,
    NINJA_BY_ID,
    TERRAIN_BY_ID,
)
from rules.floating_floors.state import State
from rules.floating_floors.work import Work, balance_of, colour_at


def public_view(s: State, seat: int | None) -> dict[str, Any]:
    w = Work(s)
    lay = w.lay
    return {
        "game": "floating_floors", "players": s.players, "viewer": seat, "turn": s.turn, "current": s.current,
        "phase": s.phase, "size": [lay.cols, lay.rows], "card_cols": lay.card_cols, "card_rows": lay.card_rows,
        "options": s.options.to_dict(),
        "cards": [_card(s, w, i) for i in range(lay.cards)],
        "boards": [_board(w, i, b.card) for i, b in enumerate(s.boards)],
        "jutsu": [{"id": f"j{p.id}", "kind": p.kind, "colour": KIND_COLOUR[p.kind], "shape": KIND_SHAPE[p.kind],
                   "space": list(p.space), "level": p.level, "x": p.x, "y": p.y} for p in s.pieces],
        "ninjas": [_ninja(s, q) for q in s.seats],
        "alcoves": [_alcove(s, a) for a in lay.alcoves],
        "roll": list(s.roll), "to_take": list(s.to_take), "hands": [list(q.hand) for q in s.seats],
        "pool": dict(zip(JUTSU_KINDS, s.pool, strict=True)),
        "deck": {"count": len(s.deck), "top": s.deck[0] if s.deck else None,
                 "top_light": [[c, r] for c, r in sorted(FLOORBOARD_BY_ID[s.deck[0]].light())] if s.deck else []},
        "reset": None if s.reset is None else {"card": s.reset.card, "by": s.reset.by, "board": s.reset.board,
                                               "jutsu": list(s.reset.kinds), "ninjas": list(s.reset.ninjas)},
        "hide": [{"seat": q, "bansen": b} for q, b in s.hide],
        "last": s.last, "winner": s.winner, "reason": s.reason,
    }


def _card(s: State, w: Work, i: int) -> dict[str, Any]:
    terrain, side = s.cards[i]
    land = TERRAIN_BY_ID[terrain].land(side)
    spaces = w.lay.spaces(i)
    board = next((j for j, b in enumerate(s.boards) if b.card == i), None)
    return {"index": i, "terrain": terrain, "side": side,
            "land": [list(sp) for sp in spaces if w.lay.local(sp) in land],
            "water": [list(sp) for sp in spaces if w.lay.local(sp) not in land], "board": board}


def _board(w: Work, index: int, card: int) -> dict[str, Any]:
    board = w.boards[card]
    bal = balance_of(w, card)
    spaces = w.lay.spaces(card)
    finite = bal.margin != float("-inf")
    return {"index": index, "card": card, "board": board.board, "back": board.back, "turns": board.turns,
            "light": [list(sp) for sp in spaces if colour_at(board, w.lay, sp) == "light"],
            "shadow": [list(sp) for sp in spaces if colour_at(board, w.lay, sp) == "shadow"],
            "support": [list(pt) for pt in bal.support], "centre": list(bal.centre), "load": bal.load,
            "margin": round(bal.margin, 4) if finite else None, "stable": bal.stable}


def chakra_down(s: State, q: Any) -> bool:
    """Whether the seat's Chakra is on the map: during set-up only once its player has placed it (until then
    ``home`` is a placeholder that no output may show)."""
    return s.phase != "chakra" or q.alcove is not None


def _ninja(s: State, q: Any) -> dict[str, Any]:
    down = chakra_down(s, q)
    return {"seat": q.seat, "ninja": q.ninja, "colour": NINJA_BY_ID[q.ninja].colour,
            "x": q.x if down else None, "y": q.y if down else None,
            "space": list(q.space) if q.space is not None else None, "alcove": q.alcove,
            "on_jutsu": f"j{q.on}" if q.on is not None else None, "claimed": list(q.claimed), "used": list(q.used),
            "needed": len(q.bansen), "home": q.home if down else None, "steps": q.steps, "out": q.out,
            "placed": down, "fallen": down and q.space is None and q.alcove is None and not q.out}


def _alcove(s: State, a: Any) -> dict[str, Any]:
    chakra = next((q.seat for q in s.seats if q.home == a.index and chakra_down(s, q)), None)
    bansen = s.alcoves[a.index]
    face_up = s.options.has(1) or (s.options.master is not None and s.options.master_order)
    info = None
    if bansen is not None:
        b = BANSEN_BY_ID[bansen]
        owner = next((q.seat for q in s.seats if bansen in q.bansen), None)
        master_face_up = s.options.has(1) or (owner is not None and owner == s.options.master and face_up)
        info = {"id": bansen, "ninja": b.ninja, "seat": owner, "direction": b.direction,
                "number": b.number if master_face_up else None}
    x, y = a.point
    return {"index": a.index, "space": list(a.space), "side": a.side, "x": x, "y": y, "chakra": chakra,
            "bansen": info}
