"""A stored Flying Blades state that is damaged is refused with a `StateError` naming the field; a sound one reads
back exactly. Playout states round-trip at every step, a table of damaged rows is refused, and a hypothesis
property replaces one leaf of a valid state with any JSON value: read back exactly, or refused, never a crash."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import RulesError, StateError
from tests.rules.fb_helpers import G, random_action

Row = dict[str, Any]


def stored(s: Any) -> Row:
    """The row as SQLite gives it back: to_json through JSON text."""
    return json.loads(json.dumps(G.to_json(s)))


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
SAMPLES = [stored(s) for states in (*GAMES.values(), OPEN, NONE) for s in states[:: max(1, len(states) // 6)]]


# --- sound rows read back exactly -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_of_a_seeded_playout_round_trips(players: int) -> None:
    for s in GAMES[players]:
        row = stored(s)
        back = G.from_json(row)
        assert back == s
        assert G.to_json(back) == row


def test_states_with_open_cards_and_without_cards_round_trip() -> None:
    for s in (*OPEN, *NONE):
        assert G.from_json(stored(s)) == s


@pytest.mark.parametrize("players", [2, 3])
def test_a_game_won_by_a_resignation_during_the_draft_round_trips(players: int) -> None:
    s = G.new(players, {}, "resigned")
    for seat in range(players - 1):
        s, _ = G.apply(s, seat, "resign")
    assert s.phase == "over" and not all(s.drafted)
    assert G.from_json(stored(s)) == s


# --- damaged rows are refused, naming the field -----------------------------------------------------------------


def mid_game() -> Row:
    """A 3-player row in play, with a last action that removed ninjas."""
    for s in GAMES[3]:
        if s.phase == "play" and s.last is not None and s.last.removed:
            return stored(s)
    raise AssertionError("no such state")


def draft() -> Row:
    return stored(GAMES[3][0])


def over() -> Row:
    return stored(GAMES[3][-1])


def edit(base: Callable[[], Row], change: Callable[[Row], Any]) -> Callable[[], Row]:
    """The base row changed in place by ``change`` (whatever it returns is ignored)."""
    def make() -> Row:
        row = base()
        change(row)
        return row

    return make


def put(path: str, value: Any, base: Callable[[], Row] = mid_game) -> Callable[[], Row]:
    """Set ``path`` (``a.b.0``) of the base row to ``value``."""
    def change(row: Row) -> None:
        *parents, last = [int(k) if k.isdigit() else k for k in path.split(".")]
        node: Any = row
        for k in parents:
            node = node[k]
        node[last] = value

    return edit(base, change)


def drop(key: str) -> Callable[[], Row]:
    return edit(mid_game, lambda row: row.pop(key))


DAMAGED: dict[str, tuple[Callable[[], Any], str]] = {
    # fault: (the damaged row, the field the message names)
    "a list where the state object is expected": (lambda: [mid_game()], "state"),
    "a truncated row": (lambda: {}, "version"),
    "a null row": (lambda: None, "state"),
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
    "a huge turn counter": (put("turn", 10**12), "turn"),
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
    make, field = DAMAGED[fault]
    with pytest.raises(StateError) as info:
        G.from_json(make())
    assert field in str(info.value)


def test_a_row_with_a_huge_counter_is_refused_without_building_anything() -> None:
    row = mid_game()
    row["captured"] = [10**100] * 3
    with pytest.raises(StateError, match="captured"):
        G.from_json(row)


def test_state_errors_are_value_errors_for_callers_that_catch_those() -> None:
    with pytest.raises(ValueError, match="players"):
        G.from_json({**mid_game(), "players": 1})


# --- any one damaged leaf: read back exactly, or refused --------------------------------------------------------


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of a JSON value's leaves (scalars and empty containers)."""
    if isinstance(value, dict) and value:
        return [p for k, x in value.items() for p in leaves(x, (*path, k))]
    if isinstance(value, list) and value:
        return [p for i, x in enumerate(value) for p in leaves(x, (*path, i))]
    return [path]


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.copy(value)
    out[path[0]] = replaced(value[path[0]], path[1:], new)
    return out


SCALARS = (st.none() | st.booleans() | st.integers(-3, 40) | st.integers() | st.floats()
           | st.text(max_size=12) | st.sampled_from(["", "r", "pass", "bomb", "play", "over", "hidden"]))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=8)


def exercise(s: Any) -> None:
    """What the engine and the surface do with a loaded state must not crash either."""
    G.outcome(s)
    for seat in [None, *range(s.players)]:
        json.dumps(G.view(s, seat))
    for seat in sorted(G.to_move(s)):
        G.legal_actions(s, seat)
        with contextlib.suppress(RulesError):
            G.apply(s, seat, G.default_action(s, seat))


@settings(deadline=None, max_examples=1000)
@given(data=st.data())
def test_one_damaged_leaf_is_read_back_exactly_or_refused(data: st.DataObject) -> None:
    row = data.draw(st.sampled_from(SAMPLES))
    path = data.draw(st.sampled_from(leaves(row)))
    damaged = replaced(row, path, data.draw(replacements(row, path)))
    try:
        s = G.from_json(damaged)
    except StateError:
        return
    assert G.to_json(s) == damaged
    exercise(s)


def leaf(value: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        value = value[k]
    return value


def replacements(row: Row, path: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    """Any JSON value, another leaf of the row, or the leaf nudged by one or flipped (these often make a sound
    row, so that both outcomes of the property are exercised)."""
    old = leaf(row, path)
    nudged = [old - 1, old + 1] if type(old) is int else [not old] if type(old) is bool else []
    others = st.sampled_from([leaf(row, p) for p in leaves(row)])
    return st.one_of(JSON_VALUES, others, *([st.sampled_from(nudged)] if nudged else []))
