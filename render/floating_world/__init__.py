"""Map image and Nightmare image of Floating World (``floating_world``), drawn from a view, never a state.

Rooms: `model` (constants, fixed words, reading a view), `palette` (colours, sizes, the palette), `sprites`,
`layout` (tile and card boxes), `map` (the map image), `nightmare` (the Nightmare image), `cards` (the Dream
cards drawn at a harvest), `words` (captions and counted words, shared with the surfaces).

Public API:
  - `map_image(view, *, locale="en", card_names=None, names=None) -> bytes`: the map to post: a header (turn,
    whose Dream it is or the outcome, Demon Strength, demon tokens left in the supply, the last roll as dice),
    the Lands as square tiles around the Gate, and a panel per Kitsune; `draw_map(...) -> Image` is the palette
    image it encodes and `map_layout(view)` says where things are (tile boxes, card boxes) for tests;
  - `nightmare_image(view, *, locale="en", names=None) -> bytes`: the last Nightmare phase, one row per step,
    every roll as dice faces (demon against target, totals, the result), the spawn dice with the 1s and 2s
    (a demon each) and a roll of all sixes (Demon Strength rises) marked; `draw_nightmare(...)` likewise;
    `step_words(step, view, ...)` is what it says about a step (caption, result badge, what the demon's roll is
    set against), read from the fields the rules emit (``wound``, ``destroyed``, ``defence``), never re-counted;
  - `dice_faces(values, size, *, bg, highlight) -> Image`: a row of d6 faces (RGB), used by both.

``card_names`` maps Dream card ids to display names (the panel lists Items, Legends and Upgrades by name
when given, else counts them); ``names`` are the players' display names by seat (cleaned as `render.kit`
says, "Player N" when unreadable). Seats are 0-based in the view and drawn 1-based.

The map: a night-indigo void; each Land a washi tile with its name (small, cut with an ellipsis; hidden when
tiles are too small to read it); the Gate a gold tile with a torii and a double rim. The map fits the Lands'
bounding box plus one tile of "chaos" on every side; the empty spaces next to a Land (where a Land can be
created) are drawn as faint dotted squares with their coordinates when there is room, and the coordinates run
along the top and left bands (y grows upwards, as in the rules). A Village rims its Land in its owner's colour
and adds a house token with the seat number. Nothing is told by colour alone: Kitsune are fox heads in their
seat's colour with the seat number; demons have a shape per type (Oni a red square, Tengu a green triangle,
Gaki a blue circle) with their initial. Seat colours are the Okabe-Ito orange, sky blue, reddish purple and
yellow of `render.kit` (the red, green and blue belong to the demons), each with its own mark in the panel.
More than six tokens on one Land show five and "+n".

The panel (right of the map, or under it when the map is wide): per Kitsune its fox, name, where it stands,
Body/Mind/Spirit as die icons for the dice and dots for the pips (with the "2D+1" text), Wounds as hearts
(a taken Wound is a hollow heart with a cross) against the maximum, Praise, and the Items, Legends and
Upgrades. The current player's card has a gold bar; a dead Kitsune's card is greyed with a "dead" tag.

Fixed words come from the i18n catalogs under ``render.floating_world.*`` when they exist there, else from
the English and Polish defaults in `DEFAULTS`; Land names from the view's ``name`` per locale. The image is
drawn in RGB from cached tiles and sprites, remapped once onto a fixed palette and encoded as
`render.kit` describes: the same view gives the same bytes. Views are read defensively: missing or
malformed fields are drawn as absent, never a crash.
"""

from __future__ import annotations

from render.floating_world.layout import MapLayout, map_layout
from render.floating_world.map import _outcome_text, _who_acts, draw_map, map_image, pending_cells, token_slots
from render.floating_world.model import DEFAULTS, DEMON_COLOUR, DEMONS, SEAT_COLOURS, coord_text, label, seat_colour
from render.floating_world.nightmare import NM_HEADER, NM_LINE, NM_WIDTH, draw_nightmare, nightmare_image, step_words
from render.floating_world.palette import (
    CHAOS,
    DIE,
    DIE_HI,
    DIE_SIX,
    GATE,
    GOLD,
    HEADER_H,
    HELD,
    LAND,
    NAME_MIN_TILE,
    PAD,
    ROLL_H,
    WOUND,
)
from render.floating_world.sprites import dice_faces

__all__ = [
    "CHAOS",
    "DEFAULTS",
    "DEMONS",
    "DEMON_COLOUR",
    "DIE",
    "DIE_HI",
    "DIE_SIX",
    "GATE",
    "GOLD",
    "HEADER_H",
    "HELD",
    "LAND",
    "NAME_MIN_TILE",
    "NM_HEADER",
    "NM_LINE",
    "NM_WIDTH",
    "PAD",
    "ROLL_H",
    "SEAT_COLOURS",
    "WOUND",
    "MapLayout",
    "_outcome_text",
    "_who_acts",
    "coord_text",
    "dice_faces",
    "draw_map",
    "draw_nightmare",
    "label",
    "map_image",
    "map_layout",
    "nightmare_image",
    "pending_cells",
    "seat_colour",
    "step_words",
    "token_slots",
]
