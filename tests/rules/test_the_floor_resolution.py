"""Resolving a duel: the played category is discarded, cells taken up to the smaller field's size, categories
kept or taken, orphan fields draw 2 keep 1, merged fields keep 1 — with the rulebook's example turn."""

from __future__ import annotations

import pytest

from rules.base import IllegalActionError
from rules.the_floor import State
from rules.the_floor import board as bd
from tests.rules.tf_helpers import G, play, position

PURPLE, YELLOW = 0, 1
# The rulebook's example: purple's field of 2 (B2 C2) challenges yellow's field of 4 (B1 C1 D1 D2) in
# "Music genres"; another purple field (E1, "Cat breeds") touches D1.
EXAMPLE = "...../...../...../.001./.1110"


def example() -> State:
    cards = {"B2": "flowers", "E1": "cats", "C1": "music_genres"}
    return position(EXAMPLE, cards, current=PURPLE)


def duel_won_by(s: State, winner: int, frm: str, to: str) -> State:
    s = play(s, (s.current, f"challenge {frm} {to}"), (0, "ready"), (1, "ready"))
    d = s.duel
    if winner == d.challenger:
        letter = d.letter
        answer = next(a for a in G.categories("en")[d.category]["answers"] if a[0] == letter)
        s = play(s, (d.challenger, f"answer 2000 {answer}"), (d.defender, "timeout"))
    else:
        s = play(s, (d.challenger, "timeout"))
    return s


def cats_of(s: State, cell: str) -> list[str]:
    f = bd.field_of(s.board, bd.parse_cell(cell))
    return sorted(cat for c, cat in s.cards if c in f)


def test_rulebook_example_turn() -> None:
    s = duel_won_by(example(), PURPLE, "C2", "C1")
    assert "music_genres" in s.discard and all(cat != "music_genres" for _, cat in s.cards)
    p = s.pending[0]
    assert p.kind == "take" and p.side == PURPLE and p.count == 2  # the smaller field's size
    assert sorted(bd.name(c) for c in p.cells) == ["B1", "C1", "D1", "D2"]
    s = play(s, (PURPLE, "take C1,D1"))
    big = bd.field_of(s.board, bd.parse_cell("B2"))
    assert sorted(bd.name(c) for c in big) == ["B2", "C1", "C2", "D1", "E1"]  # a field of 5
    kinds = {(q.side, bd.name(q.cells[0])): q for q in s.pending}
    assert set(kinds) == {(PURPLE, "C1"), (YELLOW, "B1"), (YELLOW, "D2")}
    assert kinds[(PURPLE, "C1")].options == ("cats", "flowers")  # two categories: keep one
    assert all(len(kinds[(YELLOW, c)].options) == 2 for c in ("B1", "D2"))  # orphans draw 2
    while s.pending:
        q = s.pending[0]
        if q.side == PURPLE:
            s = play(s, (PURPLE, "keep flowers"))
        else:
            s = play(s, (YELLOW, f"keep {q.options[1]}"))
            assert q.options[0] in s.discard
    assert cats_of(s, "B2") == ["flowers"] and "cats" in s.discard
    assert len(cats_of(s, "B1")) == 1 and len(cats_of(s, "D2")) == 1
    assert s.current == YELLOW and s.challenged[PURPLE]


def test_challenged_side_that_wins_takes_the_challengers_category() -> None:
    s = duel_won_by(example(), YELLOW, "C2", "C1")
    # yellow (4) beat purple (2): the smaller field is purple's whole field, taken without a choice
    assert not any(p.kind == "take" for p in s.pending)
    f = bd.field_of(s.board, bd.parse_cell("C1"))
    assert {bd.name(c) for c in f} >= {"B1", "B2", "C1", "C2", "D1", "D2"}
    assert cats_of(s, "C1") == ["flowers"] and "music_genres" in s.discard


def test_loser_field_smaller_is_taken_whole() -> None:
    s = position("...../...../...../.000./..1..", {"B2": "flowers", "C1": "rivers"}, current=PURPLE)
    s = duel_won_by(s, PURPLE, "C2", "C1")
    assert s.board.count(YELLOW) == 0 and YELLOW in s.eliminated


def test_take_must_be_exactly_the_count_from_the_losers_field() -> None:
    s = duel_won_by(example(), PURPLE, "C2", "C1")
    for bad in ("take C1", "take C1,D1,B1", "take C1,E1", "keep flowers"):
        with pytest.raises(IllegalActionError):
            G.apply(s, PURPLE, bad)


def test_default_take_joins_the_winners_fields() -> None:
    s = duel_won_by(example(), PURPLE, "C2", "C1")
    action = G.default_action(s, PURPLE)
    assert action == "take B1,C1"
    s = play(s, (PURPLE, action))
    assert all(q.kind == "keep" for q in s.pending)
    for q in s.pending:
        assert G.default_action(s, s.seats_of(q.side)[0]) == f"keep {q.options[0]}"
        break


def test_each_field_holds_exactly_one_category_after_the_choices() -> None:
    s = duel_won_by(example(), PURPLE, "C2", "C1")
    while s.pending:
        seat = s.seats_of(s.pending[0].side)[0]
        s = play(s, (seat, G.default_action(s, seat)))
    for f in bd.fields(s.board):
        assert len([cat for c, cat in s.cards if c in f]) == 1


def test_drawn_categories_are_shown_only_to_their_owner() -> None:
    s = duel_won_by(example(), PURPLE, "C2", "C1")
    s = play(s, (PURPLE, "take C1,D1"))
    assert s.pending[0].side == YELLOW
    assert G.view(s, YELLOW)["pending"]["options"] is not None
    assert G.view(s, PURPLE)["pending"]["options"] is None and G.view(s, None)["pending"]["options"] is None
