"""Text that users supply (names, categories, answers, typed moves), made safe to show anywhere: pure, no Discord.

`clean` is for anywhere text is shown without markdown (images, button labels, select options, thread names,
the terminal): it drops control and format characters (bidirectional overrides, zero-width characters),
collapses whitespace and clips to a length. `seat_names` is how a table's seats are named wherever they are shown:
bots marked, look-alike names told apart. Discord's markdown escaping stays with the surface (`cogs.utils.text`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Protocol

from confusable_homoglyphs import confusables as homoglyphs

ELLIPSIS = "\u2026"
NAME_LIMIT = 32  # a Discord display name's own maximum
# Bidirectional controls reorder the text around them (a name that turns the rest of the line backwards) and
# zero-width characters hide text or make two names look the same. All are category Cf; listed for the record.
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")
MAX_MARKS = 3  # combining marks kept on one letter: enough for any script, not for "zalgo" towers

def _visible(char: str) -> bool:
    if char in BIDI or char in ZERO_WIDTH:
        return False
    # Whitespace controls (\n, \t) become spaces below, rather than gluing two words together.
    return char.isspace() or unicodedata.category(char) not in ("Cc", "Cf", "Cs")


def _cap_marks(text: str) -> str:
    out: list[str] = []
    run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if run <= MAX_MARKS:
            out.append(char)
    return "".join(out)


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, the last one an ellipsis when anything was cut."""
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ELLIPSIS[:limit]
    return text[:limit - 1].rstrip() + ELLIPSIS


def visible(text: str | None) -> str:
    """``text`` without control, format, bidirectional and zero-width characters, its whitespace collapsed to
    single spaces (not clipped: for input that is checked for length and stored)."""
    composed = unicodedata.normalize("NFC", str(text or ""))
    kept = "".join(char for char in _cap_marks(composed) if _visible(char))
    return " ".join(kept.split())


def clean(text: str | None, limit: int) -> str:
    """`visible` text of at most ``limit`` characters (cut with "…"): for text shown without markdown (images,
    button labels, select options, thread names)."""
    return clip(visible(text), limit)


# --- names at one table -----------------------------------------------------------------------------------------
# A human nicknamed "Bot 1" must not pass for the bot in seat 2, and "Alice", "Аlice" (a Cyrillic А) and "Al​ice"
# (a zero-width space) must not pass for one another: a bot's seat carries a mark the bot removes from every human
# name, and names whose confusable skeleton (Unicode TS #39) is the same get a number.

BOT_MARK = "\u2699"  # ⚙: drawn by the fallback face, so the images show it too
VARIATION_SELECTORS = frozenset(chr(c) for c in range(0xFE00, 0xFE10))


class SeatLike(Protocol):
    name: str
    bot: bool


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of Unicode's confusables list mapped to one representative of the characters it can be
    mistaken for (the classes of confusable-homoglyphs' data, joined)."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, alikes in homoglyphs.confusables_data.items():
        for alike in alikes:
            other = "".join(c for c in alike["c"] if c not in BIDI)
            if len(char) == 1 and len(other) == 1:
                a, b = root(char), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {char: root(char) for char in parent}


def skeleton(text: str) -> str:
    """What ``text`` looks like: NFKC, no invisible characters, each character replaced by its confusable class."""
    folded = visible(unicodedata.normalize("NFKC", text))
    table = _prototypes()
    return "".join(table.get(char, char) for char in folded)


def _unmarked(name: str) -> str:
    """A human's name without anything that looks like the bot mark."""
    mark = skeleton(BOT_MARK)
    kept = "".join(c for c in name if c not in VARIATION_SELECTORS and skeleton(c) != mark)
    return " ".join(kept.split())


def seat_names(seats: Sequence[SeatLike], limit: int = NAME_LIMIT) -> list[str]:
    """The names of a table's seats as shown (plain text, at most ``limit`` characters): bots marked, humans never,
    and every name that looks like another one numbered (``Alice #2``; a bot keeps its name, it is unique)."""
    return list(_seat_names(tuple((s.name, s.bot) for s in seats), limit))


@functools.lru_cache(maxsize=256)
def _seat_names(seats: tuple[tuple[str, bool], ...], limit: int) -> tuple[str, ...]:
    # Cached: a post names seats many times over (a 100-seat summary line by line), and skeletons cost ~0.1 ms each.
    bases = [f"{BOT_MARK} {clean(name, limit - 2)}" if bot else clean(_unmarked(visible(name)), limit) or "?"
             for name, bot in seats]
    groups: dict[str, list[int]] = {}
    for i, _ in sorted(enumerate(seats), key=lambda p: (not p[1][1], p[0])):
        groups.setdefault(skeleton(bases[i].removeprefix(BOT_MARK).strip()).casefold(), []).append(i)
    names = list(bases)
    for members in groups.values():
        for number, i in enumerate(members[1:], start=2):
            suffix = f" #{number}"
            names[i] = clip(bases[i], limit - len(suffix)) + suffix
    return tuple(names)


# Answers and names are compared folded: the store keys a server's added answers by it, The Floor matches by it.
_FOLD = str.maketrans({"ł": "l", "ß": "ss", "æ": "ae", "ø": "o", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i"})
_APOSTROPHES = re.compile(r"['’`´ʼ‘]")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


@functools.lru_cache(maxsize=512)  # 70% hits in the soak, 80% at 8,192: a miss is ~4 µs
def fold(text: str) -> str:
    """Case, diacritics, apostrophes, punctuation and spacing folded: ``"  Łódź-Kaliska!"`` → ``"lodz kaliska"``."""
    text = unicodedata.normalize("NFKD", text.casefold().translate(_FOLD))
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = _APOSTROPHES.sub("", text).replace("&", " and ")
    return _NON_ALNUM.sub(" ", text).strip()
