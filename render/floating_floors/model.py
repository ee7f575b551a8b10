"""Floating Floors' image model: constants, fixed words, and the defensive reading of a view into a `Model`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from i18n import t
from render import kit

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
SEAT_COLOURS = ("orange", "sky", "purple", "yellow")

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
        "legend.band": "{safe} · {shaky} · {falls}",
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
        "legend.band": "{safe} · {shaky} · {falls}",
    },
}

def label(key: str, locale: str, **params: Any) -> str:
    """A fixed word: the catalogs' ``render.floating_floors.<key>`` if they have it, else the built-in default."""
    return kit.fixed_word(KEY, DEFAULTS, key, locale, **params)


# --------------------------------------------------------------------------------- defensive reading


_int = kit.read_int


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
    return kit.display_name(raw if isinstance(raw, str) else None, fallback)


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
