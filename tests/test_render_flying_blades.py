"""The flying_blades board image and text board, drawn from hand-built views of the agreed shape.

`make_view` builds a valid view without the rules module (they are written in parallel); a later test can
render ``FlyingBlades().view(state, seat)`` instead.
"""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops

from render import flying_blades as fb
from render import kit as common
from tests.pngs import png_image
from tests.views_flying_blades import make_view


def cell_pixels(img: Image.Image, view: dict[str, Any], cell: str) -> Image.Image:
    lay = fb.layout(view)
    x, y = fb.parse_cell(cell, lay)
    return img.convert("RGB").crop(fb.cell_box(lay, x, y))


LAST = {"seat": 1, "action": "attack c3 c4", "from": "c3", "to": "c4", "removed": ["c4"]}
BOMB = {"seat": 0, "action": "bomb e5 e8", "from": "e5", "to": "e8", "removed": ["d7", "e7", "f9"]}


def rgb_colours(img: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in img.convert("RGB").getcolors(1 << 16)}


# ------------------------------------------------------------------------------------------- the image


@pytest.mark.parametrize(
    ("players", "size"), [(2, (1008, 1360)), (3, (1008, 1360)), (4, (1584, 1426)), (5, (1584, 1492))]
)
def test_render_is_a_palette_png_of_the_expected_size(players: int, size: tuple[int, int]) -> None:
    img = png_image(fb.render(make_view(players)))
    assert img.mode == "P"
    assert img.size == size
    # the House is about 1000 px wide, the Temple wider with the same cells
    assert fb.CELL * 9 < size[0] < fb.CELL * 17


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("phase", ["draft", "play", "over"])
def test_every_player_count_and_phase_renders(players: int, phase: str) -> None:
    outcome = (
        {
            "winners": [0],
            "ranking": [[0], list(range(1, players))],
            "scores": [1] * players,
            "reason": "nonexistent.reason",
        }
        if phase == "over"
        else None
    )
    view = make_view(players, phase=phase, empty=10, viewer=0, hand=["bomb"], last=LAST, outcome=outcome)
    img = png_image(fb.render(view, names=["Ann", "Bo", "Cy", "Di", "Ed"][:players], locale="pl"))
    assert img.width == fb.layout(view).size[0]


def test_the_image_is_not_blank_and_shows_every_colour_in_play() -> None:
    view = make_view(5, empty=20)
    colours = rgb_colours(fb.draw(view))
    assert len(colours) > 50  # anti-aliased discs, text, wood
    for colour in view["colours"]:
        assert common.PIECE_COLOURS[colour] in colours, colour


def test_rendering_is_deterministic_and_leaves_the_view_alone() -> None:
    view = make_view(3, empty=12, viewer=0, hand=["bomb", "vanish"], last=LAST)
    before = repr(view)
    first = fb.render(view, names=["Ann", "Bo", "Cy"])
    assert fb.render(view, names=["Ann", "Bo", "Cy"]) == first
    assert repr(view) == before


def test_the_palette_fits_and_the_board_colours_are_exact() -> None:
    pal = fb.palette().getpalette()
    assert pal is not None and len(pal) <= 768
    img = fb.draw(make_view(3))
    lay = fb.layout(make_view(3))
    left, top, _, _ = fb.cell_box(lay, 0, 0)
    assert img.convert("RGB").getpixel((left + 2, top + 2)) in fb.WOOD


def test_the_last_move_marks_its_cells() -> None:
    plain = make_view(3, empty=12, last=BOMB)
    plain["last_action"] = None  # same board, no marking
    marked = make_view(3, empty=12, last=BOMB)
    a, b = fb.draw(plain), fb.draw(marked)
    for cell in ("e5", "e8", "d7", "e7", "f9"):
        diff = ImageChops.difference(cell_pixels(a, plain, cell), cell_pixels(b, marked, cell))
        assert diff.getbbox() is not None, cell
    untouched = ImageChops.difference(cell_pixels(a, plain, "a1"), cell_pixels(b, marked, "a1"))
    assert untouched.getbbox() is None


def test_a_removed_ninjas_empty_cell_is_crossed_out() -> None:
    view = make_view(3, empty=12, last=BOMB)
    crop = cell_pixels(fb.draw(view), view, "d7")
    assert fb.XRED in rgb_colours(crop)


def test_warded_columns_are_hatched_and_only_with_four_players() -> None:
    def hatched(img: Image.Image, view: dict[str, Any], cell: str) -> float:
        crop = cell_pixels(img, view, cell)
        counts = {c: n for n, c in crop.getcolors(1 << 16)}
        return (counts.get(fb.WARD, 0) + counts.get(fb.WARD_HATCH, 0)) / (crop.width * crop.height)

    four, five = make_view(4), make_view(5)
    img4, img5 = fb.draw(four), fb.draw(five)
    for cell in ("m1", "n5", "o9"):
        assert hatched(img4, four, cell) > 0.95
        assert hatched(img5, five, cell) < 0.05
    assert hatched(img4, four, "l1") < 0.05


def test_the_viewers_hand_is_drawn_for_the_viewer_only() -> None:
    base = make_view(3, empty=5, viewer=0, hand=["bomb", "dragon"])
    no_hand = dict(base, hand=None)
    assert fb.render(base) != fb.render(no_hand)  # the viewer sees their cards
    spectator = dict(base, viewer=None, hand=None)
    leaked = dict(spectator, hand=["bomb", "dragon"])  # a malformed view: a hand but no viewer
    assert fb.render(leaked) == fb.render(spectator)
    assert "Bomb" not in fb.text_board(leaked)
    assert "Bomb" in fb.text_board(base)


def test_face_up_hands_show_every_seats_cards() -> None:
    view = make_view(3, hands=[["bomb"], ["circle"], []])
    text = fb.text_board(view)
    assert "Bomb" in text and "Circle kick" in text
    assert fb.render(view) != fb.render(dict(view, hands=None))


# ------------------------------------------------------------------------------------------- text and fonts


def test_lato_has_the_polish_letters_and_they_are_not_the_missing_glyph_box() -> None:
    lato = common.lato_path("Bold")
    face = common.font(40)
    notdef = face.getmask("\U0010fffd")
    for char in "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ":
        assert common.has_glyph(lato, char), char
        mask = face.getmask(char)
        assert (mask.size, bytes(mask)) != (notdef.size, bytes(notdef)), char
    assert not common.has_glyph(lato, "\U0001f525")  # 🔥: Lato has no emoji
    assert [path for path, _ in common.font_runs("Zażółć gęślą jaźń")] == [lato]


def test_polish_text_is_drawn_with_its_letters() -> None:
    view = make_view(3, viewer=0, hand=["bomb"])
    polish = fb.render(view, names=["Zażółć", "Bo", "Cy"], locale="pl")
    ascii_ = fb.render(view, names=["Zazolc", "Bo", "Cy"], locale="pl")
    assert polish != ascii_
    assert "Zażółć" in fb.text_board(view, names=["Zażółć", "Bo", "Cy"], locale="pl")


@pytest.mark.parametrize(
    ("name", "shown"),
    [("Bob 🐉", "Bob"), ("🔥🔥🔥", "Player 1"), ("", "Player 1"), ("  ", "Player 1"), ("Zoë\u200d", "Zoë")],
)
def test_names_lose_what_no_font_draws(name: str, shown: str) -> None:
    assert common.display_name(name, "Player 1") == shown


def test_names_with_emoji_and_other_scripts_render_without_boxes() -> None:
    names = ["🔥🔥🔥", "山田 Taro 🐉", "Ωmega Жук", "\u202eevil\u202c", "a" * 200]
    view = make_view(5, viewer=1)
    png_image(fb.render(view, names=names))
    for name in names:
        for path, run in common.font_runs(name):
            assert all(common.has_glyph(path, ch) for ch in run), (name, run)
    text = fb.text_board(view, names=names)
    assert "Player 1" in text and "Taro" in text


def test_long_text_is_cut_with_an_ellipsis_to_fit() -> None:
    cut = common.fit_text("Grzegorz Brzęczyszczykiewicz z Chrząszczyrzewoszyc", 30, 300)
    assert cut.endswith(common.ELLIPSIS)
    assert common.text_width(cut, 30) <= 300


@pytest.mark.parametrize("locale", ["en", "pl"])
def test_every_dynamic_key_is_translated(locale: str) -> None:
    from i18n import t

    keys = [f"render.flying_blades.card.{c}" for c in fb.CARDS]
    keys += ["render.flying_blades.board.house", "render.flying_blades.board.temple"]
    for key in keys:
        assert t(key, locale) != key


# ------------------------------------------------------------------------------------------- text board


def test_text_board_shows_coordinates_pieces_and_the_last_move() -> None:
    view = make_view(3, empty=12, viewer=0, hand=["shuriken", "shuriken"], last=LAST)
    text = fb.text_board(view, names=["Ann", "Bo", "Cy"])
    lines = text.splitlines()
    letters = [line for line in lines if line.split() == list("abcdefghi")]
    assert len(letters) == 2  # above and below
    board = [line for line in lines if line[:3].strip().isdigit()]
    assert [line.split()[0] for line in board] == [str(r) for r in range(9, 0, -1)]
    assert all(line.split()[-1] == line.split()[0] for line in board)  # numbers on both sides
    cells = "".join(line[4:-2] for line in board)
    for colour, count in view["ninjas"].items():
        assert cells.count(colour[0] if colour != "black" else "k") == count
    assert "[y]" in text  # c4: the attacker's ninja now stands there
    assert "(.)" in text  # c3: where it came from
    assert "Shuriken ×2" in text
    assert "Ann" in text and "Bo" in text


def test_text_board_of_the_temple_marks_warded_cells() -> None:
    text = fb.text_board(make_view(4))
    assert " m  n  o" in text
    assert text.count("#") == 27


def test_the_benchmark_runs_and_reports_ratios_to_the_floor() -> None:
    """A smoke run (timings are reported by ``python -m tests.bench``, never asserted)."""
    from tests.bench import bench_render
    from tests.bench.harness import markdown_table, measure

    rows = bench_render.rows(n=2)
    assert {(r.case.split()[0], r.step) for r in rows} >= {("House", "render"), ("Temple", "encode")}
    assert all(r.ratio is not None and r.ratio > 0 for r in rows)
    assert all(r.bytes_ratio and r.bytes_ratio > 1 for r in rows if r.step == "encode")
    assert markdown_table(rows).count("\n") == len(rows) + 1
    median, p95 = measure(lambda: None, n=5)
    assert 0 <= median <= p95


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_views_from_the_rules_render_through_a_bot_playout(players: int) -> None:
    """The renderer draws what ``FlyingBlades().view`` gives, for spectators and seats, to the end."""
    rules = pytest.importorskip("rules.flying_blades")
    game = rules.FlyingBlades()
    state = game.new(players, {}, f"render-{players}")
    names = ["Ann", "Bożena", "Cy 🐉", "Di", "Ed"][:players]
    for step in range(400):
        if step % 9 == 0 or not game.to_move(state):
            for viewer in (None, step % players):
                view = game.view(state, viewer)
                assert png_image(fb.render(view, names=names)).size == fb.layout(view).size
                assert "a" in fb.text_board(view, names=names, locale="pl")
        if not game.to_move(state):
            break
        seat = min(game.to_move(state))
        state, _ = game.apply(state, seat, game.bot_action(state, seat))
