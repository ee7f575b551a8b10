"""The client cards as data, the demand vocabulary (a test per op: met, unmet, scored again only with fresh
elements) and the Layout Door Bonuses."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

from i18n import catalog, t
from rules.floor_plan import demands as dm
from rules.floor_plan.game import SHEET_DATA, SHEET_PATH, parse_sheet_data
from tests.rules.fp_helpers import R, sheet


def w(demand: str, sh: object, used: frozenset[str] = frozenset()) -> frozenset[str] | None:
    return dm.witness(demand, sh, used)


def twice(demand: str, sh: object) -> tuple[frozenset[str] | None, frozenset[str] | None]:
    first = w(demand, sh)
    return first, (None if first is None else w(demand, sh, first))


# --- the data ---------------------------------------------------------------------------------------------


def test_every_client_file_validates_with_five_clients_of_each_kind() -> None:
    clients = dm.load_clients()
    assert [sum(1 for c in clients.values() if c.kind == k) for k in dm.KINDS] == [5, 5, 5]
    for c in clients.values():
        assert len(c.demands) == (1 if c.kind == "layout" else 2)
        assert (c.door_bonus is not None) == (c.kind == "layout")
    assert len(dm.DEMANDS) == 25


def test_every_door_bonus_scores_one_per_instance_and_at_most_five_instances() -> None:
    # The adaptation's +1 per instance, capped by our balance (docs/floor_plan.md, Balance): uncapped, a Layout's
    # door bonus was a sure 6 points a game.
    bonuses = [c.door_bonus for c in dm.CLIENTS.values() if c.door_bonus]
    assert len(bonuses) == len(dm.by_kind("layout"))
    assert all(b.points == 1 and b.params.get("max") == 5 for b in bonuses)


def test_a_demand_that_takes_a_plan_is_worth_more_than_one_a_starting_room_meets() -> None:
    # Balance: one room of every type, a courtyard, every room reachable outweigh a room of 20+ cells.
    cheap = dm.DEMANDS["collector.2"].points
    assert all(dm.DEMANDS[d].points >= 2 * cheap for d in ("open_plan.1", "courtyard.1", "step_free.1"))


@pytest.mark.parametrize("locale", ["en", "pl"])
def test_every_client_demand_and_door_bonus_has_a_name(locale: str) -> None:
    cat = catalog(locale)
    for c in dm.CLIENTS.values():
        assert f"fp.client.{c.id}" in cat
        assert all(f"fp.demand.{d.id}" in cat for d in c.demands)
        if c.door_bonus:
            assert t(f"fp.door_bonus.{c.id}", locale, points=1).startswith("+1")
    for _, rid in SHEET_DATA.ratings:
        assert f"fp.rating.{rid}" in cat


@pytest.mark.parametrize("breakage", [
    lambda d: d["build"].pop(),
    lambda d: d["design"][0]["demands"].pop(),
    lambda d: d["layout"][0].pop("door_bonus"),
    lambda d: d["build"][0]["demands"][0].update(op="teleport"),
    lambda d: d["build"][0]["demands"][0].update(a="X"),
    lambda d: d["build"][0]["demands"][0].update(points=0),
    lambda d: d["build"][0]["demands"][0].update(colour="red"),
    lambda d: d["design"][0]["demands"][0].update(sees="moon"),
    lambda d: d["build"][1].update(id="hosts"),
])
def test_a_broken_client_file_is_refused(breakage: object) -> None:
    raw = json.loads((dm.DATA / "clients.json").read_text(encoding="utf-8"))
    broken = copy.deepcopy(raw)
    breakage(broken)  # type: ignore[operator]
    dm.parse_clients(raw)
    with pytest.raises(ValueError):
        dm.parse_clients(broken)


def test_the_sheet_file_validates_with_the_bonus_layout_and_bubbles() -> None:
    data = parse_sheet_data(json.loads(SHEET_PATH.read_text(encoding="utf-8")))
    assert data.notes == ("double_feature", "double_room", "two_doors", "double_feature", "double_room",
                          "two_doors")
    assert data.solo_bubbles == 20 and data.sixth_bonus == 3
    with pytest.raises(ValueError):
        parse_sheet_data({**json.loads(SHEET_PATH.read_text(encoding="utf-8")), "notes": ["wild"] * 6})


@pytest.mark.parametrize(("score", "rating"), [
    (0, "dimwitted_designer"), (24, "dimwitted_designer"), (25, "faulty_foreman"), (34, "dull_draftsman"),
    (35, "capable_contractor"), (44, "marvelous_maker"), (45, "brainy_builder"), (50, "brainy_builder"),
    (51, "crafty_creator"), (59, "perfect_planner"), (60, "starchitect"), (99, "starchitect")])
def test_solo_ratings_follow_the_rulebook_table(score: int, rating: str) -> None:
    assert SHEET_DATA.rating(score) == rating


# --- rooms and connections -----------------------------------------------------------------------------------

KD = (R("K", "A1", 3, 3), R("D", "D1", 3, 3))


def test_connected_needs_a_door_between_the_two_rooms() -> None:
    assert w("hosts.1", sheet(*KD)) is None
    assert w("hosts.1", sheet(*KD, doors="C2")) == {"room:0", "room:1", "door:C2"}


def test_connected_door_may_open_into_either_room() -> None:
    assert w("hosts.1", sheet(*KD, doors="D2")) == {"room:0", "room:1", "door:D2"}


def test_connected_scores_again_only_with_fresh_rooms_and_door() -> None:
    sh = sheet(*KD, doors="C2 D3")
    assert twice("hosts.1", sh)[1] is None
    sh2 = sheet(*KD, R("K", "A5", 3, 3), R("D", "D5", 3, 3), doors="C2 C6")
    _, second = twice("hosts.1", sh2)
    assert second == {"room:2", "room:3", "door:C6"}


def test_connected_count_needs_two_different_neighbours() -> None:
    living = R("L", "D4", 3, 3)
    sh = sheet(living, R("B", "A4", 3, 3), R("K", "G4", 3, 3), doors="D5 D6")
    assert w("hosts.2", sh) is None  # two doors into the same bedroom
    sh = sheet(living, R("B", "A4", 3, 3), R("K", "G4", 3, 3), doors="D5 F5")
    assert w("hosts.2", sh) == {"room:0", "room:1", "room:2", "door:D5", "door:F5"}


def test_room_count_uses_exactly_the_rooms_needed() -> None:
    bedrooms = [R("B", f"{col}1", 2, 2) for col in "ACEGIK"]
    first, second = twice("big_family.1", sheet(*bedrooms))
    assert first == {"room:0", "room:1", "room:2"} and second == {"room:3", "room:4", "room:5"}
    assert w("big_family.1", sheet(*bedrooms[:2])) is None


def test_room_types_needs_one_of_every_type() -> None:
    rooms = [R(tp, f"{col}1", 2, 2) for tp, col in zip("CWBKD", "ACEGI", strict=True)]
    assert w("open_plan.1", sheet(*rooms)) is None
    assert w("open_plan.1", sheet(*rooms, R("L", "K1", 2, 2))) == {f"room:{i}" for i in range(6)}


def test_connected_same_type() -> None:
    sh = sheet(R("B", "A1", 3, 3), R("B", "D1", 3, 3), R("K", "G1", 3, 3), doors="F2")
    assert w("open_plan.2", sh) is None
    assert w("open_plan.2", sheet(*sh.rooms, doors="C2")) == {"room:0", "room:1", "door:C2"}


def test_room_size_and_square_room() -> None:
    assert w("collector.2", sheet(R("K", "A1", 4, 4))) is None
    assert w("collector.2", sheet(R("K", "A1", 4, 5))) == {"room:0"}
    assert w("courtyard.2", sheet(R("C", "A1", 2, 2))) is None
    assert w("courtyard.2", sheet(R("C", "A1", 2, 2), R("B", "D1", 3, 3))) == {"room:1"}


def test_courtyard_is_an_enclosed_outside_region_touching_four_rooms() -> None:
    ring = (R("K", "B2", 5, 1), R("B", "B3", 1, 3), R("D", "F3", 1, 3), R("L", "B6", 5, 1))
    found = w("courtyard.1", sheet(*ring))
    assert found is not None and {"room:0", "room:1", "room:2", "room:3", "yard:C3", "yard:E5"} <= found
    open_ring = (R("K", "B2", 5, 1), R("B", "B3", 1, 3), R("D", "F3", 1, 2), R("L", "B6", 5, 1))
    assert w("courtyard.1", sheet(*open_ring)) is None  # leaks out at F5


# --- windows, furnishings, pools, decks -----------------------------------------------------------------------


def test_window_sees_a_tree_only_from_a_bedroom() -> None:
    bed = R("B", "A1", 3, 3)
    assert w("nature_lover.1", sheet(bed, trees="E1", windows="C2")) == {"room:0", "window:C2", "tree:0"}
    assert w("nature_lover.1", sheet(R("K", "A1", 3, 3), trees="E1", windows="C2")) is None
    assert w("nature_lover.1", sheet(bed, trees="E5", windows="C2")) is None  # not in line


def test_window_view_blocked_by_a_room() -> None:
    sh = sheet(R("B", "A1", 3, 3), R("C", "D1", 1, 3), trees="F1", windows="C2")
    assert w("nature_lover.1", sh) is None


def test_the_same_tree_cannot_score_again_even_with_another_bedroom() -> None:
    sh = sheet(R("B", "A1", 3, 3), R("B", "A5", 3, 3), trees="E1", windows="C2 C3")
    assert twice("nature_lover.1", sh)[1] is None


POOL_STONES = "E6 E7 H6 H7 F5 G5 F8 G8"  # a 2×2 pool F6:G7, corners open (diagonal gaps hold water)


def test_pool_of_four_counts_its_water() -> None:
    assert w("swimmer.1", sheet(stones=POOL_STONES)) == {"water:F6", "water:G6", "water:F7", "water:G7"}
    assert w("swimmer.1", sheet(stones=POOL_STONES.replace("G8", "G9"))) is None  # leaks


def test_stones_may_be_reused_by_a_new_pool() -> None:
    sh = sheet(stones=POOL_STONES + " K6 K7 I5 J5 I8 J8")  # a second pool I6:J7 shares the stones H6 H7
    _, second = twice("swimmer.1", sh)
    assert second == {"water:I6", "water:J6", "water:I7", "water:J7"}


def test_dining_window_sees_a_pool() -> None:
    sh = sheet(R("D", "A5", 3, 3), windows="C6", stones=POOL_STONES)
    found = w("nature_lover.2", sh)
    assert found is not None and {"room:0", "window:C6", "water:F6"} <= found


def test_deck_touching_a_pool_at_its_rim_or_open_corner() -> None:
    assert w("swimmer.2", sheet(R("K", "A9", 3, 3), stones=POOL_STONES, decks="D9")) is None
    corner = w("swimmer.2", sheet(R("K", "A1", 4, 4), stones=POOL_STONES, decks="E5"))
    assert corner is not None and "deck:E5" in corner and "water:F6" in corner
    rim = w("swimmer.2", sheet(R("K", "A1", 3, 5), stones=POOL_STONES, decks="D6"))
    assert rim is not None and "deck:D6" in rim


def test_unique_arrangement_in_a_living_room() -> None:
    living = R("L", "A1", 4, 4, "D4")
    assert w("decorator.1", sheet(living, furnishings="A1 B1 C1")) == {"room:0", "furn:A1", "furn:B1", "furn:C1"}
    assert w("decorator.1", sheet(living, furnishings="A1 B1")) is None
    same = sheet(living, R("B", "F1", 3, 3), furnishings="A1 B1 C1 F1 G1 H1")
    assert w("decorator.1", same) is None  # the bedroom holds the same shape
    mirrored = sheet(living, R("B", "F1", 3, 3), furnishings="A1 B1 B2 F1 G1 F2")
    assert w("decorator.1", mirrored) is None  # a reflection counts as the same shape


def test_a_room_with_four_furnishings() -> None:
    sh = sheet(R("K", "A1", 3, 3), furnishings="A1 C1 A3 C3")
    assert w("decorator.2", sh) == {"room:0", "furn:A1", "furn:C1", "furn:A3", "furn:C3"}
    assert w("decorator.2", sheet(R("K", "A1", 3, 3), furnishings="A1 C1 A3")) is None


def test_windows_on_two_walls_and_three_kitchen_windows() -> None:
    kitchen = R("K", "B2", 3, 4)
    assert w("sun_seeker.1", sheet(kitchen, windows="B3 B4")) is None  # both on the west wall
    assert w("sun_seeker.1", sheet(kitchen, windows="B3 B5")) is not None  # B5 is a corner: west and south
    assert w("sun_seeker.1", sheet(kitchen, windows="B3 D3")) == {"room:0", "window:B3", "window:D3"}
    assert w("sun_seeker.2", sheet(kitchen, windows="B3 D3")) is None
    assert w("sun_seeker.2", sheet(kitchen, windows="B3 D3 C5")) == {"room:0", "window:B3", "window:D3",
                                                                     "window:C5"}


def test_deck_of_five_and_living_room_door_onto_a_deck() -> None:
    living = R("L", "A1", 3, 3)
    assert w("entertainer.1", sheet(living, decks="D1 D2 D3 E3")) is None
    assert w("entertainer.1", sheet(living, decks="D1 D2 D3 E3 F3")) is not None
    assert w("entertainer.2", sheet(living, doors="C2", decks="D1")) is None
    assert w("entertainer.2", sheet(living, doors="C2", decks="D2")) == {"room:0", "door:C2", "deck:D2"}


# --- layout demands and door bonuses -------------------------------------------------------------------------


ROW = (R("L", "A1", 3, 3), R("K", "D1", 3, 3), R("B", "G1", 3, 3), R("D", "J1", 3, 3))


def test_every_room_reachable_from_an_exterior_door() -> None:
    assert w("step_free.1", sheet(*ROW, doors="C2 F2 I2")) is None  # no exterior door
    found = w("step_free.1", sheet(*ROW, doors="C2 F2 I2 B3"))
    assert found == {"room:0", "room:1", "room:2", "room:3", "door:B3", "door:C2", "door:F2", "door:I2"}
    assert w("step_free.1", sheet(*ROW, doors="C2 I2 B3")) is None


def test_house_of_six_rooms_and_two_exterior_doors() -> None:
    assert w("flagstone_entry.1", sheet(*ROW)) is None
    assert w("flagstone_entry.1", sheet(*ROW, R("C", "A5", 1, 1), R("C", "C5", 1, 1))) is not None
    assert w("garden_paths.1", sheet(*ROW, doors="B3 C2")) is None  # C2 is between rooms
    assert w("garden_paths.1", sheet(*ROW, doors="B3 E3")) == {"door:B3", "door:E3"}


def test_deck_touching_two_rooms() -> None:
    assert w("deck_life.1", sheet(*ROW, decks="A4 B4")) is None
    assert w("deck_life.1", sheet(*ROW, decks="B4 C4 D4")) == {"deck:B4", "deck:C4", "deck:D4", "room:0", "room:1"}


def test_chain_of_four_rooms() -> None:
    assert w("flow.1", sheet(*ROW, doors="C2 F2")) is None
    assert w("flow.1", sheet(*ROW, doors="C2 F2 I2")) == {"room:0", "room:1", "room:2", "room:3", "door:C2",
                                                         "door:F2", "door:I2"}


def test_door_bonuses_count_instances() -> None:
    sh = sheet(*ROW, doors="C2 F2 B3 E3", stones="B4", decks="E4", trees="K9")
    assert dm.door_bonus_count("step_free", sh) == 3  # L, K, B have a door
    assert dm.door_bonus_count("flow", sh) == 2  # L (C2, B3) and K (C2, F2, E3)
    assert dm.door_bonus_count("flagstone_entry", sh) == 1
    assert dm.door_bonus_count("deck_life", sh) == 1
    assert dm.door_bonus_count("garden_paths", sh) == 0
    assert dm.door_bonus_count("garden_paths", sheet(*ROW, doors="K3", trees="J9")) == 1
    assert dm.door_bonus_count("hosts", sh) == 0


def test_claimable_lists_the_demands_that_could_score_now() -> None:
    sh = sheet(*KD, doors="C2", stones=POOL_STONES)
    clients = ("hosts", "swimmer", "flow")
    assert dm.claimable(sh, clients, {}) == ["hosts.1", "swimmer.1"]
    assert dm.claimable(sh, clients, {"hosts.1": w("hosts.1", sh)}) == ["swimmer.1"]


def test_witness_cells_cover_rooms_trees_and_features() -> None:
    sh = sheet(R("B", "A1", 2, 1), trees="E1")
    assert dm.witness_cells(sh, {"room:0", "tree:0", "window:A1"}) == sorted(
        [(0, 0), (1, 0)] + [(x, y) for x in range(4, 7) for y in range(3)], key=lambda c: (c[1], c[0]))


@pytest.mark.parametrize("locale", ["en", "pl"])
def test_bonus_kind_and_outcome_names_are_translated(locale: str) -> None:
    from rules.floor_plan.game import BONUSES, OUTCOMES

    cat = catalog(locale)
    keys = [f"fp.bonus.{b}" for b in (*BONUSES, "wild")] + [f"fp.kind.{k}" for k in dm.KINDS] + list(OUTCOMES)
    assert [k for k in keys if k not in cat] == []
    own = json.loads((dm.DATA.parents[0] / "i18n" / locale / "floor_plan.json").read_text(encoding="utf-8"))
    assert all(k.startswith("fp.") and not k.startswith("fp.sheet.") for k in own)


def test_a_door_bonus_with_a_max_counts_at_most_that_many_instances() -> None:
    # The optional ``max`` of a Door Bonus (a balance lever; today's cards set none).
    sh = sheet(*ROW, doors="C2 F2 B3 E3", stones="B4", decks="E4", trees="K9")
    step_free = dm.CLIENTS["step_free"]
    capped = replace(step_free, door_bonus=dm.DoorBonus(1, "doored_rooms", {"min": 1, "max": 2}))
    assert dm.door_bonus_count(step_free, sh) == 3 and dm.door_bonus_count(capped, sh) == 2
    raw = {"points": 1, "op": "doored_rooms", "min": 1, "max": 0}
    with pytest.raises(ValueError, match="bad max"):
        dm._check_params("step_free.door_bonus", raw, dm.BONUS_OPS)
