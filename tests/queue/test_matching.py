"""The queue's matching (league/matchmaking.py): who is seated together, as properties over any queue."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from league.matchmaking import ANY_TIME, Band, Entry, accepts, match, times_compatible

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)
BAND = Band(base=100, per_minute=50, cap=600)

entries_st = st.lists(
    st.builds(
        Entry,
        user_id=st.integers(1, 12),  # few ids: the same member queued for several games
        game=st.sampled_from(["flying_blades", "floating_world"]),
        players=st.integers(2, 4),
        time=st.sampled_from([ANY_TIME, "live", "3d", "bank"]),
        rating=st.floats(1000, 2000, allow_nan=False),
        joined_at=st.integers(0, 30 * 60).map(lambda s: NOW - timedelta(seconds=s)),
        bots_ok=st.booleans(),
    ),
    max_size=25,
)
bot_wait_st = st.one_of(st.none(), st.integers(0, 20).map(lambda m: timedelta(minutes=m)))


def entry(user: int, rating: float = 1500, *, waited: float = 0, players: int = 2, time: str = ANY_TIME,
          game: str = "flying_blades", bots_ok: bool = False) -> Entry:
    return Entry(user, game, players, time, rating, NOW - timedelta(minutes=waited), bots_ok)


@settings(max_examples=150, deadline=None)
@given(entries_st, bot_wait_st)
def test_a_group_never_mixes_games_sizes_or_incompatible_time_controls(entries: list[Entry],
                                                                       bot_wait: timedelta | None) -> None:
    for group in match(entries, NOW, BAND, bot_wait):
        assert len({(e.game, e.players) for e in group.entries}) == 1
        assert all(times_compatible(a.time, b.time) for a, b in combinations(group.entries, 2))
        assert len(group.entries) + group.bots == group.players


@settings(max_examples=150, deadline=None)
@given(entries_st, bot_wait_st)
def test_no_member_is_seated_twice_even_when_queued_for_several_games(entries: list[Entry],
                                                                     bot_wait: timedelta | None) -> None:
    seated = [e.user_id for g in match(entries, NOW, BAND, bot_wait) for e in g.entries]
    assert len(seated) == len(set(seated))


@settings(max_examples=150, deadline=None)
@given(entries_st, bot_wait_st)
def test_every_pair_in_a_group_is_within_both_members_rating_bands(entries: list[Entry],
                                                                  bot_wait: timedelta | None) -> None:
    for group in match(entries, NOW, BAND, bot_wait):
        for a, b in combinations(group.entries, 2):
            allowed = min(BAND.width(NOW - a.joined_at), BAND.width(NOW - b.joined_at))
            assert abs(a.rating - b.rating) <= allowed


@settings(max_examples=100, deadline=None)
@given(entries_st, bot_wait_st, st.randoms(use_true_random=False))
def test_matching_is_deterministic_whatever_order_the_queue_is_read_in(entries: list[Entry],
                                                                      bot_wait: timedelta | None,
                                                                      rnd: random.Random) -> None:
    shuffled = list(entries)
    rnd.shuffle(shuffled)
    key = {(e.user_id, e.game) for e in entries}
    if len(key) == len(entries):  # the store keeps one entry per member and game
        assert match(entries, NOW, BAND, bot_wait) == match(shuffled, NOW, BAND, bot_wait)


@settings(max_examples=100, deadline=None)
@given(entries_st)
def test_bots_fill_only_tables_of_members_who_said_bots_ok(entries: list[Entry]) -> None:
    for group in match(entries, NOW, BAND, timedelta(minutes=1)):
        if group.bots:
            assert all(e.bots_ok for e in group.entries)


def test_two_players_far_apart_wait_until_their_bands_have_widened() -> None:
    queue = [entry(1, 1500, waited=0), entry(2, 1800, waited=0)]
    assert match(queue, NOW, BAND) == []
    later = NOW + timedelta(minutes=4)  # each band: 100 + 4 × 50 = 300
    assert [tuple(e.user_id for e in g.entries) for g in match(queue, later, BAND)] == [(1, 2)]


def test_a_long_wait_does_not_drag_a_newcomer_outside_the_newcomers_band() -> None:
    old, new = entry(1, 1500, waited=60), entry(2, 1900, waited=0)
    assert not accepts(old, new, NOW, BAND)


def test_the_longest_waiting_player_is_seated_first_with_the_closest_rating() -> None:
    queue = [entry(3, 1540, waited=1), entry(1, 1500, waited=5), entry(2, 1590, waited=3)]
    (group,) = match(queue, NOW, BAND)
    assert [e.user_id for e in group.entries] == [1, 3]


def test_an_any_time_entry_plays_the_control_its_opponent_asked_for() -> None:
    (group,) = match([entry(1, time=ANY_TIME), entry(2, time="3d")], NOW, BAND)
    assert group.time == "3d"
    assert match([entry(1, time="live"), entry(2, time="3d")], NOW, BAND) == []


def test_bots_fill_a_table_after_the_servers_wait_and_not_before() -> None:
    queue = [entry(1, waited=4, players=3, bots_ok=True), entry(2, waited=1, players=3)]
    assert match(queue, NOW, BAND, timedelta(minutes=5)) == []
    (group,) = match(queue, NOW + timedelta(minutes=1), BAND, timedelta(minutes=5))
    assert [e.user_id for e in group.entries] == [1] and group.bots == 2
    assert match(queue, NOW + timedelta(hours=1), BAND, timedelta(0)) == []  # 0: never
