"""Floating Floors: nudging a piece in the space you place into or step onto, and several actions at once.

Positions are card 0 (spaces a1–c3) of the test map (land but a3 and b3) under floorboard f03 (SLS / LLL / SLS,
front, unturned: b2 and b3 light), with exact previews (``tension=exact``) so the margins are the statics'.
"""

from __future__ import annotations

import math

import pytest

from rules.base import IllegalActionError, InvalidActionError
from rules.floating_floors import statics
from rules.floating_floors.game import OPTION_KEYS, preview
from rules.floating_floors.notation import parse, text
from rules.floating_floors.state import from_json, to_json
from tests.rules.ff_helpers import G, apply, kinds, position, sp

EXACT = {"tension": "exact"} if "tension" in OPTION_KEYS else {}  # exact margins, with or without that option
F03 = ((0, "f03", False, 0),)
WIDE = (("bs", "a1", "ground", "c"), ("bs", "c1", "ground", "c"), ("bs", "c3", "ground", "c"),
        ("bs", "b2", "ground", "c"))  # four square supports: anything on the board stands


def wide(**kw):
    return position(options=EXACT, boards=F03, pieces=WIDE, **kw)


def nudges(events):
    return [e.data for e in events if e.kind == "nudge"]


def centre_of(space: str, shape: str, offset: str) -> tuple[float, float]:
    return statics.jutsu_position(sp(space), shape, offset)


# --- nudging --------------------------------------------------------------------------------------------------


def test_placing_jutsu_may_nudge_the_ninja_in_that_space_to_the_offset_named():
    """Rulebook: "When placing Jutsu onto a space, you may nudge a Jutsu or Ninja Meeple already in that same
    space with the piece you're placing without … moving them to a different space." Before: refused with "A
    ninja stands on b2"."""
    s = wide(hands={0: ("ws",)}, at={0: "b2"})
    after, events = apply(s, "place ws b2 nw nudge se")
    assert nudges(events) == [{"space": "b2", "what": "ninja", "who": 0, "offset": "se"}]
    sun = after.seats[0]
    assert sun.space == sp("b2") and sun.point == centre_of("b2", statics.NINJA, "se") == (1.75, 1.75)
    assert after.last["stable"] and after.phase == "navigate"


def test_a_nudge_without_an_offset_goes_to_the_nearest_free_place():
    """The nudged piece must "fit within the space" it began; unnamed, it moves the least it can: east of the
    centre clears a square placed north-west."""
    s = wide(hands={0: ("ws",)}, at={0: "b2"})
    after, events = apply(s, "place ws b2 nw")
    assert nudges(events)[0]["offset"] == "e"
    assert after.seats[0].point == centre_of("b2", statics.NINJA, "e")


def test_the_nudged_ninjas_weight_moves_with_it_and_the_statics_decide():
    """Triangles under b2 (south) and a1: a square north-west with the Sun nudged south-east tips the board
    (margin 0.0299 < 0.05); a square south-east with the Sun nudged north-west stands (margin 0.0665)."""
    s = position(options=EXACT, boards=F03, pieces=(("bt", "b2", "ground", "s"), ("bt", "a1", "ground", "c")),
                 hands={0: ("ws",)}, at={0: "b2"})
    fell, events = apply(s, "place ws b2 nw nudge se")
    assert "collapse" in kinds(events) and fell.last["margin"] == pytest.approx(0.0299)
    stood, _ = apply(s, "place ws b2 se nudge nw")
    assert stood.last == {"kind": "place", "card": 0, "margin": pytest.approx(0.0665), "stable": True,
                          "chance": 0.0}
    # the margin is the one of the Sun at its nudged place, not at the centre
    supports = [("triangle", centre_of("b2", "triangle", "s")), ("triangle", centre_of("a1", "triangle", "c"))]
    loads = [(centre_of("b2", "square", "se"), 1.0), (centre_of("b2", statics.NINJA, "nw"), 3.0)]
    assert statics.balance((1.5, 1.5), supports, loads).margin == pytest.approx(0.0665, abs=1e-4)


def test_placing_jutsu_may_nudge_another_jutsu_in_that_space():
    """"… you may nudge a Jutsu … already in that same space": a square at b2's centre leaves no room for
    another in the south-east corner until it is pushed north (the nearest place where the two only touch)."""
    s = wide(hands={0: ("ws", "ws")})
    first, _ = apply(s, "place ws b2")
    after, events = apply(first, "place ws b2 se")
    assert nudges(events) == [{"space": "b2", "what": "jutsu", "who": first.next_piece - 1, "offset": "n"}]
    on_b2 = sorted(p.point for p in after.pieces if p.space == sp("b2") and p.level == "board")
    assert on_b2 == [centre_of("b2", "square", "n"), centre_of("b2", "square", "se")]


def test_moving_your_ninja_may_nudge_another_ninja_in_that_space():
    """Rulebook: "When moving a Ninja Meeple to a space, you may nudge a Jutsu or another Ninja Meeple already in
    that same space." Before: refused with "Another ninja stands on b2"."""
    s = wide(at={0: "a2", 1: "b2"})
    after, events = apply(s, "move b2 nudge se")
    assert nudges(events) == [{"space": "b2", "what": "ninja", "who": 1, "offset": "se"}]
    assert after.seats[0].point == (1.5, 1.5) and after.seats[1].point == centre_of("b2", statics.NINJA, "se")
    assert after.seats[1].space == sp("b2") and after.last["stable"]


def test_a_piece_someone_stands_on_is_not_nudged():
    """A ninja standing on a Jutsu and that Jutsu would move together: nudging them is refused, nothing changes."""
    s = position(options=EXACT, boards=F03, pieces=(*WIDE, ("ws", "a1", "board", "c")), hands={0: ("ws",)},
                 at={0: "a2"})
    stood, _ = apply(s, "move a1")  # the Sun (light) steps onto the white square on shadowy a1
    assert stood.seats[0].on is not None
    with pytest.raises(IllegalActionError) as e:
        apply(stood, "place ws a1 e")
    assert e.value.msg.key == "ff.err.nudge_stood"


def test_a_nudge_with_nothing_to_nudge_or_nowhere_to_go_is_refused():
    s = wide(hands={0: ("ws",)}, at={0: "b2"})
    with pytest.raises(IllegalActionError) as nothing:
        apply(s, "place ws c2 nudge se")
    assert nothing.value.msg.key == "ff.err.nudge_nothing"
    with pytest.raises(IllegalActionError) as blocked:
        apply(s, "place ws b2 nw nudge n")  # north of the centre the Sun still touches the square
    assert blocked.value.msg.key == "ff.err.nudge_blocked"


@pytest.mark.parametrize("typed, canonical", [
    ("place ws b2 nw nudge se", "place ws b2 nw nudge se"),
    ("PLACE ws b2 c nudge se", "place ws b2 nudge se"),
    ("move b2 nudge n", "move b2 nudge n"),
    ("place ws c1 ne+place ws a3 w", "place ws c1 ne + place ws a3 w"),
    ("place ws b1  +  move b1 nudge e", "place ws b1 + move b1 nudge e"),
])
def test_nudge_and_together_notation_round_trips(typed, canonical):
    assert text(parse(typed)) == canonical
    assert text(parse(canonical)) == canonical


@pytest.mark.parametrize("typed", ["place ws b2 nudge", "place ws b2 nudge up", "move b2 nudge se e",
                                   "place ws c1 + claim", "move b1 + move b2", "place ws c1 +", "end + end",
                                   " + ".join(["place ws c1"] * 7)])
def test_bad_nudge_or_together_text_gets_a_clear_refusal(typed):
    with pytest.raises(InvalidActionError):
        parse(typed)


def test_a_state_saved_before_nudging_loads_and_a_nudged_one_round_trips():
    """Positions inside a space were already saved (x, y): an old save (ninja at the centre) loads unchanged,
    and a nudged position survives JSON exactly."""
    old = wide(hands={0: ("ws",)}, at={0: "b2"})
    assert from_json(to_json(old)) == old
    nudged, _ = apply(old, "place ws b2 nw nudge se")
    assert from_json(to_json(nudged)) == nudged


# --- several actions at once -------------------------------------------------------------------------------


def together_position():
    """A triangle under b2 (offset south), the Sun on b3 and hand ``ws ws``."""
    return position(options=EXACT, boards=F03, pieces=(("bt", "b2", "ground", "s"),), hands={0: ("ws", "ws")},
                    at={0: "b3"})


def test_two_jutsu_placed_at_once_are_checked_as_one_board():
    """Rulebook: "You may even complete multiple actions at the same time (… placing multiple Jutsu at once with
    the same hand)". With a triangle under b2 (south), the Sun on b3 and hand ws ws: ``place ws c1 ne`` alone
    tips the board, ``place ws a3 w`` alone tips it, and both together stand with margin 0.173 (the centre of
    mass lands on the triangle's centroid: its inradius 0.6/(2√3))."""
    s = together_position()
    for alone in ("place ws c1 ne", "place ws a3 w"):
        _, events = apply(s, alone)
        assert "collapse" in kinds(events), alone
        assert preview(s, 0, alone)["collapse"] == 0
    after, events = apply(s, "place ws c1 ne + place ws a3 w")
    assert kinds(events) == ["place", "place", "check"]
    assert after.last == {"kind": "place", "card": 0, "margin": 0.1732, "stable": True, "chance": 0.0}
    assert after.last["margin"] == round(0.6 / (2 * math.sqrt(3)), 4)
    assert after.seats[0].hand == () and after.phase == "navigate"
    assert G.view(after, 0)["boards"][0]["margin"] == pytest.approx(0.1732, abs=1e-4)  # the view agrees
    seen = preview(s, 0, "place ws c1 ne + place ws a3 w")
    assert seen["collapse"] is None and [c["margin"] for c in seen["checks"]] == [0.1732]


def test_a_jutsu_and_a_step_at_once_let_the_ninja_step_onto_it():
    """"… placing Jutsu with one hand and moving your Ninja Meeple with the other": alone the Sun (light) may
    not step onto shadowy a1; with a white square laid there in the same action it stands on it."""
    s = wide(hands={0: ("ws",)}, at={0: "a2"})
    with pytest.raises(IllegalActionError):
        apply(s, "move a1")
    after, events = apply(s, "place ws a1 + move a1")
    assert kinds(events) == ["place", "move", "check"]
    assert after.seats[0].space == sp("a1") and after.seats[0].on == after.next_piece - 1


def test_a_refused_part_refuses_the_whole_action():
    s = together_position()
    with pytest.raises(IllegalActionError) as e:
        apply(s, "place ws c1 ne + place wt a3 w")  # no white triangle in hand
    assert e.value.msg.key == "ff.err.not_in_hand"


def test_legal_actions_list_single_actions_only():
    """Combinations are accepted when typed or built, not enumerated (their number grows as the product of the
    singles): the list stays the size it was."""
    s = together_position()
    legal = G.legal_actions(s, 0)
    assert "place ws c1" in legal and not any("+" in a or "nudge" in a for a in legal)
