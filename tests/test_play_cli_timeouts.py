"""A missed turn is announced as a timeout, never as a pass or a move (terminal captions and the Discord lines);
pure functions over hand-made results, no engine."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cogs.floor_plan import FloorPlanSurface
from cogs.flying_blades import FlyingBladesSurface
from rules.floor_plan import FloorPlan
from rules.flying_blades import FlyingBlades
from terminal import Hidden, fb_caption, fp_caption, fp_words

NAMES = ("Alice", "Bob", "Carol")


def result(game: Any, state: Any, seat: int, action: str, source: str = "timer") -> SimpleNamespace:
    after, events = game.apply(state, seat, action)
    seats = [SimpleNamespace(name=n, bot=False, user_id=None) for n in NAMES]
    table = SimpleNamespace(seats=seats, options={"cards": "hidden"}, state=after)
    return SimpleNamespace(table=table, seat=seat, action=action, events=events, source=source)


def test_a_missed_turn_is_captioned_as_a_timeout_not_a_pass() -> None:
    g = FlyingBlades()
    r = result(g, g.new(3, {"cards": "none"}, "cap"), 0, "timeout")
    assert fb_caption(r.table, r, "en") == ["Alice missed their turn (time ran out)."]
    assert fb_caption(r.table, r, "pl") == ["Alice — tura przepadła (skończył się czas)."]
    line = FlyingBladesSurface().describe(r, "en")
    assert "Alice missed their turn (time ran out)." in line and "pass" not in line and "ran out of time" not in line


def test_a_draft_timeout_says_the_bots_cards_were_kept_without_naming_them() -> None:
    g = FlyingBlades()
    r = result(g, g.new(3, {}, "cap-draft"), 1, "timeout")
    (line,) = fb_caption(r.table, r, "en")
    assert line == "Bob did not choose cards in time: they keep the cards a bot would choose."
    assert "did not choose cards in time" in FlyingBladesSurface().describe(r, "en")
    assert FlyingBladesSurface().is_quiet(r)  # nothing changed on the board


def test_a_floor_plan_timeout_is_said_and_shown_at_the_round_close_as_one() -> None:
    g = FloorPlan()
    s = g.new(2, {}, "cap-fp")
    hidden: dict[int, str] = {}
    r = result(g, s, 0, "timeout")
    assert fp_caption(r.table, r, "en", hidden) == ["Alice missed their turn (time ran out)."]
    assert hidden == {0: "time ran out (nothing chosen)"}
    assert FloorPlanSurface().describe(r, "en") == "⏰ Alice missed this round (time ran out)."
    bob = result(g, r.table.state, 1, g.bot_action(r.table.state, 1), source="player")
    lines = fp_caption(bob.table, bob, "en", hidden)
    assert Hidden("cli.fp.acted", "Bob") in lines and "  Alice: time ran out (nothing chosen)" in lines


def test_a_resumed_round_words_a_timeout_after_claims() -> None:
    assert fp_words("timeout", "en") == "time ran out (nothing chosen)"
    words = fp_words("claim hosts.1; timeout", "en")
    assert words.endswith("; time ran out (nothing chosen)") and "claim hosts.1" not in words
