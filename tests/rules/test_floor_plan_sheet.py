"""Floor Plan blueprint: cell names and every placement rule of rooms and features (rules/floor_plan/sheet.py)."""

from __future__ import annotations

import pytest

from i18n import t
from rules.base import IllegalActionError, InvalidActionError
from rules.floor_plan.sheet import (
    ALL_CELLS,
    Sheet,
    add_features,
    add_room,
    cell_name,
    features_fit_somewhere,
    parse_cell,
    room_fits_somewhere,
    sets_fit,
    start_room,
)
from tests.rules.fp_sheet_helpers import cells, names, refused, room, sheet

KITCHEN = "K C3 4x3 D4"  # C–F × 3–5, label D4


# --- cells -----------------------------------------------------------------------------------------------


def test_cell_names_are_column_letter_then_row_counted_from_the_top() -> None:
    assert parse_cell("I7") == (8, 6)
    assert parse_cell("a1") == (0, 0)
    assert parse_cell("Q13") == (16, 12)
    assert all(parse_cell(cell_name(c)) == c for c in ALL_CELLS)


@pytest.mark.parametrize("text", ["", "7I", "I", "II7", "I7x", "I-1", "I123"])
def test_a_malformed_cell_name_is_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError, match="not a cell"):
        parse_cell(text)


@pytest.mark.parametrize("text", ["R1", "A14", "A0", "Z9"])
def test_a_cell_off_the_sheet_is_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError, match="off the blueprint"):
        parse_cell(text)


# --- rooms -----------------------------------------------------------------------------------------------


def test_a_room_is_drawn_with_its_label() -> None:
    s = add_room(Sheet.empty(), room(KITCHEN))
    assert s.rooms == (room(KITCHEN),)
    assert len(s.rooms[0].cells()) == 12
    assert names(s.rooms[0].wall_cells()) == names(cells("C3 D3 E3 F3 C4 F4 C5 D5 E5 F5"))


def test_a_room_must_lie_inside_the_sheet() -> None:
    assert "runs off the blueprint" in refused(add_room, Sheet.empty(), room("K P1 3x2"))
    assert "runs off the blueprint" in refused(add_room, Sheet.empty(), room("K A12 2x3"))


def test_the_label_cell_must_be_inside_the_new_room() -> None:
    assert refused(add_room, Sheet.empty(), room("K C3 4x3 H9")) == (
        "The label cell H9 is not inside the new 4×3 room at C3.")


def test_rooms_may_touch() -> None:
    s = add_room(sheet("L F6 6x3 I7"), room("K F3 4x3 G4"))
    assert len(s.rooms) == 2


def test_rooms_may_not_overlap() -> None:
    assert refused(add_room, sheet("L F6 6x3 I7"), room("K D4 4x3")) == (
        "F6 is inside the Living Room at F6: rooms may touch but not overlap.")


def test_a_room_may_not_lie_inside_another_room() -> None:
    msg = refused(add_room, sheet("L F6 6x3 I7"), room("C G6 2x2"))
    assert msg == ("The new 2×2 room at G6 would lie inside the Living Room at F6: "
                   "a room may not be inside another room.")


def test_a_room_may_not_enclose_a_smaller_room() -> None:
    msg = refused(add_room, sheet("C D4 2x2"), room("K C3 4x4"))
    assert "would enclose the Closet at D4" in msg


def test_a_room_may_not_enclose_an_earlier_feature() -> None:
    assert refused(add_room, sheet(stones="D4"), room(KITCHEN)) == (
        "D4 holds a stone: a new room may not enclose earlier features.")


def test_a_room_may_not_cover_part_of_a_tree() -> None:
    assert "C3 holds a tree" in refused(add_room, sheet(trees="A1"), room(KITCHEN))


def test_a_room_may_not_cover_pool_water() -> None:
    pool = sheet(stones="D3 C4 E4 D5")
    assert "D4 is water in a pool" in refused(add_room, pool, room("C D4 1x1"))


def test_room_type_and_size_are_checked() -> None:
    with pytest.raises(InvalidActionError):
        add_room(Sheet.empty(), room("X C3 2x2"))
    with pytest.raises(InvalidActionError):
        add_room(Sheet.empty(), room("K C3 0x2"))


# --- the starting living room ------------------------------------------------------------------------------


@pytest.mark.parametrize(("x", "y", "w", "h"), [(3, 5, 6, 3), (8, 1, 2, 6), (8, 6, 6, 1), (5, 4, 6, 6)])
def test_the_starting_living_room_encloses_i7_with_its_label_there(x: int, y: int, w: int, h: int) -> None:
    s = start_room(Sheet.empty(), x, y, w, h)
    assert s.rooms[0].type == "L"
    assert s.rooms[0].label == (8, 6)
    assert (8, 6) in s.rooms[0].cells()


def test_the_starting_living_room_must_enclose_i7() -> None:
    assert "must enclose the shaded centre I7" in refused(start_room, Sheet.empty(), 0, 0, 6, 3)


def test_the_starting_living_room_has_a_side_of_six() -> None:
    assert "6 by the other die, not 4×3" in refused(start_room, Sheet.empty(), 7, 5, 4, 3)


def test_the_starting_living_room_is_drawn_once() -> None:
    s = start_room(Sheet.empty(), 3, 5, 6, 3)
    assert "already drawn" in refused(start_room, s, 3, 5, 6, 3)


# --- features ----------------------------------------------------------------------------------------------


def test_a_tree_goes_outside() -> None:
    assert refused(add_features, sheet(KITCHEN), "tree", cells("D4")) == (
        "D4 is inside the Kitchen at C3: a tree goes outside.")


def test_a_tree_is_three_by_three_on_free_cells() -> None:
    s = add_features(Sheet.empty(), "tree", cells("A1"))
    assert s.trees == ((0, 0),)
    assert len(s.features) == 9
    assert "B2 already holds a stone" in refused(add_features, sheet(stones="B2"), "tree", cells("A1"))


def test_a_tree_may_not_run_off_the_sheet() -> None:
    assert "would run off the blueprint" in refused(add_features, Sheet.empty(), "tree", cells("P12"))


def test_two_trees_of_one_set_may_not_overlap() -> None:
    assert add_features(Sheet.empty(), "tree", cells("A1 D1")).trees == ((0, 0), (3, 0))
    assert "C3 already holds a tree" in refused(add_features, Sheet.empty(), "tree", cells("A1 C3"))


def test_doors_and_windows_go_on_wall_cells() -> None:
    s = add_features(sheet(KITCHEN), "door", cells("C3 F5"))
    s = add_features(s, "window", cells("E3 F4 C5"))
    assert names(s.doors) == ["C3", "F5"]
    assert names(s.windows) == ["C5", "E3", "F4"]


def test_a_door_on_a_non_wall_cell_is_refused() -> None:
    s = sheet("B C3 3x3 C3")
    assert refused(add_features, s, "door", cells("D4")) == (
        "D4 is not on a wall of the Bedroom at C3: a door goes on a wall cell.")
    assert "not on a wall" in refused(add_features, s, "window", cells("D4"))


def test_doors_and_windows_go_inside_rooms() -> None:
    assert refused(add_features, sheet(KITCHEN), "door", cells("B3")) == "B3 is outside: a door goes inside a room."
    assert "is outside" in refused(add_features, sheet(KITCHEN), "furnishing", cells("G4"))


def test_nothing_goes_on_a_label_cell() -> None:
    s = sheet("K C3 4x3 C3")
    for kind in ("door", "window", "furnishing"):
        assert refused(add_features, s, kind, cells("C3")) == (
            "C3 holds the label of the Kitchen at C3: nothing else goes there.")


def test_a_cell_holds_one_feature() -> None:
    s = sheet(KITCHEN, windows="C3", furnishings="E4")
    assert refused(add_features, s, "door", cells("C3")) == "C3 already holds a window: a door needs a free cell."
    assert "E4 already holds a furnishing" in refused(add_features, s, "furnishing", cells("E4"))
    assert "D3 is listed twice" in refused(add_features, s, "door", cells("D3 D3"))


def test_furnishings_go_on_any_free_room_cell() -> None:
    s = add_features(sheet(KITCHEN), "furnishing", cells("C3 E4 F5 D5"))
    assert names(s.furnishings) == ["C3", "D5", "E4", "F5"]


def test_stones_go_outside_on_free_cells() -> None:
    s = add_features(sheet(KITCHEN), "stone", cells("A1 B2 G3 Q13 A13 H9"))
    assert len(s.stones) == 6
    assert "C3 is inside the Kitchen at C3: a stone goes outside" in refused(add_features, s, "stone", cells("C3"))
    assert "A1 already holds a stone" in refused(add_features, s, "stone", cells("A1"))


def test_nothing_goes_on_pool_water_not_even_a_stone() -> None:
    pool = sheet(stones="D3 C4 E4 D5")
    for kind in ("stone", "deck", "tree"):
        anchor = "D4" if kind != "tree" else "C4"
        msg = refused(add_features, pool, kind, cells(anchor))
        assert "is water in a pool" in msg or "already holds a stone" in msg
    assert refused(add_features, pool, "stone", cells("D4")) == "D4 is water in a pool: a stone needs a free cell."


def test_stones_of_one_set_may_make_a_pool_at_once() -> None:
    s = add_features(Sheet.empty(), "stone", cells("D3 C4 E4 D5 A1 A2"))
    assert s.pool_regions == (frozenset(cells("D4")),)


def test_a_deck_touches_a_rooms_outside_wall() -> None:
    s = add_features(sheet(KITCHEN), "deck", cells("B3 G5 D6 C2 F2"))
    assert len(s.decks) == 5


def test_an_isolated_deck_is_refused() -> None:
    assert refused(add_features, sheet(KITCHEN), "deck", cells("B3 H9")) == (
        "The deck section at H9 touches neither the outside wall of a room nor a deck section joined to one.")


def test_a_deck_touching_a_room_only_diagonally_is_refused() -> None:
    assert "deck section at B2" in refused(add_features, sheet(KITCHEN), "deck", cells("B2"))


def test_a_deck_may_touch_only_a_deck_that_touches_a_wall() -> None:
    s = add_features(sheet(KITCHEN), "deck", cells("G4"))
    s = add_features(s, "deck", cells("H4 I4 J4 J5 J6"))
    assert len(s.decks) == 6


def test_a_set_of_decks_counts_as_connected_in_any_order() -> None:
    s = add_features(sheet(KITCHEN), "deck", cells("K4 J4 I4 H4 G4"))
    assert len(s.decks) == 5
    assert "deck section at J6" in refused(add_features, sheet(KITCHEN), "deck", cells("K6 K7 G4 H4 J6"))


# --- fits somewhere ----------------------------------------------------------------------------------------


def _full_but(hole: str) -> Sheet:
    """A sheet whose every cell is a room except a 3×2 hole at ``hole`` (top-left) — rooms are column strips."""
    hx, hy = parse_cell(hole)
    rooms = []
    for x in range(17):
        spans = [(0, 13)] if not hx <= x < hx + 3 else [(0, hy), (hy + 2, 13 - hy - 2)]
        rooms += [f"C {cell_name((x, y))} 1x{h}" for y, h in spans if h > 0]
    return sheet(*rooms)


def test_a_room_fits_in_the_last_hole_of_a_nearly_full_sheet_in_either_orientation() -> None:
    s = _full_but("F5")
    assert room_fits_somewhere(s, 3, 2)
    assert room_fits_somewhere(s, 2, 3)
    assert room_fits_somewhere(s, 1, 1)
    assert not room_fits_somewhere(s, 3, 3)
    assert not room_fits_somewhere(s, 4, 1)
    blocked = Sheet(s.rooms, stones=frozenset(cells("G5")))
    assert not room_fits_somewhere(blocked, 3, 2)
    assert room_fits_somewhere(blocked, 1, 2)


def test_features_fit_counts_free_cells_of_their_kind() -> None:
    s = _full_but("F5")
    assert features_fit_somewhere(s, "stone", 6)
    assert not features_fit_somewhere(s, "stone", 7)
    assert not features_fit_somewhere(s, "tree", 1)
    assert features_fit_somewhere(s, "deck", 5)  # every hole cell touches a room
    kitchen = sheet("K C3 4x3 C3", doors="D3 E3", windows="F3 F4")
    assert features_fit_somewhere(kitchen, "door", 5)  # C4 C5 D5 E5 F5
    assert not features_fit_somewhere(kitchen, "window", 6)
    assert features_fit_somewhere(kitchen, "furnishing", 7)
    assert not features_fit_somewhere(kitchen, "furnishing", 8)


def test_decks_fit_only_where_they_can_join_a_wall() -> None:
    walled = sheet("K A5 17x9", stones="A4 B4 C4 D4 E4 F4 G4 H4 I4 J4 K4 L4 M4 N4 O4 P4 Q4")
    assert features_fit_somewhere(walled, "deck", 1) is False  # rows 1–3 are cut off from the room by stones
    opened = sheet("K A5 17x9", "C A1 1x1")
    assert features_fit_somewhere(opened, "deck", 5)


def test_two_trees_fit_only_without_overlapping() -> None:
    strip = sheet("K A4 17x10")  # rows 1–3 free: 5 trees side by side at most
    assert features_fit_somewhere(strip, "tree", 5)
    assert not features_fit_somewhere(strip, "tree", 6)
    narrow = sheet("K A4 17x10", "C E1 13x3")  # only A–D free: one tree
    assert features_fit_somewhere(narrow, "tree", 1)
    assert not features_fit_somewhere(narrow, "tree", 2)


# --- JSON and messages -------------------------------------------------------------------------------------


def test_a_sheet_round_trips_through_json() -> None:
    s = sheet(KITCHEN, "L F6 6x3 I7", trees="K1 A10", doors="C3", windows="E3", furnishings="E4", decks="B3",
              stones="Q13 P12")
    d = s.to_json()
    assert d["rooms"][0] == {"type": "K", "x": 2, "y": 2, "w": 4, "h": 3, "label": [3, 3]}
    assert d["trees"] == [[10, 0], [0, 9]]
    assert d["stones"] == [[15, 11], [16, 12]]
    assert Sheet.from_json(d) == s
    assert Sheet.from_json({**d, "pools": [], "seat": 0}) == s


def test_refusals_are_translated_to_polish() -> None:
    with pytest.raises(IllegalActionError) as err:
        add_features(sheet(KITCHEN), "tree", cells("D4"))
    assert t(err.value.msg, "pl") == (
        "D4 leży w pomieszczeniu: Kuchnia (C3). Ten element (drzewo) rysuje się na zewnątrz.")


def test_two_sets_of_one_round_share_the_free_cells() -> None:
    kitchen = sheet("K C3 4x3 C3", doors="D3 E3", windows="F3 F4")  # free walls: C4 C5 D5 E5 F5; inside also D4 E4
    assert sets_fit(kitchen, [("door", 2), ("window", 3)])
    assert not sets_fit(kitchen, [("door", 3), ("window", 3)])
    assert sets_fit(kitchen, [("window", 3), ("furnishing", 4)])
    assert not sets_fit(kitchen, [("window", 4), ("furnishing", 4)])
    hole = _full_but("F5")
    assert sets_fit(hole, [("deck", 5), ("stone", 1)])
    assert not sets_fit(hole, [("deck", 5), ("stone", 2)])
    assert sets_fit(sheet("K A4 17x10"), [("tree", 2), ("stone", 6)])
    assert not sets_fit(sheet("K A4 17x10", "C E1 13x3"), [("tree", 1), ("stone", 4)])  # A–D × 1–3: 12 - 9 = 3
    assert sets_fit(sheet("K A4 17x10", "C E1 13x3"), [("tree", 1), ("stone", 3)])
