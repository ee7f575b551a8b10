"""Words players type in their language, mapped to a game's one English notation. Pure (no Discord, no I/O).

Every surface reads typed moves through these: Discord's typed moves and ``/move`` (the cogs), and the terminal
(`terminal`), so ``pas`` is ``pass`` wherever it is typed and the log keeps the English notation. A game keeps its
own tables (``rules/<game>/words.py``); this module holds the mechanics they share, and the top-level `hints`
re-exports them for the "did you mean" hints.

- ``fold(word)``: the form words are compared in (case- and accent-free: ``Pomiń`` → ``pomin``).
- ``folded(aliases)``: a table keyed by folded phrases.
- ``resolve(word, verbs, aliases)``: the canonical verb a word names exactly (a verb or an alias), else None.
- ``phrase_at`` / ``replace_phrases``: alias phrases of up to `MAX_PHRASE` words replaced, longest first.
- ``translate(text, aliases, words)``: a leading alias phrase replaced by its verb, alias words after it by theirs.
- ``merged(tables)``: one table of every language's aliases (a player's language is not the server's).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Collection, Mapping

Aliases = Mapping[str, str]
MAX_PHRASE = 3  # words in the longest alias ("podwójne kopnięcie", "pokój startowy")
_NO_DECOMPOSITION = str.maketrans({"ł": "l", "Ł": "l", "ø": "o", "đ": "d", "ß": "ss"})


def fold(word: str) -> str:
    """Lowercase without accents: players type Polish with or without diacritics (``pomin`` = ``pomiń``)."""
    decomposed = unicodedata.normalize("NFKD", word.translate(_NO_DECOMPOSITION))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@functools.lru_cache(maxsize=64)
def _folded(items: tuple[tuple[str, str], ...]) -> dict[str, str]:
    return {fold(k): v for k, v in items}


def folded(aliases: Aliases | None) -> dict[str, str]:
    """``aliases`` keyed by folded phrases (cached: the tables are module constants)."""
    return _folded(tuple(sorted((aliases or {}).items())))


def merged(tables: Mapping[str, Aliases]) -> dict[str, str]:
    """Every language's aliases in one table (``{"pl": {...}, ...}`` → ``{...}``)."""
    return {alias: target for table in tables.values() for alias, target in table.items()}


def resolve(word: str, verbs: Collection[str], aliases: Aliases | None = None) -> str | None:
    """The canonical verb ``word`` names exactly (a verb, or an alias in any language), else None."""
    key = fold(word)
    if key in verbs:
        return key
    return folded(aliases).get(key)


def phrase_at(tokens: list[str], i: int, table: Mapping[str, str]) -> tuple[str, int]:
    """What the alias phrase starting at ``tokens[i]`` stands for (the longest, matched folded) and its length
    in tokens; the token itself and 1 when none starts there."""
    for n in range(min(MAX_PHRASE, len(tokens) - i), 0, -1):
        key = " ".join(fold(w) for w in tokens[i:i + n])
        if key in table:
            return table[key], n
    return tokens[i], 1


def replace_phrases(tokens: list[str], table: Mapping[str, str], *, first_only: bool = False) -> list[str]:
    """Tokens with every alias phrase (or only a leading one) replaced by what it stands for."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        word, n = phrase_at(tokens, i, table)
        out.append(word)
        i += n
        if first_only:
            return out + tokens[i:]
    return out


def translate(text: str, aliases: Aliases | None = None, words: Aliases | None = None) -> str:
    """``text`` with its leading alias phrase replaced by the verb and alias words after it by theirs
    (``atak c3 c4`` → ``attack c3 c4``, ``smok e5 z e4`` → ``dragon e5 from e4``)."""
    tokens = text.split()
    if not tokens:
        return ""
    tokens = replace_phrases(tokens, folded(aliases), first_only=True)
    return " ".join([tokens[0], *replace_phrases(tokens[1:], folded(words))])
