"""The floating_floors top view, drawn from hand-built views of the agreed shape (`tests.views_floating_floors`).

The rules module is written in parallel; once it exists a test can render ``FloatingFloors().view(state, seat)``.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from render import floating_floors as ff
from render import kit as common
from tests.pngs import png_image
from tests.views_floating_floors import make_view

BUDGET = 400 * 1024
HOSTILE = ["W" * 300, "Brzęczyszczykiewicz z Łodzi", "שלום", "😀🎲", "\u202eevil\u202c", "", None, 12345]


def rgb(img: Image.Image) -> Image.Image:
    return img.convert("RGB")


def colours(img: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    return {c for _, c in img.crop(box).getcolors(1 << 20)}


def count(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    return sum(n for n, c in img.crop(box).getcolors(1 << 20) if c == colour)


def grow(box: tuple[int, int, int, int], by: int) -> tuple[int, int, int, int]:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def bare_view(players: int = 2, **kw: Any) -> dict[str, Any]:
    """A view without boards, pieces or alcove contents: a blank map to put things on."""
    view = make_view(players, boards=0)
    view.update(jutsu=[], ninjas=[], hands=[[] for _ in range(players)], **kw)
    for a in view["alcoves"]:
        a["chakra"] = a["bansen"] = None
    for card in view["cards"]:  # all land, so every piece sits on one flat colour
        cells = card["land"] + card["water"]
        card["land"], card["water"] = cells, []
    return view


# ---------------------------------------------------------------------------------------- the image


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("physics", [True, False])
def test_png_of_a_sane_size(players: int, physics: bool) -> None:
    data = ff.board_image(make_view(players, boards=3 if players == 2 else 5), physics=physics)
    img = png_image(data)
    assert img.mode == "P"
    assert 1000 <= img.width <= 1400 and 500 <= img.height <= 1100
    assert len(data) < BUDGET
    lay = ff.layout(make_view(players))
    assert (img.width, img.height) == (lay["width"], lay["height"])
    assert 64 <= lay["scale"] <= 72


def test_layout_places_spaces_cards_and_alcoves() -> None:
    view = make_view(3)
    lay = ff.layout(view)
    assert len(lay["spaces"]) == 81 and len(lay["cards"]) == 9 and len(lay["alcoves"]) == 12
    a1, i9 = lay["spaces"]["a1"], lay["spaces"]["i9"]
    assert a1[:2] == lay["map"][:2] and i9[2:] == lay["map"][2:]
    assert lay["spaces"]["b1"][0] == a1[2] and lay["spaces"]["a2"][1] == a1[3]  # no gap inside a card
    assert lay["spaces"]["d1"][0] > lay["spaces"]["c1"][2]  # a gap between cards
    assert lay["cards"][4] == (lay["spaces"]["d4"][0], lay["spaces"]["d4"][1], *lay["spaces"]["f6"][2:])
    mx0, my0, mx1, my1 = lay["map"]
    for a in view["alcoves"]:
        box = lay["alcoves"][a["index"]]
        side = a["side"]
        assert {"n": box[3] <= my0, "s": box[1] >= my1, "w": box[2] <= mx0, "e": box[0] >= mx1}[side]
        space = lay["spaces"][ff.space_name(tuple(a["space"]))]
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if side in "ns":
            assert abs(cx - (space[0] + space[2]) / 2) <= 1  # next to its space
        else:
            assert abs(cy - (space[1] + space[3]) / 2) <= 1
    two = ff.layout(make_view(2))
    assert len(two["spaces"]) == 54 and len(two["alcoves"]) == 10 and two["height"] < lay["height"]


def test_overlay_changes_only_what_it_should() -> None:
    view = make_view(2, boards=3)
    lay = ff.layout(view)
    on, off = rgb(ff.draw_board(view)), rgb(ff.draw_board(view, physics=False))
    for b in view["boards"]:
        box = lay["cards"][b["card"]]
        assert on.crop(box).tobytes() != off.crop(box).tobytes()
        assert ff.OK in colours(on, box) and ff.OK not in colours(off, box)
    header = lay["header"]
    assert on.crop(header).tobytes() == off.crop(header).tobytes()


def test_unstable_board_draws_its_warning_without_the_overlay() -> None:
    view = make_view(3, boards=4, physics_ok=False)
    bad = view["boards"][0]
    assert bad["stable"] is False and all(b["stable"] for b in view["boards"][1:])
    lay = ff.layout(view)
    img = rgb(ff.draw_board(view, physics=False))
    assert count(img, grow(lay["cards"][bad["card"]], 8), ff.BAD) > 200  # the dashed rim and the "!" tag
    for b in view["boards"][1:]:
        assert count(img, lay["cards"][b["card"]], ff.BAD) == 0
    with_overlay = rgb(ff.draw_board(view))
    box = lay["cards"][bad["card"]]
    assert count(with_overlay, grow(box, 8), ff.BAD) > count(img, grow(box, 8), ff.BAD)


@pytest.mark.parametrize("kind", ff.KINDS)
def test_every_jutsu_kind_draws(kind: str) -> None:
    view = bare_view()
    colour, shape = ff.kind_parts(kind)
    view["jutsu"] = [{"id": "j1", "kind": kind, "colour": colour, "shape": shape, "space": [4, 1], "level": "ground",
                      "x": 4.5, "y": 1.5}]
    lay = ff.layout(view)
    img = rgb(ff.draw_board(view))
    box = lay["spaces"]["e2"]
    fill = ff.J_BLACK if colour == "black" else ff.J_WHITE
    edge = ff.J_BLACK_EDGE if colour == "black" else ff.J_WHITE_EDGE
    found = colours(img, box)
    assert fill in found and edge in found
    # the shape: only a square reaches its top-left corner, only a hexagon its left point, only a triangle its apex
    s = lay["scale"]
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2

    def inked(fx: float, fy: float) -> bool:
        return img.getpixel((round(cx + fx * s), round(cy + fy * s))) != ff.LAND

    probes = (inked(-0.21, -0.21), inked(-0.28, 0), inked(0, -0.3))
    assert probes == {"square": (True, False, False), "hexagon": (False, True, False),
                      "triangle": (False, False, True)}[shape]


def test_supports_under_a_board_are_ghosts() -> None:
    view = make_view(2, boards=1)
    lay = ff.layout(view)
    img = rgb(ff.draw_board(view, physics=False))
    board = view["boards"][0]
    under = [j for j in view["jutsu"] if j["level"] == "ground" and ff.read(view).card_of(tuple(j["space"]))
             == board["card"]]
    assert under
    for j in under:
        box = lay["spaces"][ff.space_name(tuple(j["space"]))]
        assert ff.GHOST in colours(img, box)


@pytest.mark.parametrize("seat,ninja", [(0, "sun"), (1, "smoke"), (2, "moon"), (3, "night")])
def test_every_ninja_draws_in_its_seat_colour(seat: int, ninja: str) -> None:
    view = bare_view(4, current=(seat + 1) % 4)
    colour = ff.NINJA_COLOUR[ninja]
    view["ninjas"] = [{"seat": seat, "ninja": ninja, "colour": colour, "x": 2.5, "y": 4.5, "space": [2, 4],
                       "alcove": None, "on_jutsu": None, "claimed": [], "needed": 2}]
    lay = ff.layout(view)
    img = rgb(ff.draw_board(view))
    found = colours(img, lay["spaces"]["c5"])
    assert common.PIECE_COLOURS[ff.seat_colour(seat)] in found
    assert (ff.N_LIGHT if colour == "light" else ff.N_SHADOW) in found
    view["current"] = seat  # the current player's ninja has a gold halo
    assert count(rgb(ff.draw_board(view)), lay["spaces"]["c5"], ff.GOLD) > count(img, lay["spaces"]["c5"], ff.GOLD) + 60


def test_ninja_in_an_alcove_sits_on_its_chakra() -> None:
    view = bare_view(2)
    alcove = view["alcoves"][3]
    alcove["chakra"] = 1
    view["ninjas"] = [{"seat": 1, "ninja": "smoke", "colour": "shadow", "x": alcove["x"], "y": alcove["y"],
                       "space": None, "alcove": 3, "on_jutsu": None, "claimed": [], "needed": 4}]
    lay = ff.layout(view)
    img = rgb(ff.draw_board(view))
    found = colours(img, lay["alcoves"][3])
    assert ff.N_SHADOW in found and common.PIECE_COLOURS[ff.seat_colour(1)] in found


def test_bansen_shows_owner_arrow_and_number() -> None:
    view = bare_view(2)
    lay = ff.layout(view)
    crops = {}
    for direction in ("cw", "ccw"):
        for number in (2, None):
            view["alcoves"][0]["bansen"] = {"id": "sun2", "ninja": "sun", "seat": 0, "direction": direction,
                                            "number": number}
            img = rgb(ff.draw_board(view))
            box = lay["alcoves"][0]
            assert common.PIECE_COLOURS[ff.seat_colour(0)] in colours(img, box)
            assert ff.INK in colours(img, box)
            crops[direction, number] = img.crop(box).tobytes()
    assert len(set(crops.values())) == 4  # the arrow's direction and the number both show


def test_reset_pending_is_marked_on_its_card_and_in_the_header() -> None:
    view = make_view(4, boards=4)
    lay = ff.layout(view)
    plain = rgb(ff.draw_board(view))
    view.update(phase="reset", reset={"card": 4, "by": 2})
    img = rgb(ff.draw_board(view))
    seat = common.PIECE_COLOURS[ff.seat_colour(2)]
    box = grow(lay["cards"][4], lay["gap"])
    assert count(img, box, seat) > count(plain, box, seat) + 100
    assert img.crop(lay["header"]).tobytes() != plain.crop(lay["header"]).tobytes()


def test_taken_dice_are_dimmed_and_the_deck_swatch_shows() -> None:
    view = make_view(2)
    lay = ff.layout(view)
    none_taken = rgb(ff.draw_board({**view, "to_take": list(view["roll"])}))
    all_taken = rgb(ff.draw_board({**view, "to_take": []}))
    header = lay["header"]
    assert count(none_taken, header, ff.DIE) > count(all_taken, header, ff.DIE) + 1000
    assert ff.LIGHT in colours(none_taken, header) and ff.SHADOW in colours(none_taken, header)


# ----------------------------------------------------------------------------------- robustness


def test_deterministic_bytes() -> None:
    view = make_view(4, seed=5, boards=6, physics_ok=False)
    assert ff.board_image(view) == ff.board_image(copy.deepcopy(view))
    assert ff.board_image(view, locale="pl", names=["A", "B"]) == ff.board_image(copy.deepcopy(view), locale="pl",
                                                                                 names=["A", "B"])
    assert ff.preview_image(view, 0) == ff.preview_image(copy.deepcopy(view), 0)


JUNK: list[Any] = [None, "x", 7, -1, 10**30, 1e308, float("nan"), float("inf"), True, [], {}, [None, "a"],
                   [[1e300, -1e300]], {"a": 1}]

JUNK_ITEM: list[Any] = [None, "x", -1, 10**30, float("nan"), [[1e300, -1e300]], {"a": 1}]


def test_malformed_views_never_crash() -> None:
    for view in ({}, None, [], "view", {"players": 99, "size": [900, 900], "card_cols": 10**9},
                 {"cards": [{"index": 0, "land": [[0, 0], [99, 99], "a1", None]}], "boards": [{"card": 0}]}):
        png_image(ff.board_image(view))  # type: ignore[arg-type]
        png_image(ff.preview_image(view, 0))  # type: ignore[arg-type]
    base = make_view(3, boards=4, physics_ok=False)
    for key in base:
        for junk in JUNK:
            assert ff.draw_board({**base, key: junk}).mode == "P"


def test_malformed_items_never_crash() -> None:
    base = make_view(2, boards=3)
    lists = ("cards", "boards", "jutsu", "ninjas", "alcoves")
    for key in lists:
        for item_key in sorted({k for item in base[key] for k in item}):
            for junk in JUNK_ITEM:
                view = copy.deepcopy(base)
                for item in view[key]:
                    item[item_key] = junk
                assert ff.draw_board(view).mode == "P"
    weird = copy.deepcopy(base)
    weird["jutsu"].append({"kind": "zz", "space": [1, 1]})
    weird["ninjas"].append({"seat": 77, "ninja": "ghost", "alcove": 999, "claimed": ["nope", None], "needed": 10**9})
    weird["alcoves"].append({"index": 50, "space": [40, 0], "side": "q", "bansen": {"seat": "x", "number": 10**20}})
    weird["boards"][0].update(support=[[math.inf, 0], [1e200, 1e200]], margin=-math.inf, stable=None)
    weird["deck"] = {"count": 10**12, "top": "f99", "top_light": [[5, 5], [-1, 0], "x"]}
    weird["roll"] = ["bs"] * 50 + [None, 3]
    weird["last"] = {"kind": "x" * 500, "card": 10**9, "margin": 1e300}
    img = png_image(ff.board_image(weird, names=[None, 5, "", "😀"]))
    assert img.width <= 2000 and img.height <= 2000


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_do_not_crash(name: Any) -> None:
    view = make_view(4)
    png_image(ff.board_image(view, names=[name] * 4))
    png_image(ff.board_image(view, names=name))  # not even a list


def test_size_budget_for_busy_boards() -> None:
    for players in (2, 3, 4):
        for seed in (1, 2, 3):
            view = make_view(players, seed=seed, boards=9, physics_ok=seed != 2)
            assert len(ff.board_image(view)) < BUDGET


# ----------------------------------------------------------------------------------- preview, words


def test_preview_is_one_card_with_its_verdict() -> None:
    view = make_view(3, boards=3, physics_ok=False)
    data = ff.preview_image(view, 0)
    img = png_image(data)
    full = png_image(ff.board_image(view))
    assert img.width < full.width / 2 and img.height < full.height
    assert 300 <= img.width <= 600 and len(data) < BUDGET
    bad = rgb(img)
    good = rgb(ff.draw_preview(view, 1))
    assert count(bad, (0, 0, bad.width, bad.height), ff.BAD) > count(good, (0, 0, good.width, good.height), ff.BAD)
    png_image(ff.preview_image(view, 42))  # no such board: the first card, captioned


def test_margins_are_written_with_a_sign() -> None:
    assert ff.margin_text(0.214) == "+0.21"
    assert ff.margin_text(-0.08) == "\u22120.08"
    assert ff.margin_text(-0.001) == "+0.00"
    assert ff.margin_text(-math.inf) == "\u2212\u221e"
    assert ff.margin_text(None) == "?"


def test_fixed_words_are_localised_and_in_the_catalogs() -> None:
    assert set(ff.DEFAULTS["en"]) == set(ff.DEFAULTS["pl"])
    root = Path(__file__).resolve().parent.parent / "data" / "i18n"
    for locale in ("en", "pl"):
        catalog = json.loads((root / locale / "render_floating_floors.json").read_text(encoding="utf-8"))
        assert catalog == {ff.KEY + k: v for k, v in ff.DEFAULTS[locale].items()}
    assert ff.label("phase.navigate", "pl") == "Ruch"
    assert ff.label("title", "en-GB") == "Floating Floors"
    view = make_view(2)
    assert ff.board_image(view, locale="pl") != ff.board_image(view, locale="en")
