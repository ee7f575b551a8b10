"""The form The Floor compares answers in: folded text (`i18n.text.fold`), without a leading article for titles.

Below both the content loader and the answer checker, which each need it (the checker also reads the content).
"""

from __future__ import annotations

from collections.abc import Iterable

from i18n.text import fold

ARTICLES = {"en": ("the", "a", "an"), "pl": ("the",)}


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
