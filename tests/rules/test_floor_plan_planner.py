"""The planner (rules/floor_plan/planner/): legal, varied, deterministic suggestions in every phase, bonuses
and the Wild among its moves, the bot's action its first suggestion."""

from __future__ import annotations

from dataclasses import replace

from rules.floor_plan import State
from rules.floor_plan import demands as dm
from rules.floor_plan.bot import choose, choose_baseline
from rules.floor_plan.planner import Suggestion, suggest
from tests.rules.fp_helpers import G


def play(seed: str, rounds: int, players: int = 1) -> State:
    s = G.new(players, {}, seed)
    for _ in range(rounds):
        if G.outcome(s) is not None:
            break
        for seat in sorted(G.to_move(s)):
            s, _ = G.apply(s, seat, choose(G, s, seat))
    return s


def assert_legal(s: State, seat: int, suggestions: list[Suggestion]) -> None:
    assert suggestions, "a seat to act always gets a suggestion"
    assert len({x.text for x in suggestions}) == len(suggestions)
    assert [x.value for x in suggestions] == sorted((x.value for x in suggestions), reverse=True)
    for x in suggestions:
        G.apply(s, seat, x.text)  # legal as it stands
        assert x.text == G.notation(s, x.text)  # already canonical
        claimed = [step.split()[1] for step in x.text.split("; ") if step.startswith("claim ")]
        assert x.points == sum(dm.DEMANDS[d].points for d in claimed)


def test_setup_suggests_start_placements_over_the_centre() -> None:
    s = G.new(1, {}, "planner-setup")
    out = suggest(G, s, 0)
    assert len(out) == 4 and all(x.text.startswith("start ") for x in out)
    assert_legal(s, 0, out)


def test_every_suggestion_of_a_played_game_is_legal_canonical_and_scores_its_claims() -> None:
    s = G.new(1, {}, "planner-legal")
    while G.outcome(s) is None:
        out = suggest(G, s, 0)
        assert_legal(s, 0, out)
        s, _ = G.apply(s, 0, out[0].text)


def test_suggestions_are_varied_not_one_room_shifted_by_a_cell() -> None:
    s = play("planner-varied", 4)
    out = suggest(G, s, 0, limit=4)
    kinds = [x.text.split(";")[0].split()[0] for x in out]
    spots = [x.text.split()[1] for x in out if x.text.startswith("room ")]
    assert len(set(kinds)) >= 2 or len(set(spots)) == len(spots)


def test_suggest_does_not_change_the_state_and_is_deterministic() -> None:
    s = play("planner-pure", 5)
    snapshot = G.to_json(s)
    first = suggest(G, s, 0)
    assert G.to_json(s) == snapshot
    assert suggest(G, G.from_json(snapshot), 0) == first


def test_a_seat_not_to_act_gets_no_suggestion() -> None:
    s = play("planner-done", 2, players=2)
    s2, _ = G.apply(s, 0, suggest(G, s, 0)[0].text)
    assert suggest(G, s2, 0) == [] and suggest(G, s2, 1)


def test_a_full_sheet_still_gets_a_legal_action() -> None:
    s = play("planner-stuck", 3)
    # Stones on every free outside cell: hardly anything fits but a skip (and claims).
    from rules.floor_plan.sheet import ALL_CELLS, add_features

    b = s.boards[0]
    free = [c for c in ALL_CELLS if c not in b.sheet.room_of and c not in b.sheet.features]
    sheet = add_features(b.sheet, "stone", free)
    s = replace(s, boards=(replace(b, sheet=sheet),))
    out = suggest(G, s, 0)
    assert_legal(s, 0, out)


def test_the_planner_uses_the_wild_and_the_bonuses_over_some_games() -> None:
    texts: list[str] = []
    for i in range(3):
        s = G.new(1, {}, f"planner-bonus-{i}")
        while G.outcome(s) is None:
            text = choose(G, s, 0)
            texts.append(text)
            s, _ = G.apply(s, 0, text)
    joined = "\n".join(texts)
    assert " wild " in joined or " + " in joined or "x2:" in joined or "doors " in joined
    assert "claim " in joined


def test_the_bot_plays_the_first_suggestion_and_the_baseline_stays_available() -> None:
    s = play("planner-bot", 3)
    assert G.bot_action(s, 0) == suggest(G, s, 0)[0].text
    G.apply(s, 0, choose_baseline(G, s, 0))
