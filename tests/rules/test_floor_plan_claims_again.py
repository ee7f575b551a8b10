"""Scoring a demand again (rulebook: "you may score each demand multiple times but may not use the same rooms or
features"): a claim must not take the first match when that match blocks a repeat another choice allows.
Every sheet here is built so that the greedy first match blocks the second claim."""

from __future__ import annotations

import pytest

from rules.base import StateError
from rules.floor_plan import demands as dm
from rules.floor_plan.game import Claim
from tests.rules.fp_helpers import G, R, board, c, sheet, started, with_sheet

# Kitchen A1 and Dining D1 are joined by the door C2 (first in scan order); Dining D1 also joins Kitchen G1
# (door F2) and Kitchen A1 also joins Dining A4 (door B3). Taking C2 first leaves nothing; F2 + B3 score twice.
HOSTS = sheet(R("K", "A1", 3, 3), R("D", "D1", 3, 3), R("K", "G1", 3, 3), R("D", "A4", 3, 3),
              doors="C2 F2 B3")
# Bedroom C5 sees tree A1 (window C5, first in scan order) and tree E1 (window E5); Bedroom A9 sees only tree A1.
NATURE = sheet(R("B", "C5", 3, 3), R("B", "A9", 2, 2), trees="A1 E1", windows="C5 E5 A9")


def _scores(demand: str, sh: object) -> list[frozenset[str]]:
    """Claim the demand again and again, as the game does, until it is refused."""
    out: list[frozenset[str]] = []
    while (found := dm.witness(demand, sh, frozenset().union(*out))) is not None:
        out.append(found)
    return out


def test_a_connection_demand_scores_twice_when_greedy_would_block_the_second() -> None:
    got = _scores("hosts.1", HOSTS)
    assert len(got) == 2
    assert got[0] == {"door:F2", "room:1", "room:2"}  # not the first door C2, which shares both rooms
    assert got[0].isdisjoint(got[1])


def test_a_window_view_demand_scores_once_per_bedroom_and_tree() -> None:
    got = _scores("nature_lover.1", NATURE)
    assert len(got) == 2
    assert {"tree:0", "tree:1"} == {t for w in got for t in w if t.startswith("tree:")}


def test_a_corner_window_serves_one_wall_so_the_other_window_takes_the_shared_wall() -> None:
    # C3 is on the north and the west wall, E3 only on the north: C3 must take the west wall.
    sh = sheet(R("K", "C3", 4, 3, "D4"), windows="C3 E3")
    assert dm.witness("sun_seeker.1", sh) == {"room:0", "window:C3", "window:E3"}


def test_courtyard_rooms_are_chosen_so_that_a_second_courtyard_still_has_its_own() -> None:
    # Yard F3:G3 touches rooms 0, 1, 2, 3 and 7; yard F7 touches rooms 3, 4, 5, 6. The lowest four rooms of
    # the first yard include room 3, which the second yard cannot do without: the first must take room 7.
    sh = sheet(R("C", "E1", 2, 2),   # 0: north of F3
               R("W", "C3", 3, 1),   # 1: west of F3
               R("B", "H3", 3, 1),   # 2: east of G3
               R("K", "E4", 4, 3),   # 3: south of F3:G3, north of F7
               R("D", "C7", 3, 1),   # 4: west of F7
               R("L", "G7", 3, 1),   # 5: east of F7
               R("C", "E8", 3, 2),   # 6: south of F7
               R("W", "G1", 2, 2))   # 7: north of G3
    got = _scores("courtyard.1", sh)
    assert len(got) == 2
    assert {"yard:F3", "yard:G3", "room:7"} <= got[0] and "room:3" in got[1]


def test_the_game_lets_a_seat_claim_the_repeat_and_lists_it_as_claimable() -> None:
    s = with_sheet(started(clients=("hosts", "nature_lover", "step_free")), 0, HOSTS)
    s, _ = G.apply(s, 0, "claim hosts.1")
    assert "hosts.1" in G.claimable(s, 0)
    s, _ = G.apply(s, 0, "claim hosts.1")
    claims = board(s, 0).claims
    assert [cl.demand for cl in claims] == ["hosts.1", "hosts.1"]
    assert claims[0].tokens.isdisjoint(claims[1].tokens)
    assert "hosts.1" not in G.claimable(s, 0)


FIRST_C2 = frozenset({"door:C2", "room:0", "room:1"})  # what a claim had to take before doors F2 and B3


def test_a_repeat_chooses_the_earlier_claims_witness_again_when_the_sheet_now_allows_two() -> None:
    # On paper only the points are written: once doors F2 and B3 are drawn, two disjoint connections exist.
    got = dm.assign("hosts.1", HOSTS, [FIRST_C2])
    assert got is not None and len(got) == 2 and got[0].isdisjoint(got[1])
    assert dm.assign("hosts.1", HOSTS, [*got]) is None  # a third would need a third Kitchen–Dining pair


def test_the_game_rewrites_the_earlier_claim_when_a_repeat_needs_its_rooms() -> None:
    s = started(clients=("hosts", "nature_lover", "step_free"))
    notes = (3, *(None,) * (len(s.boards[0].notes) - 1))
    s = with_sheet(s, 0, HOSTS, notes=notes, claims=(Claim("hosts.1", 3, 0, FIRST_C2),))
    assert "hosts.1" in G.claimable(s, 0)
    s, _ = G.apply(s, 0, "claim hosts.1")
    first, second = board(s, 0).claims
    assert first.tokens != FIRST_C2 and first.tokens.isdisjoint(second.tokens) and first.note == 0
    assert G.to_json(G.from_json(G.to_json(s))) == G.to_json(s)


def test_named_cells_pick_the_witness_the_player_means() -> None:
    # Naming the door C2 chooses the first match even though it blocks the repeat: the player decides.
    assert dm.witness("hosts.1", HOSTS, named=[c("C2")]) == {"door:C2", "room:0", "room:1"}
    assert dm.witness("hosts.1", HOSTS, named=[c("Q13")]) is None


def test_packing_finds_a_largest_disjoint_set_not_the_greedy_one() -> None:
    a, b, x = frozenset({"a", "b"}), frozenset({"a"}), frozenset({"b"})
    assert sorted(dm.packing([a, b, x]), key=sorted) == [b, x]


# --- stored claims (FloorPlan.from_json) -----------------------------------------------------------------------


def _stored_twice() -> dict:
    s = with_sheet(started(clients=("hosts", "nature_lover", "step_free")), 0, HOSTS)
    s, _ = G.apply(s, 0, "claim hosts.1; claim hosts.1")
    return G.to_json(s)


def test_a_stored_claim_must_name_a_door_that_is_on_its_sheet() -> None:
    d = _stored_twice()
    claim = d["pending"][0]["claims"][0]
    claim["tokens"] = sorted(["door:Q13" if t.startswith("door:") else t for t in claim["tokens"]])
    with pytest.raises(StateError, match=r"pending.*claims.*tokens.*door:Q13"):
        G.from_json(d)


def test_a_stored_repeat_claim_may_not_reuse_an_element_of_the_first() -> None:
    d = _stored_twice()
    first, second = d["pending"][0]["claims"]
    second["tokens"] = sorted({*second["tokens"], first["tokens"][-1]})
    with pytest.raises(StateError, match=r"pending.*claims.*1.*tokens.*reuses"):
        G.from_json(d)


def test_a_stored_game_with_two_disjoint_claims_of_one_demand_reads_back() -> None:
    d = _stored_twice()
    assert G.to_json(G.from_json(d)) == d
