"""Each game's ``undo_blocker``: an action may be taken back only when it revealed nothing hidden, drew no
randomness and did not end the game (the engine adds the log's conditions, tests/test_engine_undo.py)."""

from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.floor_plan.bot import choose_start
from rules.flying_blades.bot import choose_keep
from tests.rules import fb_helpers as fb
from tests.rules import fp_helpers as fp
from tests.rules import tf_helpers as tf


def blocker(rules: Any, s: Any, seat: int, action: str) -> tuple[str | None, Any, list[Event]]:
    after, events = rules.apply(s, seat, action)
    return rules.undo_blocker(s, after, events), after, events


def fb_in_play(players: int = 3, seed: str = "undo") -> Any:
    s = fb.G.new(players, {}, seed)
    for seat in range(players):
        s, _ = fb.G.apply(s, seat, "keep " + " ".join(choose_keep(s.hands[seat], players)))
    assert s.phase == "play"
    return s


# --- Night of the 27 Ninja -----------------------------------------------------------------------------------


def test_flying_blades_an_attack_reveals_nothing_and_may_be_taken_back() -> None:
    s = fb.G.new(3, {"cards": "none"}, "undo")
    attack = next(a for a in fb.G.legal_actions(s, 0) if a.startswith("attack"))
    assert blocker(fb.G, s, 0, attack)[0] is None


def test_flying_blades_a_pass_that_does_not_end_the_game_may_be_taken_back() -> None:
    s = fb.G.new(3, {"cards": "none"}, "undo")
    assert blocker(fb.G, s, 0, "pass")[0] is None


def test_flying_blades_a_card_played_was_revealed_and_stands() -> None:
    s = fb_in_play()
    seat = s.current
    card = next(a for a in fb.G.legal_actions(s, seat) if not a.startswith(("attack", "pass")))
    assert blocker(fb.G, s, seat, card)[0] == "undo.reason.revealed"


def test_flying_blades_a_keep_in_the_open_draft_may_be_taken_back_but_the_last_keep_closes_it() -> None:
    s = fb.G.new(3, {}, "undo")
    for seat in range(2):
        reason, s, _ = blocker(fb.G, s, seat, "keep " + " ".join(choose_keep(s.hands[seat], 3)))
        assert reason is None
    assert blocker(fb.G, s, 2, "keep " + " ".join(choose_keep(s.hands[2], 3)))[0] == "undo.reason.closed"


def test_flying_blades_a_resignation_and_the_game_end_stand() -> None:
    s = fb.G.new(3, {"cards": "none"}, "undo")
    assert blocker(fb.G, s, 1, "resign")[0] == "undo.reason.resign"
    s = fb.G.new(2, {"cards": "none"}, "undo")
    assert blocker(fb.G, s, 1, "resign")[0] == "undo.reason.over"
    s, _ = fb.G.apply(s, 0, "pass")
    assert blocker(fb.G, s, 1, "pass")[0] == "undo.reason.over"  # every player passed in succession


def test_flying_blades_a_timeout_is_not_a_move_to_take_back() -> None:
    s = fb.G.new(3, {"cards": "none"}, "undo")
    assert blocker(fb.G, s, 0, "timeout")[0] == "undo.reason.timeout"


# --- Floor Plan ------------------------------------------------------------------------------------------------


def test_floor_plan_own_work_in_the_open_round_may_be_taken_back() -> None:
    s = fp.G.new(3, {}, "undo")
    reason, s, _ = blocker(fp.G, s, 0, choose_start(s, 0))
    assert reason is None
    assert blocker(fp.G, s, 1, choose_start(s, 1))[0] is None


def test_floor_plan_the_action_that_closes_the_round_rolled_the_dice() -> None:
    s = fp.G.new(2, {}, "undo")
    s, _ = fp.G.apply(s, 0, choose_start(s, 0))
    reason, after, events = blocker(fp.G, s, 1, choose_start(s, 1))
    assert reason == "undo.reason.rolled" and after.round == 1 and "round_closed" in {e.kind for e in events}


def test_floor_plan_a_move_in_play_may_be_taken_back_until_the_round_closes() -> None:
    s = fp.started(players=3)
    assert blocker(fp.G, s, 0, "skip")[0] is None
    s, _ = fp.G.apply(fp.G.apply(s, 0, "skip")[0], 1, "skip")
    assert blocker(fp.G, s, 2, "skip")[0] == "undo.reason.rolled"


def test_floor_plan_a_resignation_and_a_timeout_stand() -> None:
    s = fp.started(players=3)
    assert blocker(fp.G, s, 0, "resign")[0] == "undo.reason.resign"
    assert blocker(fp.G, s, 0, "timeout")[0] == "undo.reason.timeout"


# --- The Floor -------------------------------------------------------------------------------------------------


def test_the_floor_takes_nothing_back_in_a_live_game() -> None:
    s = tf.drafted()
    seat = min(tf.G.to_move(s))
    action = tf.G.bot_action(s, seat)
    assert blocker(tf.G, s, seat, action)[0] == "undo.reason.live"
