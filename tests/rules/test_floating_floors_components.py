"""The fan-made Floating Floors box loads, has the rulebook's counts and shapes, and broken data is refused."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from rules.floating_floors import components as c


def shipped() -> dict[str, Any]:
    return json.loads((c.DATA / "components.json").read_text(encoding="utf-8"))


def collinear(points: set[tuple[int, int]]) -> bool:
    # The 8 lines of a 3×3 grid (3 rows, 3 columns, 2 diagonals), written out rather than computed.
    lines = [{(x, r) for x in range(3)} for r in range(3)] + [{(col, y) for y in range(3)} for col in range(3)]
    lines += [{(0, 0), (1, 1), (2, 2)}, {(2, 0), (1, 1), (0, 2)}]
    return any(points <= line for line in lines)


def test_the_shipped_file_loads_and_says_it_is_fan_made() -> None:
    assert "fan-made" in shipped()["note"].lower()
    assert c.parse(shipped()) == c.BOX


def test_twelve_terrain_cards_with_water_in_range_and_land_not_in_a_line() -> None:
    assert [t.id for t in c.TERRAIN] == [f"t{i:02d}" for i in range(1, 13)]
    for card in c.TERRAIN:
        for side, (lo, hi) in (("terrain", (2, 3)), ("lake", (4, 5))):
            rows = card.side(side)
            assert lo <= sum(row.count("W") for row in rows) <= hi, (card.id, side)
            land = card.land(side)
            assert len(land) >= 3 and not collinear(set(land)), (card.id, side)


def test_land_is_col_row_with_row_zero_on_top() -> None:
    card = c.TERRAIN_BY_ID["t01"]  # terrain side WWL / LLL / LLL: water at the top-left two spaces
    assert (0, 0) not in card.land("terrain") and (1, 0) not in card.land("terrain")
    assert (2, 0) in card.land("terrain") and (0, 1) in card.land("terrain")
    assert len(card.land("terrain")) == 7


def test_twelve_floorboards_with_four_or_five_light_and_an_inverted_back() -> None:
    assert [b.id for b in c.FLOORBOARDS] == [f"f{i:02d}" for i in range(1, 13)]
    for board in c.FLOORBOARDS:
        front, back = board.pattern(False, 0), board.pattern(True, 0)
        assert 4 <= "".join(front).count("L") <= 5
        assert all(f != b for fr, br in zip(front, back, strict=True) for f, b in zip(fr, br, strict=True))


def test_no_two_floorboards_match_under_any_rotation_or_side() -> None:
    variants = [{b.pattern(back, q) for back in (False, True) for q in range(4)} for b in c.FLOORBOARDS]
    for i, a in enumerate(variants):
        for b in variants[i + 1:]:
            assert not a & b


def test_four_quarter_turns_are_the_identity_and_one_moves_top_left_to_top_right() -> None:
    board = c.FLOORBOARD_BY_ID["f04"]  # LSS / LSS / LLL
    assert board.pattern(False, 4) == board.pattern(False, 0)
    # Clockwise on the image: the left column (L, L, L) becomes the top row, the bottom row (LLL) the left column.
    assert board.pattern(False, 1) == ("LLL", "LSS", "LSS")
    assert board.pattern(True, 1) == ("SSS", "SLL", "SLL")  # the back is the same turn of the inverse
    assert c.rotate_pattern(("abc", "def", "ghi"), 1) == ("gda", "heb", "ifc")  # 'a' top-left → top-right
    assert c.rotate_pattern(("abc", "def", "ghi"), -1) == ("cfi", "beh", "adg")


def test_sixty_jutsu_in_six_two_letter_kinds_and_dice_showing_each_once() -> None:
    assert c.JUTSU_KINDS == ("bs", "bt", "bh", "ws", "wt", "wh")
    assert c.JUTSU.per_kind * len(c.JUTSU_KINDS) == 60
    assert c.KIND_COLOUR["wt"] == "white" and c.KIND_SHAPE["bh"] == "hexagon"
    assert c.DICE.count == 3 and sorted(c.DICE.faces) == sorted(c.JUTSU_KINDS)


def test_sixteen_bansen_four_per_ninja_two_each_way() -> None:
    assert len(c.BANSEN) == 16
    for ninja in c.NINJAS:
        mine = [b for b in c.BANSEN if b.ninja == ninja.id]
        assert sorted(b.number for b in mine) == [1, 2, 3, 4]
        assert Counter(b.direction for b in mine) == {"cw": 2, "ccw": 2}
    assert {b.quarter_turns_cw for b in c.BANSEN} == {1, -1}


def test_two_light_and_two_shadow_ninjas_walk_on_white_and_black() -> None:
    assert Counter(c.COLOUR_OF_NINJA.values()) == {"light": 2, "shadow": 2}
    assert c.WALKS_ON == {"light": "white", "shadow": "black"}
    assert all(n.display("en") and n.display("pl") for n in c.NINJAS)


def test_physics_is_the_documented_model() -> None:
    p = c.PHYSICS
    assert (p.board_weight, p.jutsu_weight, p.ninja_weight) == (6, 1, 3)
    assert (p.size("square"), p.size("triangle"), p.size("hexagon")) == (0.5, 0.6, 0.52)
    assert (p.offset, p.min_margin, p.shaky_below, p.shaky_max) == (0.25, 0.05, 0.2, 0.5)
    hash(p)  # usable as a cache key


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


def _drop(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return edit


BROKEN: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "note not fan-made": (_set(["note"], "Official layouts."), "fan-made"),
    "eleven terrain": (_drop(["terrain", 0]), "exactly 12"),
    "terrain bad id": (_set(["terrain", 0, "id"], "T1"), "bad id"),
    "terrain duplicate id": (_set(["terrain", 1, "id"], "t01"), "duplicate"),
    "terrain extra key": (_set(["terrain", 0, "name"], "x"), r"terrain\[0\]"),
    "terrain short row": (_set(["terrain", 0, "terrain"], ["WW", "LLL", "LLL"]), "t01 terrain"),
    "terrain bad char": (_set(["terrain", 0, "terrain"], ["WWX", "LLL", "LLL"]), "only L, W"),
    "terrain too little water": (_set(["terrain", 0, "terrain"], ["WLL", "LLL", "LLL"]), "1 water"),
    "lake too little water": (_set(["terrain", 2, "lake"], ["WWL", "LWL", "LLL"]), "t03 lake: 3 water"),
    "land in one line": (_set(["terrain", 4, "lake"], ["WWW", "LLL", "WWW"]), "t05 lake: needs at least 3"),
    "land on a diagonal": (_set(["terrain", 4, "lake"], ["LWW", "WLW", "WWL"]), "not all in one line"),
    "board too light": (_set(["floorboards", 0, "pattern"], ["LLL", "SSS", "LLL"]), "f01: 6 light"),
    "board too dark": (_set(["floorboards", 5, "pattern"], ["LSS", "SSS", "LLS"]), "f06: 3 light"),
    "board bad char": (_set(["floorboards", 0, "pattern"], ["LSL", "SXS", "LSL"]), "only L, S"),
    "board a turned twin": (_set(["floorboards", 1, "pattern"], ["LLL", "LSS", "LSS"]), "f04: same as f02"),
    "board a flipped twin": (_set(["floorboards", 1, "pattern"], ["SLS", "LSL", "SLS"]), "f02: same as f01"),
    "board bad id": (_set(["floorboards", 0, "id"], "board1"), "bad id"),
    "three ninjas": (_drop(["ninjas", 3]), "exactly 4"),
    "ninja colour": (_set(["ninjas", 0, "colour"], "white"), "ninja sun: colour"),
    "three light ninjas": (_set(["ninjas", 2, "colour"], "light"), "exactly 2 light"),
    "ninja empty name": (_set(["ninjas", 0, "name"], {"en": ""}), "ninja sun: name"),
    "bansen unknown ninja": (_set(["bansen", 0, "ninja"], "wind"), "unknown ninja"),
    "bansen number 5": (_set(["bansen", 0, "number"], 5), "sun1 number"),
    "bansen number twice": (_set(["bansen", 0, "number"], 2), "numbered 1..4"),
    "bansen three cw": (_set(["bansen", 1, "direction"], "cw"), "2 clockwise"),
    "bansen direction": (_set(["bansen", 1, "direction"], "left"), "direction"),
    "bansen duplicate id": (_set(["bansen", 1, "id"], "sun1"), "duplicate"),
    "jutsu colour": (_set(["jutsu", "colours"], ["black", "red"]), "colours"),
    "jutsu shape": (_set(["jutsu", "shapes"], ["square", "circle", "hexagon"]), "shapes"),
    "jutsu per kind": (_set(["jutsu", "per_kind"], 0), "per_kind"),
    "jutsu walks on": (_set(["jutsu", "walks_on"], {"light": "white", "shadow": "white"}), "walks_on"),
    "dice count": (_set(["dice", "count"], 0), "dice count"),
    "dice faces": (_set(["dice", "faces"], ["bs", "bs", "bh", "ws", "wt", "wh"]), "faces"),
    "physics weight": (_set(["physics", "ninja_weight"], -3), "ninja_weight"),
    "physics bool": (_set(["physics", "board_weight"], True), "board_weight"),
    "footprint too big": (_set(["physics", "footprint", "hexagon"], 0.9), "hexagon"),
    "footprint missing": (_drop(["physics", "footprint", "square"]), "footprint"),
    "offset beyond the space": (_set(["physics", "offset"], 0.6), "offset"),
    "shaky below the minimum": (_set(["physics", "shaky_below"], 0.04), "shaky_below"),
    "shaky chance above one": (_set(["physics", "shaky_max"], 1.5), "shaky_max"),
    "physics missing": (_drop(["physics"]), "physics"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_each_broken_doc_is_refused_naming_the_entry(name: str) -> None:
    edit, words = BROKEN[name]
    doc = copy.deepcopy(shipped())
    edit(doc)
    with pytest.raises(c.ContentError, match=words):
        c.parse(doc)


def test_a_doc_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(c.ContentError):
        c.parse([])
