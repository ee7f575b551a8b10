"""The Floor in Discord: async turns between live duels in the game's thread.

Turns (a challenge, the winner's cells, a field's category, the Final cards) are buttons that open private
select menus, or typed notation (``challenge B2 B3``). A challenge pings the defender; the duel starts when both
sides pressed **Ready** (with a deadline: the absent side loses the duel). In a running duel the letter is a NEW
message addressed to the side to answer (a ping only for its first letter, after the judges or after a silence:
`needs_call`), and its id is the clock's base: an answer typed in the thread is charged
``snowflake(answer) − snowflake(letter message)``, so neither the bot's latency nor Discord's counts against a
player. Every reading goes into the action (``answer 3120 Paris``), so the duel replays exactly. The running
side's clock is also an engine action timer (``timeout`` when it runs out; a grace second covers answers in
flight, which the rules charge by their own timestamps anyway). An answer that is not on the list goes to the
judges (Accept / Reject buttons, the clock stopped, a vote deadline; a referee named in the lobby and, with
nobody neutral seated, the thread's spectators vote with the same buttons as members without a seat, logged
through the engine's `GUEST_SEAT`); an accepted one can be added to the server's own list. Relative timestamps
(``<t:…:R>``) count down in every client without a single edit.
"""

from __future__ import annotations

from cogs.the_floor.basics import (
    BUTTON_STYLES,
    BUTTON_TEMPLATE,
    BUTTONS,
    CATEGORY_LIMIT,
    CELL,
    CLOCK_META,
    DRAFT_META,
    GAME,
    GRACE,
    LEARN_META,
    LETTER_META,
    MARKS,
    MAX_ANSWER,
    MAX_CONTENT,
    MAX_LEARN,
    POSTED_META,
    PRESENT,
    READY_META,
    RESUME_ALLOWANCE,
    SELECT_TEMPLATE,
    SIDE_EMOJI,
    SIDE_EMOJI_BY_SIDE,
    SILENCE,
    VERB_ALIASES,
    VOTE_META,
    answer_text,
    category_text,
    move_word,
    relative,
    seconds,
    sex_marker,
    shaped,
    side_colour,
    stamp_ms,
)
from cogs.the_floor.cog import (
    TheFloor,
    setup,
    teardown,
)
from cogs.the_floor.components import (
    ITEMS,
    TheFloorButton,
    TheFloorSelect,
)
from cogs.the_floor.draft import DraftPosting
from cogs.the_floor.prompts import DuelPrompts
from cogs.the_floor.surface import TheFloorSurface

__all__ = [
    "BUTTONS",
    "BUTTON_STYLES",
    "BUTTON_TEMPLATE",
    "CATEGORY_LIMIT",
    "CELL",
    "CLOCK_META",
    "DRAFT_META",
    "GAME",
    "GRACE",
    "ITEMS",
    "LEARN_META",
    "LETTER_META",
    "MARKS",
    "MAX_ANSWER",
    "MAX_CONTENT",
    "MAX_LEARN",
    "POSTED_META",
    "PRESENT",
    "READY_META",
    "RESUME_ALLOWANCE",
    "SELECT_TEMPLATE",
    "SIDE_EMOJI",
    "SIDE_EMOJI_BY_SIDE",
    "SILENCE",
    "VERB_ALIASES",
    "VOTE_META",
    "DraftPosting",
    "DuelPrompts",
    "TheFloor",
    "TheFloorButton",
    "TheFloorSelect",
    "TheFloorSurface",
    "answer_text",
    "category_text",
    "move_word",
    "relative",
    "seconds",
    "setup",
    "sex_marker",
    "shaped",
    "side_colour",
    "stamp_ms",
    "teardown",
]
