"""One renderer per game id (`RENDERERS`, `renderer(game)`): the surfaces draw a board through it, never by probing.

Every entry answers the same `Renderer` Protocol. ``board`` is the one public board image a surface posts after a
move (None for a game without one: Floor Plan posts a round summary and private sheets, Floating World its map and
Nightmare images, both from their own surfaces); ``text_board`` is the plain-text board a terminal prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from render import floating_floors as floating_floors_draw
from render import flying_blades, the_floor
from render.floating_floors import words as floating_floors_words
from render.floating_world import words as floating_world_words
from render.floor_plan import text as floor_plan_text

View = dict[str, Any]
Names = list[str] | None


class Renderer(Protocol):
    """What a surface may ask of a game's drawing code."""

    game: str
    has_board: bool  # False: ``board`` always answers None (the game posts its own images)
    marks_moves: bool  # True: ``board`` marks a run of moves (``moves``, oldest first)

    def board(self, view: View, *, names: Names, locale: str,
              moves: list[dict[str, Any]] | None = None) -> bytes | None: ...

    def text_board(self, view: View, *, names: Names, locale: str) -> str: ...


@dataclass(frozen=True)
class GameRenderer:
    """A `Renderer` over a game's modules: ``words.text_board`` prints the text board, ``images.render`` (None: no
    public board) draws the PNG. Both are looked up on each call, so a test or a tool may replace them."""

    game: str
    words: ModuleType
    images: ModuleType | None = None
    marks_moves: bool = False

    @property
    def has_board(self) -> bool:
        return self.images is not None

    def board(self, view: View, *, names: Names, locale: str,
              moves: list[dict[str, Any]] | None = None) -> bytes | None:
        if self.images is None:
            return None
        if moves and self.marks_moves:
            return self.images.render(view, names=names, locale=locale, moves=moves)
        return self.images.render(view, names=names, locale=locale)

    def text_board(self, view: View, *, names: Names, locale: str) -> str:
        return self.words.text_board(view, names=names, locale=locale)


RENDERERS: dict[str, Renderer] = {
    r.game: r
    for r in (
        GameRenderer("flying_blades", flying_blades, flying_blades, marks_moves=True),
        GameRenderer("the_floor", the_floor, the_floor),
        # No single public board: a round's summary and each player's sheet (render.floor_plan), posted by its surface.
        GameRenderer("floor_plan", floor_plan_text),
        # No generic board: its surface posts the map and the Nightmare (render.floating_world.map_image, ...).
        GameRenderer("floating_world", floating_world_words),
        GameRenderer("floating_floors", floating_floors_words, floating_floors_draw),
    )
}


def renderer(game: str) -> Renderer | None:
    """The game's renderer; None for an unknown id."""
    return RENDERERS.get(game)


__all__ = ["RENDERERS", "GameRenderer", "Renderer", "renderer"]
