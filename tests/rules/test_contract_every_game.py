"""The rules contract (DESIGN.md), checked at every step of seeded games of every registered game.

Parametrised from ``rules.GAMES``: a newly registered game gets this test for free. Each step plays, for a seat
that may move, a random listed legal action, the bot's move or (now and then) the engine's timeout, and checks
before it that every listed action is accepted, that ``apply`` never mutates its input, that the state survives
the engine's save and load (orjson text, as storage/sqlite.py writes it), that every view serialises, and that
refused actions raise the rules' own error and change nothing. The game must end within a step cap with an
outcome that fits the player count.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
from dataclasses import dataclass
from typing import Any

import orjson
import pytest

import rules
from rules.base import Outcome, RulesError

SEED = "contract"
MIN_STEPS = 200  # seeded games are played at each player count until this many steps (short games: several)
MAX_GAMES = 6
LEGAL_SAMPLE = 8  # listed actions tried per step when the list is longer
TIMEOUT_SHARE = 0.03  # how often the engine's timeout is applied instead of a move
LEGAL_SHARE = 0.5  # how often a random listed action is played instead of the bot's move (where listed)
CROWD = 10  # past this many seats (Floor Plan's big tables) most seats are away and time out, and the whole-state
ACTIVE_IN_CROWD = 1  # checks run on a sample of steps: play, not checks, must bound the running time
GARBAGE = ("zzz", "", "   ", "pass pass pass pass pass pass pass pass")


@dataclass
class Stats:
    games: int = 0
    steps: int = 0
    round_trips: int = 0
    legal_checked: int = 0
    refusals: int = 0


def player_counts(game: Any) -> list[int]:
    """The fewest, the most, and one in between (the smallest other count: bot moves cost the most)."""
    lo, hi = game.min_players, game.max_players
    return sorted({lo, min(lo + 1, hi), hi})


def step_cap(players: int) -> int:
    return 2000 + 60 * players


def cases() -> list[Any]:
    return [pytest.param(gid, players, id=f"{gid}-{players}p")
            for gid, game in sorted(rules.GAMES.items()) for players in player_counts(game)]


def saved(game: Any, s: Any) -> bytes:
    """The state as the engine stores it (storage/sqlite.py writes ``to_json`` through orjson)."""
    return orjson.dumps(game.to_json(s), option=orjson.OPT_SORT_KEYS)


def check_round_trip(game: Any, s: Any, d: dict[str, Any], text: bytes) -> None:
    """Saved and loaded through the engine's path, and through the standard library's JSON, the state is equal."""
    assert json.loads(json.dumps(d, allow_nan=False)) == orjson.loads(text), "json and orjson disagree"
    back = game.from_json(orjson.loads(text))
    assert saved(game, back) == text
    assert back == s


def check_views(game: Any, s: Any, seats: list[int]) -> None:
    for seat in (*seats, None):
        json.dumps(game.view(s, seat), allow_nan=False)


def check_legal(game: Any, s: Any, seat: int, legal: list[str], r: random.Random) -> int:
    """Every listed action (or a seeded sample of a long list) is accepted, and the list is canonical."""
    assert legal == sorted(legal), "legal_actions is not sorted"
    assert not {a.split(" ", 1)[0] for a in legal} & game.ENGINE_VERBS, "an engine verb is listed"
    tried = legal if len(legal) <= LEGAL_SAMPLE else r.sample(legal, LEGAL_SAMPLE)
    for action in tried:
        try:
            game.apply(s, seat, action)
        except RulesError as e:
            raise AssertionError(f"listed action {action!r} of seat {seat} refused: {e}") from e
    return len(tried)


def refused(game: Any, s: Any, seat: int, action: str) -> None:
    """The action raises the rules' own error, never a crash (the step's end checks that nothing changed)."""
    try:
        game.apply(s, seat, action)
    except RulesError:
        return
    raise AssertionError(f"seat {seat} playing {action!r} was accepted")


def check_refusals(game: Any, s: Any, seat: int, players: int, some: str, r: random.Random) -> int:
    """Garbage, seats out of range, and a mover's action (``some``) played by a seat that may not move are
    refused."""
    movers = game.to_move(s)
    idle = [i for i in range(players) if i not in movers]
    tries: list[tuple[int, str]] = [(seat, r.choice(GARBAGE)), (players, some), (-1, some)]
    if idle:
        tries.append((r.choice(idle), some))
    for who, action in tries:
        refused(game, s, who, action)
    # A mover's action played by another mover may be legal for it too (simultaneous play, a shared hand); if it
    # is refused, it must be refused cleanly.
    others = sorted(movers - {seat})
    if others:
        with contextlib.suppress(RulesError):
            game.apply(s, r.choice(others), some)
    return len(tries)


def check_outcome(out: Outcome, players: int) -> None:
    seats = [i for group in out.ranking for i in group]
    assert sorted(seats) == list(range(players)), f"the ranking does not hold every seat once: {out.ranking}"
    assert all(out.ranking), "an empty group in the ranking"
    assert len(set(out.winners)) == len(out.winners) and set(out.winners) <= set(range(players))
    if out.winners:
        assert set(out.winners) == set(out.ranking[0]), "the winners are not the ranking's first group"
    assert len(out.scores) == players and all(math.isfinite(x) for x in out.scores)
    assert isinstance(out.reason, str) and out.reason
    json.dumps(out.to_json(), allow_nan=False)


class Driver:
    """One seeded game and its counters."""

    def __init__(self, gid: str, players: int) -> None:
        self.game, self.players = rules.GAMES[gid], players
        self.r = random.Random(f"{gid}/{players}/{SEED}")
        self.stats = Stats()
        self.crowd = players > CROWD

    def choose(self, s: Any, seat: int, legal: list[str] | None) -> str:
        x = self.r.random()
        if x < TIMEOUT_SHARE or (self.crowd and seat >= ACTIVE_IN_CROWD):
            return self.game.default_action(s, seat)
        if legal and x < TIMEOUT_SHARE + LEGAL_SHARE:
            return self.r.choice(legal)
        return self.game.bot_action(s, seat)

    def whole_state_checks(self, s: Any, d: dict[str, Any], text: bytes, seat: int, step: int) -> None:
        """The save-and-load round trip and every view (a sample of seats and steps at a crowded table)."""
        seats = list(range(self.players))
        if self.crowd:
            if seat >= ACTIVE_IN_CROWD and step % (self.players // CROWD):
                return
            seats = sorted({seat, *self.r.sample(seats, 3)})
        check_round_trip(self.game, s, d, text)
        check_views(self.game, s, seats)
        self.stats.round_trips += 1

    def step(self, s: Any, step: int) -> Any:
        game, r = self.game, self.r
        d = game.to_json(s)
        text = orjson.dumps(d, option=orjson.OPT_SORT_KEYS)
        seat = r.choice(sorted(game.to_move(s)))
        self.whole_state_checks(s, d, text, seat, step)
        legal = game.legal_actions(s, seat)
        if legal is not None:
            self.stats.legal_checked += check_legal(game, s, seat, legal, r)
        action = self.choose(s, seat, legal)
        some = r.choice(legal) if legal else action  # a mover's action, for other seats to try
        self.stats.refusals += check_refusals(game, s, seat, self.players, some, r)
        try:
            after, _ = game.apply(s, seat, action)
        except RulesError as e:
            raise AssertionError(f"step {step}: seat {seat} playing {action!r} refused: {e}") from e
        # One comparison per step covers every apply above: each was given this state (to_json is costly).
        assert saved(game, s) == text, f"step {step}: an apply mutated its input (seat {seat}, {action!r})"
        return after

    def finish(self, s: Any) -> None:
        game, players = self.game, self.players
        out = game.outcome(s)
        assert out is not None
        check_outcome(out, players)
        assert game.to_move(s) == frozenset(), "seats still move after the outcome"
        text = saved(game, s)
        check_round_trip(game, s, game.to_json(s), text)
        check_views(game, s, list(range(players)))
        for seat in range(players):
            refused(game, s, seat, "zzz")
            assert game.legal_actions(s, seat) in ([], None)
        assert saved(game, s) == text

    def play(self, seed: str) -> None:
        game = self.game
        s = game.new(self.players, {}, seed)
        check_views(game, s, list(range(self.players)))
        for step in range(step_cap(self.players)):
            if game.outcome(s) is not None:
                self.finish(s)
                self.stats.games += 1
                self.stats.steps += step
                return
            assert game.to_move(s), "nobody may move in a running game"
            s = self.step(s, step)
        raise AssertionError(f"{seed}: no outcome after {step_cap(self.players)} steps")

    def run(self) -> Stats:
        for k in range(MAX_GAMES):
            if self.stats.steps >= MIN_STEPS:
                break
            self.play(f"{SEED}-{k}")
        return self.stats


def run_contract(gid: str, players: int) -> Stats:
    return Driver(gid, players).run()


@pytest.mark.parametrize(("gid", "players"), cases())
def test_every_game_keeps_the_rules_contract_at_every_step(gid: str, players: int) -> None:
    stats = run_contract(gid, players)
    assert stats.steps > 0 and stats.round_trips > 0
