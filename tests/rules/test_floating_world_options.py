"""Options (the rulebook's variants 9.x), outcomes, scoring and the Vengeful Spirit."""

from __future__ import annotations

import pytest

from rules.base import IllegalActionError, OptionsError
from rules.floating_world import score
from rules.floating_world.dice import Stat
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import GATE, Kitsune, Options, build

G = FloatingWorld()


def test_defaults_are_the_rulebook() -> None:
    assert G.normalize_options(1, {}) == {
        "difficulty": "normal", "spawn_divisor": 4, "land_defence": 10, "extra_wounds": 0, "demon_strength": 0,
        "boost": "off", "quick_start": "off", "vengeful": "off", "scoring": "off", "final_fox": "off",
        "auto_nightmare": "on"}


@pytest.mark.parametrize(("level", "divisor", "defence", "wounds", "strength"),
                         [("easy", 4, 10, 1, 0), ("normal", 4, 10, 0, 0), ("hard", 5, 10, 0, 1)])
def test_difficulty_presets(level: str, divisor: int, defence: int, wounds: int, strength: int) -> None:
    # solo's presets; a team's are per player count (test_floating_world_presets.py)
    opts = G.normalize_options(1, {"difficulty": level})
    assert (opts["spawn_divisor"], opts["land_defence"], opts["extra_wounds"], opts["demon_strength"]) == (
        divisor, defence, wounds, strength)
    assert G.normalize_options(1, {"difficulty": level, "spawn_divisor": 3})["spawn_divisor"] == 3
    assert G.normalize_options(1, {"difficulty": level, "extra_wounds": 0})["extra_wounds"] == 0


@pytest.mark.parametrize("bad", [{"difficulty": "nightmare"}, {"spawn_divisor": 6}, {"land_defence": 9},
                                 {"extra_wounds": 3}, {"demon_strength": 4}, {"boost": "maybe"}, {"colour": "red"}])
def test_bad_options_are_refused(bad: dict) -> None:
    with pytest.raises(OptionsError):
        G.normalize_options(1, bad)
    with pytest.raises(OptionsError):
        G.normalize_options(5, {})


def test_hard_starts_the_demons_one_step_up_the_strength_track() -> None:
    # 6.4.1's track is +1, +2, +1D...: the hard preset begins at its first step, explicit values override
    assert G.new(1, {"difficulty": "hard"}, "h").strength == Stat(0, 1)
    assert G.new(1, {}, "h").strength == Stat(0)
    assert G.new(1, {"demon_strength": 3}, "h").strength == Stat(1)
    assert G.new(1, {"difficulty": "hard", "demon_strength": 0}, "h").strength == Stat(0)


def test_quick_start_gives_15_praise() -> None:
    assert G.new(1, {"quick_start": "on"}, "q").kitsune[0].praise == 15
    assert G.new(1, {}, "q").kitsune[0].praise == 6


def test_scoring_ranks_by_the_five_categories() -> None:
    kit = [Kitsune(0, praise=10, mind=Stat(3), legends=("nine_tails",)), Kitsune(1, praise=10)]
    s = build(2, lands={(1, 0): 1}, kitsune=kit)
    # stats 0, Praise shared, Dreams 0, Legends 0, Villages 1
    assert score.points(s) == [3.5, 1.5]
    assert G.standings(s) == [3.5, 1.5]


def test_win_with_scoring_and_final_fox(monkeypatch: pytest.MonkeyPatch) -> None:
    kit = [Kitsune(0, praise=10, mind=Stat(6)), Kitsune(1, praise=8)]
    s = build(2, kitsune=kit, options=Options(scoring=True, final_fox=True), seed="w")
    for seed in range(50):  # find a seed whose roll of 6D reaches 15 (most do)
        s = build(2, kitsune=kit, options=Options(scoring=True, final_fox=True), seed=f"w{seed}")
        s2, _ = G.apply(s, 0, "seal")
        if s2.phase == "over":
            break
    assert s2.kitsune[0].praise == 10  # refunded
    out = G.outcome(s2)
    assert out.winners == (0,) and out.reason == "fw.outcome.sealed"  # stats + shared nothing else


def test_everyone_wins_without_scoring() -> None:
    s = build(3, kitsune=[Kitsune(0, praise=10, mind=Stat(9)), Kitsune(1), Kitsune(2, resigned=True, pos=None)])
    s2, _ = G.apply(s, 0, "seal")
    assert G.outcome(s2).winners == (0, 1)


def test_vengeful_spirit_haunts_spawns_and_wins_on_loss() -> None:
    kit = [Kitsune(0, alive=False, pos=None), Kitsune(1, pos=(1, 0))]
    s = build(2, lands={(1, 0): None, (2, 0): None, (-1, 0): None}, demons={"oni1": (2, 0)},
              kitsune=kit, options=Options(vengeful=True), phase="haunt", current=0)
    assert G.legal_actions(s, 0) is None
    with pytest.raises(IllegalActionError):
        G.apply(s, 0, "village")
    s2, _ = G.apply(s, 0, "haunt oni oni1>1,0")
    assert s2.demons[0].at == (1, 0)
    move = {"kind": "move", "demon": "oni1", "type": "oni", "from": [2, 0], "to": [1, 0], "haunt": 0}
    assert s2.nightmare == {"turn": s.turn, "steps": [move]}  # shown at once
    with pytest.raises(IllegalActionError, match="empty border"):
        G.apply(s2, 0, "spawn gaki 1,0")  # a Kitsune stands there
    s3, _ = G.apply(s2, 0, "spawn gaki -1,0")
    steps = s3.nightmare["steps"]
    assert steps[0] == move and steps[1]["kind"] == "spawn" and steps[1]["haunt"] == 0
    assert not any(x.get("demon") == "gaki1" for x in steps if x["kind"].startswith("attack"))
    assert s3.current == 1 or s3.phase == "over"
    lost = build(2, kitsune=kit, options=Options(vengeful=True), reason="fw.outcome.gate_destroyed", phase="over")
    assert G.outcome(lost).winners == (0,)


def test_dead_players_are_skipped_without_vengeful() -> None:
    kit = [Kitsune(0, alive=False, pos=None), Kitsune(1)]
    s = build(2, kitsune=kit, current=1)
    s2, _ = G.apply(s, 1, "end")
    assert s2.current == 1 and s2.phase == "dream"


def test_all_dead_is_a_loss() -> None:
    s = build(1, kitsune=[Kitsune(0, alive=False, pos=None)], phase="over", reason="fw.outcome.all_dead")
    assert G.outcome(s).winners == ()


def test_view_has_no_secrets_and_the_schema() -> None:
    s = G.new(2, {}, "secret-seed")
    s, _ = G.apply(s, 0, "land 1,0")
    v = G.view(s, 1)
    text = str(v)
    assert "secret-seed" not in text and s.dream_deck[0] not in text
    assert set(v) == {"game", "players", "viewer", "phase", "current", "turn", "options", "lands", "kitsune",
                      "demon_strength", "supply", "nightmare", "last_roll", "harvest", "decks", "outcome", "pending"}
    gate = next(land for land in v["lands"] if land["gate"])
    assert gate["kitsune"] == [0, 1] and gate["name"]["pl"]
    assert v["kitsune"][0]["body"] == {"dice": 2, "pips": 0, "text": "2D"}
    assert v["supply"] == {"oni": 4, "tengu": 4, "gaki": 4}
    assert (GATE[0], GATE[1]) == (0, 0)


def test_haunt_moves_open_the_nightmare_summary_when_the_spirit_ends() -> None:
    kit = [Kitsune(0, alive=False, pos=None), Kitsune(1, pos=(-1, 0))]
    s = build(2, lands={(1, 0): None, (2, 0): None, (-1, 0): None}, demons={"oni1": (2, 0)},
              kitsune=kit, options=Options(vengeful=True), phase="haunt", current=0)
    s2, _ = G.apply(s, 0, "haunt oni oni1>1,0")
    s3, events = G.apply(s2, 0, "end")
    assert s3.nightmare["steps"][0]["kind"] == "move" and s3.nightmare["steps"][0]["haunt"] == 0
    assert [e.kind for e in events][:2] == ["end", "nightmare"]
    # a spirit that ends without haunting brings no stale moves from an earlier turn
    s4, _ = G.apply(s, 0, "end")
    assert all("haunt" not in x for x in s4.nightmare["steps"])
