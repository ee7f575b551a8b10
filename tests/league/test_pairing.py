from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import caissify_pairings
import networkx as nx
import pairing_core
import pytest

from league import pairing as pairing_mod
from league.model import Pairing
from league.pairing import SwissPlayer, round_robin, swiss_pairing, swiss_rounds_recommended

# --- a small Swiss tournament simulator --------------------------------------------------------------------------


@dataclass
class _State:
    rating: float
    pairing_no: int
    points: float = 0.0
    opponents: set[str] = field(default_factory=set)
    byes: int = 0


@dataclass
class _Round:
    players: list[SwissPlayer]
    pairing: Pairing


def _snapshot(states: dict[str, _State]) -> list[SwissPlayer]:
    return [SwissPlayer(pid, s.rating, s.points, frozenset(s.opponents), s.byes > 0, s.pairing_no)
            for pid, s in states.items()]


def _play(rng: random.Random, states: dict[str, _State], pairing: Pairing) -> None:
    """20 % draws, otherwise the Elo-expected winner wins with its expected probability."""
    for a, b in pairing.tables:
        sa, sb = states[a], states[b]
        sa.opponents.add(b)
        sb.opponents.add(a)
        if rng.random() < 0.2:
            sa.points += 0.5
            sb.points += 0.5
            continue
        expected_a = 1 / (1 + 10 ** ((sb.rating - sa.rating) / 400))
        (sa if rng.random() < expected_a else sb).points += 1
    for bye in pairing.byes:
        states[bye].byes += 1
        states[bye].points += 1


def _simulate(n: int, rounds: int, seed: int, *, drop_after: int | None = None, late_join: int | None = None,
              pair: Callable[[list[SwissPlayer], int], Pairing] = swiss_pairing) -> list[_Round]:
    rng = random.Random(seed)
    ratings = sorted((rng.uniform(1000, 2400) for _ in range(n)), reverse=True)
    states = {f"p{i}": _State(r, i) for i, r in enumerate(ratings, start=1)}
    history = []
    for r in range(1, rounds + 1):
        if drop_after is not None and r == drop_after + 1:
            del states["p5"]
        if late_join == r:
            states["late"] = _State(1500.0, n + 1)
        players = _snapshot(states)
        pairing = pair(players, r)
        history.append(_Round(players, pairing))
        _play(rng, states, pairing)
    return history


def _assert_everyone_once(players: list[SwissPlayer], pairing: Pairing) -> None:
    seated = [i for t in pairing.tables for i in t] + list(pairing.byes)
    assert sorted(seated) == sorted(p.id for p in players)
    assert all(len(t) == 2 for t in pairing.tables)


def _rematches(players: list[SwissPlayer], pairing: Pairing) -> int:
    opponents = {p.id: p.opponents for p in players}
    return sum(b in opponents[a] or a in opponents[b] for a, b in pairing.tables)


def _min_rematches(players: list[SwissPlayer]) -> int:
    """Fewest rematches any pairing of this field needs (a bye counts as a free partner in an odd field)."""
    graph = nx.Graph()
    for a, b in itertools.combinations(players, 2):
        graph.add_edge(a.id, b.id, weight=1 if b.id in a.opponents or a.id in b.opponents else 2)
    if len(players) % 2:
        graph.add_edges_from(((p.id, "bye") for p in players), weight=2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sum(graph.edges[e]["weight"] == 1 for e in matching)


@pytest.fixture(scope="module")
def swiss_39x6() -> list[list[_Round]]:
    """39 players × 6 rounds, five seeds; p5 drops after round 2 and a late joiner arrives in round 3."""
    return [_simulate(39, 6, seed, drop_after=2, late_join=3) for seed in range(5)]


# --- Swiss --------------------------------------------------------------------------------------------------------


def test_every_given_player_is_placed_exactly_once(swiss_39x6: list[list[_Round]]) -> None:
    for history in swiss_39x6:
        for rnd in history:
            _assert_everyone_once(rnd.players, rnd.pairing)


def test_dropped_player_is_not_paired_and_late_joiner_is(swiss_39x6: list[list[_Round]]) -> None:
    for history in swiss_39x6:
        placed = [{i for t in rnd.pairing.tables for i in t} | set(rnd.pairing.byes) for rnd in history]
        assert all("p5" in ids for ids in placed[:2]) and not any("p5" in ids for ids in placed[2:])
        assert not any("late" in ids for ids in placed[:2]) and all("late" in ids for ids in placed[2:])


def test_no_rematches_in_a_simulated_swiss(swiss_39x6: list[list[_Round]]) -> None:
    for history in swiss_39x6:
        assert sum(_rematches(rnd.players, rnd.pairing) for rnd in history) == 0


def test_odd_field_gets_exactly_one_bye_and_even_field_none(swiss_39x6: list[list[_Round]]) -> None:
    for history in swiss_39x6:
        for rnd in history:
            assert len(rnd.pairing.byes) == len(rnd.players) % 2


def test_bye_at_most_once_per_player(swiss_39x6: list[list[_Round]]) -> None:
    for history in swiss_39x6:
        byes = Counter(b for rnd in history for b in rnd.pairing.byes)
        assert byes and max(byes.values()) == 1


def test_bye_goes_to_a_lowest_ranked_player_without_one(swiss_39x6: list[list[_Round]]) -> None:
    for history in swiss_39x6:
        for rnd in history:
            if not rnd.pairing.byes:
                continue
            by_id = {p.id: p for p in rnd.players}
            bye = by_id[rnd.pairing.byes[0]]
            assert not bye.had_bye
            assert bye.points == min(p.points for p in rnd.players if not p.had_bye)


def test_small_odd_field_gives_three_different_byes_and_no_rematch() -> None:
    history = _simulate(7, 3, seed=11)
    for rnd in history:
        _assert_everyone_once(rnd.players, rnd.pairing)
        assert _rematches(rnd.players, rnd.pairing) == 0
    byes = [b for rnd in history for b in rnd.pairing.byes]
    assert len(byes) == 3 and len(set(byes)) == 3


def test_swiss_pairing_is_deterministic() -> None:
    players = _simulate(21, 3, seed=5)[-1].players
    assert swiss_pairing(players, 3) == swiss_pairing(list(reversed(players)), 3)


def test_time_budget_is_passed_to_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[pairing_core.CanonicalRequest] = []
    real = pairing_core.pair_canonical

    def spy(request: pairing_core.CanonicalRequest) -> object:
        seen.append(request)
        return real(request)

    monkeypatch.setattr(pairing_core, "pair_canonical", spy)
    n = pairing_mod.CAISSIFY_FIRST_MAX_PLAYERS + 2  # above it pairing-core is asked first
    # (round 2: a round 1 is Dutch's initial pairing, made without a library)
    players = [SwissPlayer(f"p{i}", 1500 - i, i % 2, frozenset({f"p{i + 1 if i % 2 else i - 1}"}), False, i)
               for i in range(1, n + 1)]
    swiss_pairing(players, 2, time_budget=3.5)
    assert seen[0].budgets.wall_clock_seconds == 3.5
    assert seen[0].ruleset == pairing_mod.RULESET
    assert all(p.color_hist == "" and p.float_hist == "" for p in seen[0].players)  # minimal inputs


def _fail_pairing_core(monkeypatch: pytest.MonkeyPatch) -> None:
    def timeout(request: pairing_core.CanonicalRequest) -> object:
        raise pairing_core.EngineTimeoutError("budget spent")

    monkeypatch.setattr(pairing_core, "pair_canonical", timeout)


def test_engine_failure_falls_back_to_caissify(monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_pairing_core(monkeypatch)
    calls: list[str] = []
    real = caissify_pairings.generate_pairings

    def spy(system: str, *args: object, **kwargs: object) -> list[dict[str, object]]:
        calls.append(system)
        return real(system, *args, **kwargs)

    monkeypatch.setattr(caissify_pairings, "generate_pairings", spy)
    history = _simulate(15, 4, seed=3, drop_after=1, late_join=2)
    assert calls == ["dutch"] * 3  # rounds 2-4: round 1 is Dutch's initial pairing, made without a library
    for rnd in history:
        _assert_everyone_once(rnd.players, rnd.pairing)
        assert _rematches(rnd.players, rnd.pairing) == 0
    assert max(Counter(b for rnd in history for b in rnd.pairing.byes).values()) == 1


def test_matching_fallback_when_both_libraries_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_pairing_core(monkeypatch)
    monkeypatch.setattr(caissify_pairings, "generate_pairings", lambda *args, **kwargs: [])
    history = _simulate(15, 4, seed=3, drop_after=1, late_join=2)
    for rnd in history:
        _assert_everyone_once(rnd.players, rnd.pairing)
        assert _rematches(rnd.players, rnd.pairing) == 0
    assert max(Counter(b for rnd in history for b in rnd.pairing.byes).values()) == 1


def test_matching_fallback_bye_goes_to_lowest_ranked_without_one(monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_pairing_core(monkeypatch)
    players = [SwissPlayer(f"p{i}", 2000 - i, points, frozenset(), had_bye, i)
               for i, (points, had_bye) in enumerate([(2, False), (1, False), (1, False), (0, False), (0, True)], 1)]
    pairing = swiss_pairing(players, 3)
    assert pairing.byes == ("p4",)
    assert pairing.tables[0] == ("p1", "p2")  # the top board pairs the leaders


def test_unavoidable_rematch_still_pairs_everyone_with_fewest_rematches() -> None:
    # Four players who have all met: no legal Dutch pairing; caissify hands out four byes, which is rejected.
    ids = ["a", "b", "c", "d"]
    players = [SwissPlayer(i, 1500, 1.5, frozenset(set(ids) - {i}), False, n) for n, i in enumerate(ids, 1)]
    pairing = swiss_pairing(players, 4)
    _assert_everyone_once(players, pairing)
    assert pairing.byes == ()
    # a, b, c, d all met, and c, d also met e and f: c–d must meet again, but only they.
    met = {frozenset(pair) for pair in itertools.combinations("abcd", 2)}
    met |= {frozenset(pair) for pair in ("ef", "ce", "cf", "de", "df")}
    players = [SwissPlayer(i, 1500, 2, frozenset(o for o in "abcdef" if frozenset((i, o)) in met), False, n)
               for n, i in enumerate("abcdef", 1)]
    pairing = swiss_pairing(players, 5)
    _assert_everyone_once(players, pairing)
    assert _rematches(players, pairing) == _min_rematches(players) == 1


def test_opponents_who_dropped_are_ignored() -> None:
    players = [SwissPlayer("a", 1500, 1, frozenset({"gone"}), False, 1),
               SwissPlayer("b", 1400, 0, frozenset({"gone2"}), False, 2)]
    assert swiss_pairing(players, 2) == Pairing(tables=(("a", "b"),))


def test_duplicate_ids_are_rejected() -> None:
    player = SwissPlayer("a", 1500, 0, frozenset(), False, 1)
    with pytest.raises(ValueError, match="duplicate"):
        swiss_pairing([player, player], 1)


@pytest.mark.parametrize(("n", "rounds"), [(0, 1), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4),
                                           (39, 6), (64, 6), (65, 7)])
def test_swiss_rounds_recommended_is_ceil_log2(n: int, rounds: int) -> None:
    assert swiss_rounds_recommended(n) == rounds


# --- round robin --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 5, 6, 9, 10])
@pytest.mark.parametrize("double", [False, True])
def test_round_robin_every_pair_meets_once_per_cycle(n: int, double: bool) -> None:
    ids = [f"s{i}" for i in range(n)]
    schedule = round_robin(ids, double=double)
    cycles = 2 if double else 1
    assert len(schedule) == cycles * (n - 1 + n % 2)
    games = Counter(frozenset(t) for p in schedule for t in p.tables)
    assert set(games) == {frozenset(pair) for pair in itertools.combinations(ids, 2)}
    assert set(games.values()) == {cycles}
    for p in schedule:
        _assert_everyone_once([SwissPlayer(i, 0, 0, frozenset(), False, 1) for i in ids], p)


@pytest.mark.parametrize("n", [3, 7, 9])
def test_round_robin_odd_field_one_bye_per_player_per_cycle(n: int) -> None:
    ids = [f"s{i}" for i in range(n)]
    for double in (False, True):
        schedule = round_robin(ids, double=double)
        assert all(len(p.byes) == 1 for p in schedule)
        assert Counter(b for p in schedule for b in p.byes) == Counter({i: 2 if double else 1 for i in ids})


@pytest.mark.parametrize("n", [4, 7, 10])
def test_round_robin_seat_order_is_balanced(n: int) -> None:
    ids = [f"s{i}" for i in range(n)]
    single = round_robin(ids)
    first = Counter(t[0] for p in single for t in p.tables)
    games = Counter(i for p in single for t in p.tables for i in t)
    assert all(abs(first[i] - games[i] / 2) <= 1 for i in ids)
    double = round_robin(ids, double=True)
    first = Counter(t[0] for p in double for t in p.tables)
    assert all(first[i] == games[i] for i in ids)  # the second cycle swaps every seat


def test_round_robin_tiny_fields() -> None:
    assert round_robin([]) == []
    assert round_robin(["solo"]) == [Pairing(tables=(), byes=("solo",))]
