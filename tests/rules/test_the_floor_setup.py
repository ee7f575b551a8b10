"""Board, layouts, seats and teams, options, and the hidden simultaneous category draft."""

from __future__ import annotations

import json

import pytest

from rules.base import IllegalActionError, NotYourTurnError, OptionsError
from rules.the_floor import board as bd
from rules.the_floor.options import DEAL, FINAL_SETUP_CARDS
from tests.rules.tf_helpers import G, drafted


@pytest.mark.parametrize("sides", [2, 3, 4, 5])
def test_starting_layouts_no_two_cells_of_a_side_touch(sides: int) -> None:
    board = bd.layout(sides, list(range(sides)))
    for c in range(25):
        if board[c] != bd.EMPTY:
            assert all(board[n] != board[c] for n in bd.neighbours(c)), bd.name(c)
    counts = [board.count(x) for x in range(sides)]
    assert counts == [{2: 12, 3: 8, 4: 6, 5: 5}[sides]] * sides
    assert (board[bd.CENTRE] == bd.EMPTY) == (sides < 5)
    assert len(bd.fields(board)) == sum(counts)


def test_centre_empty_and_unplayable_for_two_to_four_sides() -> None:
    s = drafted(3)
    for side in range(3):
        assert all(bd.CENTRE not in (a, b) for a, b in G.challenges(s, side))
    with pytest.raises(IllegalActionError):
        G.apply(s, s.seats_of(s.current)[0], "challenge C3 C4")


def test_seats_are_shuffled_onto_layout_letters_by_seed() -> None:
    boards = {G.new(4, {}, f"seed{i}").board for i in range(12)}
    assert len(boards) > 1
    assert G.new(4, {}, "x").board == G.new(4, {}, "x").board


def test_teams_for_six_to_ten_players_map_seats_to_sides() -> None:
    s = G.new(7, {}, "t")
    assert s.sides == 4 and s.seat_side == (0, 1, 2, 3, 0, 1, 2)
    assert G.new(10, {}, "t").sides == 5
    assert G.new(6, {"sides": 2}, "t").seat_side == (0, 1, 0, 1, 0, 1)
    with pytest.raises(OptionsError):
        G.new(7, {"sides": 6}, "t")


def test_options_are_validated_with_defaults() -> None:
    assert G.normalize_options(3, {}) == {"sides": 3, "lang": "en", "clock": 45, "judging": "vote", "kids": False,
                                          "turn_minutes": 1440, "ready_minutes": 1440, "vote_seconds": 20}
    for bad in ({"clock": 19}, {"clock": 121}, {"judging": "x"}, {"lang": "de"}, {"colour": 1}, {"kids": 1},
                {"vote_seconds": 4}, {"ready_minutes": 10081}, {"turn_minutes": -1}, {"content": "x"}):
        with pytest.raises(OptionsError):
            G.normalize_options(3, bad)
    with pytest.raises(OptionsError):
        G.normalize_options(11, {})


@pytest.mark.parametrize("sides", [2, 3, 4, 5])
def test_draft_deals_13_9_7_6_and_keeps_one_less(sides: int) -> None:
    s = G.new(sides, {}, "d")
    assert [len(h) for h in s.hands] == [DEAL[sides]] * sides
    assert len({c for h in s.hands for c in h}) == DEAL[sides] * sides
    s = drafted(sides, "d")
    per_side = [sum(1 for c, _ in s.cards if s.board[c] == x) for x in range(sides)]
    assert per_side == [DEAL[sides] - 1] * sides  # 12 / 8 / 6 / 5: every cell holds a category
    assert len(s.discard) == sides  # the last card of each hand is discarded


@pytest.mark.parametrize("sides,cards", [(2, 0), (3, 0), (4, 1), (5, 2)])
def test_final_space_gets_one_card_with_four_players_two_with_five(sides: int, cards: int) -> None:
    assert FINAL_SETUP_CARDS[sides] == cards
    assert len(drafted(sides).final_cards) == cards


def test_draft_is_simultaneous_hidden_and_passes_left() -> None:
    s = G.new(3, {}, "p")
    assert G.to_move(s) == frozenset({0, 1, 2})
    h0, h1, h2 = s.hands
    s, _ = G.apply(s, 1, f"pick {h1[0]}")
    with pytest.raises(NotYourTurnError):
        G.apply(s, 1, f"pick {h1[1]}")
    with pytest.raises(IllegalActionError):
        G.apply(s, 0, f"pick {h1[1]}")
    v0 = json.dumps(G.view(s, 0))
    assert all(f'"{c}"' not in v0 for c in h1 + h2)
    assert G.view(s, 0)["has_picked"] == [False, True, False]
    s, _ = G.apply(s, 0, f"pick {h0[0]}")
    s, _ = G.apply(s, 2, f"pick {h2[0]}")
    assert s.hands[1] == h0[1:] and s.hands[2] == h1[1:] and s.hands[0] == h2[1:]
    assert s.picked == ((h0[0],), (h1[0],), (h2[0],))


def test_team_members_share_their_sides_pick() -> None:
    s = G.new(6, {"sides": 3}, "team")
    s, _ = G.apply(s, 3, f"pick {s.hands[0][0]}")
    assert 0 not in G.to_move(s) and 3 not in G.to_move(s)


def test_kids_option_uses_only_cards_with_the_child_symbol() -> None:
    s = G.new(5, {"kids": True}, "kids")
    flagged = {c for c, v in G.categories("en").items() if "kids" in v["flags"]}
    assert {c for h in s.hands for c in h} | set(s.deck) <= flagged
    assert G.from_json(G.to_json(s)) == s and s.options["kids"] is True


def test_position_text_round_trips_and_is_validated() -> None:
    s = drafted(3, "pos", clock=30)
    text = G.to_position(s)
    assert G.from_position(text) == s or G.to_position(G.from_position(text)) == text
    t2 = G.from_position(text)
    assert t2.board == s.board and t2.cards == s.cards and t2.clock_s == 30
    assert G.legal_actions(t2, t2.seats_of(t2.current)[0]) == G.legal_actions(s, s.seats_of(s.current)[0])
    for bad in ("x", text.replace("3s", "2s"), text.split()[0] + " A1=nope 3s"):
        with pytest.raises(ValueError):
            G.from_position(bad)
