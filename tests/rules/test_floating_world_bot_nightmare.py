"""The bot's answers to the Nightmare's decisions (issue 23; rules/floating_world/bot_nightmare.py): always a listed
choice, the same for the same state, and reasoned from the rulebook — 6.1 "Handle them in any order", 6.2 "may
move for free to an adjacent Land", 6.3 "Any Land no longer connected to the Gate ... is also destroyed", 6.4.3
"Place a matching colored token ... on any Land that has an empty border and no Kitsune"."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.floating_world.bot import nightmare_choice
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import Kitsune, Options, State, build

G = FloatingWorld()
ASK = Options(auto_nightmare=False)


def two(lands: dict, demons: dict | None = None, kit: list[Kitsune] | None = None) -> State:
    return build(2, lands=lands, demons=demons or {}, kitsune=kit or [Kitsune(0), Kitsune(1)], options=ASK)


def spawn_pending(dice: list, s: State) -> State:
    """End seat 0's turn with no demon to resolve: one spawn die shows 1, the type die 1 (an Oni)."""
    dice += [[1] * -(-len(s.lands) // s.options.spawn_divisor), [1]]
    s1, _ = G.apply(s, 0, "end")
    assert s1.pending is not None and s1.pending["decision"] == "spawn"
    return s1


@pytest.mark.parametrize(("players", "seed"), [(2, "bn0"), (3, "bn1")])
def test_bot_never_answers_a_nightmare_decision_with_an_illegal_choice(players: int, seed: str) -> None:
    s = G.new(players, {"auto_nightmare": "off"}, seed)
    asked = 0
    for _ in range(8_000):
        if s.phase == "over":
            break
        seat = next(iter(G.to_move(s)))
        action = G.bot_action(s, seat)
        if s.pending is not None:
            asked += 1
            assert action in G.legal_actions(s, seat)
        s, _ = G.apply(s, seat, action)
    assert s.phase == "over" and asked > 0


def test_bot_nightmare_decision_is_deterministic_for_a_state(dice: list) -> None:
    """The same state (also after a save and load, or with its choices listed in another order) gets the same
    answer: a bot seat's decision replays exactly and never depends on memory outside the saved game."""
    dice += [[1, 1, 1]]  # the Tengu's attack on its Land fails
    s1 = spawn_pending(dice, two({(1, 0): None, (2, 0): None, (0, 1): None, (0, 2): None}, {"tengu1": (0, 2)}))
    first = nightmare_choice(s1)
    assert nightmare_choice(s1) == first
    assert nightmare_choice(G.from_json(G.to_json(s1))) == first
    shuffled = replace(s1, pending={**s1.pending, "choices": list(reversed(s1.pending["choices"]))})
    assert nightmare_choice(shuffled) == first


def test_bot_spawns_where_a_shred_cuts_off_the_fewest_lands(dice: list) -> None:
    """6.3: losing 1,0 would cut 2,0 off too; 2,0 and 0,1 cut nothing off, and 2,0 is farther from the Gate."""
    s1 = spawn_pending(dice, two({(1, 0): None, (2, 0): None, (0, 1): None}))
    assert G.bot_action(s1, 0) == "spawn 2,0"


def test_bot_spawns_beside_a_demon_already_there_so_one_shred_takes_both(dice: list) -> None:
    """6.1.2 "The Land vanishes along with anything on it": two demons on one Land cost one Land, not two."""
    dice += [[1, 1, 1]]  # the Gaki's attack on its Land fails
    s1 = spawn_pending(dice, two({(1, 0): None, (2, 0): None, (0, 1): None}, {"gaki1": (0, 1)}))
    assert G.bot_action(s1, 0) == "spawn 0,1"


def test_bot_never_spawns_on_the_gate_while_another_land_will_do(dice: list) -> None:
    """3.4 "If demons destroy the Gate ... all players lose": the Gate (unguarded, with an empty border) is a valid
    spawn Land, and the last the bot picks."""
    s = two({(1, 0): None, (0, 1): None}, kit=[Kitsune(0, pos=(1, 0)), Kitsune(1, pos=(1, 0))])
    s1 = spawn_pending(dice, s)
    assert "spawn 0,0" in s1.pending["choices"]
    assert G.bot_action(s1, 0) == "spawn 0,1"


def test_a_cut_off_kitsune_flees_to_an_unguarded_gate(dice: list) -> None:
    """6.2 "may move for free to an adjacent Land": with the Gate unguarded, a fox on it stops spawns there
    (6.4.3 "no Kitsune") — ahead even of its own Village."""
    lands = {(1, 0): None, (2, 0): None, (0, 1): None, (1, 1): 1}
    s = two(lands, {"oni1": (1, 0)}, [Kitsune(0, pos=(0, 1)), Kitsune(1, pos=(2, 0), wounds=1)])
    dice += [[6, 6, 6]]  # the Oni shreds 1,0; 2,0 is cut off (6.3)
    s1, _ = G.apply(s, 0, "end")
    assert s1.pending["decision"] == "flee" and {"flee 0,0", "flee 1,1"} <= set(s1.pending["choices"])
    assert G.bot_action(s1, 1) == "flee 0,0"  # the owner's seat answers (6.2)
