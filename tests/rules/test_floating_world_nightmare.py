"""The Nightmare phase (rulebook 6.0) on hand-built maps with scripted dice."""

from __future__ import annotations

import pytest

from rules.floating_world import nightmare as nm
from rules.floating_world.dice import Stat
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import GATE, Kitsune, Land, Options, Work, build

G = FloatingWorld()




def lands(*cells: tuple[int, int]) -> dict:
    return dict.fromkeys(cells)


def test_oni_moves_toward_the_gate() -> None:
    # A row 0,0 - 1,0 - 2,0 and a spur 2,1 - 3,1: destroyed at 2,0's neighbour... use the move rule directly.
    m = build(lands=lands((1, 0), (2, 0), (2, 1), (3, 0))).land_map()
    del m[(2, 0)]
    assert nm.move_target("oni", (2, 0), m, set(m) | {(2, 0)}) == (1, 0)


def test_tengu_moves_to_an_edge_land_in_fixed_order() -> None:
    # (1,0) is surrounded before the destruction except by (2,0)? Build a plus around (1,0).
    cells = [(1, 0), (2, 0), (1, 1), (1, -1), (0, 1), (0, -1), (2, 1), (2, -1)]
    before = set(build(lands=lands(*cells)).land_map())
    m = {c: Land(c[0], c[1], "x") for c in before if c != (1, 0)}
    # neighbours of (1,0): N (1,1) edge, E (2,0) edge (3,0 empty), S (1,-1) edge, W (0,0) not an edge
    assert nm.move_target("tengu", (1, 0), m, before) == (1, 1)
    inner = {(x, y) for x in range(-2, 3) for y in range(-2, 3)}
    m2 = {c: Land(c[0], c[1], "x") for c in inner if c != (0, 1)}
    assert nm.move_target("tengu", (0, 1), m2, inner) == (0, 2)  # the only edge neighbour
    core = {(x, y) for x in range(-3, 4) for y in range(-3, 4)}
    m3 = {c: Land(c[0], c[1], "x") for c in core if c != (0, 0)}
    assert nm.move_target("tengu", (0, 0), m3, core) == (0, 1)  # no edge: the first in N, E, S, W


def test_gaki_moves_toward_the_nearest_village_else_the_gate() -> None:
    s = build(lands={(1, 0): None, (2, 0): None, (2, 1): None, (2, 2): 0, (3, 0): None})
    m = s.land_map()
    del m[(2, 0)]
    assert nm.move_target("gaki", (2, 0), m, set(m)) == (2, 1)
    m[(2, 2)] = Land(2, 2, "x")
    assert nm.move_target("gaki", (2, 0), m, set(m)) == (1, 0)


def test_destroying_demon_moves_by_its_type(dice: list) -> None:
    s = build(lands=lands((1, 0), (2, 0)), demons={"oni1": (2, 0)}, kitsune=[Kitsune(0)])
    dice += [[6, 6, 6], [5]]  # oni's body 3D vs 10: 18 destroys; then one spawn die (no demon)
    w = Work.of(s)
    steps = nm.run(w, 0)
    kinds = [x["kind"] for x in steps]
    assert kinds[:3] == ["attack_land", "destroyed", "move"]
    assert w.demons["oni1"].at == (1, 0)


def test_land_attack_destroys_with_village_and_kitsune_moves_free(dice: list) -> None:
    s = build(lands={(1, 0): None, (2, 0): 0, (2, 1): None}, demons={"tengu1": (2, 0), "gaki1": (2, 0)},
              kitsune=[Kitsune(0, pos=(1, 0))])
    # gaki1 attacks first (ids sorted): spirit 3D = 3 -> fails; tengu1 mind 3D = 11 > 10 destroys.
    dice += [[1, 1, 1], [5, 3, 3], [5]]
    w = Work.of(s)
    steps = nm.run(w, 0)
    destroyed = next(x for x in steps if x["kind"] == "destroyed")
    assert destroyed["at"] == [2, 0] and destroyed["village"] == 0 and destroyed["returned"] == ["gaki1"]
    assert (2, 0) not in w.lands
    cut = [x for x in steps if x["kind"] == "cut_off"]
    assert [c["at"] for c in cut] == [[2, 1]]  # 2,1 hung from 2,0 only


def test_kitsune_on_destroyed_land_moves_to_adjacent_surviving_land(dice: list) -> None:
    s = build(lands=lands((1, 0), (1, 1), (0, 1)), demons={"oni1": (1, 1)}, kitsune=[Kitsune(0, pos=(0, 1))])
    w = Work.of(s)
    w.kit[0] = Kitsune(0, pos=(1, 1))
    dice += [[6, 6, 6], [4, 5], [5]]  # oni vs the Kitsune (body 3D vs 2D): 18 > 9, a Wound
    steps = nm.run(w, 0)
    assert steps[0]["kind"] == "attack_kitsune" and steps[0]["wound"] is True
    assert w.kit[0].wounds == 1
    # now make it destroy the Land with no Kitsune there and one standing on it after a move
    s2 = build(lands=lands((1, 0), (1, 1), (0, 1)), demons={"oni1": (1, 1)})
    w2 = Work.of(s2)
    nm.destroy(w2, (1, 1), "destroyed", [], keep="oni1")
    w2.kit[0] = Kitsune(0, pos=(1, 1))
    steps2: list = []
    nm.rescue(w2, (1, 1), steps2)
    assert steps2 == [{"kind": "kitsune_moved", "seat": 0, "from": [1, 1], "to": [1, 0], "wound": False}]  # S before W


def test_kitsune_with_no_surviving_neighbour_goes_to_the_gate_unwounded(dice: list) -> None:
    """6.2: "Any Kitsune who are somehow on a destroyed Land may move for free" (issue 23: never a Wound)."""
    s = build(lands=lands((1, 0), (2, 0)), demons={"oni1": (2, 0)}, kitsune=[Kitsune(0, pos=(2, 0))])
    w = Work.of(s)
    nm.destroy(w, (1, 0), "destroyed", [])
    steps: list = []
    assert nm.cut_off(w, steps) == [0]
    nm.rescue(w, (2, 0), steps)
    assert w.kit[0].pos == GATE and w.kit[0].wounds == 0
    assert [x["kind"] for x in steps] == ["cut_off", "kitsune_moved"]
    assert "oni1" not in w.demons  # its Land was cut off: back to the supply


def test_gate_destroyed_is_a_loss(dice: list) -> None:
    s = build(demons={"oni1": GATE}, kitsune=[Kitsune(0, pos=(1, 0))], lands=lands((1, 0)))
    dice += [[4, 4, 3]]
    s2, _ = G.apply(s, 0, "end")
    assert s2.phase == "over" and s2.reason == "fw.outcome.gate_destroyed"
    assert G.outcome(s2).winners == ()


@pytest.mark.parametrize(("count", "expected"), [(1, 1), (4, 1), (5, 2), (8, 2), (9, 3)])
def test_spawn_dice_count_is_lands_over_divisor_rounded_up(count: int, expected: int) -> None:
    cells = [(i, 0) for i in range(1, count)]
    s = build(lands=lands(*cells))
    w = Work.of(s)
    steps = nm.run(w, 0)
    assert steps[0]["kind"] == "spawn_dice" and steps[0]["count"] == expected


def test_spawn_divisor_option_changes_the_count() -> None:
    s = build(lands=lands(*[(i, 0) for i in range(1, 9)]), options=Options(difficulty="hard", spawn_divisor=3))
    assert nm.run(Work.of(s), 0)[0]["count"] == 3


def test_all_sixes_raise_demon_strength_step_by_step(dice: list) -> None:
    s = build()
    assert G.view(s, 0)["demon_strength"] == {"dice": 0, "pips": 0, "text": "+0"}
    texts, steps = [], []
    for _ in range(4):
        dice.append([6])
        w = Work.of(s)
        nm.spawn(w, steps)
        s = w.freeze()
        texts.append(G.view(s, 0)["demon_strength"]["text"])
    assert texts == ["+1", "+2", "+1D", "+1D+1"]  # as the rulebook marks it (6.4.1)
    assert [(x["from"], x["to"]) for x in steps if x["kind"] == "strength"] == [
        ("+0", "+1"), ("+1", "+2"), ("+2", "+1D"), ("+1D", "+1D+1")]
    assert G.view(s, 0)["demon_strength"] == {"dice": 1, "pips": 1, "text": "+1D+1"}
    assert G.from_json(G.to_json(s)).strength == s.strength


def test_demon_strength_is_added_to_demon_rolls(dice: list) -> None:
    s = build(strength=Stat(1, 1))
    dice.append([1, 1, 1, 1])  # oni body 3D + 1D+1 = 4 dice + 1
    assert nm.demon_roll(Work.of(s), "oni", "body").total == 5


def test_spawn_placement_empty_border_no_kitsune(dice: list) -> None:
    # 3x3 block around the Gate: only the border has empty neighbours; Kitsune on every border Land but (1,1).
    cells = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != GATE]
    kit = [Kitsune(0, pos=GATE)]
    s = build(lands=lands(*cells), kitsune=kit)
    w = Work.of(s)
    assert GATE not in nm.valid_spawn_lands(w)
    w.kit[0] = Kitsune(0, pos=(1, 1))
    assert (1, 1) not in nm.valid_spawn_lands(w) and len(nm.valid_spawn_lands(w)) == 7
    dice += [[1, 2, 6], [1], [3]]  # three spawn dice: 1 and 2 spawn; types oni, tengu
    steps: list = []
    nm.spawn(w, steps)
    spawned = [x for x in steps if x["kind"] == "spawn"]
    assert [x["type"] for x in spawned] == ["oni", "tengu"]
    assert all(tuple(x["at"]) in nm.valid_spawn_lands(w) for x in spawned)


def test_no_spawn_without_a_token(dice: list) -> None:
    s = build(lands=lands((1, 0)), demons={f"gaki{i}": (1, 0) for i in range(1, 5)})
    w = Work.of(s)
    dice += [[2], [6]]
    steps: list = []
    nm.spawn(w, steps)
    assert steps[-1] == {"kind": "no_spawn", "type": "gaki", "type_die": 6, "reason": "no_token"}


def test_spawned_demons_do_not_attack_this_nightmare(dice: list) -> None:
    s = build(lands=lands((1, 0)))
    w = Work.of(s)
    dice += [[1], [1]]
    steps = nm.run(w, 0)
    assert [x["kind"] for x in steps] == ["spawn_dice", "spawn"]


def test_death_at_wounds_equal_body_dice(dice: list) -> None:
    s = build(lands=lands((1, 0)), demons={"oni1": (1, 0)}, kitsune=[Kitsune(0, pos=(1, 0), wounds=1)])
    dice += [[6, 6, 6], [1, 1], [5]]
    s2, _ = G.apply(s, 0, "end")
    assert s2.phase == "over" and s2.reason == "fw.outcome.all_dead"
    assert [x["seat"] for x in s2.nightmare["steps"] if x["kind"] == "death"] == [0]
    assert s2.kitsune[0].pos is None


def test_demon_with_no_adjacent_land_returns_to_the_supply(dice: list) -> None:
    s = build(lands=lands((1, 0), (1, 1)), demons={"gaki1": (1, 1)})
    w = Work.of(s)
    del w.lands[(1, 0)]  # (1,1) now hangs alone: destroying it leaves no neighbour
    dice += [[6, 6, 6]]
    steps: list = []
    nm._attack_land(w, w.demons["gaki1"], steps)
    assert steps[-1]["kind"] == "returned" and "gaki1" not in w.demons


def test_extra_wounds_option_survives_longer(dice: list) -> None:
    s = build(lands=lands((1, 0)), demons={"oni1": (1, 0)}, kitsune=[Kitsune(0, pos=(1, 0), wounds=1)],
              options=Options(extra_wounds=1))
    dice += [[6, 6, 6], [1, 1], [5]]
    s2, _ = G.apply(s, 0, "end")
    assert s2.phase == "dream" and s2.kitsune[0].wounds == 2 and s2.kitsune[0].alive


def test_demons_attack_the_current_player_first_then_clockwise(dice: list) -> None:
    s = build(3, lands=lands((1, 0)), demons={"tengu1": (1, 0)},
              kitsune=[Kitsune(0, pos=(1, 0)), Kitsune(1), Kitsune(2, pos=(1, 0))], current=1)
    dice += [[1, 1, 1], [6, 6], [5]]
    s2, _ = G.apply(s, 1, "end")
    assert s2.nightmare["steps"][0]["seat"] == 2


def test_harder_land_defence_and_land_guard(dice: list) -> None:
    s = build(lands={(1, 0): 0}, demons={"oni1": (1, 0)}, options=Options(land_defence=12),
              kitsune=[Kitsune(0, upgrades=("palisade",))])
    w = Work.of(s)
    assert nm.land_defence(w, w.lands[(1, 0)]) == 13
