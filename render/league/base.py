"""What the league images share: fixed words with their defaults, colours, limits, readers, the palette."""

from __future__ import annotations

import functools
import math
import unicodedata
from typing import Any

from babel.numbers import format_decimal
from PIL import Image, ImageFont

import i18n
from render import kit
from render.kit import RGB, hex_rgb

KEY = "render.league."
DASH = "\u2014"

# Fixed words, used when the catalogs have no ``render.league.<key>`` (catalog text wins when present).
DEFAULTS: dict[str, dict[str, str]] = {
    "en": {
        "tournament": "Tournament",
        "no_results": "No results yet",
        "no_matches": "No matches yet",
        "col.rank": "#",
        "col.player": "Player",
        "col.points": "Pts",
        "col.record": "Record",
        "dropped": "dropped",
        "provisional": "* provisional",
        "bye": "bye",
        "half_bye": "½ bye",
        "half_bye_legend": "½ a requested half-point bye",
        "more_rows": "+ {count} more",
        "col.round": "R{n}",
    },
    "pl": {
        "tournament": "Turniej",
        "no_results": "Brak wyników",
        "no_matches": "Brak meczów",
        "col.rank": "#",
        "col.player": "Gracz",
        "col.points": "Pkt",
        "col.record": "Bilans",
        "dropped": "wycofany",
        "provisional": "* wstępne",
        "bye": "wolny los",
        "half_bye": "½ pauza",
        "half_bye_legend": "½ pauza na życzenie (pół punktu)",
        "more_rows": "+ {count} więcej",
        "col.round": "R{n}",
    },
}

# -------------------------------------------------------------------------------------------- theme

BG = hex_rgb("161a26")  # page
STRIPE = hex_rgb("1e2433")  # every other row
PANEL = hex_rgb("262e44")  # column header, section title band
HILITE = hex_rgb("21476b")  # the highlighted row: Okabe-Ito blue pulled towards the page
ACCENT = kit.OKABE_ITO["sky_blue"]  # its bar
TEXT = hex_rgb("eef1f8")
WHITE = (255, 255, 255)
DIM = hex_rgb("9aa4bd")
GREY = hex_rgb("6f778a")  # dropped entrants, losers
GOLD = hex_rgb("f3c351")
LINE = hex_rgb("465069")  # connectors of undecided matches
ADV = hex_rgb("8b9ab9")  # connectors a winner has travelled
BORDER = hex_rgb("3d4763")  # match box outline
OPEN = hex_rgb("2a3147")  # an undecided slot
OPEN_SEED = hex_rgb("222838")
WIN = hex_rgb("0a679e")  # the winner's slot (Okabe-Ito blue, a touch darker for white text)
WIN_SEED = hex_rgb("08527e")
LOSE = hex_rgb("1b2030")  # the loser's slot
LOSE_SEED = hex_rgb("181c2a")
BYE = LOSE  # the empty side of a bye
SLOT_FILL: dict[str, tuple[RGB, RGB]] = {
    "open": (OPEN, OPEN_SEED),
    "tbd": (OPEN, OPEN_SEED),
    "win": (WIN, WIN_SEED),
    "lose": (LOSE, LOSE_SEED),
    "bye": (BYE, LOSE_SEED),
}

PAD = 28
MAX_ROWS = 100  # more standings rows than this end in a "+ N more" line
MAX_COLUMNS = 8  # tie-break columns
MAX_ROUNDS = 16
MAX_MATCHES = 64  # per round: a 128-player first round
MAX_SECTIONS = 4

# ------------------------------------------------------------------------------------------- words


def label(key: str, locale: str, **params: Any) -> str:
    """A fixed word: the catalogs' ``render.league.<key>`` if they have it, else the built-in default."""
    return kit.fixed_word(KEY, DEFAULTS, key, locale, **params)


@functools.lru_cache(maxsize=4096)
def _number(value: float, locale: str) -> str:
    value = round(value, 2) + 0.0  # + 0.0 turns -0.0 into 0.0
    return format_decimal(value, format="#0.##", locale=locale)


def number(value: Any, locale: str = "en") -> str:
    """A score as people write it: ``2.5``, ``3`` (never ``3.0``), at most two decimals; "—" if not a number."""
    if isinstance(value, bool):
        value = int(value)
    try:
        v = float(value)
    except (TypeError, ValueError):
        return DASH
    if not math.isfinite(v):
        return DASH
    return _number(v, i18n.normalize_locale(locale))


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return None


def _str(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


@functools.cache
def _basic_face(path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, 32, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def _face_has_mark(path: str, mark: str) -> bool:
    """Whether the face maps a combining mark. (`kit.has_glyph` lays a lone mark out with raqm, which draws
    it on a dotted circle, so it says yes for every mark; the basic layout draws the face's own glyph.)"""
    face = _basic_face(path)
    probe = face.getmask(mark)
    notdef = face.getmask("\U0010fffd")
    return (probe.size, bytes(probe)) != (notdef.size, bytes(notdef))


@functools.lru_cache(maxsize=4096)
def tame(text: str, weight: str = "Bold") -> str:
    """``text`` (NFC) without the combining marks the face drawing their letter lacks. Lato has none: a mark
    after a Lato letter would be drawn as a missing-glyph box, or in a fallback face's run of its own on a
    dotted circle ("zalgo" names). Marks a face has (Hebrew points in DejaVu) stay with their letter."""
    chain = kit.font_chain(weight)
    out: list[str] = []
    base: str | None = None
    for char in unicodedata.normalize("NFC", text[: 4 * kit.TEXT_LIMIT]):
        if unicodedata.category(char) in ("Mn", "Me", "Mc"):
            if base is not None and _face_has_mark(base, char):
                out.append(char)
            continue
        base = None if char.isspace() else next((p for p in chain if kit.has_glyph(p, char)), None)
        out.append(char)
    return "".join(out)


def _text(value: Any, weight: str = "Bold") -> str:
    """Users' free text (a title, a subtitle, a record) as it can be drawn."""
    return kit.clean_text(tame(_str(value), weight), weight)


def _name(value: Any, fallback: str, weight: str) -> str:
    """A player's name as it can be drawn, ``fallback`` when nothing readable is left."""
    return kit.display_name(tame(_str(value), weight), fallback, weight)


def _wrap(text: str, size: int, width: float, weight: str, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` pixels, the last cut with an ellipsis."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and kit.text_width(f"{line} {words[0]}", size, weight) <= width:
            line = f"{line} {words.pop(0)}"
        if len(out) == lines - 1 and words:
            line = f"{line} {' '.join(words)}"
            words = []
        out.append(kit.fit_text(line, size, width, weight))
    return out


# ------------------------------------------------------------------------------------------ palette


@functools.cache
def palette() -> Image.Image:
    pal = kit.Palette()
    pal.add(BG, STRIPE, PANEL, HILITE, ACCENT, TEXT, WHITE, DIM, GREY, GOLD, LINE, ADV, BORDER)
    pal.add(OPEN, OPEN_SEED, WIN, WIN_SEED, LOSE, LOSE_SEED)
    pal.ramps((TEXT, DIM, GREY, GOLD), (BG, STRIPE), steps=4)
    pal.ramps((TEXT, DIM, GOLD), (PANEL,), steps=3)
    pal.ramps((WHITE, GOLD, TEXT), (HILITE,), steps=4)
    pal.ramps((TEXT, DIM), (OPEN, OPEN_SEED), steps=3)
    pal.ramps((WHITE,), (WIN, WIN_SEED), steps=4)
    pal.ramps((GREY, DIM), (LOSE, LOSE_SEED), steps=3)
    pal.ramps((BORDER,), (BG, STRIPE, OPEN, WIN, LOSE), steps=1)
    pal.ramps((ADV, LINE), (BG,), steps=1)
    return pal.image()


def _finish(img: Image.Image) -> Image.Image:
    return kit.to_palette(img, palette())
HALF = "\u00bd"
