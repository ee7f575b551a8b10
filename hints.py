"""Typed messages that are *attempted* moves but not moves: a short hint instead of silence; and verb aliases.

One mechanism for every surface: Discord's typed moves (`cogs.utils.hints` adds Discord's quoting) and the
terminal (`play_cli`) both use it, so no Discord here: the word quoted back and the list of moves are passed
through ``quote`` and ``mark``, which a surface sets (Discord marks them as its own text, never escaped again).
Game-agnostic: a game passes its canonical verbs, the aliases players may type (Polish verbs…), which tokens a
move's arguments are made of, and examples that are legal now; this module decides whether a message is an
attempted move (rather than chat) and words the reply, in the server's language, with what the user typed
escaped. The words players type in their language are each game's (``rules/<game>/words.py``, with the shared
mechanics in `rules.words`, re-exported here). The stable API (The Floor may call it too):

- ``fold(word)``: the form words are compared in (case- and accent-free: ``Pomiń`` → ``pomin``).
- ``resolve(word, verbs, aliases)``: the canonical verb a word names exactly (a verb or an alias), else None.
- ``closest(word, verbs, aliases)``: the canonical verb a typo most likely means (edit distance), else None.
- ``translate(text, aliases, words)``: a leading alias phrase replaced by its verb, alias words after it by
  theirs; everything else kept as typed (the rules' parser then gives the one canonical notation).
- ``unknown_verb_msg(text, verbs, …) -> Msg | None``: the same hint where every line is meant as a move (the
  terminal's prompt): any first word that is no verb gets it.
- ``near_miss_msg(text, verbs, …) -> Msg | None`` and ``near_miss(text, verbs, locale, …) -> str | None``: the
  hint for an attempted move that is not one, or None for chat (and for a real verb: the caller's own parser
  decides whether that is a move or chat such as "pass the salt"); ``render(msg, locale)`` words a `Msg` hint.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence

from rapidfuzz.distance import OSA

from i18n import t
from rules.base import Msg
from rules.words import MAX_PHRASE, Aliases, fold, folded, phrase_at, replace_phrases, resolve, translate

__all__ = ["CELL", "MAX_EXAMPLES", "MAX_PHRASE", "MAX_WORD", "MIN_TYPO", "Aliases", "Examples", "alias_lines",
           "attempted_verb", "closest", "fold", "folded", "is_evidence", "moves_msg", "near_miss", "near_miss_msg",
           "phrase_at", "plain_quote", "render", "replace_phrases", "reply_msg", "resolve", "tolerance", "translate",
           "unknown_verb_msg"]

MIN_TYPO = 3  # shorter words are never read as a typo of a verb ("z", "ok")
MAX_EXAMPLES = 3
MAX_WORD = 20
CELL = re.compile(r"^[a-z]\d{1,2}$", re.IGNORECASE)
QUOTED = 40  # characters of a typed word quoted back
_CODE_TICK = "\u02cb"  # a backtick lookalike: a real one would close the template's `code span`
Quote = Callable[[str], str]


def plain_quote(word: str) -> str:
    """A typed word for inside a template's code span, as plain text: printable characters only (no terminal
    control codes), a backtick replaced, cut to `QUOTED` characters."""
    shown = "".join(c for c in " ".join(word.split()) if c.isprintable()).replace("`", _CODE_TICK)
    return (shown[:QUOTED - 1] + "\u2026" if len(shown) > QUOTED else shown) or "\u2014"


def tolerance(verb: str) -> int:
    """Edits a typo of ``verb`` may have: one in a short verb, two in a longer one."""
    return 1 if len(verb) <= 4 else 2


def closest(word: str, verbs: Collection[str], aliases: Aliases | None = None) -> str | None:
    """The canonical verb a mistyped ``word`` most likely means (``atack`` → ``attack``, ``atakk`` → ``attack``
    through the alias ``atak``), or None when no verb or alias is close enough."""
    key = fold(word)
    if not MIN_TYPO <= len(key) <= MAX_WORD or not key.isalpha():
        return None
    names = {v: v for v in verbs} | {a: v for a, v in folded(aliases).items() if " " not in a}
    near = [(OSA.distance(key, name), name) for name in names]
    near = sorted((d, name) for d, name in near if d <= tolerance(name))
    return names[near[0][1]] if near else None


def is_evidence(token: str) -> bool:
    """A token only a move would have (a cell, a size, a list): digits or commas; "from" alone is not."""
    return any(c.isdigit() for c in token) or "," in token


def _is_cell(token: str) -> bool:
    return CELL.match(token) is not None


def attempted_verb(text: str, verbs: Collection[str], aliases: Aliases | None = None, *,
                   arg: Callable[[str], bool] = _is_cell, alone: Collection[str] = ()) -> tuple[bool, str | None]:
    """(is ``text`` an attempted move that is not one, the verb it probably meant). Attempted: a near-miss verb
    followed by move-shaped arguments (or alone, for a verb typed alone like ``pass``), or move-shaped words with
    no verb at all (``c3 c4``, ``jump c3 c4``). A real verb or alias is never a near miss."""
    words = text.split()
    if not words or resolve(words[0], verbs, aliases) is not None:
        return False, None
    rest = words[1:]
    shaped = all(arg(w) for w in rest)
    evidence = any(is_evidence(w) for w in rest)
    guess = closest(words[0], verbs, aliases)
    if guess is not None and shaped and (evidence or (not rest and guess in alone)):
        return True, guess
    head = words[0]
    if rest and shaped and evidence and (arg(head) or (fold(head).isalpha() and len(head) <= MAX_WORD)):
        return True, None
    return False, None


Examples = Sequence[str] | Callable[[], Sequence[str]]


def near_miss_msg(text: str, verbs: Collection[str], *, aliases: Aliases | None = None, examples: Examples = (),
                  game: str = "", private: bool = False, arg: Callable[[str], bool] = _is_cell,
                  alone: Collection[str] = (), quote: Quote = plain_quote, mark: Quote = str) -> Msg | None:
    """The hint for a typed attempted move, as a `Msg` (translated by ``t`` in the caller's language), or None
    for chat. ``examples`` are moves legal now, or a function giving them (called only for an attempted move:
    chat costs no move generation); ``private``: the game's moves are made with /move, never typed in public;
    ``arg`` tells a token a move's arguments are made of; ``alone``: verbs typed without arguments (``pass``);
    ``game`` names the /help page; ``quote`` shows the typed verb back and ``mark`` the list of moves."""
    attempted, guess = attempted_verb(text, verbs, aliases, arg=arg, alone=alone)
    if not attempted:
        return None
    return reply_msg(text.split()[0], guess, examples, is_move_word=arg(text.split()[0]), game=game,
                     private=private, quote=quote, mark=mark)


def unknown_verb_msg(text: str, verbs: Collection[str], *, aliases: Aliases | None = None, examples: Examples = (),
                     game: str = "", private: bool = False, quote: Quote = plain_quote,
                     mark: Quote = str) -> Msg | None:
    """The hint for a line that is surely meant as a move (a prompt has no chat) and starts with no verb:
    ``atack d3 e3`` → "`atack` is not a move. Did you mean `attack`?" with moves legal now; None when the first
    word is a verb (the rules' own error then says what is wrong)."""
    words = text.split()
    if not words or resolve(words[0], verbs, aliases) is not None:
        return None
    guess = closest(words[0], verbs, aliases)
    return reply_msg(words[0], guess, examples, is_move_word=is_evidence(words[0]), game=game, private=private,
                     quote=quote, mark=mark)


def reply_msg(word: str, guess: str | None, examples: Examples, *, is_move_word: bool, game: str, private: bool,
              quote: Quote, mark: Quote) -> Msg:
    """The hint's words: what was wrong with the first word, the verb it probably meant, moves legal now."""
    head = Msg("hints.no_verb") if is_move_word else Msg("hints.unknown_verb", word=quote(word))
    shown = examples() if callable(examples) else examples
    return Msg("hints.reply", head=head, guess=Msg("hints.did_you_mean", verb=guess) if guess else "",
               moves=moves_msg(shown, private, mark=mark), help=Msg("hints.help", game=game) if game else "")


def moves_msg(examples: Iterable[str], private: bool, *, mark: Quote = str) -> Msg | str:
    shown = list(dict.fromkeys(examples))[:MAX_EXAMPLES]
    if not shown:
        return Msg("hints.use_move") if private else ""
    key = "hints.moves_private" if private else "hints.moves_now"
    return Msg(key, moves=mark(", ".join(f"`{m}`" for m in shown)))


def render(msg: Msg, locale: str) -> str:
    """A hint `Msg` as one line in ``locale`` (the parts left out leave no double spaces)."""
    return " ".join(t(msg, locale).split())


def near_miss(text: str, verbs: Collection[str], locale: str, **kwargs: object) -> str | None:
    """`near_miss_msg` rendered in ``locale`` (same keyword arguments)."""
    msg = near_miss_msg(text, verbs, **kwargs)  # type: ignore[arg-type]
    return None if msg is None else render(msg, locale)


def alias_lines(aliases: Aliases, limit: int = 1000) -> str:
    """The aliases for /help: ``atak``, ``atakuj`` → ``attack``; one verb a line, cut at ``limit`` characters."""
    by_verb: dict[str, list[str]] = {}
    for alias, verb in aliases.items():
        by_verb.setdefault(verb, []).append(alias)
    lines = [", ".join(f"`{a}`" for a in names) + f" → `{verb}`" for verb, names in by_verb.items()]
    text = ""
    for line in lines:
        if len(text) + len(line) + 1 > limit:
            break
        text += line + "\n"
    return text.strip()
