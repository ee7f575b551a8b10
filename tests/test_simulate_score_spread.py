"""A score-event preview (engine/simulate.py) plays bots of seeded, different strengths, so its standings are a
spread of scores rather than one n-way tie of the same deterministic bot; other formats keep bots of equal
strength (so that what they measure, e.g. the first seat's advantage, is the format's own)."""

from __future__ import annotations

import pytest

from engine.simulate import simulate


def round_scores(sim: object) -> list[float]:
    table = sim.tournament.rounds[0].tables[0]  # type: ignore[attr-defined]
    assert table.scores is not None
    return list(table.scores.values())


@pytest.mark.parametrize(("game", "least"), [("floating_world", 12), ("floor_plan", 5)])
async def test_a_20_player_score_preview_is_a_spread_not_a_20_way_tie(game: str, least: int) -> None:
    # Before: every entrant scored the same (floor_plan 47, floating_world 955): 1 distinct score of 20.
    sim = await simulate(game=game, fmt="score", players=20, table_size=1, rounds=1, seed="s1")
    scores = round_scores(sim)
    assert len(scores) == 20 and len(set(scores)) >= least
    ranked = [s.points for s in sim.tournament.standings()]
    assert len(set(ranked)) >= least


async def test_the_same_seed_previews_the_same_spread() -> None:
    a = await simulate(game="floating_world", fmt="score", players=8, table_size=1, rounds=1, seed="again")
    b = await simulate(game="floating_world", fmt="score", players=8, table_size=1, rounds=1, seed="again")
    assert sorted(round_scores(a)) == sorted(round_scores(b))


async def test_the_strongest_bot_outscores_the_weakest_in_a_preview() -> None:
    sim = await simulate(game="floating_world", fmt="score", players=20, table_size=1, rounds=1, seed="s1")
    scores = sim.tournament.rounds[0].tables[0].scores
    assert scores is not None and scores["bot-1"] > scores["bot-20"]
