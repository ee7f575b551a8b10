"""The Floor cog's constants (buttons, marks, timings, limits) and small text helpers (answers, clocks, typed moves)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

import discord

from cogs.utils.text import safe, safe_name
from engine import Table
from i18n import t
from render.the_floor import SIDE_COLOURS
from rules.the_floor.words import (  # what players type in their language: the terminal reads it too
    VERB_ALIAS,
)

GAME = "the_floor"
SIDE_EMOJI = {"orange": "🟧", "blue": "🟦", "green": "🟩", "purple": "🟪", "yellow": "🟨"}
SIDE_EMOJI_BY_SIDE = tuple(SIDE_EMOJI[c] for c in SIDE_COLOURS)  # the renderer's colours, side by side
MARKS = {"accepted": "✅", "trusted": "☑️", "judged": "⚖️✅", "rejected": "❌", "pass": "⏭️"}
BUTTONS = ("ready", "pass", "dispute", "accept", "reject", "pick", "challenge", "choose", "suggest", "learn")
BUTTON_TEMPLATE = rf"{GAME}:(?P<action>{'|'.join(BUTTONS)}):(?P<table>[0-9]+):(?P<version>[0-9]+)"
SELECT_TEMPLATE = (rf"{GAME}:sel:(?P<kind>pick|challenge|take|keep):(?P<table>[0-9]+):(?P<version>[0-9]+)"
                   r":(?P<part>[0-9])")
BUTTON_STYLES = {"ready": discord.ButtonStyle.success, "accept": discord.ButtonStyle.success,
                 "reject": discord.ButtonStyle.danger, "dispute": discord.ButtonStyle.danger,
                 "challenge": discord.ButtonStyle.primary, "choose": discord.ButtonStyle.primary,
                 "pick": discord.ButtonStyle.primary}
GRACE = timedelta(seconds=1.5)  # answers in flight when a clock runs out are charged by their own timestamps
RESUME_ALLOWANCE = timedelta(seconds=90)  # after a restart, a running clock waits for the bot to reconnect
MAX_ANSWER = 100
CATEGORY_LIMIT = 40  # a server category's longest name (`engine.floor_content.MAX_NAME`)
MAX_CONTENT = 2000
CLOCK_META, READY_META, LEARN_META, POSTED_META = "tf_clock", "tf_ready_due", "tf_learn", "tf_posted"
DRAFT_META, LETTER_META = "tf_draft", "tf_letter_at"
VOTE_META = "tf_vote"  # {key, due}: the vote deadline of the answer under judgment, fixed when it went to the judges
MAX_LEARN = 20
SILENCE = timedelta(seconds=60)  # a duellist not called for this long may have looked away: the letter pings
PRESENT = timedelta(seconds=60)  # a player who picked this recently still watches the draft: no ping


def category_text(name: str) -> str:
    """A category's name in a message: a server's own categories are named by its members."""
    return safe_name(name, CATEGORY_LIMIT)


def sex_marker(table: Table, cid: str) -> str:
    """`` (women)`` / `` (men)`` after a category for women or men only (flags K / M), in the game's language like
    the category's name itself; "" for any other."""
    s = table.state
    sex = table.rules.category_sex(s, cid) if s is not None else ""
    return " " + t(f"tfui.sex.{sex}", s.lang) if sex else ""


def answer_text(answer: str) -> str:
    """An answer typed in a duel, shown back (escaped: ``**@everyone**`` is shown, never formatted)."""
    return safe(answer, MAX_ANSWER) or "?"


def side_colour(side: int, locale: str) -> str:
    return t(f"tfui.colour.{SIDE_COLOURS[side]}", locale)


def stamp_ms(snowflake: int) -> int:
    """Discord's own time of a message or interaction (ms since the epoch), from its id."""
    return int(discord.utils.snowflake_time(snowflake).timestamp() * 1000)


def seconds(ms: int) -> str:
    return f"{ms / 1000:.1f}"


def relative(when: datetime) -> str:
    """A timestamp every Discord client shows as a live countdown ("in 42 seconds")."""
    return f"<t:{int(when.timestamp())}:R>"


VERB_ALIASES = VERB_ALIAS
CELL = re.compile(r"[a-e][1-5]", re.IGNORECASE)


def shaped(verb: str, args: list[str], names: Callable[[str], bool] | None = None) -> bool:
    """Whether the words after a turn verb have its arguments' shape: two cells, cells, nothing, or a category:
    one word (an id or a name), or several when ``names`` says they name one (a category's name as shown:
    ``keep Star Wars characters``); without ``names`` (``/move``) any words, which the rules read."""
    if verb == "ready":
        return not args
    if verb == "challenge":
        return len(args) == 2 and all(CELL.fullmatch(a) for a in args)
    if verb == "take":
        return bool(args) and all(move_word(a) for a in args)
    if len(args) <= 1 or names is None:
        return bool(args)
    return names(" ".join(args))


def move_word(token: str) -> bool:
    """A word a typed turn's arguments are made of: a cell, or cells joined by commas (``take B3,B4``)."""
    cells = [c for c in token.split(",") if c]
    return bool(cells) and all(CELL.fullmatch(c) for c in cells)
