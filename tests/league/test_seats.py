"""Who sits first (seat 0 moves first): chess's colour allocation, FIDE C.04.3, for every two-player format."""

from __future__ import annotations

import random
from collections import Counter

from league import seats as sa
from league.model import Entrant
from league.settings import Settings
from league.tournament import Tournament

FIRST, SECOND = 0, 1


def _rank(order: list[str]):
    return lambda p: (0.0, order.index(p))


# --- the preference --------------------------------------------------------------------------------------------


def test_no_game_yet_means_no_preference():
    assert sa.preference(()).strength == sa.NONE


def test_first_twice_running_is_an_absolute_preference_for_second():
    pref = sa.preference((SECOND, FIRST, FIRST))
    assert (pref.seat, pref.strength) == (SECOND, sa.ABSOLUTE)


def test_counts_two_apart_is_an_absolute_preference_for_the_seat_had_less():
    pref = sa.preference((FIRST, FIRST, SECOND, FIRST))  # not twice running, but 3 firsts to 1
    assert (pref.seat, pref.strength) == (SECOND, sa.ABSOLUTE)
    pref = sa.preference((SECOND, SECOND, FIRST, SECOND))
    assert (pref.seat, pref.strength) == (FIRST, sa.ABSOLUTE)


def test_counts_one_apart_is_a_strong_preference_for_the_seat_had_less():
    pref = sa.preference((FIRST, SECOND, FIRST))
    assert (pref.seat, pref.strength) == (SECOND, sa.STRONG)


def test_level_counts_is_a_mild_preference_to_alternate_from_the_last_game():
    pref = sa.preference((FIRST, SECOND))
    assert (pref.seat, pref.strength) == (FIRST, sa.MILD)


# --- seating a table -----------------------------------------------------------------------------------------------


def test_opposite_preferences_are_both_granted_even_against_rank():
    history = {"top": (FIRST,), "low": (SECOND,)}
    assert sa.seat_table("top", "low", history, initial=FIRST) == ("low", "top")


def test_the_stronger_preference_wins_over_the_higher_rank():
    history = {"top": (SECOND, FIRST), "low": (SECOND, SECOND)}  # mild for second v absolute for first
    assert sa.seat_table("top", "low", history, initial=FIRST) == ("low", "top")
    history = {"top": (FIRST, SECOND, FIRST), "low": (FIRST, SECOND)}  # strong for second v mild for first
    assert sa.seat_table("top", "low", history, initial=FIRST)[1] == "top"


def test_equal_preferences_alternate_from_the_last_game_where_the_two_sat_differently():
    # Both want first (mild); in their last game that differed, top sat first and low second: now the reverse.
    history = {"top": (SECOND, FIRST, FIRST, SECOND), "low": (FIRST, SECOND, FIRST, SECOND)}
    assert sa.seat_table("top", "low", history, initial=FIRST) == ("low", "top")


def test_identical_histories_give_the_higher_ranked_player_their_preference():
    history = {"top": (FIRST, SECOND), "low": (FIRST, SECOND)}
    assert sa.seat_table("top", "low", history, initial=SECOND) == ("top", "low")


def test_round_one_follows_the_coin_for_the_top_board_and_alternates_down_the_boards():
    tables = [("a", "b"), ("c", "d"), ("e", "f"), ("g", "h")]
    order = list("abcdefgh")
    for coin in (FIRST, SECOND):
        seated = sa.allocate(tables, {}, _rank(order), initial=coin)
        higher_first = [t[0] in "aceg" for t in seated]
        assert higher_first == [coin == FIRST, coin != FIRST] * 2


def test_the_coin_is_seeded_and_both_sides_come_up():
    assert sa.coin_flip("s1") == sa.coin_flip("s1")
    assert {sa.coin_flip(f"seed-{i}") for i in range(20)} == {0, 1}


def test_untangle_swaps_opponents_when_both_need_the_same_seat_and_no_rematch_follows():
    history = {"a": (FIRST, FIRST), "b": (FIRST, FIRST), "c": (SECOND, SECOND), "d": (SECOND, SECOND)}
    tables = [("a", "b"), ("c", "d")]
    fixed = sa.untangle(tables, history, {})
    assert not any(sa.clash(x, y, history) for x, y in fixed)
    assert sa.untangle(tables, history, {"a": {"c", "d"}, "b": {"c", "d"}}) == tuple(tables)  # only rematches left


# --- the promises over 10,000 simulated rounds ---------------------------------------------------------------------


def _swiss_round(rng: random.Random, ids: list[str], points: dict[str, float], met: dict[str, set[str]]):
    """A quick score-group pairing (ties shuffled), avoiding rematches where it can; the real libraries pair
    by the same score groups."""
    order = sorted(ids, key=lambda p: (-points[p], rng.random()))
    bye = None
    if len(order) % 2:
        bye = order.pop()
    tables: list[tuple[str, str]] = []
    left = list(order)
    while left:
        a = left.pop(0)
        b = next((q for q in left if q not in met[a]), left[0])
        left.remove(b)
        tables.append((a, b))
    return tables, bye


def test_seats_keep_their_promises_over_ten_thousand_simulated_rounds():
    rng = random.Random(22)
    rounds = clashes_left = 0
    while rounds < 10_000:
        n = rng.randint(2, 40)
        ids = [f"p{i}" for i in range(n)]
        points = dict.fromkeys(ids, 0.0)
        met: dict[str, set[str]] = {p: set() for p in ids}
        history: dict[str, tuple[int, ...]] = {}
        # Up to n/2 + 1 rounds: a longer Swiss is nearly a round robin, where a clash may have no way out (FIDE
        # exempts those too); tests below cover round robins.
        for _ in range(rng.randint(1, min(12, n // 2 + 1))):
            tables, _bye = _swiss_round(rng, ids, points, met)
            tables = list(sa.untangle(tables, history, met))
            clashes_left += sum(sa.clash(a, b, history) for a, b in tables)
            order = sorted(ids, key=lambda p: (-points[p], p))
            before = {p: sa.preference(history.get(p, ())) for p in ids}
            seated = sa.allocate(tables, history, lambda p, o=order: (0.0, o.index(p)), initial=rng.randint(0, 1))
            for first, second in seated:
                pf, ps = before[first], before[second]
                if pf.seat is not None and ps.seat is not None and pf.seat != ps.seat:
                    assert (pf.seat, ps.seat) == (FIRST, SECOND), "opposite preferences must both be granted"
                history[first] = (*history.get(first, ()), FIRST)
                history[second] = (*history.get(second, ()), SECOND)
                met[first].add(second)
                met[second].add(first)
                result = rng.choice((1.0, 0.5, 0.0))
                points[first] += result
                points[second] += 1 - result
            for p, seats in history.items():
                counts = Counter(seats)
                assert abs(counts[FIRST] - counts[SECOND]) <= 2, (p, seats)
                assert seats[-3:] != (FIRST, FIRST, FIRST), (p, seats)
            rounds += 1
    assert clashes_left == 0


# --- in a tournament ------------------------------------------------------------------------------------------------


def _played(fmt: str, n: int, seed: str = "s2") -> Tournament:
    t = Tournament("t", Settings(game="flying_blades", format=fmt, rounds=3 if fmt == "swiss" else 0), seed)
    for i in range(1, n + 1):
        t = t.register(Entrant(f"bot-{i}", f"Bot {i}", rating=2000 - 10 * i))
    t = t.start()
    while not t.finished:
        t = t.pair_next()
        rnd = t.current
        assert rnd is not None
        for i, table in enumerate(rnd.tables):
            if not table.decided:
                t = t.record(rnd.number, i, ((table.seats[0],), (table.seats[1],)))  # seat 0 always wins
    return t


def test_no_swiss_player_sits_first_in_every_round_when_seat_zero_always_wins():
    t = _played("swiss", 8)
    history = sa.histories(t.rounds)
    assert not [p for p, h in history.items() if h == (FIRST,) * 3]
    assert all(max(Counter(h).values()) <= 2 for h in history.values())


def test_the_higher_ranked_player_no_longer_always_sits_first_in_elimination():
    t = _played("single-elimination", 8)
    seeds = {e.id: i for i, e in enumerate(t.seeded())}
    higher_first = [seeds[tb.seats[0]] < seeds[tb.seats[1]] for r in t.rounds for tb in r.tables]
    assert True in higher_first and False in higher_first


def test_round_robin_seats_keep_the_promises_for_every_field_size():
    for n in range(3, 15):
        t = _played("round-robin", n)
        for p, h in sa.histories(t.rounds).items():
            counts = Counter(h)
            assert abs(counts[FIRST] - counts[SECOND]) <= 2, (n, p, h)
            assert all(h[i:i + 3] != (FIRST,) * 3 for i in range(len(h) - 2)), (n, p, h)


def test_the_coin_is_recorded_with_every_two_player_round():
    t = _played("swiss", 6, seed="coin")
    assert all(r.extra["first_seat_coin"] == sa.coin_flip("coin") for r in t.rounds)
