"""A stored Flying Blades state that is damaged is refused with a `StateError` naming the field; a sound one reads
back exactly. Playout states round-trip at every step, a table of damaged rows is refused, and a hypothesis
property replaces one leaf of a valid state with any JSON value: read back exactly, or refused, never a crash."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import StateError
from tests.rules import damaged_rows
from tests.rules.damaged_rows import Faults, Row, edit, stored
from tests.rules.fb_helpers import G, random_action


def playout_states(players: int, seed: str, options: dict[str, Any] | None = None) -> list[Any]:
    r = random.Random(seed)
    s = G.new(players, options or {}, seed)
    out = [s]
    while s.phase != "over":
        seat = min(G.to_move(s))
        action = "resign" if r.random() < 0.01 else random_action(s, seat, r)
        s, _ = G.apply(s, seat, action)
        out.append(s)
    return out


GAMES = {n: playout_states(n, f"damaged-{n}") for n in (2, 3, 4, 5)}
OPEN = playout_states(3, "open", {"cards": "open", "turn_minutes": 5})
NONE = playout_states(2, "none", {"cards": "none"})
SAMPLES = [stored(G, s) for states in (*GAMES.values(), OPEN, NONE) for s in states[:: max(1, len(states) // 6)]]
JSON_VALUES = damaged_rows.json_values(["", "r", "pass", "bomb", "play", "over", "hidden"], top=40)


# --- sound rows read back exactly -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_of_a_seeded_playout_round_trips(players: int) -> None:
    damaged_rows.check_round_trips(G, GAMES[players])


def test_states_with_open_cards_and_without_cards_round_trip() -> None:
    for s in (*OPEN, *NONE):
        assert G.from_json(stored(G, s)) == s


@pytest.mark.parametrize("players", [2, 3])
def test_a_game_won_by_a_resignation_during_the_draft_round_trips(players: int) -> None:
    s = G.new(players, {}, "resigned")
    for seat in range(players - 1):
        s, _ = G.apply(s, seat, "resign")
    assert s.phase == "over" and not all(s.drafted)
    assert G.from_json(stored(G, s)) == s


# --- damaged rows are refused, naming the field -----------------------------------------------------------------


def mid_game() -> Row:
    """A 3-player row in play, with a last action that removed ninjas."""
    for s in GAMES[3]:
        if s.phase == "play" and s.last is not None and s.last.removed:
            return stored(G, s)
    raise AssertionError("no such state")


def draft() -> Row:
    return stored(G, GAMES[3][0])


def over() -> Row:
    return stored(G, GAMES[3][-1])


def put(path: str, value: Any, base: Callable[[], Row] = mid_game) -> Callable[[], Row]:
    """Set ``path`` (``a.b.0``) of the base row (the mid-game one unless named) to ``value``."""
    return damaged_rows.put(path, value, base)


def drop(key: str) -> Callable[[], Row]:
    return edit(mid_game, lambda row: row.pop(key))


DAMAGED: Faults = {
    # fault: (the damaged row, the field the message names)
    **damaged_rows.shape_faults(mid_game),
    "a missing board": (drop("board"), "board"),
    "a missing last action": (drop("last"), "last"),
    "an unknown key": (edit(mid_game, lambda row: row.update(extra=1)), "unknown keys"),
    "an unknown version": (put("version", 2), "version"),
    "a player count as text": (put("players", "3"), "players"),
    "a player count as a boolean": (put("players", True), "players"),
    "six players": (put("players", 6), "players"),
    "a huge player count": (put("players", 10**12), "players"),
    "a seed that is a number": (put("seed", 1234), "seed"),
    "an over-long seed": (put("seed", "x" * 100_000), "seed"),
    "options that are a list": (put("options", ["hidden", 0]), "options"),
    "an options object without the cards": (put("options", {"turn_minutes": 0}), "options.cards"),
    "an unknown cards option": (put("options.cards", "secret"), "options.cards"),
    "negative turn minutes": (put("options.turn_minutes", -1), "options.turn_minutes"),
    "turn minutes beyond a week": (put("options.turn_minutes", 10**12), "options.turn_minutes"),
    "turn minutes as a float": (put("options.turn_minutes", 5.0), "options.turn_minutes"),
    "a board with a row missing": (edit(mid_game, lambda row: row["board"].pop()), "board"),
    "a board row too short": (put("board.0", "r.y"), "board[0]"),
    "a board row as a list of cells": (edit(mid_game, lambda row: row["board"].__setitem__(0, list(row["board"][0]))),
                                       "board[0]"),
    "an unknown piece on the board": (edit(mid_game, lambda row: row["board"].__setitem__(0, "z" * 9)), "board"),
    "a piece of a colour not in the game": (put("board.0", "k" * 9), "board"),
    "an unknown phase": (put("phase", "setup"), "phase"),
    "a phase that is null": (put("phase", None), "phase"),
    "a seat to move out of range": (put("current", 3), "current"),
    "a negative seat to move": (put("current", -1), "current"),
    "a seat to move as a float": (put("current", 1.0), "current"),
    "hands for too few seats": (edit(mid_game, lambda row: row["hands"].pop()), "hands"),
    "an unknown card in a hand": (put("hands.0", ["joker"]), "hands[0][0]"),
    "an unsorted hand": (put("hands.0", ["vanish", "bomb"]), "hands[0]"),
    "a hand longer than a deal": (put("hands.0", ["bomb"] * 11), "hands[0]"),
    "more cards of a kind than the deck holds": (put("hands", [["bomb"] * 2] * 3), "hands"),
    "a hand that is null": (put("hands.1", None), "hands[1]"),
    "a drafted flag that is a number": (put("drafted.0", 1), "drafted[0]"),
    "drafted flags for too many seats": (put("drafted", [True] * 4), "drafted"),
    "a negative capture counter": (put("captured.0", -1), "captured[0]"),
    "a huge capture counter": (put("captured.0", 10**12), "captured[0]"),
    "losses for the wrong number of colours": (put("lost", [0, 0]), "lost"),
    "losses that disagree with the board": (put("lost", [0, 0, 0]), "lost["),
    "a pass flag that is text": (put("passed.0", "yes"), "passed[0]"),
    "resign flags for too few seats": (put("resigned", [False]), "resigned"),
    "a negative turn counter": (put("turn", -1), "turn"),
    "a turn counter past what storage holds": (put("turn", 2**63), "turn"),
    "a turn counter as text": (put("turn", "5"), "turn"),
    "a last action that is a list": (put("last", [0, "pass"]), "last"),
    "a last action without its seat": (edit(mid_game, lambda row: row["last"].pop("seat")), "last.seat"),
    "a last action by a seat out of range": (put("last.seat", 7), "last.seat"),
    "a last action from a cell off the board": (put("last.from", 10**6), "last.from"),
    "a last action with an over-long text": (put("last.action", "x" * 10_000), "last.action"),
    "removed cells out of order": (edit(mid_game, lambda row: row["last"].update(removed=[5, 3])), "last.removed"),
    "an unknown outcome reason": (put("reason", "because", over), "reason"),
    "a finished game without a reason": (put("reason", "", over), "reason"),
    "a running game with a reason": (put("reason", "fb.outcome.all_passed"), "reason"),
    "a seat to move that has resigned": (edit(mid_game, lambda row: row["resigned"].__setitem__(row["current"], True)),
                                         "current"),
    "a draft with everyone drafted": (put("drafted", [True] * 3, draft), "drafted"),
}


@pytest.mark.parametrize("fault", DAMAGED)
def test_a_damaged_row_is_refused_naming_the_field(fault: str) -> None:
    damaged_rows.check_refused(G, *DAMAGED[fault])


def test_a_row_with_a_huge_counter_is_refused_without_building_anything() -> None:
    row = mid_game()
    row["captured"] = [10**100] * 3
    with pytest.raises(StateError, match="captured"):
        G.from_json(row)


def test_state_errors_are_value_errors_for_callers_that_catch_those() -> None:
    with pytest.raises(ValueError, match="players"):
        G.from_json({**mid_game(), "players": 1})


# --- any one damaged leaf: read back exactly, or refused --------------------------------------------------------


@settings(deadline=None, max_examples=1000)
@given(data=st.data())
def test_one_damaged_leaf_is_read_back_exactly_or_refused(data: st.DataObject) -> None:
    row, path, new = damaged_rows.draw_damaged_leaf(data, SAMPLES, JSON_VALUES)
    damaged_rows.check_damaged_leaf(G, row, path, new, partial(damaged_rows.exercise, G))
