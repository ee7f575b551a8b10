"""The Dream cards a Floating World (``floating_world``) harvest drew, drawn as small tarot-like cards.

Public API:
  - `dream_cards_image(cards, *, locale="en", praise=None, chosen=None) -> bytes`: PNG bytes of the drawn cards,
    one per id, side by side (five to a row, more wrap to further rows; at most `MAX_CARDS`);
  - `draw_dream_cards(...) -> Image`: the palette ('P') image it encodes;
  - `effect_text(dream, locale="en") -> str`: a Dream card's effect in words (the cog reuses it in text replies);
  - `card_box(index, count) -> (x0, y0, x1, y1)`: where the ``index``-th card sits, for tests.

A card is washi paper on the night-indigo page of `render.floating_world`: a band across the top in its type's
colour with the type's icon and word (Item: blue with a gem, Village Upgrade: bluish green with a house,
Legend: vermilion with a star; Okabe-Ito colours, and never colour alone), the name in the locale (one line,
or two smaller ones, then an ellipsis), a medallion with an emblem of the effect (a die, reroll arrows, a
coin, a heart, a shield, a fan of cards), the cost as a row of square-holed Praise coins and the number, and
the effect as up to three short centred lines. With ``praise`` given, a card the player cannot afford is drawn
in dimmed tones (every colour pulled towards the page) with a "needs N more Praise" strip along its foot; the
``chosen`` card gets a gold frame and a check badge. Ids not in `rules.floating_world.content.DREAM_BY_ID`
draw as a plain "?" card; malformed arguments are read as absent, never a crash.

Words come from the catalogs (``data/i18n/<locale>/floating_world_cards.json``, keys under
``render.floating_world_cards.``; counted words use plural forms chosen by ``count``); stat names reuse the
game's ``fw.stat.*``. Card names come from the data (``name[locale]``). Shapes are drawn 4x and reduced, once
per argument set (cached); text is pasted from `render.kit`'s cached tiles; the image is remapped once onto
a fixed palette holding both the normal and the dimmed tones, and encoded with `kit.encode_image`: the same
arguments give the same bytes.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

import i18n
from render import kit
from render.kit import RGB, blend, hex_rgb, shade
from rules.floating_world.content import DREAM_BY_ID, Dream

KEY = "render.floating_world_cards."
SS = kit.SUPERSAMPLE

CARD_W, CARD_H = 210, 330
GAP, PAD = 16, 18
PER_ROW = 5
MAX_CARDS = 20
RADIUS = 14
BAND_H = 38
NAME_Y = 66  # centre of the name block
MEDAL_Y, MEDAL_R = 146, 42
COST_Y = 210
EFFECT_Y = 238  # centre of the effect's first line
EFFECT_LINE = 19
STRIP_H = 30  # the "needs N more Praise" strip
TEXT_W = CARD_W - 24

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("121729")  # the page (render.floating_world's BG)
PAPER = hex_rgb("efe5cc")  # washi
EDGE = hex_rgb("a8976f")
INK = hex_rgb("2b2420")
INK_SOFT = hex_rgb("6a5d4c")
WHITE = (255, 255, 255)
GOLD = hex_rgb("f3c351")
GOLD_EDGE = hex_rgb("8a5a12")
DIE = hex_rgb("f7f3e8")
HEART = hex_rgb("e05a6a")
STRIP = hex_rgb("2b2420")
GREY = hex_rgb("7d8296")  # the band of an unknown card
TYPE_COLOUR: dict[str, RGB] = {
    "item": shade(kit.OKABE_ITO["blue"], 0.92),
    "upgrade": shade(kit.OKABE_ITO["bluish_green"], 0.8),
    "legend": shade(kit.OKABE_ITO["vermillion"], 0.9),
    "unknown": GREY,
}
TYPE_ICON = {"item": "gem", "upgrade": "house", "legend": "star", "unknown": ""}
DIM_TOWARDS = 0.55  # how far a dimmed card's colours move towards the page


def tint(card_type: str) -> RGB:
    """The medallion's fill: the type's colour washed into the paper."""
    return blend(TYPE_COLOUR[card_type], PAPER, 0.78)


def dark(card_type: str) -> RGB:
    """The emblem's ink: a deep tone of the type's colour."""
    return shade(TYPE_COLOUR[card_type], 0.7)


def tone(colour: RGB, dim: bool) -> RGB:
    """``colour`` as a dimmed (unaffordable) card shows it, or unchanged."""
    return blend(colour, BG, DIM_TOWARDS) if dim else colour


# ------------------------------------------------------------------------------------------- words


def _t(key: str, locale: str, **params: Any) -> str:
    return i18n.t(KEY + key, locale, **params)


_int = kit.read_int


def effect_text(dream: Dream, locale: str = "en") -> str:
    """A Dream card's effect in words, e.g. "+1 pip to Body in every roll" ("?" for an unknown effect)."""
    kind = getattr(dream, "kind", None)
    params = getattr(dream, "params", None)
    params = params if isinstance(params, dict) else {}
    loc = i18n.normalize_locale(locale)
    key, stat = f"effect.{kind}", ""
    if kind == "stat_bonus":
        amount = _int(params.get("pips"), 1)
        stat = i18n.t(f"fw.stat.{params.get('stat')}", loc)
    elif kind == "contest_die":
        amount = _int(params.get("dice"), 1)
        key = f"effect.contest_die.{params.get('contest')}"
    else:
        amount = _int(params.get("amount"), 1)
    if not isinstance(kind, str) or KEY + key not in i18n.catalog(i18n.DEFAULT_LOCALE):
        return "?"
    return _t(key, loc, count=amount, amount=amount, stat=stat)


def card_name(dream: Dream | None, locale: str) -> str:
    if dream is None:
        return _t("unknown_name", locale)
    loc = i18n.normalize_locale(locale)
    name = dream.name.get(loc) or dream.name.get("en") or dream.id
    return kit.clean_text(name) or dream.id


def wrap(text: str, size: int, width: float, weight: str, max_lines: int) -> list[str]:
    """``text`` in at most ``max_lines`` lines of ``width`` pixels; the last cut with an ellipsis if need be."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while words and kit.text_width(f"{line} {words[0]}", size, weight) <= width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words:
        lines[-1] = f"{lines[-1]} {' '.join(words)}"
    return [kit.fit_text(line, size, width, weight) for line in lines]


def _fits(text: str, size: int, width: float, weight: str, max_lines: int) -> bool:
    return " ".join(wrap(text, size, width, weight, max_lines)) == " ".join(text.split())


def name_lines(name: str) -> tuple[int, list[str]]:
    """(font size, lines): one line at 20 px, else two at 17, else two cut with an ellipsis."""
    if kit.text_width(name, 20, "Black") <= TEXT_W:
        return 20, [name]
    return 17, wrap(name, 17, TEXT_W, "Black", 2)


def effect_lines(text: str) -> tuple[int, list[str]]:
    """(font size, lines) of the effect: up to three lines at 15 px, else at 14, else cut."""
    for size in (15, 14):
        if _fits(text, size, TEXT_W, "Bold", 3):
            return size, wrap(text, size, TEXT_W, "Bold", 3)
    return 14, wrap(text, 14, TEXT_W, "Bold", 3)


# ------------------------------------------------------------------------------------------ palette

_PAIRS: list[tuple[RGB, RGB, int]] = [
    (INK, PAPER, 4), (INK_SOFT, PAPER, 3), (EDGE, BG, 3), (EDGE, PAPER, 2), (PAPER, BG, 2),
    (GOLD, PAPER, 2), (GOLD_EDGE, PAPER, 3), (GOLD, GOLD_EDGE, 2), (GOLD_EDGE, INK, 1),
]


def _type_pairs(card_type: str) -> list[tuple[RGB, RGB, int]]:
    band, med, ink = TYPE_COLOUR[card_type], tint(card_type), dark(card_type)
    return [(WHITE, band, 3), (band, EDGE, 1), (band, PAPER, 1), (med, PAPER, 2), (ink, med, 3), (INK, med, 2),
            (DIE, med, 1), (GOLD_EDGE, med, 2), (HEART, med, 2), (ink, PAPER, 1)]


@functools.cache
def palette() -> Image.Image:
    pal = kit.Palette()
    pal.add(BG, WHITE, DIE, HEART, STRIP)
    pal.ramps((GOLD, WHITE), (STRIP,), steps=3)
    pal.ramp(GOLD, BG, 3)
    pal.ramps((INK,), (DIE,), steps=2)
    pal.ramp(WHITE, HEART, 2)
    for dim in (False, True):
        pairs = list(_PAIRS)
        for card_type in TYPE_COLOUR:
            pairs += _type_pairs(card_type)
        for fg, bg, steps in pairs:
            pal.ramp(tone(fg, dim), tone(bg, dim), steps)
    return pal.image()


# ------------------------------------------------------------------------------------------- shapes


def _heart(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(64):
        a = 2 * math.pi * i / 64
        x = 16 * math.sin(a) ** 3
        y = -(13 * math.cos(a) - 5 * math.cos(2 * a) - 2 * math.cos(3 * a) - math.cos(4 * a))
        pts.append((cx + x * r / 17, cy + y * r / 17 - r * 0.08))
    return pts


def _house(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = [(0.0, -1.0), (1.0, -0.1), (0.78, -0.1), (0.78, 0.9), (-0.78, 0.9), (-0.78, -0.1), (-1.0, -0.1)]
    return [(cx + x * r, cy + y * r) for x, y in pts]


def _shield(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = [(0.0, -1.0), (0.85, -0.7), (0.8, 0.1), (0.0, 1.0), (-0.8, 0.1), (-0.85, -0.7)]
    return [(cx + x * r, cy + y * r) for x, y in pts]


def _rotated(cx: float, cy: float, w: float, h: float, deg: float) -> list[tuple[float, float]]:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in ((-w, -h), (w, -h), (w, h), (-w, h))]


def _icon(d: ImageDraw.ImageDraw, icon: str, cx: float, cy: float, r: float, fill: RGB) -> None:
    """A type's icon: a gem (Item), a house (Village Upgrade) or a star (Legend)."""
    if icon == "gem":
        d.polygon([(cx - r * 0.9, cy - r * 0.35), (cx - r * 0.45, cy - r * 0.8), (cx + r * 0.45, cy - r * 0.8),
                   (cx + r * 0.9, cy - r * 0.35), (cx, cy + r * 0.9)], fill=fill)
    elif icon == "house":
        d.polygon(_house(cx, cy, r * 0.92), fill=fill)
    elif icon == "star":
        kit.draw_mark(d, "star", cx, cy, r * 0.95, fill)


def _die(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, value: int, dim: bool) -> None:
    box = (cx - r, cy - r, cx + r, cy + r)
    d.rounded_rectangle(box, radius=r * 0.35, fill=tone(DIE, dim), outline=tone(INK, dim), width=max(SS, round(r / 9)))
    pr = r * 0.19
    for fx, fy in kit.DIE_SPOTS.get(value, kit.DIE_SPOTS[5]):
        px, py = cx - r + 2 * r * fx, cy - r + 2 * r * fy
        d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=tone(INK, dim))


def _coin(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, hole: RGB, dim: bool) -> None:
    """A mon coin: a gold disc with a dark rim and a square hole."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tone(GOLD_EDGE, dim))
    rim = r * 0.16
    d.ellipse((cx - r + rim, cy - r + rim, cx + r - rim, cy + r - rim), fill=tone(GOLD, dim))
    h = r * 0.26
    d.rectangle((cx - h, cy - h, cx + h, cy + h), fill=tone(GOLD_EDGE, dim))
    h2 = h * 0.55
    d.rectangle((cx - h2, cy - h2, cx + h2, cy + h2), fill=hole)


def _arrows(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    """Two curved arrows chasing each other: a reroll."""
    w = max(SS, round(r * 0.16))
    box = (cx - r, cy - r, cx + r, cy + r)
    for start in (200, 20):
        d.arc(box, start, start + 125, fill=fill, width=w)
        a = math.radians(start + 125)
        tip = (cx + r * math.cos(a), cy + r * math.sin(a))
        tx, ty = -math.sin(a), math.cos(a)  # the direction of travel
        nx, ny = math.cos(a), math.sin(a)
        s = r * 0.32
        d.polygon([(tip[0] + tx * s * 1.2 - nx * w * 0.5, tip[1] + ty * s * 1.2 - ny * w * 0.5),
                   (tip[0] - nx * s, tip[1] - ny * s), (tip[0] + nx * s, tip[1] + ny * s)], fill=fill)


def _emblem(d: ImageDraw.ImageDraw, kind: str, value: int, cx: float, cy: float, r: float, card_type: str,
            dim: bool) -> None:
    ink, med = tone(dark(card_type), dim), tone(tint(card_type), dim)
    if kind in ("stat_bonus", "contest_die"):
        _die(d, cx, cy, r * 0.55, value, dim)
    elif kind in ("reroll", "legend_reroll"):
        _arrows(d, cx, cy, r * 0.62, ink)
        _die(d, cx, cy, r * 0.26, 6, dim)
    elif kind == "harvest_praise":
        _coin(d, cx - r * 0.2, cy + r * 0.12, r * 0.42, med, dim)
        _coin(d, cx + r * 0.22, cy - r * 0.14, r * 0.42, med, dim)
    elif kind == "village_praise":
        d.polygon(_house(cx - r * 0.12, cy - r * 0.05, r * 0.55), fill=ink)
        _coin(d, cx + r * 0.36, cy + r * 0.3, r * 0.3, med, dim)
    elif kind in ("heal", "max_wounds"):
        if kind == "max_wounds":
            d.polygon(_heart(cx + r * 0.22, cy - r * 0.12, r * 0.42), fill=tone(shade(HEART, 0.75), dim))
        d.polygon(_heart(cx - (r * 0.1 if kind == "max_wounds" else 0), cy + r * 0.05, r * 0.55),
                  fill=tone(HEART, dim))
        if kind == "heal":
            w, h = r * 0.07, r * 0.24
            d.rectangle((cx - w, cy - h, cx + w, cy + h), fill=tone(WHITE, dim))
            d.rectangle((cx - h, cy - w, cx + h, cy + w), fill=tone(WHITE, dim))
    elif kind == "land_guard":
        d.polygon(_shield(cx, cy, r * 0.62), fill=ink)
        d.polygon(_shield(cx, cy, r * 0.4), fill=med)
        d.polygon(_shield(cx, cy + r * 0.02, r * 0.26), fill=ink)
    elif kind == "harvest_draw":
        for deg, dx in ((-16, -0.22), (0, 0.0), (16, 0.22)):
            pts = _rotated(cx + r * dx, cy + abs(dx) * r * 0.3, r * 0.26, r * 0.4, deg)
            d.polygon(pts, fill=tone(PAPER, dim), outline=ink, width=max(SS, round(r * 0.06)))


# ------------------------------------------------------------------------------------------ the card


def _emblem_key(dream: Dream | None) -> tuple[str, int]:
    if dream is None:
        return "unknown", 0
    if dream.kind == "stat_bonus":
        return dream.kind, _int(dream.get("pips"), 1)
    return dream.kind, 5


@functools.lru_cache(maxsize=128)
def card_base(card_type: str, kind: str, value: int, dim: bool, chosen: bool) -> Image.Image:
    """A card's shapes without its words, on the page: paper, band with icon, medallion with emblem."""
    w, h = CARD_W + 2 * GAP // 2, CARD_H + 2 * GAP // 2
    big = Image.new("RGB", (w * SS, h * SS), BG)
    d = ImageDraw.Draw(big)
    o = GAP // 2 * SS
    x0, y0, x1, y1 = o, o, o + CARD_W * SS, o + CARD_H * SS
    if chosen:
        g = 6 * SS
        d.rounded_rectangle((x0 - g, y0 - g, x1 + g, y1 + g), radius=(RADIUS + 6) * SS, fill=GOLD)
        d.rounded_rectangle((x0 - 2 * SS, y0 - 2 * SS, x1 + 2 * SS, y1 + 2 * SS), radius=(RADIUS + 2) * SS,
                            fill=BG)
    rad = RADIUS * SS
    d.rounded_rectangle((x0, y0, x1, y1), radius=rad, fill=tone(EDGE, dim))
    rim = 3 * SS
    d.rounded_rectangle((x0 + rim, y0 + rim, x1 - rim, y1 - rim), radius=rad - rim, fill=tone(PAPER, dim))
    band = tone(TYPE_COLOUR[card_type], dim)
    bottom = y0 + BAND_H * SS
    d.rounded_rectangle((x0 + rim, y0 + rim, x1 - rim, bottom), radius=rad - rim, fill=band)
    d.rectangle((x0 + rim, bottom - rad, x1 - rim, bottom), fill=band)
    if TYPE_ICON[card_type]:
        _icon(d, TYPE_ICON[card_type], x0 + 24 * SS, y0 + (BAND_H + 2) / 2 * SS, 11 * SS, tone(WHITE, dim))
    cx, cy, r = (x0 + x1) / 2, y0 + MEDAL_Y * SS, MEDAL_R * SS
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tone(tint(card_type), dim))
    ring = r - 4 * SS
    d.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), outline=tone(dark(card_type), dim), width=SS)
    _emblem(d, kind, value, cx, cy, r, card_type, dim)
    if card_type != "unknown":  # a rule between the cost and the effect
        d.line((x0 + 40 * SS, y0 + (COST_Y + 14) * SS, x1 - 40 * SS, y0 + (COST_Y + 14) * SS),
               fill=tone(EDGE, dim), width=SS)
    if dim:
        d.rounded_rectangle((x0 + rim, y1 - STRIP_H * SS, x1 - rim, y1 - rim), radius=rad - rim, fill=STRIP)
        d.rectangle((x0 + rim, y1 - STRIP_H * SS, x1 - rim, y1 - STRIP_H * SS + rad), fill=STRIP)
    if chosen:
        bx, by, br = x1 - 4 * SS, y0 + 4 * SS, 15 * SS
        d.ellipse((bx - br, by - br, bx + br, by + br), fill=GOLD)
        kit.draw_mark(d, "check", bx, by, br * 0.62, STRIP)
    return big.reduce(SS)


@functools.lru_cache(maxsize=64)
def coin_sprite(size: int, dim: bool) -> Image.Image:
    big = Image.new("RGB", (size * SS, size * SS), tone(PAPER, dim))
    _coin(ImageDraw.Draw(big), size * SS / 2, size * SS / 2, size * SS * 0.46, tone(PAPER, dim), dim)
    return big.reduce(SS)


def _card_type(dream: Dream | None) -> str:
    return dream.type if dream is not None and dream.type in TYPE_COLOUR else "unknown"


def _draw_card(img: Image.Image, x: int, y: int, dream: Dream | None, locale: str, praise: int | None,
               chosen: bool) -> None:
    """The card with its top-left corner at (x, y)."""
    card_type = _card_type(dream)
    missing = max(0, dream.cost - praise) if dream is not None and praise is not None else 0
    dim = missing > 0
    kind, value = _emblem_key(dream)
    img.paste(card_base(card_type, kind, value, dim, chosen), (x - GAP // 2, y - GAP // 2))
    cv = kit.Canvas(img, tone(PAPER, dim))
    cx = x + CARD_W / 2
    band = tone(TYPE_COLOUR[card_type], dim)
    cv.text(x + 42, y + (BAND_H + 2) / 2, _t(f"type.{card_type}", locale), size=15, fill=tone(WHITE, dim), bg=band,
            weight="Black", max_width=CARD_W - 42 - (30 if chosen else 12))
    size, lines = name_lines(card_name(dream, locale))
    step = size + 3
    top = y + NAME_Y - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        cv.text(cx, top + i * step, line, size=size, fill=tone(INK, dim), weight="Black", align="center")
    if dream is None:
        cv.text(cx, y + MEDAL_Y, "?", size=48, fill=tone(dark(card_type), dim), bg=tone(tint(card_type), dim),
                weight="Black", align="center")
        return
    _cost_row(cv, cx, y + COST_Y, dream.cost, dim)
    size, lines = effect_lines(effect_text(dream, locale))
    for i, line in enumerate(lines):
        cv.text(cx, y + EFFECT_Y + i * EFFECT_LINE, line, size=size, fill=tone(INK_SOFT, dim), weight="Bold",
                align="center")
    if dim:
        cv.text(cx, y + CARD_H - STRIP_H / 2 - 1, _t("needs", locale, count=missing), size=14, fill=GOLD,
                bg=STRIP, weight="Bold", align="center", max_width=TEXT_W)


def _cost_row(cv: kit.Canvas, cx: float, cy: float, cost: int, dim: bool) -> None:
    """``cost`` coins and the number, centred on ``cx``."""
    coin, step = 20, 17
    shown = max(0, min(cost, 8))
    number = str(cost)
    nw = kit.text_width(number, 22, "Black")
    width = (shown - 1) * step + coin + 8 + nw if shown else nw
    x = cx - width / 2
    tile = coin_sprite(coin, dim)
    for _ in range(shown):
        cv.sprite(tile, x, cy)
        x += step
    cv.text(x + (coin - step) + 8 if shown else x, cy, number, size=22, fill=tone(GOLD_EDGE, dim), weight="Black")


# ------------------------------------------------------------------------------------------- the image


def _grid(count: int) -> tuple[int, int]:
    """(columns, rows) for ``count`` cards (at least one slot)."""
    n = max(1, count)
    return min(n, PER_ROW), math.ceil(n / PER_ROW)


def card_box(index: int, count: int) -> tuple[int, int, int, int]:
    """The ``index``-th card's box in an image of ``count`` cards."""
    cols, _ = _grid(count)
    col, row = index % cols, index // cols
    x, y = PAD + col * (CARD_W + GAP), PAD + row * (CARD_H + GAP)
    return x, y, x + CARD_W, y + CARD_H


def _ids(cards: Any) -> list[Any]:
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        return []
    return list(cards)[:MAX_CARDS]


def draw_dream_cards(cards: Sequence[str], *, locale: str = "en", praise: int | None = None,
                     chosen: str | None = None) -> Image.Image:
    """The drawn Dream cards as a palette ('P') image (see the module's docstring)."""
    ids = _ids(cards)
    praise = None if praise is None or isinstance(praise, bool) else _int(praise, 0)
    cols, rows = _grid(len(ids))
    img = Image.new("RGB", (2 * PAD + cols * CARD_W + (cols - 1) * GAP, 2 * PAD + rows * CARD_H + (rows - 1) * GAP),
                    BG)
    if not ids:
        ImageDraw.Draw(img).rounded_rectangle(card_box(0, 0), radius=RADIUS, outline=tone(EDGE, True), width=2)
    for i, card in enumerate(ids):
        dream = DREAM_BY_ID.get(card) if isinstance(card, str) else None
        x0, y0, _, _ = card_box(i, len(ids))
        _draw_card(img, x0, y0, dream, locale, praise, dream is not None and card == chosen)
    return kit.to_palette(img, palette())


def dream_cards_image(cards: Sequence[str], *, locale: str = "en", praise: int | None = None,
                      chosen: str | None = None) -> bytes:
    """PNG bytes of the drawn Dream cards (see the module's docstring)."""
    return kit.encode_image(draw_dream_cards(cards, locale=locale, praise=praise, chosen=chosen))


__all__ = ["MAX_CARDS", "card_box", "draw_dream_cards", "dream_cards_image", "effect_text"]
