"""A stored Floor Plan state that is damaged is refused with a `StateError` naming the field; a sound one reads
back exactly. Playout states round-trip at every step, a table of damaged rows is refused (a room 10**12 wide
among them, which once exhausted memory), and a hypothesis property replaces one leaf of a valid state with any
JSON value: read back exactly, or refused, never a crash."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import StateError
from rules.floor_plan.sheet import Room, Sheet
from tests.rules import damaged_rows
from tests.rules.damaged_rows import Faults, Row, edit, node, stored
from tests.rules.fp_helpers import G


def playout_states(players: int, seed: str) -> list[Any]:
    """Every state of a bot playout, one per action (so mid-round states with pending work too)."""
    s = G.new(players, {"round_minutes": 30} if players > 1 else {}, seed)
    out = [s]
    while s.phase != "over":
        for seat in sorted(G.to_move(s)):
            action = "resign" if (seat, s.round) == (players - 1, 9) else G.bot_action(s, seat)
            s, _ = G.apply(s, seat, action)
            out.append(s)
    return out


GAMES = {n: playout_states(n, f"damaged-{n}") for n in (1, 3)}
SAMPLES = [stored(G, s) for states in GAMES.values() for s in states[:: max(1, len(states) // 8)]]
JSON_VALUES = damaged_rows.json_values(["", "L", "K", "room:0", "door:C3", "skip", "over", "sixth"], top=20)


# --- sound rows read back exactly -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 3])
def test_every_state_of_a_seeded_playout_round_trips(players: int) -> None:
    damaged_rows.check_round_trips(G, GAMES[players])


def test_a_sheet_view_still_reads_as_its_sheet() -> None:
    sheet = GAMES[3][-1].boards[0].sheet
    view = G.sheet_view(GAMES[3][-1], 0)
    assert Sheet.from_json(json.loads(json.dumps(view))) == sheet


@pytest.mark.parametrize("players", [1, 3])
def test_a_game_everyone_resigned_during_the_setup_round_trips(players: int) -> None:
    s = G.new(players, {}, "resigned")
    for seat in range(players):
        s, _ = G.apply(s, seat, "resign")
    assert s.phase == "over" and s.round == 0
    assert G.from_json(stored(G, s)) == s


# --- damaged rows are refused, naming the field -----------------------------------------------------------------


def mid_game() -> Row:
    """A 3-player row in play whose seat 0 has rooms, features and claims, and whose seat 1 has pending work."""
    for s in GAMES[3]:
        b = s.boards[0]
        if s.phase == "play" and b.claims and len(b.sheet.rooms) >= 3 and b.sheet.doors and s.pending[1]:
            return stored(G, s)
    raise AssertionError("no such state")


def over() -> Row:
    return stored(G, GAMES[3][-1])


def put(path: str, value: Any, base: Callable[[], Row] = mid_game) -> Callable[[], Row]:
    """Set ``path`` (``a.b.0``) of the base row (the mid-game one unless named) to ``value``."""
    return damaged_rows.put(path, value, base)


SHEET = "boards.0.sheet"
ROOM = f"{SHEET}.rooms.0"
CLAIM = "boards.0.claims.0"


def add(path: str, item: Any) -> Callable[[], Row]:
    """Append ``item`` to the list at ``path``."""
    return edit(mid_game, lambda row: node(row, path).append(item))


def _sheet(row: Row) -> Row:
    return row["boards"][0]["sheet"]


def _empty_claimed_note(row: Row) -> None:
    board = row["boards"][0]
    board["notes"][board["claims"][0]["note"]] = None


DAMAGED: Faults = {
    # fault: (the damaged row, the field the message names)
    **damaged_rows.shape_faults(mid_game),
    "a missing boards list": (edit(mid_game, lambda row: row.pop("boards")), "boards"),
    "an unknown key": (edit(mid_game, lambda row: row.update(bonus=3)), "unknown keys"),
    "an unknown version": (put("version", "1"), "version"),
    "no players": (put("players", 0), "players"),
    "a hundred and one players": (put("players", 101), "players"),
    "a player count as a boolean": (put("players", True), "players"),
    "a seed that is null": (put("seed", None), "seed"),
    "an over-long seed": (put("seed", "s" * 100_000), "seed"),
    "options that are a list": (put("options", []), "options"),
    "options without the clients": (edit(mid_game, lambda row: row["options"].pop("clients")), "options.clients"),
    "an unknown option": (edit(mid_game, lambda row: row["options"].update(wild=2)), "options"),
    "round minutes beyond a week": (put("options.round_minutes", 10**12), "options"),
    "two clients of one kind": (put("options.clients", ["big_family", "big_family", "deck_life"]), "options"),
    "an unknown phase": (put("phase", "scoring"), "phase"),
    "a negative round": (put("round", -1), "round"),
    "round 0 during play": (put("round", 0), "round"),
    "a round past what storage holds": (put("round", 2**63), "round"),
    "a die showing 7": (put("roll", [7, 2]), "roll[0]"),
    "a roll of one die": (put("roll", [3]), "roll"),
    "no roll in a running game": (put("roll", None), "roll"),
    "a roll that is an object": (put("roll", {"a": 1, "b": 2}), "roll"),
    "boards for too few seats": (edit(mid_game, lambda row: row["boards"].pop()), "boards"),
    "a board that is null": (put("boards.1", None), "boards[1]"),
    "a board that is a list": (put("boards.1", []), "boards[1]"),
    "a board without its sheet": (edit(mid_game, lambda row: row["boards"][0].pop("sheet")), "boards[0].sheet"),
    "pending work for too many seats": (add("pending", None), "pending"),
    "action texts for too few seats": (edit(mid_game, lambda row: row["actions"].pop()), "actions"),
    "an over-long action text": (put("actions.1", "skip; " * 10_000), "actions[1]"),
    "an action text that is a number": (put("actions.1", 7), "actions[1]"),
    "pending work without its action text": (put("actions.1", ""), "actions[1]"),
    "a seat to act out of range": (put("to_act", [0, 3]), "to_act[1]"),
    "seats to act out of order": (put("to_act", [2, 0]), "to_act[1]"),
    "a seat to act twice": (put("to_act", [0, 0]), "to_act[1]"),
    "a negative stuck seat": (put("stuck", [-1]), "stuck[0]"),
    "a resigned seat still to act": (edit(mid_game, lambda row: row.update(resigned=row["to_act"][:1])), "to_act"),
    "nobody to act in a running game": (put("to_act", []), "to_act"),
    "an unknown ending": (put("ending", "maybe"), "ending"),
    "a last round flag that is text": (put("last_round", "yes"), "last_round"),
    "a last round without an ending": (put("last_round", True), "last_round"),
    "an unknown outcome reason": (put("reason", "fp.outcome.boredom", over), "reason"),
    "a finished game without a reason": (put("reason", "", over), "reason"),
    # the sheet
    "a room wider than the sheet": (put(f"{ROOM}.w", 10**12), "boards[0].sheet.rooms[0].w"),
    "a room taller than the sheet": (put(f"{ROOM}.h", 14), "boards[0].sheet.rooms[0].h"),
    "a room at a negative column": (put(f"{ROOM}.x", -1), "boards[0].sheet.rooms[0].x"),
    "a room of zero width": (put(f"{ROOM}.w", 0), "boards[0].sheet.rooms[0].w"),
    "a room of an unknown type": (put(f"{ROOM}.type", "Z"), "boards[0].sheet.rooms[0].type"),
    "a room width as text": (put(f"{ROOM}.w", "6"), "boards[0].sheet.rooms[0].w"),
    "a room label outside the room": (put(f"{ROOM}.label", [0, 0]), "boards[0].sheet.rooms[0].label"),
    "a room label of one coordinate": (put(f"{ROOM}.label", [8]), "boards[0].sheet.rooms[0].label"),
    "a room that is a list": (put(ROOM, [8, 2, 1, 6]), "boards[0].sheet.rooms[0]"),
    "a room drawn twice": (edit(mid_game, lambda row: _sheet(row)["rooms"].append(_sheet(row)["rooms"][0])),
                           "boards[0].sheet.rooms["),
    "a tree hanging off the sheet": (put(f"{SHEET}.trees", [[15, 11]]), "boards[0].sheet.trees[0]"),
    "two trees on each other": (put(f"{SHEET}.trees", [[0, 0], [1, 1]]), "boards[0].sheet.trees[1]"),
    "a door off the sheet": (put(f"{SHEET}.doors", [[17, 0]]), "boards[0].sheet.doors[0]"),
    "a door cell of three coordinates": (put(f"{SHEET}.doors", [[1, 2, 3]]), "boards[0].sheet.doors[0]"),
    "a door cell named as text": (put(f"{SHEET}.doors", ["C3"]), "boards[0].sheet.doors[0]"),
    "doors out of scan order": (edit(mid_game, lambda row: _sheet(row)["doors"].reverse()), "boards[0].sheet.doors"),
    "a door drawn twice": (edit(mid_game, lambda row: _sheet(row)["doors"].append(_sheet(row)["doors"][-1])),
                           "boards[0].sheet.doors"),
    "a door away from every wall": (put(f"{SHEET}.doors", [[0, 0]]), "boards[0].sheet.doors"),
    "stones that are null": (put(f"{SHEET}.stones", None), "boards[0].sheet.stones"),
    "a hundred thousand stones": (put(f"{SHEET}.stones", [[0, 0]] * 100_000), "boards[0].sheet.stones"),
    # notes and claims
    "seven notes": (add("boards.0.notes", None), "boards[0].notes"),
    "a note worth eleven": (put("boards.0.notes.0", 11), "boards[0].notes[0]"),
    "a note as text": (put("boards.0.notes.0", "4"), "boards[0].notes[0]"),
    "a bonus flag that is a number": (put("boards.0.bonus_used.0", 0), "boards[0].bonus_used[0]"),
    "a claim of an unknown demand": (put(f"{CLAIM}.demand", "nobody.1"), "boards[0].claims[0].demand"),
    "a claim worth more than its demand": (put(f"{CLAIM}.points", 9), "boards[0].claims[0].points"),
    "a claim into note seven": (put(f"{CLAIM}.note", 6), "boards[0].claims[0].note"),
    "a claim token naming a missing room": (put(f"{CLAIM}.tokens", ["room:99"]), "boards[0].claims[0].tokens"),
    "a claim token of an unknown kind": (put(f"{CLAIM}.tokens", ["ghost:C3"]), "boards[0].claims[0].tokens"),
    "a claim token off the sheet": (put(f"{CLAIM}.tokens", ["door:Z99"]), "boards[0].claims[0].tokens"),
    "claim tokens out of order": (edit(mid_game, lambda row: row["boards"][0]["claims"][0]["tokens"].reverse()),
                                  "boards[0].claims[0].tokens"),
    "a note that disagrees with its claim": (edit(mid_game, _empty_claimed_note), "boards[0].notes"),
    "a wild flag that is text": (put("boards.0.wild_used", "no"), "boards[0].wild_used"),
    "a negative end bonus": (put("boards.0.end_bonus", -1), "boards[0].end_bonus"),
    "a huge end bonus": (put("boards.0.end_bonus", 10**12), "boards[0].end_bonus"),
}


@pytest.mark.parametrize("fault", DAMAGED)
def test_a_damaged_row_is_refused_naming_the_field(fault: str) -> None:
    damaged_rows.check_refused(G, *DAMAGED[fault])


def test_a_room_wider_than_the_sheet_is_refused_at_once() -> None:
    """The row that once exhausted memory: no cell set is built for a room before its size is checked."""
    row = mid_game()
    row["boards"][0]["sheet"]["rooms"][0].update(w=10**12, h=10**12)
    with pytest.raises(StateError, match=r"rooms\[0\]\.w"):  # before the fix: a MemoryError, or pytest's timeout
        G.from_json(row)


def test_a_room_read_alone_is_checked_too() -> None:
    with pytest.raises(StateError, match=r"room\.h"):
        Room.from_json({"type": "K", "x": 0, "y": 12, "w": 1, "h": 2, "label": [0, 12]})


def test_state_errors_are_value_errors_for_callers_that_catch_those() -> None:
    with pytest.raises(ValueError, match="players"):
        G.from_json({**mid_game(), "players": -1})


# --- any one damaged leaf: read back exactly, or refused --------------------------------------------------------


@settings(deadline=None, max_examples=800)
@given(data=st.data())
def test_one_damaged_leaf_is_read_back_exactly_or_refused(data: st.DataObject) -> None:
    row, path, new = damaged_rows.draw_damaged_leaf(data, SAMPLES, JSON_VALUES)
    damaged_rows.check_damaged_leaf(G, row, path, new, partial(damaged_rows.exercise, G, movers=2))


def test_a_claim_written_before_the_cards_were_tuned_loads_with_the_points_it_was_written_with() -> None:
    from rules.floor_plan import demands as dm

    row = mid_game()
    claim = row["boards"][0]["claims"][0]
    demand = next(d for d in sorted(dm.EARLIER_POINTS) if d.split(".")[0] in row["options"]["clients"])
    earlier = min(dm.EARLIER_POINTS[demand])
    claim["demand"], claim["points"] = demand, earlier
    row["boards"][0]["notes"][claim["note"]] = earlier
    s = G.from_json(row)
    assert s.boards[0].claims[0].points == earlier != dm.DEMANDS[demand].points
    assert s.boards[0].notes[claim["note"]] == earlier
    claim["points"] = row["boards"][0]["notes"][claim["note"]] = 10 if earlier != 10 else 1  # never this demand's
    with pytest.raises(StateError):
        G.from_json(row)
