"""Floating Floors: a test per rule of the rulebook (set-up, acquiring, placing, moving, claiming, collapsing,
ending the turn, winning, Master vs Apprentice and the Challenges), on hand-built positions."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.base import IllegalActionError, InvalidActionError, NotYourTurnError, OptionsError, StateError
from rules.floating_floors import statics
from rules.floating_floors.components import JUTSU_KINDS, KIND_COLOUR
from rules.floating_floors.layout import layout_for
from rules.floating_floors.state import Reset, jutsu_total
from tests.rules.ff_helpers import MIDDLE, G, apply, kinds, position, sp

# Card 0 (a1..c3) has its centre at b2 = (1.5, 1.5); alcove 0 is north of b1. Board f03 is SLS / LLL / SLS:
# a plus of light spaces, so the light Sun (seat 0) may stand on b1, b2, b3, a2, c2.
PLUS = ((0, "f03", False, 0),)
COLUMN = (("ws", "b1", "ground", "c"), ("ws", "b3", "ground", "c"))  # two supports, x 1.25..1.75, y 0.25..2.75
CROSS = (*COLUMN, ("ws", "a2", "ground", "c"), ("ws", "c2", "ground", "c"))


# --- set-up ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size", "alcoves", "bansen"), [(2, (9, 6), 10, 4), (3, (9, 9), 12, 3),
                                                                    (4, (9, 9), 12, 2)])
def test_setup_map_alcoves_and_bansen_by_player_count(players: int, size: tuple, alcoves: int, bansen: int) -> None:
    s = G.new(players, MIDDLE, "setup")
    lay = layout_for(players)
    assert (lay.cols, lay.rows) == size and len(lay.alcoves) == alcoves == len(s.alcoves)
    assert all(len(q.bansen) == bansen for q in s.seats)
    homes = {q.home for q in s.seats}
    # every alcove but the Chakras holds a Bansen, each player's exactly once
    assert all((s.alcoves[a] is None) == (a in homes) for a in range(alcoves))
    assert sorted(b for b in s.alcoves if b) == sorted(b for q in s.seats for b in q.bansen)


def test_setup_bansen_alternate_clockwise_from_the_left_of_the_first_chakra() -> None:
    s = G.new(2, MIDDLE, "order")
    n = len(s.alcoves)
    order = [(s.seats[0].home + i) % n for i in range(1, n)]
    owners = [next(q.seat for q in s.seats if s.alcoves[a] in q.bansen) for a in order if s.alcoves[a]]
    assert owners == [0, 1] * 4


def test_setup_two_players_differ_and_start_with_three_jutsu_of_their_colour() -> None:
    s = G.new(2, MIDDLE, "colours")
    assert [q.ninja for q in s.seats] == ["sun", "smoke"]
    assert s.seats[0].hand == ("wh", "ws", "wt") and s.seats[1].hand == ("bh", "bs", "bt")
    assert list(s.pool) == [9] * 6 and jutsu_total(s) == [10] * 6
    assert all(q.alcove == q.home for q in s.seats)


def test_turn_starts_with_a_roll_of_three_dice() -> None:
    s = G.new(3, MIDDLE, "roll")
    assert s.phase == "acquire" and len(s.roll) == 3 and s.turn == 1
    assert set(s.roll) <= set(JUTSU_KINDS)


def test_options_are_checked() -> None:
    with pytest.raises(OptionsError):
        G.new(5, {}, "x")
    for bad in ({"shaky": "very"}, {"challenges": "9"}, {"master": "3"}, {"master_dice": "0"}, {"colour": "red"}):
        with pytest.raises(OptionsError):
            G.new(2, bad, "x")
    assert G.normalize_options(2, {"challenges": "campaign3"})["challenges"] == "1,2,3"


# --- acquiring ---------------------------------------------------------------------------------------------


def test_acquire_take_from_the_pool_only_what_was_rolled() -> None:
    s = position(phase="acquire", roll=("bs", "wt", "wt"), to_take=("bs", "wt", "wt"))
    s2, _ = apply(s, "take wt pool")
    assert s2.to_take == ("bs", "wt") and "wt" in s2.seats[0].hand and s2.pool[JUTSU_KINDS.index("wt")] == 8
    with pytest.raises(IllegalActionError):
        apply(s2, "take wh pool")
    with pytest.raises(IllegalActionError):
        apply(s2, "move e6")  # navigating waits until every die is taken
    s3, _ = apply(apply(s2, "take bs pool")[0], "take wt pool")
    assert s3.phase == "navigate" and s3.to_take == ()


def test_acquire_from_on_top_of_a_card_but_not_from_under_a_ninja() -> None:
    s = position(phase="acquire", roll=("ws",), to_take=("ws",), pieces=(("ws", "e5", "ground", "c"),))
    s2, _ = apply(s, "take ws e5")
    assert not s2.pieces and "ws" in s2.seats[0].hand
    s = position(phase="acquire", roll=("ws",), to_take=("ws",), boards=PLUS,
                 pieces=(*COLUMN, ("ws", "b2", "board", "c")), at={1: "a2"})
    s = replace(s, seats=(s.seats[0], replace(s.seats[1], space=sp("b2"), x=1.5, y=1.5, on=3)))
    with pytest.raises(IllegalActionError):
        apply(s, "take ws b2")  # the Smoke ninja stands on it


def test_acquire_from_under_a_board_checks_its_balance() -> None:
    s = position(phase="acquire", roll=("ws",), to_take=("ws",), boards=PLUS, pieces=COLUMN, at={0: "b1"})
    s2, events = apply(s, "take ws under b3")
    # one support left at b1 (y 0.25..0.75) under a board whose centre of mass is (1.5, 1.1667): it tips
    assert "collapse" in kinds(events)
    assert s2.phase == "reset" and s2.reset.card == 0 and s2.current == 1 and 0 in s2.reset.ninjas


def test_dice_with_no_jutsu_anywhere_are_dropped() -> None:
    s = position(phase="navigate")
    empty = tuple(0 if k == "bh" else n for k, n in zip(JUTSU_KINDS, s.pool, strict=True))
    s = replace(s, pool=empty, removed=tuple(9 if k == "bh" else 0 for k in JUTSU_KINDS),
                seats=(replace(s.seats[0], hand=("wh", "ws", "wt")), replace(s.seats[1], hand=("bs", "bt"))))
    s = replace(s, pool=tuple(p + (1 if k == "bh" else 0) for k, p in zip(JUTSU_KINDS, s.pool, strict=True)))
    s = replace(s, pool=tuple(0 if k == "bh" else p for k, p in zip(JUTSU_KINDS, s.pool, strict=True)),
                removed=tuple(10 if k == "bh" else 0 for k in JUTSU_KINDS))
    s2, events = apply(s, "end")
    roll = next(e for e in events if e.kind == "roll").data
    assert "bh" not in s2.to_take and roll["dropped"] == s2.roll.count("bh")


# --- placing Jutsu and floorboards ---------------------------------------------------------------------------


def test_place_jutsu_on_land_not_on_water_or_a_ninja() -> None:
    s = position(hands={0: ("ws", "wt")})
    s2, _ = apply(s, "place ws b2")
    assert s2.pieces[0].level == "ground" and s2.pieces[0].point == (1.5, 1.5)
    with pytest.raises(IllegalActionError, match="water"):
        apply(s, "place ws a3")  # t05's bottom-left is water
    s = position(hands={0: ("ws",)}, boards=PLUS, pieces=CROSS, at={1: "b2"})
    with pytest.raises(IllegalActionError):
        apply(s, "place ws b2")


def test_place_jutsu_fully_within_one_space_without_overlapping() -> None:
    s = position(hands={0: ("ws", "ws", "wt")})
    s, _ = apply(s, "place ws b2 nw")
    s, _ = apply(s, "place ws b2 se")  # two squares in opposite corners touch nothing
    with pytest.raises(IllegalActionError):
        apply(s, "place wt b2")  # a triangle in the middle overlaps both
    assert all(p.space == sp("b2") for p in s.pieces)
    assert s.pieces[0].point == (1.25, 1.25)


def test_challenge6_one_jutsu_per_land_space() -> None:
    s = position(hands={0: ("ws", "ws")}, options={"challenges": "6"})
    s, _ = apply(s, "place ws b2 nw")
    with pytest.raises(IllegalActionError):
        apply(s, "place ws b2 se")


def test_place_floorboard_needs_a_jutsu_beneath_and_covers_one_card_once() -> None:
    s = position(hands={0: ("ws", "ws")})
    with pytest.raises(IllegalActionError):
        apply(s, "board b2")
    s, _ = apply(s, "place ws b2")
    top = s.deck[0]
    s2, events = apply(s, "board a1 back r90")
    assert s2.boards[0].board == top and s2.boards[0].back and s2.boards[0].turns == 1 and s2.deck[0] != top
    assert "collapse" not in kinds(events)  # one central support under a bare board: margin 0.25
    assert s2.last["margin"] == 0.25
    with pytest.raises(IllegalActionError):
        apply(s2, "board c3")
    s3, _ = apply(s2, "place ws b2")
    assert s3.pieces[-1].level == "board"  # a Jutsu on a card with a board goes on the board


def test_floorboard_on_one_corner_support_collapses() -> None:
    s = position(hands={0: ("ws",)})
    s, _ = apply(s, "place ws a1")
    s2, events = apply(s, "board b2")
    assert "collapse" in kinds(events) and s2.phase == "reset" and not s2.boards


def test_floorboard_patterns_turn_and_flip() -> None:
    s = position(boards=((0, "f02", False, 0),), pieces=COLUMN)  # f02: LLL / SSS / LSL
    view = G.view(s, None)["boards"][0]
    assert sorted(map(tuple, view["light"])) == sorted([sp(x) for x in ("a1", "b1", "c1", "a3", "c3")])
    s = position(boards=((0, "f02", True, 1),), pieces=COLUMN)  # back: SSS / LLL / SLS, turned clockwise
    view = G.view(s, None)["boards"][0]
    assert sorted(map(tuple, view["light"])) == sorted([sp(x) for x in ("b1", "b2", "b3", "a2")])


# --- moving ----------------------------------------------------------------------------------------------------


def test_move_first_step_from_the_alcove_onto_its_space() -> None:
    cross = tuple(("ws", x, "ground", "c") for x in ("e4", "e6", "d5", "f5"))
    s = position(boards=((4, "f03", False, 0),), pieces=cross)
    home = s.seats[0].home
    start = layout_for(2).alcoves[home].space
    assert start == sp("e6")
    with pytest.raises(IllegalActionError):
        apply(s, "move e5")
    s2, _ = apply(s, "move e6")
    assert s2.seats[0].space == sp("e6") and s2.seats[0].alcove is None and s2.seats[0].steps == 1


def test_move_orthogonally_onto_your_colour_only() -> None:
    s = position(boards=PLUS, pieces=CROSS, at={0: "b2"})
    with pytest.raises(IllegalActionError):
        apply(s, "move a1")  # diagonal
    with pytest.raises(IllegalActionError):
        apply(s, "move b4")  # no board there
    s2, _ = apply(s, "move a2")
    assert s2.seats[0].space == sp("a2")
    s = position(boards=((0, "f01", False, 0),), pieces=CROSS, at={0: "b2"})  # f01: b1 is shadow
    with pytest.raises(IllegalActionError, match="not light"):
        apply(s, "move b1")


def test_move_onto_a_jutsu_of_your_colour_on_the_wrong_colour() -> None:
    s = position(boards=((0, "f01", False, 0),), pieces=(*CROSS, ("ws", "b1", "board", "c")), at={0: "b2"})
    s2, _ = apply(s, "move b1")
    assert s2.seats[0].on == 5 and s2.seats[0].point == (1.5, 0.5)
    s = position(boards=((0, "f01", False, 0),), pieces=(*CROSS, ("bs", "b1", "board", "c")), at={0: "b2"})
    with pytest.raises(IllegalActionError):
        apply(s, "move b1")  # a black Jutsu is for shadow ninjas


def test_each_step_checks_the_balance() -> None:
    # one support in the middle: the Sun at the centre stands, one step to the edge tips the board
    s = position(boards=PLUS, pieces=(("ws", "b2", "ground", "c"),), at={0: "b2"})
    s2, events = apply(s, "move b1")
    assert "collapse" in kinds(events) and s2.phase == "reset" and s2.current == 1
    assert s2.seats[0].space is None and s2.reset.ninjas == (0,)


def test_a_counterweight_keeps_the_step_standing() -> None:
    # supports at b2 and b3 (y 1.25..2.75); the Sun at b1 (y 0.5) alone would put the centre at y 1.1667
    base = (("ws", "b2", "ground", "c"), ("ws", "b3", "ground", "c"))
    s = position(boards=PLUS, pieces=base, at={0: "b2"})
    assert "collapse" in kinds(apply(s, "move b1")[1])
    # a white square on b3's board space pulls it back: (6*1.5 + 3*0.5 + 1*2.5) / 10 = 1.3 inside, margin 0.05
    s = position(boards=PLUS, pieces=(*base, ("ws", "b3", "board", "c")), at={0: "b2"})
    s2, events = apply(s, "move b1")
    assert "collapse" not in kinds(events) and s2.last["margin"] == pytest.approx(0.05)


def test_master_of_contemplation_moves_four_steps() -> None:
    s = position(boards=PLUS, pieces=CROSS, at={0: "b2"}, options={"master": "1"})
    for target in ("a2", "b2", "a2", "b2"):
        s, _ = apply(s, f"move {target}")
    with pytest.raises(IllegalActionError):
        apply(s, "move a2")


# --- claiming --------------------------------------------------------------------------------------------------


def claim_position(supports: tuple, bansen: str = "sun1", **kw: object) -> object:
    return position(boards=PLUS, pieces=supports, at={0: "b1"}, alcoves={0: bansen, 4: None, 2: None, 9: None,
                                                                          7: None}, **kw)


def test_claim_turns_the_board_and_takes_the_bansen_when_it_stands() -> None:
    s = claim_position(CROSS)
    s2, events = apply(s, "claim")
    assert "collapse" not in kinds(events) and "sun1" in s2.seats[0].claimed and s2.alcoves[0] is None
    # sun1 turns clockwise: the Sun rides the board from b1 to c2, the board's turns go 0 -> 1
    assert s2.seats[0].space == sp("c2") and s2.boards[0].turns == 1


def test_claim_rotation_can_turn_a_stable_board_unstable() -> None:
    s = claim_position(COLUMN)
    assert G.view(s, None)["boards"][0]["stable"]
    s2, events = apply(s, "claim")
    # after the turn the Sun stands on c2: centre (1.8333, 1.5) beyond the column's x 1.75
    assert "collapse" in kinds(events) and s2.phase == "reset" and s2.alcoves[0] == "sun1"
    assert "sun1" not in s2.seats[0].claimed


def test_claim_needs_your_own_bansen_next_to_you() -> None:
    s = claim_position(CROSS, bansen="smoke1")
    with pytest.raises(IllegalActionError):
        apply(s, "claim")
    s = position(boards=PLUS, pieces=CROSS, at={0: "b2"})
    with pytest.raises(IllegalActionError):
        apply(s, "claim")


def test_recovering_all_your_bansen_wins_at_once() -> None:
    s = claim_position(CROSS)
    s = replace(s, seats=(replace(s.seats[0], claimed=tuple(b for b in s.seats[0].bansen if b != "sun1")),
                          s.seats[1]))
    s2, events = apply(s, "claim")
    assert s2.phase == "over" and s2.winner == 0 and "win" in kinds(events)
    outcome = G.outcome(s2)
    assert outcome.winners == (0,) and outcome.reason == "ff.outcome.bansen"


def test_challenge1_bansen_in_number_order() -> None:
    s = claim_position(CROSS, bansen="sun2", options={"challenges": "1"})
    s = replace(s, phase="navigate", hide=())
    with pytest.raises(IllegalActionError, match="sun1"):
        apply(s, "claim")


def test_challenge4_spends_a_claimed_bansen_to_turn_the_board() -> None:
    s = claim_position(CROSS, options={"challenges": "4"})
    s, _ = apply(s, "claim")
    with pytest.raises(IllegalActionError):
        apply(s, "use sun1")  # not in the turn it was claimed
    s = replace(s, seats=(replace(s.seats[0], fresh=()), s.seats[1]))
    s2, _ = apply(s, "use sun1")
    assert s2.seats[0].used == ("sun1",) and s2.seats[0].done == 1 and s2.boards[0].turns == 2


# --- collapse and reset ------------------------------------------------------------------------------------------


def test_collapse_ends_the_turn_and_the_next_player_resets_the_card() -> None:
    s = position(boards=PLUS, pieces=(("ws", "b2", "ground", "c"),), at={0: "b2"})
    s, _ = apply(s, "move b1")
    assert s.phase == "reset" and s.current == 1
    with pytest.raises(IllegalActionError):
        apply(s, "end")
    with pytest.raises(NotYourTurnError):
        apply(s, "reset", seat=0)
    s2, events = apply(s, "reset")
    assert "reset" in kinds(events) and s2.phase in ("acquire", "navigate") and s2.current == 1
    view = G.view(s2, None)
    assert all(b["stable"] for b in view["boards"])
    # the Sun is back on a light space of the reset board (or in its alcove if nothing could stand)
    sun = s2.seats[0]
    assert sun.alcove == sun.home or view["boards"][0]["light"].count(list(sun.space)) == 1
    assert jutsu_total(s2) == [10] * 6


def test_reset_without_a_jutsu_puts_the_board_back_in_the_deck() -> None:
    s = position(phase="acquire", roll=("ws",), to_take=("ws",), boards=PLUS, pieces=(("ws", "b2", "ground", "c"),),
                 at={0: "b2"})
    s, events = apply(s, "take ws under b2")
    assert "collapse" in kinds(events) and s.reset.kinds == ()
    s2, _ = apply(s, "reset")
    assert not s2.boards and s2.deck[-1] == "f03" and s2.seats[0].alcove == s2.seats[0].home


# --- ending the turn ---------------------------------------------------------------------------------------------


def test_end_keeps_up_to_three_jutsu_of_your_colour() -> None:
    s = position(hands={0: ("ws", "wt", "wh", "ws", "bs")})
    s2, events = apply(s, "end")
    assert s2.seats[0].hand == ("wh", "ws", "wt") and events[0].data["returned"] == ["bs", "ws"]
    s3, _ = apply(s, "end keep ws ws")
    assert s3.seats[0].hand == ("ws", "ws")
    with pytest.raises(IllegalActionError):
        apply(s, "end keep bs")
    assert s2.current == 1 and s2.phase in ("acquire", "navigate") and jutsu_total(s2) == [10] * 6


def test_timeout_is_recorded_and_ends_the_turn() -> None:
    s = position(phase="acquire", roll=("ws",), to_take=("ws",))
    s2, events = apply(s, "timeout")
    assert kinds(events)[0] == "timeout" and s2.current == 1


# --- challenges and options -------------------------------------------------------------------------------------


def test_challenge3_one_lake_side_per_player() -> None:
    s = G.new(3, {"challenges": "3"}, "lakes")
    assert sum(side == "lake" for _, side in s.cards) == 3


def test_challenge7_removes_four_of_each_kind() -> None:
    s = G.new(2, {"challenges": "7"}, "scarce")
    assert list(s.removed) == [4] * 6 and list(s.pool) == [5] * 6 and jutsu_total(s) == [10] * 6


def test_challenge1_players_hide_each_others_bansen_in_reverse_order() -> None:
    s = G.new(2, {**MIDDLE, "challenges": "1"}, "hide")
    assert s.phase == "hide" and s.current == 1 and all(a is None for a in s.alcoves)
    first = s.hide[0]
    assert first[1].startswith("sun")  # seat 1 holds the Sun's Bansen, passed to the right
    s2, _ = G.apply(s, 1, f"hide {first[1]} b1")
    assert s2.alcoves[0] == first[1] and s2.current == 0
    with pytest.raises(IllegalActionError):
        G.apply(s2, 0, f"hide {first[1]} e1")


def test_master_of_balance_rolls_fewer_dice() -> None:
    s = G.new(2, {**MIDDLE, "master": "1", "master_dice": "1"}, "master")
    assert len(s.roll) == 1


def test_shaky_hands_may_drop_a_standing_board_and_say_so() -> None:
    # margin 0.05 (the counterweight case) is below 0.2: with shaky hands it falls 50% of the time
    base = (("ws", "b2", "ground", "c"), ("ws", "b3", "ground", "c"), ("ws", "b3", "board", "c"))
    fell = 0
    for i in range(40):
        s = position(boards=PLUS, pieces=base, at={0: "b2"}, options={"shaky": "all"}, seed=f"shaky{i}")
        _, events = apply(s, "move b1")
        check = next(e for e in events if e.kind == "check")
        assert check.data["chance"] == pytest.approx(statics.collapse_chance(0.05))
        fell += "collapse" in kinds(events)
    assert 5 < fell < 35


# --- notation, view and serialisation ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["take bt pool", "take wh under e5", "take ws e5", "place bs e5 ne", "place bs e5",
                                  "board c2 back r90", "board c2", "move e5", "claim a2", "claim", "end",
                                  "end keep ws wt", "use sun2", "hide sun2 b1", "reset"])
def test_notation_round_trips(text: str) -> None:
    assert G.notation(None, text) == text
    assert G.notation(None, text.upper().replace(" ", "  ")) == text


@pytest.mark.parametrize("bad", ["", "fly", "take", "take bt", "take xx pool", "place bs", "place bs z9",
                                 "place bs e5 up", "board", "board c2 sideways", "end keep ws ws ws ws", "use moon9"])
def test_bad_notation_says_what_is_wrong(bad: str) -> None:
    with pytest.raises(InvalidActionError):
        G.notation(None, bad)


def test_view_exposes_each_boards_balance() -> None:
    s = position(boards=PLUS, pieces=(*COLUMN, ("wt", "c2", "board", "c")), at={0: "b1"})
    board = G.view(s, None)["boards"][0]
    # load 6 (board) + 3 (Sun at b1) + 1 (Jutsu at c2): centre ((9 + 4.5 + 2.5) / 10, (9 + 1.5 + 1.5) / 10);
    # the column's hull is x 1.25..1.75, y 0.25..2.75, so the margin is 1.75 - 1.6
    assert board["load"] == 10 and board["centre"] == pytest.approx([1.6, 1.2])
    assert board["margin"] == pytest.approx(0.15) and board["stable"] is True
    assert len(board["support"]) == 4


def test_view_hides_the_seed_and_the_deck_order_but_shows_the_top_board() -> None:
    s = G.new(2, {}, "secret-seed-123")
    text = json.dumps(G.view(s, 0))
    assert "secret-seed-123" not in text and G.view(s, 0)["deck"]["top"] == s.deck[0]
    assert all(b not in text for b in s.deck[1:] if b not in {s.deck[0]})


def test_json_round_trip_and_damage_is_refused() -> None:
    s = position(boards=PLUS, pieces=CROSS, at={0: "b2"})
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s
    d = G.to_json(s)
    d["pool"][0] += 1  # 61 Jutsu
    with pytest.raises(StateError):
        G.from_json(d)
    d = G.to_json(s)
    d["boards"][0][1] = "f99"
    with pytest.raises(StateError):
        G.from_json(d)


def test_wrong_player_and_resign() -> None:
    s = position()
    with pytest.raises(NotYourTurnError):
        apply(s, "end", seat=1)
    s2, _ = apply(s, "resign", seat=1)
    assert s2.phase == "over" and s2.winner == 0 and G.outcome(s2).reason == "ff.outcome.last_standing"


def test_undo_is_refused_after_dice_and_allowed_for_a_placement() -> None:
    s = position(hands={0: ("ws",)})
    s2, events = apply(s, "place ws b2")
    assert G.undo_blocker(s, s2, events) is None
    s3, events = apply(s2, "end")
    assert G.undo_blocker(s2, s3, events) is not None


def test_jutsu_colours() -> None:
    assert {KIND_COLOUR[k] for k in ("bs", "bt", "bh")} == {"black"}


def reset_position(challenges: str) -> object:
    s = position(phase="reset", current=1, options={"challenges": challenges},
                 reset=Reset(card=0, by=1, board="f03", kinds=("ws", "ws", "ws"), ninjas=(0,)))
    s = replace(s, seats=(replace(s.seats[0], alcove=None, space=None), s.seats[1]),
                deck=tuple(b for b in s.deck if b != "f03"))
    return replace(s, pool=tuple(p - (3 if k == "ws" else 0) for k, p in zip(JUTSU_KINDS, s.pool, strict=True)))


def test_challenge5_a_reset_that_falls_costs_the_resetter_their_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(statics, "collapse_chance", lambda margin, physics=None: 1.0)  # every shaky check falls
    s = reset_position("5,8")
    assert jutsu_total(s) == [10] * 6
    s2, events = apply(s, "reset")
    assert s2.phase == "reset" and s2.current == 0 and s2.reset.by == 0 and "skip" in kinds(events)
    assert jutsu_total(s2) == [10] * 6


def test_a_reset_that_falls_without_challenge5_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(statics, "collapse_chance", lambda margin, physics=None: 1.0)
    s2, events = apply(reset_position("8"), "reset")
    # tried, fell, tried again, fell, then laid flat: the board to the bottom of the deck
    assert kinds(events).count("reset") == 3 and s2.deck[-1] == "f03" and s2.current == 1
    assert s2.phase in ("acquire", "navigate") and jutsu_total(s2) == [10] * 6


def test_reset_arranges_a_lone_support_under_the_middle() -> None:
    s = reset_position("")
    s = replace(s, reset=replace(s.reset, kinds=("ws",)),
                pool=tuple(p + (2 if k == "ws" else 0) for k, p in zip(JUTSU_KINDS, s.pool, strict=True)))
    s2, _ = apply(s, "reset")
    assert s2.boards and s2.boards[0].card == 0 and G.view(s2, None)["boards"][0]["stable"]
    assert s2.seats[0].space is not None


@pytest.mark.parametrize("players", [2, 4])
def test_replay_from_seed_and_actions_gives_the_same_game(players: int) -> None:
    s = G.new(players, {"shaky": "all"}, f"replay-{players}")
    start, log = s, []
    while s.phase != "over" and s.turn < 120:
        action = G.bot_action(s, s.current)
        log.append((s.current, action))
        s, _ = G.apply(s, s.current, action)
    again = start
    for seat, action in log:
        again, _ = G.apply(again, seat, G.notation(again, action))
    assert again == s and G.to_json(again) == G.to_json(s)


def test_manual_reset_places_the_fallen_pieces_by_hand() -> None:
    s = reset_position("")  # three white squares, board f03 and the Sun fell from card 0
    assert "stand 1 b2" not in G.legal_actions(s, 1) and "place ws b1" in G.legal_actions(s, 1)
    with pytest.raises(IllegalActionError):
        apply(s, "place ws e5")  # not on the collapsed card
    with pytest.raises(IllegalActionError):
        apply(s, "place wt b2")  # no white triangle fell
    for where in ("b1", "a2", "c2"):  # b3 is water on this card
        s, _ = apply(s, f"place ws {where}")
    with pytest.raises(IllegalActionError, match="Lay the fallen floorboard"):
        apply(s, "reset")
    s, events = apply(s, "board b2")
    assert s.boards[0].board == "f03" and s.phase == "reset" and "collapse" not in kinds(events)
    with pytest.raises(IllegalActionError, match="Stand the fallen ninjas"):
        apply(s, "reset")  # the Sun still waits for a space
    s, _ = apply(s, "stand 1 b2")
    assert s.seats[0].space == sp("b2")
    s2, events = apply(s, "reset")
    assert s2.phase in ("acquire", "navigate") and s2.current == 1 and s2.reset is None
    assert next(e for e in events if e.kind == "reset").data["manual"] is True
    assert G.view(s2, None)["boards"][0]["stable"] and jutsu_total(s2) == [10] * 6


def test_manual_reset_that_falls_is_gathered_and_started_again() -> None:
    s = reset_position("")
    s, _ = apply(s, "place ws a1")
    s, events = apply(s, "board b2")  # one corner support: it tips
    assert "collapse" in kinds(events) and s.phase == "reset" and s.current == 1
    assert sorted(s.reset.kinds) == ["ws", "ws", "ws"] and s.reset.board == "f03" and not s.boards
    s2, _ = apply(s, "reset")  # the automatic arrangement is still there
    assert s2.reset is None and jutsu_total(s2) == [10] * 6


def test_manual_reset_that_falls_with_challenge5_passes_the_reset_on() -> None:
    s = reset_position("5")
    s, _ = apply(s, "place ws a1")
    s, events = apply(s, "board b2")
    assert s.phase == "reset" and s.current == 0 and s.reset.by == 0 and "skip" in kinds(events)


def test_timeout_during_a_manual_reset_arranges_the_rest() -> None:
    s = reset_position("")
    s, _ = apply(s, "place ws b1")
    s2, _ = apply(s, "timeout")
    assert s2.reset is None and s2.current == 0 and jutsu_total(s2) == [10] * 6
    assert G.view(s2, None)["boards"] == [] or G.view(s2, None)["boards"][0]["stable"]


def test_setup_each_player_places_their_chakra_on_their_side_in_turn_order() -> None:
    s = G.new(3, {}, "chakra")
    assert s.phase == "chakra" and s.current == 0 and all(a is None for a in s.alcoves)
    assert G.legal_actions(s, 0) == ["chakra b9", "chakra e9", "chakra h9"]  # the south edge
    with pytest.raises(IllegalActionError):
        G.apply(s, 0, "chakra a2")  # the west side is the second player's
    with pytest.raises(NotYourTurnError):
        G.apply(s, 1, "chakra a5")
    s, _ = G.apply(s, 0, "chakra h9")
    s, _ = G.apply(s, 1, "chakra a8")
    assert s.phase == "chakra" and s.current == 2
    s, _ = G.apply(s, 2, "timeout")  # absent: the middle of the north side
    assert s.phase == "acquire" and s.current == 0
    assert [q.alcove for q in s.seats] == [q.home for q in s.seats]
    assert layout_for(3).alcoves[s.seats[0].home].space == sp("h9")
    assert layout_for(3).alcoves[s.seats[2].home].space == sp("e1")
    # the Bansen then go out clockwise from the alcove left of the first Chakra
    n = len(s.alcoves)
    first = (s.seats[0].home + 1) % n
    assert s.alcoves[first] in s.seats[0].bansen
    assert sum(1 for a in s.alcoves if a) == 9


def test_a_space_past_a_smaller_maps_edge_is_refused_in_words_not_a_crash() -> None:
    """`a9` is a well-formed space name, but a 2-player map ends before row 9: placing there is refused with the
    map's extent, and nothing changes (it used to raise IndexError from the card lookup)."""
    from engine.core import new_game_options
    from rules.base import IllegalActionError
    from rules.floating_floors import FloatingFloors

    game = FloatingFloors()
    state = game.new(2, new_game_options(game, {}), "edge")
    while state.phase != "navigate":
        state, _ = game.apply(state, state.current, game.bot_action(state, state.current))
    before = game.to_json(state)
    for typed in ("place bs a9", "place bs a1 + place bs a9"):
        with pytest.raises(IllegalActionError) as refused:
            game.apply(state, state.current, typed)
        assert refused.value.msg.key == "ff.err.off_map"
    assert game.to_json(state) == before
