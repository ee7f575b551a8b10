"""Floating World's image model: constants, fixed words, and the defensive reading of a view (Lands, Kitsune)."""

from __future__ import annotations

from typing import Any

import i18n
from i18n import t
from render import kit

GAME = "floating_world"
KEY = "render.floating_world."
DEMONS = ("oni", "tengu", "gaki")
STATS = ("body", "mind", "spirit")
Coord = tuple[int, int]

# Fixed words, used when the catalogs have no ``render.floating_world.<key>`` (catalog text wins).
DEFAULTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Floating World",
        "gate": "Gate",
        "demon_strength": "Demon Strength",
        "supply": "Supply",
        "oni": "Oni",
        "tengu": "Tengu",
        "gaki": "Gaki",
        "body": "Body",
        "mind": "Mind",
        "spirit": "Spirit",
        "wounds": "Wounds",
        "praise": "Praise",
        "items": "Items",
        "legends": "Legends",
        "upgrades": "Upgrades",
        "none": "none",
        "dead": "dead",
        "nowhere": "off the map",
        "phase.dream": "Dream phase",
        "phase.nightmare": "Nightmare",
        "phase.over": "Game over",
        "to_play": "{name} to play",
        "decides.resolve": "{name} chooses the next demon",
        "decides.flee": "{name} chooses where {fleeing} goes",
        "decides.spawn": "{name} places the {demon}",
        "won": "The Gate is sealed: everyone wins!",
        "lost": "The world has fallen",
        "last_roll": "{name} · {stat}:",
        "no_nightmare": "no Nightmare yet",
        "nightmare": "Nightmare · turn {n}",
        "attacks": "{demon} attacks {target}",
        "attacks_land": "{demon} attacks {land}",
        "moves": "{demon} moves {src} → {dst}",
        "destroyed_land": "{land} is destroyed",
        "cut_off": "{land} is cut off and destroyed",
        "kitsune_moved": "{name} moves to {dst}",
        "spawn_dice": "Spawn dice",
        "all_sixes": "all sixes: Demon Strength rises",
        "spawns": "{count} to spawn",
        "strength": "Demon Strength is now {text}",
        "spawn": "{demon} appears at {land}",
        "no_spawn": "No demon can appear",
        "returned": "{demon} returns to the supply",
        "death": "{name} dies",
        "result.wound": "Wound",
        "result.held": "Held",
        "result.destroyed": "Destroyed",
        "vs": "vs",
        "more_steps": "+ {count} more",
    },
    "pl": {
        "title": "Pływający Świat",
        "gate": "Brama",
        "demon_strength": "Siła demonów",
        "supply": "Zapas",
        "oni": "Oni",
        "tengu": "Tengu",
        "gaki": "Gaki",
        "body": "Ciało",
        "mind": "Umysł",
        "spirit": "Duch",
        "wounds": "Rany",
        "praise": "Chwała",
        "items": "Przedmioty",
        "legends": "Legendy",
        "upgrades": "Ulepszenia",
        "none": "brak",
        "dead": "nie żyje",
        "nowhere": "poza mapą",
        "phase.dream": "Faza Snu",
        "phase.nightmare": "Koszmar",
        "phase.over": "Koniec gry",
        "to_play": "Ruch: {name}",
        "decides.resolve": "{name} wybiera następnego demona",
        "decides.flee": "{name} wybiera, dokąd idzie {fleeing}",
        "decides.spawn": "{name} stawia: {demon}",
        "won": "Brama zapieczętowana: wszyscy wygrywają!",
        "lost": "Świat upadł",
        "last_roll": "{name} · {stat}:",
        "no_nightmare": "jeszcze bez Koszmaru",
        "nightmare": "Koszmar · tura {n}",
        "attacks": "{demon} atakuje: {target}",
        "attacks_land": "{demon} atakuje krainę {land}",
        "moves": "{demon} idzie {src} → {dst}",
        "destroyed_land": "{land}: kraina zniszczona",
        "cut_off": "{land}: odcięta i zniszczona",
        "kitsune_moved": "{name} przechodzi na {dst}",
        "spawn_dice": "Kości przywołania",
        "all_sixes": "same szóstki: Siła demonów rośnie",
        "spawns": "do przywołania: {count}",
        "strength": "Siła demonów: {text}",
        "spawn": "{demon} pojawia się: {land}",
        "no_spawn": "Żaden demon nie może się pojawić",
        "returned": "{demon} wraca do zapasu",
        "death": "{name} ginie",
        "result.wound": "Rana",
        "result.held": "Obronione",
        "result.destroyed": "Zniszczona",
        "vs": "vs",
        "more_steps": "+ {count} więcej",
    },
}


DEMON_COLOUR = {"oni": "red", "tengu": "green", "gaki": "blue"}  # PIECE_COLOURS names
DEMON_SHAPE = {"oni": "square", "tengu": "triangle", "gaki": "circle"}
DEMON_LETTER = {"oni": "O", "tengu": "T", "gaki": "G"}
SEAT_COLOURS = ("orange", "sky", "purple", "yellow")  # PIECE_COLOURS names; PIECE_MARKS gives each a mark

MAX_SPAN = 120  # Lands further than this from the Gate (only in malformed views) are not drawn
# ------------------------------------------------------------------------------------------- words


def label(key: str, locale: str, **params: Any) -> str:
    """A fixed word: the catalogs' ``render.floating_world.<key>`` if they have it, else the built-in default."""
    return kit.fixed_word(KEY, DEFAULTS, key, locale, **params)


_int = kit.read_int


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _coord(value: Any) -> Coord | None:
    pair = _list(value)
    if len(pair) != 2:
        return None
    x, y = _int(pair[0]), _int(pair[1])
    return None if x is None or y is None else (x, y)


def coord_text(c: Coord | None) -> str:
    """A space as the commands write it: ``-1,0``."""
    return "?" if c is None else f"{c[0]},{c[1]}"


def seat_name(names: list[Any] | None, seat: int | None, locale: str) -> str:
    if seat is None:
        return "?"
    fallback = t("render.seat", locale, n=seat + 1)
    raw = names[seat] if names and 0 <= seat < len(names) else None
    return kit.display_name(_str(raw) if raw is not None else None, fallback)


def seat_colour(seat: int | None) -> str:
    return SEAT_COLOURS[(seat or 0) % len(SEAT_COLOURS)]


def demon_type(value: Any) -> str | None:
    """A demon's type from a step's ``demon`` (a dict with ``type``, a type, or an id such as ``oni2``)."""
    if isinstance(value, dict):
        value = value.get("type") or value.get("id")
    text = _str(value).lower()
    return next((d for d in DEMONS if text.startswith(d)), None)


def land_name(land: dict[str, Any], locale: str) -> str:
    if land.get("gate") or (_int(land.get("x")) == 0 and _int(land.get("y")) == 0):
        return label("gate", locale)
    name = land.get("name")
    if isinstance(name, dict):
        loc = i18n.normalize_locale(locale)
        text = name.get(loc) or name.get("en") or next((v for v in name.values() if v), "")
    else:
        text = name
    return kit.clean_text(_str(text)) or _str(land.get("id")) or coord_text(_land_xy(land))


def _land_xy(land: dict[str, Any]) -> Coord | None:
    x, y = _int(land.get("x")), _int(land.get("y"))
    return None if x is None or y is None else (x, y)


def _lands(view: dict[str, Any]) -> dict[Coord, dict[str, Any]]:
    out: dict[Coord, dict[str, Any]] = {}
    for raw in _list(view.get("lands")):
        land = _dict(raw)
        c = _land_xy(land)
        if c is not None and max(abs(c[0]), abs(c[1])) <= MAX_SPAN and c not in out:
            out[c] = land
    return out


def _kitsune(view: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for i, raw in enumerate(_list(view.get("kitsune"))[:8]):
        k = _dict(raw)
        out.append({**k, "seat": _int(k.get("seat"), i)})
    return out


def _last_roll(view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the view's ``last_roll``, the Kitsune's roll in it: ``rolls.kitsune``)."""
    info = _dict(view.get("last_roll"))
    return info, _dict(_dict(info.get("rolls")).get("kitsune"))
