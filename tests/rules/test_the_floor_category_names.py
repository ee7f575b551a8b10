"""Issue 21, The Floor in the terminal: `pick Rivers` said "Rivers is not in your hand" while the hand listed
"Rivers", and `keep Star Wars characters` got only "Usage: keep <category>". The rules' notation reads a category
by its id or by its name as shown (any case, several words, in the game's language), so the terminal and
Discord's typed moves read it the same way, and the log keeps the id."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.base import IllegalActionError
from rules.the_floor import State, TheFloor
from rules.the_floor.names import category_id, choosable
from rules.the_floor.state import Pending

G = TheFloor()


def draft(lang: str = "en", seed: str = "names") -> State:
    return G.new(2, {"lang": lang}, seed)


def with_hand(s: State, side: int, hand: tuple[str, ...]) -> State:
    hands = tuple(hand if i == side else h for i, h in enumerate(s.hands))
    return replace(s, hands=hands)


def keeping(s: State, side: int, options: tuple[str, ...]) -> State:
    """The draft done and ``side`` owing a keep among ``options`` (as after a duel)."""
    while s.phase == "draft":
        for seat in sorted(G.to_move(s)):
            s, _ = G.apply(s, seat, G.legal_actions(s, seat)[0])
    cell = next(c for c, _ in s.cards if s.board[c] == side)
    return replace(s, pending=(Pending(kind="keep", side=side, cells=(cell,), options=options),))


@pytest.mark.parametrize("typed", ["pick Rivers", "pick rivers", "pick RIVERS", "pick «Rivers»", "PICK  rivers"])
def test_pick_rivers_by_the_name_the_hand_shows_in_any_case(typed: str) -> None:
    s = with_hand(draft(), 0, ("rivers", "star_wars", "trees"))
    assert G.notation(s, typed) == "pick rivers"
    s2, _ = G.apply(s, 0, G.notation(s, typed))
    assert s2.chosen[0] == "rivers"


def test_pick_a_multi_word_name_star_wars_characters() -> None:
    s = with_hand(draft(), 0, ("rivers", "star_wars", "trees"))
    assert G.notation(s, "pick Star Wars characters") == "pick star_wars"
    assert G.notation(s, "pick star wars CHARACTERS") == "pick star_wars"


def test_keep_star_wars_characters_is_read_not_a_usage_error() -> None:
    s = keeping(draft(), 0, ("rivers", "star_wars"))
    action = G.notation(s, "keep Star Wars characters")
    assert action == "keep star_wars" and action in G.legal_actions(s, 0)
    s2, events = G.apply(s, 0, action)
    assert any(e.kind == "keep" and e.data["category"] == "star_wars" for e in events) and not s2.pending


def test_polish_game_reads_the_polish_name_as_shown() -> None:
    s = with_hand(draft("pl"), 0, ("rzeki", "fast_food"))
    assert G.notation(s, "pick rzeki") == "pick rzeki"
    assert G.notation(s, "pick FAST FOOD I PRZEKĄSKI") == "pick fast_food"
    assert G.notation(s, "pick fast food i przekaski") == "pick fast_food"  # typed without the Polish letters


def test_a_name_not_in_the_hand_is_refused_by_its_name_not_its_id() -> None:
    s = with_hand(draft(), 0, ("trees",))
    with pytest.raises(IllegalActionError) as e:
        G.apply(s, 0, G.notation(s, "pick Star Wars characters"))
    assert e.value.msg.key == "tf.not_in_hand" and e.value.msg.params["category"] == "Star Wars characters"


def test_a_wrong_keep_lists_the_choices_by_name() -> None:
    s = keeping(draft(), 0, ("rivers", "star_wars"))
    with pytest.raises(IllegalActionError) as e:
        G.apply(s, 0, G.notation(s, "keep trees"))
    assert e.value.msg.params["options"] == "Rivers, Star Wars characters"


def test_an_ambiguous_or_unknown_name_is_left_as_typed() -> None:
    catalog = {"a": {"name": "Trees"}, "b": {"name": "trees"}, "c": {"name": "Rivers"}}
    assert category_id(catalog, (), "Trees") == "Trees"  # two categories are called so: neither is guessed
    assert category_id(catalog, ("b",), "Trees") == "b"  # unless only one of them can be chosen now
    assert category_id(catalog, (), "Lakes") == "Lakes"
    assert category_id(catalog, (), "C") == "c"  # an id in another case


def test_choosable_are_the_draft_hands_and_the_pending_options() -> None:
    s = keeping(draft(), 1, ("rivers", "star_wars"))
    assert choosable(s) >= {"rivers", "star_wars"}
    assert choosable(draft()) == {c for h in draft().hands for c in h}


def test_the_log_keeps_the_id_so_a_typed_name_replays() -> None:
    s = with_hand(draft(), 0, ("rivers", "star_wars", "trees"))
    assert G.notation(s, G.notation(s, "pick Star Wars characters")) == "pick star_wars"
