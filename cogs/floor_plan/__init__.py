"""Floor Plan in Discord: private moves with a preview, one public summary per round.

Every player acts privately each round: ``/move <action>`` answers with an ephemeral preview of the player's
own blueprint, the placement highlighted, and **Confirm** / **Cancel** buttons. Only Confirm plays the move
(``engine.act`` with the interaction id, so a redelivered click is applied once). Typed moves in the game's
thread (and ``!move``) are refused with a hint: typed in public they would show the move to everyone; a mistyped
one gets a hint with a move legal now (`cogs.utils.hints`). Polish verbs (`ALIASES`, `rules.floor_plan.words`)
work typed, with /move and in the terminal.

The pending preview text lives in memory (``FloorPlan.previews``, one per player and table); the button's
custom_id carries the table, the user, the table version and a short hash of the text. A preview made before
a restart, or replaced by a newer one, answers "make the move again". A Confirm made while others played
(the version moved on) still counts when the round and the player's own work this round are unchanged; after
the round closed it is refused as stale.

Nothing is posted when one player acts (the status message's phase line counts who has acted, throttled).
When a round closes ONE public message says what happened: the roll, who claimed what, a scoreboard (top
`TOP` and "and K more") and the summary image (thumbnails for up to 6 players, else a leaderboard), and it
pings the humans who are to act in the next round (mentions in chunks under Discord's 2,000 characters, at
most `MAX_PING_POSTS` messages). ``/sheet [player]`` and the **My sheet** button show a blueprint privately.
"""

from __future__ import annotations

from cogs.floor_plan.basics import (
    ARGUMENT,
    GAME,
    MAX_CLAIM_LINES,
    MAX_DESCRIPTION,
    MAX_PING_POSTS,
    MAX_SUMMARIES,
    MENTION,
    PICK_TEMPLATE,
    PREVIEW_TEMPLATE,
    SUGGESTIONS,
    TABLE_TEMPLATE,
    TOP,
    TYPED_VERBS,
    Preview,
    capped,
    demand_line,
    is_argument,
    mention_chunks,
    move_shaped,
    preview_key,
    roll_text,
    start_example,
    with_legal_start,
)
from cogs.floor_plan.cog import (
    FloorPlan,
    setup,
    teardown,
)
from cogs.floor_plan.components import (
    ITEMS,
    PickButton,
    PreviewButton,
    TableButton,
    find_seat,
    plan_lines,
    simulate,
    suggestions,
    table_items,
)
from cogs.floor_plan.posts import (
    RoundPost,
    claim_lines,
    final_embed,
    png_file,
    post_kwargs,
    round_embed,
    round_posts,
    scoreboard,
    scores_of,
    sheet_png,
    sheet_text,
    summary_png,
    summary_view,
)
from cogs.floor_plan.surface import FloorPlanSurface
from rules.floor_plan.words import (  # typed words: importable from the cog
    ALIASES,
    VERB_ALIAS,
    WORD_ALIAS,
    WORD_ALIASES,
    canonical_text,
)

__all__ = [
    "ALIASES",
    "ARGUMENT",
    "GAME",
    "ITEMS",
    "MAX_CLAIM_LINES",
    "MAX_DESCRIPTION",
    "MAX_PING_POSTS",
    "MAX_SUMMARIES",
    "MENTION",
    "PICK_TEMPLATE",
    "PREVIEW_TEMPLATE",
    "SUGGESTIONS",
    "TABLE_TEMPLATE",
    "TOP",
    "TYPED_VERBS",
    "VERB_ALIAS",
    "WORD_ALIAS",
    "WORD_ALIASES",
    "FloorPlan",
    "FloorPlanSurface",
    "PickButton",
    "Preview",
    "PreviewButton",
    "RoundPost",
    "TableButton",
    "canonical_text",
    "capped",
    "claim_lines",
    "demand_line",
    "final_embed",
    "find_seat",
    "is_argument",
    "mention_chunks",
    "move_shaped",
    "plan_lines",
    "png_file",
    "post_kwargs",
    "preview_key",
    "roll_text",
    "round_embed",
    "round_posts",
    "scoreboard",
    "scores_of",
    "setup",
    "sheet_png",
    "sheet_text",
    "simulate",
    "start_example",
    "suggestions",
    "summary_png",
    "summary_view",
    "table_items",
    "teardown",
    "with_legal_start",
]
