"""Map image and Nightmare image of Floating World (``floating_world``), drawn from a view, never a state.

Public API:
  - `map_image(view, *, locale="en", card_names=None, names=None) -> bytes`: the map to post: a header (turn,
    whose Dream it is or the outcome, Demon Strength, demon tokens left in the supply, the last roll as dice),
    the Lands as square tiles around the Gate, and a panel per Kitsune; `draw_map(...) -> Image` is the palette
    image it encodes and `map_layout(view)` says where things are (tile boxes, card boxes) for tests;
  - `nightmare_image(view, *, locale="en", names=None) -> bytes`: the last Nightmare phase, one row per step,
    every roll as dice faces (demon against target, totals, the result), the spawn dice with the 1s and 2s
    (a demon each) and a roll of all sixes (Demon Strength rises) marked; `draw_nightmare(...)` likewise;
    `step_words(step, view, ...)` is what it says about a step (caption, result badge, what the demon's roll is
    set against), read from the fields the rules emit (``wound``, ``destroyed``, ``defence``), never re-counted;
  - `dice_faces(values, size, *, bg, highlight) -> Image`: a row of d6 faces (RGB), used by both.

``card_names`` maps Dream card ids to display names (the panel lists Items, Legends and Upgrades by name
when given, else counts them); ``names`` are the players' display names by seat (cleaned as `render.common`
says, "Player N" when unreadable). Seats are 0-based in the view and drawn 1-based.

The map: a night-indigo void; each Land a washi tile with its name (small, cut with an ellipsis; hidden when
tiles are too small to read it); the Gate a gold tile with a torii and a double rim. The map fits the Lands'
bounding box plus one tile of "chaos" on every side; the empty spaces next to a Land (where a Land can be
created) are drawn as faint dotted squares with their coordinates when there is room, and the coordinates run
along the top and left bands (y grows upwards, as in the rules). A Village rims its Land in its owner's colour
and adds a house token with the seat number. Nothing is told by colour alone: Kitsune are fox heads in their
seat's colour with the seat number; demons have a shape per type (Oni a red square, Tengu a green triangle,
Gaki a blue circle) with their initial. Seat colours are the Okabe-Ito orange, sky blue, reddish purple and
yellow of `render.common` (the red, green and blue belong to the demons), each with its own mark in the panel.
More than six tokens on one Land show five and "+n".

The panel (right of the map, or under it when the map is wide): per Kitsune its fox, name, where it stands,
Body/Mind/Spirit as die icons for the dice and dots for the pips (with the "2D+1" text), Wounds as hearts
(a taken Wound is a hollow heart with a cross) against the maximum, Praise, and the Items, Legends and
Upgrades. The current player's card has a gold bar; a dead Kitsune's card is greyed with a "dead" tag.

Fixed words come from the i18n catalogs under ``render.floating_world.*`` when they exist there, else from
the English and Polish defaults in `DEFAULTS`; Land names from the view's ``name`` per locale. The image is
drawn in RGB from cached tiles and sprites, remapped once onto a fixed palette and encoded as
`render.common` describes: the same view gives the same bytes. Views are read defensively: missing or
malformed fields are drawn as absent, never a crash.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageOps

import i18n
from i18n import t
from render import common
from render.common import RGB, hex_rgb
from rules.floating_world.content import LAND_BY_ID
from rules.floating_world.state import WON

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

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("121729")  # page: header, panel area
CARD = hex_rgb("1d2440")  # a Kitsune's card
CARD_HI = hex_rgb("26305a")  # the current player's card
VOID = hex_rgb("0b1020")  # the map's chaos
CHAOS = hex_rgb("141b33")  # an empty space where a Land can be created
CHAOS_LINE = hex_rgb("34406a")
BAND = hex_rgb("161c33")  # the coordinate bands
TEXT = hex_rgb("eef1f8")
DIM = hex_rgb("98a2bf")
GOLD = hex_rgb("f3c351")
LAND = hex_rgb("e8dcc0")  # washi
LAND_EDGE = hex_rgb("a8976f")
INK = hex_rgb("2b2420")
GATE = hex_rgb("f0c75e")
GATE_EDGE = hex_rgb("5a3a12")
TORII = common.blend(GATE, hex_rgb("c0392b"), 0.45)
WHITE = (255, 255, 255)
DIE = hex_rgb("f7f3e8")
PIP = hex_rgb("1a1a1a")
DIE_HI = GOLD  # a spawn die showing 1 or 2
DIE_SIX = hex_rgb("e0603a")  # the sixes of an all-sixes roll
HEART = hex_rgb("e05a6a")
HEART_LOST = hex_rgb("5b6380")
WOUND = common.PIECE_COLOURS["red"]
HELD = common.PIECE_COLOURS["green"]
GREY_STEPS = 24

DEMON_COLOUR = {"oni": "red", "tengu": "green", "gaki": "blue"}  # PIECE_COLOURS names
DEMON_SHAPE = {"oni": "square", "tengu": "triangle", "gaki": "circle"}
DEMON_LETTER = {"oni": "O", "tengu": "T", "gaki": "G"}
SEAT_COLOURS = ("orange", "sky", "purple", "yellow")  # PIECE_COLOURS names; PIECE_MARKS gives each a mark

PAD = 20
HEADER_H = 96
ROLL_H = 44  # the last roll's line under the header
BAND_W = 24  # coordinate bands
TILE_MAX = 110
TILE_COMFORT = 1100  # the map's longer side aims at this before tiles shrink below TILE_MIN_COMFORT
TILE_MIN_COMFORT = 60
MAX_SIDE = 2000  # the whole image stays within this, both ways
CARD_W = 390
CARD_GAP = 12
MIN_WIDTH = 920
NAME_MIN_TILE = 60  # smaller tiles show no Land names
COORD_MIN_TILE = 64  # smaller chaos spaces show no coordinates
MAX_SPAN = 120  # Lands further than this from the Gate (only in malformed views) are not drawn
SS = common.SUPERSAMPLE

# ------------------------------------------------------------------------------------------- words


def label(key: str, locale: str, **params: Any) -> str:
    """A fixed word: the catalogs' ``render.floating_world.<key>`` if they have it, else the built-in default."""
    return common.fixed_word(KEY, DEFAULTS, key, locale, **params)


_int = common.read_int


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
    return common.display_name(_str(raw) if raw is not None else None, fallback)


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
    return common.clean_text(_str(text)) or _str(land.get("id")) or coord_text(_land_xy(land))


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


# ------------------------------------------------------------------------------------------ palette


@functools.cache
def palette() -> Image.Image:
    pal = common.Palette()
    pal.add(BG, CARD, CARD_HI, VOID, CHAOS, CHAOS_LINE, BAND, TEXT, DIM, GOLD, LAND, LAND_EDGE, INK, GATE)
    pal.add(GATE_EDGE, TORII, WHITE, DIE, PIP, DIE_SIX, HEART, HEART_LOST, WOUND, HELD)
    pal.ramps((TEXT, DIM, GOLD), (BG, CARD, CARD_HI), steps=3)
    pal.ramps((DIM,), (VOID, CHAOS, BAND), steps=2)
    pal.ramp(CHAOS_LINE, CHAOS, 1)
    pal.ramps((INK, LAND_EDGE), (LAND,), steps=3)
    pal.ramps((INK, GATE_EDGE, TORII), (GATE,), steps=2)
    pal.ramps((PIP, INK), (DIE, DIE_HI, DIE_SIX), steps=2)
    pal.ramps((DIE,), (BG, CARD), steps=1)
    pal.ramps((WHITE,), (WOUND, HELD), steps=2)
    pal.ramps((HEART, HEART_LOST), (CARD, CARD_HI), steps=1)
    for name in {*DEMON_COLOUR.values(), *SEAT_COLOURS}:
        fill = common.PIECE_COLOURS[name]
        edge = common.piece_outline(name)
        pal.ramp(fill, edge, 1)
        pal.ramp(common.mark_ink(name), fill, 2)
        pal.ramps((edge,), (LAND, GATE, CARD, BG), steps=1)
    pal.add(*((v, v, v) for v in (round(i * 255 / (GREY_STEPS - 1)) for i in range(GREY_STEPS))))
    return pal.image()


def _finish(img: Image.Image) -> Image.Image:
    return common.to_palette(img, palette())


# ------------------------------------------------------------------------------------------ sprites


def _poly(shape: str, c: float, r: float) -> list[tuple[float, float]]:
    if shape == "triangle":
        return [(c, c - r), (c + r * 1.02, c + r * 0.82), (c - r * 1.02, c + r * 0.82)]
    if shape == "fox":  # a fox head: two ears, cheeks, a pointed snout
        pts = [(-0.95, -1.0), (-0.35, -0.5), (0.35, -0.5), (0.95, -1.0), (0.95, 0.05), (0.0, 0.98), (-0.95, 0.05)]
        return [(c + x * r, c + y * r) for x, y in pts]
    if shape == "house":
        pts = [(0.0, -1.0), (0.95, -0.15), (0.8, -0.15), (0.8, 0.9), (-0.8, 0.9), (-0.8, -0.15), (-0.95, -0.15)]
        return [(c + x * r, c + y * r) for x, y in pts]
    h = r * 0.86  # square
    return [(c - h, c - h), (c + h, c - h), (c + h, c + h), (c - h, c + h)]


def _shape(d: ImageDraw.ImageDraw, shape: str, c: float, r: float, fill: RGB, edge: RGB, rim: float) -> None:
    if shape == "circle":
        d.ellipse((c - r, c - r, c + r, c + r), fill=edge)
        d.ellipse((c - r + rim, c - r + rim, c + r - rim, c + r - rim), fill=fill)
        return
    outer = _poly(shape, c, r)
    inner = _poly(shape, c, r - rim * (1.9 if shape == "triangle" else 1.25))
    d.polygon(outer, fill=edge)
    d.polygon(inner, fill=fill)


@functools.lru_cache(maxsize=512)
def token_sprite(kind: str, size: int, bg: RGB, grey: bool = False) -> Image.Image:
    """A ``size``² token on ``bg``: ``oni``/``tengu``/``gaki`` (shape and initial), ``fox<seat>`` (a fox head
    with the seat number) or ``house<seat>`` (a Village's house with the seat number)."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    c, r = big / 2, big * 0.46
    if kind in DEMONS:
        colour, shape, text = DEMON_COLOUR[kind], DEMON_SHAPE[kind], DEMON_LETTER[kind]
        dy = big * 0.11 if shape == "triangle" else 0
        tsize = 0.5 if shape != "triangle" else 0.4
    else:
        seat = _int(kind.removeprefix("fox").removeprefix("house"), 0) or 0
        colour, shape, text = seat_colour(seat), ("fox" if kind.startswith("fox") else "house"), str(seat + 1)
        dy = big * (0.05 if shape == "fox" else 0.12)
        tsize = 0.46 if shape == "fox" else 0.44
    fill, edge, ink = common.PIECE_COLOURS[colour], common.piece_outline(colour), common.mark_ink(colour)
    if grey:
        fill, edge, ink = hex_rgb("8a8f9c"), hex_rgb("4a4e58"), hex_rgb("2a2d33")
    _shape(d, shape, c, r, fill, edge, max(SS * 1.5, r * 0.13))
    face = common.font(max(8, round(big * tsize)), "Black")
    d.text((c, c + dy), text, font=face, fill=ink, anchor="mm")
    return img.reduce(SS)


DIE_SPOTS = common.DIE_SPOTS


@functools.lru_cache(maxsize=512)
def die_sprite(value: int, size: int, bg: RGB, style: str = "plain") -> Image.Image:
    """One d6 face with its pips (``style``: ``plain``, ``hi`` for a gold die with a ring, ``six`` for a
    vermilion die with a ring); a value outside 1–6 is written as a number."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    fill = {"hi": DIE_HI, "six": DIE_SIX}.get(style, DIE)
    pip = WHITE if style == "six" else PIP
    inset = SS if style == "plain" else big * 0.1
    if style != "plain":  # a ring around the die: a shape cue, not only a colour
        d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.22, outline=fill, width=round(big * 0.05))
    box = (inset, inset, big - inset, big - inset)
    d.rounded_rectangle(box, radius=(box[2] - box[0]) * 0.18, fill=fill, outline=INK, width=max(SS, big // 28))
    span = box[2] - box[0]
    if value in DIE_SPOTS:
        pr = span * 0.09
        for x, y in DIE_SPOTS[value]:
            px, py = box[0] + span * x, box[1] + span * y
            d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=pip)
    else:
        face = common.font(max(8, round(span * (0.55 if len(str(value)) < 3 else 0.36))), "Black")
        d.text((big / 2, big / 2), str(value)[:4], font=face, fill=pip, anchor="mm")
    return img.reduce(SS)


@functools.lru_cache(maxsize=64)
def stat_die_sprite(size: int, bg: RGB) -> Image.Image:
    """The small die icon counting a stat's dice: a die seen at an angle (never read as a rolled value)."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    u = big / 10
    top = [(5 * u, 0.6 * u), (9.2 * u, 2.7 * u), (5 * u, 4.8 * u), (0.8 * u, 2.7 * u)]
    left = [(0.8 * u, 2.7 * u), (5 * u, 4.8 * u), (5 * u, 9.4 * u), (0.8 * u, 7.3 * u)]
    right = [(5 * u, 4.8 * u), (9.2 * u, 2.7 * u), (9.2 * u, 7.3 * u), (5 * u, 9.4 * u)]
    d.polygon(left, fill=common.shade(DIE, 0.78), outline=INK)
    d.polygon(right, fill=common.shade(DIE, 0.9), outline=INK)
    d.polygon(top, fill=DIE, outline=INK)
    pr = u * 0.62
    for x, y in ((5 * u, 2.7 * u), (2.9 * u, 5.2 * u), (7.1 * u, 7.3 * u)):
        d.ellipse((x - pr, y - pr, x + pr, y + pr), fill=PIP)
    return img.reduce(SS)


@functools.lru_cache(maxsize=64)
def heart_sprite(size: int, bg: RGB, lost: bool) -> Image.Image:
    """A heart: full, or (a Wound taken) hollow with a cross through it."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    pts = []
    for i in range(64):
        a = 2 * math.pi * i / 64
        x = 16 * math.sin(a) ** 3
        y = -(13 * math.cos(a) - 5 * math.cos(2 * a) - 2 * math.cos(3 * a) - math.cos(4 * a))
        pts.append((big / 2 + x * big / 36, big * 0.47 + y * big / 36))
    if lost:
        d.polygon(pts, fill=HEART_LOST)
        inner = [(big / 2 + (x - big / 2) * 0.7, big * 0.47 + (y - big * 0.47) * 0.7) for x, y in pts]
        d.polygon(inner, fill=bg)
        w = round(big * 0.09)
        d.line((big * 0.26, big * 0.22, big * 0.74, big * 0.78), fill=HEART_LOST, width=w)
        d.line((big * 0.74, big * 0.22, big * 0.26, big * 0.78), fill=HEART_LOST, width=w)
    else:
        d.polygon(pts, fill=HEART)
    return img.reduce(SS)


@functools.lru_cache(maxsize=256)
def land_tile(size: int, kind: str, owner: int | None) -> Image.Image:
    """A Land tile with its gap to the grid: ``land`` or ``gate``; a Village rims it in its owner's colour."""
    big = size * SS
    img = Image.new("RGB", (big, big), VOID)
    d = ImageDraw.Draw(img)
    g = big * 0.04
    box = (g, g, big - g, big - g)
    rad = big * 0.09
    fill, edge = (GATE, GATE_EDGE) if kind == "gate" else (LAND, LAND_EDGE)
    if owner is not None:
        edge = common.PIECE_COLOURS[seat_colour(owner)]
    rim = max(SS * 2, big * (0.075 if owner is not None else 0.025))
    d.rounded_rectangle(box, radius=rad, fill=edge)
    d.rounded_rectangle((box[0] + rim, box[1] + rim, box[2] - rim, box[3] - rim), radius=max(1, rad - rim),
                        fill=fill)
    if kind == "gate":
        i = rim + big * 0.035
        d.rounded_rectangle((box[0] + i, box[1] + i, box[2] - i, box[3] - i), radius=max(1, rad - i),
                            outline=GATE_EDGE, width=max(SS, round(big * 0.012)))
        # a torii behind the tokens: two posts, the kasagi and the nuki
        cx, w = big / 2, big * 0.5
        top = big * 0.2
        d.rectangle((cx - w * 0.34, top + big * 0.06, cx - w * 0.24, big * 0.74), fill=TORII)
        d.rectangle((cx + w * 0.24, top + big * 0.06, cx + w * 0.34, big * 0.74), fill=TORII)
        d.polygon([(cx - w * 0.58, top - big * 0.02), (cx + w * 0.58, top - big * 0.02),
                   (cx + w * 0.5, top + big * 0.06), (cx - w * 0.5, top + big * 0.06)], fill=TORII)
        d.rectangle((cx - w * 0.46, top + big * 0.16, cx + w * 0.46, top + big * 0.21), fill=TORII)
    return img.reduce(SS)


@functools.lru_cache(maxsize=64)
def chaos_tile(size: int) -> Image.Image:
    """An empty space next to a Land: a faint dotted square."""
    big = size * SS
    img = Image.new("RGB", (big, big), VOID)
    d = ImageDraw.Draw(img)
    g = big * 0.06
    d.rounded_rectangle((g, g, big - g, big - g), radius=big * 0.09, fill=CHAOS)
    step = max(3 * SS, big / 14)
    r = max(SS * 0.6, big * 0.008)
    pos = g + big * 0.05
    while pos < big - g - big * 0.05:
        for x, y in ((pos, g + r * 2), (pos, big - g - r * 2), (g + r * 2, pos), (big - g - r * 2, pos)):
            d.ellipse((x - r, y - r, x + r, y + r), fill=CHAOS_LINE)
        pos += step
    return img.reduce(SS)


def dice_faces(
    values: list[int] | tuple[int, ...], size: int, *, bg: RGB = BG, highlight: dict[int, str] | None = None,
    gap: int | None = None,
) -> Image.Image:
    """A row of d6 faces (RGB, ``bg`` between them); ``highlight`` maps an index to a die style (``hi``,
    ``six``). An empty row is a 1×``size`` strip."""
    vals = [_int(v, 0) or 0 for v in _list(values)]
    gap = max(2, size // 6) if gap is None else gap
    width = max(1, len(vals) * (size + gap) - gap)
    img = Image.new("RGB", (width, size), bg)
    for i, v in enumerate(vals):
        style = (highlight or {}).get(i, "plain")
        img.paste(die_sprite(v, size, bg, style), (i * (size + gap), 0))
    return img


# ------------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class MapLayout:
    width: int
    height: int
    header_h: int
    tile: int
    x_min: int  # the leftmost column drawn (a chaos column)
    y_max: int  # the top row drawn
    cols: int
    rows: int
    map_x: int  # left of column x_min
    map_y: int  # top of row y_max
    below: bool  # the cards sit under the map (else to its right)
    cards: tuple[tuple[int, int, int, int], ...]  # per Kitsune in the view's order

    def tile_box(self, x: int, y: int) -> tuple[int, int, int, int]:
        left = self.map_x + (x - self.x_min) * self.tile
        top = self.map_y + (self.y_max - y) * self.tile
        return left, top, left + self.tile, top + self.tile


CARD_HEAD = 50
STAT_ROW = 34
LINE_ROW = 25


def _card_lines(k: dict[str, Any], card_names: dict[str, str] | None) -> int:
    if not card_names:
        return 1
    return sum(1 for key in ("items", "legends", "upgrades") if _list(k.get(key))) or 1


def _card_height(lines: int) -> int:
    return 12 + CARD_HEAD + 3 * STAT_ROW + STAT_ROW + lines * LINE_ROW + 12


def map_layout(view: dict[str, Any], card_names: dict[str, str] | None = None) -> MapLayout:
    view = _dict(view)
    lands = _lands(view)
    kits = _kitsune(view)
    coords = list(lands) or [(0, 0)]
    x_min = min(x for x, _ in coords) - 1
    x_max = max(x for x, _ in coords) + 1
    y_min = min(y for _, y in coords) - 1
    y_max = max(y for _, y in coords) + 1
    cols, rows = x_max - x_min + 1, y_max - y_min + 1
    header_h = HEADER_H + (ROLL_H if _last_roll(view)[1].get("dice") else 0)
    card_h = max((_card_height(_card_lines(k, card_names)) for k in kits), default=0)
    n = len(kits)
    below = cols >= 2 * rows and cols > 6
    if below:
        budget_w = MAX_SIDE - 2 * PAD - BAND_W
        per_row = max(1, min(n, (MAX_SIDE - 2 * PAD + CARD_GAP) // (CARD_W + CARD_GAP)))
        card_rows = math.ceil(n / per_row) if n else 0
        budget_h = MAX_SIDE - header_h - BAND_W - 3 * PAD - card_rows * (card_h + CARD_GAP)
    else:
        budget_w = MAX_SIDE - 3 * PAD - BAND_W - (CARD_W if n else 0)
        budget_h = MAX_SIDE - header_h - BAND_W - 2 * PAD
    comfort = max(TILE_MIN_COMFORT, TILE_COMFORT // max(cols, rows))
    tile = max(4, min(TILE_MAX, comfort, budget_w // cols, max(4, budget_h) // rows))
    map_w, map_h = cols * tile + BAND_W, rows * tile + BAND_W
    cards: list[tuple[int, int, int, int]] = []
    if below:
        per_row = max(1, min(n, (max(MIN_WIDTH, map_w + 2 * PAD) - 2 * PAD + CARD_GAP) // (CARD_W + CARD_GAP)))
        width = max(MIN_WIDTH, map_w + 2 * PAD, per_row * (CARD_W + CARD_GAP) - CARD_GAP + 2 * PAD)
        top = header_h + map_h + 2 * PAD
        for i in range(n):
            r, c = divmod(i, per_row)
            x = PAD + c * (CARD_W + CARD_GAP)
            y = top + r * (card_h + CARD_GAP)
            cards.append((x, y, x + CARD_W, y + card_h))
        height = (cards[-1][3] if cards else top - PAD) + PAD
        map_x = (width - map_w) // 2
    else:
        need = PAD + map_w + (PAD + CARD_W if n else 0) + PAD
        width = max(MIN_WIDTH, need)
        map_x = PAD + (width - need) // 2
        card_x = map_x + map_w + PAD
        for i in range(n):
            y = header_h + PAD + i * (card_h + CARD_GAP)
            cards.append((card_x, y, card_x + CARD_W, y + card_h))
        height = max(header_h + PAD + map_h, cards[-1][3] if cards else 0) + PAD
    return MapLayout(width, height, header_h, tile, x_min, y_max, cols, rows, map_x + BAND_W,
                     header_h + PAD + BAND_W, below, tuple(cards))


# ------------------------------------------------------------------------------------------- header


def _stat_text(value: Any) -> str:
    stat = _dict(value)
    text = common.clean_text(_str(stat.get("text")), limit=12)
    if text:
        return text
    dice, pips = _int(stat.get("dice"), 0) or 0, _int(stat.get("pips"), 0) or 0
    return f"{dice}D" + (f"+{pips}" if pips else "") if dice else f"+{pips}"


def _outcome_text(view: dict[str, Any], locale: str) -> str:
    """Won only when the rules say the Gate was sealed (``outcome.reason``); every other end is a loss."""
    return label("won" if _dict(view.get("outcome")).get("reason") == WON else "lost", locale)


def _last_roll(view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the view's ``last_roll``, the Kitsune's roll in it: ``rolls.kitsune``)."""
    info = _dict(view.get("last_roll"))
    return info, _dict(_dict(info.get("rolls")).get("kitsune"))


def _against(info: dict[str, Any]) -> int | None:
    """What the last roll had to beat: the number it needed, or the target's total in a contest."""
    need = _int(info.get("need"))
    return need if need is not None else _int(_dict(_dict(info.get("rolls")).get("target")).get("total"))


def _header(cv: common.Canvas, view: dict[str, Any], lay: MapLayout, locale: str, names: list[Any] | None) -> None:
    # right block: Demon Strength, then the supply
    x = lay.width - PAD
    supply = _dict(view.get("supply"))
    tok = 30
    for kind in reversed(DEMONS):
        count = _int(supply.get(kind), 0) or 0
        w = cv.text(x, 64, f"×{count}", size=21, fill=TEXT, align="right")
        x -= w + 5 + tok
        cv.sprite(token_sprite(kind, tok, BG), x, 64)
        x -= 16
    supply_left = x
    cv.text(lay.width - PAD, 28, label("supply", locale), size=15, fill=DIM, weight="Regular", align="right")
    x = supply_left - 12
    strength = _stat_text(view.get("demon_strength")) if view.get("demon_strength") else "+0"
    cv.text(x, 64, strength, size=30, fill=GOLD, weight="Black", align="right")
    ds = label("demon_strength", locale)
    cv.text(x, 28, ds, size=15, fill=DIM, weight="Regular", align="right")
    right = x - max(common.text_width(ds, 15, "Regular"), common.text_width(strength, 30, "Black")) - 24
    # left block: title, then turn and phase
    cv.text(PAD, 30, label("title", locale), size=28, fill=TEXT, weight="Black", max_width=right - PAD)
    phase = _str(view.get("phase"))
    turn = t("render.turn", locale, n=_int(view.get("turn"), 0))
    x = PAD
    if phase == "over" or view.get("outcome"):
        x += cv.text(x, 66, f"{turn} · ", size=20, fill=DIM, weight="Regular", max_width=right - x)
        cv.text(x, 66, _outcome_text(view, locale), size=20, fill=GOLD, max_width=right - x)
    else:
        pending = _dict(view.get("pending"))
        key = "phase.nightmare" if phase == "nightmare" or pending else "phase.dream"
        x += cv.text(x, 66, f"{turn} · {label(key, locale)} · ", size=20, fill=DIM, weight="Regular",
                     max_width=right - x)
        cur = _int(view.get("current"))
        if cur is not None and right - x > 60:
            x += cv.sprite(token_sprite(f"fox{cur}", 30, BG), x, 66) + 6
            cv.text(x, 66, _who_acts(pending, seat_name(names, cur, locale), names, locale), size=20, fill=TEXT,
                    max_width=right - x)
    info, roll = _last_roll(view)
    if roll.get("dice"):
        cy = HEADER_H + ROLL_H / 2 - 4
        seat = _int(info.get("seat"))
        stat = _str(info.get("stat")).lower()
        stat_word = label(stat, locale) if stat in STATS else common.clean_text(stat, limit=20)
        x = PAD
        if seat is not None:
            x += cv.sprite(token_sprite(f"fox{seat}", 30, BG), x, cy) + 6
        x += cv.text(x, cy, label("last_roll", locale, name=seat_name(names, seat, locale), stat=stat_word),
                     size=18, fill=DIM, weight="Regular", max_width=lay.width / 2) + 10
        x = _roll(cv, x, cy, roll, 32, BG)
        against = _against(info)
        if against is not None:
            x += cv.text(x + 6, cy, f"{label('vs', locale)} {against}", size=20, fill=DIM, weight="Regular") + 14
        if isinstance(info.get("success"), bool):
            mark = "check" if info["success"] else "cross"
            colour = HELD if info["success"] else WOUND
            cv.sprite(common.mark_sprite(mark, 30, colour, BG), x, cy)


def _roll(cv: common.Canvas, x: float, cy: float, roll: dict[str, Any], size: int, bg: RGB,
          fill: RGB = TEXT) -> float:
    """Dice, "+n", "= total" from ``x``; returns the x after them."""
    dice = [_int(v, 0) or 0 for v in _list(roll.get("dice"))]
    shown = dice[:8]
    if shown:
        row = dice_faces(shown, size, bg=bg)
        x += cv.sprite(row, x, cy) + 6
    if len(dice) > len(shown):
        x += cv.text(x, cy, f"+{len(dice) - len(shown)}d", size=16, fill=DIM, bg=bg, weight="Regular") + 6
    plus = _int(roll.get("plus"), 0) or 0
    if plus:
        x += cv.text(x, cy, f"{plus:+d}", size=20, fill=DIM, bg=bg) + 6
    total = _int(roll.get("total"))
    if total is None:
        total = sum(dice) + plus
    x += cv.text(x, cy, f"= {total}", size=22, fill=fill, bg=bg, weight="Black")
    return x + 4


# ---------------------------------------------------------------------------------------------- map


def _who_acts(pending: dict[str, Any], name: str, names: list[Any] | None, locale: str) -> str:
    """"Player 2 to play", or the Nightmare's decision the current player owes."""
    decision = _str(pending.get("decision"))
    if decision not in ("resolve", "flee", "spawn"):
        return label("to_play", locale, name=name)
    fleeing = seat_name(names, _int(pending.get("fleeing")), locale)
    demon = label(demon_type(pending.get("type")) or "oni", locale)
    return label(f"decides.{decision}", locale, name=name, fleeing=fleeing, demon=demon)


def _draw_map_area(img: Image.Image, view: dict[str, Any], lay: MapLayout, locale: str) -> None:
    cv = common.Canvas(img, VOID)
    d = cv.d
    T = lay.tile
    left, top = lay.map_x, lay.map_y
    right, bottom = left + lay.cols * T, top + lay.rows * T
    d.rectangle((left - BAND_W, top - BAND_W, right, bottom), fill=BAND)
    d.rectangle((left, top, right - 1, bottom - 1), fill=VOID)
    # coordinates along the bands: every column and row, or every other when they get crowded
    step = 1 if T >= 26 else 2 if T >= 13 else 5
    size = min(14, max(9, T // 3))
    for i in range(lay.cols):
        x = lay.x_min + i
        if x % step == 0:
            cv.text(left + (i + 0.5) * T, top - BAND_W / 2, str(x), size=size, fill=DIM, bg=BAND,
                    weight="Regular", align="center")
    for j in range(lay.rows):
        y = lay.y_max - j
        if y % step == 0:
            cv.text(left - BAND_W / 2, top + (j + 0.5) * T, str(y), size=size, fill=DIM, bg=BAND,
                    weight="Regular", align="center")
    lands = _lands(view)
    if not lands:
        lands = {}
    # the empty spaces next to a Land: where a Land can be created
    empty = sorted({(x + dx, y + dy) for x, y in lands for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
                   - set(lands))
    if not lands:
        empty = [(0, 0)]
    ctile = chaos_tile(T)
    csize = min(15, max(9, T // 6))
    for x, y in empty:
        bx, by, _, _ = lay.tile_box(x, y)
        img.paste(ctile, (bx, by))
        if T >= COORD_MIN_TILE:
            cv.text(bx + T / 2, by + T / 2, coord_text((x, y)), size=csize, fill=DIM, bg=CHAOS, weight="Regular",
                    align="center")
    for (x, y), land in sorted(lands.items()):
        _draw_land(cv, lay, x, y, land, locale)
    _draw_pending(cv, lay, _dict(view.get("pending")))


def pending_cells(pending: dict[str, Any]) -> list[Coord]:
    """The Lands a paused Nightmare's choices name (``spawn 2,1``, ``flee 0,0``, ``resolve oni@1,0``)."""
    cells = []
    for choice in _list(pending.get("choices")):
        word = str(choice).rsplit(" ", 1)[-1].rsplit("@", 1)[-1]
        x, _, y = word.partition(",")
        if x.lstrip("-").isdigit() and y.lstrip("-").isdigit():
            cells.append((int(x), int(y)))
    return cells


def _draw_pending(cv: common.Canvas, lay: MapLayout, pending: dict[str, Any]) -> None:
    """The decision the Nightmare waits for: its candidate Lands outlined in gold, and a fleeing Kitsune drawn
    on the chaos where its Land was."""
    T = lay.tile
    rim = max(3, T // 16)
    inside = lambda c: 0 <= c[0] - lay.x_min < lay.cols and 0 <= lay.y_max - c[1] < lay.rows  # noqa: E731
    for x, y in filter(inside, pending_cells(pending)):
        bx, by, _, _ = lay.tile_box(x, y)
        cv.d.rectangle((bx + 1, by + 1, bx + T - 2, by + T - 2), outline=GOLD, width=rim)
    at, seat = _coord(pending.get("at")), _int(pending.get("fleeing"))
    if at is not None and inside(at) and seat is not None and 0 <= seat < 8:
        bx, by, _, _ = lay.tile_box(*at)
        size = max(6, T // 2)
        cv.img.paste(token_sprite(f"fox{seat}", size, CHAOS), (bx + (T - size) // 2, by + (T - size) // 2))


def token_slots(tile: int, count: int, show_name: bool = True) -> list[tuple[int, int, int]]:
    """Where a Land's tokens go, as (left, top, size) from the tile's corner: one or two big tokens in a row,
    up to four in a square, then three to a row (two rows under a name, three without); the last slot of a
    full tile holds "+n"."""
    rows_max = 2 if show_name else 3
    cols = 1 if count <= 1 else 2 if count <= 4 else 3
    rows = max(1, min(rows_max, math.ceil(count / cols)))
    area_w, area_h = tile * 0.76, tile * (0.56 if show_name else 0.74)  # inside a Village's rim
    size = max(6, math.floor(min(area_w / cols - 2, area_h / rows - 2, tile * 0.4)))
    x0 = (tile - (cols * size + (cols - 1) * 2)) / 2
    y0 = tile * 0.13 if show_name else (tile - (rows * size + (rows - 1) * 2)) / 2
    return [(round(x0 + c * (size + 2)), round(y0 + r * (size + 2)), size)
            for r in range(rows) for c in range(cols)]


def _draw_land(cv: common.Canvas, lay: MapLayout, x: int, y: int, land: dict[str, Any], locale: str) -> None:
    T = lay.tile
    bx, by, _, _ = lay.tile_box(x, y)
    gate = bool(land.get("gate")) or (x, y) == (0, 0)
    owner = _int(land.get("village"))
    if owner is not None and owner < 0:
        owner = None
    cv.img.paste(land_tile(T, "gate" if gate else "land", owner), (bx, by))
    bg = GATE if gate else LAND
    tokens: list[str] = []
    if owner is not None:
        tokens.append(f"house{owner}")
    for demon in _list(land.get("demons")):
        kind = demon_type(demon)
        if kind:
            tokens.append(kind)
    for seat in _list(land.get("kitsune")):
        s = _int(seat)
        if s is not None and s >= 0:
            tokens.append(f"fox{s}")
    show_name = T >= NAME_MIN_TILE
    slots = token_slots(T, len(tokens), show_name)
    if len(tokens) > len(slots):
        more = len(tokens) - (len(slots) - 1)
        tokens = [*tokens[: len(slots) - 1], f"+{more}"]
    dead = {_int(k.get("seat")) for k in _list(land.get("_dead"))}
    for kind, (tx, ty, s) in zip(tokens, slots, strict=False):
        tx, ty = bx + tx, by + ty
        if kind.startswith("+"):
            cv.text(tx + s / 2, ty + s / 2, kind, size=max(8, s // 2), fill=INK, bg=bg, align="center")
            continue
        grey = kind.startswith("fox") and _int(kind[3:]) in dead
        cv.img.paste(token_sprite(kind, s, bg, grey), (round(tx), round(ty)))
    if show_name:
        size = max(11, min(17, T // 7))
        name = land_name(land, locale)
        weight = "Black" if gate else "Bold"
        cv.text(bx + T / 2, by + T * 0.8, name, size=size, fill=INK if not gate else GATE_EDGE, bg=bg,
                weight=weight, align="center", max_width=T * 0.84 - (T * 0.1 if owner is not None else 0))


# -------------------------------------------------------------------------------------------- cards


def _card(img: Image.Image, box: tuple[int, int, int, int], k: dict[str, Any], view: dict[str, Any],
          locale: str, names: list[Any] | None, card_names: dict[str, str] | None) -> None:
    x0, y0, x1, y1 = box
    seat = _int(k.get("seat"), 0) or 0
    current = _int(view.get("current")) == seat and _str(view.get("phase")) != "over"
    alive = k.get("alive", True) is not False
    bg = CARD_HI if current and alive else CARD
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(box, radius=10, fill=bg)
    if current and alive:
        d.rounded_rectangle((x0, y0, x0 + 6, y1), radius=3, fill=GOLD)
    cv = common.Canvas(img, bg)
    # head: fox, name, where it stands
    cy = y0 + 12 + CARD_HEAD / 2 - 4
    x = x0 + 16
    x += cv.sprite(token_sprite(f"fox{seat}", 40, bg), x, cy) + 10
    colour = seat_colour(seat)
    mark = common.mark_sprite(common.PIECE_MARKS[colour], 20, common.PIECE_COLOURS[colour], bg)
    land = _coord(k.get("land"))
    lands = _lands(view)
    where = label("nowhere", locale) if land is None else (
        f"{land_name(lands[land], locale)} ({coord_text(land)})" if land in lands else coord_text(land))
    name = seat_name(names, seat, locale)
    if _int(view.get("viewer")) == seat:
        name = f"{name} {t('render.you', locale)}"
    room = x1 - 14 - x
    w = cv.text(x, cy - 10, name, size=21, fill=TEXT, max_width=room - 26)
    cv.sprite(mark, x + w + 6, cy - 10)
    cv.text(x, cy + 13, where, size=15, fill=DIM, weight="Regular", max_width=room)
    # stats
    y = y0 + 12 + CARD_HEAD + STAT_ROW / 2
    die = 24
    for stat in STATS:
        value = _dict(k.get(stat))
        cv.text(x0 + 18, y, label(stat, locale), size=17, fill=DIM, weight="Regular", max_width=82)
        dice, pips = max(0, _int(value.get("dice"), 0) or 0), max(0, _int(value.get("pips"), 0) or 0)
        sx = x0 + 108
        for _ in range(min(dice, 8)):
            sx += cv.sprite(stat_die_sprite(die, bg), sx, y) + 3
        if dice > 8:
            sx += cv.text(sx + 2, y, f"+{dice - 8}", size=15, fill=DIM) + 6
        for _ in range(min(pips, 3)):
            d.ellipse((sx + 3, y - 5, sx + 13, y + 5), fill=GOLD)
            sx += 14
        cv.text(x1 - 16, y, _stat_text(value), size=19, fill=TEXT, align="right")
        y += STAT_ROW
    # Wounds against the maximum, Praise
    wounds = max(0, _int(k.get("wounds"), 0) or 0)
    most = max(1, _int(k.get("max_wounds"), 0) or 0)
    cv.text(x0 + 18, y, label("wounds", locale), size=17, fill=DIM, weight="Regular", max_width=82)
    hx = x0 + 108
    hearts = min(most, 8)
    for i in range(hearts):
        hx += cv.sprite(heart_sprite(22, bg, i < wounds), hx, y) + 3
    hx += cv.text(hx + 4, y, f"{wounds}/{most}", size=16, fill=DIM) + 10
    praise = _int(k.get("praise"), 0) or 0
    pw = cv.text(x1 - 16, y, str(praise), size=20, fill=GOLD, weight="Black", align="right")
    cv.text(x1 - 22 - pw, y, label("praise", locale), size=17, fill=DIM, weight="Regular", align="right",
            max_width=max(0, x1 - 22 - pw - hx))
    y += STAT_ROW
    # Items, Legends, Upgrades
    kinds = [(key, [c for c in _list(k.get(key)) if c is not None]) for key in ("items", "legends", "upgrades")]
    if card_names:
        shown = [(key, cards) for key, cards in kinds if cards] or [("items", [])]
        for key, cards in shown:
            head = f"{label(key, locale)}:"
            w = cv.text(x0 + 18, y, head, size=16, fill=DIM, weight="Regular")
            text = ", ".join(common.clean_text(_str(card_names.get(_str(c)) or c), limit=40) for c in cards)
            cv.text(x0 + 26 + w, y, text or label("none", locale), size=16, fill=TEXT, weight="Regular",
                    max_width=x1 - 16 - (x0 + 26 + w))
            y += LINE_ROW
    else:
        text = " · ".join(f"{label(key, locale)} {len(cards)}" for key, cards in kinds)
        cv.text(x0 + 18, y, text, size=16, fill=DIM, weight="Regular", max_width=x1 - x0 - 34)
    if not alive:
        region = img.crop(box)
        grey = ImageOps.grayscale(region).point(lambda v: 40 + v * 0.5).convert("RGB")
        mask = Image.new("L", region.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, region.width - 1, region.height - 1), radius=10, fill=255)
        img.paste(grey, (x0, y0), mask)
        tag = label("dead", locale)
        tw = common.text_width(tag, 16, "Black")
        tag_bg = (70, 70, 70)
        ImageDraw.Draw(img).rounded_rectangle((x1 - tw - 34, y0 + 10, x1 - 10, y0 + 36), radius=6, fill=tag_bg)
        common.paste_text(img, (x1 - 22, y0 + 23), tag, size=16, fill=(220, 220, 220), bg=tag_bg, weight="Black",
                          align="right")


def _mark_dead(view: dict[str, Any]) -> dict[str, Any]:
    """The view's Lands with the dead Kitsune noted, so their fox tokens are drawn grey."""
    dead = {k["seat"] for k in _kitsune(view) if k.get("alive", True) is False}
    if not dead:
        return view
    lands = []
    for raw in _list(view.get("lands")):
        land = _dict(raw)
        lands.append({**land, "_dead": [{"seat": s} for s in _list(land.get("kitsune")) if _int(s) in dead]})
    return {**view, "lands": lands}


def draw_map(view: dict[str, Any], *, locale: str = "en", card_names: dict[str, str] | None = None,
             names: list[Any] | None = None) -> Image.Image:
    """The map as a palette ('P') image."""
    view = _dict(view)
    card_names = card_names if isinstance(card_names, dict) else None
    lay = map_layout(view, card_names)
    img = Image.new("RGB", (lay.width, lay.height), BG)
    cv = common.Canvas(img, BG)
    _header(cv, view, lay, locale, names)
    _draw_map_area(img, _mark_dead(view), lay, locale)
    for box, k in zip(lay.cards, _kitsune(view), strict=False):
        _card(img, box, k, view, locale, names, card_names)
    return _finish(img)


def map_image(view: dict[str, Any], *, locale: str = "en", card_names: dict[str, str] | None = None,
              names: list[Any] | None = None) -> bytes:
    """PNG bytes of the map (see the module's docstring)."""
    return common.encode_png(draw_map(view, locale=locale, card_names=card_names, names=names))


# ---------------------------------------------------------------------------------------- nightmare

NM_WIDTH = 960
NM_HEADER = 72
NM_LINE = 40  # a step of one line
NM_ROLL = 92  # a step with rolls: its caption and a line of dice
NM_DIE = 38
NM_EMPTY = 120
NM_MAX_H = 1900


def _step_height(step: dict[str, Any]) -> int:
    kind = _str(step.get("kind"))
    if kind in ("attack_kitsune", "attack_land") or (kind == "spawn_dice" and _spawn_dice(step)):
        return NM_ROLL
    return NM_LINE


def _spawn_dice(step: dict[str, Any]) -> list[int]:
    return [_int(v, 0) or 0 for v in _list(step.get("dice"))]


def _land_label(step: dict[str, Any], view: dict[str, Any], locale: str, key: str) -> str:
    """The Land at the step's ``key`` ([x, y]) by its name in the view, with its coordinates."""
    c = _coord(step.get(key))
    if c is None:
        return "?"
    land = _lands(view).get(c)
    return f"{land_name(land, locale)} ({coord_text(c)})" if land is not None else coord_text(c)


def _step_demon(step: dict[str, Any]) -> str | None:
    return demon_type(step.get("type")) or demon_type(step.get("demon"))


@dataclass(frozen=True)
class StepWords:
    """What the Nightmare image says about one step: its token, its caption and, for an attack, the result
    badge (``wound``, ``held`` or ``destroyed``), the words on it and what the demon's roll is set against
    (the target's roll, or the Land's defence as a number)."""

    token: str
    caption: str
    result: str | None = None
    badge: str = ""
    against: dict[str, Any] | int | None = None


def _attack_result(step: dict[str, Any], kind: str) -> str:
    """The rules' own verdict (``wound`` / ``destroyed``), never a re-count of the dice; a step without it is
    judged by the rules' condition (strictly higher than the target's roll or the Land's defence)."""
    rolls = _dict(step.get("rolls"))
    if kind == "attack_land":
        hit = step.get("destroyed")
        if not isinstance(hit, bool):
            defence = _int(step.get("defence"))
            hit = defence is not None and (_int(_dict(rolls.get("demon")).get("total"), 0) or 0) > defence
        return "destroyed" if hit else "held"
    hit = step.get("wound")
    if not isinstance(hit, bool):
        a = _int(_dict(rolls.get("demon")).get("total"))
        b = _int(_dict(rolls.get("target")).get("total"))
        hit = a is not None and b is not None and a > b
    return "wound" if hit else "held"


def _lost_land_label(step: dict[str, Any], view: dict[str, Any], locale: str) -> str:
    """A destroyed Land is gone from the view: its name comes from its card (``land``) and the step's ``at``."""
    c = _coord(step.get("at"))
    card = LAND_BY_ID.get(_str(step.get("land")))
    if step.get("gate") is True:
        name = label("gate", locale)
    elif card is not None:
        name = land_name({"name": card.name}, locale)
    else:
        return _land_label(step, view, locale, "at")
    return f"{name} ({coord_text(c)})" if c is not None else name


def step_words(step: dict[str, Any], view: dict[str, Any], locale: str = "en",
               names: list[Any] | None = None) -> StepWords:
    """The words the Nightmare image draws for a step, read from the fields the rules emit (see
    `rules.floating_world.game.FloatingWorld.view`)."""
    step = _dict(step)
    kind = _str(step.get("kind"))
    demon = _step_demon(step)
    demon_word = label(demon, locale) if demon else "?"
    seat = _int(step.get("seat"))
    fox = f"fox{seat}" if seat is not None and seat >= 0 else ""
    if kind in ("attack_kitsune", "attack_land"):
        result = _attack_result(step, kind)
        if kind == "attack_kitsune":
            stat = _str(step.get("stat")).lower()
            target = seat_name(names, seat, locale) + (f" · {label(stat, locale)}" if stat in STATS else "")
            caption = label("attacks", locale, demon=demon_word, target=target)
            against: dict[str, Any] | int | None = _dict(_dict(step.get("rolls")).get("target"))
        else:
            caption = label("attacks_land", locale, demon=demon_word, land=_land_label(step, view, locale, "at"))
            against = _int(step.get("defence"))
        return StepWords(demon or "", caption, result, label(f"result.{result}", locale), against)
    if kind == "move":
        return StepWords(demon or "", label("moves", locale, demon=demon_word,
                                            src=coord_text(_coord(step.get("from"))),
                                            dst=_land_label(step, view, locale, "to")))
    if kind in ("destroyed", "cut_off"):
        key = "cut_off" if kind == "cut_off" else "destroyed_land"
        return StepWords("", label(key, locale, land=_lost_land_label(step, view, locale)))
    if kind == "kitsune_moved":
        return StepWords(fox, label("kitsune_moved", locale, name=seat_name(names, seat, locale),
                                    dst=_land_label(step, view, locale, "to")))
    if kind == "strength":
        text = common.clean_text(_str(step.get("to")), limit=12) or "?"
        return StepWords("", label("strength", locale, text=text))
    if kind == "spawn":
        return StepWords(demon or "", label("spawn", locale, demon=demon_word,
                                            land=_land_label(step, view, locale, "at")))
    if kind == "no_spawn":
        return StepWords("", label("no_spawn", locale))
    if kind == "returned":
        return StepWords(demon or "", label("returned", locale, demon=demon_word))
    if kind == "death":
        return StepWords(fox, label("death", locale, name=seat_name(names, seat, locale)))
    if kind == "spawn_dice":
        return StepWords("", label("spawn_dice", locale))
    return StepWords("", common.clean_text(kind.replace("_", " "), limit=40) or "?")


def _result_badge(cv: common.Canvas, right: float, cy: float, result: str, locale: str, bg: RGB) -> None:
    colour = HELD if result == "held" else WOUND
    mark = "check" if result == "held" else "cross"
    text = label(f"result.{result}", locale)
    tw = common.text_width(text, 18, "Black")
    w = tw + 52
    d = cv.d
    d.rounded_rectangle((right - w, cy - 17, right, cy + 17), radius=8, fill=colour)
    cv.sprite(common.mark_sprite(mark, 24, WHITE, colour), right - w + 10, cy)
    cv.text(right - 14, cy, text, size=18, fill=WHITE, bg=colour, weight="Black", align="right")


def _draw_step(cv: common.Canvas, top: int, step: dict[str, Any], view: dict[str, Any], locale: str,
               names: list[Any] | None) -> None:
    kind = _str(step.get("kind"))
    words = step_words(step, view, locale, names)
    cy = top + NM_LINE / 2
    x = PAD
    if words.token:
        x += cv.sprite(token_sprite(words.token, 28, BG), x, cy) + 10
    elif kind in ("destroyed", "cut_off"):
        x += cv.sprite(common.mark_sprite("cross", 28, WOUND, BG), x, cy) + 10
    elif kind == "strength":
        x += cv.sprite(common.mark_sprite("star", 28, GOLD, BG), x, cy) + 10
    elif kind == "spawn_dice":
        x += cv.sprite(stat_die_sprite(28, BG), x, cy) + 10
    else:
        x += 38
    right = NM_WIDTH - PAD
    if words.result is not None:
        _result_badge(cv, right, cy, words.result, locale, BG)
        right -= 150
    cv.text(x, cy, words.caption, size=19, fill=TEXT, weight="Bold" if words.result else "Regular",
            max_width=right - x)
    if words.result is not None:
        _draw_contest(cv, top, _dict(_dict(step.get("rolls")).get("demon")), words, locale)
    elif kind == "spawn_dice":
        _draw_spawn_dice(cv, top, step, right, locale)


def _draw_contest(cv: common.Canvas, top: int, demon: dict[str, Any], words: StepWords, locale: str) -> None:
    """The demon's dice against the target's roll or the Land's defence; the winner's total in gold."""
    ry = top + NM_LINE + (NM_ROLL - NM_LINE) / 2 - 4
    demon_won = words.result in ("wound", "destroyed")
    rx = _roll(cv, PAD + 38, ry, demon, NM_DIE, BG, fill=GOLD if demon_won else DIM)
    rx += cv.text(rx + 12, ry, label("vs", locale), size=18, fill=DIM, weight="Regular") + 26
    fill = DIM if demon_won else GOLD
    if isinstance(words.against, dict):
        _roll(cv, rx, ry, words.against, NM_DIE, BG, fill=fill)
    else:
        cv.text(rx, ry, "?" if words.against is None else str(words.against), size=24, fill=fill, weight="Black")


def _draw_spawn_dice(cv: common.Canvas, top: int, step: dict[str, Any], right: float, locale: str) -> None:
    dice = _spawn_dice(step)
    if not dice:
        return
    sixes = all(v == 6 for v in dice)
    hi = {i: ("six" if sixes else "hi") for i, v in enumerate(dice) if sixes or v in (1, 2)}
    ry = top + NM_LINE + (NM_ROLL - NM_LINE) / 2 - 4
    rx = PAD + 38 + cv.sprite(dice_faces(dice[:16], NM_DIE + 6, bg=BG, highlight=hi), PAD + 38, ry) + 12
    spawns = sum(1 for v in dice if v in (1, 2))
    note = label("all_sixes", locale) if sixes else label("spawns", locale, count=spawns)
    cv.text(rx, ry, note, size=18, fill=GOLD if sixes or spawns else DIM, max_width=right - rx)


def draw_nightmare(view: dict[str, Any], *, locale: str = "en", names: list[Any] | None = None) -> Image.Image:
    """The last Nightmare phase as a palette ('P') image."""
    view = _dict(view)
    nm = _dict(view.get("nightmare"))
    steps = [_dict(s) for s in _list(nm.get("steps"))]
    heights = []
    total = NM_HEADER + PAD
    shown = 0
    for i, step in enumerate(steps):
        h = _step_height(step)
        last = i == len(steps) - 1
        if total + h + (0 if last else NM_LINE) + PAD > NM_MAX_H:
            break
        heights.append(h)
        total += h
        shown += 1
    more = len(steps) - shown
    height = total + (NM_LINE if more else 0) + (NM_EMPTY if not steps else 0) + PAD
    img = Image.new("RGB", (NM_WIDTH, height), BG)
    cv = common.Canvas(img, BG)
    turn = _int(nm.get("turn"), _int(view.get("turn"), 0))
    title = label("nightmare", locale, n=turn) if steps else label("phase.nightmare", locale)
    strength = _stat_text(view.get("demon_strength")) if view.get("demon_strength") else "+0"
    sw = cv.text(NM_WIDTH - PAD, NM_HEADER / 2, strength, size=28, fill=GOLD, weight="Black", align="right")
    dsw = cv.text(NM_WIDTH - PAD - sw - 10, NM_HEADER / 2, label("demon_strength", locale), size=16, fill=DIM,
                  weight="Regular", align="right")
    cv.text(PAD, NM_HEADER / 2, title, size=28, fill=TEXT, weight="Black", max_width=NM_WIDTH - 3 * PAD - sw - dsw)
    cv.d.rectangle((PAD, NM_HEADER - 2, NM_WIDTH - PAD, NM_HEADER - 1), fill=CARD)
    if not steps:
        cv.text(NM_WIDTH / 2, NM_HEADER + NM_EMPTY / 2, label("no_nightmare", locale), size=24, fill=DIM,
                weight="Regular", align="center")
        return _finish(img)
    y = NM_HEADER + PAD // 2
    for step, h in zip(steps[:shown], heights, strict=True):
        _draw_step(cv, y, step, view, locale, names)
        y += h
        cv.d.line((PAD + 38, y - 2, NM_WIDTH - PAD, y - 2), fill=CARD, width=1)
    if more:
        cv.text(PAD + 38, y + NM_LINE / 2, label("more_steps", locale, count=more), size=18, fill=DIM,
                weight="Regular")
    return _finish(img)


def nightmare_image(view: dict[str, Any], *, locale: str = "en", names: list[Any] | None = None) -> bytes:
    """PNG bytes of the last Nightmare phase (see the module's docstring)."""
    return common.encode_png(draw_nightmare(view, locale=locale, names=names))


__all__ = [
    "DEFAULTS",
    "MapLayout",
    "coord_text",
    "dice_faces",
    "draw_map",
    "draw_nightmare",
    "label",
    "map_image",
    "map_layout",
    "nightmare_image",
]
