"""Floating World against its rulebook (shared/seeds/floating-world.txt, v.2012.10.3): the Gate's people only in
a real stall, the Vengeful Spirit's winners, and the adaptation choices decided in docs/floating_world.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.base import IllegalActionError
from rules.floating_world import score
from rules.floating_world.dice import Stat
from rules.floating_world.game import FloatingWorld, stalled
from rules.floating_world.state import Kitsune, Options, build

G = FloatingWorld()
ROOT = Path(__file__).resolve().parents[2]
HUGE = Stat(10)  # a Demon Strength no Kitsune roll can beat: every demon attack wounds


def _turn(events: list) -> dict:
    return next(e for e in events if e.kind == "turn").data


# --- 5.1 / 6.4.3: the Gate's people --------------------------------------------------------------------------

def test_no_gate_gift_to_the_second_fox_guarding_a_gate_whose_village_feeds_the_first() -> None:
    """5.1 "Collect 1 Praise for every Village you control" is the rulebook's only income. A partner's Village
    on the Gate keeps the world moving, so the second fox there (no Village, 0 Praise) earns nothing extra:
    the old gift fed it on 40% of its turns in 2-player bot games."""
    kit = [Kitsune(0, praise=0), Kitsune(1, praise=0)]
    s = build(2, lands={(0, 0): 0, (1, 0): None}, kitsune=kit)
    s2, events = G.apply(s, 0, "end")
    if s2.phase == "over":
        return
    assert s2.current == 1 and _turn(events)["gate"] == 0 and s2.kitsune[1].praise == 0


def test_gate_gift_only_when_no_demon_can_appear_and_nobody_can_pay() -> None:
    """6.4.3 "Place a matching colored token ... on any Land that has an empty border and no Kitsune": with
    every Land held by a fox, no demon on the map, no Village of a living fox and nobody at 3 Praise (5.4,
    5.5) the world cannot change; only then do the Gate's people give 1 Praise."""
    two = [Kitsune(0, praise=2), Kitsune(1, praise=0, pos=(1, 0))]
    assert stalled(build(2, lands={(1, 0): None}, kitsune=two))
    s, events = G.apply(build(2, lands={(1, 0): None}, kitsune=two), 0, "end")
    assert _turn(events)["gate"] == 1 and s.kitsune[1].praise == 1
    assert not stalled(build(2, lands={(1, 0): None}, kitsune=[two[0], Kitsune(1, praise=3, pos=(1, 0))]))
    assert not stalled(build(2, lands={(1, 0): None, (2, 0): None}, kitsune=two))  # (2,0) can take a demon
    assert not stalled(build(2, lands={(1, 0): None}, kitsune=two, demons={"oni1": (1, 0)}))
    assert not stalled(build(2, lands={(1, 0): 1}, kitsune=two))  # a Village: Praise every turn
    # a dead fox's Village feeds nobody: still stalled
    dead = [Kitsune(0, praise=0), Kitsune(1, alive=False, pos=None)]
    assert stalled(build(2, lands={(0, 0): 1}, kitsune=dead))


# --- 9.5 / 3.4: the Vengeful Spirit ------------------------------------------------------------------------------

def test_vengeful_spirit_nobody_wins_when_every_kitsune_dies_together() -> None:
    """3.4 "If demons destroy the Gate or kill all Kitsune, this world is doomed and all players lose." 9.5's
    "Defeated players win if the world is destroyed" is for players already defeated: the Kitsune the last
    Nightmare kills were never spirits."""
    kit = [Kitsune(0, wounds=1), Kitsune(1, wounds=1)]
    s = build(2, kitsune=kit, demons={"oni1": (0, 0), "oni2": (0, 0)}, strength=HUGE,
              options=Options(vengeful=True))
    s2, _ = G.apply(s, 0, "end")
    assert s2.reason == "fw.outcome.all_dead"
    assert G.outcome(s2).winners == ()


def test_vengeful_spirit_only_the_kitsune_who_died_before_the_others_win() -> None:
    """9.5 "A defeated player may control all demons of one type each turn ... Defeated players win if the world
    is destroyed": seat 1 died earlier and haunted; seat 0 dies in the last Nightmare and loses (3.4)."""
    kit = [Kitsune(0, wounds=1), Kitsune(1, alive=False, pos=None), Kitsune(2, alive=False, pos=None)]
    s = build(3, kitsune=kit, demons={"oni1": (0, 0)}, strength=HUGE, options=Options(vengeful=True))
    s2, _ = G.apply(s, 0, "end")
    assert s2.phase == "over"
    assert G.outcome(s2).winners == (1, 2)


def test_vengeful_spirit_in_solo_dying_is_a_loss() -> None:
    """3.4 "... kill all Kitsune, this world is doomed and all players lose": the lone Kitsune's death ends the
    world at once, so with the option on it never haunts and never wins."""
    s = build(1, kitsune=[Kitsune(0, wounds=1)], demons={"oni1": (0, 0)}, strength=HUGE,
              options=Options(vengeful=True))
    s2, _ = G.apply(s, 0, "end")
    assert s2.reason == "fw.outcome.all_dead"
    assert G.outcome(s2).winners == () and G.outcome(s2).scores == (0.0,)


# --- 3.2 / 5.3: the Spell of Sealing is not one of the once-a-turn actions -----------------------------------------

def test_spell_of_sealing_may_be_tried_again_in_a_turn_for_10_praise_each(dice: list) -> None:
    """3.2 "To attempt it, you need to stand at the Gate, spend 10 Praise, and roll a 15 or higher on your Mind
    stat." 5.3's "no more than one of each type" lists 5.4–5.10, which do not include the Spell."""
    s = build(kitsune=[Kitsune(0, praise=20, mind=Stat(3))])
    dice.extend([[1, 1, 1], [5, 5, 5]])
    s2, _ = G.apply(s, 0, "seal")
    assert s2.phase == "dream" and s2.kitsune[0].praise == 10 and "seal" in s2.kitsune[0].used
    s3, _ = G.apply(s2, 0, "seal")
    assert s3.reason == "fw.outcome.sealed"


# --- adaptation choices kept (docs/floating_world.md, "Adaptation choices checked against the rulebook") --------

def test_attack_one_demon_only_on_your_own_land() -> None:
    """5.7 "Attack One Demon: Roll any of your stats versus the demon's matching stat" names no range; like
    every other Dream action it happens where you stand, and demons fight only "on the same Land" (6.1)."""
    s = build(lands={(1, 0): None}, demons={"oni1": (1, 0)})
    with pytest.raises(IllegalActionError, match="your own Land"):
        G.apply(s, 0, "attack oni@1,0 mind")


def test_beating_a_kitsune_steals_but_grows_no_stat(dice: list) -> None:
    """5.8 "Attack One Kitsune: As with fighting a demon. If you win with Body, inflict a Wound. With Mind, steal
    any Item. With Spirit, steal up to 3 Praise." The reward is 5.8's list; 5.7's "+1 to the stat you used"
    would pay partners in a co-operative game to beat each other for stats."""
    s = build(2, kitsune=[Kitsune(0), Kitsune(1)])
    dice.extend([[1, 1], [6, 6]])  # the defender's Body, then the attacker's
    s2, _ = G.apply(s, 0, "attack 2 body")
    assert s2.kitsune[1].wounds == 1 and s2.kitsune[0].body == Stat(2)


def test_a_village_may_stand_on_the_gate() -> None:
    """5.5 "Create a Village: Spend 3 Praise. Place a Village of your color (ie. your control) on your Land. You
    may only do this if there are no Villages on this or any adjacent Land." No Land is excepted."""
    s2, _ = G.apply(build(kitsune=[Kitsune(0, praise=3)]), 0, "village")
    assert s2.land_map()[(0, 0)].village == 0 and s2.kitsune[0].praise == 0


def test_tied_scoring_categories_split_the_point() -> None:
    """9.5 "Give 1 point each for highest total stats (1D=+3), most Praise, most Dreams including Legends, most
    Legends, and most Villages": ties are not covered; a tie shares the one point, so the five points stay five."""
    s = build(2, kitsune=[Kitsune(0), Kitsune(1)])
    assert score.points(s) == [1.0, 1.0]  # stats and Praise tied (half each); nobody has Dreams or Villages


def test_reroll_cards_reroll_by_their_text_so_no_may_choice() -> None:
    """The rulebook's Dream cards were never published; ours say "Reroll one failed contest, then discard" and
    "Once a turn, reroll a failed contest": automatic, no "may". A card worded "may" would need a choice."""
    for lang in ("en", "pl"):
        catalog = json.loads((ROOT / "data" / "i18n" / lang / "floating_world_cards.json").read_text("utf-8"))
        for kind in ("reroll", "legend_reroll"):
            text = catalog[f"render.floating_world_cards.effect.{kind}"].lower()
            assert "may" not in text.split() and "możesz" not in text
