"""The moves Floating World suggests as examples: legal now, and never an attack on a partner (rulebook 5.8
allows one, so it stays legal and listed, but a co-operative game does not suggest turning on your side)."""

from __future__ import annotations

from rules.floating_world import notation as nt
from tests.rules import fw_helpers as h


def test_a_partner_on_your_land_is_attackable_but_never_the_example() -> None:
    s = h.G.new(2, {}, "examples")  # both Kitsune start on the Gate
    legal = h.G.legal_actions(s, 0)
    assert "attack 2 body" in legal  # the rulebook's 5.8: a real option
    examples = h.G.examples(s, 0)
    assert examples and set(examples) <= set(legal)
    assert not [a for a in examples if a.startswith("attack 2")]


def test_a_demon_on_your_land_is_the_attack_example() -> None:
    s = h.world(players=2, demons={"oni1": (0, 0)})
    assert "attack oni@0,0 mind" in h.G.examples(s, 0)


def test_every_example_in_seeded_games_is_legal_and_spares_partners() -> None:
    for seed in ("ex1", "ex2"):
        for step in h.game(seed, players=3):
            seat = next(iter(h.G.to_move(step.state)), None)
            if seat is None:
                continue
            examples = h.G.examples(step.state, seat)
            assert set(examples) <= set(h.G.legal_actions(step.state, seat) or [])
            assert all(nt.parse(a).seat is None for a in examples if a.startswith("attack"))
