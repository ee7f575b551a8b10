"""The Floor's answer checker: is a typed answer on the category's list, does it start with the letter, is it new?

`normalize` folds case, accents/diacritics (ą→a, ł→l, ß→ss…), punctuation and spacing; for ``titles`` a leading
English article (the/a/an) is dropped. `check` returns a `Verdict`:

- ``rejected``: empty or garbage (no letters, absurdly long);
- ``wrong_letter``: does not start with the letter (after the optional article; for ``people`` any word of the
  name — first name or surname — may start with it);
- ``repeat``: the same canonical answer as one already given in this duel;
- ``accepted``: on the list (an answer or one of its variants, for ``people`` also a first name or surname
  alone, for ``titles`` with or without the article), exactly after normalization (spaces ignored: "U.S.A." is
  "USA", "hotdog" is "hot dog") or within a small typo (Damerau–Levenshtein ≤ 1 when both the typed and the
  listed form have 4–7 letters, ≤ 2 when both have 8 or more; never across a different first letter). A leading
  article counts for the letter only when the listed title has it ("The Avatar" is not a T);
- ``unknown``: starts with the letter but is not on the list — the players judge it.

Per category the normalized keys are computed once (cached by the category object) and bucketed by first
character, so a fuzzy look-up only compares against the keys that share the first letter and a close length
(lengths and edits count letters and digits; spaces are ignored).
Server-custom answers come in as ``extra_answers`` and are merged the same way.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import OSA

ACCEPTED = "accepted"
WRONG_LETTER = "wrong_letter"
REPEAT = "repeat"
UNKNOWN = "unknown"
REJECTED = "rejected"

# Polish has no articles, but Polish lists keep English original titles ("The Crown") and the rulebook's own
# example is "The Lord of the Rings": the English "the" is optional there too.
ARTICLES = {"en": ("the", "a", "an"), "pl": ("the",)}
MAX_LEN = 100
# Letters NFKD does not decompose into a base letter plus a combining mark.
_FOLD = str.maketrans({"ł": "l", "ß": "ss", "æ": "ae", "ø": "o", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i"})
_APOSTROPHES = re.compile(r"['’`´ʼ‘]")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


@dataclass(frozen=True, slots=True)
class Verdict:
    status: str
    canonical: str


@functools.lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Case, diacritics, apostrophes, punctuation and spacing folded: ``"  Łódź-Kaliska!"`` → ``"lodz kaliska"``."""
    text = unicodedata.normalize("NFKD", text.casefold().translate(_FOLD))
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = _APOSTROPHES.sub("", text).replace("&", " and ")
    return _NON_ALNUM.sub(" ", text).strip()


def strip_article(folded: str, lang: str) -> str:
    for article in ARTICLES.get(lang, ()):
        if folded.startswith(article + " ") and len(folded) > len(article) + 1:
            return folded[len(article) + 1 :]
    return folded


def normalize(text: str, lang: str, flags: Iterable[str] = ()) -> str:
    """The comparable form of an answer: folded, and for ``titles`` without a leading article."""
    folded = fold(text)
    return strip_article(folded, lang) if "titles" in flags else folded


def compact(key: str) -> str:
    """A folded key without its spaces: what exact and fuzzy matching compare."""
    return key.replace(" ", "")


def max_typos(length: int) -> int:
    """How many edits a key of that length tolerates: none up to 3 letters, 1 up to 7, then 2."""
    return 0 if length <= 3 else 1 if length <= 7 else 2


def distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment (restricted Damerau–Levenshtein) distance, or ``limit + 1`` once it exceeds it
    (RapidFuzz's, which stops early past the cut-off)."""
    return int(OSA.distance(a, b, score_cutoff=limit))


class Index:
    """Normalized keys of one answer list → canonical display forms, bucketed by first character for fuzzy look-up.

    Full forms (an answer, its variants, a title without its article) win over partial ones (a person's first
    name or surname alone), which may point at several people.
    """

    def __init__(self, answers: Iterable[str], variants: dict[str, Sequence[str]], lang: str, flags: Sequence[str]):
        self.lang = lang
        self.flags = tuple(flags)
        self.full: dict[str, str] = {}
        self.partial: dict[str, list[str]] = {}
        self.articles: dict[str, set[str]] = {}  # titles: answer -> the leading articles its listed forms have
        for answer in answers:
            for form in (answer, *variants.get(answer, ())):
                self._add_full(fold(form), answer)
        if "people" in self.flags:
            for answer in answers:
                for form in (answer, *variants.get(answer, ())):
                    words = fold(form).split()
                    if len(words) < 2:
                        continue
                    # First name, surname (last word, and everything after the first name: "da vinci").
                    for part in {words[0], words[-1], " ".join(words[1:])}:
                        if len(part) >= 3 and part not in self.full:
                            owners = self.partial.setdefault(part, [])
                            if answer not in owners:
                                owners.append(answer)
        self.compact: dict[str, str] = {}  # key without spaces -> key (full forms win over partial ones)
        self.buckets: dict[str, list[tuple[str, str, int]]] = {}
        for key in (*self.full, *self.partial):
            flat = compact(key)
            if flat and self.compact.setdefault(flat, key) == key:
                self.buckets.setdefault(flat[0], []).append((flat, key, len(flat)))

    def _add_full(self, key: str, answer: str) -> None:
        if not key:
            return
        self.full.setdefault(key, answer)
        if "titles" in self.flags:
            bare = strip_article(key, self.lang)
            self.full.setdefault(bare, answer)
            if bare != key:
                self.articles.setdefault(answer, set()).add(key[: len(key) - len(bare) - 1])

    def owners(self, key: str) -> list[str]:
        if key in self.full:
            return [self.full[key]]
        return self.partial.get(key, [])

    def lookup(self, key: str) -> list[str]:
        """Canonical answers for a folded key: exact (spaces ignored), else the closest key within the typo
        tolerance of both the typed and the listed form."""
        found = self.owners(key)
        if found or not key:
            return found
        flat = compact(key)
        if flat in self.compact:
            return self.owners(self.compact[flat])
        n = len(flat)
        limit = max_typos(n)
        if limit == 0:
            return []
        best, best_key = limit + 1, ""
        for candidate, candidate_key, length in self.buckets.get(flat[0], ()):
            bound = min(limit, max_typos(length), best - 1)
            if bound < 1 or abs(length - n) > bound:
                continue
            d = distance(flat, candidate, bound)
            if d <= bound:
                best, best_key = d, candidate_key
                if d == 1:
                    break
        return self.owners(best_key) if best_key else []


_INDEX_CACHE: dict[int, tuple[dict[str, Any], str, Index]] = {}
_INDEX_CACHE_SIZE = 512


def index(category: dict[str, Any], lang: str) -> Index:
    """The cached `Index` of a category dict (keyed by the object; content dicts live as long as the process)."""
    hit = _INDEX_CACHE.get(id(category))
    if hit is not None and hit[0] is category and hit[1] == lang:
        return hit[2]
    built = Index(category.get("answers", ()), category.get("variants", {}), lang, category.get("flags", ()))
    if len(_INDEX_CACHE) >= _INDEX_CACHE_SIZE:
        _INDEX_CACHE.pop(next(iter(_INDEX_CACHE)))
    _INDEX_CACHE[id(category)] = (category, lang, built)  # the strong reference keeps id() from being reused
    return built


@functools.lru_cache(maxsize=256)
def _extra_index(extra: tuple[str, ...], lang: str, flags: tuple[str, ...]) -> Index:
    return Index(extra, {}, lang, flags)


def starts_with(folded: str, letter: str, lang: str, flags: Sequence[str]) -> bool:
    """Whether the folded answer starts with the (folded) letter: after an optional article for titles, or any word
    of a person's name."""
    if not folded:
        return False
    if folded.startswith(letter):
        return True
    if "titles" in flags and strip_article(folded, lang).startswith(letter):
        return True
    return "people" in flags and any(word.startswith(letter) for word in folded.split()[1:])


def check(
    text: str,
    category: dict[str, Any],
    letter: str,
    given: Sequence[str],
    lang: str,
    extra_answers: Sequence[str] = (),
) -> Verdict:
    """Judge one typed answer in a duel (see the module docstring for the statuses)."""
    cleaned = " ".join(text.split())
    folded = fold(cleaned) if len(cleaned) <= MAX_LEN else ""
    if not folded or not any(c.isalpha() for c in folded):
        return Verdict(REJECTED, cleaned)
    flags = tuple(category.get("flags", ()))
    idx = index(category, lang)
    extra = _extra_index(tuple(extra_answers), lang, flags) if extra_answers else None
    key = strip_article(folded, lang) if "titles" in flags else folded

    def resolve(k: str) -> list[str]:
        found = idx.lookup(k)
        if not found and extra is not None:
            found = extra.lookup(k)
        return found

    found = resolve(key)
    if not found and key != folded:
        found = resolve(folded)
    canonical = found[0] if found else cleaned
    typed = folded
    if found and key != folded:
        # A typed article counts for the letter only when the listed title has it: "The Avatar" is no T.
        article = folded[: len(folded) - len(key) - 1]
        owned = set().union(*(i.articles.get(owner, set()) for owner in found for i in (idx, extra) if i))
        if article not in owned:
            typed = key
    if not starts_with(typed, fold(letter), lang, flags):
        return Verdict(WRONG_LETTER, canonical)

    def comparable(text: str) -> str:
        return compact(normalize(text, lang, flags))

    taken = set()
    for g in given:
        gk = normalize(g, lang, flags)
        taken.add(compact(gk))
        for full in (idx.full, extra.full if extra is not None else {}):
            if gk in full:
                taken.add(comparable(full[gk]))
    if found:
        for owner in found:
            if comparable(owner) not in taken:
                return Verdict(ACCEPTED, owner)
        return Verdict(REPEAT, found[0])
    if compact(key) in taken or compact(folded) in taken:
        return Verdict(REPEAT, cleaned)
    return Verdict(UNKNOWN, cleaned)
