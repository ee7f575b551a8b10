"""Top view of Floating Floors (``floating_floors``), drawn from a view (a plain dict), never from a state.

Public API:
  - `board_image(view, *, locale="en", names=None, physics=True) -> bytes`: the image to post; `draw_board(...)`
    is the palette ('P') image it encodes. ``names`` are the players' display names by seat (cleaned as
    `render.common` says, "Player N" when unreadable); ``physics=False`` hides the statics overlay (an option);
  - `preview_image(view, board_index, *, locale="en") -> bytes`: one card (3×3 spaces) with its board and its
    overlay, cropped from the full image, with a caption (stable or not, the margin): for "what if" replies;
  - `layout(view) -> dict`: where things are drawn, as pixel boxes ``(left, top, right, bottom)``: ``spaces`` by
    name (``"a1"``), ``cards`` and ``alcoves`` by index, ``seats`` (panel cards) by seat, plus ``map`` (the
    cards' area), ``frame``, ``header``, ``panel`` and ``scale`` (pixels per space). Used by the tests.

Coordinates: map spaces are (col, row) from the top-left, a space's centre is (col + 0.5, row + 0.5), y grows
down; spaces are named letter + number (``a1`` top-left). Card i covers cols 3·(i % card_cols)… and rows
3·(i // card_cols)…; cards are drawn with a thin gap, so a point is placed with the offset of the card it lies in
(a board's polygon and centre with its own card's offset).

Drawing decisions:
- The map lies in a dark wooden frame; the frame holds the alcoves (recessed notches next to their space), the
  coordinate bands (a…i, 1…9) run outside it. Land is a flat soft green, water blue with a wave mark (never
  colour alone).
- A board is a sprite over its card with a drop shadow: light spaces cream, shadow spaces charcoal, a wood rim.
  An unstable board (``stable`` False) gets a red dashed rim and a "!" warning tag, with or without the overlay.
- Jutsu are their true footprints (square 0.5, triangle 0.6 pointing up, hexagon 0.52 across flats, flat top)
  in black or white with an outline of the other tone; a support under a board is a dashed ghost outline with a
  dot of its colour, so the supports stay readable through the board.
- Ninjas are meeple silhouettes (white = light, near-black = shadow) on a disc of their seat's colour with the
  seat number as a badge; the current player's ninja has a gold halo. A Chakra is its seat's disc with the
  seat's mark; a Bansen a parchment seal ringed in its owner's colour with the owner's mark, a curved arrow
  (clockwise or counter-clockwise) and its number when known.
- Physics overlay: per board the support polygon (translucent fill and outline: solid when stable, dashed when
  not; a 1-point hull is a dot, 2 points a line), the centre of mass (a ringed cross when stable, an × when not)
  and the margin as a pill on the board's bottom rim ("+0.21", "! −0.08"): green-ish when stable, red when not.
- Seat colours are the Okabe-Ito orange, sky blue, reddish purple and yellow of `render.common` (green and red
  belong to the overlay), each with its own mark. The side panel (right of the map) has per seat the ninja,
  name, Bansen claimed against needed (seal icons), the Jutsu in hand; then the pool and the last event.

Fixed words come from the i18n catalogs under ``render.floating_floors.*`` when they exist there, else from
`DEFAULTS`. The image is drawn in RGB (cached sprites, supersampled at `common.SUPERSAMPLE`), remapped once
onto a fixed palette and encoded as `render.common` describes: the same view gives the same bytes. Views are
read defensively: missing or malformed fields are drawn as absent, never a crash.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw, ImageFilter

from i18n import t
from render import common
from render.common import RGB, hex_rgb

GAME = "floating_floors"
KEY = "render.floating_floors."
LETTERS = "abcdefghijkl"
KINDS = ("bs", "bt", "bh", "ws", "wt", "wh")
BANDS = ("safe", "shaky", "falls")
SHAPE_OF = {"s": "square", "t": "triangle", "h": "hexagon"}
COLOUR_OF = {"b": "black", "w": "white"}
NINJAS = ("sun", "moon", "smoke", "night")
NINJA_COLOUR = {"sun": "light", "moon": "light", "smoke": "shadow", "night": "shadow"}
PHASES = ("hide", "acquire", "navigate", "reset", "over")
SIDES = ("n", "e", "s", "w")
FOOT = {"square": 0.5, "triangle": 0.6, "hexagon": 0.52}  # footprint sizes in spaces (drawing only)

DEFAULTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Floating Floors",
        "phase.hide": "Hiding the Bansen",
        "phase.acquire": "Acquire",
        "phase.navigate": "Navigate",
        "phase.reset": "Reset",
        "phase.over": "Game over",
        "to_play": "{name} to play",
        "wins": "{name} wins!",
        "resets": "{name} resets card {card}",
        "roll": "Roll",
        "deck": "Deck · {count}",
        "bansen": "Bansen",
        "hand": "Hand",
        "pool": "Pool",
        "empty": "none",
        "light": "light",
        "shadow": "shadow",
        "ninja.sun": "Sun",
        "ninja.moon": "Moon",
        "ninja.smoke": "Smoke",
        "ninja.night": "Night",
        "reset_tag": "reset",
        "stable": "Stands",
        "unstable": "Collapses",
        "margin": "margin {value}",
        "band.safe": "safe",
        "band.shaky": "shaky",
        "band.falls": "falls",
        "card": "Card {card}",
        "last": "Last:",
        "last.collapse": "collapse on card {card}",
        "last.claim": "Bansen claimed on card {card}",
        "last.check": "check on card {card}",
        "last.other": "{kind}",
        "legend.support": "supports",
        "legend.centre": "centre of mass",
        "legend.margin": "margin",
    },
    "pl": {
        "title": "Pływające Podłogi",
        "phase.hide": "Ukrywanie Bansen",
        "phase.acquire": "Zdobywanie",
        "phase.navigate": "Ruch",
        "phase.reset": "Odbudowa",
        "phase.over": "Koniec gry",
        "to_play": "Ruch: {name}",
        "wins": "Wygrywa {name}!",
        "resets": "{name} odbudowuje kartę {card}",
        "roll": "Rzut",
        "deck": "Talia · {count}",
        "bansen": "Bansen",
        "hand": "Ręka",
        "pool": "Pula",
        "empty": "brak",
        "light": "jasny",
        "shadow": "cień",
        "ninja.sun": "Słońce",
        "ninja.moon": "Księżyc",
        "ninja.smoke": "Dym",
        "ninja.night": "Noc",
        "reset_tag": "odbudowa",
        "stable": "Stoi",
        "unstable": "Zawali się",
        "margin": "zapas {value}",
        "band.safe": "pewnie",
        "band.shaky": "chwiejnie",
        "band.falls": "spada",
        "card": "Karta {card}",
        "last": "Ostatnio:",
        "last.collapse": "zawalenie na karcie {card}",
        "last.claim": "zdobyty Bansen na karcie {card}",
        "last.check": "sprawdzenie na karcie {card}",
        "last.other": "{kind}",
        "legend.support": "podpory",
        "legend.centre": "środek ciężkości",
        "legend.margin": "zapas",
    },
}

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("15171f")  # page
PANEL = hex_rgb("20232e")  # a seat's card
PANEL_HI = hex_rgb("2c3042")  # the current seat's card
TEXT = hex_rgb("eef0f5")
DIM = hex_rgb("9aa0b2")
GOLD = hex_rgb("f3c351")
FRAME = hex_rgb("3b2a1d")  # the wooden frame the map lies in
FRAME_EDGE = hex_rgb("2a1d13")
ALCOVE = hex_rgb("20160e")  # a recessed notch
BAND = BG
LAND = hex_rgb("bcc78f")
LAND_LINE = hex_rgb("97a46c")
WATER = hex_rgb("4f8fc0")
WAVE = hex_rgb("a7d0ee")
UNKNOWN = hex_rgb("8a8d96")
LIGHT = hex_rgb("f1e8d2")  # a board's light space
SHADOW = hex_rgb("393a42")  # a board's shadow space
WOOD = hex_rgb("a8753f")
WOOD_DARK = hex_rgb("6e4a26")
GHOST = hex_rgb("c99a5b")  # the dashed outline of a support under a board
J_BLACK = hex_rgb("17171b")
J_BLACK_EDGE = hex_rgb("d9d9d9")
J_WHITE = hex_rgb("fbfaf6")
J_WHITE_EDGE = hex_rgb("28282c")
N_LIGHT = hex_rgb("ffffff")
N_SHADOW = J_BLACK
OK = common.PIECE_COLOURS["green"]  # the overlay of a stable board
BAD = common.PIECE_COLOURS["red"]  # an unstable board
WHITE = (255, 255, 255)
SEAL = hex_rgb("efe2c2")  # a Bansen's parchment
INK = hex_rgb("3a2418")
DIE = hex_rgb("e9e4d8")
SEAT_COLOURS = ("orange", "sky", "purple", "yellow")
GREY_STEPS = 20
SS = common.SUPERSAMPLE

PAD = 18
HEADER_H = 96
BAND_W = 22
PANEL_W = 372
SEAT_H = 132
SEAT_GAP = 10
SCALE_MAX = 68
SCALE_MIN = 20
MAP_BUDGET = 900  # the cards' area aims at this many pixels on its longer side before the scale shrinks
MAX_SIDE = 2000


def label(key: str, locale: str, **params: Any) -> str:
    """A fixed word: the catalogs' ``render.floating_floors.<key>`` if they have it, else the built-in default."""
    return common.fixed_word(KEY, DEFAULTS, key, locale, **params)


# --------------------------------------------------------------------------------- defensive reading


_int = common.read_int


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        out = float(value)
    except OverflowError:
        return None
    return out if math.isfinite(out) and abs(out) < 10**6 else None


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _cell(value: Any) -> tuple[int, int] | None:
    pair = _list(value)
    if len(pair) != 2:
        return None
    c, r = _int(pair[0]), _int(pair[1])
    return None if c is None or r is None else (c, r)


def _point(value: Any) -> tuple[float, float] | None:
    pair = _list(value)
    if len(pair) != 2:
        return None
    x, y = _float(pair[0]), _float(pair[1])
    return None if x is None or y is None else (x, y)


def space_name(cell: tuple[int, int]) -> str:
    c, r = cell
    return f"{LETTERS[c]}{r + 1}" if 0 <= c < len(LETTERS) else f"{c},{r}"


def seat_colour(seat: int | None) -> str:
    return SEAT_COLOURS[(seat or 0) % len(SEAT_COLOURS)]


def seat_name(names: list[Any] | None, seat: int | None, locale: str) -> str:
    if seat is None:
        return "?"
    fallback = t("render.seat", locale, n=seat + 1)
    raw = names[seat] if isinstance(names, list | tuple) and 0 <= seat < len(names) else None
    return common.display_name(raw if isinstance(raw, str) else None, fallback)


def kind_parts(kind: Any) -> tuple[str, str] | None:
    """(colour, shape) of a Jutsu kind such as ``bs``; None when it is not one of the six."""
    text = _str(kind)
    if text not in KINDS:
        return None
    return COLOUR_OF[text[0]], SHAPE_OF[text[1]]


def margin_text(margin: float | None) -> str:
    if margin is None:
        return "?"
    if margin == -math.inf:
        return "\u2212\u221e"
    value = round(margin, 2) + 0.0
    return f"{'+' if value >= 0 else chr(0x2212)}{abs(value):.2f}"


# ------------------------------------------------------------------------------------ reading a view


@dataclass
class Board:
    index: int
    card: int
    pattern: str  # 9 characters, local rows top to bottom: L light, S shadow, ? unknown
    support: list[tuple[float, float]]
    centre: tuple[float, float] | None
    margin: float | None
    stable: bool | None
    band: str | None = None  # tension=bands: "safe", "shaky" or "falls" shown instead of the margin


@dataclass
class Piece:
    x: float
    y: float
    card: int | None  # the card whose offset places it (None: outside the cards)


@dataclass
class Model:
    """The view as drawn: clamped, validated, with everything malformed dropped."""

    players: int
    card_cols: int
    card_rows: int
    current: int | None
    phase: str
    turn: int
    winner: int | None
    cards: dict[int, str] = field(default_factory=dict)  # 9 characters: L land, W water, ? unknown
    boards: dict[int, Board] = field(default_factory=dict)  # by card
    jutsu: list[tuple[str, str, str, Piece]] = field(default_factory=list)  # colour, shape, level, where
    ninjas: list[dict[str, Any]] = field(default_factory=list)
    alcoves: list[dict[str, Any]] = field(default_factory=list)

    @property
    def cols(self) -> int:
        return self.card_cols * 3

    @property
    def rows(self) -> int:
        return self.card_rows * 3

    def card_of(self, cell: tuple[int, int]) -> int | None:
        c, r = cell
        if not (0 <= c < self.cols and 0 <= r < self.rows):
            return None
        return (r // 3) * self.card_cols + c // 3


def _grid_size(view: dict[str, Any]) -> tuple[int, int]:
    size = _list(view.get("size"))
    players = _int(view.get("players"), 2) or 2
    cc = _int(view.get("card_cols")) or (_int(size[0]) // 3 if len(size) == 2 and _int(size[0]) else None) or 3
    cr = _int(view.get("card_rows")) or (_int(size[1]) // 3 if len(size) == 2 and _int(size[1]) else None)
    cr = cr or (2 if players == 2 else 3)
    return max(1, min(4, cc)), max(1, min(4, cr))


def _read_cards(view: dict[str, Any], m: Model) -> None:
    for raw in _list(view.get("cards")):
        card = _dict(raw)
        i = _int(card.get("index"))
        if i is None or not 0 <= i < m.card_cols * m.card_rows or i in m.cards:
            continue
        mask = ["?"] * 9
        for key, char in (("land", "L"), ("water", "W")):
            for cell in map(_cell, _list(card.get(key))):
                if cell is not None and m.card_of(cell) == i:
                    mask[(cell[1] % 3) * 3 + cell[0] % 3] = char
        m.cards[i] = "".join(mask)


def _read_boards(view: dict[str, Any], m: Model) -> None:
    for raw in _list(view.get("boards")):
        b = _dict(raw)
        card, index = _int(b.get("card")), _int(b.get("index"), 0) or 0
        if card is None or not 0 <= card < m.card_cols * m.card_rows or card in m.boards:
            continue
        pattern = ["?"] * 9
        for key, char in (("light", "L"), ("shadow", "S")):
            for cell in map(_cell, _list(b.get(key))):
                if cell is not None and m.card_of(cell) == card:
                    pattern[(cell[1] % 3) * 3 + cell[0] % 3] = char
        support = [p for p in map(_point, _list(b.get("support"))[:64]) if p is not None and _near(m, p)]
        centre = _point(b.get("centre"))
        raw_margin = b.get("margin")
        margin = -math.inf if isinstance(raw_margin, float) and raw_margin == -math.inf else _float(raw_margin)
        stable = b.get("stable") if isinstance(b.get("stable"), bool) else None
        band = b.get("band") if b.get("band") in BANDS else None
        m.boards[card] = Board(index, card, "".join(pattern), support,
                               centre if centre is not None and _near(m, centre) else None, margin, stable, band)


def _near(m: Model, p: tuple[float, float]) -> bool:
    return -1.5 <= p[0] <= m.cols + 1.5 and -1.5 <= p[1] <= m.rows + 1.5


def _place(m: Model, item: dict[str, Any]) -> Piece | None:
    """Where a piece is: its x, y (else its space's centre), placed with its space's card offset."""
    cell = _cell(item.get("space"))
    x, y = _float(item.get("x")), _float(item.get("y"))
    if (x is None or y is None) and cell is not None:
        x, y = cell[0] + 0.5, cell[1] + 0.5
    if x is None or y is None or not _near(m, (x, y)):
        return None
    card = m.card_of(cell) if cell is not None else None
    if card is None:
        card = m.card_of((math.floor(x), math.floor(y)))
    return Piece(x, y, card)


def _read_pieces(view: dict[str, Any], m: Model) -> None:
    for raw in _list(view.get("jutsu"))[:200]:
        j = _dict(raw)
        parts = kind_parts(j.get("kind"))
        colour, shape = _str(j.get("colour")), _str(j.get("shape"))
        if colour not in ("black", "white") or shape not in FOOT:
            if parts is None:
                continue
            colour, shape = parts
        where = _place(m, j)
        if where is not None:
            m.jutsu.append((colour, shape, "board" if j.get("level") == "board" else "ground", where))
    n_alcoves = 0
    for raw in _list(view.get("alcoves"))[:48]:
        a = _dict(raw)
        cell, side = _cell(a.get("space")), _str(a.get("side"))
        if cell is None or side not in SIDES or m.card_of(cell) is None:
            continue
        n_alcoves += 1
        bansen = _dict(a.get("bansen"))
        m.alcoves.append({"index": _int(a.get("index"), n_alcoves - 1), "space": cell, "side": side,
                          "chakra": _seat(a.get("chakra"), m), "bansen": _read_bansen(bansen, m) if bansen else None})
    for i, raw in enumerate(_list(view.get("ninjas"))[:8]):
        n = _dict(raw)
        seat = _seat(n.get("seat"), m)
        seat = i if seat is None else seat
        ninja = _str(n.get("ninja"))
        colour = _str(n.get("colour"))
        colour = colour if colour in ("light", "shadow") else NINJA_COLOUR.get(ninja, "light")
        alcove = _int(n.get("alcove"))
        where = None if alcove is not None else _place(m, n)
        claimed = [_str(c) for c in _list(n.get("claimed"))[:12]]
        needed = max(0, min(8, _int(n.get("needed"), 0) or 0))
        m.ninjas.append({"seat": seat, "ninja": ninja, "colour": colour, "alcove": alcove, "where": where,
                         "claimed": claimed, "needed": needed})


def _seat(value: Any, m: Model) -> int | None:
    seat = _int(value)
    return seat if seat is not None and 0 <= seat < 8 else None


def _read_bansen(b: dict[str, Any], m: Model) -> dict[str, Any]:
    direction = _str(b.get("direction"))
    number = _int(b.get("number"))
    return {"seat": _seat(b.get("seat"), m), "direction": direction if direction in ("cw", "ccw") else "",
            "number": number if number is not None and 0 <= number < 100 else None}


def read(view: Any) -> Model:
    """The view as drawn (see `Model`); anything malformed is dropped."""
    view = _dict(view)
    cc, cr = _grid_size(view)
    winner = _int(view.get("winner"))
    m = Model(players=max(1, min(8, _int(view.get("players"), 2) or 2)), card_cols=cc, card_rows=cr,
              current=_int(view.get("current")), phase=_str(view.get("phase")), turn=_int(view.get("turn"), 0) or 0,
              winner=winner if winner is not None and 0 <= winner < 8 else None)
    _read_cards(view, m)
    _read_boards(view, m)
    _read_pieces(view, m)
    return m


# ------------------------------------------------------------------------------------------- palette


@functools.cache
def palette() -> Image.Image:
    pal = common.Palette()
    pal.add(BG, PANEL, PANEL_HI, TEXT, DIM, GOLD, FRAME, FRAME_EDGE, ALCOVE, LAND, LAND_LINE, WATER, WAVE, UNKNOWN)
    pal.add(LIGHT, SHADOW, WOOD, WOOD_DARK, GHOST, J_BLACK, J_BLACK_EDGE, J_WHITE, J_WHITE_EDGE, N_LIGHT, N_SHADOW)
    pal.add(OK, BAD, WHITE, SEAL, INK, DIE)
    grounds = (LIGHT, SHADOW, LAND, WATER)
    pal.ramps((TEXT, DIM, GOLD), (BG, PANEL, PANEL_HI), steps=3)
    pal.ramps((J_BLACK, J_WHITE), (J_BLACK_EDGE, J_WHITE_EDGE), steps=2)
    pal.ramps((J_BLACK_EDGE, J_WHITE_EDGE), (*grounds, PANEL, PANEL_HI, DIE), steps=2)
    pal.ramps((OK, BAD), (LIGHT, SHADOW, WOOD), steps=3)
    pal.ramps((WHITE,), (OK, BAD), steps=2)
    pal.ramps((GHOST,), (LIGHT, SHADOW), steps=1)
    pal.ramps((WAVE, LAND_LINE), (WATER, LAND), steps=1)
    pal.ramps((WOOD_DARK,), (WOOD, LIGHT, SHADOW), steps=1)
    pal.ramps(((0, 0, 0),), (LAND, WATER, FRAME), steps=3)
    pal.ramps((SEAL,), (ALCOVE, PANEL, PANEL_HI), steps=1)
    pal.ramps((INK,), (SEAL,), steps=2)
    pal.ramps((FRAME,), (BG, ALCOVE), steps=1)
    for name in SEAT_COLOURS:
        fill, edge = common.PIECE_COLOURS[name], common.piece_outline(name)
        pal.ramp(fill, edge, 1)
        pal.ramp(common.mark_ink(name), fill, 2)
        pal.ramps((edge,), (ALCOVE, PANEL, PANEL_HI, LIGHT, SHADOW, SEAL), steps=1)
        pal.ramps((N_LIGHT, N_SHADOW), (fill,), steps=2)
    pal.add(*((v, v, v) for v in (round(i * 255 / (GREY_STEPS - 1)) for i in range(GREY_STEPS))))
    return pal.image()


# ------------------------------------------------------------------------------------------- sprites


def _dashed(d: ImageDraw.ImageDraw, pts: list[tuple[float, float]], fill: RGB, width: float, dash: float,
            closed: bool = True) -> None:
    """A dashed polyline (closed when ``closed``): dashes and gaps of ``dash`` pixels."""
    path = [*pts, pts[0]] if closed and len(pts) > 2 else pts
    on, left = True, dash
    for (x0, y0), (x1, y1) in itertools.pairwise(path):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while pos < seg - 1e-9:
            step = min(left, seg - pos)
            if on:
                a, b = pos / seg, (pos + step) / seg
                d.line([(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)],
                       fill=fill, width=max(1, round(width)))
            pos += step
            left -= step
            if left <= 1e-9:
                on, left = not on, dash


def jutsu_points(shape: str, cx: float, cy: float, unit: float) -> list[tuple[float, float]]:
    """The footprint's corners around (cx, cy) (the centroid), ``unit`` pixels per space."""
    size = FOOT.get(shape, 0.5) * unit
    if shape == "triangle":
        h = size * math.sqrt(3) / 2
        return [(cx, cy - 2 * h / 3), (cx + size / 2, cy + h / 3), (cx - size / 2, cy + h / 3)]
    if shape == "hexagon":
        rad, h = size / math.sqrt(3), size / 2
        return [(cx - rad, cy), (cx - rad / 2, cy - h), (cx + rad / 2, cy - h), (cx + rad, cy),
                (cx + rad / 2, cy + h), (cx - rad / 2, cy + h)]
    h = size / 2
    return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]


def _jutsu_colours(colour: str) -> tuple[RGB, RGB]:
    return (J_BLACK, J_BLACK_EDGE) if colour == "black" else (J_WHITE, J_WHITE_EDGE)


def _rgba(size: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


@functools.lru_cache(maxsize=128)
def jutsu_sprite(colour: str, shape: str, unit: int, ghost: bool = False) -> Image.Image:
    """An RGBA tile (``unit``×``unit``, the footprint's centroid at its centre): solid, or a dashed ghost."""
    img, d = _rgba(unit)
    big = unit * SS
    fill, edge = _jutsu_colours(colour)
    pts = jutsu_points(shape, big / 2, big / 2, big)
    if ghost:
        _dashed(d, pts, (*GHOST, 255), max(SS * 1.6, big * 0.03), big * 0.07)
        r = big * 0.07
        d.ellipse((big / 2 - r, big / 2 - r, big / 2 + r, big / 2 + r), fill=(*fill, 255),
                  outline=(*edge, 255), width=max(SS, round(big * 0.018)))
    else:
        d.polygon(pts, fill=(*fill, 255), outline=(*edge, 255), width=max(SS * 2, round(big * 0.035)))
    return img.reduce(SS)


def _paste(img: Image.Image, tile: Image.Image, cx: float, cy: float) -> None:
    """Paste an RGBA tile centred on (cx, cy), blending its edges into what is there."""
    img.paste(tile, (round(cx - tile.width / 2), round(cy - tile.height / 2)), tile)


MEEPLE = [(-0.22, -0.3), (0.22, -0.3), (0.78, -0.08), (0.8, 0.12), (0.36, 0.1), (0.56, 0.86), (0.14, 0.86),
          (0.0, 0.5), (-0.14, 0.86), (-0.56, 0.86), (-0.36, 0.1), (-0.8, 0.12), (-0.78, -0.08)]


@functools.lru_cache(maxsize=64)
def ninja_sprite(colour: str, seat: int, size: int, current: bool) -> Image.Image:
    """An RGBA ninja token: a meeple in light or shadow on its seat's disc, the seat number as a badge."""
    img, d = _rgba(size)
    big = size * SS
    c = big / 2
    seat_fill = common.PIECE_COLOURS[seat_colour(seat)]
    edge = common.piece_outline(seat_colour(seat))
    r = big * (0.4 if current else 0.44)
    if current:
        d.ellipse((c - big * 0.49, c - big * 0.49, c + big * 0.49, c + big * 0.49), fill=(*GOLD, 255))
        d.ellipse((c - r - SS * 2, c - r - SS * 2, c + r + SS * 2, c + r + SS * 2), fill=(*N_SHADOW, 255))
    d.ellipse((c - r, c - r, c + r, c + r), fill=(*edge, 255))
    rim = max(SS * 1.5, r * 0.08)
    d.ellipse((c - r + rim, c - r + rim, c + r - rim, c + r - rim), fill=(*seat_fill, 255))
    body, line = (N_LIGHT, N_SHADOW) if colour == "light" else (N_SHADOW, N_LIGHT)
    mask = Image.new("L", img.size, 0)
    md = ImageDraw.Draw(mask)
    u = r * 0.62
    cy = c + r * 0.06
    md.polygon([(c + x * u, cy + y * u) for x, y in MEEPLE], fill=255)
    hr = u * 0.34
    md.ellipse((c - hr, cy - u * 0.62 - hr, c + hr, cy - u * 0.62 + hr), fill=255)
    outline = mask.filter(ImageFilter.MaxFilter(2 * max(1, round(SS * 0.9)) + 1))
    img.paste(line, (0, 0), outline)
    img.paste(body, (0, 0), mask)
    d.rectangle((c - hr * 0.8, cy - u * 0.66, c + hr * 0.8, cy - u * 0.54), fill=(*seat_fill, 255))  # the mask slit
    tile = img.reduce(SS)
    badge = common.number_sprite(seat_colour(seat), seat + 1, max(10, round(size * 0.36)), edge)
    tile.paste(badge, (size - badge.width, size - badge.height), badge)
    return tile


def _arrow(d: ImageDraw.ImageDraw, c: float, r: float, direction: str, fill: RGB, width: float) -> None:
    """A curved arrow around (c, c): clockwise ↻ or counter-clockwise ↺ as seen on the image."""
    sign = 1 if direction == "cw" else -1
    a0, a1 = math.radians(-70), math.radians(200)
    steps = 28
    pts = []
    for i in range(steps + 1):
        a = a0 + (a1 - a0) * i / steps
        pts.append((c + sign * r * math.cos(a), c + r * math.sin(a)))
    d.line(pts, fill=fill, width=max(1, round(width)), joint="curve")
    ex, ey = pts[-1]
    tx, ty = -sign * math.sin(a1), math.cos(a1)  # the direction of travel at the end
    nx, ny = -ty, tx
    head = width * 2.1
    d.polygon([(ex + tx * head * 1.2, ey + ty * head * 1.2), (ex + nx * head, ey + ny * head),
               (ex - nx * head, ey - ny * head)], fill=fill)


@functools.lru_cache(maxsize=128)
def bansen_sprite(seat: int | None, direction: str, number: int | None, size: int, bg: RGB,
                  hollow: bool = False) -> Image.Image:
    """A Bansen seal (RGB on ``bg``): parchment ringed in its owner's colour with the owner's mark, the arrow of
    its direction and its number; ``hollow`` draws a dashed empty ring (a seal still to claim)."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    c = big / 2
    r = big * 0.44
    if hollow:
        pts = [(c + r * math.cos(a / 24 * 2 * math.pi), c + r * math.sin(a / 24 * 2 * math.pi)) for a in range(24)]
        _dashed(d, pts, DIM, SS * 1.5, big * 0.09)
        return img.reduce(SS)
    ring = common.PIECE_COLOURS[seat_colour(seat)] if seat is not None else UNKNOWN
    d.ellipse((c - r, c - r, c + r, c + r), fill=ring)
    inner = r * 0.78
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=SEAL)
    if direction:
        _arrow(d, c, inner * 0.66, direction, INK, inner * 0.12)
    if number is not None:
        face = common.font(max(6, round(big * 0.3)), "Black")
        d.text((c, c + big * 0.01), str(number), font=face, fill=INK, anchor="mm")
    tile = img.reduce(SS)
    if seat is not None:
        mark = common.disc_sprite(seat_colour(seat), max(8, round(size * 0.42)), bg, diameter=0.92)
        tile.paste(mark, (0, 0))
    return tile


@functools.lru_cache(maxsize=64)
def die_sprite(kind: str, size: int, bg: RGB, dim: bool) -> Image.Image:
    """A die showing a Jutsu kind: an ivory rounded square with the shape in black or white; dimmed once taken."""
    big = size * SS
    img = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(img)
    inset = SS
    d.rounded_rectangle((inset, inset, big - inset, big - inset), radius=big * 0.2, fill=DIE, outline=J_WHITE_EDGE,
                        width=max(SS, big // 26))
    parts = kind_parts(kind)
    if parts:
        colour, shape = parts
        fill, edge = _jutsu_colours(colour)
        cy = big * (0.54 if shape == "triangle" else 0.5)
        d.polygon(jutsu_points(shape, big / 2, cy, big * 1.15), fill=fill, outline=edge, width=round(big * 0.04))
    tile = img.reduce(SS)
    return Image.blend(tile, Image.new("RGB", tile.size, bg), 0.62) if dim else tile


@functools.lru_cache(maxsize=16)
def swatch_sprite(light: frozenset[tuple[int, int]], size: int, bg: RGB) -> Image.Image:
    """The top board of the deck as a tiny 3×3 pattern (light cells cream, others charcoal) with a wood rim."""
    img = Image.new("RGB", (size, size), bg)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, size - 1, size - 1), fill=WOOD)
    cell = (size - 4) / 3
    for r in range(3):
        for c in range(3):
            x, y = 2 + c * cell, 2 + r * cell
            d.rectangle((round(x), round(y), round(x + cell) - 1, round(y + cell) - 1),
                        fill=LIGHT if (c, r) in light else SHADOW)
    return img


@functools.lru_cache(maxsize=64)
def card_tile(mask: str, unit: int) -> Image.Image:
    """A terrain card (RGB, 3×3 spaces on the frame's colour): land flat green, water blue with a wave."""
    size = unit * 3
    big = size * SS
    img = Image.new("RGB", (big, big), FRAME)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.025, fill=LAND_LINE)
    u = unit * SS
    gap = SS
    for i, ch in enumerate(mask):
        c, r = i % 3, i // 3
        box = (c * u + gap, r * u + gap, (c + 1) * u - gap, (r + 1) * u - gap)
        fill = {"L": LAND, "W": WATER}.get(ch, UNKNOWN)
        d.rectangle(box, fill=fill)
        if ch == "W":
            for k, fy in enumerate((0.36, 0.64)):
                pts = []
                for s in range(25):
                    fx = 0.2 + 0.6 * s / 24
                    pts.append((box[0] + fx * u, box[1] + fy * u + math.sin(fx * 4 * math.pi + k) * u * 0.04))
                d.line(pts, fill=WAVE, width=max(SS, round(u * 0.035)), joint="curve")
    return img.reduce(SS)


@functools.lru_cache(maxsize=64)
def board_sprite(pattern: str, unit: int, unstable: bool) -> tuple[Image.Image, int]:
    """A floorboard (RGBA) with its drop shadow: (tile, pad) where the board's top-left is at (pad, pad)."""
    size = unit * 3
    pad = max(4, round(unit * 0.14))
    big, p = (size + 2 * pad) * SS, pad * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = size * SS
    off = round(unit * 0.09) * SS
    d.rounded_rectangle((p + off, p + off, p + s + off, p + s + off), radius=s * 0.03, fill=(0, 0, 0, 110))
    d.rounded_rectangle((p, p, p + s, p + s), radius=s * 0.03, fill=(*WOOD, 255))
    rim = max(3, round(unit * 0.07)) * SS
    u = (s - 2 * rim) / 3
    line = max(SS, round(SS * 1.2))
    d.rectangle((p + rim, p + rim, p + s - rim, p + s - rim), fill=(*WOOD_DARK, 255))
    for i, ch in enumerate(pattern):
        c, r = i % 3, i // 3
        x0, y0 = p + rim + c * u, p + rim + r * u
        fill = {"L": LIGHT, "S": SHADOW}.get(ch, WOOD)
        d.rectangle((x0 + line, y0 + line, x0 + u - line, y0 + u - line), fill=(*fill, 255))
    if unstable:
        h = rim / 2
        _dashed(d, [(p + h, p + h), (p + s - h, p + h), (p + s - h, p + s - h), (p + h, p + s - h)],
                (*BAD, 255), rim * 0.9, unit * SS * 0.22)
    return img.reduce(SS), pad


@functools.lru_cache(maxsize=8)
def warning_sprite(size: int) -> Image.Image:
    """The "!" tag of an unstable board: a red triangle with a white "!" (RGBA)."""
    img, d = _rgba(size)
    big = size * SS
    pts = [(big / 2, big * 0.06), (big * 0.96, big * 0.9), (big * 0.04, big * 0.9)]
    d.polygon(pts, fill=(*BAD, 255), outline=(*WHITE, 255), width=max(SS, round(big * 0.06)))
    face = common.font(round(big * 0.55), "Black")
    d.text((big / 2, big * 0.62), "!", font=face, fill=(*WHITE, 255), anchor="mm")
    return img.reduce(SS)


@functools.lru_cache(maxsize=8)
def centre_sprite(size: int, stable: bool) -> Image.Image:
    """The centre of mass (RGBA): a ringed cross when stable, an × when not, both with a white halo."""
    img, d = _rgba(size)
    big = size * SS
    c = big / 2
    colour = OK if stable else BAD
    w = big * 0.1
    if stable:
        r = big * 0.28
        for ink, extra in ((WHITE, w * 0.9), (colour, 0.0)):
            d.ellipse((c - r - extra / 2, c - r - extra / 2, c + r + extra / 2, c + r + extra / 2),
                      outline=(*ink, 255), width=round(w + extra))
            d.line((c, big * 0.04, c, big * 0.96), fill=(*ink, 255), width=round(w * 0.7 + extra))
            d.line((big * 0.04, c, big * 0.96, c), fill=(*ink, 255), width=round(w * 0.7 + extra))
        d.ellipse((c - w, c - w, c + w, c + w), fill=(*colour, 255))
    else:
        a, b = big * 0.14, big * 0.86
        for ink, width in ((WHITE, w * 2.4), (colour, w * 1.3)):
            d.line((a, a, b, b), fill=(*ink, 255), width=round(width))
            d.line((a, b, b, a), fill=(*ink, 255), width=round(width))
    return img.reduce(SS)


# -------------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    unit: int  # pixels per space
    gap: int  # between cards
    frame: int  # the frame's width around the cards (alcoves live in it)
    x0: int  # the cards' area's left
    y0: int  # the cards' area's top
    card_cols: int
    card_rows: int
    panel_x: int
    seats: tuple[tuple[int, int, int, int], ...]

    def px(self, x: float, y: float, card: int | None = None) -> tuple[float, float]:
        """A map point in pixels, placed with the gap offsets of ``card`` (else of the card it lies in)."""
        if card is not None and 0 <= card < self.card_cols * self.card_rows:
            cc, cr = card % self.card_cols, card // self.card_cols
        else:
            cc = max(0, min(self.card_cols - 1, math.floor(x / 3)))
            cr = max(0, min(self.card_rows - 1, math.floor(y / 3)))
        return self.x0 + x * self.unit + cc * self.gap, self.y0 + y * self.unit + cr * self.gap

    def card_box(self, card: int) -> tuple[int, int, int, int]:
        cc, cr = card % self.card_cols, card // self.card_cols
        left = self.x0 + cc * (3 * self.unit + self.gap)
        top = self.y0 + cr * (3 * self.unit + self.gap)
        return left, top, left + 3 * self.unit, top + 3 * self.unit

    def space_box(self, cell: tuple[int, int]) -> tuple[int, int, int, int]:
        c, r = cell
        left = self.x0 + c * self.unit + (c // 3) * self.gap
        top = self.y0 + r * self.unit + (r // 3) * self.gap
        return left, top, left + self.unit, top + self.unit

    @property
    def map_box(self) -> tuple[int, int, int, int]:
        return (self.x0, self.y0, self.x0 + self.card_cols * (3 * self.unit + self.gap) - self.gap,
                self.y0 + self.card_rows * (3 * self.unit + self.gap) - self.gap)

    @property
    def frame_box(self) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = self.map_box
        return x0 - self.frame, y0 - self.frame, x1 + self.frame, y1 + self.frame

    def alcove_centre(self, cell: tuple[int, int], side: str) -> tuple[float, float]:
        left, top, right, bottom = self.space_box(cell)
        mx0, my0, mx1, my1 = self.map_box
        half = self.frame / 2
        if side == "n":
            return (left + right) / 2, my0 - half
        if side == "s":
            return (left + right) / 2, my1 + half
        if side == "e":
            return mx1 + half, (top + bottom) / 2
        return mx0 - half, (top + bottom) / 2

    def alcove_box(self, cell: tuple[int, int], side: str) -> tuple[int, int, int, int]:
        cx, cy = self.alcove_centre(cell, side)
        h = self.notch / 2
        return round(cx - h), round(cy - h), round(cx + h), round(cy + h)

    @property
    def notch(self) -> int:
        return round(self.frame * 0.84)


def _seat_count(view: dict[str, Any], m: Model) -> int:
    return max(len(m.ninjas), min(4, len(_list(view.get("hands")))))


def _layout(view: dict[str, Any], m: Model, unit: int | None = None) -> Layout:
    cols, rows = m.cols, m.rows
    unit = unit or max(SCALE_MIN, min(SCALE_MAX, MAP_BUDGET // max(cols, rows)))
    gap = max(4, unit // 8)
    frame = max(20, round(unit * 0.8))
    x0 = PAD + BAND_W + frame
    y0 = HEADER_H + BAND_W + frame
    map_w = m.card_cols * (3 * unit + gap) - gap
    map_h = m.card_rows * (3 * unit + gap) - gap
    panel_x = x0 + map_w + frame + PAD + 4
    seats = []
    for i in range(_seat_count(view, m)):
        top = HEADER_H + BAND_W + i * (SEAT_H + SEAT_GAP)
        seats.append((panel_x, top, panel_x + PANEL_W, top + SEAT_H))
    panel_bottom = (seats[-1][3] if seats else HEADER_H + BAND_W) + 150
    height = max(y0 + map_h + frame + PAD, panel_bottom + PAD)
    width = panel_x + PANEL_W + PAD
    return Layout(width, height, unit, gap, frame, x0, y0, m.card_cols, m.card_rows, panel_x, tuple(seats))


def layout(view: dict[str, Any]) -> dict[str, Any]:
    """Where things are drawn, as pixel boxes (see the module's docstring)."""
    view = _dict(view)
    m = read(view)
    lay = _layout(view, m)
    return {
        "width": lay.width,
        "height": lay.height,
        "scale": lay.unit,
        "gap": lay.gap,
        "header": (0, 0, lay.width, HEADER_H),
        "map": lay.map_box,
        "frame": lay.frame_box,
        "panel": (lay.panel_x, HEADER_H, lay.panel_x + PANEL_W, lay.height - PAD),
        "cards": {i: lay.card_box(i) for i in range(m.card_cols * m.card_rows)},
        "spaces": {space_name((c, r)): lay.space_box((c, r)) for r in range(m.rows) for c in range(m.cols)},
        "alcoves": {a["index"]: lay.alcove_box(a["space"], a["side"]) for a in m.alcoves},
        "seats": dict(enumerate(lay.seats)),
    }


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


def _header(img: Image.Image, view: dict[str, Any], m: Model, lay: Layout, locale: str,
            names: list[Any] | None) -> None:
    cv = common.Canvas(img, BG)
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


def _header_right(cv: common.Canvas, view: dict[str, Any], lay: Layout, locale: str) -> float:
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
    x -= max(60, common.text_width(word, 15, "Regular") - (40 if count else 0)) + 26
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


# ----------------------------------------------------------------------------------------------- map


def _draw_frame(img: Image.Image, m: Model, lay: Layout) -> None:
    d = ImageDraw.Draw(img)
    fx0, fy0, fx1, fy1 = lay.frame_box
    d.rounded_rectangle((fx0, fy0, fx1, fy1), radius=lay.frame // 3, fill=FRAME_EDGE)
    d.rounded_rectangle((fx0 + 3, fy0 + 3, fx1 - 3, fy1 - 3), radius=lay.frame // 3 - 2, fill=FRAME)
    cv = common.Canvas(img, BG)
    size = max(10, min(15, lay.unit // 4))
    for c in range(m.cols):
        left, _, right, _ = lay.space_box((c, 0))
        cv.text((left + right) / 2, fy0 - BAND_W / 2, LETTERS[c], size=size, fill=DIM, align="center")
    for r in range(m.rows):
        _, top, _, bottom = lay.space_box((0, r))
        cv.text(fx0 - BAND_W / 2, (top + bottom) / 2, str(r + 1), size=size, fill=DIM, align="center")


def _draw_alcoves(img: Image.Image, m: Model, lay: Layout) -> None:
    d = ImageDraw.Draw(img)
    for a in m.alcoves:
        x0, y0, x1, y1 = lay.alcove_box(a["space"], a["side"])
        d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=lay.notch // 4, fill=FRAME_EDGE)
        d.rounded_rectangle((x0, y0, x1, y1), radius=lay.notch // 4, fill=ALCOVE)


def _draw_alcove_contents(img: Image.Image, m: Model, lay: Layout) -> None:
    for a in m.alcoves:
        cx, cy = lay.alcove_centre(a["space"], a["side"])
        n = lay.notch
        chakra, bansen = a["chakra"], a["bansen"]
        if chakra is not None:
            tile = common.disc_sprite(seat_colour(chakra), n - 4, ALCOVE, diameter=0.92)
            img.paste(tile, (round(cx - tile.width / 2), round(cy - tile.height / 2)))
        if bansen is not None:
            size = n - 4 if chakra is None else n // 2
            tile = bansen_sprite(bansen["seat"], bansen["direction"], bansen["number"], size, ALCOVE)
            dx = 0 if chakra is None else n / 2 - size / 2
            img.paste(tile, (round(cx + dx - tile.width / 2), round(cy - dx - tile.height / 2)))


def _draw_cards(img: Image.Image, m: Model, lay: Layout) -> None:
    for i in range(m.card_cols * m.card_rows):
        left, top, _, _ = lay.card_box(i)
        img.paste(card_tile(m.cards.get(i, "?" * 9), lay.unit), (left, top))


def _under_board(m: Model, piece: Piece) -> bool:
    return piece.card is not None and piece.card in m.boards


def _draw_jutsu(img: Image.Image, m: Model, lay: Layout, level: str) -> None:
    """``ground``: free Jutsu on cards without a board; ``ghost``: supports under boards; ``board``: on top."""
    for colour, shape, where_level, p in m.jutsu:
        under = where_level == "ground" and _under_board(m, p)
        kind = "board" if where_level == "board" else "ghost" if under else "ground"
        if kind != level:
            continue
        cx, cy = lay.px(p.x, p.y, p.card)
        _paste(img, jutsu_sprite(colour, shape, lay.unit, kind == "ghost"), cx, cy)


def _draw_boards(img: Image.Image, m: Model, lay: Layout) -> None:
    for card, b in sorted(m.boards.items()):
        tile, pad = board_sprite(b.pattern, lay.unit, b.stable is False)
        left, top, _, _ = lay.card_box(card)
        img.paste(tile, (left - pad, top - pad), tile)


def _draw_warnings(img: Image.Image, m: Model, lay: Layout) -> None:
    size = max(16, round(lay.unit * 0.5))
    for card, b in sorted(m.boards.items()):
        if b.stable is False:
            _, top, right, _ = lay.card_box(card)
            _paste(img, warning_sprite(size), right - size * 0.2, top + size * 0.2)


def _draw_reset(img: Image.Image, view: dict[str, Any], m: Model, lay: Layout, locale: str) -> None:
    reset = _dict(view.get("reset"))
    card, by = _int(reset.get("card")), _int(reset.get("by"))
    if card is None or not 0 <= card < m.card_cols * m.card_rows:
        return
    colour = common.PIECE_COLOURS[seat_colour(by)] if by is not None and 0 <= by < 8 else GOLD
    x0, y0, x1, y1 = lay.card_box(card)
    g = lay.gap / 2
    _dashed(ImageDraw.Draw(img), [(x0 - g, y0 - g), (x1 + g, y0 - g), (x1 + g, y1 + g), (x0 - g, y1 + g)], colour,
            max(3, lay.gap * 0.6), lay.unit * 0.25)
    word = label("reset_tag", locale)
    size = max(11, lay.unit // 5)
    w = common.text_width(word, size, "Black") + 14
    tag = (round((x0 + x1) / 2 - w / 2), round(y0 + lay.unit * 0.08), round((x0 + x1) / 2 + w / 2),
           round(y0 + lay.unit * 0.08 + size + 10))
    ImageDraw.Draw(img).rounded_rectangle(tag, radius=6, fill=colour)
    ink = common.mark_ink(seat_colour(by)) if by is not None and 0 <= by < 8 else INK
    common.paste_text(img, ((x0 + x1) / 2, (tag[1] + tag[3]) / 2), word, size=size, fill=ink, bg=colour,
                      weight="Black", align="center")


def _off_centre(p: Any) -> bool:
    return abs(p.x % 1 - 0.5) > 1e-6 or abs(p.y % 1 - 0.5) > 1e-6


def _draw_ninjas(img: Image.Image, m: Model, lay: Layout) -> None:
    alcoves = {a["index"]: a for a in m.alcoves}
    size = max(16, round(lay.unit * 0.82))
    nested = max(16, round(lay.notch * 1.08))  # in an alcove: about the notch's size
    playing = m.winner is None and m.phase != "over"
    for n in sorted(m.ninjas, key=lambda n: n["seat"] == m.current):  # the current one on top
        if n["alcove"] is not None:
            a = alcoves.get(n["alcove"])
            if a is None:
                continue
            cx, cy = lay.alcove_centre(a["space"], a["side"])
        elif n["where"] is not None:
            p = n["where"]
            cx, cy = lay.px(p.x, p.y, p.card)
        else:
            continue
        current = playing and n["seat"] == m.current
        px = nested if n["alcove"] is not None else size
        if n["alcove"] is None and _off_centre(n["where"]):  # nudged aside: smaller, so two share a space visibly
            px = max(16, round(size * 0.6))
        tile = ninja_sprite(n["colour"], n["seat"], px, current)
        _paste(img, tile, cx, cy)


# ------------------------------------------------------------------------------------------- physics


def _overlay_polygon(img: Image.Image, pts: list[tuple[float, float]], stable: bool, unit: int) -> None:
    """The support polygon: a translucent fill and an outline (dashed when unstable); a dot or a line when
    degenerate."""
    colour = OK if stable else BAD
    pad = unit // 4
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    box = (math.floor(min(xs)) - pad, math.floor(min(ys)) - pad, math.ceil(max(xs)) + pad, math.ceil(max(ys)) + pad)
    w, h = box[2] - box[0], box[3] - box[1]
    local = [((x - box[0]) * SS, (y - box[1]) * SS) for x, y in pts]
    fill = Image.new("L", (w * SS, h * SS), 0)
    line = Image.new("L", (w * SS, h * SS), 0)
    fd, ld = ImageDraw.Draw(fill), ImageDraw.Draw(line)
    width = max(2, unit * 0.045) * SS
    unique = list(dict.fromkeys((round(x, 3), round(y, 3)) for x, y in local))
    if len(unique) == 1:
        x, y = unique[0]
        r = unit * 0.09 * SS
        ld.ellipse((x - r, y - r, x + r, y + r), fill=255)
    elif len(unique) == 2:
        if stable:
            ld.line(unique, fill=255, width=round(width * 1.4))
        else:
            _dashed(ld, unique, 255, width * 1.4, unit * 0.12 * SS, closed=False)
    else:
        fd.polygon(unique, fill=92)
        if stable:
            ld.line([*unique, unique[0]], fill=255, width=round(width), joint="curve")
        else:
            _dashed(ld, unique, 255, width, unit * 0.12 * SS)
    region = img.crop(box)
    solid = Image.new("RGB", region.size, colour)
    region.paste(solid, (0, 0), fill.reduce(SS))
    region.paste(solid, (0, 0), line.reduce(SS))
    img.paste(region, box[:2])


def _draw_physics(img: Image.Image, m: Model, lay: Layout, stage: str, locale: str = "en") -> None:
    """``stage`` ``polygon`` (under the pieces) or ``marks`` (the centres and margins, over everything)."""
    for card, b in sorted(m.boards.items()):
        stable = b.stable is not False if b.stable is not None else (b.margin or 0) >= 0.05
        if stage == "polygon":
            if b.support:
                _overlay_polygon(img, [lay.px(x, y, card) for x, y in b.support], stable, lay.unit)
            continue
        if b.centre is not None:
            cx, cy = lay.px(*b.centre, card)
            _paste(img, centre_sprite(max(14, round(lay.unit * 0.4)), stable), cx, cy)
        _margin_pill(img, lay, card, b, stable, locale)


def _margin_pill(img: Image.Image, lay: Layout, card: int, b: Board, stable: bool, locale: str) -> None:
    if b.margin is None and not b.support and b.band is None:
        return
    shown = label(f"band.{b.band}", locale) if b.band else margin_text(b.margin)
    text = shown if stable else f"! {shown}"
    size = max(11, min(16, lay.unit // 4))
    colour = OK if stable else BAD
    x0, _, _, y1 = lay.card_box(card)
    w = common.text_width(text, size, "Black") + 16
    cx, cy = x0 + w / 2 + lay.unit * 0.12, y1 + size * 0.3  # bottom-left: alcoves sit at the middles
    box = (round(cx - w / 2), round(cy - size / 2 - 5), round(cx + w / 2), round(cy + size / 2 + 5))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), radius=(box[3] - box[1]) // 2 + 2,
                        fill=WHITE)
    d.rounded_rectangle(box, radius=(box[3] - box[1]) // 2, fill=colour)
    common.paste_text(img, (cx, cy), text, size=size, fill=WHITE, bg=colour, weight="Black", align="center")


# --------------------------------------------------------------------------------------------- panel


def _seat_card(img: Image.Image, box: tuple[int, int, int, int], seat: int, view: dict[str, Any], m: Model,
               locale: str, names: list[Any] | None) -> None:
    x0, y0, x1, y1 = box
    current = seat == m.current and m.winner is None and m.phase != "over"
    bg = PANEL_HI if current or seat == m.winner else PANEL
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(box, radius=10, fill=bg)
    if current or seat == m.winner:
        d.rounded_rectangle((x0, y0, x0 + 6, y1), radius=3, fill=GOLD)
    cv = common.Canvas(img, bg)
    ninja = _ninja_of(m, seat) or {"colour": "light", "ninja": "", "claimed": [], "needed": 0}
    _paste(img, ninja_sprite(ninja["colour"], seat, 46, False), x0 + 40, y0 + 34)
    x = x0 + 72
    name = seat_name(names, seat, locale)
    colour = seat_colour(seat)
    w = cv.text(x, y0 + 24, name, size=20, fill=TEXT, max_width=x1 - x - 40)
    cv.sprite(common.mark_sprite(common.PIECE_MARKS[colour], 20, common.PIECE_COLOURS[colour], bg), x + w + 6,
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
    try:
        from rules.floating_floors.components import BANSEN_BY_ID
    except Exception:  # the renderer never depends on the rules importing
        return "", None
    b = BANSEN_BY_ID.get(bid)
    return (b.direction, b.number) if b else ("", None)


def _seat_bansen(cv: common.Canvas, x0: int, cy: float, x1: int, ninja: dict[str, Any], bg: RGB,
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


def _seat_hand(cv: common.Canvas, x0: int, cy: float, x1: int, hand: list[Any], bg: RGB, locale: str) -> None:
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


def _panel_extra(img: Image.Image, view: dict[str, Any], m: Model, lay: Layout, locale: str, physics: bool) -> None:
    top = (lay.seats[-1][3] if lay.seats else HEADER_H + BAND_W) + 22
    cv = common.Canvas(img, BG)
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
        w = common.text_width(label("last", locale), 15, "Regular") + 8
        last_bad = _dict(view.get("last")).get("stable") is False or _str(_dict(view.get("last")).get("kind")) == \
            "collapse"
        cv.text(x0 + 4 + w, y, last, size=15, fill=BAD if last_bad else TEXT, max_width=PANEL_W - w - 8)
        y += 28
    if physics and m.boards:
        _legend(img, x0 + 4, y, locale)


def _legend(img: Image.Image, x: float, cy: float, locale: str) -> None:
    """The overlay's key in one row: a polygon swatch, the centre mark, a margin pill, each with its word."""
    cv = common.Canvas(img, BG)
    d = cv.d
    d.polygon([(x, cy + 8), (x + 8, cy - 9), (x + 22, cy - 6), (x + 20, cy + 9)], fill=common.blend(BG, OK, 0.4),
              outline=OK, width=2)
    x += 28
    x += cv.text(x, cy, label("legend.support", locale), size=14, fill=DIM, weight="Regular") + 14
    _paste(img, centre_sprite(20, True), x + 10, cy)
    x += 24
    x += cv.text(x, cy, label("legend.centre", locale), size=14, fill=DIM, weight="Regular") + 14
    d.rounded_rectangle((x, cy - 9, x + 30, cy + 9), radius=9, fill=OK)
    common.paste_text(img, (x + 15, cy), "+", size=14, fill=WHITE, bg=OK, weight="Black", align="center")
    x += 36
    cv.text(x, cy, label("legend.margin", locale), size=14, fill=DIM, weight="Regular",
            max_width=img.width - PAD - x)


def _last_text(view: dict[str, Any], m: Model, locale: str) -> str:
    last = _dict(view.get("last"))
    kind = common.clean_text(_str(last.get("kind")), limit=30)
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


# ------------------------------------------------------------------------------------------ entry points


def draw_board(view: dict[str, Any], *, locale: str = "en", names: list[Any] | None = None,
               physics: bool = True) -> Image.Image:
    """The top view as a palette ('P') image (see the module's docstring)."""
    return common.to_palette(_draw_rgb(view, locale, names, physics), palette())


def _draw_rgb(view: Any, locale: str, names: list[Any] | None, physics: bool,
              unit: int | None = None) -> Image.Image:
    view = _dict(view)
    names = names if isinstance(names, list | tuple) else None
    m = read(view)
    lay = _layout(view, m, unit)
    img = Image.new("RGB", (lay.width, lay.height), BG)
    _header(img, view, m, lay, locale, names)
    _draw_frame(img, m, lay)
    _draw_alcoves(img, m, lay)
    _draw_cards(img, m, lay)
    _draw_jutsu(img, m, lay, "ground")
    _draw_boards(img, m, lay)
    _draw_jutsu(img, m, lay, "ghost")
    if physics:
        _draw_physics(img, m, lay, "polygon")
    _draw_jutsu(img, m, lay, "board")
    _draw_reset(img, view, m, lay, locale)
    _draw_warnings(img, m, lay)
    _draw_alcove_contents(img, m, lay)
    _draw_ninjas(img, m, lay)
    if physics:
        _draw_physics(img, m, lay, "marks", locale)
    for seat, box in enumerate(lay.seats):
        _seat_card(img, box, seat, view, m, locale, names)
    _panel_extra(img, view, m, lay, locale, physics)
    return img


def board_image(view: dict[str, Any], *, locale: str = "en", names: list[Any] | None = None,
                physics: bool = True) -> bytes:
    """PNG bytes of the top view."""
    return common.encode_png(draw_board(view, locale=locale, names=names, physics=physics))


PREVIEW_CAPTION = 44
PREVIEW_UNIT = 96  # pixels per space in a preview: a 3×3 card reads well at Discord's preview width


def draw_preview(view: dict[str, Any], board_index: int, *, locale: str = "en") -> Image.Image:
    """One card with its board and overlay, cropped from the full view, and a caption (palette image)."""
    view = _dict(view)
    m = read(view)
    lay = _layout(view, m, PREVIEW_UNIT)
    wanted = _int(board_index, -1)
    board = next((b for b in m.boards.values() if b.index == wanted), None)
    card = board.card if board else 0
    full = _draw_rgb(view, locale, None, True, PREVIEW_UNIT)
    x0, y0, x1, y1 = lay.card_box(card)
    margin = lay.frame
    crop = full.crop((x0 - margin, y0 - margin, x1 + margin, y1 + margin))
    out = Image.new("RGB", (crop.width, crop.height + PREVIEW_CAPTION), BG)
    out.paste(crop, (0, 0))
    cv = common.Canvas(out, BG)
    cy = crop.height + PREVIEW_CAPTION / 2
    text = label("card", locale, card=card_name(m, card))
    if board is not None:
        stable = board.stable is not False
        verdict = label("stable" if stable else "unstable", locale)
        mark = common.mark_sprite("check" if stable else "cross", 24, OK if stable else BAD, BG)
        x = 12 + cv.sprite(mark, 12, cy) + 6
        w = cv.text(x, cy, verdict, size=19, fill=OK if stable else BAD, weight="Black", max_width=out.width / 2)
        shown = label(f"band.{board.band}", locale) if board.band else label("margin", locale,
                                                                            value=margin_text(board.margin))
        cv.text(x + w + 10, cy, shown, size=18, fill=TEXT,
                max_width=out.width - x - w - 20)
    else:
        cv.text(12, cy, text, size=16, fill=DIM)
    return common.to_palette(out, palette())


def preview_image(view: dict[str, Any], board_index: int, *, locale: str = "en") -> bytes:
    """PNG bytes of `draw_preview`."""
    return common.encode_png(draw_preview(view, board_index, locale=locale))


__all__ = [
    "DEFAULTS",
    "board_image",
    "card_name",
    "draw_board",
    "draw_preview",
    "label",
    "layout",
    "preview_image",
    "read",
]


def render(view: dict[str, Any], *, names: list[Any] | None = None, locale: str = "en") -> bytes:
    """The map to post after a move (the engine's generic renderer hook): the overlay as the table's
    ``overlay`` option says (on unless switched off)."""
    overlay = _dict(view).get("options", {})
    physics = not (isinstance(overlay, dict) and overlay.get("overlay") == "off")
    return board_image(view, locale=locale, names=names, physics=physics)
