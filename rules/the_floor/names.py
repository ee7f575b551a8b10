"""A category as players type it in a move (``pick Rivers``, ``keep Star Wars characters``): by its id or by its
name as every surface shows it, in any case, accents and spacing, in the game's language. Pure.

The rules' notation (`TheFloor.notation`) turns the name into the id, so the log keeps one spelling per move and
every surface (the terminal, Discord's typed moves, buttons) is read the same way. A name is resolved only when it
is unambiguous: among the game's categories, or else among those a side may choose now; otherwise the text is
left as typed, and `apply` refuses it with the name the player typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.the_floor.answers import fold
from rules.the_floor.state import State


def choosable(s: State) -> frozenset[str]:
    """The categories some side may pick or keep now: the draft hands and the pending choices' options."""
    return frozenset(c for hand in s.hands for c in hand) | frozenset(c for p in s.pending for c in p.options)


def own_choices(s: State, side: int) -> frozenset[str]:
    """The categories ``side`` may pick or keep now: its draft hand and the options of the choices it owes."""
    hand = s.hands[side] if 0 <= side < len(s.hands) else ()
    return frozenset(hand) | frozenset(c for p in s.pending if p.side == side for c in p.options)


def names_own_choice(catalog: Mapping[str, Mapping[str, Any]], s: State, side: int, typed: str) -> bool:
    """Whether ``typed`` names (by id, or by its name as shown, in any case) a category ``side`` may pick or keep
    now: a typed ``keep star wars characters`` is a move, ``keep calm and carry on`` chat."""
    own = own_choices(s, side)
    return category_id(catalog, own, typed) in own


def category_id(catalog: Mapping[str, Mapping[str, Any]], choices: Iterable[str], typed: str) -> str:
    """The id of the category ``typed`` names (its id or its name, folded: "RIVERS", "«Rivers»", "star wars
    characters"), preferring the ones in ``choices`` when several match; ``typed`` itself when none or several do."""
    if typed in catalog:
        return typed
    key = fold(typed)
    if not key:
        return typed
    found = [cid for cid, cat in catalog.items() if key in (fold(cid), fold(str(cat.get("name", ""))))]
    if len(found) > 1:
        wanted = set(choices)
        found = [cid for cid in found if cid in wanted]
    return found[0] if len(found) == 1 else typed
