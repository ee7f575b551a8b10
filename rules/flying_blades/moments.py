"""Night of the 27 Ninja's key moments: the turn that eliminated the most ninjas (an attack takes one, a card
such as a bomb may take many) and the best hunter (the most prey ninjas eliminated over the game).

Both are public: every elimination is seen on the board; no card in a hand is named."""

from __future__ import annotations

from collections.abc import Sequence

from rules.moments import Moment, Played, best


def removed(step: Played) -> int:
    """Ninjas eliminated by one action (attack or card), as its events list them."""
    return sum(len(e.data.get("removed") or ()) for e in step.events if e.kind in ("attack", "card"))


def moments(steps: Sequence[Played], revealed: bool) -> list[Moment]:
    out: list[Moment] = []
    turn = best([(n, Moment("biggest_turn", (p.seat,), {"count": n}, p.step))
                  for p in steps if (n := removed(p)) >= 2])  # one ninja a turn is the ordinary attack
    if turn is not None:
        out.append(turn)
    if steps:
        captured = steps[-1].after.captured
        top = max(captured, default=0)
        leaders = tuple(s for s, n in enumerate(captured) if n == top)
        if top > 0 and len(leaders) == 1:
            out.append(Moment("top_hunter", leaders, {"count": top}, len(steps)))
    return out
