"""The Floor's key moments: the longest duel (the most answers and passes before a clock ran out) and the
biggest territory gain (the most cells one duel won). Duels are fought in the open: nothing here is secret (no
category kept in a hand is named)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.moments import Moment, Played, best

TURNS = ("answer", "pass")  # a duel's turns: each answer (accepted or not) and each pass


def seat_of(state: object, side: int) -> int:
    """The first seat of a side (a team past five players; else the side is the seat)."""
    seats = state.seats_of(side)  # type: ignore[attr-defined]
    return seats[0] if seats else side


def moments(steps: Sequence[Played], revealed: bool) -> list[Moment]:
    duels: list[tuple[float, Moment]] = []
    gains: list[tuple[float, Moment]] = []
    turns = 0
    for p in steps:
        for e in p.events:
            if e.kind == "duel_start":
                turns = 0
            elif e.kind in TURNS:
                turns += 1
            elif e.kind == "duel_over" and e.seat is not None:
                winner, loser = seat_of(p.after, e.seat), seat_of(p.after, e.data["loser"])
                duels.append((turns, Moment("longest_duel", (winner, loser), {"count": turns}, p.step)))
            elif e.kind == "take" and e.seat is not None:
                cells = len(e.data.get("cells") or ())
                winner, loser = seat_of(p.after, e.seat), seat_of(p.after, e.data["loser"])
                gains.append((cells, Moment("biggest_gain", (winner, loser), {"count": cells}, p.step)))
    gain = best([g for g in gains if g[0] >= 2])  # one cell is every duel's prize: only a bigger haul is a moment
    return [m for m in (best(duels), gain) if m is not None and m.numbers["count"] > 0]
