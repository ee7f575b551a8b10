"""Floating Floors previews ("what if", the select options) never reveal what the real move has not revealed yet
(issue 21): before, ``/whatif end`` showed the board after the turn with the dice already rolled for the next
player, and a previewed ``board`` showed the floorboard that would turn face up next.

Marker test: two states that differ only in a secret (the seed, so the next roll; the deck below its top) must
give the same preview text, view and image, while the real moves differ (so the test can see a leak)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from render import floating_floors as draw
from render.floating_floors import words
from rules.floating_floors import game as ff
from rules.floating_floors.state import State
from tests.rules.ff_helpers import G, position

SEEDS = ("marker-a", "marker-b")
SUPPORTED = (("ws", "b1", "ground", "c"), ("ws", "b3", "ground", "c"), ("ws", "a2", "ground", "c"),
             ("ws", "c2", "ground", "c"))


def navigating(seed: str, pieces: tuple[tuple[str, str, str, str], ...] = SUPPORTED, **changes: object) -> State:
    s = position(boards=((0, "f03", False, 0),), pieces=pieces, at={0: "b2"}, hands={0: ("ws", "wt", "wh")},
                 **changes)
    return replace(s, seed=seed)


def next_rolls(action: str) -> list[tuple[str, ...]]:
    return [G.apply(navigating(seed), 0, action)[0].roll for seed in SEEDS]


def test_markers_draw_different_rolls_for_the_next_player() -> None:
    rolls = next_rolls("end")
    assert rolls[0] and rolls[1] and rolls[0] != rolls[1]


@pytest.mark.parametrize("action", ["end", "end keep ws", "resign", "place wt e2", "move b1"])
def test_whatif_never_shows_the_next_players_roll(action: str) -> None:
    views = [ff.preview_view(navigating(seed), 0, action) for seed in SEEDS]
    assert all(v["roll"] == [] and v["to_take"] == [] for v in views)
    assert views[0] == views[1]
    results = [ff.preview(navigating(seed), 0, action) for seed in SEEDS]
    assert results[0] == results[1]
    assert words.preview_text(results[0], "en") == words.preview_text(results[1], "en")
    assert words.option_description(results[0], "en") == words.option_description(results[1], "en")


def test_whatif_image_is_the_same_whatever_the_next_roll() -> None:
    real = [draw.render(G.view(G.apply(navigating(seed), 0, "end")[0], 0)) for seed in SEEDS]
    assert real[0] != real[1]  # the real boards show the two rolls: an image can tell them apart
    previews = [draw.render(ff.preview_view(navigating(seed), 0, "end")) for seed in SEEDS]
    assert previews[0] == previews[1]


def test_whatif_of_a_board_does_not_turn_up_the_next_floorboard() -> None:
    s = navigating(SEEDS[0], pieces=(*SUPPORTED, ("ws", "e2", "ground", "c")))
    top = s.deck[0]
    other = replace(s, deck=(top, *reversed(s.deck[1:])))  # the same but for the secret order below the top
    assert G.apply(s, 0, "board e2")[0].deck[0] != G.apply(other, 0, "board e2")[0].deck[0]
    views = [ff.preview_view(x, 0, "board e2") for x in (s, other)]
    assert views[0] == views[1] and views[0]["deck"]["top"] is None
    assert next(b for b in views[0]["boards"] if b["card"] == 1)["board"] == top  # the top that was public
    assert draw.render(views[0]) == draw.render(views[1])


def test_a_preview_draws_nothing_and_keeps_the_tables_options() -> None:
    s = navigating(SEEDS[0], options={"shaky": "all"})
    after, events = ff.look_ahead(s, 0, "end")
    assert after.counter == s.counter and "roll" not in [e.kind for e in events]
    assert after.options == s.options and after.current == 1
