"""Floor Plan's words on images and captions: clients, demands, bonuses, rooms, actions, points."""

from __future__ import annotations

from typing import Any

import i18n
from i18n import t
from render import kit
from render.floor_plan.model import KEY
from rules.base import FloorboardError
from rules.floor_plan import notation
from rules.floor_plan.sheet import FEATURE_KINDS, cell_name

# ------------------------------------------------------------------------------------------ words


def _has(key: str, locale: str) -> bool:
    return key in i18n.catalog(i18n.normalize_locale(locale)) or key in i18n.catalog("en")


def _first(keys: tuple[str, ...], locale: str, fallback: str, **params: Any) -> str:
    """The text of the first key a catalog has: the rules' own names (``fp.*``, the words the commands and
    messages use) before the renderer's, then ``fallback``."""
    for key in keys:
        if _has(key, locale):
            return t(key, locale, **params)
    return fallback


def client_name(client_id: str, locale: str) -> str:
    fallback = client_id.replace("_", " ").title()
    return _first((f"fp.client.{client_id}", f"{KEY}client.{client_id}"), locale, fallback)


def kind_name(kind: str, locale: str) -> str:
    return _first((f"fp.kind.{kind}", f"{KEY}kind.{kind}"), locale, kind)


def demand_text(demand_id: str, locale: str, *, short: bool = True) -> str:
    """What a demand asks for: short for images ("Kitchen connected to Dining"), else the rules' full sentence."""
    keys = (f"{KEY}demand.{demand_id}", f"fp.demand.{demand_id}")
    return _first(keys if short else keys[::-1], locale, demand_id)


def demand_short(demand_id: str | None, locale: str) -> str:
    """A demand as written on a note: its client's name and number ("Hosts 1")."""
    if not demand_id:
        return ""
    client, _, number = demand_id.partition(".")
    return f"{client_name(client, locale)} {number}".strip()


def door_bonus_text(client: dict[str, Any], locale: str, *, short: bool = True) -> str:
    bonus = client.get("door_bonus")
    if not bonus:
        return ""
    cid = client.get("id")
    keys = (f"{KEY}door_bonus.{cid}", f"fp.door_bonus.{cid}")
    pts = bonus.get("points", 1)
    generic = t("render.floor_plan.door_bonus.generic", locale, points=pts)
    text = _first(keys if short else keys[::-1], locale, generic, points=pts)
    if bonus.get("max"):  # the cap first: a long bonus text is cut on the image
        return t("render.floor_plan.door_bonus_max", locale, text=text, max=bonus["max"])
    return t("render.floor_plan.door_bonus", locale, text=text)


def bonus_name(bonus: str, locale: str) -> str:
    return _first((f"fp.bonus.{bonus}", f"{KEY}bonus.{bonus}"), locale, bonus.replace("_", " "))


def room_name(rtype: str, locale: str) -> str:
    key = f"{KEY}room.{rtype}"
    return t(key, locale) if _has(key, locale) else rtype


def action_words(action: str, locale: str) -> str:
    """An action in words ("Kitchen 6×4 at F3; scores Collector 2"); text that does not parse as it was."""
    out = []
    for part in action.split(";"):  # part by part: a round's text may join steps only the log holds together
        try:
            out += [step_words(s, locale) for s in notation.parse(part.strip())]
        except FloorboardError:
            out.append(part.strip())
    return "; ".join(x for x in out if x)


def step_words(step: Any, locale: str) -> str:
    words = f"{KEY}words."
    if step.verb == "start":
        return t(words + "start", locale, w=step.size[0], h=step.size[1], cell=cell_name(step.cells[0]))
    wild = t(words + "wild", locale, rolled=step.wild[0], read=step.wild[1]) if step.wild else ""
    if step.verb == "room":
        return " + ".join(t(words + "room", locale, room=room_name(r.type, locale), w=r.w, h=r.h,
                            cell=cell_name((r.x, r.y))) for r in step.rooms) + wild
    if step.verb == "features":
        return ", ".join(t(words + "features", locale, count=len(s.cells),
                           kind=t(f"fp.sheet.feature.{FEATURE_KINDS[s.die - 1]}", locale),
                           cells=",".join(cell_name(c) for c in s.cells)) for s in step.sets) + wild
    if step.verb == "doors":
        return t(words + "doors", locale, cells=", ".join(cell_name(c) for c in step.cells))
    if step.verb == "claim":
        return t(words + "claim", locale, demand=demand_short(step.demand, locale))
    if step.verb == "timeout":
        return t(words + "timeout", locale)
    return t(words + "skip", locale)


def points(count: int, locale: str) -> str:
    return t("render.floor_plan.points", locale, count=count)


def seat_name(names: list[str] | None, seat: int, locale: str) -> str:
    raw = names[seat] if names is not None and 0 <= seat < len(names) else None
    return kit.display_name(raw, t("render.seat", locale, n=seat + 1))


def _wrap(text: str, size: int, width: float, weight: str = "Regular", lines: int = 2) -> list[str]:
    words, out, cur = text.split(), [], ""
    for word in words:
        cand = f"{cur} {word}".strip()
        if kit.text_width(cand, size, weight) <= width or not cur:
            cur = cand
        else:
            out.append(cur)
            cur = word
    if cur:
        out.append(cur)
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    return out
