"""The bot timing tool (tools/floor_plan_bot_timing.py) times the decisions it saved, never timed asserts."""

from __future__ import annotations

from tools import floor_plan_bot_timing as timing


def test_p95_is_the_nearest_rank_of_the_sorted_times() -> None:
    out = timing.stats([float(v) for v in range(1, 21)])
    assert (out["n"], out["median"], out["p95"], out["mean"], out["max"]) == (20, 10.5, 19.0, 10.5, 20.0)


def test_a_saved_decision_replays_on_a_fresh_copy_with_the_bot_action() -> None:
    recs = timing.collect(1)
    assert recs[0]["state"]["phase"] == "setup" and all(r["seat"] == 0 for r in recs)
    ms, action = timing.time_one(recs[1])
    assert ms >= 0 and action == timing.FP.bot_action(timing.FP.from_json(recs[1]["state"]), 0)
