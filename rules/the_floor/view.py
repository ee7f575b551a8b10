"""``view(s, seat)``: what one seat (or a spectator) may see, as JSON; the shape is documented in
docs/the_floor.md. Hidden: other sides' draft hands and picks, the draw pile, the letter decks."""

from __future__ import annotations

from typing import Any

from rules.the_floor import board as bd
from rules.the_floor.state import State


def view(game: Any, s: State, seat: int | None) -> dict[str, Any]:
    viewer = seat if isinstance(seat, int) and 0 <= seat < s.players else None
    vside = None if viewer is None else s.seat_side[viewer]

    def cat(c: str) -> dict[str, str] | None:
        if not c:
            return None
        sex = game.category_sex(s, c)  # K/M: women or men only, shown with the name
        return {"id": c, "name": game.category_name(s, c), **({"sex": sex} if sex else {})}

    fields = bd.fields(s.board)
    field_id = {c: i for i, f in enumerate(fields) for c in f}
    cells = [{"cell": bd.name(c), "side": None if s.board[c] < 0 else s.board[c], "field": field_id.get(c)}
             for c in range(25)]
    fjson = [{"id": i, "side": s.board[f[0]], "cells": [bd.name(c) for c in f], "size": len(f),
              "categories": [cat(x) for c, x in s.cards if c in f]} for i, f in enumerate(fields)]
    duel = None
    d = s.duel
    if d is not None:
        pair = (d.challenger, d.defender)
        duel = {"challenger": d.challenger, "defender": d.defender,
                "from": None if d.frm is None else bd.name(d.frm), "to": None if d.to is None else bd.name(d.to),
                "category": cat(d.category), "ready": list(d.ready), "started": d.started,
                "letter": d.letter or None, "clocks_ms": list(d.clocks),
                "running": pair[d.active] if d.started and not d.judging else None,
                "answering": pair[d.active] if d.started else None,
                "answers": [{"side": pair[w], "text": t, "mark": m} for w, t, m in d.log],
                "judging": d.judging or None, "votes": len(d.votes) + len(d.guests),
                "judges": game.judge_seats(s) if d.judging else [], "guests_judge": game.guests_judge(s)}
    pending = None
    if s.pending:
        p = s.pending[0]
        mine = vside == p.side
        pending = {"kind": p.kind, "side": p.side, "cells": [bd.name(c) for c in p.cells], "count": p.count,
                   "options": [cat(c) for c in p.options] if mine or p.kind == "final_pick" else None}
    out = game.outcome(s)
    return {
        "game": game.id, "phase": s.phase, "players": s.players, "sides": s.sides, "options": s.options,
        "viewer": viewer, "viewer_side": vside, "seat_side": list(s.seat_side),
        "teams": [s.seats_of(x) for x in range(s.sides)], "cells": cells, "fields": fjson,
        "round": s.round, "current": s.current if s.phase == "play" else None,
        "to_move": sorted(game.to_move(s)), "turn": s.turn, "challenged": list(s.challenged),
        "duel": duel, "pending": pending,
        "final_cards": [cat(c) for c in s.final_cards], "final_categories": [cat(c) for c in s.final_cats],
        "ladder": list(s.ladder), "holder": None if s.holder < 0 else s.holder, "final_out": list(s.final_out),
        "round_winners": list(s.round_winners), "resigned": list(s.resigned), "eliminated": list(s.eliminated),
        "hand": None if vside is None or s.phase != "draft" else [cat(c) for c in s.hands[vside]],
        "picked": None if vside is None else [cat(c) for c in s.picked[vside]],
        "hand_counts": [len(h) for h in s.hands], "has_picked": [bool(c) for c in s.chosen],
        "deck_count": len(s.deck), "outcome": None if out is None else out.to_json(),
        "referee": s.referee or None, "spectators_judge": s.spectators, "doubt_cap": s.doubt_cap or None,
    }
