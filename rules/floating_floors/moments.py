"""Floating Floors' key moments: the biggest collapse (the most Jutsu and ninjas one tipped board threw down),
the narrowest claim (a Bansen taken on the smallest stability margin that still held) and the claim that won.
Every check's margin is reported to everyone as it happens; no hidden Bansen in an alcove is named."""

from __future__ import annotations

from collections.abc import Sequence

from rules.moments import Moment, Played, best


def fallen(p: Played) -> int:
    return sum(len(e.data.get("jutsu") or ()) + len(e.data.get("ninjas") or ())
               for e in p.events if e.kind == "collapse")


def claim_margin(p: Played) -> float | None:
    """The smallest margin checked by a claim that held (the rotation's checks), None for no claim."""
    if not any(e.kind == "claim" for e in p.events) or any(e.kind == "collapse" for e in p.events):
        return None
    margins = [e.data["margin"] for e in p.events
               if e.kind == "check" and isinstance(e.data.get("margin"), int | float)]
    return min(margins) if margins else None


def moments(steps: Sequence[Played], revealed: bool) -> list[Moment]:
    collapses = [(n, Moment("biggest_collapse", (p.seat,), {"count": n}, p.step))
                 for p in steps if (n := fallen(p)) > 0]
    claims = [(-m, Moment("narrowest_claim", (p.seat,), {"margin": round(m, 2)}, p.step))
              for p in steps if (m := claim_margin(p)) is not None]
    out = [m for m in (best(collapses), best(claims)) if m is not None]
    for p in steps:
        won = next((e for e in p.events if e.kind == "claim" and e.data.get("done") == e.data.get("needed")), None)
        if won is not None:
            out.append(Moment("winning_claim", (p.seat,), {"count": int(won.data.get("needed") or 0)}, p.step))
    return out
