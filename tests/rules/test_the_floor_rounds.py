"""Rounds (every side challenges once), the round winner and its tie-breaks, the Final cards and the Final
ladder."""

from __future__ import annotations

from dataclasses import replace

from rules.the_floor import State
from rules.the_floor import board as bd
from tests.rules.tf_helpers import G, drafted, play, position


def finish_turn(s: State) -> State:
    """The current side challenges and loses at once (timeout); every choice by default."""
    cur = s.current
    s = play(s, (s.seats_of(cur)[0], G.default_action(s, s.seats_of(cur)[0])))
    while s.duel is not None and not s.duel.started:
        seat = min(G.to_move(s))
        s = play(s, (seat, "ready"))
    s = play(s, (min(G.to_move(s)), "timeout"))
    while s.pending and s.pending[0].kind != "final":
        seat = min(G.to_move(s))
        s = play(s, (seat, G.default_action(s, seat)))
    return s


def test_a_round_ends_when_every_side_has_challenged_once() -> None:
    s = drafted(3, "round")
    seen = []
    for _ in range(3):
        assert not s.pending
        seen.append(s.current)
        s = finish_turn(s)
    assert sorted(seen) == [0, 1, 2]
    p = s.pending[0]
    assert p.kind == "final" and len(p.options) == 3  # the round winner draws 3 ...
    s = play(s, (s.seats_of(p.side)[0], f"keep {p.options[1]}"))
    assert s.final_cards == (p.options[1],) and p.options[0] in s.discard  # ... keeps 1 for the Final
    assert s.round == 2 and s.challenged == (False, False, False) and s.round_winners == (p.side,)


def test_round_winner_has_the_biggest_field() -> None:
    s = position("00.../1..../...../...../.....", {"A5": "flowers", "A4": "rivers"})
    assert G.ranking(s)[0] == 0


def test_round_winner_tie_more_fields_wins() -> None:
    s = position("00.11/...../0..../...../.....", {"A5": "flowers", "D5": "rivers", "A3": "cats"})
    assert G.ranking(s) == [0, 1]


def test_round_winner_tie_turn_longest_ago_wins() -> None:
    s = position("00.11/...../...../...../.....", {"A5": "flowers", "D5": "rivers"})
    assert G.ranking(replace(s, last_turn=(5, 3))) == [1, 0]
    assert G.ranking(replace(s, last_turn=(2, 3))) == [0, 1]


def test_three_rounds_then_the_final_picks_in_ranking_order() -> None:
    s = drafted(4, "final")
    while s.phase == "play":
        if s.pending and s.pending[0].kind == "final":
            seat = s.seats_of(s.pending[0].side)[0]
            s = play(s, (seat, G.default_action(s, seat)))
            continue
        s = finish_turn(s)
    assert s.phase == "final" and len(s.round_winners) == 3
    assert len(s.final_cards) == 3 + 1  # one round card per round plus the 4-player setup card
    ranking = list(reversed(s.ladder))
    assert ranking == G.ranking(s)
    picks = []
    while s.pending:
        p = s.pending[0]
        assert p.kind == "final_pick" and p.side == ranking[len(picks)]
        picks.append(p.side)
        s = play(s, (s.seats_of(p.side)[0], f"pick {p.options[-1]}"))
    assert picks == ranking[:-1] and not s.final_cats[ranking[-1]]
    assert s.final_cards == ()  # the last remaining card is discarded
    d = s.duel
    assert (d.challenger, d.defender) == (s.ladder[0], s.ladder[1]) and d.category == s.final_cats[s.ladder[1]]


def test_final_ladder_winner_challenges_the_next_player_up() -> None:
    s = drafted(4, "ladder")
    s = G._next_round(replace(s, round=3, final_cards=("flowers", "cats", "rivers", "c000")), [])[0]
    while s.pending:
        seat = s.seats_of(s.pending[0].side)[0]
        s = play(s, (seat, G.default_action(s, seat)))
    ladder = s.ladder
    # the lowest ranked wins its first duel, then loses to the third
    s = play(s, (s.seats_of(ladder[0])[0], "ready"), (s.seats_of(ladder[1])[0], "ready"))
    answer = next(a for a in G.categories("en")[s.duel.category]["answers"] if a[0] == s.duel.letter)
    s = play(s, (s.seats_of(ladder[0])[0], f"answer 100 {answer}"), (s.seats_of(ladder[1])[0], "timeout"))
    d = s.duel
    assert (d.challenger, d.defender, d.category) == (ladder[0], ladder[2], s.final_cats[ladder[2]])
    s = play(s, (s.seats_of(ladder[0])[0], "ready"), (s.seats_of(ladder[2])[0], "ready"),
             (s.seats_of(ladder[0])[0], "timeout"))
    d = s.duel
    assert (d.challenger, d.defender) == (ladder[2], ladder[3])
    s = play(s, (s.seats_of(ladder[2])[0], "ready"), (s.seats_of(ladder[3])[0], "ready"),
             (s.seats_of(ladder[2])[0], "timeout"))
    out = G.outcome(s)
    assert s.phase == "over" and out.winners == tuple(s.seats_of(ladder[3]))
    assert out.ranking[:4] == tuple(tuple(s.seats_of(x)) for x in (ladder[3], ladder[2], ladder[0], ladder[1]))


def test_board_cells_never_change_in_the_final() -> None:
    s = drafted(2, "fb")
    board = s.board
    s = G._next_round(replace(s, round=3, final_cards=("flowers", "cats", "rivers")), [])[0]
    s = play(s, (s.seats_of(s.pending[0].side)[0], "pick cats"))
    assert s.board == board and s.duel is not None and s.duel.frm is None
    assert bd.fields(s.board)
