"""Floor Plan's key moments: the best-scoring round (the most points one player's notes gained in one round, as
every round's summary shows them; the end's bonuses belong to no round), the round with the most client demands
claimed by one player (claims are announced), and, only when the game's secrets may be told, the largest room
drawn (a sheet is a player's own)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.moments import Moment, Played, best


def moments(steps: Sequence[Played], revealed: bool) -> list[Moment]:
    rounds: list[tuple[float, Moment]] = []
    claims: list[tuple[float, Moment]] = []
    rooms: list[tuple[float, Moment]] = []
    if not steps:
        return []
    first = steps[0].before
    scores = [first.boards[i].notes_total() for i in range(first.players)]
    drawn = [len(first.boards[i].sheet.rooms) for i in range(first.players)]
    for p in steps:
        for e in p.events:
            if e.kind != "round_closed":
                continue
            s = p.after
            now = [s.boards[i].notes_total() for i in range(s.players)]  # the end's bonuses are no round's
            sheets = [s.boards[i].sheet.rooms for i in range(s.players)]
            rounds += [(now[i] - scores[i], Moment("best_round", (i,), {"count": now[i] - scores[i],
                                                                         "round": e.data["round"]}, p.step))
                       for i in range(s.players) if now[i] > scores[i]]
            if revealed:
                rooms += [(len(r.cells()), Moment("largest_room", (i,), {"count": len(r.cells())}, p.step))
                          for i in range(s.players) for r in sheets[i][drawn[i]:]]
            claims += [(len(c["demands"]), Moment("most_claims", (c["seat"],), {"count": len(c["demands"]),
                                                                               "round": e.data["round"]}, p.step))
                       for c in e.data.get("claims", ()) if len(c["demands"]) >= 2]
            scores, drawn = now, [len(r) for r in sheets]
    return [m for m in (best(rounds), best(rooms), best(claims)) if m is not None]
