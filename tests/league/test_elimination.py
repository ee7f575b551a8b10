from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.elimination import (
    BYE,
    FORFEIT,
    PLAYED,
    VOID,
    Bracket,
    BracketError,
    Match,
    double_elimination,
    seed_order,
    single_elimination,
)

SIZES = [2, 3, 5, 7, 8, 13, 16, 33]


def players(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def first_round(b: Bracket) -> list[tuple[str | None, str | None]]:
    return [m.slots for m in b.matches if m.id.startswith("W1-")]


def play(b: Bracket, pick: random.Random | None = None, check_json: bool = False) -> tuple[Bracket, list[Match]]:
    """Play the bracket to the end in schedule order: the better seed wins, or a random player with `pick`."""
    history: list[Match] = []
    while not b.finished:
        m = b.due()[0]
        winner = pick.choice(m.slots) if pick else min(m.slots, key=lambda p: b.seeds.index(p))  # type: ignore[arg-type]
        b = b.record(m.id, winner)  # type: ignore[arg-type]
        history.append(b.match(m.id))
        if check_json:
            assert Bracket.from_json(b.to_json()) == b
    return b, history


def play_until(b: Bracket, match_id: str) -> Bracket:
    """Better seed wins every match until `match_id` is ready."""
    while not b.match(match_id).ready:
        m = b.due()[0]
        b = b.record(m.id, min(m.slots, key=lambda p: b.seeds.index(p)))  # type: ignore[arg-type]
    return b


def assert_consistent(b: Bracket) -> None:
    assert b.finished
    placed = [p for group in b.placements() for p in group]
    assert sorted(placed) == sorted(b.seeds)
    assert b.ready() == []
    games = [m for m in b.matches if m.result in (PLAYED, FORFEIT)]
    per_round: Counter[tuple[int, str]] = Counter((m.play_round, p) for m in games for p in m.slots if p)
    assert max(per_round.values()) == 1
    losses = Counter(p for m in b.matches for p in m.losers)
    champion = b.champion
    if not b.withdrawn:
        assert champion is not None and b.placements()[0] == (champion,)
        limit = 1 if b.kind == "single" else 2
        assert all(losses[p] == limit for p in b.seeds if p != champion)
        assert losses[champion] < limit


# -- seeding -------------------------------------------------------------------------------------------------------


def test_standard_seeding_8_pairs_1v8_4v5_2v7_3v6() -> None:
    b = single_elimination(players(8))
    assert first_round(b) == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]


def test_standard_seeding_16_pairs_top_against_bottom() -> None:
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    slots = first_round(single_elimination(players(16)))
    assert all(int(a[1:]) + int(b[1:]) == 17 for a, b in slots)  # type: ignore[index]


@pytest.mark.parametrize("kind", ["single", "double"])
def test_seeds_1_and_2_meet_only_in_the_final(kind: str) -> None:
    b = (single_elimination if kind == "single" else double_elimination)(players(16))
    b, history = play(b)
    meetings = [m for m in history if set(m.slots) == {"s1", "s2"}]
    # Double elimination: the winners final, then the grand final against the losers-bracket champion.
    assert [m.id for m in meetings] == (["W4-1"] if kind == "single" else ["W4-1", "GF1"])
    assert b.champion == "s1"


@pytest.mark.parametrize(("n", "byes"), [(5, 3), (13, 3)])
def test_byes_go_to_the_top_seeds_and_advance_without_a_win(n: int, byes: int) -> None:
    b = single_elimination(players(n))
    bye_matches = [m for m in b.matches if m.id.startswith("W1-") and None in m.slots]
    assert sorted(m.winner for m in bye_matches) == [f"s{i}" for i in range(1, byes + 1)]  # type: ignore[type-var]
    assert all(m.result == BYE and m.losers == () for m in bye_matches)
    assert all(None not in m.slots for m in b.ready())


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", ["single", "double"])
def test_every_size_builds_with_each_seed_once_and_plays_out(n: int, kind: str) -> None:
    b = (single_elimination if kind == "single" else double_elimination)(players(n))
    seated = [p for slots in first_round(b) for p in slots if p]
    assert sorted(seated) == sorted(players(n))
    assert b.ready()
    assert_consistent(play(b, random.Random(n))[0])


def test_an_upset_stays_fixed_seed_8_meets_the_winner_of_4v5() -> None:
    b = single_elimination(players(8)).record("W1-1", "s8").record("W1-2", "s5")
    assert b.match("W2-1").slots == ("s8", "s5")
    assert b.match("W2-2").slots == (None, None)


# -- double elimination --------------------------------------------------------------------------------------------


def test_double_elimination_16_random_playout_loses_twice_and_counts_matches() -> None:
    for seed in range(20):
        b, history = play(double_elimination(players(16)), random.Random(seed))
        assert_consistent(b)
        losses = Counter(p for m in history for p in m.losers)
        champion = b.champion
        reset = b.match("GF2").result == PLAYED
        assert all(losses[p] == 2 for p in b.seeds if p != champion)
        assert losses[champion] == (1 if reset else 0)
        assert len(history) == (31 if reset else 30)  # 2n - 1 or 2n - 2


def test_double_elimination_schedule_interleaves_winners_and_losers_rounds() -> None:
    b = double_elimination(players(8))
    rounds = {m.id.split("-")[0]: m.play_round for m in b.matches}
    assert rounds == {"W1": 1, "W2": 2, "L1": 2, "L2": 3, "W3": 4, "L3": 4, "L4": 5, "GF1": 6, "GF2": 7}
    assert all(b.match(t[0]).play_round > m.play_round
               for m in b.matches for t in (m.win_to, m.lose_to) if t is not None)


def test_current_round_number_follows_the_schedule() -> None:
    b = double_elimination(players(8))
    seen = []
    while not b.finished:
        seen.append(b.current_round_number())
        for m in b.due():
            b = b.record(m.id, m.slots[0])  # type: ignore[arg-type]
    assert seen == sorted(seen) and seen[0] == 1
    assert b.current_round_number() == 6  # no reset: the better seed sat in slot 0 of GF1


def test_losers_of_winners_round_1_drop_in_pairs_and_later_losers_in_reverse_order() -> None:
    b = double_elimination(players(16))
    assert [b.match(f"W1-{i}").lose_to for i in (1, 2, 3)] == [("L1-1", 0), ("L1-1", 1), ("L1-2", 0)]
    assert [b.match(f"W2-{i}").lose_to for i in (1, 2, 3, 4)] == [("L2-4", 1), ("L2-3", 1), ("L2-2", 1), ("L2-1", 1)]
    assert [b.match(f"W3-{i}").lose_to for i in (1, 2)] == [("L4-1", 1), ("L4-2", 1)]


@pytest.mark.parametrize("n", [16, 32, 64])
def test_a_dropper_never_meets_whom_they_just_beat_before_the_losers_final(n: int) -> None:
    for seed in range(10):
        b, history = play(double_elimination(players(n)), random.Random(seed))
        last = max(m.round for m in b.matches if m.id.startswith("L"))
        for m in history:
            if m.id.startswith("L") and m.round % 2 == 0 and m.round < last:
                previous = f"W{m.round // 2}-"  # L(2r-2) takes the losers of Wr, who just played W(r-1)
                assert not any(w.id.startswith(previous) and set(w.slots) == set(m.slots) for w in history)


def test_bracket_reset_is_played_only_when_the_losers_champion_wins_gf1() -> None:
    b = play_until(double_elimination(players(8)), "GF1")
    winners_champion, losers_champion = b.match("GF1").slots
    kept = b.record("GF1", winners_champion)  # type: ignore[arg-type]
    assert kept.finished and kept.match("GF2").result == VOID and kept.champion == winners_champion
    reset = b.record("GF1", losers_champion)  # type: ignore[arg-type]
    assert not reset.finished and reset.match("GF2").slots == (winners_champion, losers_champion)
    done = reset.record("GF2", losers_champion)  # type: ignore[arg-type]
    assert done.champion == losers_champion and done.placements()[1] == (winners_champion,)


def test_no_reset_option_ends_at_gf1() -> None:
    b = play_until(double_elimination(players(4), grand_final_reset=False), "GF1")
    losers_champion = b.match("GF1").slots[1]
    b = b.record("GF1", losers_champion)  # type: ignore[arg-type]
    assert b.finished and b.champion == losers_champion
    assert not any(m.id == "GF2" for m in b.matches)


def test_losers_bracket_slots_left_empty_by_byes_do_not_deadlock() -> None:
    b = double_elimination(players(5))
    assert b.match("L1-2").result == VOID  # both of its W1 feeders were byes
    assert_consistent(play(b, random.Random(1))[0])


# -- placements ----------------------------------------------------------------------------------------------------


def test_single_elimination_8_placements_tie_semi_and_quarter_losers() -> None:
    b, _ = play(single_elimination(players(8)))
    assert b.placements() == [("s1",), ("s2",), ("s3", "s4"), ("s5", "s6", "s7", "s8")]


def test_double_elimination_8_placements_group_sizes() -> None:
    b, _ = play(double_elimination(players(8)), random.Random(3))
    assert [len(g) for g in b.placements()] == [1, 1, 1, 1, 2, 2]


def test_placements_before_the_end_raise_and_eliminated_lists_players_out_so_far() -> None:
    b = single_elimination(players(8)).record("W1-1", "s1").record("W1-2", "s5")
    with pytest.raises(BracketError):
        b.placements()
    assert b.eliminated() == [("s4", "s8")]


# -- errors, forfeits, withdrawals ---------------------------------------------------------------------------------


def test_record_rejects_unknown_match_wrong_winner_decided_and_unready_matches() -> None:
    b = single_elimination(players(8))
    with pytest.raises(BracketError, match="no match"):
        b.record("W9-1", "s1")
    with pytest.raises(BracketError, match="does not play"):
        b.record("W1-1", "s2")
    decided = b.record("W1-1", "s1")
    with pytest.raises(BracketError, match="already decided"):
        decided.record("W1-1", "s8")
    with pytest.raises(BracketError, match="not ready"):
        decided.record("W2-1", "s1")
    assert issubclass(BracketError, ValueError)


def test_invalid_seeds_are_rejected() -> None:
    for seeds in ([], ["a"], ["a", "a"], ["a", ""]):
        with pytest.raises(BracketError):
            single_elimination(seeds)


def test_forfeit_records_the_other_player_and_keeps_the_loser_in_double_elimination() -> None:
    b = double_elimination(players(8)).forfeit("W1-1", "s1")
    m = b.match("W1-1")
    assert m.winner == "s8" and m.result == FORFEIT
    assert b.match("L1-1").slots[0] == "s1"
    with pytest.raises(BracketError, match="does not play"):
        b.forfeit("W1-2", "s1")


def test_withdraw_mid_bracket_forfeits_the_pending_match_and_the_next_one() -> None:
    b = single_elimination(players(8)).record("W1-1", "s1").withdraw("s1")
    assert b.match("W2-1").slots == ("s1", None) and not b.match("W2-1").decided  # waits for its opponent
    b = b.record("W1-2", "s4")
    w = b.match("W2-1")
    assert w.winner == "s4" and w.result == FORFEIT
    b = b.withdraw("s2")  # s2's first-round match is ready: s7 wins it at once
    assert b.match("W1-3").winner == "s7"
    b, _ = play(b)
    assert_consistent(b)
    assert b.withdraw("s1") is b  # already out: nothing changes


def test_withdrawn_player_does_not_drop_into_the_losers_bracket() -> None:
    b = double_elimination(players(8)).withdraw("s8")
    assert b.match("W1-1").winner == "s1"
    b = b.record("W1-2", "s4")
    assert b.match("L1-1").result == BYE and b.match("L1-1").winner == "s5"
    assert not any("s8" in m.slots for m in b.matches if not m.decided)
    b = play_until(b, "GF1").withdraw("s1")  # winners champion withdraws before the grand final
    assert b.finished and b.champion == b.match("GF1").slots[1]
    assert_consistent(b)


def test_withdraw_unknown_player_raises() -> None:
    with pytest.raises(BracketError):
        single_elimination(players(4)).withdraw("nobody")


# -- display and JSON ----------------------------------------------------------------------------------------------


def test_rounds_are_grouped_winners_then_losers_then_finals_with_labels() -> None:
    b = double_elimination(players(8))
    keys = [r[0].stage for r in b.rounds()]
    assert keys == [("winners", 1), ("winners", 2), ("winners", 3), ("losers", 1), ("losers", 2), ("losers", 3),
                    ("losers", 4), ("final", 1), ("final", 2)]
    assert sum(len(r) for r in b.rounds()) == len(b.matches)
    assert b.match("GF2").label == "Grand final reset"
    assert single_elimination(players(8)).match("W2-2").label == "Semi-final 2"


def test_json_round_trips_at_every_step_of_a_playout_with_a_withdrawal() -> None:
    b = double_elimination(players(13)).withdraw("s6")
    assert Bracket.from_json(b.to_json()) == b
    b, _ = play(b, random.Random(7), check_json=True)
    assert Bracket.from_json(b.to_json()) == b


@given(n=st.integers(2, 40), double=st.booleans(), seed=st.integers(0, 2**32 - 1),
       withdrawals=st.integers(0, 3))
def test_any_size_with_random_winners_finishes_with_a_consistent_placement(
        n: int, double: bool, seed: int, withdrawals: int) -> None:
    rng = random.Random(seed)
    b = (double_elimination if double else single_elimination)(players(n))
    quitters = rng.sample(players(n), min(withdrawals, n))
    steps = 0
    while not b.finished:
        if quitters and rng.random() < 0.1:
            b = b.withdraw(quitters.pop())
            continue
        m = rng.choice(b.ready())
        b = b.record(m.id, rng.choice(m.slots))  # type: ignore[arg-type]
        steps += 1
    assert_consistent(b)
    if not b.withdrawn:
        assert steps in ((n - 1,) if not double else (2 * n - 2, 2 * n - 1))
