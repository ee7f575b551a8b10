"""What players type in their language, mapped to the one English notation the log keeps. Pure: Discord's typed
moves and ``/move`` (`cogs.the_floor`) and the terminal (`terminal`, through `TheFloor.typed_action`) read typed
words through these functions, so ``wyzwij B2 B3`` and a duel's ``pas`` mean the same wherever they are typed.

The words are the catalogs' ``tfui.word.*`` in every shipped language (comma-separated: ``pas,dalej``), accepted in
every game whatever its language and matched case- and accent-free.
"""

from __future__ import annotations

import functools

from i18n import LOCALES, t
from rules.words import resolve

TYPED_VERBS = ("challenge", "take", "keep", "ready")  # turns typed in a game's thread
ALIASED_VERBS = (*TYPED_VERBS, "pick")  # typed in any shipped language, stored in English notation
DUEL_WORDS = ("pass", "dispute")  # a duellist's control words; anything else typed in a duel is an answer


@functools.cache
def words(key: str) -> frozenset[str]:
    """A typed control word (``pass``, ``dispute``) in any shipped language, lowercased."""
    return frozenset(w.strip().lower() for loc in LOCALES for w in t(key, loc).split(","))


@functools.cache
def verb_aliases() -> dict[str, str]:
    """Every other typed spelling of a turn verb (``wyzwij`` → ``challenge``)."""
    return {alias: verb for verb in ALIASED_VERBS for alias in words(f"tfui.word.{verb}") if alias != verb}


VERB_ALIAS = verb_aliases()  # as the other games' words modules name it (hints take it)


def typed_verb(word: str) -> str | None:
    """The turn verb a typed word names in any shipped language (case and accents forgiven), else None."""
    return resolve(word, ALIASED_VERBS, VERB_ALIAS)


def canonical_text(text: str) -> str:
    """A turn typed in any language in the English notation (``Wyzwij B2 B3`` → ``challenge B2 B3``); the rest
    of the words are kept as typed (a category's name, cells: the rules read them)."""
    parts = text.split()
    if parts and (verb := typed_verb(parts[0])) is not None:
        parts[0] = verb
    return " ".join(parts)


def duel_word(text: str) -> str | None:
    """``pass`` or ``dispute`` when a duellist's message is one of those words in any language (``pas``,
    ``protest``), else None (the message is an answer)."""
    word = " ".join(text.split()).lower()
    return next((verb for verb in DUEL_WORDS if word in words(f"tfui.word.{verb}")), None)


def duel_action(text: str, elapsed_ms: int) -> str:
    """A duellist's message as the action it is: ``pass 3120``, ``dispute 3120`` or ``answer 3120 <text>``."""
    elapsed = max(0, elapsed_ms)
    verb = duel_word(text)
    return f"{verb} {elapsed}" if verb else f"answer {elapsed} {text}"
