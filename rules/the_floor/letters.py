"""A fair host's letter deck (issue 10): a letter the category cannot answer is redrawn.

Pure. A letter is answerable when some listed form of the category (an answer or a variant; a server's category
or a server's extra answers merged in by ``TheFloor.catalog`` count the same) starts with it by the answer checker's
own rule (`answers.starts_with`: an optional article for titles, a leading number read aloud, any word of a name for
``people``). The game shuffles each duel deck from its RNG stream as before and moves the letters the category
cannot answer to the bottom, which is the same as skipping (redrawing) them when drawn, deterministically from the
seed and stream, while the deck stays a full shuffled letter deck (what a saved duel is validated against).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules.the_floor.answers import fold, starts_with


def _forms(category: dict[str, Any]) -> Iterable[str]:
    variants = category.get("variants", {})
    for answer in category.get("answers", ()):
        yield answer
        yield from variants.get(answer, ())


def answerable(category: dict[str, Any], letters: Sequence[str], lang: str) -> frozenset[str]:
    """The letters among ``letters`` that some listed form of the category starts with."""
    flags = tuple(category.get("flags", ()))
    wanted = {letter: fold(letter) for letter in letters}
    found: set[str] = set()
    for form in _forms(category):
        key = fold(form)
        for letter, folded in wanted.items():
            if letter not in found and starts_with(key, folded, lang, flags):
                found.add(letter)
        if len(found) == len(wanted):
            break
    return frozenset(found)


def unanswerable(category: dict[str, Any], letters: Sequence[str], lang: str) -> list[str]:
    """The letters of the deck the category has no listed answer for, in deck order."""
    ok = answerable(category, letters, lang)
    return [letter for letter in letters if letter not in ok]


def fair_deck(deck: Sequence[str], category: dict[str, Any], lang: str) -> tuple[str, ...]:
    """The shuffled ``deck`` with the letters the category cannot answer moved to the bottom (each part keeps its
    shuffled order): a permutation of the same cards, so a stored duel stays a valid letter deck, and each side's
    first draws are exactly the answerable letters, in the order the game's RNG stream shuffled them."""
    ok = answerable(category, deck, lang)
    return tuple(letter for letter in deck if letter in ok) + tuple(letter for letter in deck if letter not in ok)
