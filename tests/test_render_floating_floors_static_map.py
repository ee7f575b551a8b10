"""Floating Floors' cached map background (`render.floating_floors.board._static_map`, issue 25's memory row): each
render worker keeps up to 16 of them, one per running deal; as RGB (4 bytes a pixel) that was 66 MB a worker. It is
kept as a palette image of its own colours, and the board drawn on it must not change by a single pixel."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from engine.core import new_game_options
from render import floating_floors as ff
from render.floating_floors import board
from rules.floating_floors.game import FloatingFloors

RULES = FloatingFloors()


def _views(players: int, seed: str, steps: int = 12) -> list[dict]:
    state = RULES.new(players, new_game_options(RULES, {}), seed)
    out = [RULES.view(state, None)]
    for _ in range(steps):
        state, _ = RULES.apply(state, state.current, RULES.bot_action(state, state.current))
        out.append(RULES.view(state, None))
    return out


def _static_of(view: dict) -> Image.Image:
    board._static_map.cache_clear()
    ff.draw_board(view)
    assert board._static_map.cache_info().currsize == 1
    m = board.read(view)
    lay = board._layout(view, m, None)
    return board._static_map(lay, tuple(sorted(m.cards.items())),
                             tuple((tuple(a["space"]), a["side"]) for a in m.alcoves))


@pytest.mark.parametrize("players", [2, 4])
def test_cached_map_background_takes_one_byte_a_pixel_not_four(players: int) -> None:
    """The fault: a cached background held a 4.1 MB RGB image, 16 of them per render worker."""
    img = _static_of(_views(players, f"static-{players}", steps=0)[0])
    assert img.mode == "P"
    assert len(img.tobytes()) == img.width * img.height


@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_drawn_on_the_paletted_background_is_byte_identical(players: int, monkeypatch) -> None:
    """Same view, same bytes, whether the background was kept as a palette image or as RGB."""
    views = _views(players, f"same-{players}")[::4]
    board._static_map.cache_clear()
    paletted = [ff.board_image(v, physics=physics) for v in views for physics in (True, False)]
    monkeypatch.setattr(board, "lossless_palette", lambda img: img)
    board._static_map.cache_clear()
    as_rgb = [ff.board_image(v, physics=physics) for v in views for physics in (True, False)]
    board._static_map.cache_clear()
    assert paletted == as_rgb


def test_background_with_more_than_256_colours_stays_rgb() -> None:
    """A palette cannot hold it without changing pixels: kept as it was drawn."""
    img = Image.new("RGB", (40, 40))
    d = ImageDraw.Draw(img)
    for i in range(40 * 40):
        d.point((i % 40, i // 40), fill=(i % 256, i // 256, 7))
    assert board.lossless_palette(img) is img


def test_paletted_background_has_exactly_the_drawn_pixels() -> None:
    img = Image.new("RGB", (64, 64), (10, 20, 30))
    d = ImageDraw.Draw(img)
    for i in range(250):  # near neighbours: a palette's colour cache would merge some of them
        d.point((i % 64, i // 64), fill=(100 + i % 5, 100 + i // 5 % 5, 100 + i // 25))
    out = board.lossless_palette(img)
    assert out.mode == "P"
    assert out.convert("RGB").tobytes() == img.tobytes()
