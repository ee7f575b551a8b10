"""Floating World's map image: header, last roll, Lands and tokens, the Kitsune cards (`map_image`)."""

from __future__ import annotations

import functools
import json
import math
from typing import Any

from PIL import Image, ImageDraw, ImageOps

from i18n import t
from render import kit
from render.floating_world.layout import CARD_HEAD, LINE_ROW, STAT_ROW, MapLayout, map_layout
from render.floating_world.model import (
    DEMONS,
    STATS,
    Coord,
    _coord,
    _dict,
    _int,
    _kitsune,
    _lands,
    _last_roll,
    _list,
    _str,
    coord_text,
    demon_type,
    label,
    land_name,
    seat_colour,
    seat_name,
)
from render.floating_world.palette import (
    BAND,
    BAND_W,
    BG,
    CARD,
    CARD_HI,
    CHAOS,
    COORD_MIN_TILE,
    DIM,
    GATE,
    GATE_EDGE,
    GOLD,
    HEADER_H,
    HELD,
    INK,
    LAND,
    NAME_MIN_TILE,
    PAD,
    ROLL_H,
    TEXT,
    VOID,
    WOUND,
    new_image,
    paletted,
)
from render.floating_world.sprites import p_chaos, p_dice_faces, p_heart, p_land, p_mark, p_stat_die, p_token
from render.kit import RGB
from render.kit.paletted import PCanvas
from rules.floating_world.state import WON

# ------------------------------------------------------------------------------------------- header


def _stat_text(value: Any) -> str:
    stat = _dict(value)
    text = kit.clean_text(_str(stat.get("text")), limit=12)
    if text:
        return text
    dice, pips = _int(stat.get("dice"), 0) or 0, _int(stat.get("pips"), 0) or 0
    return f"{dice}D" + (f"+{pips}" if pips else "") if dice else f"+{pips}"


def _outcome_text(view: dict[str, Any], locale: str) -> str:
    """Won only when the rules say the Gate was sealed (``outcome.reason``); every other end is a loss."""
    return label("won" if _dict(view.get("outcome")).get("reason") == WON else "lost", locale)


def _against(info: dict[str, Any]) -> int | None:
    """What the last roll had to beat: the number it needed, or the target's total in a contest."""
    need = _int(info.get("need"))
    return need if need is not None else _int(_dict(_dict(info.get("rolls")).get("target")).get("total"))


def _header(cv: PCanvas, view: dict[str, Any], lay: MapLayout, locale: str, names: list[Any] | None) -> None:
    # right block: Demon Strength, then the supply
    x = lay.width - PAD
    supply = _dict(view.get("supply"))
    tok = 30
    for kind in reversed(DEMONS):
        count = _int(supply.get(kind), 0) or 0
        w = cv.text(x, 64, f"×{count}", size=21, fill=TEXT, align="right")
        x -= w + 5 + tok
        cv.sprite(p_token(kind, tok, BG), x, 64)
        x -= 16
    supply_left = x
    cv.text(lay.width - PAD, 28, label("supply", locale), size=15, fill=DIM, weight="Regular", align="right")
    x = supply_left - 12
    strength = _stat_text(view.get("demon_strength")) if view.get("demon_strength") else "+0"
    cv.text(x, 64, strength, size=30, fill=GOLD, weight="Black", align="right")
    ds = label("demon_strength", locale)
    cv.text(x, 28, ds, size=15, fill=DIM, weight="Regular", align="right")
    right = x - max(kit.text_width(ds, 15, "Regular"), kit.text_width(strength, 30, "Black")) - 24
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
            x += cv.sprite(p_token(f"fox{cur}", 30, BG), x, 66) + 6
            cv.text(x, 66, _who_acts(pending, seat_name(names, cur, locale), names, locale), size=20, fill=TEXT,
                    max_width=right - x)
    info, roll = _last_roll(view)
    if roll.get("dice"):
        cy = HEADER_H + ROLL_H / 2 - 4
        seat = _int(info.get("seat"))
        stat = _str(info.get("stat")).lower()
        stat_word = label(stat, locale) if stat in STATS else kit.clean_text(stat, limit=20)
        x = PAD
        if seat is not None:
            x += cv.sprite(p_token(f"fox{seat}", 30, BG), x, cy) + 6
        x += cv.text(x, cy, label("last_roll", locale, name=seat_name(names, seat, locale), stat=stat_word),
                     size=18, fill=DIM, weight="Regular", max_width=lay.width / 2) + 10
        x = _roll(cv, x, cy, roll, 32, BG)
        against = _against(info)
        if against is not None:
            x += cv.text(x + 6, cy, f"{label('vs', locale)} {against}", size=20, fill=DIM, weight="Regular") + 14
        if isinstance(info.get("success"), bool):
            mark = "check" if info["success"] else "cross"
            colour = HELD if info["success"] else WOUND
            cv.sprite(p_mark(mark, 30, colour, BG), x, cy)


def _roll(cv: PCanvas, x: float, cy: float, roll: dict[str, Any], size: int, bg: RGB,
          fill: RGB = TEXT) -> float:
    """Dice, "+n", "= total" from ``x``; returns the x after them."""
    dice = [_int(v, 0) or 0 for v in _list(roll.get("dice"))]
    shown = dice[:8]
    if shown:
        row = p_dice_faces(tuple(shown), size, bg)
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
    cv = PCanvas(img, VOID, paletted())
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
    ctile = p_chaos(T)
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


def _draw_pending(cv: PCanvas, lay: MapLayout, pending: dict[str, Any]) -> None:
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
        cv.img.paste(p_token(f"fox{seat}", size, CHAOS), (bx + (T - size) // 2, by + (T - size) // 2))


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


def _draw_land(cv: PCanvas, lay: MapLayout, x: int, y: int, land: dict[str, Any], locale: str) -> None:
    T = lay.tile
    bx, by, _, _ = lay.tile_box(x, y)
    gate = bool(land.get("gate")) or (x, y) == (0, 0)
    owner = _int(land.get("village"))
    if owner is not None and owner < 0:
        owner = None
    cv.img.paste(p_land(T, "gate" if gate else "land", owner), (bx, by))
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
        cv.img.paste(p_token(kind, s, bg, grey), (round(tx), round(ty)))
    if show_name:
        size = max(11, min(17, T // 7))
        name = land_name(land, locale)
        weight = "Black" if gate else "Bold"
        cv.text(bx + T / 2, by + T * 0.8, name, size=size, fill=INK if not gate else GATE_EDGE, bg=bg,
                weight=weight, align="center", max_width=T * 0.84 - (T * 0.1 if owner is not None else 0))


# -------------------------------------------------------------------------------------------- cards


def _where(k: dict[str, Any], view: dict[str, Any], locale: str) -> str:
    land = _coord(k.get("land"))
    lands = _lands(view)
    return label("nowhere", locale) if land is None else (
        f"{land_name(lands[land], locale)} ({coord_text(land)})" if land in lands else coord_text(land))


class _CardJob:
    """A card to draw, known by everything it shows (``key``): equal keys, equal cards."""

    def __init__(self, key: str, size: tuple[int, int], parity: tuple[int, int], args: tuple[Any, ...]) -> None:
        self.key, self.size, self.parity, self.args = key, size, parity, args

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _CardJob) and other.key == self.key


def _card_key(box: tuple[int, int, int, int], k: dict[str, Any], view: dict[str, Any], locale: str,
              names: list[Any] | None, card_names: dict[str, str] | None) -> str:
    """What a card shows: the Kitsune, whether it is the current one or the viewer, where it stands, its name,
    its cards' names, the locale and the box (its size and the parity of its corner: see `_card_tile`)."""
    seat = _int(k.get("seat"), 0) or 0
    current = _int(view.get("current")) == seat and _str(view.get("phase")) != "over"
    cards = {str(c): (card_names or {}).get(_str(c)) for key in ("items", "legends", "upgrades")
             for c in _list(k.get(key)) if c is not None}
    return json.dumps([box[2] - box[0], box[3] - box[1], box[0] % 2, box[1] % 2, k, current,
                       _int(view.get("viewer")) == seat, _where(k, view, locale), seat_name(names, seat, locale),
                       locale, card_names is not None, cards], sort_keys=True, default=str)


@functools.lru_cache(maxsize=64)
def _card_tile(job: _CardJob) -> Image.Image:
    """A card drawn once on its own 'P' tile. Drawn at the parity of its place on the map (an even shift leaves
    every rounded half-pixel where it was), so the pasted tile is the card drawn in place, pixel for pixel."""
    (w, h), (ox, oy) = job.size, job.parity
    tile = new_image((w + 1 + ox, h + 1 + oy), BG)
    _card(tile, (ox, oy, ox + w, oy + h), *job.args)
    return tile.crop((ox, oy, tile.width, tile.height))


def _paste_card(img: Image.Image, box: tuple[int, int, int, int], k: dict[str, Any], view: dict[str, Any],
                locale: str, names: list[Any] | None, card_names: dict[str, str] | None) -> None:
    """A Kitsune's card from the cache of drawn cards: most moves change one card at most."""
    key = _card_key(box, k, view, locale, names, card_names)
    job = _CardJob(key, (box[2] - box[0], box[3] - box[1]), (box[0] % 2, box[1] % 2),
                   (k, view, locale, names, card_names))
    img.paste(_card_tile(job), box[:2])


def _card(img: Image.Image, box: tuple[int, int, int, int], k: dict[str, Any], view: dict[str, Any],
          locale: str, names: list[Any] | None, card_names: dict[str, str] | None) -> None:
    x0, y0, x1, y1 = box
    seat = _int(k.get("seat"), 0) or 0
    current = _int(view.get("current")) == seat and _str(view.get("phase")) != "over"
    alive = k.get("alive", True) is not False
    bg = CARD_HI if current and alive else CARD
    cv = PCanvas(img, bg, paletted())
    d = cv.d
    d.rounded_rectangle(box, radius=10, fill=bg)
    if current and alive:
        d.rounded_rectangle((x0, y0, x0 + 6, y1), radius=3, fill=GOLD)
    # head: fox, name, where it stands
    cy = y0 + 12 + CARD_HEAD / 2 - 4
    x = x0 + 16
    x += cv.sprite(p_token(f"fox{seat}", 40, bg), x, cy) + 10
    colour = seat_colour(seat)
    mark = p_mark(kit.PIECE_MARKS[colour], 20, kit.PIECE_COLOURS[colour], bg)
    where = _where(k, view, locale)
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
            sx += cv.sprite(p_stat_die(die, bg), sx, y) + 3
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
        hx += cv.sprite(p_heart(22, bg, i < wounds), hx, y) + 3
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
            text = ", ".join(kit.clean_text(_str(card_names.get(_str(c)) or c), limit=40) for c in cards)
            cv.text(x0 + 26 + w, y, text or label("none", locale), size=16, fill=TEXT, weight="Regular",
                    max_width=x1 - 16 - (x0 + 26 + w))
            y += LINE_ROW
    else:
        text = " · ".join(f"{label(key, locale)} {len(cards)}" for key, cards in kinds)
        cv.text(x0 + 18, y, text, size=16, fill=DIM, weight="Regular", max_width=x1 - x0 - 34)
    if not alive:
        _grey_out(img, box, locale)


def _grey_out(img: Image.Image, box: tuple[int, int, int, int], locale: str) -> None:
    """A dead Kitsune's card greyed with a "dead" tag: the card redone in RGB and remapped (a rare card)."""
    x0, y0, x1, _ = box
    region = img.crop(box).convert("RGB")
    grey = ImageOps.grayscale(region).point(lambda v: 40 + v * 0.5).convert("RGB")
    mask = Image.new("L", region.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, region.width - 1, region.height - 1), radius=10, fill=255)
    region.paste(grey, (0, 0), mask)
    tag = label("dead", locale)
    tw = kit.text_width(tag, 16, "Black")
    tag_bg = (70, 70, 70)
    ImageDraw.Draw(region).rounded_rectangle((x1 - x0 - tw - 34, 10, x1 - x0 - 10, 36), radius=6, fill=tag_bg)
    kit.paste_text(region, (x1 - x0 - 22, 23), tag, size=16, fill=(220, 220, 220), bg=tag_bg, weight="Black",
                   align="right")
    img.paste(paletted().tile(region), (x0, y0))


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
    """The map as a palette ('P') image, drawn in the palette from start to end (cached 'P' tiles and text, flat
    shapes by index; only a dead Kitsune's card is remapped)."""
    view = _dict(view)
    card_names = card_names if isinstance(card_names, dict) else None
    lay = map_layout(view, card_names)
    img = new_image((lay.width, lay.height), BG)
    cv = PCanvas(img, BG, paletted())
    _header(cv, view, lay, locale, names)
    _draw_map_area(img, _mark_dead(view), lay, locale)
    for box, k in zip(lay.cards, _kitsune(view), strict=False):
        _paste_card(img, box, k, view, locale, names, card_names)
    return img


def map_image(view: dict[str, Any], *, locale: str = "en", card_names: dict[str, str] | None = None,
              names: list[Any] | None = None) -> bytes:
    """PNG bytes of the map (see the module's docstring)."""
    return kit.encode_image(draw_map(view, locale=locale, card_names=card_names, names=names))
