"""Tournament images: the standings table and the elimination bracket, drawn from plain data, never a state.

Public API:
  - `standings_image(data, *, locale="en") -> bytes`: the standings after a round (rank, name, points, record,
    tie-break columns), one row per entrant; `draw_standings(...) -> Image` is the palette image it encodes;
  - `bracket_image(data, *, locale="en") -> bytes`: a left-to-right elimination bracket, one section per
    bracket (winners, losers, grand final) stacked vertically; `draw_bracket(...) -> Image` likewise;
  - `standings_layout(data)` and `bracket_layout(data)`: where things are drawn (row and slot boxes), for tests
    and for anyone who wants to crop.

Data shapes (plain dicts, lists, strings and numbers; every key optional):
  standings: ``{"title", "subtitle", "footer": str, "columns": [str], "rows": [{"rank": int, "name": str,
  "points": float, "tiebreaks": [float], "record": str, "dropped": bool, "highlight": bool,
  "provisional": bool, "half_byes": int}]}`` (``half_byes``: requested half-point byes taken, each marked ½ after
  the record and explained under the table);
  bracket: ``{"title": str, "sections": [{"title": str, "rounds": [{"title": str, "matches": [{"label": str,
  "players": [str | None, str | None], "seeds": [int | None, int | None], "winner": 0 | 1 | None,
  "bye": bool}]}]}]}``.

The standings are one column of rows, the image growing taller (64 rows: ~2,500 px) rather than wrapping into
two columns: the table reads top to bottom in rank order, and a phone opens a tall image fit to its width when
zoomed, where a 2,000 px wide two-column table would be drawn at half the scale. Rows alternate two shades; the
highlighted row (the viewer, say) has a lighter fill, an accent bar and white text; a dropped entrant is drawn
in grey with a "dropped" tag, provisional points carry an asterisk explained under the table. Nothing is told
by colour alone.

In the bracket, match k of a round feeds match k // 2 of the next when the next round has half as many matches
(an elbow connector into the slot it fills); otherwise the next round is only aligned with it. A winner's slot
is filled blue with white bold text and a check mark, a loser's is dark with grey text; an empty slot shows "—"
and a bye "bye". Box and text sizes shrink with the field (a first-round match from ~110 px tall down to ~73 px,
label included) and stop there: a 64-player bracket is ~2,500 px tall rather than unreadable.

User text (titles, names) is cleaned as `render.kit` describes (no control or bidi characters, no glyphs
the fonts lack) and cut with an ellipsis to fit. Fixed words come from the i18n catalogs under
``render.league.*`` when they exist there, else from the English and Polish defaults in `DEFAULTS`. Numbers
are written with the locale's decimal sign and no trailing zeros (2.5, 3; 2,5 in Polish). Everything is drawn
in RGB, remapped once onto a fixed palette and encoded as `render.kit` describes: the same data gives the
same bytes.
"""

from __future__ import annotations

from render.league.base import (
    ACCENT,
    ADV,
    BG,
    BORDER,
    BYE,
    DASH,
    DEFAULTS,
    DIM,
    GOLD,
    GREY,
    HALF,
    HILITE,
    KEY,
    LINE,
    LOSE,
    LOSE_SEED,
    MAX_COLUMNS,
    MAX_MATCHES,
    MAX_ROUNDS,
    MAX_ROWS,
    MAX_SECTIONS,
    OPEN,
    OPEN_SEED,
    PAD,
    PANEL,
    SLOT_FILL,
    STRIPE,
    TEXT,
    WHITE,
    WIN,
    WIN_SEED,
    _name,
    label,
    number,
    palette,
    tame,
)
from render.league.bracket import (
    BR_TITLE_H,
    BRACKET_TARGET_H,
    EMPTY_H,
    LEVELS,
    ROUND_TITLE_H,
    SEC_GAP,
    SEC_TITLE_H,
    BracketLayout,
    BracketMetrics,
    MatchBox,
    SectionLayout,
    box_sprite,
    bracket_image,
    bracket_layout,
    draw_bracket,
)
from render.league.crosstable import (
    CELL_PAD,
    CELL_SIZE,
    CROSS_NAME_MIN,
    MAX_CROSS_ROUNDS,
    CrosstableLayout,
    cell_text,
    crosstable_image,
    crosstable_layout,
    draw_crosstable,
)
from render.league.standings import (
    COL_PAD,
    FOOT_LINE,
    FOOT_SIZE,
    HEAD_H,
    HEAD_SIZE,
    NAME_MIN,
    RANK_W,
    ROW_H,
    ROW_SIZE,
    ST_MAX_WIDTH,
    ST_WIDTH,
    SUBTITLE,
    TAG_SIZE,
    TITLE,
    Column,
    StandingsLayout,
    _record,
    draw_standings,
    standings_image,
    standings_layout,
)

__all__ = [
    "ACCENT",
    "ADV",
    "BG",
    "BORDER",
    "BRACKET_TARGET_H",
    "BR_TITLE_H",
    "BYE",
    "CELL_PAD",
    "CELL_SIZE",
    "COL_PAD",
    "CROSS_NAME_MIN",
    "DASH",
    "DEFAULTS",
    "DIM",
    "EMPTY_H",
    "FOOT_LINE",
    "FOOT_SIZE",
    "GOLD",
    "GREY",
    "HALF",
    "HEAD_H",
    "HEAD_SIZE",
    "HILITE",
    "KEY",
    "LEVELS",
    "LINE",
    "LOSE",
    "LOSE_SEED",
    "MAX_COLUMNS",
    "MAX_CROSS_ROUNDS",
    "MAX_MATCHES",
    "MAX_ROUNDS",
    "MAX_ROWS",
    "MAX_SECTIONS",
    "NAME_MIN",
    "OPEN",
    "OPEN_SEED",
    "PAD",
    "PANEL",
    "RANK_W",
    "ROUND_TITLE_H",
    "ROW_H",
    "ROW_SIZE",
    "SEC_GAP",
    "SEC_TITLE_H",
    "SLOT_FILL",
    "STRIPE",
    "ST_MAX_WIDTH",
    "ST_WIDTH",
    "SUBTITLE",
    "TAG_SIZE",
    "TEXT",
    "TITLE",
    "WHITE",
    "WIN",
    "WIN_SEED",
    "BracketLayout",
    "BracketMetrics",
    "Column",
    "CrosstableLayout",
    "MatchBox",
    "SectionLayout",
    "StandingsLayout",
    "_name",
    "_record",
    "box_sprite",
    "bracket_image",
    "bracket_layout",
    "cell_text",
    "crosstable_image",
    "crosstable_layout",
    "draw_bracket",
    "draw_crosstable",
    "draw_standings",
    "label",
    "number",
    "palette",
    "standings_image",
    "standings_layout",
    "tame",
]
