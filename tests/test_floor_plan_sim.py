"""The balance simulation (tools/floor_plan_sim.py) keeps running: a few seeds through the real rules."""

from __future__ import annotations

import json

from rules.floor_plan.game import SHEET_DATA
from tools import floor_plan_sim as sim


def test_solo_games_end_by_the_rules_and_their_parts_add_up_to_the_score() -> None:
    results = sim.run(3, "planner", prefix="smoke")
    for r in results:
        assert r.reason in ("sixth", "full", "bubbles") and 1 <= r.rounds <= SHEET_DATA.solo_bubbles
        assert r.score == r.notes + r.door_bonus + r.bubbles
        assert sum(r.demands.values()) == r.notes and r.rating == SHEET_DATA.rating(r.score)


def test_summary_has_every_distribution_the_docs_quote() -> None:
    summary = sim.summarize(sim.run(2, "baseline", prefix="smoke"))
    assert summary["games"] == 2 and summary["score"]["min"] <= summary["score"]["median"] <= summary["score"]["max"]
    assert sum(summary["ratings"].values()) == 2 and list(summary["ratings"]) == [r for _, r in SHEET_DATA.ratings]
    assert sum(summary["reasons"].values()) == 2
    assert 0 <= summary["max_single_share"] <= 1


def test_head_to_head_counts_every_game_once_with_seats_swapped() -> None:
    out = sim.head_to_head(["smoke-duel-0", "smoke-duel-1"])
    assert out["wins"] + out["draws"] + out["losses"] == 2


def test_the_command_prints_json(capsys: object) -> None:
    assert sim.main(["--seeds", "1", "--bot", "baseline", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert out["bot"] == "baseline" and out["games"] == 1


def test_a_bot_change_is_judged_seed_by_seed_on_the_same_deals() -> None:
    """`--against`: only seeds both runs played count; a game's score difference decides better / worse / equal."""
    out = sim.paired({"a": 30, "b": 40, "c": 20, "x": 99}, {"a": 32, "b": 40, "c": 17, "y": 0})
    assert (out["games"], out["better"], out["worse"], out["equal"]) == (3, 1, 1, 1)
    assert out["mean_diff"] == round(-1 / 3, 3) and out["ci95"][0] < out["mean_diff"] < out["ci95"][1]
    assert sim.paired({"a": 1, "b": 2}, {"a": 2, "b": 3})["ci95"] == [1.0, 1.0]  # every game +1: no doubt


def test_the_command_compares_with_an_earlier_run(capsys: object, tmp_path: object) -> None:
    assert sim.main(["--seeds", "2", "--bot", "baseline", "--json"]) == 0
    earlier = tmp_path / "before.json"  # type: ignore[operator]
    earlier.write_text(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert sim.main(["--seeds", "2", "--bot", "baseline", "--json", "--against", str(earlier)]) == 0
    paired = json.loads(capsys.readouterr().out)["paired"]  # type: ignore[attr-defined]
    assert paired == {"games": 2, "better": 0, "worse": 0, "equal": 2, "mean_diff": 0.0, "ci95": [0.0, 0.0]}
