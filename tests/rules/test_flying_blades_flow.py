"""Turns, passing and the end, scoring and ties, resigning, the draft, and who may act."""

from __future__ import annotations

import pytest

from rules.base import IllegalActionError, NotYourTurnError
from rules.flying_blades.cards import PRICES
from rules.flying_blades.draft import keeps
from tests.rules.fb_helpers import G, at, cell, play, refused

# --- turns --------------------------------------------------------------------------------------------------


def test_seat_zero_moves_first_and_the_turn_passes_to_the_next_seat() -> None:
    s = G.new(3, {"cards": "none"}, "turns")
    assert G.to_move(s) == frozenset({0})
    s, events = G.apply(s, 0, "pass")
    assert G.to_move(s) == frozenset({1}) and events[-1].kind == "turn" and events[-1].seat == 1
    s = play(s, (1, "pass"))
    assert G.to_move(s) == frozenset({2})
    s = play(s, (2, G.legal_actions(s, 2)[0]))
    assert G.to_move(s) == frozenset({0})


def test_five_players_take_turns_in_seat_order() -> None:
    s = at(5, 3, r="a1", y="c1", b="e1", g="g1", k="i1")
    s = play(s, (3, "pass"))
    assert G.to_move(s) == frozenset({4})
    s = play(s, (4, "pass"))
    assert G.to_move(s) == frozenset({0})


def test_acting_out_of_turn_is_refused() -> None:
    s = at(3, 0, r="c3", y="c4", b="c5")
    assert refused(s, 1, "pass", NotYourTurnError) == "It is red's turn, not yours (yellow)."


def test_an_unknown_seat_is_refused() -> None:
    assert "Seat 3" in refused(at(3, 0, r="c3"), 3, "pass", NotYourTurnError)


def test_pass_is_always_legal_even_with_attacks_available() -> None:
    s = at(3, 0, r="c3", y="c4")
    assert "pass" in G.legal_actions(s, 0)
    s2, events = G.apply(s, 0, "pass")
    assert events[0].kind == "pass" and s2.board == s.board


def test_a_player_with_no_legal_attack_or_card_may_only_pass() -> None:
    s = at(3, 0, r="a1", y="c3", b="h8", extra="hands=circle,shuriken,double,triple,dragon,bomb|-|-")
    assert G.legal_actions(s, 0) == ["pass"]


def test_a_player_with_no_ninjas_left_still_takes_turns_and_may_only_pass() -> None:
    s = at(3, 0, y="c3", b="c4", extra="hands=vanish,bomb|-|-")
    assert G.to_move(s) == frozenset({0}) and G.legal_actions(s, 0) == ["pass"]
    assert "holds no ninja of yours" in refused(s, 0, "vanish c3 c5", IllegalActionError)


def test_only_the_seat_to_move_has_legal_actions() -> None:
    s = at(3, 0, r="c3", y="c4")
    assert G.legal_actions(s, 1) == [] and G.legal_actions(s, 2) == []


def test_legal_actions_are_sorted_canonical_strings() -> None:
    s = at(3, 0, r="c3 e5", y="c4 d5 e7", extra="hands=shuriken,circle|-|-")
    actions = G.legal_actions(s, 0)
    assert actions == sorted(actions)
    assert actions == ["attack c3 c4", "attack e5 d5", "circle c3", "circle e5", "pass", "shuriken c3 c4",
                       "shuriken e5 d5", "shuriken e5 e7"]


# --- the end ------------------------------------------------------------------------------------------------


def test_game_ends_when_every_player_passes_in_succession() -> None:
    s = at(3, 0, r="c3", y="c4", b="h8")
    s = play(s, (0, "pass"), (1, "pass"))
    assert s.phase == "play"
    s, events = G.apply(s, 2, "pass")
    assert s.phase == "over" and G.to_move(s) == frozenset()
    assert events[-1].kind == "game_over" and events[-1].data["reason"] == "fb.outcome.all_passed"


def test_an_action_between_passes_restarts_the_succession() -> None:
    s = at(3, 1, r="c3", y="c4", b="h8 g8")
    s = play(s, (1, "pass"), (2, "pass"), (0, "attack c3 c4"), (1, "pass"), (2, "pass"))
    assert s.phase == "play" and G.view(s, None)["passes"] == 2
    s = play(s, (0, "pass"))
    assert s.phase == "over"


def test_no_action_is_accepted_once_the_game_is_over() -> None:
    s = play(at(2, 0, r="a1", y="i9", b="e5"), (0, "pass"), (1, "pass"))
    assert s.phase == "over"
    assert refused(s, 0, "pass", IllegalActionError) == "This game is over."
    assert refused(s, 1, "resign", IllegalActionError) == "This game is over."
    assert G.legal_actions(s, 0) == []


def test_three_to_five_players_most_ninjas_left_wins() -> None:
    s = play(at(3, 0, r="a1 a2 a3", y="c1 c2", b="e1"), (0, "pass"), (1, "pass"), (2, "pass"))
    o = G.outcome(s)
    assert o.winners == (0,) and o.ranking == ((0,), (1,), (2,)) and o.scores == (3.0, 2.0, 1.0)


def test_a_tie_for_most_ninjas_is_a_shared_result() -> None:
    s = at(4, 2, r="a1 a2", y="c1", b="e1 e2", g="g1 g2")
    s = play(s, (2, "pass"), (3, "pass"), (0, "pass"), (1, "pass"))
    o = G.outcome(s)
    assert o.winners == (0, 2, 3) and o.ranking == ((0, 2, 3), (1,))


def test_two_player_winner_eliminated_more_prey() -> None:
    s = at(2, 0, r="a1", y="i9", b="i1", extra="captured=3,5")
    s = play(s, (0, "pass"), (1, "pass"))
    o = G.outcome(s)
    assert o.winners == (1,) and o.scores == (3.0, 5.0)


def test_two_player_ninjas_left_do_not_decide_the_winner() -> None:
    s = at(2, 0, r="a1 a2 a3 a4", y="i9", b="i1", extra="captured=4,4")
    s = play(s, (0, "pass"), (1, "pass"))
    assert G.outcome(s).winners == (0, 1)


def test_captured_counts_prey_eliminated_by_each_seat() -> None:
    s = at(3, 0, r="c3", y="c4 g4", b="g5 a9")
    s = play(s, (0, "attack c3 c4"), (1, "attack g4 g5"))
    assert s.captured == (1, 1, 0) and G.view(s, None)["captured"] == [1, 1, 0]


def test_two_players_both_hunt_the_neutral_and_keep_what_they_eliminate() -> None:
    s = at(2, 0, r="c3", y="e3", b="d3 c4 e4")
    s = play(s, (0, "attack c3 c4"), (1, "attack e3 e4"))
    assert s.captured == (1, 1) and (cell(s, "c4"), cell(s, "e4")) == ("r", "y")
    assert cell(s, "d3") == "b"


# --- resigning ----------------------------------------------------------------------------------------------


def test_resign_in_two_players_ends_the_game_and_the_other_wins() -> None:
    s = at(2, 0, r="a1", y="i9", b="e5", extra="captured=0,4")
    s, events = G.apply(s, 1, "resign")
    o = G.outcome(s)
    assert s.phase == "over" and o.winners == (0,) and o.reason == "fb.outcome.last_standing"
    assert o.ranking == ((0,), (1,)) and [e.kind for e in events] == ["resign", "game_over"]


def test_resign_is_allowed_out_of_turn() -> None:
    s = at(3, 0, r="a1", y="c1", b="e1")
    s2, _ = G.apply(s, 2, "resign")
    assert s2.resigned == (False, False, True) and G.to_move(s2) == frozenset({0})


def test_resigned_seat_is_skipped_in_turn_order() -> None:
    s = play(at(3, 0, r="a1 a3", y="c1", b="e1"), (1, "resign"), (0, "pass"))
    assert G.to_move(s) == frozenset({2})
    s = play(s, (2, "pass"))
    assert s.phase == "over", "the resigned seat counts as passing"


def test_resigning_on_your_turn_passes_the_turn_on() -> None:
    s = play(at(3, 1, r="a1", y="c1", b="e1"), (1, "resign"))
    assert G.to_move(s) == frozenset({2})


def test_resigning_can_complete_a_succession_of_passes() -> None:
    s = play(at(3, 0, r="a1", y="c1", b="e1"), (0, "pass"), (1, "pass"), (2, "resign"))
    assert s.phase == "over" and G.outcome(s).reason == "fb.outcome.all_passed"


def test_resigned_seats_rank_last_whatever_their_ninjas() -> None:
    s = play(at(3, 0, r="a1", y="c1 c2 c3 c4", b="e1 e2"), (1, "resign"), (0, "pass"), (2, "pass"))
    o = G.outcome(s)
    assert o.winners == (2,) and o.ranking == ((2,), (0,), (1,))


def test_last_player_standing_wins() -> None:
    s = play(at(4, 0, r="a1", y="c1", b="e1", g="g1 g2 g3"), (1, "resign"), (3, "resign"), (2, "resign"))
    o = G.outcome(s)
    assert o.winners == (0,) and o.reason == "fb.outcome.last_standing" and o.ranking == ((0,), (1, 2, 3))


def test_resigned_ninjas_stay_on_the_board_as_prey() -> None:
    s = play(at(3, 0, r="c3", y="c4", b="h8"), (1, "resign"), (0, "attack c3 c4"))
    assert cell(s, "c4") == "r" and s.captured == (1, 0, 0)


def test_a_resigned_seat_cannot_act_or_resign_again() -> None:
    s = play(at(3, 0, r="a1", y="c1", b="e1"), (1, "resign"))
    assert refused(s, 1, "pass", NotYourTurnError) == "You have resigned from this game."
    assert refused(s, 1, "resign", NotYourTurnError) == "You have resigned from this game."


def test_resigning_during_the_draft_lets_play_start_without_that_seat() -> None:
    s = G.new(3, {}, "resign-draft")
    s = play(s, (0, "keep none"), (1, "resign"))
    assert s.phase == "draft" and G.to_move(s) == frozenset({2})
    s, events = G.apply(s, 2, "keep none")
    assert s.phase == "play" and G.to_move(s) == frozenset({0}) and events[-1].kind == "draft_done"


def test_when_seat_zero_resigned_in_the_draft_the_next_seat_starts() -> None:
    s = play(G.new(3, {}, "resign-0"), (0, "resign"), (1, "keep none"), (2, "keep none"))
    assert G.to_move(s) == frozenset({1})


# --- the draft ----------------------------------------------------------------------------------------------


def test_draft_is_simultaneous_and_ends_when_everyone_kept() -> None:
    s = G.new(3, {}, "draft")
    s, ev = G.apply(s, 2, "keep none")
    assert G.to_move(s) == frozenset({0, 1}) and ev[0].kind == "drafted" and ev[0].data == {"count": 0}
    s = play(s, (0, "keep none"))
    s, events = G.apply(s, 1, "keep none")
    assert s.phase == "play" and [e.kind for e in events] == ["drafted", "draft_done"]
    assert events[-1].data == {"first": 0} and G.to_move(s) == frozenset({0})


def test_draft_keep_over_price_limit_is_refused() -> None:
    s = at(2, 0, r="a1", extra="phase=draft hands=bomb,bomb,circle,vanish|-")
    assert refused(s, 0, "keep bomb,bomb,vanish", IllegalActionError) == (
        "Those cards cost 11 in total; you may keep cards worth at most 10.")
    s2, _ = G.apply(s, 0, "keep bomb,bomb")
    assert s2.hands[0] == ("bomb", "bomb")


def test_draft_keep_must_come_from_the_dealt_hand() -> None:
    s = at(3, 0, r="a1", extra="phase=draft hands=bomb,vanish|-|-")
    assert refused(s, 0, "keep triple", IllegalActionError) == (
        "You cannot keep that many of Triple kick: you were dealt 0.")
    assert "you were dealt 1" in refused(s, 0, "keep vanish,vanish", IllegalActionError)


def test_draft_discards_the_cards_not_kept() -> None:
    s = at(3, 0, r="a1", extra="phase=draft hands=bomb,shuriken,vanish|-|-")
    s2, _ = G.apply(s, 0, "keep vanish,bomb")
    assert s2.hands[0] == ("bomb", "vanish") and G.view(s2, 0)["hand"] == ["bomb", "vanish"]


def test_draft_keep_none_keeps_nothing() -> None:
    s = at(3, 0, r="a1", extra="phase=draft hands=bomb|-|-")
    assert G.apply(s, 0, "keep none")[0].hands[0] == ()


def test_draft_keep_twice_is_refused() -> None:
    s = play(G.new(3, {}, "twice"), (0, "keep none"))
    assert refused(s, 0, "keep none", NotYourTurnError) == (
        "You have chosen your cards; wait for the other players to choose theirs.")


def test_playing_before_the_draft_is_over_is_refused() -> None:
    s = G.new(3, {}, "early")
    assert "First choose the cards you keep" in refused(s, 0, "pass", IllegalActionError)


def test_keeping_cards_after_the_draft_is_refused() -> None:
    s = at(3, 0, r="a1")
    assert "too late to keep cards" in refused(s, 0, "keep none", IllegalActionError)


def test_draft_legal_actions_list_every_affordable_keep() -> None:
    s = at(3, 0, r="a1", extra="phase=draft hands=bomb,bomb,circle,vanish|-|-")
    actions = G.legal_actions(s, 0)
    assert actions == sorted(actions) and "keep none" in actions and "keep bomb,bomb" in actions
    assert "keep bomb,bomb,vanish" not in actions and "keep bomb,circle,vanish" in actions
    assert len(actions) == 3 * 2 * 2 - 3  # bombs 0–2 × circle 0–1 × vanish 0–1, minus three over 10


@pytest.mark.parametrize("seed", ["k1", "k2", "k3"])
def test_every_listed_keep_is_within_the_price_limit(seed: str) -> None:
    s = G.new(2, {}, seed)
    for k in keeps(s.hands[0]):
        assert sum(PRICES[c] for c in k) <= 10


def test_the_view_during_the_draft_shows_the_dealt_hand() -> None:
    s = G.new(3, {}, "dealt")
    assert G.view(s, 1)["hand"] == list(s.hands[1]) and len(s.hands[1]) == 10


def test_the_keep_itself_is_not_revealed_in_last_action_or_events() -> None:
    s = G.new(3, {}, "secret")
    s2, events = G.apply(s, 0, G.bot_action(s, 0))
    assert G.view(s2, 1)["last_action"]["action"] == "keep"
    assert all(set(e.data) <= {"count", "first"} for e in events)
