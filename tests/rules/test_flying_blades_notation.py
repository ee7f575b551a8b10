"""Action notation, positions, JSON, and the messages errors carry (English and Polish)."""

from __future__ import annotations

import json

import pytest

from i18n import t
from rules.base import IllegalActionError, InvalidActionError
from rules.flying_blades.board import geometry
from rules.flying_blades.notation import Action, parse, text
from tests.rules.fb_helpers import G, at, play, refused

CANONICAL = ["attack c3 c4", "vanish c3 h8", "shuriken c3 c7", "double c3 c5", "triple c3 c6",
             "dragon e5 from e4", "circle e5", "bomb e5 e8", "pass", "resign", "keep bomb,shuriken",
             "keep none"]


@pytest.mark.parametrize("action", CANONICAL)
def test_canonical_notation_round_trips(action: str) -> None:
    geo = geometry(3)
    assert text(parse(action, geo), geo) == action


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("  ATTACK   C3  c4 ", "attack c3 c4"),
        ("Dragon E5 From E4", "dragon e5 from e4"),
        ("dragon e5 e4", "dragon e5 from e4"),
        ("keep Shuriken, bomb", "keep bomb,shuriken"),
        ("keep bomb shuriken shuriken", "keep bomb,shuriken,shuriken"),
        ("KEEP NONE", "keep none"),
        ("Pass", "pass"),
    ],
)
def test_parsing_is_tolerant_of_case_and_spaces(typed: str, canonical: str) -> None:
    geo = geometry(3)
    assert text(parse(typed, geo), geo) == canonical


def test_cells_parse_to_board_indices() -> None:
    assert parse("attack a1 i9", geometry(3)) == Action("attack", (0, 80))
    assert parse("vanish a1 o9", geometry(5)) == Action("vanish", (0, 134))


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Type an action, one of: attack c3 c4"),
        ("jump c3 c4", "I don't know the action “jump”."),
        ("attack c3", "Write attack like this: attack c3 c4."),
        ("circle e5 e6", "Write circle like this: circle e5."),
        ("pass now", "Write pass like this: pass."),
        ("attack c3 cc", "“cc” is not a cell: write a column letter and a row number, like c3."),
        ("attack 3c c4", "“3c” is not a cell"),
        ("keep sword", "There is no card called “sword”. Cards: vanish, shuriken"),
        ("keep none,bomb", "Write keep like this: keep shuriken,bomb."),
        ("keep", "Write keep like this"),
    ],
)
def test_unparsable_text_raises_invalid_action_with_a_hint(typed: str, message: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse(typed, geometry(3))
    assert message in str(info.value)


@pytest.mark.parametrize("typed", ["attack c3 j3", "attack c3 c10", "attack c3 c0"])
def test_cells_off_the_board_are_illegal(typed: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        parse(typed, geometry(3))
    assert "is off the board: the House goes from a1 to i9." in str(info.value)


def test_apply_refuses_bad_text_without_changing_the_state() -> None:
    s = at(3, 0, r="c3", y="c4")
    before = G.to_json(s)
    refused(s, 0, "attack c3 zz", InvalidActionError)
    assert G.to_json(s) == before


def test_position_text_round_trips_a_new_game() -> None:
    for players in (2, 3, 4, 5):
        for options in ({}, {"cards": "open", "turn_minutes": 30}, {"cards": "none"}):
            s = G.new(players, options, f"pos seed/{players}")
            assert G.from_position(G.to_position(s)) == s


def test_position_text_round_trips_mid_game_with_last_action_and_flags() -> None:
    s = at(3, 0, r="c3 a1", y="c4 c5", b="i9", extra="hands=bomb|vanish|-")
    s = play(s, (0, "attack c3 c4"), (1, "pass"), (2, "resign"))
    assert G.from_position(G.to_position(s)) == s
    assert "last=2;resign;-;-;-" in G.to_position(s)


def test_position_uses_run_length_digits_for_empty_cells() -> None:
    s = at(3, 0, r="a9 i1", y="e5")
    assert G.to_position(s).split()[:3] == ["r8/9/9/9/4y4/9/9/9/8r", "3p", "0"]


def test_position_needs_only_board_players_and_side_to_move() -> None:
    s = G.from_position("r8/9/9/9/4y4/9/9/9/8b 3p 1")
    assert s.phase == "play" and G.to_move(s) == frozenset({1}) and s.lost == (26, 26, 26)
    assert s.hands == ((), (), ()) and s.drafted == (True, True, True)


def test_position_accepts_dots_for_empty_cells_and_wards_in_four_players() -> None:
    row = "r..........." + "###"
    rows = "/".join([row] + ["12###"] * 8)
    s = G.from_position(f"{rows} 4p 0")
    assert s.board.count("#") == 27 and s.board.count("r") == 1


@pytest.mark.parametrize(
    "bad",
    ["r8/9/9 3p 0", "r9/9/9/9/9/9/9/9/9 3p 0", "x8/9/9/9/9/9/9/9/9 3p 0", "9/9/9/9/9/9/9/9/9 3p 0 colour=red",
     "15/15/15/15/15/15/15/15/15 4p 0", "g8/9/9/9/9/9/9/9/9 3p 0", "9/9/9/9/9/9/9/9/9 3p 0 last=0;x;z9;-;-",
     "9/9/9/9/9/9/9/9/9 3p 0 hands=bomb", "9/9/9/9/9/9/9/9/9 3p 7", "9/9/9/9/9/9/9/9/9 3p"],
)
def test_malformed_positions_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError):
        G.from_position(bad)


def test_json_round_trips_and_is_plain_json() -> None:
    s = play(G.new(4, {"cards": "open"}, "json"), (0, "keep none"), (1, "keep none"), (2, "keep none"),
             (3, "keep none"), (0, "pass"))
    d = G.to_json(s)
    assert json.loads(json.dumps(d)) == d
    assert G.from_json(json.loads(json.dumps(d))) == s


def test_from_json_rejects_a_corrupt_state() -> None:
    d = G.to_json(G.new(3, {}, "bad"))
    d["board"][0] = "z" * 9
    with pytest.raises(ValueError):
        G.from_json(d)
    with pytest.raises(ValueError):
        G.from_json({"players": 3})


def test_view_last_action_names_cells_for_highlighting() -> None:
    s = play(at(3, 0, r="c3", y="c4 d5", extra="hands=circle|-|-"), (0, "attack c3 c4"))
    assert G.view(s, None)["last_action"] == {"seat": 0, "action": "attack c3 c4", "from": "c3", "to": "c4",
                                              "removed": ["c4"]}
    s = G.from_position(G.to_position(s).replace(" 1 ", " 0 ", 1))
    s = play(s, (0, "circle c4"))
    assert G.view(s, None)["last_action"] == {"seat": 0, "action": "circle c4", "from": "c4", "to": None,
                                              "removed": ["d5"]}


def test_error_messages_name_the_colours_and_translate_to_polish() -> None:
    s = at(3, 1, y="c3", r="c4")
    with pytest.raises(IllegalActionError) as info:
        G.apply(s, 1, "attack c3 c4")
    assert str(info.value) == "c4 is not your prey: it is red, and you (yellow) hunt blue."
    assert t(info.value.msg, "pl") == (
        "Pole c4 to nie twoja ofiara: stoi tam kolor czerwony, a ty (żółty) polujesz na kolor: niebieski.")


def test_five_player_prey_message_names_both_prey() -> None:
    s = at(5, 0, r="c3", g="c4")
    assert "you (red) hunt yellow and blue." in refused(s, 0, "attack c3 c4", IllegalActionError)
