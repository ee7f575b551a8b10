"""Setup: boards, colours, placement, the deck and the deal, options and variants, who hunts whom."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules import GAMES
from rules.base import OptionsError
from rules.flying_blades import FlyingBlades
from rules.flying_blades.board import CHARS, geometry
from rules.flying_blades.cards import CARDS_PATH, TABLE, load_table, parse_table
from tests.rules.fb_helpers import G


def test_game_is_registered_with_its_id_name_and_player_range() -> None:
    assert isinstance(GAMES["flying_blades"], FlyingBlades)
    assert (G.id, G.name, G.min_players, G.max_players) == ("flying_blades", "Night of the 27 Ninja", 2, 5)


@pytest.mark.parametrize("players", [2, 3])
def test_house_is_a_9_by_9_board_for_two_and_three_players(players: int) -> None:
    v = G.view(G.new(players, {}, "seed"), None)
    assert (v["board_name"], v["width"], v["height"]) == ("house", 9, 9)
    assert len(v["board"]) == 9 and all(len(row) == 9 for row in v["board"])


@pytest.mark.parametrize("players", [4, 5])
def test_temple_is_a_15_by_9_board_for_four_and_five_players(players: int) -> None:
    v = G.view(G.new(players, {}, "seed"), None)
    assert (v["board_name"], v["width"], v["height"]) == ("temple", 15, 9)
    assert len(v["board"]) == 9 and all(len(row) == 15 for row in v["board"])


@pytest.mark.parametrize(("players", "colours"), [(2, "ryb"), (3, "ryb"), (4, "rybg"), (5, "rybgk")])
def test_twenty_seven_ninjas_of_each_colour_in_play_start_on_the_board(players: int, colours: str) -> None:
    s = G.new(players, {}, "placement")
    counts = Counter(s.board)
    assert {ch: counts[ch] for ch in colours} == dict.fromkeys(colours, 27)
    assert set(counts) - {"#"} == set(colours), "the board starts full: no empty cell"


def test_two_players_use_a_third_neutral_colour_that_fills_the_house() -> None:
    v = G.view(G.new(2, {}, "neutral"), None)
    assert v["neutral"] == "blue" and v["colours"] == ["red", "yellow"]
    assert v["ninjas"] == {"red": 27, "yellow": 27, "blue": 27}


def test_four_players_fill_columns_a_to_l_and_ward_columns_m_to_o() -> None:
    v = G.view(G.new(4, {}, "ward"), None)
    for row in v["board"]:
        assert "." not in row[:12] and "#" not in row[:12]
        assert row[12:] == "###"
    assert v["ninjas"] == {"red": 27, "yellow": 27, "blue": 27, "green": 27}


def test_five_players_fill_the_whole_temple() -> None:
    s = G.new(5, {}, "five")
    assert "." not in s.board and "#" not in s.board


def test_seats_take_red_yellow_blue_green_black_in_order() -> None:
    assert G.view(G.new(5, {}, "x"), None)["colours"] == ["red", "yellow", "blue", "green", "black"]
    assert G.view(G.new(3, {}, "x"), None)["colours"] == ["red", "yellow", "blue"]
    assert CHARS == "rybgk"


def test_ninjas_are_placed_at_random_from_the_seed() -> None:
    assert G.new(3, {}, "same").board == G.new(3, {}, "same").board
    boards = {G.new(3, {}, f"seed-{i}").board for i in range(10)}
    assert len(boards) == 10


def test_cells_are_named_like_chess_with_a1_at_the_bottom_left() -> None:
    geo = geometry(3)
    assert geo.cell(0) == "a1" and geo.cell(8) == "i1" and geo.cell(80) == "i9"
    assert geometry(5).cell(14) == "o1"
    s = G.new(3, {}, "names")
    assert G.view(s, None)["board"][0][0] == s.board[72], "the view's first row is row 9"


def test_deck_has_32_cards_with_the_counts_and_prices_of_the_table() -> None:
    table = {c.id: (c.count, c.price) for c in TABLE.cards}
    assert table == {"vanish": (5, 1), "shuriken": (6, 1), "double": (5, 2), "triple": (4, 3),
                     "dragon": (4, 3), "circle": (4, 4), "bomb": (4, 5)}
    assert len(TABLE.deck()) == 32 and TABLE.price_limit == 10


def test_card_data_is_validated_on_load() -> None:
    raw = json.loads(CARDS_PATH.read_text(encoding="utf-8"))
    assert load_table() == parse_table(raw)
    bad_count = json.loads(json.dumps(raw))
    bad_count["cards"][0]["count"] = 6
    with pytest.raises(ValueError, match="32"):
        parse_table(bad_count)
    bad_price = json.loads(json.dumps(raw))
    bad_price["cards"][1]["price"] = 0
    with pytest.raises(ValueError, match="price"):
        parse_table(bad_price)
    no_polish = json.loads(json.dumps(raw))
    del no_polish["cards"][2]["names"]["pl"]
    with pytest.raises(ValueError, match="names"):
        parse_table(no_polish)


@pytest.mark.parametrize(("players", "each", "undealt"), [(2, 16, 0), (3, 10, 2), (4, 8, 0), (5, 6, 2)])
def test_cards_are_dealt_as_evenly_as_possible(players: int, each: int, undealt: int) -> None:
    s = G.new(players, {}, "deal")
    assert [len(h) for h in s.hands] == [each] * players
    dealt = Counter(c for h in s.hands for c in h)
    assert not dealt - Counter(TABLE.deck())
    assert 32 - sum(dealt.values()) == undealt


def test_the_deal_is_a_seeded_shuffle() -> None:
    assert G.new(3, {}, "a").hands == G.new(3, {}, "a").hands
    assert len({G.new(3, {}, f"deal-{i}").hands for i in range(8)}) > 1


def test_options_default_to_hidden_cards_and_no_turn_timer() -> None:
    assert G.normalize_options(3, {}) == {"cards": "hidden", "turn_minutes": 0}
    opts = {"cards": "open", "turn_minutes": 60}
    assert G.normalize_options(4, opts) == opts
    assert G.new(3, {}, "o").options == {"cards": "hidden", "turn_minutes": 0}


@pytest.mark.parametrize(
    ("players", "options", "key"),
    [
        (1, {}, "fb.options.players"),
        (6, {}, "fb.options.players"),
        (3, {"colour": "red"}, "fb.options.unknown"),
        (3, {"cards": "face-up"}, "fb.options.cards"),
        (3, {"turn_minutes": -1}, "fb.options.turn_minutes"),
        (3, {"turn_minutes": 10081}, "fb.options.turn_minutes"),
        (3, {"turn_minutes": "5"}, "fb.options.turn_minutes"),
        (3, {"turn_minutes": True}, "fb.options.turn_minutes"),
    ],
)
def test_bad_options_and_player_counts_are_refused(players: int, options: dict, key: str) -> None:
    with pytest.raises(OptionsError) as info:
        G.new(players, options, "x")
    assert info.value.msg.key == key
    assert not str(info.value).startswith("fb.")


def test_turn_minutes_accept_zero_to_a_week() -> None:
    assert G.normalize_options(2, {"turn_minutes": 10080})["turn_minutes"] == 10080


def test_game_starts_with_a_simultaneous_hidden_draft() -> None:
    s = G.new(3, {}, "draft")
    assert s.phase == "draft" and G.to_move(s) == frozenset({0, 1, 2})


def test_no_cards_variant_has_no_deck_and_starts_play_at_once() -> None:
    s = G.new(3, {"cards": "none"}, "none")
    assert s.phase == "play" and G.to_move(s) == frozenset({0})
    assert s.hands == ((), (), ())
    v = G.view(s, 1)
    assert v["hand"] == [] and v["hand_counts"] == [0, 0, 0] and v["drafted"] == [True] * 3


def test_open_cards_variant_shows_every_hand_to_everyone() -> None:
    s = G.new(3, {"cards": "open"}, "open")
    for viewer in (None, 0, 2):
        assert G.view(s, viewer)["hands"] == [list(h) for h in s.hands]


def test_hidden_cards_are_not_in_other_seats_views() -> None:
    s = G.new(3, {}, "hidden")
    v = G.view(s, 1)
    assert v["hand"] == list(s.hands[1]) and v["hands"] is None and v["hand_counts"] == [10, 10, 10]
    assert G.view(s, None)["hand"] is None


def test_three_players_prey_is_the_next_seat_and_hunter_the_previous() -> None:
    v = G.view(G.new(3, {}, "x"), None)
    assert v["prey"] == [[1], [2], [0]] and v["hunters"] == [[2], [0], [1]]


def test_four_players_the_seat_across_is_neither_prey_nor_hunter() -> None:
    v = G.view(G.new(4, {}, "x"), None)
    assert v["prey"] == [[1], [2], [3], [0]] and v["hunters"] == [[3], [0], [1], [2]]
    for seat in range(4):
        across = (seat + 2) % 4
        assert across not in v["prey"][seat] and across not in v["hunters"][seat]


def test_five_players_hunt_the_next_two_seats_and_are_hunted_by_the_previous_two() -> None:
    v = G.view(G.new(5, {}, "x"), None)
    assert v["prey"] == [[1, 2], [2, 3], [3, 4], [0, 4], [0, 1]]
    assert v["hunters"] == [[3, 4], [0, 4], [0, 1], [1, 2], [2, 3]]


def test_two_players_are_neither_prey_nor_hunter_to_each_other() -> None:
    v = G.view(G.new(2, {}, "x"), None)
    assert v["prey"] == [[], []] and v["hunters"] == [[], []] and v["neutral"] == "blue"


def test_view_has_the_agreed_shape() -> None:
    s = G.new(4, {}, "shape")
    v = G.view(s, 2)
    assert list(v) == ["game", "board_name", "width", "height", "board", "players", "colours", "neutral",
                       "phase", "to_move", "turn", "viewer", "prey", "hunters", "ninjas", "captured",
                       "hand_counts", "hand", "hands", "drafted", "resigned", "passes", "last_action",
                       "options", "outcome"]
    assert v["game"] == "flying_blades" and v["viewer"] == 2 and v["phase"] == "draft" and v["turn"] == 0
    assert v["to_move"] == [0, 1, 2, 3] and v["captured"] == [0] * 4 and v["passes"] == 0
    assert v["resigned"] == [False] * 4 and v["last_action"] is None and v["outcome"] is None
    assert json.loads(json.dumps(v)) == v
