"""The attack and every Special Attack card, with each legality condition (3 players unless stated:
red (seat 0) hunts yellow, yellow hunts blue, blue hunts red)."""

from __future__ import annotations

from rules.base import IllegalActionError
from tests.rules.fb_helpers import G, at, cell, gone, refused


def hands(*cards: str) -> str:
    return "hands=" + "|".join(cards)


# --- attack -------------------------------------------------------------------------------------------------


def test_attack_moves_into_an_adjacent_prey_ninja_and_eliminates_it() -> None:
    s = at(3, 0, r="c3", y="c4")
    s2, events = G.apply(s, 0, "attack c3 c4")
    assert (cell(s2, "c3"), cell(s2, "c4")) == (".", "r")
    assert gone(s, s2) == (0, 1, 0) and s2.captured == (1, 0, 0)
    assert events[0].kind == "attack" and events[0].data["removed"] == ["c4"]


def test_attack_is_orthogonal_only() -> None:
    s = at(3, 0, r="c3", y="d4")
    assert "d4 is not orthogonally adjacent to c3" in refused(s, 0, "attack c3 d4", IllegalActionError)


def test_attack_must_be_adjacent() -> None:
    s = at(3, 0, r="c3", y="c5")
    assert "not orthogonally adjacent" in refused(s, 0, "attack c3 c5", IllegalActionError)


def test_attack_needs_a_ninja_of_your_own() -> None:
    s = at(3, 0, r="a1", y="c3 c4")
    assert refused(s, 0, "attack c3 c4", IllegalActionError) == "c3 holds no ninja of yours (red)."


def test_attack_on_an_empty_cell_is_refused() -> None:
    s = at(3, 0, r="c3")
    assert refused(s, 0, "attack c3 c4", IllegalActionError) == "There is no ninja on c4."


def test_attack_on_your_hunter_is_refused_with_the_prey_named() -> None:
    s = at(3, 0, r="c3", b="c4")
    msg = refused(s, 0, "attack c3 c4", IllegalActionError)
    assert msg == "c4 is not your prey: it is blue, and you (red) hunt yellow."


def test_attack_on_your_own_ninja_is_refused() -> None:
    s = at(3, 0, r="c3 c4")
    assert "is not your prey" in refused(s, 0, "attack c3 c4", IllegalActionError)


def test_four_players_cannot_attack_the_seat_across() -> None:
    s = at(4, 0, r="c3", b="c4", y="d3")
    assert "you (red) hunt yellow" in refused(s, 0, "attack c3 c4", IllegalActionError)
    assert G.legal_actions(s, 0) == ["attack c3 d3", "pass"]


def test_five_players_may_attack_either_prey() -> None:
    s = at(5, 0, r="c3", y="c4", b="d3", g="b3", k="c2")
    assert G.legal_actions(s, 0) == ["attack c3 c4", "attack c3 d3", "pass"]


def test_two_players_can_attack_only_the_neutral_colour() -> None:
    s = at(2, 0, r="c3", y="c4", b="d3")
    assert G.legal_actions(s, 0) == ["attack c3 d3", "pass"]
    assert "you (red) hunt blue" in refused(s, 0, "attack c3 c4", IllegalActionError)


# --- cards in general ---------------------------------------------------------------------------------------


def test_a_card_must_be_in_your_hand() -> None:
    s = at(3, 0, r="c3", y="c5", extra=hands("-", "shuriken", "-"))
    assert refused(s, 0, "shuriken c3 c5", IllegalActionError) == "You have no Shuriken card."


def test_a_played_card_is_removed_from_the_game() -> None:
    s = at(3, 0, r="c3", y="c5", extra=hands("shuriken,shuriken", "-", "-"))
    s2, events = G.apply(s, 0, "shuriken c3 c5")
    assert s2.hands[0] == ("shuriken",)
    assert events[0].kind == "card" and events[0].data["card"] == "shuriken"


# --- vanishing ----------------------------------------------------------------------------------------------


def test_vanish_teleports_a_ninja_of_yours_to_any_empty_cell() -> None:
    s = at(3, 0, r="c3", b="h7 h9 g8 i8", extra=hands("vanish", "-", "-"))
    s2, _ = G.apply(s, 0, "vanish c3 h8")
    assert (cell(s2, "c3"), cell(s2, "h8")) == (".", "r") and s2.hands[0] == ()
    assert gone(s, s2) == (0, 0, 0)


def test_vanish_needs_an_empty_target_cell() -> None:
    s = at(3, 0, r="c3", y="h8", extra=hands("vanish", "-", "-"))
    assert refused(s, 0, "vanish c3 h8", IllegalActionError) == (
        "h8 is not empty: Vanishing needs an empty cell.")
    assert "another cell" in refused(s, 0, "vanish c3 c3", IllegalActionError)


def test_vanish_needs_a_ninja_of_yours() -> None:
    s = at(3, 0, y="c3", extra=hands("vanish", "-", "-"))
    assert "holds no ninja of yours" in refused(s, 0, "vanish c3 h8", IllegalActionError)


def test_vanish_is_legal_on_a_full_board_only_if_a_cell_is_empty() -> None:
    s = G.new(3, {"cards": "none"}, "full")
    s = G.from_position(G.to_position(s).replace("hands=-|-|-", "hands=vanish|-|-"))
    assert not any(a.startswith("vanish") for a in G.legal_actions(s, 0))


# --- shuriken -----------------------------------------------------------------------------------------------


def test_shuriken_flies_through_empty_cells_and_eliminates_the_prey_hit() -> None:
    s = at(3, 0, r="c3", y="c7", extra=hands("shuriken", "-", "-"))
    s2, _ = G.apply(s, 0, "shuriken c3 c7")
    assert cell(s2, "c7") == "." and s2.captured == (1, 0, 0)


def test_shuriken_thrower_does_not_move() -> None:
    s = at(3, 0, r="c3", y="f3", extra=hands("shuriken", "-", "-"))
    s2, _ = G.apply(s, 0, "shuriken c3 f3")
    assert cell(s2, "c3") == "r" and cell(s2, "f3") == "."


def test_shuriken_may_hit_an_adjacent_prey() -> None:
    s = at(3, 0, r="c3", y="c4", extra=hands("shuriken", "-", "-"))
    assert cell(G.apply(s, 0, "shuriken c3 c4")[0], "c3") == "r"


def test_shuriken_is_blocked_by_a_non_prey_ninja() -> None:
    s = at(3, 0, r="c3", b="c5", y="c7", extra=hands("shuriken", "-", "-"))
    assert refused(s, 0, "shuriken c3 c7", IllegalActionError) == (
        "The shuriken cannot reach c7: the ninja on c5 is in the way.")
    assert not any(a.startswith("shuriken") for a in G.legal_actions(s, 0))


def test_shuriken_is_blocked_by_your_own_ninja() -> None:
    s = at(3, 0, r="c3 c5", y="c7", extra=hands("shuriken", "-", "-"))
    assert "in the way" in refused(s, 0, "shuriken c3 c7", IllegalActionError)


def test_shuriken_stops_at_the_first_ninja_hit() -> None:
    s = at(3, 0, r="c3", y="c5 c7", extra=hands("shuriken", "-", "-"))
    assert "the ninja on c5 is in the way" in refused(s, 0, "shuriken c3 c7", IllegalActionError)
    assert [a for a in G.legal_actions(s, 0) if a.startswith("shuriken")] == ["shuriken c3 c5"]


def test_shuriken_first_ninja_hit_must_be_prey() -> None:
    s = at(3, 0, r="c3", b="c6", extra=hands("shuriken", "-", "-"))
    assert "c6 is not your prey" in refused(s, 0, "shuriken c3 c6", IllegalActionError)


def test_shuriken_flies_in_an_orthogonal_straight_line() -> None:
    s = at(3, 0, r="c3", y="e5", extra=hands("shuriken", "-", "-"))
    assert refused(s, 0, "shuriken c3 e5", IllegalActionError) == (
        "c3 and e5 are not on one orthogonal straight line.")


def test_shuriken_needs_a_ninja_on_the_target() -> None:
    s = at(3, 0, r="c3", extra=hands("shuriken", "-", "-"))
    assert refused(s, 0, "shuriken c3 c8", IllegalActionError) == "There is no ninja on c8."


# --- double and triple kick ---------------------------------------------------------------------------------


def test_double_kick_eliminates_two_prey_in_a_line_and_lands_two_cells_away() -> None:
    s = at(3, 0, r="c3", y="d3 e3", extra=hands("double", "-", "-"))
    s2, _ = G.apply(s, 0, "double c3 e3")
    assert (cell(s2, "c3"), cell(s2, "d3"), cell(s2, "e3")) == (".", ".", "r")
    assert s2.captured == (2, 0, 0) and s2.hands[0] == ()


def test_double_kick_cannot_cross_an_empty_cell() -> None:
    s = at(3, 0, r="c3", y="c5", extra=hands("double", "-", "-"))
    assert refused(s, 0, "double c3 c5", IllegalActionError) == (
        "Double kick cannot cross the empty cell c4: every cell kicked must hold a prey ninja.")


def test_double_kick_hits_only_prey() -> None:
    s = at(3, 0, r="c3", y="c4", b="c5", extra=hands("double", "-", "-"))
    assert "c5 is not your prey" in refused(s, 0, "double c3 c5", IllegalActionError)


def test_double_kick_lands_exactly_two_cells_away() -> None:
    s = at(3, 0, r="c3", y="c4 c5 c6", extra=hands("double", "-", "-"))
    assert "exactly 2 cells away" in refused(s, 0, "double c3 c6", IllegalActionError)
    assert "exactly 2 cells away" in refused(s, 0, "double c3 c4", IllegalActionError)


def test_double_kick_goes_in_a_straight_line() -> None:
    s = at(3, 0, r="c3", y="c4 d4", extra=hands("double", "-", "-"))
    assert "straight line" in refused(s, 0, "double c3 d4", IllegalActionError)


def test_triple_kick_eliminates_three_prey_in_a_line_and_lands_three_cells_away() -> None:
    s = at(3, 0, r="c3", y="c4 c5 c6", extra=hands("triple", "-", "-"))
    s2, _ = G.apply(s, 0, "triple c3 c6")
    assert [cell(s2, c) for c in ("c3", "c4", "c5", "c6")] == [".", ".", ".", "r"]
    assert s2.captured == (3, 0, 0)


def test_triple_kick_must_attack_three_ninjas() -> None:
    s = at(3, 0, r="c3", y="c4 c5", extra=hands("triple", "-", "-"))
    assert "cannot cross the empty cell c6" in refused(s, 0, "triple c3 c6", IllegalActionError)
    assert "exactly 3 cells away" in refused(s, 0, "triple c3 c5", IllegalActionError)


def test_triple_kick_hits_only_prey() -> None:
    s = at(3, 0, r="c3", y="c4 c6", b="c5", extra=hands("triple", "-", "-"))
    assert "c5 is not your prey" in refused(s, 0, "triple c3 c6", IllegalActionError)


# --- double dragon ------------------------------------------------------------------------------------------


def test_double_dragon_eliminates_a_hunter_ninja_with_two_of_yours_adjacent() -> None:
    s = at(3, 0, r="e4 d5", b="e5", extra=hands("dragon", "-", "-"))
    s2, _ = G.apply(s, 0, "dragon e5 from e4")
    assert (cell(s2, "e4"), cell(s2, "e5"), cell(s2, "d5")) == (".", "r", "r")
    assert gone(s, s2) == (0, 0, 1) and s2.captured == (0, 0, 0), "a hunter is not prey"


def test_double_dragon_needs_at_least_two_adjacent_ninjas_of_yours() -> None:
    s = at(3, 0, r="e4", b="e5", extra=hands("dragon", "-", "-"))
    assert refused(s, 0, "dragon e5 from e4", IllegalActionError) == (
        "Double Dragon needs at least 2 of your ninjas orthogonally adjacent to e5; you have 1.")


def test_double_dragon_diagonal_ninjas_do_not_count() -> None:
    s = at(3, 0, r="e4 d6", b="e5", extra=hands("dragon", "-", "-"))
    assert "you have 1" in refused(s, 0, "dragon e5 from e4", IllegalActionError)


def test_double_dragon_mover_must_be_adjacent_to_the_target() -> None:
    s = at(3, 0, r="e4 d5 a1", b="e5", extra=hands("dragon", "-", "-"))
    assert "not orthogonally adjacent" in refused(s, 0, "dragon e5 from a1", IllegalActionError)


def test_double_dragon_cannot_target_prey() -> None:
    s = at(3, 0, r="e4 d5", y="e5", extra=hands("dragon", "-", "-"))
    assert refused(s, 0, "dragon e5 from e4", IllegalActionError) == (
        "e5 is your prey: Double Dragon hits only non-prey ninjas. Attack it instead.")


def test_double_dragon_cannot_target_your_own_ninja() -> None:
    s = at(3, 0, r="e4 d5 e5", extra=hands("dragon", "-", "-"))
    assert "your own ninja" in refused(s, 0, "dragon e5 from e4", IllegalActionError)


def test_double_dragon_lists_each_adjacent_mover() -> None:
    s = at(3, 0, r="e4 d5 f5", b="e5", extra=hands("dragon", "-", "-"))
    dragons = [a for a in G.legal_actions(s, 0) if a.startswith("dragon")]
    assert dragons == ["dragon e5 from d5", "dragon e5 from e4", "dragon e5 from f5"]


def test_four_players_double_dragon_can_hit_the_seat_across() -> None:
    s = at(4, 0, r="e4 d5", b="e5", extra=hands("dragon", "-", "-", "-"))
    s2, _ = G.apply(s, 0, "dragon e5 from d5")
    assert cell(s2, "e5") == "r" and gone(s, s2)[2] == 1


def test_two_players_double_dragon_removes_the_opponent_without_counting_as_prey() -> None:
    s = at(2, 0, r="e4 d5", y="e5", extra=hands("dragon", "-"))
    s2, _ = G.apply(s, 0, "dragon e5 from e4")
    assert cell(s2, "e5") == "r" and s2.captured == (0, 0) and gone(s, s2) == (0, 1, 0)


def test_two_players_double_dragon_cannot_hit_the_neutral_prey() -> None:
    s = at(2, 0, r="e4 d5", b="e5", extra=hands("dragon", "-"))
    assert "is your prey" in refused(s, 0, "dragon e5 from e4", IllegalActionError)


# --- circle kick --------------------------------------------------------------------------------------------


def test_circle_kick_eliminates_every_prey_in_the_eight_surrounding_cells_without_moving() -> None:
    s = at(3, 0, r="e5", y="d4 d5 d6 e6 f4", b="f5 e4", extra=hands("circle", "-", "-"))
    s2, events = G.apply(s, 0, "circle e5")
    assert cell(s2, "e5") == "r"
    assert [cell(s2, c) for c in ("d4", "d5", "d6", "e6", "f4")] == ["."] * 5
    assert (cell(s2, "f5"), cell(s2, "e4")) == ("b", "b"), "hunters are not hit"
    assert s2.captured == (5, 0, 0) and events[0].data["removed"] == ["d4", "f4", "d5", "d6", "e6"]


def test_circle_kick_does_not_reach_beyond_the_surrounding_cells() -> None:
    s = at(3, 0, r="e5", y="e7 d6", extra=hands("circle", "-", "-"))
    s2, _ = G.apply(s, 0, "circle e5")
    assert cell(s2, "e7") == "y" and cell(s2, "d6") == "."


def test_circle_kick_must_hit_at_least_one_prey() -> None:
    s = at(3, 0, r="e5", b="e6", y="e7", extra=hands("circle", "-", "-"))
    assert refused(s, 0, "circle e5", IllegalActionError) == (
        "A circle kick from e5 would hit nothing: none of the 8 surrounding cells holds your prey.")


def test_circle_kick_in_a_corner_uses_the_cells_that_exist() -> None:
    s = at(3, 0, r="a1", y="b2", extra=hands("circle", "-", "-"))
    assert cell(G.apply(s, 0, "circle a1")[0], "b2") == "."


# --- bomb ---------------------------------------------------------------------------------------------------


def test_bomb_removes_every_ninja_not_yours_in_the_3x3_area_around_the_landing_cell() -> None:
    s = at(3, 0, r="e1 e8", y="d7 f9 e9", b="e7 f8 d8", extra=hands("bomb", "-", "-"))
    s2, _ = G.apply(s, 0, "bomb e1 e8")
    assert [cell(s2, c) for c in ("d7", "f9", "e9", "e7", "f8", "d8")] == ["."] * 6
    assert cell(s2, "e8") == "r", "your own ninjas stay"
    assert gone(s, s2) == (0, 3, 3) and s2.captured == (3, 0, 0)


def test_bomb_thrower_does_not_move_and_ninjas_between_do_not_block() -> None:
    s = at(3, 0, r="a5", b="b5 c5", y="f5", extra=hands("bomb", "-", "-"))
    s2, _ = G.apply(s, 0, "bomb a5 f5")
    assert cell(s2, "a5") == "r" and cell(s2, "b5") == "b" and cell(s2, "f5") == "."


def test_bomb_is_lobbed_in_a_straight_line() -> None:
    s = at(3, 0, r="a5", y="c7", extra=hands("bomb", "-", "-"))
    assert "straight line" in refused(s, 0, "bomb a5 c7", IllegalActionError)
    assert "another cell" in refused(s, 0, "bomb a5 a5", IllegalActionError)


def test_bomb_must_remove_at_least_one_ninja() -> None:
    s = at(3, 0, r="a5 g5", y="a9", extra=hands("bomb", "-", "-"))
    assert refused(s, 0, "bomb a5 e5", IllegalActionError) == (
        "A bomb landing on e5 would remove nothing: the 3×3 area around it holds no ninja but yours.")
    assert "bomb a5 e5" not in G.legal_actions(s, 0)
    assert "bomb a5 a8" in G.legal_actions(s, 0)


def test_bomb_may_land_on_an_empty_cell_next_to_ninjas() -> None:
    s = at(3, 0, r="a1", b="d2", extra=hands("bomb", "-", "-"))
    s2, events = G.apply(s, 0, "bomb a1 d1")
    assert cell(s2, "d2") == "." and events[0].data["to"] == "d1"


def test_two_players_bomb_removals_of_the_opponent_do_not_count_as_prey() -> None:
    s = at(2, 0, r="e1", y="d5 e5", b="f5 e6", extra=hands("bomb", "-"))
    s2, _ = G.apply(s, 0, "bomb e1 e5")
    assert s2.captured == (2, 0) and gone(s, s2) == (0, 2, 2)


# --- warded columns -----------------------------------------------------------------------------------------


def test_four_players_warded_columns_cannot_be_targeted() -> None:
    s = at(4, 0, r="l5", y="l6", extra=hands("bomb,vanish,shuriken", "-", "-", "-"))
    for action in ("bomb l5 m5", "vanish l5 n5", "shuriken l5 o5", "attack l5 m5"):
        assert refused(s, 0, action, IllegalActionError) == (
            f"{action.split()[2]} is in the warded part of the temple: "
            "nothing may enter, land or be targeted there.")
    assert not any(" m" in a or " n" in a or " o" in a for a in G.legal_actions(s, 0))


def test_four_players_bomb_area_next_to_the_ward_is_clipped() -> None:
    s = at(4, 0, r="a5", y="l5 l6", extra=hands("bomb", "-", "-", "-"))
    s2, _ = G.apply(s, 0, "bomb a5 l5")
    assert gone(s, s2)[1] == 2 and s2.board.count("#") == 27


def test_five_players_may_use_the_whole_temple() -> None:
    s = at(5, 0, r="l5", extra=hands("vanish", "-", "-", "-", "-"))
    assert cell(G.apply(s, 0, "vanish l5 o9")[0], "o9") == "r"
