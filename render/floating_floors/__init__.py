"""Top view of Floating Floors (``floating_floors``), drawn from a view (a plain dict), never from a state.

Rooms: `model` (constants, fixed words, reading a view), `palette` (colours, sizes, the palette), `sprites`,
`layout` (pixel boxes), `panel` (header and seat panel), `board` (map, physics overlay, `board_image`, `render`),
`preview` (one card, for "what if" replies), `words` (captions and the text board, shared with the surfaces).

Public API:
  - `board_image(view, *, locale="en", names=None, physics=True) -> bytes`: the image to post; `draw_board(...)`
    is the palette ('P') image it encodes. ``names`` are the players' display names by seat (cleaned as
    `render.kit` says, "Player N" when unreadable); ``physics=False`` hides the statics overlay (an option);
  - `preview_image(view, board_index, *, locale="en") -> bytes`: one card (3×3 spaces) with its board and its
    overlay, cropped from the full image, with a caption (stable or not, the margin): for "what if" replies;
  - `layout(view) -> dict`: where things are drawn, as pixel boxes ``(left, top, right, bottom)``: ``spaces`` by
    name (``"a1"``), ``cards`` and ``alcoves`` by index, ``seats`` (panel cards) by seat, plus ``map`` (the
    cards' area), ``frame``, ``header``, ``panel`` and ``scale`` (pixels per space). Used by the tests.

Coordinates: map spaces are (col, row) from the top-left, a space's centre is (col + 0.5, row + 0.5), y grows
down; spaces are named letter + number (``a1`` top-left). Card i covers cols 3·(i % card_cols)… and rows
3·(i // card_cols)…; cards are drawn with a thin gap, so a point is placed with the offset of the card it lies in
(a board's polygon and centre with its own card's offset).

Drawing decisions:
- The map lies in a dark wooden frame; the frame holds the alcoves (recessed notches next to their space), the
  coordinate bands (a…i, 1…9) run outside it. Land is a flat soft green, water blue with a wave mark (never
  colour alone).
- A board is a sprite over its card with a drop shadow: light spaces cream, shadow spaces charcoal, a wood rim.
  An unstable board (``stable`` False) gets a red dashed rim and a "!" warning tag, with or without the overlay.
- Jutsu are their true footprints (square 0.5, triangle 0.6 pointing up, hexagon 0.52 across flats, flat top)
  in black or white with an outline of the other tone; a support under a board is a dashed ghost outline with a
  dot of its colour, so the supports stay readable through the board.
- Ninjas are meeple silhouettes (white = light, near-black = shadow) on a disc of their seat's colour with the
  seat number as a badge; the current player's ninja has a gold halo. A Chakra is its seat's disc with the
  seat's mark; a Bansen a parchment seal ringed in its owner's colour with the owner's mark, a curved arrow
  (clockwise or counter-clockwise) and its number when known.
- Physics overlay: per board the support polygon (translucent fill and outline: solid when stable, dashed when
  not; a 1-point hull is a dot, 2 points a line), the centre of mass (a ringed cross when stable, an × when not)
  and the margin as a pill on the board's bottom rim ("+0.21", "! −0.08"): green-ish when stable, red when not.
- Seat colours are the Okabe-Ito orange, sky blue, reddish purple and yellow of `render.kit` (green and red
  belong to the overlay), each with its own mark. The side panel (right of the map) has per seat the ninja,
  name, Bansen claimed against needed (seal icons), the Jutsu in hand; then the pool and the last event.

Fixed words come from the i18n catalogs under ``render.floating_floors.*`` when they exist there, else from
`DEFAULTS`. The image is a scene (`render.kit.scene`): the game's static map (frame, notches, terrain: once a deal)
and drawing steps over it in order, each with the box it may change, so a preview draws only the steps that meet
its card. It is drawn in RGB (cached sprites, supersampled at `kit.SUPERSAMPLE`), remapped once onto a fixed
palette and encoded as `render.kit` describes: the same view gives the same bytes. Views are read defensively:
missing or malformed fields are drawn as absent, never a crash.
"""

from __future__ import annotations

from render.floating_floors.board import board_image, draw_board, render
from render.floating_floors.layout import layout
from render.floating_floors.model import (
    DEFAULTS,
    KEY,
    KINDS,
    NINJA_COLOUR,
    kind_parts,
    label,
    margin_text,
    read,
    seat_colour,
    space_name,
)
from render.floating_floors.palette import (
    BAD,
    DIE,
    GHOST,
    GOLD,
    INK,
    J_BLACK,
    J_BLACK_EDGE,
    J_WHITE,
    J_WHITE_EDGE,
    LAND,
    LIGHT,
    N_LIGHT,
    N_SHADOW,
    OK,
    SHADOW,
)
from render.floating_floors.panel import card_name
from render.floating_floors.preview import draw_preview, preview_image

__all__ = [
    "BAD",
    "DEFAULTS",
    "DIE",
    "GHOST",
    "GOLD",
    "INK",
    "J_BLACK",
    "J_BLACK_EDGE",
    "J_WHITE",
    "J_WHITE_EDGE",
    "KEY",
    "KINDS",
    "LAND",
    "LIGHT",
    "NINJA_COLOUR",
    "N_LIGHT",
    "N_SHADOW",
    "OK",
    "SHADOW",
    "board_image",
    "card_name",
    "draw_board",
    "draw_preview",
    "kind_parts",
    "label",
    "layout",
    "margin_text",
    "preview_image",
    "read",
    "render",
    "seat_colour",
    "space_name",
]
