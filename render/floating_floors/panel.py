"""Floating Floors' header (status, turn, dice) and side panel (seats, hands, pool, legend, last event)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from render import kit
from render.floating_floors.layout import Layout
from render.floating_floors.model import (
    BANDS,
    COLOUR_OF,
    KINDS,
    NINJAS,
    PHASES,
    SHAPE_OF,
    Model,
    _cell,
    _dict,
    _float,
    _int,
    _list,
    _str,
    kind_parts,
    label,
    margin_text,
    seat_colour,
    seat_name,
    space_name,
)
from render.floating_floors.palette import (
    BAD,
    BAND_W,
    BG,
    DIE,
    DIM,
    GOLD,
    HEADER_H,
    OK,
    PAD,
    PANEL,
    PANEL_HI,
    PANEL_W,
    TEXT,
    WHITE,
)
from render.floating_floors.sprites import (
    _paste,
    bansen_sprite,
    centre_sprite,
    die_sprite,
    jutsu_sprite,
    ninja_sprite,
    swatch_sprite,
)
from render.kit import RGB
from render.kit.scene import Step
from rules.floating_floors.components import BANSEN_BY_ID

# -------------------------------------------------------------------------------------------- header


def _status(view: dict[str, Any], m: Model, locale: str, names: list[Any] | None) -> tuple[str, int | None, RGB]:
    """(text, seat whose ninja leads it, colour) of the header's second line."""
    if m.winner is not None:
        return label("wins", locale, name=seat_name(names, m.winner, locale)), m.winner, GOLD
    if m.phase == "over":
        return label("phase.over", locale), None, GOLD
    reset = _dict(view.get("reset"))
    card, by = _int(reset.get("card")), _int(reset.get("by"))
    if reset and card is not None and by is not None and 0 <= by < 8:
        return label("resets", locale, name=seat_name(names, by, locale), card=card_name(m, card)), by, GOLD
    if m.current is None or not 0 <= m.current < 8:
        return "", None, TEXT
    return label("to_play", locale, name=seat_name(names, m.current, locale)), m.current, TEXT


def card_name(m: Model, card: int) -> str:
    """A card as players name it: by its middle space (``b2``)."""
    if not 0 <= card < m.card_cols * m.card_rows:
        return "?"
    return space_name(((card % m.card_cols) * 3 + 1, (card // m.card_cols) * 3 + 1))


def _ninja_of(m: Model, seat: int | None) -> dict[str, Any] | None:
    return next((n for n in m.ninjas if n["seat"] == seat), None)


def header_step(view: dict[str, Any], m: Model, lay: Layout, locale: str, names: list[Any] | None) -> Step:
    """The header as a drawing step."""
    return Step((0, 0, lay.width, HEADER_H), lambda img: _header(img, view, m, lay, locale, names))


def _header(img: Image.Image, view: dict[str, Any], m: Model, lay: Layout, locale: str,
            names: list[Any] | None) -> None:
    cv = kit.Canvas(img, BG)
    right = _header_right(cv, view, lay, locale)
    cv.text(PAD, 30, label("title", locale), size=28, fill=TEXT, weight="Black", max_width=right - PAD)
    x = PAD
    phase = label(f"phase.{m.phase}", locale) if m.phase in PHASES else ""
    lead = " · ".join(p for p in (t("render.turn", locale, n=m.turn), phase) if p)
    if m.winner is None and m.phase != "over":
        x += cv.text(x, 70, lead + " · ", size=20, fill=DIM, weight="Regular", max_width=right - x)
    text, seat, colour = _status(view, m, locale, names)
    ninja = _ninja_of(m, seat)
    if seat is not None and right - x > 80:
        tile = ninja_sprite(ninja["colour"] if ninja else "light", seat, 34, False)
        _paste(img, tile, x + 17, 70)
        x += 40
    if text:
        cv.text(x, 70, text, size=20, fill=colour, max_width=right - x)


def _header_right(cv: kit.Canvas, view: dict[str, Any], lay: Layout, locale: str) -> float:
    """The deck and the roll, from the right; returns where they begin."""
    x = lay.width - PAD
    deck = _dict(view.get("deck"))
    count = max(0, _int(deck.get("count"), 0) or 0)
    light = frozenset(c for c in map(_cell, _list(deck.get("top_light"))) if c and min(c) >= 0 and max(c) <= 2)
    if deck.get("top") is not None and count:
        x -= 40
        cv.sprite(swatch_sprite(light, 40, BG), x, 62)
    word = label("deck", locale, count=count)
    cv.text(x, 24, word, size=15, fill=DIM, weight="Regular", align="right")
    x -= max(60, kit.text_width(word, 15, "Regular") - (40 if count else 0)) + 26
    roll = [_str(k) for k in _list(view.get("roll"))[:6]]
    if roll:
        left_to_take = [_str(k) for k in _list(view.get("to_take"))]
        dims = []
        for kind in reversed(roll):  # the last dice are dimmed first when kinds repeat
            if kind in left_to_take:
                left_to_take.remove(kind)
                dims.append(False)
            else:
                dims.append(True)
        dims.reverse()
        size, step = 42, 48
        x -= len(roll) * step - (step - size)
        for i, (kind, dim) in enumerate(zip(roll, dims, strict=True)):
            cv.sprite(die_sprite(kind, size, BG, dim), x + i * step, 62)
        cv.text(x, 24, label("roll", locale), size=15, fill=DIM, weight="Regular")
        x -= 24
    return x


# --------------------------------------------------------------------------------------------- panel


def seat_step(box: tuple[int, int, int, int], seat: int, view: dict[str, Any], m: Model, locale: str,
              names: list[Any] | None) -> Step:
    """A seat's card as a drawing step."""
    x0, y0, x1, y1 = box  # the card's rounded rectangle holds its last row and column
    return Step((x0, y0, x1 + 1, y1 + 1), lambda img: _seat_card(img, box, seat, view, m, locale, names))


def _seat_card(img: Image.Image, box: tuple[int, int, int, int], seat: int, view: dict[str, Any], m: Model,
               locale: str, names: list[Any] | None) -> None:
    x0, y0, x1, y1 = box
    current = seat == m.current and m.winner is None and m.phase != "over"
    bg = PANEL_HI if current or seat == m.winner else PANEL
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(box, radius=10, fill=bg)
    if current or seat == m.winner:
        d.rounded_rectangle((x0, y0, x0 + 6, y1), radius=3, fill=GOLD)
    cv = kit.Canvas(img, bg)
    ninja = _ninja_of(m, seat) or {"colour": "light", "ninja": "", "claimed": [], "needed": 0}
    _paste(img, ninja_sprite(ninja["colour"], seat, 46, False), x0 + 40, y0 + 34)
    x = x0 + 72
    name = seat_name(names, seat, locale)
    colour = seat_colour(seat)
    w = cv.text(x, y0 + 24, name, size=20, fill=TEXT, max_width=x1 - x - 40)
    cv.sprite(kit.mark_sprite(kit.PIECE_MARKS[colour], 20, kit.PIECE_COLOURS[colour], bg), x + w + 6,
              y0 + 24)
    words = [label(f"ninja.{ninja['ninja']}", locale) if ninja["ninja"] in NINJAS else "",
             label(ninja["colour"], locale)]
    cv.text(x, y0 + 47, " · ".join(p for p in words if p), size=15, fill=DIM, weight="Regular",
            max_width=x1 - x - 12)
    _seat_bansen(cv, x0, y0 + 82, x1, ninja, bg, locale)
    _seat_hand(cv, x0, y0 + 113, x1, _list(_list(view.get("hands"))[seat]) if seat < len(_list(view.get("hands")))
               else [], bg, locale)


def _bansen_parts(bid: str) -> tuple[str, int | None]:
    """A claimed Bansen's (direction, number) from its id (``sun2``), via the box's data when it loads."""
    b = BANSEN_BY_ID.get(bid)
    return (b.direction, b.number) if b else ("", None)


def _seat_bansen(cv: kit.Canvas, x0: int, cy: float, x1: int, ninja: dict[str, Any], bg: RGB,
                 locale: str) -> None:
    w = cv.text(x0 + 18, cy, label("bansen", locale), size=15, fill=DIM, weight="Regular", max_width=80)
    x = x0 + 18 + max(w, 56) + 10
    claimed, needed = ninja["claimed"], ninja["needed"]
    seat = ninja.get("seat")
    size = 28
    for i in range(min(max(needed, len(claimed)), 8)):
        if i < len(claimed):
            direction, number = _bansen_parts(claimed[i])
            tile = bansen_sprite(seat, direction, number, size, bg)
        else:
            tile = bansen_sprite(None, "", None, size, bg, hollow=True)
        x += cv.sprite(tile, x, cy) + 4
    cv.text(x1 - 16, cy, f"{len(claimed)}/{needed}", size=18, fill=GOLD if needed and len(claimed) >= needed
            else TEXT, align="right")


def _seat_hand(cv: kit.Canvas, x0: int, cy: float, x1: int, hand: list[Any], bg: RGB, locale: str) -> None:
    w = cv.text(x0 + 18, cy, label("hand", locale), size=15, fill=DIM, weight="Regular", max_width=80)
    x = x0 + 18 + max(w, 56) + 10
    kinds = [kind_parts(k) for k in hand]
    shown = [k for k in kinds if k][:9]
    if not shown:
        cv.text(x, cy, label("empty", locale), size=15, fill=DIM, weight="Regular")
        return
    d = cv.d
    d.rounded_rectangle((x - 4, cy - 15, x + len(shown) * 30, cy + 15), radius=6, fill=DIE)
    for colour, shape in shown:
        _paste(cv.img, jutsu_sprite(colour, shape, 40), x + 13, cy + (2 if shape == "triangle" else 0))
        x += 30
    if len([k for k in kinds if k]) > len(shown):
        cv.text(x + 8, cy, f"+{len([k for k in kinds if k]) - len(shown)}", size=15, fill=DIM)


def panel_step(view: dict[str, Any], m: Model, lay: Layout, locale: str, physics: bool) -> Step:
    """The panel under the seats (pool, last event, legend) as a drawing step."""
    top = _panel_top(lay) - 20  # the first line is centred on the top: its capitals reach ~10 px above
    return Step((lay.panel_x, top, lay.width, lay.height), lambda img: _panel_extra(img, view, m, lay, locale, physics))


def _panel_top(lay: Layout) -> int:
    return (lay.seats[-1][3] if lay.seats else HEADER_H + BAND_W) + 22


def _panel_extra(img: Image.Image, view: dict[str, Any], m: Model, lay: Layout, locale: str, physics: bool) -> None:
    top = _panel_top(lay)
    cv = kit.Canvas(img, BG)
    x0 = lay.panel_x
    pool = _dict(view.get("pool"))
    cv.text(x0 + 4, top, label("pool", locale), size=15, fill=DIM, weight="Regular")
    x = x0 + 4
    y = top + 30
    d = ImageDraw.Draw(img)
    for i, kind in enumerate(KINDS):
        colour, shape = COLOUR_OF[kind[0]], SHAPE_OF[kind[1]]
        bx = x + i * 60
        d.rounded_rectangle((bx, y - 14, bx + 28, y + 14), radius=5, fill=DIE)
        _paste(img, jutsu_sprite(colour, shape, 40), bx + 14, y + (2 if shape == "triangle" else 0))
        count = max(0, min(999, _int(pool.get(kind), 0) or 0))
        cv.text(bx + 32, y, f"×{count}", size=15, fill=TEXT)
    y += 36
    last = _last_text(view, m, locale)
    if last:
        cv.text(x0 + 4, y, label("last", locale), size=15, fill=DIM, weight="Regular")
        w = kit.text_width(label("last", locale), 15, "Regular") + 8
        last_bad = _dict(view.get("last")).get("stable") is False or _str(_dict(view.get("last")).get("kind")) == \
            "collapse"
        cv.text(x0 + 4 + w, y, last, size=15, fill=BAD if last_bad else TEXT, max_width=PANEL_W - w - 8)
        y += 28
    if physics and m.boards:
        _legend(img, x0 + 4, y, locale, bands(m))


def bands(m: Model) -> bool:
    """``tension=bands``: the boards carry a band (safe / shaky / falls), never a margin."""
    return any(b.band is not None for b in m.boards.values())


def legend_words(locale: str, banded: bool) -> tuple[str, str, str]:
    """The legend's words: supports, centre of mass, and what the board's pill says — the margin (``exact``), or
    the bands a player sees (``bands``: a number there would give away what the game hides)."""
    pill = label("legend.band", locale, safe=label("band.safe", locale), shaky=label("band.shaky", locale),
                 falls=label("band.falls", locale)) if banded else label("legend.margin", locale)
    return label("legend.support", locale), label("legend.centre", locale), pill


def _legend(img: Image.Image, x: float, cy: float, locale: str, banded: bool = False) -> None:
    """The overlay's key in one row: a polygon swatch, the centre mark, a pill (a margin's "+", or blank for a
    band), each with its word (`legend_words`)."""
    support, centre, pill = legend_words(locale, banded)
    start = x
    cv = kit.Canvas(img, BG)
    d = cv.d
    d.polygon([(x, cy + 8), (x + 8, cy - 9), (x + 22, cy - 6), (x + 20, cy + 9)], fill=kit.blend(BG, OK, 0.4),
              outline=OK, width=2)
    x += 28
    x += cv.text(x, cy, support, size=14, fill=DIM, weight="Regular") + 14
    _paste(img, centre_sprite(20, True), x + 10, cy)
    x += 24
    x += cv.text(x, cy, centre, size=14, fill=DIM, weight="Regular") + 14
    if x + 36 + kit.text_width(pill, 14, "Regular") > img.width - PAD and cy + 36 <= img.height:
        x, cy = start, cy + 24  # a long key (the bands in Polish) takes a second row where there is room
    d.rounded_rectangle((x, cy - 9, x + 30, cy + 9), radius=9, fill=OK)
    if not banded:
        kit.paste_text(img, (x + 15, cy), "+", size=14, fill=WHITE, bg=OK, weight="Black", align="center")
    x += 36
    cv.text(x, cy, pill, size=14, fill=DIM, weight="Regular", max_width=img.width - PAD - x)


def _last_text(view: dict[str, Any], m: Model, locale: str) -> str:
    last = _dict(view.get("last"))
    kind = kit.clean_text(_str(last.get("kind")), limit=30)
    if not kind:
        return ""
    card = _int(last.get("card"))
    where = card_name(m, card) if card is not None else "?"
    text = label(f"last.{kind}", locale, card=where) if kind in ("collapse", "claim", "check") else \
        label("last.other", locale, kind=kind.replace("_", " "))
    margin = _float(last.get("margin"))
    if last.get("band") in BANDS:  # tension=bands: the band, never the margin
        text += f" ({label('band.' + last['band'], locale)})"
    elif margin is not None:
        text += f" ({label('margin', locale, value=margin_text(margin))})"
    return text
