"""Floor Plan game flow: a test per rule (setup, dice, features, wild, bonuses, claims, endings, scoring, solo),
notation, views, serialisation, replay and seeded playouts with 1, 4 and 100 players."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules.base import IllegalActionError, InvalidActionError, NotYourTurnError, OptionsError
from rules.floor_plan import State
from rules.floor_plan import demands as dm
from rules.floor_plan.game import SHEET_DATA, compute_outcome, final_score, is_stuck, roll_dice
from rules.floor_plan.sheet import CENTRE, Room, Sheet
from tests.rules.fp_helpers import G, R, board, c, refused, sheet, started, with_sheet

KD = (R("K", "A1", 3, 3), R("D", "D1", 3, 3))


def filled(notes: list[int | None]) -> tuple[int | None, ...]:
    return tuple(notes)


# --- options and setup ------------------------------------------------------------------------------------------


def test_options_have_defaults_and_are_validated() -> None:
    assert G.normalize_options(3, {}) == {"round_minutes": 0}
    assert G.normalize_options(1, {"clients": ["hosts", "swimmer", "flow"]})["clients"] == ["hosts", "swimmer",
                                                                                            "flow"]
    for players, opts in [(0, {}), (101, {}), (2, {"colour": 1}), (2, {"round_minutes": -1}),
                          (2, {"clients": ["swimmer", "hosts", "flow"]}), (2, {"clients": ["hosts"]})]:
        with pytest.raises(OptionsError):
            G.normalize_options(players, opts)


def test_new_draws_one_client_of_each_kind_from_the_seed() -> None:
    s = G.new(3, {}, "clients-seed")
    assert [dm.CLIENTS[cid].kind for cid in s.clients] == ["build", "design", "layout"]
    assert G.new(3, {}, "clients-seed").clients == s.clients
    assert len({G.new(2, {}, f"seed-{i}").clients for i in range(12)}) > 3


def test_setup_roll_sets_one_die_to_six_and_everyone_draws_a_living_room() -> None:
    s = G.new(3, {}, "setup")
    assert s.phase == "setup" and s.roll is not None and s.roll[0] == 6 and 1 <= s.roll[1] <= 6
    assert G.to_move(s) == {0, 1, 2}
    assert {roll_dice(f"r{i}", 0)[1] for i in range(40)} == {1, 2, 3, 4, 5, 6}


def test_starting_living_room_encloses_i7_with_its_label_there_either_orientation() -> None:
    s = replace(G.new(2, {}, "start"), roll=(6, 3))
    s1, _ = G.apply(s, 0, "start G5 6x3")
    s1, _ = G.apply(s1, 1, "start i2 3x6")
    assert s1.phase == "play" and s1.round == 1
    assert s1.boards[0].sheet.rooms == (Room("L", 6, 4, 6, 3, CENTRE),)
    assert s1.boards[1].sheet.rooms == (Room("L", 8, 1, 3, 6, CENTRE),)


def test_starting_room_must_match_the_roll_and_cover_i7() -> None:
    s = replace(G.new(1, {}, "start"), roll=(6, 3))
    assert "6×3" in refused(s, 0, "start G5 6x4", IllegalActionError)
    refused(s, 0, "start A1 6x3", IllegalActionError)  # does not reach I7
    assert "starting living room" in refused(s, 0, "room C3 3x6 L@D4", IllegalActionError)
    assert G.default_action(s, 0) == "timeout"  # the engine's; it draws the bot's start (test_floor_plan_timeout)


# --- the round's action --------------------------------------------------------------------------------------


def test_room_uses_the_dice_in_either_orientation_labelled_by_either_die() -> None:
    s = started(2)
    for action in ("room A1 4x3 K@B2", "room A1 3x4 B@A1"):
        s2, _ = G.apply(s, 0, action)
        assert len(board(s2, 0).sheet.rooms) == 2
    assert "4 and 3" in refused(s, 0, "room A1 4x4 K@B2", IllegalActionError)
    assert "label it B / K" in refused(s, 0, "room A1 4x3 L@B2", IllegalActionError)


def test_room_placement_errors_name_the_cell() -> None:
    s = started(1)
    living = s.boards[0].sheet.rooms[0]
    msg = refused(s, 0, f"room {chr(65 + living.x)}{living.y + 1} 4x3 K@{chr(65 + living.x)}{living.y + 1}")
    assert chr(65 + living.x) in msg


def test_features_are_all_or_nothing() -> None:
    s = started(1, roll=(6, 2))
    living = s.boards[0].sheet
    assert "exactly 6" in refused(s, 0, "features 6:A1,B1,C1", IllegalActionError)
    before = s
    refused(s, 0, "features 6:A1,B1,C1,D1,E1,I7", IllegalActionError)  # I7 is the living room's label
    assert before == s
    s2, _ = G.apply(s, 0, "features 6:A1,B1,C1,D1,E1,F1")
    assert len(board(s2, 0).sheet.stones) == 6 and board(s2, 0).sheet.rooms == living.rooms


def test_one_feature_set_alone_is_allowed_but_only_rolled_dice() -> None:
    s = started(1, roll=(6, 2))
    s2, _ = G.apply(s, 0, "features 6:A1,B1,C1,D1,E1,F1")
    assert 0 not in G.to_move(s2) or s2.round == 2
    assert "No die shows 5" in refused(s, 0, "features 5:A1,B1,C1,D1,E1", IllegalActionError)


def test_skip_draws_nothing() -> None:
    s = started(2)
    s2, _ = G.apply(s, 0, "skip")
    assert board(s2, 0).sheet == s.boards[0].sheet and G.to_move(s2) == {1}


def test_one_action_per_round() -> None:
    s = started(2)
    s2, _ = G.apply(s, 0, "skip")
    refused(s2, 0, "skip", NotYourTurnError)
    assert "Only one" in refused(s, 0, "skip; room A1 4x3 K@B2", InvalidActionError)


def test_round_closes_when_all_acted_and_rolls_again_from_the_seed() -> None:
    s = started(2)
    s2, _ = G.apply(s, 0, "skip")
    s3, events = G.apply(s2, 1, "skip")
    assert s3.round == 2 and s3.roll == roll_dice(s.seed, 2) and G.to_move(s3) == {0, 1}
    assert [e.kind for e in events][-2:] == ["round_closed", "round"]


# --- wild and bonuses ---------------------------------------------------------------------------------------------


def test_wild_reads_one_die_as_any_value_once() -> None:
    s = started(1, roll=(4, 3))
    s2, _ = G.apply(s, 0, "room A1 4x6 L@A1 wild 3=6")
    assert board(s2, 0).wild_used and board(s2, 0).sheet.rooms[-1] == Room("L", 0, 0, 4, 6, (0, 0))
    s3 = replace(s2, roll=(4, 3), to_act=frozenset({0}))
    assert "already used your Wild" in refused(s3, 0, "room A8 4x2 K@A8 wild 3=2", IllegalActionError)
    assert "5 was not rolled" in refused(s, 0, "room A1 4x6 L@A1 wild 5=6", IllegalActionError)


def test_wild_spelled_with_an_arrow_is_canonicalised() -> None:
    assert G.notation(started(1), "ROOM a1 4X6 l@a1 WILD 3->6") == "room A1 4x6 L@A1 wild 3=6"


def claimed_state(note: int = 1, bonus_used: bool = False) -> State:
    """One seat, a note filled (unlocking the bonus under it)."""
    s = started(1)
    notes = [None] * 6
    notes[note - 1] = 3
    used = [False] * 6
    used[note - 1] = bonus_used
    return with_sheet(s, 0, s.boards[0].sheet, notes=tuple(notes), bonus_used=tuple(used))


def test_double_a_room_draws_two_rooms_once_unlocked() -> None:
    s = started(1, roll=(4, 3))
    assert "Double a Room" in refused(s, 0, "room A1 4x3 K@A1 + A5 3x4 B@A5", IllegalActionError)
    s = claimed_state(note=2)
    s = replace(s, roll=(4, 3))
    s2, _ = G.apply(s, 0, "room A1 4x3 K@A1 + A5 3x4 B@A5")
    assert len(board(s2, 0).sheet.rooms) == 3 and board(s2, 0).bonus_used[1]
    s3 = replace(s2, roll=(4, 3), to_act=frozenset({0}))
    refused(s3, 0, "room A10 4x3 K@A10 + E10 3x4 B@E10", IllegalActionError)


def test_double_a_feature_doubles_one_die_once_unlocked() -> None:
    s = replace(claimed_state(note=1), roll=(6, 2))
    stones = "A1,B1,C1,D1,E1,F1,A2,B2,C2,D2,E2,F2"
    assert "exactly 6" in refused(replace(started(1), roll=(6, 2)), 0, f"features 6:{stones}")
    refused(replace(started(1), roll=(6, 2)), 0, f"features 6x2:{stones}", IllegalActionError)
    s2, _ = G.apply(s, 0, f"features 6x2:{stones}")
    assert len(board(s2, 0).sheet.stones) == 12 and board(s2, 0).bonus_used[0]


def test_two_doors_bonus_does_not_use_the_round_action_and_is_spent() -> None:
    s = claimed_state(note=3)
    living = s.boards[0].sheet.rooms[0]
    wall = sorted(c2 for c2 in living.wall_cells() if c2 != living.label)
    a, b = (f"{chr(65 + x)}{y + 1}" for x, y in wall[:2])
    s2, _ = G.apply(s, 0, f"doors {a},{b}")
    assert G.to_move(s2) == {0} and len(board(s2, 0).sheet.doors) == 2 and board(s2, 0).bonus_used[2]
    assert "Two Doors" in refused(s2, 0, f"doors {a},{b}", IllegalActionError)
    assert "Two Doors" in refused(started(1), 0, f"doors {a},{b}", IllegalActionError)


def test_each_bonus_is_used_once_even_in_one_text() -> None:
    s = replace(claimed_state(note=2), roll=(4, 3))
    refused(s, 0, "room A1 4x3 K@A1 + A5 3x4 B@A5; doors A1,B1", IllegalActionError)


# --- claims -------------------------------------------------------------------------------------------------------


def kd_state(doors: str = "C2", players: int = 1) -> State:
    s = started(players, clients=("hosts", "swimmer", "flow"))
    living = s.boards[0].sheet.rooms[0]
    return with_sheet(s, 0, sheet(*KD, living, doors=doors))


def test_claim_is_verified_and_finds_the_witness() -> None:
    s = kd_state()
    s2, _ = G.apply(s, 0, "claim hosts.1")
    b = board(s2, 0)
    assert b.notes[0] == 3 and b.claims[0].tokens == {"room:0", "room:1", "door:C2"}
    assert G.to_move(s2) == {0}  # a claim does not use the round's action
    view = G.view(s2, 0)["sheet"]
    assert view["claims"][0]["demand"] == "hosts.1" and [0, 0] in view["claims"][0]["cells"]
    assert view["notes"][0] == {"points": 3, "demand": "hosts.1", "bonus": "double_feature", "bonus_used": False}


def test_claim_is_refused_without_a_witness() -> None:
    msg = refused(kd_state(doors=""), 0, "claim hosts.1", IllegalActionError)
    assert msg.startswith("hosts.1 (Hosts: a Kitchen connected to a Dining Room) is not fulfilled")
    assert "not a demand of this game" in refused(kd_state(), 0, "claim collector.1", IllegalActionError)


def test_repeated_scoring_needs_fresh_rooms_and_features() -> None:
    s, _ = G.apply(kd_state(doors="C2 D3"), 0, "claim hosts.1")
    assert "cannot be scored again" in refused(s, 0, "claim hosts.1", IllegalActionError)
    s = kd_state()
    rooms = (*s.boards[0].sheet.rooms, R("K", "A10", 3, 3), R("D", "D10", 3, 3))
    s = with_sheet(s, 0, sheet(*rooms, doors="C2 C11"))
    s, _ = G.apply(s, 0, "claim hosts.1; claim hosts.1")
    assert board(s, 0).notes[:2] == (3, 3) and G.claimable(s, 0) == []


def test_claim_into_a_chosen_note_unlocks_its_bonus() -> None:
    s, _ = G.apply(kd_state(), 0, "claim hosts.1 note=3")
    assert board(s, 0).notes == (None, None, 3, None, None, None)
    assert board(s, 0).open_bonus("two_doors") == 2
    assert "no note 7" in refused(kd_state(doors="C2 D3"), 0, "claim hosts.1 note=7")
    s2 = with_sheet(kd_state(), 0, kd_state().boards[0].sheet, notes=(None, None, 3, None, None, None))
    assert "already filled" in refused(s2, 0, "claim hosts.1 note=3", IllegalActionError)


def test_claims_may_follow_the_action_in_the_same_text() -> None:
    s = kd_state(doors="")
    s = replace(s, roll=(2, 3))
    s2, _ = G.apply(s, 0, "features 2:C2,C3; claim hosts.1")
    assert s2.round == 2 and s2.boards[0].notes[0] == 3


def test_claims_stay_private_until_the_round_closes() -> None:
    s = kd_state(players=2)
    s2, _ = G.apply(s, 0, "claim hosts.1")
    assert G.view(s2, 1)["scores"][0] == 0 and G.view(s2, 0)["sheet"]["score"] == 3
    assert G.view(s2, 1)["sheet"]["pending"] is None
    s3, _ = G.apply(s2, 0, "room A10 4x3 K@A10")
    pending = G.view(s3, 0)["sheet"]["pending"]
    assert pending["action"] == "claim hosts.1; room A10 4x3 K@A10" and [0, 9] in pending["cells"]
    assert len(G.sheet_view(s3, 0)["rooms"]) == 3  # the public sheet: not yet
    s4, _ = G.apply(s3, 1, "skip")
    assert G.view(s4, 1)["scores"][0] == 3 and len(G.sheet_view(s4, 0)["rooms"]) == 4


# --- endings ---------------------------------------------------------------------------------------------------


def five_notes(s: State, seat: int) -> State:
    return with_sheet(s, seat, s.boards[seat].sheet, notes=(2, 2, 2, 2, 2, None))


def test_sixth_demand_gives_three_and_one_more_round_for_the_others() -> None:
    s = five_notes(kd_state(players=3), 0)
    s, _ = G.apply(s, 0, "claim hosts.1; skip")
    s, _ = G.apply(s, 1, "skip")
    s, _ = G.apply(s, 2, "skip")
    assert s.ending == "sixth" and s.phase == "play" and G.to_move(s) == {1, 2}
    assert s.boards[0].end_bonus == 3 and final_score(s, 0) == 16
    refused(s, 0, "skip", NotYourTurnError)
    s, _ = G.apply(s, 1, "skip")
    s, _ = G.apply(s, 2, "skip")
    assert s.phase == "over" and G.outcome(s).reason == "fp.outcome.sixth"
    assert G.outcome(s).winners == (0,) and G.outcome(s).scores[0] == 16


def test_sixth_demand_in_the_last_round_gives_no_bonus() -> None:
    s = five_notes(kd_state(players=2), 0)
    s = replace(s, ending="full", last_round=True)
    s, _ = G.apply(s, 0, "claim hosts.1; skip")
    s, _ = G.apply(s, 1, "skip")
    assert s.phase == "over" and s.boards[0].end_bonus == 0


def full_sheet() -> Sheet:
    everything = Room("L", 0, 0, 17, 13, CENTRE)
    furniture = frozenset(everything.cells()) - {CENTRE}
    return Sheet(rooms=(everything,), furnishings=furniture)


def test_a_player_who_cannot_use_the_dice_is_stuck() -> None:
    assert is_stuck(full_sheet(), (6, 6)) and is_stuck(full_sheet(), (1, 2))
    assert not is_stuck(Sheet(), (6, 6))
    almost = Sheet(rooms=(Room("L", 0, 0, 17, 12, CENTRE),))
    assert not is_stuck(almost, (6, 1))  # a 6×1 room still fits on the last row
    assert is_stuck(almost, (6, 2)) is False  # 2 doors and 6 stones still fit


def test_full_map_triggers_the_end_and_the_others_play_one_more_round() -> None:
    s = started(3)
    s = replace(s, stuck=frozenset({1}))
    for seat in range(3):
        s, _ = G.apply(s, seat, "skip")
    assert s.ending == "full" and G.to_move(s) == {0, 2}
    for seat in (0, 2):
        s, _ = G.apply(s, seat, "skip")
    assert s.phase == "over" and G.outcome(s).reason == "fp.outcome.full"


def test_stuck_is_computed_from_the_new_roll() -> None:
    s = with_sheet(started(2), 1, full_sheet())
    s2, _ = G.apply(s, 0, "skip")
    s2, _ = G.apply(s2, 1, "skip")
    assert s2.stuck == {1}


def test_door_bonus_is_scored_at_the_end_per_instance() -> None:
    s = kd_state(doors="C2 B3")  # layout: flow, +1 per room with 2+ doors (the kitchen)
    s = with_sheet(s, 0, s.boards[0].sheet, notes=(3, None, None, None, None, None))
    assert final_score(s, 0) == 3
    over = replace(s, phase="over", round=20)
    assert final_score(over, 0) == 3 + 1 + 0  # solo: no bubbles left


def test_tie_fewer_bonuses_used_wins_then_shared() -> None:
    s = started(3)
    for seat in range(3):
        s = with_sheet(s, seat, s.boards[seat].sheet, notes=(4, None, None, None, None, None),
                       wild_used=seat == 1)
    over = replace(s, phase="over", reason="fp.outcome.full")
    out = compute_outcome(over)
    assert out.winners == (0, 2) and out.ranking == ((0, 2), (1,))


def test_resigned_seats_rank_last_and_leave_the_round() -> None:
    s = started(3)
    s, _ = G.apply(s, 0, "skip")
    s, _ = G.apply(s, 1, "resign")
    s, _ = G.apply(s, 2, "skip")
    assert s.round == 2 and G.to_move(s) == {0, 2}
    s, _ = G.apply(s, 0, "resign")
    s, _ = G.apply(s, 2, "resign")
    assert s.phase == "over" and G.outcome(s).reason == "fp.outcome.resigned"


# --- solo -------------------------------------------------------------------------------------------------------


def test_solo_ends_after_twenty_bubbles_with_no_bonus_for_bubbles() -> None:
    s = started(1)
    for _ in range(25):
        if s.phase == "over":
            break
        s = replace(s, stuck=frozenset())
        s, _ = G.apply(s, 0, "skip")
    assert s.phase == "over" and s.round == SHEET_DATA.solo_bubbles and G.outcome(s).reason == "fp.outcome.bubbles"
    view = G.view(s, 0)
    assert view["sheet"]["bubbles_used"] == 20 and view["rating"] == "dimwitted_designer"


def test_solo_scores_one_point_per_two_unused_bubbles_and_a_rating() -> None:
    s = five_notes(kd_state(), 0)
    s = with_sheet(s, 0, s.boards[0].sheet, notes=(10, 10, 10, 10, 10, None))
    s = replace(s, round=7)
    s, _ = G.apply(s, 0, "claim hosts.1; skip")
    assert s.phase == "over" and G.outcome(s).reason == "fp.outcome.sixth"
    assert s.boards[0].end_bonus == 0  # no +3 solo
    assert final_score(s, 0) == 53 + (20 - 7) // 2
    assert G.view(s, 0)["rating"] == "perfect_planner"


# --- notation, views, serialisation -------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "canonical"), [
    ("room c3 4x3 k@d4", "room C3 4x3 K@D4"),
    ("room C3 4x3 K@D4 + H9 3x4 B@H9", "room C3 4x3 K@D4 + H9 3x4 B@H9"),
    ("features 4:G6,F5,F6,G5 3:E3,C3,D3", "features 3:C3,D3,E3 4:F5,G5,F6,G6"),
    ("features 3x2:C3,D3,E3,F3,G3,H3 4:F5 wild 2->4", "features 3x2:C3,D3,E3,F3,G3,H3 4:F5 wild 2=4"),
    ("doors d5, c3", "doors C3,D5"), ("claim hosts.1  note=3", "claim hosts.1 note=3"),
    ("Claim hosts.1;skip", "claim hosts.1; skip"), ("start i4 3x6", "start I4 3x6"), ("RESIGN", "resign"),
])
def test_notation_is_canonical(raw: str, canonical: str) -> None:
    assert G.notation(started(1), raw) == canonical
    assert G.notation(started(1), canonical) == canonical


@pytest.mark.parametrize("bad", ["", "build C3", "room C3 4x3", "room C3 9x3 K@D4", "room C3 4x3 X@D4",
                                 "features 7:A1", "features", "claim", "claim hosts", "doors", "skip now",
                                 "resign; skip", "room A1 1x1 C@A1 wild 9=1", "skip wild 1=2", "claim hosts.1 n=2",
                                 "room Z1 1x1 C@Z1", ";"])
def test_malformed_actions_are_invalid(bad: str) -> None:
    with pytest.raises(InvalidActionError):
        G.notation(started(1), bad)


def test_view_follows_the_contract() -> None:
    s = started(2, clients=("hosts", "swimmer", "flow"))
    v = G.view(s, 0)
    assert set(v) >= {"game", "width", "height", "round", "roll", "phase", "solo", "players", "to_move", "viewer",
                      "ending", "clients", "scores", "demands_done", "sheet", "outcome"}
    assert v["clients"][2] == {"id": "flow", "kind": "layout", "demands": [{"id": "flow.1", "points": 7}],
                               "door_bonus": {"points": 1, "max": 5}}
    assert v["clients"][0]["door_bonus"] is None and (v["width"], v["height"]) == (17, 13)
    assert set(v["sheet"]) == {"seat", "rooms", "trees", "doors", "windows", "furnishings", "decks", "stones",
                               "pools", "notes", "wild_used", "bubbles_used", "score", "claims", "pending"}
    assert G.view(s, None)["sheet"] is None and G.view(s, None)["claimable"] is None
    assert v["claimable"] == [] and G.view(kd_state(), 0)["claimable"] == ["hosts.1"]
    json.dumps(v)


def test_state_round_trips_through_json() -> None:
    s = kd_state(players=2)
    s, _ = G.apply(s, 0, "claim hosts.1; room A10 4x3 K@A10")
    d = G.to_json(s)
    assert G.from_json(json.loads(json.dumps(d))) == s
    with pytest.raises(ValueError):
        G.from_json({**d, "players": 0})


# --- playouts ---------------------------------------------------------------------------------------------------


def check_invariants(s: State) -> None:
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s
    for seat in range(s.players):
        b = s.boards[seat]
        assert len(b.notes) == 6 and sum(p or 0 for p in b.notes) == sum(c.points for c in b.claims)
        for claim in b.claims:
            assert b.notes[claim.note] == claim.points
        for demand in {cl.demand for cl in b.claims}:
            tokens = [cl.tokens for cl in b.claims if cl.demand == demand]
            assert sum(len(t) for t in tokens) == len(frozenset().union(*tokens))  # fresh elements each time
        sheet_ = b.sheet
        cells = [cc for r in sheet_.rooms for cc in r.cells()]
        assert len(cells) == len(set(cells))
        assert CENTRE in sheet_.rooms[0].cells() if sheet_.rooms else s.phase == "setup"
    if s.phase != "over":
        assert G.to_move(s) and G.to_move(s) <= set(range(s.players)) - s.resigned


def playout(players: int, seed: str, check_every: int = 1,
            cheap: bool = False) -> tuple[State, list[tuple[int, str]]]:
    """A whole game of bots; ``cheap``: the baseline bot (random-but-legal) instead of the planner."""
    from rules.floor_plan.bot import choose_baseline

    s = G.new(players, {}, seed)
    log: list[tuple[int, str]] = []
    for step in range(100_000):
        if s.phase == "over":
            return s, log
        for seat in sorted(G.to_move(s)):
            action = choose_baseline(G, s, seat) if cheap else G.bot_action(s, seat)
            s, _ = G.apply(s, seat, action)
            log.append((seat, G.notation(s, action)))
        if step % check_every == 0:
            check_invariants(s)
    raise AssertionError("no end")


@pytest.mark.parametrize(("players", "games"), [(1, 8), (4, 4)])
def test_seeded_playouts_reach_the_end_and_replay(players: int, games: int) -> None:
    for game in range(games):
        s, log = playout(players, f"playout-{players}-{game}")
        out = G.outcome(s)
        assert out is not None and out.reason in ("fp.outcome.sixth", "fp.outcome.full", "fp.outcome.bubbles")
        replayed = G.new(players, {}, f"playout-{players}-{game}")
        for seat, action in log:
            replayed, _ = G.apply(replayed, seat, action)
        assert replayed == s
        json.dumps(G.view(s, 0))


def test_a_hundred_player_playout_reaches_the_end_with_invariants_every_round() -> None:
    # Speed is the benchmark's business (tests/bench/bench_floor_plan.py), not this test's.
    s, log = playout(100, "hundred", cheap=True)
    assert G.outcome(s) is not None and len(G.outcome(s).scores) == 100
    replayed = G.new(100, {}, "hundred")
    for seat, action in log:
        replayed, _ = G.apply(replayed, seat, action)
    assert replayed == s


def test_bot_actions_are_legal_and_deterministic() -> None:
    s = started(3, roll=None)
    assert G.bot_action(s, 1) == G.bot_action(G.from_json(G.to_json(s)), 1)
    G.apply(s, 1, G.bot_action(s, 1))
    assert c("I7") == CENTRE


def test_random_garbage_is_refused_cleanly_and_changes_nothing() -> None:
    import random

    from rules.base import RulesError

    r = random.Random("fuzz")
    words = ["room", "features", "doors", "claim", "skip", "start", "resign", "wild", "+", ";", "A1", "q13", "R1",
             "I7", "4x3", "3x4", "6x6", "0x2", "K@B2", "L@I7", "x@A1", "3:A1,B1,C1", "2x2:A1,A2,A3,A4", "1:A1",
             "6:A1,B1,C1,D1,E1,F1", "hosts.1", "hosts.9", "note=2", "note=0", "3=6", "9=1", "2->5", "", "@", ":"]
    s = kd_state(players=2)
    snapshot = G.to_json(s)
    for _ in range(3000):
        text = " ".join(r.choice(words) for _ in range(r.randint(0, 7)))
        try:
            G.apply(s, 0, text)
        except RulesError as e:
            assert str(e) and not str(e).startswith("fp.")
    assert G.to_json(s) == snapshot


def test_a_tree_is_one_3x3_feature_outside() -> None:
    s = started(1, roll=(1, 6))
    s2, _ = G.apply(s, 0, "features 1:A1")
    assert board(s2, 0).sheet.trees == ((0, 0),)
    living = s.boards[0].sheet.rooms[0]
    inside = f"{chr(65 + living.x)}{living.y + 1}"
    refused(s, 0, f"features 1:{inside}", IllegalActionError)


def test_claims_and_bonuses_wait_for_the_setup_to_end() -> None:
    s = G.new(2, {"clients": ["hosts", "swimmer", "flow"]}, "setup-claim")
    assert "starting living room" in refused(s, 0, "claim hosts.1", IllegalActionError)


def test_round_summary_event_lists_the_claims() -> None:
    s = kd_state(players=2)
    s, _ = G.apply(s, 0, "claim hosts.1; skip")
    _, events = G.apply(s, 1, "skip")
    closed = next(e for e in events if e.kind == "round_closed")
    assert closed.data["claims"] == [{"seat": 0, "demands": ["hosts.1"]}] and closed.data["round"] == 1
    json.dumps([e.data for e in events])
