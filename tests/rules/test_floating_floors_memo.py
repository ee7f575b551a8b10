"""The memoised and incremental balance checks (issue 25) give exactly what a from-scratch computation gives.

The rulebook's dexterity is our statics model: "If any Floorboard collapses … the turn ends" — a board falls
exactly when its centre of mass is not at least ``min_margin`` inside its support polygon. Previews and the bot
ask that question thousands of times a turn, so the answers are cached (positions, footprints, overlaps, whole
checks) and each state's per-card supports are shared by its previews; none of that may change an answer.
"""

from __future__ import annotations

import random

import pytest

from rules.floating_floors import statics
from rules.floating_floors.components import PHYSICS
from rules.floating_floors.game import FloatingFloors, Work, balance_of, loads, preview
from rules.floating_floors.state import Piece, evolve
from rules.floating_floors.work import supports

G = FloatingFloors()
SEEDS = ("memo-a", "memo-b", "memo-c")


def _from_scratch(w: Work, card: int) -> statics.Balance:
    """The check with no cache and no shared index: today's pieces scanned, the hull and margin computed anew."""
    return statics._balanced(w.lay.centre(card), supports(w, card), loads(w, card), PHYSICS)


def _clear_caches() -> None:
    for fn in (statics._balance, statics._support, statics._overlaps, statics._footprint, statics._position,
               statics._hull, statics._geometry):
        fn.cache_clear()


def _playout(players: int, seed: str, steps: int) -> list[tuple[object, int]]:
    """A seeded random game: (state, seat to move) at every step."""
    s = G.new(players, {"tension": "exact" if players == 3 else "bands", "chakra": "middle"}, seed)
    pick = random.Random(seed)
    out = []
    for _ in range(steps):
        if s.phase == "over":
            break
        seat = s.current
        out.append((s, seat))
        s, _ = G.apply(s, seat, pick.choice(G.legal_actions(s, seat)))
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, SEEDS[0]), (3, SEEDS[1]), (4, SEEDS[2])])
def test_a_board_tips_exactly_when_a_from_scratch_check_says_so(players: int, seed: str) -> None:
    """Every board of every position of a random game: the memoised check (with the state's shared per-card
    supports) equals the check computed from scratch, and a board stands iff its margin is at least min_margin."""
    for s, _ in _playout(players, seed, 60):
        w = Work(s)
        for card in w.boards:
            cached, fresh = balance_of(w, card), _from_scratch(w, card)
            assert cached == fresh
            assert cached.stable == (cached.margin >= PHYSICS.min_margin)


@pytest.mark.parametrize(("players", "seed"), [(2, SEEDS[0]), (4, SEEDS[2])])
def test_a_preview_tells_what_a_cold_computation_tells(players: int, seed: str) -> None:
    """"What if" answers from warm caches equal the answers after every cache is emptied."""
    pick = random.Random(seed)
    for s, seat in _playout(players, seed, 40)[::4]:
        actions = pick.sample(G.legal_actions(s, seat), k=min(6, len(G.legal_actions(s, seat))))
        warm = [preview(s, seat, a) for a in actions]
        _clear_caches()
        assert [preview(s, seat, a) for a in actions] == warm


def test_a_change_on_one_card_is_checked_with_that_cards_pieces_as_they_are_now() -> None:
    """The working copy remembers the cards whose Jutsu changed: a Jutsu added to a board's card is counted in
    that board's next check (the state's shared lists are only used for untouched cards)."""
    s, _ = next((s, q) for s, q in _playout(4, SEEDS[2], 80) if s.boards)
    w = Work(s)
    card = s.boards[0].card
    before = balance_of(w, card)
    space = w.lay.spaces(card)[0]
    w.pieces[w.next_piece] = Piece(w.next_piece, "bs", space, "board", space[0] + 0.5, space[1] + 0.5)
    assert card in w.pieces.changed
    assert balance_of(w, card) == _from_scratch(w, card) != before
    with pytest.raises(TypeError):
        w.pieces.pop(w.next_piece)


def test_a_state_copied_fast_keeps_every_field_and_refuses_unknown_ones() -> None:
    s = G.new(2, {}, "memo-evolve")
    moved = evolve(s, turn=5)
    assert moved.turn == 5 and moved.pieces is s.pieces and s.turn != 5
    assert moved == G.from_json(G.to_json(moved))
    with pytest.raises(TypeError):
        evolve(s, turns=5)
