"""Floating Floors' floorboard sprite (`render.floating_floors.sprites.board_sprite`, issue 25): drawn from a blank
board kept per size, its cells filled and only the square around them reduced. It must give the very pixels of
the board drawn whole and reduced, as it was drawn before, at every scale the map uses."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

from render.floating_floors import sprites
from render.floating_floors.palette import LIGHT, SCALE_MAX, SCALE_MIN, SHADOW, SS, WOOD

# Every cell in each fill, and neighbours of every kind side by side ('?': a cell not known, in the wood's colour).
PATTERNS = ("LLLLLLLLL", "SSSSSSSSS", "?????????", "LS?SL?S?L", "?LSL?SSL?")


def board_drawn_whole(pattern: str, unit: int, unstable: bool) -> tuple[Image.Image, int]:
    """The board as it was drawn before: all of it at SS (wood, cells, then the dash), then reduced whole."""
    g = sprites._board_geometry(unit)
    img = Image.new("RGBA", (g.big, g.big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    sprites._draw_wood(d, g)
    for i, ch in enumerate(pattern):
        d.rectangle(g.cell(i), fill=(*{"L": LIGHT, "S": SHADOW}.get(ch, WOOD), 255))
    if unstable:
        sprites._draw_unstable_dash(d, g)
    return img.reduce(SS), g.pad


@pytest.mark.parametrize("unstable", [False, True])
def test_a_board_from_its_blank_and_its_cells_is_the_board_drawn_whole_at_every_scale(unstable: bool) -> None:
    for unit in range(SCALE_MIN, SCALE_MAX + 1):
        for pattern in PATTERNS:
            tile, pad = sprites.board_sprite(pattern, unit, unstable)
            whole, whole_pad = board_drawn_whole(pattern, unit, unstable)
            assert (pad, tile.mode, tile.size) == (whole_pad, whole.mode, whole.size)
            assert tile.tobytes() == whole.tobytes(), (unit, pattern, unstable)
    assert sprites._blank_board.cache_info().currsize <= sprites._blank_board.cache_info().maxsize


def test_each_cell_takes_its_own_colour_and_no_other_cells() -> None:
    """The check above would pass if no cell were drawn at all on both sides: each cell must show its fill."""
    unit = 40
    plain, _ = sprites.board_sprite("?????????", unit, False)
    for i in range(9):
        one = "?" * i + "L" + "?" * (8 - i)
        tile, _ = sprites.board_sprite(one, unit, False)
        changed = ImageChops.difference(tile, plain).getbbox(alpha_only=False)  # (RGBA: not the alpha alone)
        assert changed is not None
        third = tile.width / 3
        centre = ((changed[0] + changed[2]) / 2, (changed[1] + changed[3]) / 2)
        assert (int(centre[0] // third), int(centre[1] // third)) == (i % 3, i // 3)
        assert tile.getpixel((round(centre[0]), round(centre[1])))[:3] == LIGHT


