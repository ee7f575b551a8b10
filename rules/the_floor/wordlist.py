"""Common words of a language, folded like answers: what the answer checker must not "typo-correct".

A typed answer that is itself a common word ("horse", "beer", "kot") is never turned into a neighbouring listed
answer ("house", "bear", "kod"): it goes to the players instead. "Common" is wordfreq's Zipf frequency ≥ `ZIPF`
(2.5: measured on this machine to get every real-word/typo case right, see
``shared/notes/libraries-text-geometry-e2e.md``). wordfreq counts spellings without diacritics as words of their
own ("Lodz" 3.18), so the words are folded first and a folded word keeps the best frequency of its spellings
("roza" is common because "róża" is).

The set is read once per language from wordfreq's ``large`` list (only the buckets down to `ZIPF`, without
building wordfreq's full frequency dict) on first use, and cached for the life of the process. Measured here:
~0.3 s and ~+28 MB RSS per language (52k English, 88k Polish folded words), against 0.8–1.3 s and 48–76 MB for
wordfreq's own dicts. Without wordfreq installed the set is empty and the checker falls back to plain typo
tolerance.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from i18n.text import fold

ZIPF = 2.5
# wordfreq's cBpack lists hold one bucket per centibel: bucket i has frequency 10 ** (-i / 100), i.e. Zipf 9 - i/100.
_LAST_BUCKET = round((9 - ZIPF) * 100)


@functools.lru_cache(maxsize=4)
def common_words(lang: str) -> frozenset[str]:
    """Folded single words of ``lang`` with Zipf ≥ `ZIPF` (empty if wordfreq or the language is missing)."""
    try:
        from wordfreq import available_languages, read_cBpack  # lazy: a large optional data load
    except ImportError:  # pragma: no cover - wordfreq is a pinned requirement
        return frozenset()
    path = available_languages("large").get(lang) or available_languages("small").get(lang)
    if path is None:
        return frozenset()
    buckets = read_cBpack(path)[: _LAST_BUCKET + 1]
    out = {fold(word) for bucket in buckets for word in bucket}
    del buckets
    return frozenset(w for w in out if w and " " not in w and w.isalpha())


def is_common(folded: str, lang: str, words: Callable[[str], frozenset[str]] = common_words) -> bool:
    """Whether every word of a folded text is a common word of ``lang`` (a real phrase, not a typo)."""
    parts = folded.split()
    if not parts:
        return False
    known = words(lang)
    return all(p in known for p in parts)
