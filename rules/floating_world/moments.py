"""Floating World's key moments: the strongest strike (the highest roll that slew a demon), the worst Nightmare
(the most Lands destroyed in one Nightmare phase: torn down by demons or cut off from the Gate), and what decided
the game: the Spell of Sealing that won it, the Nightmare that destroyed the Gateless Gate, or the death of the
last Kitsune. Rolls and the Nightmare are shown to everyone as they happen; no Dream card in a hand is named."""

from __future__ import annotations

from collections.abc import Sequence

from rules.moments import Moment, Played, best

LOST = ("destroyed", "cut_off")  # a Nightmare's steps that remove a Land


def strike(p: Played) -> tuple[float, Moment] | None:
    for e in p.events:
        if e.kind == "attack_demon" and e.data.get("success"):
            rolls = (e.data.get("roll") or {}).get("rolls") or {}
            mine, theirs = (rolls.get("kitsune") or {}).get("total"), (rolls.get("target") or {}).get("total")
            if isinstance(mine, int) and isinstance(theirs, int):
                return mine, Moment("best_strike", (p.seat,), {"total": mine, "against": theirs}, p.step)
    return None


def destroyed(p: Played) -> list[dict[str, object]]:
    """The Nightmare steps of one action that removed a Land."""
    return [x for e in p.events if e.kind == "nightmare"
            for x in e.data.get("steps", ()) if isinstance(x, dict) and x.get("kind") in LOST]


def lands_lost(p: Played) -> int:
    return len(destroyed(p))


def moments(steps: Sequence[Played], revealed: bool) -> list[Moment]:
    strikes = [found for p in steps if (found := strike(p)) is not None]
    nightmares = [(n, Moment("worst_nightmare", (p.seat,), {"count": n}, p.step))
                  for p in steps if (n := lands_lost(p)) > 0]
    out = [m for m in (best(strikes), best(nightmares)) if m is not None]
    for p in steps:
        if any(x.get("gate") for x in destroyed(p)):  # the loss that decided it: the Gateless Gate fell
            out.append(Moment("gate_destroyed", (p.seat,), {}, p.step))
        if p is steps[-1]:
            dead = [x for e in p.events if e.kind == "nightmare" for x in e.data.get("steps", ())
                    if isinstance(x, dict) and x.get("kind") == "death" and isinstance(x.get("seat"), int)]
            if dead and p.after.phase == "over" and not any(x.get("gate") for x in destroyed(p)):
                out.append(Moment("last_death", (dead[-1]["seat"],), {}, p.step))
        for e in p.events:
            if e.kind == "seal" and e.data.get("success"):
                roll = e.data.get("roll") or {}
                total = ((roll.get("rolls") or {}).get("kitsune") or {}).get("total", 0)
                out.append(Moment("sealed", (p.seat,), {"total": total, "need": roll.get("need") or 0}, p.step))
    return out
