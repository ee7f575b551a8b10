"""Text that users supply (names, categories, answers, typed moves), made safe to post or to draw.

`clean` is for anywhere text is shown without markdown (images, button labels, select options, thread
names): it drops control and format characters (bidirectional overrides, zero-width characters), collapses
whitespace and clips to a length. `safe` is `clean` for message content and embeds: every character Discord
reads as markdown, a mention, a masked link or a link is escaped with a backslash, so that the text shows as
typed but never formats, pings or links. Text the bot writes itself (``<@id>`` mentions, code spans) is
`Markup` and is never escaped again.
"""

from __future__ import annotations

import re

from i18n.text import BIDI, BOT_MARK, ELLIPSIS, NAME_LIMIT, ZERO_WIDTH, clean, clip, seat_names, skeleton, visible

EXCERPT_LIMIT = 40  # what an error reply quotes of what a user typed
# The pure part (cleaning, clipping, seat names) lives in i18n.text, below every layer; the surface imports it here.
__all__ = ["BIDI", "BOT_MARK", "ELLIPSIS", "EXCERPT_LIMIT", "NAME_LIMIT", "ZERO_WIDTH", "Markup", "clean", "clip",
           "code", "escape", "excerpt", "mention", "safe", "safe_name", "seat_names", "skeleton", "visible"]

# Markdown, mentions (<@id>, <#id>, <@&id>, @everyone, @here), masked links ([x](url)), block quotes, headers,
# spoilers; ":" before "//" so that no URL is recognised (a link in a name is a link however it is escaped).
_SPECIAL = re.compile(r"[\\*_~|`\[\]<>@#]|:(?=//)|^[-+]")
_CODE_TICK = "\u02cb"  # a backtick lookalike: a real one would close the code span


class Markup(str):
    """Text the bot made (a mention, a code span, a list of its own words): posted as it is, never escaped."""


def mention(user_id: int) -> Markup:
    """A deliberate user mention (it pings only if the message's allowed_mentions names the user)."""
    return Markup(f"<@{user_id}>")


def escape(text: str) -> str:
    """Every markdown, mention and link character of ``text`` escaped with a backslash (shown, never active).
    Discord hides a backslash before any ASCII punctuation, so the text reads exactly as typed."""
    return _SPECIAL.sub(lambda m: "\\" + m.group(0), text)


def safe(text: str | None, limit: int) -> str:
    """`clean` then `escape`: user text for message content and embeds. ``limit`` counts the characters shown
    (the backslashes added can double the length sent)."""
    return escape(clean(text, limit))


def excerpt(text: str | None, limit: int = EXCERPT_LIMIT) -> str:
    """A short quote of what a user typed, for an error reply (never the whole of a long input)."""
    return safe(text, limit) or "\u2014"


def code(text: str | None, limit: int = EXCERPT_LIMIT) -> str:
    """User text for inside a template's code span (`` `{x}` ``): nothing is markdown there, so only a
    backtick, which would end the span, is replaced."""
    return clean(text, limit).replace("`", _CODE_TICK) or "\u2014"


def safe_name(text: str | None, limit: int = NAME_LIMIT) -> str:
    """A player's or a category's name for message content: `safe`, or "?" when nothing visible is left."""
    return safe(text, limit) or "?"
