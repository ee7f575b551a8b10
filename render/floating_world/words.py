"""Floating World in words: action captions, the Nightmare summary and a text map, from events and views.

Shared by the Discord surface (`cogs.floating_world`) and the terminal (`play_cli`). Every roll is written with
its dice (``9 (3+5+1)``), as players trust what they can see. ``names`` are the seats' labels (already escaped
for Discord by the caller when needed); texts come from ``fwui.*`` in the catalogs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from i18n import t
from rules.base import Msg
from rules.floating_world.content import DREAM_BY_ID, LAND_BY_ID

SEAT_COLOURS = ("orange", "sky", "purple", "yellow")  # render.floating_world.SEAT_COLOURS, by seat
SEAT_EMOJI = ("🟧", "🟦", "🟪", "🟨")
DEMON_EMOJI = {"oni": "🟥", "tengu": "🔺", "gaki": "🔵"}
MAX_SUMMARY = 1500  # characters of a Nightmare summary in one message (then "and n more steps")


def colour_name(seat: int, locale: str) -> str:
    return t(f"fwui.colour.{SEAT_COLOURS[seat % len(SEAT_COLOURS)]}", locale)


def card_names(locale: str) -> dict[str, str]:
    """Dream card ids to their names in ``locale`` (the renderer's ``card_names``)."""
    return {cid: d.name.get(locale) or d.name.get("en") or cid for cid, d in DREAM_BY_ID.items()}


def card_name(card: str, locale: str) -> str:
    dream = DREAM_BY_ID.get(card)
    return (dream.name.get(locale) or dream.name.get("en") or card) if dream else card


def land_name(card: str | None, locale: str) -> str:
    land = LAND_BY_ID.get(card or "")
    if land is None:
        return t("fwui.a_land", locale)
    return land.name.get(locale) or land.name.get("en") or card or ""


def demon(kind: str, locale: str) -> str:
    return t(f"fw.demon.{kind}", locale)


def stat(name: str, locale: str) -> str:
    return t(f"fw.stat.{name}", locale)


def at(c: Sequence[int] | None) -> str:
    return f"({c[0]},{c[1]})" if c else "—"


def roll_text(roll: dict[str, Any] | None) -> str:
    """``9 (3+5+1)``: the total, then the dice and the pips added."""
    if not roll:
        return "—"
    parts = [str(d) for d in roll.get("dice", [])]
    if roll.get("plus"):
        parts.append(str(roll["plus"]))
    return f"{roll.get('total', 0)} ({'+'.join(parts) or '0'})"


def cards_text(cards: Sequence[str], locale: str) -> str:
    return ", ".join(f"{card_name(c, locale)} ({DREAM_BY_ID[c].cost})" if c in DREAM_BY_ID else c for c in cards)


# --- a Dream-phase action ----------------------------------------------------------------------------------


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def _reroll(roll: dict[str, Any], locale: str) -> str:
    how = roll.get("rerolled")
    if not how:
        return ""
    by = t("fwui.legend", locale) if how == "legend" else card_name(how, locale)
    return " " + t("fwui.rerolled", locale, by=by, first=roll_text(roll.get("first")))


def _contest(data: dict[str, Any], locale: str) -> tuple[str, str, str]:
    roll = data.get("roll") or {}
    rolls = roll.get("rolls") or {}
    return roll_text(rolls.get("kitsune")), roll_text(rolls.get("target")), _reroll(roll, locale)


def event_line(kind: str, data: dict[str, Any], name: str, names: Sequence[str], locale: str) -> str | None:
    """One line for an event of a Dream-phase action, None for an event said elsewhere (the Nightmare, the end)."""
    if kind in ("move", "village", "land"):
        where = at(data.get("to") or data.get("at"))
        return t(f"fwui.ev.{kind}", locale, name=name, at=where, land=land_name(data.get("land"), locale))
    if kind in ("attack_demon", "attack_kitsune", "takeover", "seal"):
        return _roll_line(kind, data, name, names, locale)
    if kind == "harvest":
        cards = data.get("cards") or []
        line = t("fwui.ev.harvest", locale, name=name, cards=cards_text(cards, locale) or "—")
        return line + (" " + t("fwui.ev.harvest_praise", locale, praise=data["praise"]) if data.get("praise") else "")
    if kind == "buy":
        return t("fwui.ev.buy", locale, name=name, card=card_name(data.get("card", ""), locale),
                 cost=data.get("cost", 0))
    if kind == "trade":
        return t("fwui.ev.trade", locale, name=name, item=card_name(data.get("item", ""), locale),
                 target=_name(names, data.get("to")))
    if kind == "heal":
        return t("fwui.ev.heal", locale, name=name, count=data.get("healed", 0))
    if kind in ("keep_none", "end", "timeout", "resign"):
        return t(f"fwui.ev.{kind}", locale, name=name)
    if kind == "haunt":
        return t("fwui.ev.haunt", locale, name=name, demon=demon(data.get("type", "oni"), locale),
                 count=len(data.get("steps") or []))
    if kind == "turn" and data.get("collected"):
        return collected_line(data, name, locale)
    return None


def collected_line(data: dict[str, Any], name: str, locale: str) -> str:
    """Praise at a turn's start: from the Kitsune's Villages (counted in the plural forms) and, apart, the Gate's
    gift (which comes with no Village, so it is never "from 0 Villages")."""
    gift = data.get("gate") or 0
    villages = data.get("villages") or 0
    parts = []
    if villages:
        parts.append(t("fwui.ev.collected", locale, name=name, praise=data["collected"] - gift, count=villages))
    if gift:
        parts.append(t("fwui.ev.gate_gift", locale, name=name, praise=gift))
    return " ".join(parts)


def _roll_line(kind: str, data: dict[str, Any], name: str, names: Sequence[str], locale: str) -> str:
    mine, theirs, reroll = _contest(data, locale)
    ok = bool(data.get("success"))
    if kind == "attack_demon":
        st = data.get("stat", "body")
        result = (t("fwui.slain", locale, stat=stat(st, locale), grown=data.get("grown") or "")
                  if ok else t("fwui.not_slain", locale))
        return t("fwui.ev.attack_demon", locale, name=name, demon=demon(data.get("type", "oni"), locale),
                 at=at(data.get("at")), stat=stat(st, locale), mine=mine, theirs=theirs, result=result) + reroll
    if kind == "attack_kitsune":
        result = t("fwui.failed", locale)
        if ok and data.get("wound"):
            result = t("fwui.wounded", locale)
        elif ok and "item" in data:
            item = data.get("item")
            result = t("fwui.stole_item", locale, item=card_name(item, locale)) if item else t("fwui.no_item", locale)
        elif ok:
            result = t("fwui.stole_praise", locale, praise=data.get("praise", 0))
        return t("fwui.ev.attack_kitsune", locale, name=name, target=_name(names, data.get("target")),
                 stat=stat(data.get("stat", "body"), locale), mine=mine, theirs=theirs, result=result) + reroll
    roll = data.get("roll") or {}
    st = roll.get("stat", "mind")
    result = t(f"fwui.{kind}_{'ok' if ok else 'failed'}", locale)
    return t(f"fwui.ev.{kind}", locale, name=name, at=at(data.get("at")), stat=stat(st, locale), mine=mine,
             need=roll.get("need") or 0, result=result) + reroll


def action_lines(events: Sequence[Any], seat: int, names: Sequence[str], locale: str) -> list[str]:
    """The lines of one action's events (``rules.base.Event``), without the Nightmare (see `nightmare_lines`)."""
    lines = []
    for e in events:
        if e.kind == "turn":  # after the Nightmare: see `turn_lines`
            continue
        who = e.seat if isinstance(e.seat, int) else seat
        line = event_line(e.kind, e.data, _name(names, who), names, locale)
        if line:
            lines.append(line)
    return lines


def turn_lines(events: Sequence[Any], names: Sequence[str], locale: str) -> list[str]:
    """The next turn's start (Praise collected from Villages), said after the Nightmare that precedes it."""
    return [line for e in events if e.kind == "turn"
            and (line := event_line("turn", e.data, _name(names, e.seat), names, locale))]


# --- the Nightmare phase -----------------------------------------------------------------------------------


def step_line(step: dict[str, Any], names: Sequence[str], locale: str) -> str | None:
    kind = step.get("kind")
    rolls = step.get("rolls") or {}
    d = demon(step.get("type", "oni"), locale) if step.get("type") in DEMON_EMOJI else ""
    icon = DEMON_EMOJI.get(step.get("type", ""), "")
    if kind == "attack_kitsune":
        result = t("fwui.wound" if step.get("wound") else "fwui.no_harm", locale)
        return t("fwui.nm.attack_kitsune", locale, icon=icon, demon=d, at=at(step.get("at")),
                 name=_name(names, step.get("seat")), stat=stat(step.get("stat", "body"), locale),
                 theirs=roll_text(rolls.get("demon")), mine=roll_text(rolls.get("target")), result=result)
    if kind == "attack_land":
        result = t("fwui.land_falls" if step.get("destroyed") else "fwui.land_holds", locale)
        return t("fwui.nm.attack_land", locale, icon=icon, demon=d, at=at(step.get("at")),
                 stat=stat(step.get("stat", "body"), locale), theirs=roll_text(rolls.get("demon")),
                 defence=step.get("defence", 10), result=result)
    if kind in ("destroyed", "cut_off"):
        key = "fwui.nm.gate_destroyed" if step.get("gate") else f"fwui.nm.{kind}"
        return t(key, locale, land=land_name(step.get("land"), locale), at=at(step.get("at")))
    if kind == "move":
        return t("fwui.nm.move", locale, icon=icon, demon=d, frm=at(step.get("from")), to=at(step.get("to")))
    if kind == "returned":
        return t("fwui.nm.returned", locale, icon=icon, demon=d)
    if kind == "kitsune_moved":
        key = "fwui.nm.fled_wounded" if step.get("wound") else "fwui.nm.fled"
        return t(key, locale, name=_name(names, step.get("seat")), to=at(step.get("to")))
    if kind == "spawn_dice":
        dice = ", ".join(str(x) for x in step.get("dice") or []) or "—"
        return t("fwui.nm.spawn_dice", locale, dice=dice)
    if kind == "strength":
        return t("fwui.nm.strength", locale, frm=step.get("from", "0"), to=step.get("to", "0"))
    if kind == "spawn":
        return t("fwui.nm.spawn", locale, icon=icon, a_demon=a_demon(step), at=at(step.get("at")))
    if kind == "no_spawn":
        if step.get("reason") == "no_token":
            return t("fwui.nm.no_spawn_token", locale, demon=d)
        return t("fwui.nm.no_spawn_land", locale, a_demon=a_demon(step))
    if kind == "death":
        return t("fwui.nm.death", locale, name=_name(names, step.get("seat")), at=at(step.get("at")))
    return None


def a_demon(step: dict[str, Any]) -> Msg:
    """"An Oni", "A Tengu": the demon with its article (a catalog word per type, as the article depends on the
    word), at the start of a sentence."""
    kind = step.get("type")
    return Msg(f"fwui.nm.a_demon.{kind if kind in DEMON_EMOJI else 'oni'}")


def nightmare_lines(nightmare: dict[str, Any] | None, names: Sequence[str], locale: str,
                    limit: int = MAX_SUMMARY) -> list[str]:
    """The summary of one Nightmare phase: a title, then a line per step (cut to ``limit`` characters)."""
    if not nightmare:
        return []
    steps = [x for s in nightmare.get("steps") or [] if (x := step_line(s, names, locale))]
    lines = [t("fwui.nm.title", locale, turn=nightmare.get("turn", 0))]
    used = len(lines[0])
    for i, line in enumerate(steps):
        if used + len(line) + 1 > limit:
            lines.append(t("fwui.nm.more", locale, count=len(steps) - i))
            break
        lines.append(f"• {line}")
        used += len(line) + 3
    if not steps:
        lines.append(t("fwui.nm.calm", locale))
    return lines


# --- a view as text ----------------------------------------------------------------------------------------


def kitsune_line(k: dict[str, Any], names: Sequence[str], locale: str) -> str:
    seat = k.get("seat", 0)
    state = ""
    if k.get("resigned"):
        state = " " + t("fwui.left", locale)
    elif not k.get("alive", True):
        state = " " + t("fwui.dead", locale)
    cards = [*k.get("items", []), *k.get("legends", []), *k.get("upgrades", [])]
    return t("fwui.kitsune_line", locale, name=_name(names, seat), colour=colour_name(seat, locale),
             at=at(k.get("land")), body=k["body"]["text"], mind=k["mind"]["text"], spirit=k["spirit"]["text"],
             wounds=k.get("wounds", 0), max=k.get("max_wounds", 0), praise=k.get("praise", 0),
             cards=", ".join(card_name(c, locale) for c in cards) or "—") + state


def text_board(view: dict[str, Any], *, names: Sequence[str] | None = None, locale: str = "en") -> str:
    """The map as text for a terminal: the header, the Lands (row by row from the top), the Kitsune."""
    names = list(names or [f"Player {i + 1}" for i in range(view.get("players", 0))])
    lines = [t("fwui.text.header", locale, turn=view.get("turn", 0), strength=view["demon_strength"]["text"],
               oni=view["supply"]["oni"], tengu=view["supply"]["tengu"], gaki=view["supply"]["gaki"])]
    for land in sorted(view.get("lands", []), key=lambda x: (-x["y"], x["x"])):
        lines.append("  " + land_text(land, names, locale))
    for k in view.get("kitsune", []):
        lines.append("  " + kitsune_line(k, names, locale))
    if view.get("harvest"):
        lines.append(t("fwui.text.harvest", locale, cards=cards_text(view["harvest"]["cards"], locale)))
    return "\n".join(lines)


def land_text(land: dict[str, Any], names: Sequence[str], locale: str) -> str:
    name = land.get("name") or {}
    parts = [f"{at((land['x'], land['y']))} {name.get(locale) or name.get('en') or ''}".rstrip()]
    if land.get("gate"):
        parts.append(t("fwui.text.gate", locale))
    if land.get("village") is not None:
        parts.append(t("fwui.text.village", locale, name=_name(names, land["village"])))
    parts += [demon(d["type"], locale) for d in land.get("demons", [])]
    parts += [_name(names, s) for s in land.get("kitsune", [])]
    return " · ".join(parts)
