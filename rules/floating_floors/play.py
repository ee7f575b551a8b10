"""Applying an action (`play`, `resign`) and trying one without drawing from the seed (`look_ahead`, the
previews): the facade's ``apply`` and the bot's trials both come here.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from functools import lru_cache
from typing import Any

from rules.base import Event, IllegalActionError, NotYourTurnError, RulesError
from rules.floating_floors import notation as nt
from rules.floating_floors import quick, statics
from rules.floating_floors.components import JUTSU_KINDS
from rules.floating_floors.legal import legal
from rules.floating_floors.moves import perform
from rules.floating_floors.state import Options, State, evolve
from rules.floating_floors.turns import start_turn
from rules.floating_floors.views import public_view
from rules.floating_floors.work import Work, masked_events, masked_view, next_seat


def legal_actions(s: State, seat: int) -> list[str]:
    """`FloatingFloors.legal_actions`: nothing for a seat not to move."""
    if s.phase == "over" or seat != s.current:
        return []
    return legal(s, seat)


def play(s: State, seat: int, action: str, *, draws: bool = True) -> tuple[State, list[Event]]:
    """`FloatingFloors.apply`; ``draws=False`` (previews) draws nothing from the seed."""
    w = _worked(s, seat, action, draws)
    return w.freeze(), masked_events(s.options, w.events)


def _worked(s: State, seat: int, action: str, draws: bool) -> Work:
    """The action made on a working copy of ``s`` (not yet frozen into the next state)."""
    if s.phase == "over":
        raise IllegalActionError("ff.err.game_over")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < s.players:
        raise NotYourTurnError("ff.err.bad_seat", seat=seat, players=s.players)
    act = nt.parse(action)
    if act.verb == "resign":
        return _resigned(s, seat, draws)
    if s.seats[seat].out:
        raise NotYourTurnError("ff.err.resigned")
    if seat != s.current:
        raise NotYourTurnError("ff.err.not_your_turn", player=s.current + 1)
    w = Work(s, draws=draws)
    perform(w, seat, act)
    return w


def resign(s: State, seat: int, *, draws: bool = True) -> tuple[State, list[Event]]:
    w = _resigned(s, seat, draws)
    return w.freeze(), masked_events(s.options, w.events)


def _resigned(s: State, seat: int, draws: bool) -> Work:
    if s.seats[seat].out:
        raise IllegalActionError("ff.err.resigned")
    w = Work(s, draws=draws)
    me = w.seats[seat]
    for k in me.hand:
        w.pool[JUTSU_KINDS.index(k)] += 1
    w.set_player(seat, out=True, hand=(), space=None, on=None, alcove=None)
    w.events.append(Event("resign", seat, {}))
    if s.reset is not None and seat in s.reset.ninjas:  # its fallen ninja leaves the game, not the reset
        w.changes["reset"] = replace(s.reset, ninjas=tuple(q for q in s.reset.ninjas if q != seat))
    left = [q.seat for q in w.seats if not q.out]
    if len(left) == 1:
        w.changes.update(phase="over", winner=left[0], reason="ff.outcome.last_standing", roll=(), to_take=())
        w.events.append(Event("win", left[0], {"reason": "ff.outcome.last_standing"}))
    elif s.current == seat and s.phase != "over":
        if s.phase == "reset" and s.reset is not None and s.reset.by == seat:
            w.collapsed = replace(w.get("reset"), by=next_seat(s, seat, w.seats))
            w.changes.update(reset=w.collapsed, current=w.collapsed.by)
        elif s.phase == "hide":
            w.changes.update(hide=tuple((q, b) for q, b in s.hide if q != seat))
        else:
            start_turn(w, next_seat(s, seat, w.seats))
    return w



def look_ahead(s: State, seat: int, action: str) -> tuple[State, list[Event]]:
    """The action tried on a copy that draws nothing from the seed: steady hands, and it stops before the next
    turn's dice. Every preview starts here, so none can show a draw the real move has not made yet."""
    w = _tried(s, seat, action)
    return evolve(w.freeze(), options=s.options), masked_events(s.options, w.events)


def _tried(s: State, seat: int, action: str) -> Work:
    """`look_ahead`'s working copy, before it is frozen (a preview needs only its events and outcome)."""
    return _worked(evolve(s, options=_steady(s.options)), seat, action, False)


@lru_cache(maxsize=256)
def _steady(options: Options) -> Options:
    """The options without shaky hands (Challenges 2 and 8 are shaky hands)."""
    return replace(options, shaky="off", challenges=tuple(c for c in options.challenges if c not in (2, 8)))


def preview_view(s: State, seat: int, action: str) -> dict[str, Any]:
    """The public view of the board as ``action`` would leave it, for the seat that asks: without the next
    turn's dice, and without a floorboard the move would newly turn face up (the deck's order is secret)."""
    after, _ = look_ahead(s, seat, action)
    view = masked_view(s.options, public_view(after, seat))
    known = {*s.deck[:1], *(b.board for b in s.boards), *([s.reset.board] if s.reset and s.reset.board else [])}
    if after.deck and after.deck[0] not in known:
        view["deck"].update(top=None, top_light=[])
    return view


def preview(s: State, seat: int, action: str) -> dict[str, Any]:
    """"What if": the action tried on a copy with steady hands, so the answer never reveals a shaky-hands draw.

    ``{"action", "checks": [{"card", "margin", "stable", "chance"}], "collapse": card | None, "claim": bansen |
    None, "win": bool}``; ``chance`` is the shaky-hands fall chance the real move would run (0 without them).
    With ``tension=bands`` each check has its ``band`` instead (margin and chance None). Raises the rules'
    error when the action is refused. Plain placements and boards are answered by `quick` (the same answer)."""
    fast = quick.preview(s, seat, action)
    return fast if fast is not None else generic_preview(s, seat, action)


def previews(s: State, seat: int, actions: list[str]) -> list[dict[str, Any] | None]:
    """`preview` of each of ``actions`` in one call, as a select offers them; None where the rules refuse one
    (the select leaves it out)."""
    out: list[dict[str, Any] | None] = []
    for action, fast in zip(actions, quick.previews(s, seat, actions), strict=True):
        if fast is None:
            with contextlib.suppress(RulesError):
                fast = generic_preview(s, seat, action)
        out.append(fast)
    return out


def generic_preview(s: State, seat: int, action: str) -> dict[str, Any]:
    """`preview` through the whole rules path: the action made on a steady working copy."""
    w = _tried(s, seat, action)
    events = masked_events(s.options, w.events)
    verb = action.split()[0] if action.strip() else ""
    shaky = s.options.shaky_claims if verb in ("claim", "use") else s.options.shaky_all
    if s.options.tension == "bands":  # the band only: the margin and the exact chance stay unsaid
        checks = [{"card": e.data["card"], "band": e.data["band"], "stable": e.data["stable"], "margin": None,
                   "chance": None} for e in events if e.kind == "check"]
    else:
        checks = [{"card": e.data["card"], "margin": e.data["margin"], "stable": e.data["stable"],
                   "chance": statics.collapse_chance(e.data["margin"]) if shaky and e.data["stable"] else 0.0}
                  for e in events if e.kind == "check"]
    collapse = next((e.data["card"] for e in events if e.kind == "collapse"), None)
    claim = next((e.data["bansen"] for e in events if e.kind == "claim"), None)
    return {"action": nt.text(nt.parse(action)), "checks": checks, "collapse": collapse, "claim": claim,
            "win": w.get("phase") == "over" and w.get("winner") == seat}
