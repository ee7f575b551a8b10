"""Examples shown to players are legal moves for the player prompted; the draft timer option is validated and
left out of games that did not set it (old saved games keep their pace)."""

from __future__ import annotations

import pytest

from rules.base import OptionsError
from rules.the_floor import TheFloor
from rules.the_floor.bot import choose, example

G = TheFloor()


def playout(steps: int) -> list:
    s = G.new(3, {}, "examples")
    states = []
    for _ in range(steps):
        if G.outcome(s) is not None:
            break
        states.append(s)
        seat = sorted(G.to_move(s))[0]
        s, _ = G.apply(s, seat, choose(G, s, seat))
    return states


def test_every_example_is_legal_for_the_seat_prompted_and_applies() -> None:
    shown = 0
    for s in playout(400):
        for seat in range(s.players):
            move = example(G, s, seat)
            if move is None:
                continue
            shown += 1
            legal = G.legal_actions(s, seat)
            assert legal is None or move in legal, (move, legal)
            G.apply(s, seat, move)  # raises if it were not legal
    assert shown > 20


def test_no_example_for_a_secret_draft_pick_or_a_seat_not_to_move() -> None:
    s = G.new(3, {}, "examples")
    assert all(example(G, s, seat) is None for seat in range(3))
    later = next(x for x in playout(400) if x.phase == "play" and x.duel is None and not x.pending)
    idle = [seat for seat in range(3) if seat not in G.to_move(later)]
    assert idle and all(example(G, later, seat) is None for seat in idle)
    assert example(G, later, sorted(G.to_move(later))[0]).startswith("challenge ")


def test_draft_minutes_is_validated_and_only_kept_when_given() -> None:
    assert "draft_minutes" not in G.normalize_options(3, {})
    assert G.normalize_options(3, {"draft_minutes": 10})["draft_minutes"] == 10
    assert G.normalize_options(3, {"draft_minutes": 0})["draft_minutes"] == 0
    for bad in (-1, 1441, "x", True):
        with pytest.raises(OptionsError):
            G.normalize_options(3, {"draft_minutes": bad})
