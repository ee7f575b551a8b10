"""The renderer registry (render/registry.py): every game has one entry with the same interface (issue 24: the
surfaces found a renderer by importing ``render.<game>`` and probing its signature for ``moves``)."""

from __future__ import annotations

import rules
from render import floating_floors as ff
from render import flying_blades, the_floor
from render.registry import RENDERERS, renderer
from tests import views_flying_blades as fbv
from tests.pngs import png_image


def test_every_game_has_exactly_one_renderer_entry() -> None:
    assert sorted(RENDERERS) == sorted(rules.GAMES)
    assert all(RENDERERS[g].game == g for g in RENDERERS)
    assert renderer("no_such_game") is None


def test_games_without_one_public_board_say_so() -> None:
    """Floor Plan posts a round summary and private sheets, Floating World its map and Nightmare: no generic board."""
    for game in ("floor_plan", "floating_world"):
        entry = RENDERERS[game]
        assert not entry.has_board
        assert entry.board({}, names=None, locale="en") is None


def test_a_board_is_the_games_own_image_and_only_flying_blades_marks_a_run() -> None:
    assert [g for g, r in RENDERERS.items() if r.marks_moves] == ["flying_blades"]
    view, moves = fbv.make_view(3), fbv.sample_last_moves(3)
    blades = RENDERERS["flying_blades"]
    assert blades.board(view, names=None, locale="en") == flying_blades.render(view)
    assert blades.board(view, names=None, locale="en", moves=moves) == flying_blades.render(view, moves=moves)
    assert RENDERERS["the_floor"].has_board and RENDERERS["floating_floors"].has_board
    assert RENDERERS["floating_floors"].board({}, names=None, locale="en") == ff.render({})
    png_image(RENDERERS["the_floor"].board({}, names=None, locale="en") or b"")
    assert RENDERERS["the_floor"].text_board({}, names=None, locale="en") == the_floor.text_board({})
