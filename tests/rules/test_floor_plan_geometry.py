"""Floor Plan derived geometry: pools, decks, doors, window views, arrangements, outside regions."""

from __future__ import annotations

from rules.floor_plan.geometry import (
    DoorLink,
    Seen,
    arrangements,
    canonical_shape,
    decks,
    door_links,
    outside_regions,
    pools,
    touching_rooms,
    window_views,
)
from rules.floor_plan.sheet import parse_cell
from tests.rules.fp_sheet_helpers import cells, names, sheet

KITCHEN = "K C3 4x3 C3"  # C–F × 3–5, label C3
RING = "C2 D2 E2 C6 D6 E6 B3 B4 B5 F3 F4 F5"  # around C3–E5, corners open (diagonal gaps)


def pool_names(s) -> list[list[str]]:
    return [names(p) for p in pools(s)]


# --- pools -------------------------------------------------------------------------------------------------


def test_a_diamond_of_stones_holds_one_cell_of_water() -> None:
    assert pool_names(sheet(stones="D3 C4 E4 D5")) == [["D4"]]


def test_a_closed_ring_of_stones_holds_water() -> None:
    assert pool_names(sheet(stones="B2 C2 D2 B3 D3 B4 C4 D4")) == [["C3"]]


def test_diagonal_gaps_between_stones_hold_water() -> None:
    s = sheet(stones="C2 D2 E2 C5 D5 E5 B3 B4 F3 F4")
    assert pool_names(s) == [names(cells("C3 D3 E3 C4 D4 E4"))]


def test_an_orthogonal_gap_of_one_step_leaks() -> None:
    assert pools(sheet(stones="C2 E2 C5 D5 E5 B3 B4 F3 F4")) == []


def test_the_sheet_edge_does_not_hold_water() -> None:
    assert pools(sheet(stones="B1 A2")) == []
    assert pools(sheet(stones="A2 B2 C2 D1")) == []


def test_a_tree_inside_the_stones_prevents_a_pool() -> None:
    assert pool_names(sheet(stones=RING)) == [names(cells("C3 D3 E3 C4 D4 E4 C5 D5 E5"))]
    assert pools(sheet(stones=RING, trees="C3")) == []


def test_any_feature_or_room_inside_the_stones_prevents_a_pool() -> None:
    assert pools(sheet(stones=RING, decks="C3")) == []
    assert pools(sheet("C E5 1x1", stones=RING)) == []


def test_a_stone_inside_a_ring_is_not_water_but_the_cells_around_it_are() -> None:
    assert pool_names(sheet(stones=RING + " D4")) == [names(cells("C3 D3 E3 C4 E4 C5 D5 E5"))]


def test_two_pools_may_share_a_stone_and_are_listed_in_scan_order() -> None:
    s = sheet(stones="D3 C4 E4 D5 F3 G4 F5")
    assert pool_names(s) == [["D4"], ["F4"]]
    assert s.pool_of == {parse_cell("D4"): 0, parse_cell("F4"): 1}


# --- decks -------------------------------------------------------------------------------------------------


def test_a_deck_is_all_orthogonally_touching_sections() -> None:
    s = sheet(KITCHEN, decks="B3 B4 G5 H5 D2 H6 I7")
    assert [names(d) for d in decks(s)] == [["D2"], ["B3", "B4"], ["G5", "H5", "H6"], ["I7"]]


# --- doors -------------------------------------------------------------------------------------------------


def test_a_door_on_a_shared_wall_connects_two_rooms() -> None:
    s = sheet(KITCHEN, "B G3 3x3 G3", doors="F4")
    assert door_links(s) == [DoorLink(parse_cell("F4"), 0, frozenset({1}), frozenset())]


def test_a_door_onto_an_outside_cell_is_an_exterior_door() -> None:
    (link,) = door_links(sheet(KITCHEN, "B G3 3x3 G3", doors="D5"))
    assert link.others == frozenset()
    assert link.outside == frozenset(cells("D6"))
    assert link.exterior


def test_a_corner_door_may_connect_and_open_outside_at_once() -> None:
    (link,) = door_links(sheet(KITCHEN, "B G3 3x3 G3", doors="F5"))
    assert (link.room, link.others, names(link.outside)) == (0, frozenset({1}), ["F6"])


def test_a_door_facing_only_the_sheet_edge_opens_onto_nothing() -> None:
    (link,) = door_links(sheet("C A1 3x3 B2", doors="A2"))
    assert (link.others, link.outside) == (frozenset(), frozenset())


# --- windows -----------------------------------------------------------------------------------------------


def test_a_window_sees_stones_decks_and_trees_in_a_straight_line() -> None:
    s = sheet(KITCHEN, trees="L3", windows="F4", stones="H4", decks="J4")
    (view,) = window_views(s)
    assert (view.room, view.direction) == (0, "E")
    assert view.sees == (Seen("stone", parse_cell("H4")), Seen("deck", parse_cell("J4")), Seen("tree", 0))


def test_a_tree_blocks_a_window_view() -> None:
    s = sheet(KITCHEN, trees="H3", windows="F4", stones="P4")
    assert [v.sees for v in window_views(s)] == [(Seen("tree", 0),)]


def test_a_room_blocks_a_window_view_unseen() -> None:
    s = sheet(KITCHEN, "C A4 1x1 A4", windows="C4", stones="B4")
    assert [v.sees for v in window_views(s)] == [(Seen("stone", parse_cell("B4")),)]
    beyond = sheet(KITCHEN, "C H4 1x1 H4", windows="F4", stones="J4")
    assert [v.sees for v in window_views(beyond)] == [()]


def test_a_window_against_another_room_has_no_view() -> None:
    assert window_views(sheet(KITCHEN, "C A3 2x3 A3", windows="C4")) == []


def test_a_window_on_a_corner_cell_looks_two_ways() -> None:
    s = sheet("K C3 4x3 D4", windows="C3", stones="C1", decks="B3")
    assert [(v.direction, v.sees) for v in window_views(s)] == [
        ("N", (Seen("stone", parse_cell("C1")),)),
        ("W", (Seen("deck", parse_cell("B3")),)),
    ]


def test_a_window_sees_a_pool_once_however_many_of_its_cells_the_line_crosses() -> None:
    s = sheet(KITCHEN, windows="D5", stones="D6 D9 C7 C8 E7 E8")
    assert pool_names(s) == [["D7", "D8"]]
    (view,) = window_views(s)
    assert view.direction == "S"
    assert view.sees == (Seen("stone", parse_cell("D6")), Seen("pool", 0), Seen("stone", parse_cell("D9")))


def test_a_window_facing_the_sheet_edge_sees_nothing_that_way() -> None:
    s = sheet("C A1 2x2 A1", windows="B1")
    assert [v.direction for v in window_views(s)] == ["E"]


# --- arrangements ------------------------------------------------------------------------------------------


def test_shapes_are_equal_under_rotation_and_reflection() -> None:
    ell = cells("A1 A2 A3 B3")
    mirrored = cells("B1 B2 B3 A3")
    rotated = cells("A1 B1 C1 A2")
    tee = cells("A1 B1 C1 B2")
    assert canonical_shape(ell) == canonical_shape(mirrored) == canonical_shape(rotated)
    assert canonical_shape(ell) != canonical_shape(tee)
    assert canonical_shape(cells("A1 B1 B2 C2")) == canonical_shape(cells("B1 C1 A2 B2"))  # S and Z


def test_arrangements_equal_under_rotation_or_reflection_are_not_unique() -> None:
    s = sheet("L A1 6x6 A1", "B H1 6x6 H1", "K A8 6x5 A8",
              furnishings="B2 C2 B3 I2 J2 J3 B9 C9 D9")
    result = arrangements(s)
    assert [(a.room, names(a.cells), a.unique) for a in result] == [
        (0, ["B2", "B3", "C2"], False),
        (1, ["I2", "J2", "J3"], False),
        (2, ["B9", "C9", "D9"], True),
    ]
    assert result[0].shape == result[1].shape


def test_an_arrangement_stays_within_one_room_and_needs_orthogonal_touch() -> None:
    s = sheet("C A1 2x1 A1", "W C1 2x1 D1", "B A3 4x4 A3", furnishings="B1 C1 B4 C5")
    assert [(a.room, names(a.cells)) for a in arrangements(s)] == [
        (0, ["B1"]), (1, ["C1"]), (2, ["B4"]), (2, ["C5"])]
    assert not any(a.unique for a in arrangements(s))


# --- outside regions and touching rooms --------------------------------------------------------------------


def test_a_wall_to_wall_room_splits_the_outside_in_two() -> None:
    regions = outside_regions(sheet("C H1 1x13 H1", stones="A1"))
    assert [len(r) for r in regions] == [7 * 13, 9 * 13]
    assert parse_cell("A1") in regions[0]


def test_four_rooms_around_a_courtyard_touch_it() -> None:
    s = sheet("K A1 5x2 A1", "B A3 2x3 A3", "D D3 2x3 D3", "L A6 5x2 A6")
    regions = outside_regions(s)
    court = next(r for r in regions if parse_cell("C4") in r)
    assert names(court) == ["C3", "C4", "C5"]
    assert touching_rooms(s, court) == frozenset({0, 1, 2, 3})


def test_touching_rooms_counts_orthogonal_neighbours_only() -> None:
    s = sheet(KITCHEN, "B G3 3x3 G3")
    assert touching_rooms(s, cells("B4")) == frozenset({0})
    assert touching_rooms(s, cells("B2")) == frozenset()
    assert touching_rooms(s, cells("C6 J3")) == frozenset({0, 1})
