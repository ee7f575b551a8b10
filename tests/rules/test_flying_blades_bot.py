"""The AI seat: legal, deterministic, fast, and much stronger than random play; the timeout default."""

from __future__ import annotations

import random
import time

import pytest

from rules.flying_blades import State
from rules.flying_blades.bot import choose_keep
from rules.flying_blades.cards import PRICES
from rules.flying_blades.draft import keep_text
from tests.rules.fb_helpers import G, at, next_seat_to_act, random_action


def bot_game(players: int, seed: str, bot_seat: int, check_legal: bool = False) -> tuple[State, float]:
    """A game of the bot against random legal players; returns the end state and the bot's slowest move."""
    r = random.Random(seed)
    s = G.new(players, {}, seed)
    slowest = 0.0
    for _ in range(5000):
        if s.phase == "over":
            return s, slowest
        seat = next_seat_to_act(s)
        if seat == bot_seat:
            start = time.perf_counter()
            action = G.bot_action(s, seat)
            slowest = max(slowest, time.perf_counter() - start)
            if check_legal:
                assert action in G.legal_actions(s, seat)
        else:
            action = random_action(s, seat, r)
        s, _ = G.apply(s, seat, action)
    raise AssertionError("the game did not end")


def test_bot_beats_random_players_in_at_least_90_percent_of_three_player_games() -> None:
    wins = 0
    for game in range(50):
        bot_seat = game % 3
        s, _ = bot_game(3, f"bot-vs-random-{game}", bot_seat)
        wins += bot_seat in G.outcome(s).winners
    assert wins >= 45, f"the bot won {wins} of 50"


@pytest.mark.parametrize("players", [2, 4, 5])
def test_bot_beats_random_players_at_other_table_sizes(players: int) -> None:
    wins = 0
    for game in range(10):
        s, _ = bot_game(players, f"bot-{players}-{game}", game % players)
        wins += game % players in G.outcome(s).winners
    assert wins >= 7


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bot_actions_are_always_legal(players: int) -> None:
    for game in range(3):
        # bot_game checks every bot action against legal_actions; its speed is the benchmark's, not a test's
        s, _ = bot_game(players, f"bot-legal-{players}-{game}", game % players, check_legal=True)
        assert G.outcome(s) is not None


def test_bot_decides_on_a_full_temple_with_every_card() -> None:
    s = G.new(5, {"cards": "none"}, "full-temple")
    s = G.from_position(G.to_position(s).replace(
        "hands=-|-|-|-|-", "hands=bomb,circle,double,dragon,shuriken,triple,vanish|-|-|-|-"))
    action = G.bot_action(s, 0)  # its time is the benchmark's; here: it answers, legally
    assert action in G.legal_actions(s, 0)


def test_bot_is_deterministic_for_a_given_state() -> None:
    s = G.new(3, {"cards": "none"}, "determinism")
    assert len({G.bot_action(s, 0) for _ in range(3)}) == 1
    assert G.bot_action(G.from_json(G.to_json(s)), 0) == G.bot_action(s, 0)


def test_bot_draft_keeps_a_set_within_the_price_limit() -> None:
    for players in (2, 3, 4, 5):
        s = G.new(players, {}, f"bot-draft-{players}")
        for seat in range(players):
            action = G.bot_action(s, seat)
            assert action in G.legal_actions(s, seat)
            kept = action.removeprefix("keep ").split(",")
            assert sum(PRICES[c] for c in kept if c != "none") <= 10


def test_bot_takes_a_free_prey_rather_than_passing() -> None:
    s = at(3, 0, r="c3", y="c4", b="i9")
    assert G.bot_action(s, 0) == "attack c3 c4"


def test_bot_does_not_step_next_to_its_hunter_when_a_safe_capture_exists() -> None:
    s = at(3, 0, r="c3 g3", y="c4 g4", b="c5 a9")
    assert G.bot_action(s, 0) == "attack g3 g4"


def test_bot_uses_double_dragon_on_a_hunter_ninja() -> None:
    s = at(3, 0, r="e4 d5", b="e5", y="a9", extra="hands=dragon|-|-")
    assert G.bot_action(s, 0).startswith("dragon e5 from")


def test_bot_passes_to_end_a_game_it_wins() -> None:
    s = at(3, 0, r="a1 a2 a3", y="c3", b="e5", extra="passed=0,1,1")
    assert G.bot_action(s, 0) == "pass"


def test_bot_refuses_to_act_for_a_seat_not_to_move() -> None:
    with pytest.raises(Exception, match="turn"):
        G.bot_action(at(3, 0, r="a1"), 1)


def test_default_action_is_a_timeout_in_play_and_in_the_draft() -> None:
    assert G.default_action(at(3, 0, r="a1", y="a2"), 0) == "timeout"
    s = at(3, 0, r="a1", extra="phase=draft hands=bomb,bomb,circle,vanish|-|-")
    assert G.default_action(s, 0) == "timeout"


def test_the_bots_keep_is_a_sensible_listed_keep() -> None:
    s = at(3, 0, r="a1", extra="phase=draft hands=bomb,bomb,circle,vanish|-|-")
    keep = keep_text(choose_keep(s.hands[0], s.players))
    assert keep in G.legal_actions(s, 0) and keep != "keep none"
