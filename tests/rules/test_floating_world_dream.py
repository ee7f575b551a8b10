"""The Dream phase (rulebook 5.0): each action, its limits and its error messages."""

from __future__ import annotations

import pytest

from rules.base import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.floating_world.dice import Stat
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import GATE, Kitsune, Options, build

G = FloatingWorld()




def play(s, *actions: str, seat: int = 0):
    for a in actions:
        s, _ = G.apply(s, seat, a)
    return s


def test_collect_one_praise_per_village_at_turn_start() -> None:
    s = build(lands={(1, 0): 0, (3, 0): 0, (2, 0): None}, kitsune=[Kitsune(0, praise=0)])
    s2 = play(s, "end")
    assert s2.kitsune[0].praise == 2
    s3 = build(lands={(1, 0): 0}, kitsune=[Kitsune(0, praise=0, upgrades=("market_day",))])
    assert play(s3, "end").kitsune[0].praise == 2


def test_create_land_costs_3_and_needs_an_empty_adjacent_space() -> None:
    s = G.new(1, {}, "x")
    s2 = play(s, "land 1,0")
    assert s2.kitsune[0].praise == 3 and (1, 0) in s2.land_map()
    with pytest.raises(IllegalActionError, match="already taken"):
        play(s2, "land 0,1")
    with pytest.raises(IllegalActionError, match="not next to"):
        play(s, "land 2,0")
    poor = build(kitsune=[Kitsune(0, praise=2)])
    with pytest.raises(IllegalActionError, match="needs 3 Praise; you have 2"):
        play(poor, "land 1,0")


def test_each_dream_action_at_most_once_a_turn() -> None:
    s = build(kitsune=[Kitsune(0, praise=20)])
    s2 = play(s, "land 1,0")
    with pytest.raises(IllegalActionError, match="already taken the action"):
        play(s2, "land -1,0")


def test_move_only_adjacent_and_before_the_first_action() -> None:
    s = build(lands={(1, 0): None, (1, 1): None})
    s2 = play(s, "move 1,0")
    assert s2.kitsune[0].pos == (1, 0)
    with pytest.raises(IllegalActionError, match="already moved"):
        play(s2, "move 1,1")
    with pytest.raises(IllegalActionError, match="no Land"):
        play(s, "move 0,1")
    with pytest.raises(IllegalActionError, match="before your first action"):
        play(s, "village", "move 1,0")


def test_villages_are_never_adjacent_and_at_most_four() -> None:
    s = build(lands={(1, 0): 0}, kitsune=[Kitsune(0, praise=10)])
    with pytest.raises(IllegalActionError, match="There is a Village at 1,0"):
        play(s, "village")
    far = {(i, 0): (0 if i in (2, 4, 6, 8) else None) for i in range(1, 10)}
    s2 = build(lands=far, kitsune=[Kitsune(0, pos=(-0, 0), praise=10)])
    s2 = build(lands={**far, (0, -2): None, (0, -1): None}, kitsune=[Kitsune(0, pos=(0, -2), praise=10)])
    with pytest.raises(IllegalActionError, match="all 4"):
        play(s2, "village")


def test_take_over_needs_12_or_more(dice: list) -> None:
    s = build(2, lands={(1, 0): 1}, kitsune=[Kitsune(0, pos=(1, 0)), Kitsune(1)])
    dice.append([6, 6])
    assert play(s, "takeover body").land_map()[(1, 0)].village == 0
    dice.append([6, 5])
    assert play(s, "takeover body").land_map()[(1, 0)].village == 1
    with pytest.raises(IllegalActionError, match="already yours"):
        play(build(lands={(1, 0): 0}, kitsune=[Kitsune(0, pos=(1, 0))]), "takeover mind")


def test_attack_demon_strictly_higher_slays_and_grows_the_stat(dice: list) -> None:
    s = build(lands={(1, 0): None}, demons={"oni1": (1, 0)}, kitsune=[Kitsune(0, pos=(1, 0))])
    dice += [[4], [2, 3]]  # oni mind 1D = 4; Kitsune mind 2D = 5
    s2 = play(s, "attack oni@1,0 mind")
    assert s2.demons == () and s2.kitsune[0].mind == Stat(2, 1)
    assert s2.last_roll["success"] is True and s2.last_roll["rolls"]["target"]["total"] == 4
    dice += [[5], [2, 3]]  # a tie is not higher
    s3 = play(s, "attack oni mind")
    assert len(s3.demons) == 1 and s3.kitsune[0].mind == Stat(2)


def test_attack_demon_only_on_your_land() -> None:
    s = build(lands={(1, 0): None}, demons={"oni1": (1, 0)})
    with pytest.raises(IllegalActionError, match="only demons on your own Land"):
        play(s, "attack oni@1,0 mind")
    with pytest.raises(IllegalActionError, match="no Oni on your Land"):
        play(s, "attack oni mind")


def test_reroll_item_is_used_once_then_discarded(dice: list) -> None:
    s = build(lands={(1, 0): None}, demons={"oni1": (1, 0)},
              kitsune=[Kitsune(0, pos=(1, 0), items=("lucky_coin",))])
    dice += [[6], [1, 1], [6, 6]]
    s2 = play(s, "attack oni mind")
    assert s2.kitsune[0].items == () and "lucky_coin" in s2.dream_discard
    assert s2.last_roll["rerolled"] == "lucky_coin" and s2.last_roll["success"] is True


def test_attack_kitsune_body_mind_spirit(dice: list) -> None:
    base = [Kitsune(0), Kitsune(1, items=("lucky_coin", "iron_club"), praise=5)]
    s = build(2, kitsune=base)
    dice += [[3, 3], [6, 6]]
    assert play(s, "attack 2 body").kitsune[1].wounds == 1
    dice += [[1, 1], [6, 6]]
    assert play(s, "attack 2 mind lucky_coin").kitsune[0].items == ("lucky_coin",)
    dice += [[1, 1], [6, 6]]
    s3 = play(s, "attack 2 spirit")
    assert (s3.kitsune[0].praise, s3.kitsune[1].praise) == (9, 2)
    with pytest.raises(IllegalActionError, match="yourself"):
        play(s, "attack 1 body")


def test_harvest_draws_spirit_dice_cards_and_buys_at_most_one() -> None:
    s = build(lands={GATE: 0}, kitsune=[Kitsune(0, praise=20, spirit=Stat(3))])
    s2 = play(s, "harvest")
    assert len(s2.harvest) == 3
    with pytest.raises(IllegalActionError, match="First buy"):
        play(s2, "end")
    card = s2.harvest[0]
    s3 = play(s2, f"buy {card}")
    assert s3.harvest is None and card in s3.kitsune[0].cards and len(s3.dream_discard) == 2
    with pytest.raises(IllegalActionError, match="already taken"):
        play(s3, "harvest")
    with pytest.raises(IllegalActionError, match="no Village"):
        play(build(), "harvest")


def test_heal_only_in_a_village_without_moving() -> None:
    s = build(lands={(1, 0): 0}, kitsune=[Kitsune(0, pos=(1, 0), wounds=1)])
    assert play(s, "heal").kitsune[0].wounds == 0
    s2 = build(lands={(1, 0): 0}, kitsune=[Kitsune(0, wounds=1)])
    with pytest.raises(IllegalActionError, match="not to have moved"):
        play(s2, "move 1,0", "heal")


def test_spell_of_sealing_at_the_gate_10_praise_mind_15(dice: list) -> None:
    s = build(kitsune=[Kitsune(0, praise=10, mind=Stat(3))])
    dice.append([5, 5, 5])
    s2 = play(s, "seal")
    assert s2.phase == "over" and s2.reason == "fw.outcome.sealed" and G.outcome(s2).winners == (0,)
    dice.append([5, 5, 4])
    s3 = play(s, "seal")
    assert s3.phase == "dream" and s3.kitsune[0].praise == 0
    with pytest.raises(IllegalActionError, match="needs 10 Praise; you have 9"):
        play(build(kitsune=[Kitsune(0, praise=9)]), "seal")
    with pytest.raises(IllegalActionError, match="Gateless Gate"):
        play(build(lands={(1, 0): None}, kitsune=[Kitsune(0, pos=(1, 0), praise=10)]), "seal")


def test_trade_is_free_on_the_same_land() -> None:
    s = build(2, kitsune=[Kitsune(0, items=("lucky_coin",)), Kitsune(1)])
    s2 = play(s, "trade lucky_coin to 2", "land 1,0")
    assert s2.kitsune[1].items == ("lucky_coin",) and s2.kitsune[0].used == ("land",)


def test_boost_option_spends_praise_for_a_die(dice: list) -> None:
    s = build(lands={(1, 0): 1}, kitsune=[Kitsune(0, pos=(1, 0)), Kitsune(1)], players=2,
              options=Options(boost=True))
    dice.append([4, 4, 4])
    s2 = play(s, "takeover body boost")
    assert s2.kitsune[0].praise == 5 and s2.land_map()[(1, 0)].village == 0
    with pytest.raises(IllegalActionError, match="off at this table"):
        play(build(), "seal boost")


def test_turns_and_timeouts() -> None:
    s = G.new(2, {}, "t")
    with pytest.raises(NotYourTurnError):
        G.apply(s, 1, "end")
    s2, events = G.apply(s, 0, "timeout")
    assert s2.current == 1 and events[0].kind == "timeout" and s2.nightmare["turn"] == 1
    assert G.default_action(s2, 1) == "timeout" and "timeout" in G.ENGINE_VERBS
    with pytest.raises(InvalidActionError):
        G.apply(s2, 1, "fly 1,0")


def test_resign_leaves_the_map_and_others_play_on() -> None:
    s = G.new(2, {}, "r")
    s2, _ = G.apply(s, 1, "resign")
    assert s2.kitsune[1].pos is None and s2.phase == "dream"
    s3, _ = G.apply(s2, 0, "end")
    assert s3.current == 0
    s4, _ = G.apply(s3, 0, "resign")
    assert s4.phase == "over" and s4.reason == "fw.outcome.all_left"


def test_undo_allowed_only_without_rolls_or_draws() -> None:
    s = G.new(1, {}, "u")
    s2, ev = G.apply(s, 0, "land 1,0")
    assert G.undo_blocker(s, s2, ev) == "undo.reason.revealed"
    s3, ev3 = G.apply(s2, 0, "end")
    assert G.undo_blocker(s2, s3, ev3) == "undo.reason.rolled"
    s4 = build(lands={(1, 0): None})
    s5, ev5 = G.apply(s4, 0, "move 1,0")
    assert G.undo_blocker(s4, s5, ev5) is None


def test_the_gates_people_end_the_lone_fox_stall() -> None:
    """A lone Kitsune on the Gate, no Village, under 3 Praise: demons cannot appear (6.4.3) and nobody earns
    Praise, so the world froze. The Gate's people give it 1 Praise a turn until it can pay for a Land."""
    s = build(1, kitsune=[Kitsune(0, praise=0)])
    seen = []
    for _ in range(3):
        s, events = G.apply(s, 0, "end")
        turn = next(e for e in events if e.kind == "turn")
        seen.append((s.kitsune[0].praise, turn.data["gate"], turn.data["collected"]))
    assert seen == [(1, 1, 1), (2, 1, 1), (3, 1, 1)]
    s, events = G.apply(s, 0, "end")  # 3 Praise: it can act, so no more gifts
    assert s.kitsune[0].praise == 3 and next(e for e in events if e.kind == "turn").data["gate"] == 0
    s2, _ = G.apply(s, 0, "land 1,0")
    assert len(s2.lands) == 2  # the world moves again


def test_no_gate_gift_with_a_village_or_away_from_the_gate() -> None:
    s = build(1, lands={(1, 0): None}, kitsune=[Kitsune(0, praise=0, pos=(1, 0))])
    s2, _ = G.apply(s, 0, "end")
    assert s2.kitsune[0].praise == 0 or s2.phase == "over"
    v = build(1, lands={(0, 0): 0}, kitsune=[Kitsune(0, praise=0)])
    v2, events = G.apply(v, 0, "end")
    assert v2.kitsune[0].praise == 1 and next(e for e in events if e.kind == "turn").data["gate"] == 0


def test_the_bot_never_stalls_from_the_lone_fox_position() -> None:
    s = build(1, kitsune=[Kitsune(0, praise=0)])
    for _ in range(40):
        if len(s.lands) > 1 or s.phase == "over":
            break
        s, _ = G.apply(s, 0, G.bot_action(s, 0))
    assert len(s.lands) > 1 or s.phase == "over"


@pytest.mark.parametrize(("typed", "canonical"), [
    ("ruch 1,0", "move 1,0"), ("KRAINA 0, -1", "land 0,-1"), ("wioska", "village"), ("lecz", "heal"),
    ("atak oni@1,0 umysł", "attack oni@1,0 mind"), ("atakuj 2 cialo wzmocnienie", "attack 2 body boost"),
    ("przejmij duch", "takeover spirit"), ("zbieraj", "harvest"), ("kup lucky_coin", "buy lucky_coin"),
    ("zostaw nic", "keep none"), ("wymień lucky_coin do 2", "trade lucky_coin to 2"), ("pieczęć", "seal"),
    ("koniec", "end"),
])
def test_polish_words_type_the_same_moves(typed: str, canonical: str) -> None:
    from rules.floating_world import notation as nt

    assert nt.text(nt.parse(typed)) == canonical


def test_polish_chat_that_starts_with_a_verb_is_not_a_move() -> None:
    from rules.floating_world import notation as nt

    with pytest.raises(InvalidActionError):
        nt.parse("koniec świata?")
