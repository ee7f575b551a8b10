"""The Dream phase's actions (5.x): moving, Lands and Villages, attacks, harvest, cards, healing, the Spell and
trades, and the candidate actions a seat may try.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.base import (
    Event,
    IllegalActionError,
    Msg,
)
from rules.floating_world import nightmare as nm
from rules.floating_world import notation as nt
from rules.floating_world import state as st
from rules.floating_world.content import DREAM_BY_ID, LAND_BY_ID, STATS
from rules.floating_world.dice import Roll
from rules.floating_world.notation import Action, Coord
from rules.floating_world.state import GATE, Kitsune, Land, State, Work, neighbours

COST = 3  # a Land or a Village (5.4, 5.5)
SEAL_COST, SEAL_TARGET, TAKEOVER_TARGET = 10, 15, 12
MAX_VILLAGES = 4
START_PRAISE, QUICK_PRAISE = 6, 15


def villages_of(s: State | Work, seat: int) -> int:
    lands = s.lands.values() if isinstance(s, Work) else s.lands
    return sum(1 for land in lands if land.village == seat)


def replace_work(w: Work, **changes: Any) -> Work:
    w.s = replace(w.s, **changes)
    return w


def _check_boost(s: State, k: Kitsune) -> None:
    if not s.options.boost:
        raise IllegalActionError("fw.err.boost_off")
    if k.praise < 1:
        raise IllegalActionError("fw.err.praise", action=Msg("fw.act.boost"), need=1, have=k.praise)


def _haunt_moves(s: State, seat: int, act: Action) -> tuple[State, list[Event]]:
    if s.haunted:
        raise IllegalActionError("fw.err.used", action=Msg("fw.act.haunt"))
    if s.spawned:
        raise IllegalActionError("fw.err.haunt_after_spawn")
    w = Work.of(s)
    steps = []
    for did, to in act.moves:
        d = w.demons.get(did)
        if d is None:
            raise IllegalActionError("fw.err.no_demon", demon=did)
        if to not in neighbours(d.at) or to not in w.lands:
            raise IllegalActionError("fw.err.not_adjacent", frm=nt.xy(d.at), to=nt.xy(to))
        w.demons[did] = replace(d, x=to[0], y=to[1])
        steps.append({"kind": "move", "demon": did, "type": d.type, "from": list(d.at), "to": list(to),
                      "haunt": seat})
    # The moves are the start of this turn's Nightmare: shown at once, and again in the whole phase's summary.
    return w.freeze(haunted=True, nightmare={"turn": s.turn, "steps": steps}), \
        [Event("haunt", seat, {"type": act.target, "steps": steps})]


def haunt_steps(s: State) -> list[dict[str, Any]]:
    """This turn's haunt moves (kept in ``nightmare`` by ``_haunt_moves``), to open the Nightmare's steps."""
    if s.phase != "haunt" or not s.haunted or not s.nightmare or s.nightmare.get("turn") != s.turn:
        return []
    return [dict(x) for x in s.nightmare["steps"]]


# --- the Dream actions -----------------------------------------------------------------------------------

def _pay(w: Work, seat: int, amount: int, action: str) -> None:
    k = w.kit[seat]
    if k.praise < amount:
        raise IllegalActionError("fw.err.praise", action=Msg(f"fw.act.{action}"), need=amount, have=k.praise)
    w.set_kit(seat, praise=k.praise - amount)


def _here(w: Work, seat: int) -> Coord:
    pos = w.kit[seat].pos
    assert pos is not None  # the current player in a Dream phase is on the map
    return pos


def _move(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    k = w.kit[seat]
    if k.moved:
        raise IllegalActionError("fw.err.moved_already")
    if k.used:
        raise IllegalActionError("fw.err.move_after_action")
    frm = _here(w, seat)
    if act.at not in neighbours(frm):
        raise IllegalActionError("fw.err.not_adjacent", frm=nt.xy(frm), to=nt.xy(act.at))
    if act.at not in w.lands:
        raise IllegalActionError("fw.err.no_land_there", at=nt.xy(act.at))
    w.set_kit(seat, pos=act.at, moved=True)
    return [Event("move", seat, {"from": list(frm), "to": list(act.at)})]


def _land(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    frm = _here(w, seat)
    if act.at not in neighbours(frm):
        raise IllegalActionError("fw.err.not_adjacent", frm=nt.xy(frm), to=nt.xy(act.at))
    if act.at in w.lands:
        raise IllegalActionError("fw.err.occupied", at=nt.xy(act.at))
    _pay(w, seat, COST, "land")
    card = w.draw_land()
    w.lands[act.at] = Land(act.at[0], act.at[1], card)
    return [Event("land", seat, {"at": list(act.at), "land": card, "name": LAND_BY_ID[card].name})]


def _village(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    at = _here(w, seat)
    near = [c for c in [at, *neighbours(at)] if c in w.lands and w.lands[c].village is not None]
    if near:
        raise IllegalActionError("fw.err.village_near", at=nt.xy(near[0]))
    if villages_of(w, seat) >= MAX_VILLAGES:
        raise IllegalActionError("fw.err.no_villages_left", max=MAX_VILLAGES)
    _pay(w, seat, COST, "village")
    w.lands[at] = replace(w.lands[at], village=seat)
    return [Event("village", seat, {"at": list(at)})]


def _roll_contest(w: Work, seat: int, act: Action, contest: str, beats: Any) -> tuple[bool, dict[str, Any]]:
    """Roll the seat's stat (with bonuses, ``boost``), test ``beats(total)``, reroll once on a failure."""
    extra = 0
    if act.boost:
        _pay(w, seat, 1, "boost")
        extra = 1
    stat = act.stat or "mind"
    mine = nm.kitsune_roll(w, w.kit[seat], stat, contest, extra)
    ok, first, rerolled = beats(mine.total), None, None
    if not ok:
        rerolled = _use_reroll(w, seat)
        if rerolled:
            first, mine = mine, nm.kitsune_roll(w, w.kit[seat], stat, contest, extra)
            ok = beats(mine.total)
    info = {"seat": seat, "stat": stat, "contest": contest, "kitsune": mine, "first": first, "rerolled": rerolled,
            "success": ok}
    return ok, info


def _use_reroll(w: Work, seat: int) -> str | None:
    k = w.kit[seat]
    if not k.legend_reroll_used and k.effects("legend_reroll"):
        w.set_kit(seat, legend_reroll_used=True)
        return "legend"
    item = next((c for c in k.items if DREAM_BY_ID[c].kind == "reroll"), None)
    if item is not None:
        w.set_kit(seat, items=tuple(c for c in k.items if c != item))
        w.dream_discard.append(item)
    return item


def _last_roll(act: Action, info: dict[str, Any], target: Roll | None, need: int | None) -> dict[str, Any]:
    first = info["first"]
    return {"seat": info["seat"], "action": nt.text(act), "stat": info["stat"], "contest": info["contest"],
            "rolls": {"kitsune": info["kitsune"].to_json(), "target": None if target is None else target.to_json()},
            "need": need, "success": info["success"], "rerolled": info["rerolled"],
            "first": None if first is None else first.to_json()}


def _takeover(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    at = _here(w, seat)
    land = w.lands[at]
    if land.village is None:
        raise IllegalActionError("fw.err.no_village_here")
    if land.village == seat:
        raise IllegalActionError("fw.err.own_village")
    if villages_of(w, seat) >= MAX_VILLAGES:
        raise IllegalActionError("fw.err.no_villages_left", max=MAX_VILLAGES)
    ok, info = _roll_contest(w, seat, act, "village", lambda t: t >= TAKEOVER_TARGET)
    if ok:
        w.lands[at] = replace(land, village=seat)
    changes["last_roll"] = _last_roll(act, info, None, TAKEOVER_TARGET)
    return [Event("takeover", seat, {"at": list(at), "from": land.village, "success": ok,
                                     "roll": changes["last_roll"]})]


def _attack(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    return _attack_kitsune(w, seat, act, changes) if act.seat is not None else _attack_demon(w, seat, act, changes)


def _attack_demon(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    at = _here(w, seat)
    if act.at is not None and act.at != at:
        raise IllegalActionError("fw.err.demon_not_here", at=nt.xy(at))
    demon = next((d for _, d in sorted(w.demons.items()) if d.at == at and d.type == act.target), None)
    if demon is None:
        raise IllegalActionError("fw.err.no_demon_here", type=Msg(f"fw.demon.{act.target}"), at=nt.xy(at))
    stat = act.stat or "body"
    theirs = nm.demon_roll(w, demon.type, stat)
    ok, info = _roll_contest(w, seat, act, "demon", lambda t: t > theirs.total)
    if ok:
        del w.demons[demon.id]
        k = w.kit[seat]
        w.set_kit(seat, **{stat: k.stat(stat).plus(1)})
    full = replace(act, at=at)
    changes["last_roll"] = _last_roll(full, info, theirs, None)
    return [Event("attack_demon", seat, {"demon": demon.id, "type": demon.type, "at": list(at), "stat": stat,
                                         "success": ok, "grown": w.kit[seat].stat(stat).text if ok else None,
                                         "roll": changes["last_roll"]})]


def _attack_kitsune(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    target = act.seat
    assert target is not None
    at = _here(w, seat)
    if target == seat:
        raise IllegalActionError("fw.err.attack_self")
    if target >= len(w.kit) or w.kit[target].pos != at:
        raise IllegalActionError("fw.err.not_here", player=target + 1)
    stat = act.stat or "body"
    if act.item is not None and (stat != "mind" or act.item not in w.kit[target].items):
        raise IllegalActionError("fw.err.no_such_item", item=act.item, player=target + 1)
    theirs = nm.kitsune_roll(w, w.kit[target], stat, "kitsune")
    ok, info = _roll_contest(w, seat, act, "kitsune", lambda t: t > theirs.total)
    data: dict[str, Any] = {"target": target, "stat": stat, "success": ok}
    steps: list[dict[str, Any]] = []
    if ok:
        data.update(_kitsune_effect(w, seat, target, stat, act.item, steps))
    data["deaths"] = [x["seat"] for x in steps]
    changes["last_roll"] = _last_roll(act, info, theirs, None)
    data["roll"] = changes["last_roll"]
    return [Event("attack_kitsune", seat, data)]


def _kitsune_effect(w: Work, seat: int, target: int, stat: str, item: str | None,
                    steps: list[dict[str, Any]]) -> dict[str, Any]:
    victim = w.kit[target]
    if stat == "body":
        nm.wound(w, target, steps)
        return {"wound": True}
    if stat == "mind":
        stolen = item or (victim.items[0] if victim.items else None)
        if stolen is not None:
            w.set_kit(target, items=tuple(c for c in victim.items if c != stolen))
            w.set_kit(seat, items=tuple(sorted((*w.kit[seat].items, stolen))))
        return {"item": stolen}
    amount = min(3, victim.praise)
    w.set_kit(target, praise=victim.praise - amount)
    w.set_kit(seat, praise=w.kit[seat].praise + amount)
    return {"praise": amount}


def _village_here(w: Work, seat: int) -> Land:
    land = w.lands[_here(w, seat)]
    if land.village is None:
        raise IllegalActionError("fw.err.no_village_here")
    return land


def _harvest(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    _village_here(w, seat)
    k = w.kit[seat]
    count = k.spirit.dice + sum(d.get("amount") for d in k.effects("harvest_draw"))
    cards = w.draw_dreams(count)
    bonus = sum(d.get("amount") for d in k.effects("harvest_praise"))
    w.set_kit(seat, praise=k.praise + bonus)
    changes["harvest"] = tuple(cards) if cards else None
    return [Event("harvest", seat, {"cards": cards, "praise": bonus})]


def _buy(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    drawn = w.s.harvest or ()
    card = act.target
    if card not in drawn:
        raise IllegalActionError("fw.err.not_drawn", card=card, cards=", ".join(drawn))
    dream = DREAM_BY_ID[card]
    _pay(w, seat, dream.cost, "buy")
    k = w.kit[seat]
    field = {"item": "items", "upgrade": "upgrades", "legend": "legends"}[dream.type]
    w.set_kit(seat, **{field: tuple(sorted((*getattr(k, field), card)))})
    w.dream_discard.extend(c for c in drawn if c != card)
    changes["harvest"] = None
    return [Event("buy", seat, {"card": card, "type": dream.type, "cost": dream.cost})]


def _keep(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    w.dream_discard.extend(w.s.harvest or ())
    changes["harvest"] = None
    return [Event("keep_none", seat, {})]


def _heal(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    land = _village_here(w, seat)
    k = w.kit[seat]
    if k.moved:
        raise IllegalActionError("fw.err.moved_no_heal")
    if k.wounds == 0:
        raise IllegalActionError("fw.err.no_wounds")
    amount = 1 + (sum(d.get("amount") for d in k.effects("heal")) if land.village == seat else 0)
    healed = min(amount, k.wounds)
    w.set_kit(seat, wounds=k.wounds - healed)
    return [Event("heal", seat, {"healed": healed})]


def _seal(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    if _here(w, seat) != GATE:
        raise IllegalActionError("fw.err.not_at_gate")
    _pay(w, seat, SEAL_COST, "seal")
    ok, info = _roll_contest(w, seat, replace(act, stat="mind"), "seal", lambda t: t >= SEAL_TARGET)
    changes["last_roll"] = _last_roll(act, info, None, SEAL_TARGET)
    if ok:
        if w.s.options.final_fox:
            w.set_kit(seat, praise=w.kit[seat].praise + SEAL_COST)
        changes.update(phase="over", reason=st.WON, sealer=seat)
    return [Event("seal", seat, {"success": ok, "roll": changes["last_roll"]})]


def _trade(w: Work, seat: int, act: Action, changes: dict[str, Any]) -> list[Event]:
    k = w.kit[seat]
    target = act.seat
    assert target is not None and act.item is not None
    if act.item not in k.items:
        raise IllegalActionError("fw.err.no_such_item", item=act.item, player=seat + 1)
    if target == seat or target >= len(w.kit) or w.kit[target].pos != k.pos or not w.kit[target].on_map:
        raise IllegalActionError("fw.err.not_here", player=target + 1)
    w.set_kit(seat, items=tuple(c for c in k.items if c != act.item))
    w.set_kit(target, items=tuple(sorted((*w.kit[target].items, act.item))))
    return [Event("trade", seat, {"item": act.item, "to": target})]


DREAM_ACTIONS = {
    "move": _move, "land": _land, "village": _village, "takeover": _takeover, "attack": _attack,
    "harvest": _harvest, "buy": _buy, "keep": _keep, "heal": _heal, "seal": _seal, "trade": _trade,
}


def _on_partner(act: Action) -> bool:
    return act.verb == "attack" and act.seat is not None


def candidates(s: State, seat: int) -> list[str]:
    """Every action worth trying for ``legal_actions`` (filtered there by applying each)."""
    k = s.kitsune[seat]
    if s.harvest is not None:
        return ["keep none", *(f"buy {c}" for c in s.harvest)]
    pos = k.pos or GATE
    rolls = [*(f"takeover {x}" for x in STATS), "seal"]
    rolls += [f"attack {d.type}@{nt.xy(pos)} {x}" for d in s.demons_at(pos) for x in STATS]
    others = [o for o in s.kitsune_at(pos) if o != seat]
    rolls += [f"attack {o + 1} {x}" for o in others for x in STATS]
    rolls += [f"attack {o + 1} mind {i}" for o in others for i in s.kitsune[o].items]
    if s.options.boost:
        rolls += [f"{r} boost" for r in rolls]
    out = ["village", "harvest", "heal", "end", *rolls]
    out += [f"{v} {nt.xy(c)}" for c in neighbours(pos) for v in ("move", "land")]
    out += [f"trade {i} to {o + 1}" for o in others for i in k.items]
    return out
