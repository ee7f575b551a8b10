"""``tension=bands``: the risk a player feels at the table (issue 23, "The tension is gone").

The rulebook: "If at any point during your turn, you cause a Floorboard to tilt and touch the Terrain or table,
or a Ninja Meeple or Jutsu falls from a Floorboard and touches the Terrain or table, then you must End your Turn
immediately." At the table nobody knows how much a board has to spare; with ``tension=bands`` the game says only
safe / shaky / falls, and a shaky board may fall.
"""

from __future__ import annotations

import json
import re

import pytest

from render import floating_floors as draw
from render.floating_floors import words
from render.kit import image_ext
from rules.base import OptionsError
from rules.floating_floors import bot, statics
from rules.floating_floors import game as ff
from rules.floating_floors.state import jutsu_total
from tests.rules.ff_helpers import G, kinds, position

PLUS = ((0, "f03", False, 0),)  # card 0's board: a plus of light spaces around b2
# Supports at b2 and b3 and a counterweight on b3: the Sun stepping b2 -> b1 leaves margin 0.05 (shaky).
THIN = (("ws", "b2", "ground", "c"), ("ws", "b3", "ground", "c"), ("ws", "b3", "board", "c"))
# Four supports in a plus: the Sun anywhere on the board is far inside (safe).
CROSS = (("ws", "b1", "ground", "c"), ("ws", "b3", "ground", "c"), ("ws", "a2", "ground", "c"),
         ("ws", "c2", "ground", "c"))
BANDS = {"tension": "bands"}
NUMBER = re.compile(r"\d\.\d|\d+ ?%")  # a margin (+0.05) or a chance (50%) written out


def thin(options: dict | None = None, seed: str = "t") -> object:
    return position(boards=PLUS, pieces=THIN, at={0: "b2"}, options=options, seed=seed)


def test_bands_hide_the_margin_in_the_view_the_previews_and_the_captions() -> None:
    # a seed whose shaky-hands draw lets the board stand (the draw is the state's; any seed may fall)
    s = next(thin(BANDS, f"t{i}") for i in range(50)
             if "collapse" not in kinds(G.apply(thin(BANDS, f"t{i}"), 0, "move b1")[1]))
    after, events = G.apply(s, 0, "move b1")
    check = next(e for e in events if e.kind == "check")
    assert check.data["band"] == "shaky" and "margin" not in check.data and "chance" not in check.data
    for viewer in (0, 1, None):
        view = G.view(after, viewer)
        board = view["boards"][0]
        assert board["band"] == "shaky" and "margin" not in board and board["centre"] is None
        assert "margin" not in view["last"] and "chance" not in view["last"] and view["last"]["band"] == "shaky"
    result = ff.preview(s, 0, "move b1")
    assert result["checks"] == [{"card": 0, "band": "shaky", "stable": True, "margin": None, "chance": None}]
    shown = [words.preview_text(result, "en"), words.option_description(result, "en"),
             *words.action_lines(events, ["A", "B"], "en"), words.text_board(G.view(after, 0), locale="en"),
             words.preview_text(result, "pl"), words.option_description(result, "pl")]
    assert all(not NUMBER.search(line.replace("load 10", "").replace("obciążenie 10", "")) for line in shown), shown
    assert "shaky" in shown[0] and "shaky" in shown[1]
    preview = ff.preview_view(s, 0, "move b1")
    assert "margin" not in preview["boards"][0] and preview["boards"][0]["centre"] is None
    model = draw.read(preview)
    assert model.boards[0].band == "shaky" and model.boards[0].margin is None and model.boards[0].centre is None
    assert image_ext(draw.preview_image(preview, 0, locale="en")) == "webp"
    assert image_ext(draw.board_image(G.view(after, 0))) == "webp"


def test_bands_a_shaky_step_can_fall_with_the_seeded_chance() -> None:
    # margin 0.05 is the least that stands: the curve's top, statics.collapse_chance(0.05) = shaky_max (50%)
    assert statics.collapse_chance(0.05, shaky_below=statics.BAND_SHAKY_BELOW) == pytest.approx(0.5)
    outcomes = []
    for i in range(40):
        _, events = G.apply(thin(BANDS, f"shaky{i}"), 0, "move b1")
        outcomes.append("collapse" in kinds(events))
        again = "collapse" in kinds(G.apply(thin(BANDS, f"shaky{i}"), 0, "move b1")[1])
        assert again == outcomes[-1]  # the same seed, the same fall: the draw comes from the state
    assert 5 < sum(outcomes) < 35


def test_bands_a_safe_step_never_falls() -> None:
    for i in range(20):
        s = position(boards=PLUS, pieces=CROSS, at={0: "b2"}, options=BANDS, seed=f"safe{i}")
        after, events = G.apply(s, 0, "move b1")
        check = next(e for e in events if e.kind == "check")
        assert check.data["band"] == "safe" and "collapse" not in kinds(events) and after.counter == s.counter


def test_exact_mode_keeps_todays_previews_and_pure_statics() -> None:
    s = thin({"tension": "exact"})
    result = ff.preview(s, 0, "move b1")
    assert result["checks"] == [{"card": 0, "margin": pytest.approx(0.05), "stable": True, "chance": 0.0}]
    assert "+0.05" in words.option_description(result, "en") and "+0.05" in words.preview_text(result, "en")
    for i in range(20):
        after, events = G.apply(thin({"tension": "exact"}, f"e{i}"), 0, "move b1")
        assert "collapse" not in kinds(events) and after.last["margin"] == pytest.approx(0.05)
    assert G.view(after, 0)["boards"][0]["margin"] == pytest.approx(0.05)


def test_a_game_saved_before_the_tension_option_keeps_exact_previews() -> None:
    assert G.new(2, G.new_game_options, "new").options.tension == ff.DEFAULT_TENSION  # what the engine gives a new game
    assert G.new(2, {}, "old").options.tension == "exact"  # stored options from before: the replay stays exact
    saved = G.to_json(thin(BANDS))
    assert G.from_json(json.loads(json.dumps(saved))).options.tension == "bands"
    del saved["options"]["tension"]  # written before the option existed
    old = G.from_json(saved)
    assert old.options.tension == "exact" and "margin" in G.view(old, 0)["boards"][0]


def test_tension_option_is_checked() -> None:
    with pytest.raises(OptionsError):
        G.new(2, {"tension": "wobbly"}, "x")


def test_bands_bot_cannot_tell_one_shaky_placement_from_another() -> None:
    s = thin(BANDS)
    assert bot.sense(0.06, s) == bot.sense(0.14, s) and bot.sense(0.3, s) == 0.3
    exact = thin({"tension": "exact"})
    assert bot.sense(0.06, exact) == 0.06
    trial = bot.attempt(s, 0, "move b1")  # a trial draws nothing from the seed
    assert trial is not None and not trial.fell and trial.after.counter == s.counter


@pytest.mark.parametrize(("players", "seed"), [(2, "tension-2"), (3, "tension-3")])
def test_bands_playouts_end(players: int, seed: str) -> None:
    s = G.new(players, {**G.new_game_options, "chakra": "middle"}, seed)
    assert s.options.tension == "bands"
    while s.phase != "over" and s.turn < 200:
        s, _ = G.apply(s, s.current, G.bot_action(s, s.current))
        assert all(t == 10 for t in jutsu_total(s))
    assert s.phase == "over" and G.outcome(s) is not None
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s
