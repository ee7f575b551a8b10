"""Floating Floors' floorboard sprite (`render.floating_floors.sprites.board_sprite`, issue 25): drawn from a blank
board kept per size, its cells filled and only the square around them reduced. It must give the very pixels of
the board drawn whole and reduced, as it was drawn before, at every scale the map uses."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

from render.floating_floors import sprites
from render.floating_floors.palette import BAD, LIGHT, SCALE_MAX, SCALE_MIN, SHADOW, SS, WOOD, WOOD_DARK

# Every cell in each fill, and neighbours of every kind side by side ('?': a cell not known, in the wood's colour).
PATTERNS = ("LLLLLLLLL", "SSSSSSSSS", "?????????", "LS?SL?S?L", "?LSL?SSL?")


def board_drawn_whole(pattern: str, unit: int, unstable: bool) -> tuple[Image.Image, int]:
    """The board as it was drawn before: all of it at SS, cells and dash included, then reduced."""
    size = unit * 3
    pad = max(4, round(unit * 0.14))
    big, p = (size + 2 * pad) * SS, pad * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = size * SS
    off = round(unit * 0.09) * SS
    d.rounded_rectangle((p + off, p + off, p + s + off, p + s + off), radius=s * 0.03, fill=(0, 0, 0, 110))
    d.rounded_rectangle((p, p, p + s, p + s), radius=s * 0.03, fill=(*WOOD, 255))
    rim = max(3, round(unit * 0.07)) * SS
    u = (s - 2 * rim) / 3
    line = max(SS, round(SS * 1.2))
    d.rectangle((p + rim, p + rim, p + s - rim, p + s - rim), fill=(*WOOD_DARK, 255))
    for i, ch in enumerate(pattern):
        c, r = i % 3, i // 3
        x0, y0 = p + rim + c * u, p + rim + r * u
        fill = {"L": LIGHT, "S": SHADOW}.get(ch, WOOD)
        d.rectangle((x0 + line, y0 + line, x0 + u - line, y0 + u - line), fill=(*fill, 255))
    if unstable:
        h = rim / 2
        sprites._dashed(d, [(p + h, p + h), (p + s - h, p + h), (p + s - h, p + s - h), (p + h, p + s - h)],
                        (*BAD, 255), rim * 0.9, unit * SS * 0.22)
    return img.reduce(SS), pad


@pytest.mark.parametrize("unstable", [False, True])
def test_a_board_from_its_blank_and_its_cells_is_the_board_drawn_whole_at_every_scale(unstable: bool) -> None:
    for unit in range(SCALE_MIN, SCALE_MAX + 1):
        for pattern in PATTERNS:
            tile, pad = sprites.board_sprite.__wrapped__(pattern, unit, unstable)
            whole, whole_pad = board_drawn_whole(pattern, unit, unstable)
            assert (pad, tile.mode, tile.size) == (whole_pad, whole.mode, whole.size)
            assert tile.tobytes() == whole.tobytes(), (unit, pattern, unstable)
    assert sprites._blank_board.cache_info().currsize <= sprites._blank_board.cache_info().maxsize


def test_each_cell_takes_its_own_colour_and_no_other_cells() -> None:
    """The check above would pass if no cell were drawn at all on both sides: each cell must show its fill."""
    unit = 40
    plain, _ = sprites.board_sprite.__wrapped__("?????????", unit, False)
    for i in range(9):
        one = "?" * i + "L" + "?" * (8 - i)
        tile, _ = sprites.board_sprite.__wrapped__(one, unit, False)
        changed = ImageChops.difference(tile, plain).getbbox(alpha_only=False)  # (RGBA: not the alpha alone)
        assert changed is not None
        third = tile.width / 3
        centre = ((changed[0] + changed[2]) / 2, (changed[1] + changed[3]) / 2)
        assert (int(centre[0] // third), int(centre[1] // third)) == (i % 3, i // 3)
        assert tile.getpixel((round(centre[0]), round(centre[1])))[:3] == LIGHT


