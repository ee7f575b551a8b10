"""Hints for typed attempted moves in Discord: the one mechanism of the top-level `hints` module (the terminal uses
it too), with Discord's quoting. The word a user typed is shown in a code span (`code`) and the hint's list of
moves is the bot's own text (`Markup`): neither is escaped again when posted. Post a hint with
``cogs.utils.replies.send_ephemeral(message, text)``: a reply that pings no one.

Everything else (``fold``, ``resolve``, ``closest``, ``translate``, ``alias_lines``…) is the shared module's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import hints as shared
from cogs.utils.text import Markup, code
from hints import (
    CELL,
    MAX_EXAMPLES,
    MAX_PHRASE,
    MAX_WORD,
    MIN_TYPO,
    Aliases,
    Examples,
    alias_lines,
    attempted_verb,
    closest,
    fold,
    folded,
    is_evidence,
    phrase_at,
    render,
    replace_phrases,
    resolve,
    tolerance,
    translate,
)
from rules.base import Msg

__all__ = ["CELL", "MAX_EXAMPLES", "MAX_PHRASE", "MAX_WORD", "MIN_TYPO", "Aliases", "Examples", "alias_lines",
           "attempted_verb", "closest", "fold", "folded", "is_evidence", "moves_msg", "near_miss", "near_miss_msg",
           "phrase_at", "render", "replace_phrases", "resolve", "tolerance", "translate"]


def quote(word: str) -> str:
    """The typed word for the template's code span: only a backtick would end it; never escaped again."""
    return Markup(code(word))


def near_miss_msg(text: str, verbs: Collection[str], **kwargs: Any) -> Msg | None:
    """`hints.near_miss_msg` with Discord's quoting (same keyword arguments)."""
    return shared.near_miss_msg(text, verbs, quote=quote, mark=Markup, **kwargs)


def moves_msg(examples: Iterable[str], private: bool) -> Msg | str:
    return shared.moves_msg(examples, private, mark=Markup)


def near_miss(text: str, verbs: Collection[str], locale: str, **kwargs: Any) -> str | None:
    """`near_miss_msg` rendered in ``locale`` (same keyword arguments)."""
    msg = near_miss_msg(text, verbs, **kwargs)
    return None if msg is None else render(msg, locale)
