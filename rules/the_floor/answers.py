"""The Floor's answer checker: is a typed answer on the category's list, does it start with the letter, is it new?

`normalize` folds case, accents/diacritics (ą→a, ł→l, ß→ss…), punctuation and spacing; for ``titles`` a leading
English article (the/a/an) is dropped. `check` returns a `Verdict`:

- ``rejected``: empty or garbage (no letters, absurdly long; digits alone only for ``titles`` or a listed answer);
- ``wrong_letter``: does not start with the letter (after the optional article; for ``people`` any name of the
  person — first name, surname, never an initial: "Ulysses S. Grant" is no S — may start with it; a leading number
  counts as its spelled-out form in the game's language: "1984" is an N in English, a T — "tysiąc…" — in Polish);
- ``repeat``: the same answer as one already given in this duel, or (people) an answer that can only name people
  already named, or that may name several people one of whom has come up ("Roosevelt" after "Theodore Roosevelt");
- ``accepted``: on the list, exactly after normalization (spaces ignored: "U.S.A." is "USA", "hotdog" is "hot
  dog"), as the singular/plural of a listed answer (plain categories), or within a small typo (Damerau–Levenshtein
  ≤ 1 when both the typed and the listed form have 4–7 letters, ≤ 2 when both have 8 or more; never across a
  different first letter, never for a typed answer that is itself a common word of the language — "horse" is no
  typo of "house" — see `rules.the_floor.wordlist`);
- ``unknown``: starts with the letter but is not on the list — the players judge it.

People (``people``): "the answer may start with the first name or the surname" is about the letter only. An
answer must identify the person: the full name (or a listed variant), a single-word entry ("Madonna"), the
surname (the last word, or everything after the first name unless it starts with an initial: "da Vinci", "Quincy
Adams", never "S. Grant"), or a regnal name with its
number ("Henry VIII", "Henry 8", "Henry the Eighth" — numbers never fuzzy-match another number: "Henry 8" is not
"Henry I"). A bare first name ("James") and a word that names no one alone (an epithet after "the", a Polish
epithet such as "Wielki"/"Stary", a group noun such as "Brothers", a numeral) are not keys: they go to the
players. A surname shared by several people ("Roosevelt", "Bush") is one answer ("Roosevelt") that stands for
one of them: typed again, or after any of them was named, it is a repeat (it may mean the one already given: the
other is named by name); once as many answers as there are such people name them, any further one is a repeat.

Titles (``titles``): a leading article is optional and counts for its letter when the listed title has it — or,
in a Polish game, when the English original title has it (found in the English content: "The Matrix" is a T in
Polish too, "The Avatar" is not). A title starting with a number is also found by its spelled-out form ("1984" →
"Nineteen Eighty-Four").

Per category the normalized keys are computed once (cached by the category object) and bucketed by first
character, so a fuzzy look-up only compares against the keys that share the first letter and a close length
(lengths and edits count letters and digits; spaces are ignored).
Server-custom answers come in as ``extra_answers`` and are merged the same way.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import OSA

from i18n.text import fold
from rules.the_floor import content, wordlist
from rules.the_floor.folding import compact, normalize, strip_article

ACCEPTED = "accepted"
WRONG_LETTER = "wrong_letter"
REPEAT = "repeat"
UNKNOWN = "unknown"
REJECTED = "rejected"

# Polish has no articles, but Polish lists keep English original titles ("The Crown") and the rulebook's own
# example is "The Lord of the Rings": the English "the" is optional there too.
MAX_LEN = 100

# --- people: which parts of a name identify the person ------------------------------------------------------------


def _roman(n: int) -> str:
    out = ""
    for value, sign in ((10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out, n = out + sign, n - value
    return out


ROMAN = {_roman(n): n for n in range(1, 40)}


def _words(text: str) -> list[str]:
    return text.split()


_ORDINALS = {word: _roman(i) for i, word in enumerate(_words(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"), 1)}
_ORDINALS.update({word: _roman(i) for i, word in enumerate(_words(
    "pierwszy drugi trzeci czwarty piaty szosty siodmy osmy dziewiaty dziesiaty"), 1)})
_ORDINAL_DIGITS = re.compile(r"^([1-9]|[1-3][0-9])(st|nd|rd|th)?$")
# Words after which the next word is an epithet or a second person, not a surname ("Alfred the Great", "Queen of
# Scots", "Burke and Wills"; Polish "i" is "and").
_CONNECTORS = frozenset({"the", "of", "and", "i"})
# Last words that name no one alone: group nouns, generational suffixes, common epithets (folded; Polish kings
# have epithets, not surnames — "Chrobry" and "Łokietek" identify a king, "Wielki" and "Stary" do not).
NOT_A_NAME = frozenset({
    "brothers", "sisters", "family", "jr", "sr", "junior", "senior", "elder", "younger", "great",
    "bracia", "siostry", "rodzina", "wielki", "wielka", "stary", "starszy", "mlody", "mlodszy", "bialy", "czarny",
    "rudy", "smialy", "mocny", "pobozny", "sprawiedliwy", "wstydliwy", "brodaty", "lysy", "dobry", "wegierski",
    "andegawenska", "swiety", "sw",
})
_GROUPS = frozenset({"brothers", "sisters", "family", "bracia", "siostry", "rodzina"})
# Words of a name that are nobody's name, so never carry the letter: generational suffixes and group nouns
# ("Martin Luther King Jr." is no J, "Coen brothers" no B).
_NO_LETTER = _GROUPS | {"jr", "sr", "junior", "senior"}


def initial(word: str) -> bool:
    """A folded word that is an initial ("S" of "Ulysses S. Grant"): a single letter, which names no one."""
    return len(word) == 1 and word.isalpha()


def letter_words(folded: str) -> list[str]:
    """The words of a typed person's name that may carry the letter: the first (the answer starts with it: a first
    name, a single name, a surname typed alone) and every later word that is a name the person is known by —
    never an initial, a numeral, a connector ("the", "of") or a suffix or group noun. A particle that starts a
    surname counts, as the surname typed alone does ("da Vinci" is a D); a full middle name counts too, as it cannot
    be told from the first part of a compound surname ("Federico García Lorca" is a G)."""
    words = folded.split()
    return words[:1] + [w for w in words[1:]
                        if not initial(w) and w not in ROMAN and w not in _CONNECTORS and w not in _NO_LETTER]


def regnal(key: str) -> str:
    """A person's folded name with a typed regnal number made Roman: "henry 8", "henry 8th", "henry the eighth"
    → "henry viii" (never the first word)."""
    words = key.split()
    out = words[:1]
    for i, word in enumerate(words[1:], 1):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if word == "the" and nxt in _ORDINALS:
            continue
        m = _ORDINAL_DIGITS.match(word)
        out.append(_roman(int(m.group(1))) if m else _ORDINALS.get(word, word))
    return " ".join(out)


def numerals(key: str) -> tuple[str, ...]:
    """The Roman numerals of a person's folded name (after the first word): what a typo may never change."""
    return tuple(w for w in key.split()[1:] if w in ROMAN)


def surnames(words: list[str]) -> list[str]:
    """The parts of a folded multi-word name that identify the person alone: the last word (or, for "X brothers",
    X), everything after the first name and the first name with the last word, unless the last word is a numeral,
    an epithet, a group noun or follows a connector."""
    if len(words) < 2:
        return []
    if words[-1] in _GROUPS:
        return [words[-2]] if len(words[-2]) >= 3 and words[-2] not in ROMAN else []
    last = words[-1]
    if last in ROMAN or last in NOT_A_NAME or words[-2] in _CONNECTORS or len(last) < 3:
        return []
    out = [last]
    tail = words[1:]
    if len(tail) > 1 and tail[0] not in ROMAN and tail[0] not in _CONNECTORS:
        if not initial(tail[0]):  # an initial starts no surname: "S. Grant" names no one
            out.append(" ".join(tail))
        out.append(f"{words[0]} {last}")  # without the middle names: "Franklin Roosevelt"
    return out


# --- numbers spelled out (titles starting with a number) -----------------------------------------------------------

_EN_ONES = _words("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                  "sixteen seventeen eighteen nineteen")
_EN_TENS = _words("twenty thirty forty fifty sixty seventy eighty ninety")
_PL_ONES = _words("zero jeden dwa trzy cztery piec szesc siedem osiem dziewiec dziesiec jedenascie dwanascie "
                  "trzynascie czternascie pietnascie szesnascie siedemnascie osiemnascie dziewietnascie")
_PL_TENS = _words("dwadziescia trzydziesci czterdziesci piecdziesiat szescdziesiat siedemdziesiat osiemdziesiat "
                  "dziewiecdziesiat")
_PL_HUNDREDS = _words("sto dwiescie trzysta czterysta piecset szescset siedemset osiemset dziewiecset")


def _en(n: int) -> str:
    if n < 20:
        return _EN_ONES[n]
    if n < 100:
        return _EN_TENS[n // 10 - 2] + (" " + _EN_ONES[n % 10] if n % 10 else "")
    if n < 1000:
        return _EN_ONES[n // 100] + " hundred" + (" and " + _en(n % 100) if n % 100 else "")
    rest = n % 1000
    return _en(n // 1000) + " thousand" + ((" and " if rest < 100 else " ") + _en(rest) if rest else "")


def _pl(n: int) -> str:
    if n < 20:
        return _PL_ONES[n]
    if n < 100:
        return _PL_TENS[n // 10 - 2] + (" " + _PL_ONES[n % 10] if n % 10 else "")
    if n < 1000:
        return _PL_HUNDREDS[n // 100 - 1] + (" " + _pl(n % 100) if n % 100 else "")
    k, rest = divmod(n, 1000)
    if k == 1:
        head = "tysiac"
    else:
        word = "tysiace" if k % 10 in (2, 3, 4) and k % 100 not in (12, 13, 14) else "tysiecy"
        head = _pl(k) + " " + word
    return head + (" " + _pl(rest) if rest else "")


def spelled(number: int, lang: str) -> str:
    """How a number is read aloud, folded: English reads years 1100–1999 and 2010–2099 in pairs ("nineteen eighty
    four", "twenty twelve"); Polish reads them as cardinals ("tysiac dziewiecset osiemdziesiat cztery")."""
    if lang == "pl":
        return _pl(number)
    if 1100 <= number <= 1999 or 2010 <= number <= 2099:
        high, low = divmod(number, 100)
        return _en(high) + (" hundred" if low == 0 else " oh " + _en(low) if low < 10 else " " + _en(low))
    return _en(number)


_LEADING_NUMBER = re.compile(r"^(\d{1,6})(?: |$)")


def spell_leading_number(key: str, lang: str) -> str:
    """A folded text with its leading number (up to 6 digits, a word of its own) spelled out, else unchanged."""
    m = _LEADING_NUMBER.match(key)
    if not m:
        return key
    return (spelled(int(m.group(1)), lang) + key[m.end(1):]).strip()


# --- singular and plural (plain categories) ------------------------------------------------------------------------

_EN_IRREGULAR = {"mouse": "mice", "goose": "geese", "tooth": "teeth", "foot": "feet", "child": "children",
                 "person": "people", "ox": "oxen", "louse": "lice", "man": "men", "woman": "women"}
_EN_IRREGULAR.update({plural: single for single, plural in list(_EN_IRREGULAR.items())})


def number_forms(key: str, lang: str) -> list[str]:
    """Plausible singular and plural forms of a folded answer's last word (simple suffix rules, no dictionary):
    English -s/-es/-ies/-ves and a few irregulars; Polish -y/-i/-e/-ie, -a ↔ -y/-i/-e, -ek ↔ -ki. A form counts
    only if it is a listed key, so the rules only need to cover how listed nouns inflect, not to be exact."""
    head, _, w = key.rpartition(" ")
    if len(w) < 3 or not w.isalpha():
        return []
    forms: list[str] = []
    if lang == "pl":
        if w[-1] in "yie":
            forms += [w[:-1], w[:-1] + "a", w[:-1] + "o"]
            if w.endswith("ie"):
                forms.append(w[:-2])
            if w.endswith("ki"):
                forms.append(w[:-2] + "ek")
        else:
            forms += [w + "y", w + "i", w + "e", w + "ie"]
        if w[-1] in "ao":
            forms += [w[:-1] + "y", w[:-1] + "i", w[:-1] + "e"]
        if w.endswith("ek"):
            forms.append(w[:-2] + "ki")
    else:
        if w in _EN_IRREGULAR:
            forms.append(_EN_IRREGULAR[w])
        if w.endswith("s"):
            forms.append(w[:-1])
            if w.endswith("es"):
                forms.append(w[:-2])
            if w.endswith("ies"):
                forms.append(w[:-3] + "y")
            if w.endswith("ves"):
                forms += [w[:-3] + "f", w[:-3] + "fe"]
        else:
            forms += [w + "s", w + "es"]
            if w.endswith("y"):
                forms.append(w[:-1] + "ies")
            if w.endswith("f"):
                forms.append(w[:-1] + "ves")
            if w.endswith("fe"):
                forms.append(w[:-2] + "ves")
    prefix = head + " " if head else ""
    return [prefix + f for f in forms if len(f) >= 2]


@dataclass(frozen=True, slots=True)
class Verdict:
    status: str
    canonical: str


def max_typos(length: int) -> int:
    """How many edits a key of that length tolerates: none up to 3 letters, 1 up to 7, then 2."""
    return 0 if length <= 3 else 1 if length <= 7 else 2


def distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment (restricted Damerau–Levenshtein) distance, or ``limit + 1`` once it exceeds it
    (RapidFuzz's, which stops early past the cut-off)."""
    return int(OSA.distance(a, b, score_cutoff=limit))


def _display(form: str, part: str) -> str:
    """How a name part (a folded surname) is written in the listed form: "Franklin D. Roosevelt" → "Roosevelt"."""
    words = form.split()
    for i in range(len(words)):
        if fold(" ".join(words[i:])) == part:
            return " ".join(words[i:])
    for i in range(len(words)):
        if fold(words[i]) == part:
            return words[i]
    return part.title()


class Index:
    """Normalized keys of one answer list → canonical display forms, bucketed by first character for fuzzy look-up.

    Full forms (an answer, its variants, a title without its article) win over partial ones (a person's surname
    alone), which may point at several people.
    """

    def __init__(self, answers: Iterable[str], variants: dict[str, Sequence[str]], lang: str, flags: Sequence[str]):
        self.lang = lang
        self.flags = tuple(flags)
        self.people = "people" in self.flags
        self.inflect = not self.people and "titles" not in self.flags
        self.full: dict[str, str] = {}
        self.partial: dict[str, list[str]] = {}
        self.display: dict[str, str] = {}  # partial key -> how it is written ("Roosevelt")
        self.articles: dict[str, set[str]] = {}  # titles: answer -> the leading articles its listed forms have
        answers = list(answers)
        for answer in answers:
            for form in (answer, *variants.get(answer, ())):
                self._add_full(fold(form), answer)
        if self.people:
            for answer in answers:
                for form in (answer, *variants.get(answer, ())):
                    words = fold(form).split()
                    if words[:1] == ["the"]:  # bands: "The Beatles" is "Beatles"
                        words = words[1:]
                        parts = [words[0]] if len(words) == 1 and len(words[0]) >= 3 else []
                    else:
                        parts = []
                    for part in parts + surnames(words):
                        if part in self.full:
                            continue
                        owners = self.partial.setdefault(part, [])
                        self.display.setdefault(part, _display(form, part))
                        if answer not in owners:
                            owners.append(answer)
        self.compact: dict[str, str] = {}  # key without spaces -> key (full forms win over partial ones)
        self.buckets: dict[str, list[tuple[str, str, int, tuple[str, ...]]]] = {}
        for key in (*self.full, *self.partial):
            flat = compact(key)
            if flat and self.compact.setdefault(flat, key) == key:
                entry = (flat, key, len(flat), numerals(key) if self.people else ())
                self.buckets.setdefault(flat[0], []).append(entry)

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

    def _exact(self, key: str) -> str:
        """The listed key equal to a folded key (spaces ignored), or ``""``."""
        if key in self.full or key in self.partial:
            return key
        return self.compact.get(compact(key), "")

    def alternatives(self, key: str) -> list[str]:
        """Other spellings of the same answer: a regnal number made Roman (people), a leading number spelled out
        (in the game's language, then English), the singular/plural (plain categories)."""
        out = []
        if self.people:
            out.append(regnal(key))
        if key[:1].isdigit():
            out += [spell_leading_number(key, self.lang), spell_leading_number(key, "en")]
        if self.inflect:
            out += number_forms(key, self.lang)
        return [k for k in out if k != key]

    def match(self, key: str) -> str:
        """The listed key a folded key stands for: exact (spaces ignored), another spelling of it, else the
        closest key within the typo tolerance of both the typed and the listed form — unless the typed text is
        itself a common word of the language (a real word is no typo). ``""`` if none."""
        if not key:
            return ""
        hit = self._exact(key)
        if hit:
            return hit
        for alt in self.alternatives(key):
            hit = self._exact(alt)
            if hit:
                return hit
        typed = regnal(key) if self.people else key
        flat = compact(typed)
        n = len(flat)
        limit = max_typos(n)
        if limit == 0:
            return ""
        marks = numerals(typed) if self.people else ()
        best, best_key = limit + 1, ""
        for candidate, candidate_key, length, candidate_marks in self.buckets.get(flat[0], ()):
            bound = min(limit, max_typos(length), best - 1)
            if bound < 1 or abs(length - n) > bound or candidate_marks != marks:
                continue
            d = distance(flat, candidate, bound)
            if d <= bound:
                best, best_key = d, candidate_key
                if d == 1:
                    break
        if best_key and wordlist.is_common(key, self.lang):
            return ""
        return best_key

    def lookup(self, key: str) -> list[str]:
        """Canonical answers for a folded key (see `match`)."""
        hit = self.match(key)
        return self.owners(hit) if hit else []


_INDEX_CACHE: dict[int, tuple[dict[str, Any], str, Index]] = {}
# Least recently used out: an index is ~25 KB and rebuilds in ~0.6 ms, and the 284 shipped categories (two
# languages) would otherwise each keep one for good once any game played them (issue 25, memory).
_INDEX_CACHE_SIZE = 32


def index(category: dict[str, Any], lang: str) -> Index:
    """The cached `Index` of a category dict (keyed by the object; content dicts live as long as the process)."""
    hit = _INDEX_CACHE.pop(id(category), None)  # pop, not get: a hit goes back in last, the most recently used
    if hit is not None and hit[0] is category and hit[1] == lang:
        _INDEX_CACHE[id(category)] = hit
        return hit[2]
    built = Index(category.get("answers", ()), category.get("variants", {}), lang, category.get("flags", ()))
    if len(_INDEX_CACHE) >= _INDEX_CACHE_SIZE:
        _INDEX_CACHE.pop(next(iter(_INDEX_CACHE)))
    _INDEX_CACHE[id(category)] = (category, lang, built)  # the strong reference keeps id() from being reused
    return built


@functools.lru_cache(maxsize=256)
def _extra_index(extra: tuple[str, ...], lang: str, flags: tuple[str, ...]) -> Index:
    return Index(extra, {}, lang, flags)


@functools.lru_cache(maxsize=1)
def original_articles() -> dict[str, str]:
    """Bare folded English titles → their leading article, from every English ``titles`` category: the original
    title's article counts for the letter in a Polish game too ("The Matrix" is listed as "Matrix" there)."""
    try:
        cats = content.categories("en")
    except Exception:  # pragma: no cover - content is shipped data
        return {}
    out: dict[str, str] = {}
    for cat in cats:
        if "titles" not in cat.get("flags", ()):
            continue
        for answer in cat.get("answers", ()):
            for form in (answer, *cat.get("variants", {}).get(answer, ())):
                key = fold(form)
                bare = strip_article(key, "en")
                if bare != key:
                    out.setdefault(bare, key[: len(key) - len(bare) - 1])
    return out


def starts_with(folded: str, letter: str, lang: str, flags: Sequence[str]) -> bool:
    """Whether the folded answer starts with the (folded) letter: after an optional article for titles, a leading
    number as it is read in the game's language, or any name of a person (`letter_words`: never an initial)."""
    if not folded:
        return False
    texts = [folded]
    if "titles" in flags:
        texts.append(strip_article(folded, lang))
    texts += [spell_leading_number(t, lang) for t in texts if t[:1].isdigit()]
    if any(t.startswith(letter) for t in texts):
        return True
    return "people" in flags and any(word.startswith(letter) for word in letter_words(folded))


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
    if not folded:
        return Verdict(REJECTED, cleaned)
    flags = tuple(category.get("flags", ()))
    titles = "titles" in flags
    idx = index(category, lang)
    extra = _extra_index(tuple(extra_answers), lang, flags) if extra_answers else None
    key = strip_article(folded, lang) if titles else folded

    def resolve(k: str) -> tuple[list[str], str]:
        for i in (idx, extra):
            if i is not None:
                hit = i.match(k)
                if hit:
                    return i.owners(hit), i.display.get(hit, "")
        return [], ""

    digits_only = not any(c.isalpha() for c in folded)
    listed = digits_only and (idx._exact(folded) or (extra is not None and extra._exact(folded)))
    if digits_only and not titles and not listed:  # digits alone: a title ("1984") or a listed answer
        return Verdict(REJECTED, cleaned)
    found, display = resolve(key)
    if not found and key != folded:
        found, display = resolve(folded)
    canonical = found[0] if found else cleaned
    typed = folded
    if found and key != folded:
        # A typed article counts for the letter only when the listed (or, in a Polish game, the English original)
        # title has it: "The Avatar" is no T.
        article = folded[: len(folded) - len(key) - 1]
        owned = set().union(*(i.articles.get(owner, set()) for owner in found for i in (idx, extra) if i))
        if article not in owned and not (lang != "en" and original_articles().get(key) == article):
            typed = key
    if not starts_with(typed, fold(letter), lang, flags):
        return Verdict(WRONG_LETTER, canonical)

    def comparable(text: str) -> str:
        return compact(normalize(text, lang, flags))

    def owners_of(given_key: str) -> list[str]:
        for i in (idx, extra):
            if i is not None:
                hit = i._exact(given_key) or next(filter(None, map(i._exact, i.alternatives(given_key))), "")
                if hit:
                    return i.owners(hit)
        return []

    taken: set[str] = set()  # compact keys of every given answer
    named: set[str] = set()  # comparable forms of the answers (people) named unambiguously
    claims: list[frozenset[str]] = []  # people: the sets a shared surname given alone stood for
    for g in given:
        gk = normalize(g, lang, flags)
        taken.add(compact(gk))
        owners = owners_of(gk)
        if len(owners) == 1:
            named.add(comparable(owners[0]))
        elif owners:
            claims.append(frozenset(comparable(o) for o in owners))
    if not found:
        if compact(key) in taken or compact(folded) in taken:
            return Verdict(REPEAT, cleaned)
        return Verdict(UNKNOWN, cleaned)
    group = frozenset(comparable(o) for o in found)

    def exhausted(people_set: frozenset[str]) -> bool:
        """Whether the given answers already account for every person of the set."""
        return len(people_set & named) + sum(1 for c in claims if c <= people_set) >= len(people_set)

    if len(found) > 1:
        # An answer that may name several people ("Roosevelt") is a new answer only while none of them has come up:
        # after "Theodore Roosevelt" (or after "Roosevelt" itself) it may mean the one already given, so it never
        # scores again; the other one is named by name.
        shown = display or found[0]
        if compact(normalize(shown, lang, flags)) in taken or group & named or any(c & group for c in claims):
            return Verdict(REPEAT, shown)
        return Verdict(ACCEPTED, shown)
    if exhausted(group) or any(exhausted(c) for c in claims if group <= c):
        return Verdict(REPEAT, found[0])
    return Verdict(ACCEPTED, found[0])
