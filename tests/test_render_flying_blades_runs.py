"""One image for a run of moves (issue 9): every move marked with its mover's colour and its step number."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from render import flying_blades as fb
from render import kit as common
from tests.views_flying_blades import make_view

RUN = [
    {"seat": 0, "action": "attack c3 c4", "from": "c3", "to": "c4", "removed": ["c4"]},
    {"seat": 1, "action": "vanish a1 g7", "from": "a1", "to": "g7", "removed": []},
    {"seat": 2, "action": "pass", "from": None, "to": None, "removed": []},
    {"seat": 3, "action": "shuriken h2 h8", "from": "h2", "to": "h8", "removed": ["h8"]},
]


def rgb(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def badge_box(view: dict[str, Any], cell: str) -> tuple[int, int, int, int]:
    """Where a cell's first step badge is drawn (its top-left corner)."""
    lay = fb.layout(view)
    left, top, _, _ = fb.cell_box(lay, *fb.parse_cell(cell, lay))
    return left + 3, top + 3, left + 3 + fb.BADGE, top + 3 + fb.BADGE


def has_colour(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> bool:
    return any(c == colour for _, c in img.crop(box).getcolors(1 << 16))


def test_each_move_of_a_run_gets_a_badge_in_its_movers_colour_on_the_cell_it_went_to() -> None:
    view = make_view(4, last=RUN[-1])
    img, single = rgb(fb.render(view, moves=RUN)), rgb(fb.render(view))
    for move in (m for m in RUN if m["to"]):
        colour = common.PIECE_COLOURS[view["colours"][move["seat"]]]
        box = badge_box(view, move["to"])
        assert img.crop(box).tobytes() != single.crop(box).tobytes(), move["action"]
        assert has_colour(img, box, colour) and has_colour(img, box, common.mark_ink(view["colours"][move["seat"]]))


def test_a_run_draws_an_arrow_from_where_a_move_started() -> None:
    view = make_view(4, last=RUN[-1])
    lay = fb.layout(view)
    marked, single = rgb(fb.render(view, moves=RUN)), rgb(fb.render(view))
    a1 = fb.cell_box(lay, *fb.parse_cell("a1", lay))  # the vanish's start: only the run draws on it
    assert marked.crop(a1).tobytes() != single.crop(a1).tobytes()
    blue = common.PIECE_COLOURS[view["colours"][1]]
    assert has_colour(marked, a1, blue)


def test_a_single_move_or_none_draws_exactly_the_last_move_image() -> None:
    view = make_view(3, last=RUN[0])
    assert fb.render(view, moves=[RUN[0]]) == fb.render(view) == fb.render(view, moves=[])


def test_the_header_lists_the_run_in_order() -> None:
    view = make_view(4, last=RUN[-1])
    header = (0, 0, fb.layout(view).size[0], fb.HEADER_H)
    marked, single = rgb(fb.render(view, moves=RUN)), rgb(fb.render(view))
    assert marked.crop(header).tobytes() != single.crop(header).tobytes()
    for move in RUN:  # a badge per move in the header, passes included
        colour = common.PIECE_COLOURS[view["colours"][move["seat"]]]
        assert has_colour(marked, header, colour)


def test_moves_with_a_seat_the_board_does_not_have_are_left_out() -> None:
    view = make_view(3, last=RUN[0])
    odd = [RUN[0], {"seat": 7, "action": "attack a1 a2", "from": "a1", "to": "a2"}, {"seat": None}, "junk"]
    assert fb.marked_moves(view, odd) == [RUN[0]]  # type: ignore[arg-type]
    assert rgb(fb.render(view, moves=odd)).size == fb.layout(view).size  # type: ignore[arg-type]


def test_a_long_run_stays_a_palette_image_on_the_temple_and_the_house() -> None:
    for players in (3, 5):
        view = make_view(players, last=RUN[0])
        run = [dict(RUN[i % 2], seat=i % players) for i in range(6)]
        img = fb.draw(view, moves=run)  # the drawing (the posted bytes are WebP, which has no palette mode)
        assert img.mode == "P" and img.size == fb.layout(view).size
