"""A stored The Floor state that is damaged is refused with a `StateError` naming the field; a sound one reads
back exactly. Playout states round-trip at every step, a table of damaged rows is refused, and a hypothesis
property replaces one leaf of a valid state with any JSON value: read back exactly, or refused, never a crash."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules import damaged_rows
from tests.rules.damaged_rows import Faults, Row, edit, stored
from tests.rules.tf_helpers import G, play

BIRDS = {"id": "server_1", "name": "Birds", "flags": [], "answers": [f"{c}bird" for c in "ABCDEFGHIJKLMNOPRSTUVWY"]}
CUSTOM = {"categories": [BIRDS], "answers": {"flowers": ["Zinnia"]}}


def playout_states(players: int, seed: str, options: dict[str, Any], resign: int | None = None) -> list[Any]:
    """Every state of a bot playout (seats to move take turns); ``resign`` resigns that seat at step 40."""
    s = G.new(players, options, seed)
    out = [s]
    while s.phase != "over":
        movers = sorted(G.to_move(s))
        seat = movers[len(out) % len(movers)]
        if resign is not None and len(out) == 40:
            seat, action = resign, "resign"
        else:
            action = G.bot_action(s, seat)
        s, _ = G.apply(s, seat, action)
        out.append(s)
    return out


def judging(players: int = 3, mode: str = "vote") -> Any:
    """A started duel whose running side answered off the list: the answer awaits the judges (or is trusted)."""
    for s in playout_states(players, f"judge-{mode}", {"judging": mode}):
        d = s.duel
        if d is not None and d.started and not d.judging and s.phase == "play":
            seat = min(G.to_move(s))
            return play(s, (seat, f"answer 100 {d.letter}zzq unknownish"))
    raise AssertionError("no duel")


GAMES = {
    "2 sides": playout_states(2, "damaged-2", {}),
    "3 sides": playout_states(3, "damaged-3", {"judging": "trust", "clock": 20}),
    "5 sides": playout_states(5, "damaged-5", {}, resign=4),
    "7 players in teams": playout_states(7, "damaged-7", {"judging": "host"}, resign=6),
    "server content": playout_states(3, "damaged-custom", {"content": CUSTOM, "kids": True, "lang": "pl"}),
}
SPECIAL = [judging(3, "vote"), judging(3, "trust"), judging(4, "host")]
SAMPLES = [stored(G, s) for states in GAMES.values() for s in states[:: max(1, len(states) // 8)]]
SAMPLES += [stored(G, s) for s in SPECIAL]
SAMPLES.append(stored(G, play(G.new(3, {}, "resigned"), (0, "resign"), (1, "resign"))))
JSON_VALUES = damaged_rows.json_values(["", "A", "c001", "flowers", "take", "keep", "trusted", "over"], top=30)


# --- sound rows read back exactly -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_state_of_a_seeded_playout_round_trips(game: str) -> None:
    damaged_rows.check_round_trips(G, GAMES[game])


def test_answers_under_judgment_round_trip() -> None:
    for s in SPECIAL:
        assert s.duel is not None and (s.duel.judging or s.duel.log[-1][2] == "trusted")
        assert G.from_json(stored(G, s)) == s


def test_a_position_round_trips() -> None:
    s = G.from_position(".10../.10../01.../.1.../..... C5=flowers,A3=rivers,B2=music_genres 2s side=0 seed=p")
    assert G.from_json(stored(G, s)) == s


def test_a_game_won_by_resignations_during_the_draft_round_trips() -> None:
    s = G.new(3, {}, "resigned")
    s = play(s, (0, "resign"), (1, "resign"))
    assert s.phase == "over" and s.hands[2] and not s.cards
    assert G.from_json(stored(G, s)) == s


# --- damaged rows are refused, naming the field -----------------------------------------------------------------


def first(game: str, test: Callable[[Any], bool]) -> Callable[[], Row]:
    def make() -> Row:
        return stored(G, next(s for s in GAMES[game] if test(s)))

    return make


in_duel = first("3 sides", lambda s: s.phase == "play" and s.duel is not None and s.duel.started and s.duel.log)
taking = first("3 sides", lambda s: bool(s.pending) and s.pending[0].kind == "take")
keeping = first("3 sides", lambda s: bool(s.pending) and s.pending[0].kind == "keep")
drafting = first("3 sides", lambda s: s.phase == "draft" and any(s.chosen))
in_final = first("3 sides", lambda s: s.phase == "final" and s.duel is not None)
between_turns = first("3 sides", lambda s: s.phase == "play" and s.duel is None and not s.pending)
over = first("3 sides", lambda s: s.phase == "over")
custom = first("server content", lambda s: s.phase == "play")


def voting() -> Row:
    return stored(G, SPECIAL[0])


def put(path: str, value: Any, base: Callable[[], Row] = in_duel) -> Callable[[], Row]:
    """Set ``path`` (``a.b.0``) of the base row (the one in a duel unless named) to ``value``."""
    return damaged_rows.put(path, value, base)


def _take_all(pending: Row) -> None:
    pending["count"] = len(pending["cells"])


def _card_off_its_field(row: Row) -> None:
    row["cards"] = row["cards"][1:]


DAMAGED: Faults = {
    # fault: (the damaged row, the field the message names)
    **damaged_rows.shape_faults(in_duel),
    "a missing board": (edit(in_duel, lambda row: row.pop("board")), "board"),
    "an unknown key": (edit(in_duel, lambda row: row.update(timer=3)), "unknown keys"),
    "an unknown version": (put("version", None), "version"),
    "eleven players": (put("players", 11), "players"),
    "six sides": (put("sides", 6), "sides"),
    "more sides than players": (put("players", 2), "sides"),
    "a player count as a float": (put("players", 3.0), "players"),
    "an over-long seed": (put("seed", "s" * 100_000), "seed"),
    "an unknown language": (put("lang", "de"), "lang"),
    "a clock of five seconds": (put("clock_s", 5), "clock_s"),
    "an unknown judging mode": (put("judging_mode", "mob"), "judging_mode"),
    "a kids flag that is a number": (put("kids", 1), "kids"),
    "seat sides for too few seats": (put("seat_side", [0, 1]), "seat_side"),
    "a seat on a side out of range": (put("seat_side", [0, 1, 3]), "seat_side[2]"),
    "seats on the wrong sides": (put("seat_side", [1, 0, 2]), "seat_side"),
    "a board of 24 cells": (edit(in_duel, lambda row: row["board"].pop()), "board"),
    "a cell of a side out of range": (put("board.0", 3), "board[0]"),
    "a cell that is text": (put("board.0", "1"), "board[0]"),
    "a card that is not a pair": (put("cards.0", [0]), "cards[0]"),
    "a card on a cell off the floor": (put("cards.0", [25, "c001"]), "cards[0][0]"),
    "cards out of order": (edit(in_duel, lambda row: row["cards"].reverse()), "cards"),
    "a card with a malformed category id": (put("cards.0.1", "no such id!"), "cards[0][1]"),
    "a card with an over-long category id": (put("cards.0.1", "c" * 10_000), "cards[0][1]"),
    "a field without its category": (edit(between_turns, _card_off_its_field), "cards"),
    "a category twice": (edit(in_duel, lambda row: row["deck"].append(row["deck"][0])), "deck"),
    "a deck card that is null": (put("deck.0", None), "deck[0]"),
    "a deck that is an object": (put("deck", {"top": "c001"}), "deck"),
    "a draw counter below the free streams": (put("draws", 1), "draws"),
    "a draw counter past what storage holds": (put("draws", 2**63), "draws"),
    "an unknown phase": (put("phase", "intermission"), "phase"),
    "hands for too many sides": (put("hands", [[], [], [], []]), "hands"),
    "a hand after the draft": (put("hands.0", ["c001"]), "hands"),
    "a draft pick not in the hand": (put("chosen", ["zz_top"] * 3, drafting), "chosen[0]"),
    "uneven draft hands": (edit(drafting, lambda row: row["hands"][0].pop()), "hands"),
    "a fourth round": (put("round", 4), "round"),
    "round zero": (put("round", 0), "round"),
    "a side to move out of range": (put("current", 3), "current"),
    "a challenged flag that is text": (put("challenged.0", "no"), "challenged[0]"),
    "a last turn before the first": (put("last_turn.0", -2), "last_turn[0]"),
    "a last turn after the turn counter": (put("last_turn.0", 10**6), "last_turn[0]"),
    "a negative turn counter": (put("turn", -1), "turn"),
    "a duel that is a list": (put("duel", [0, 1]), "duel"),
    "a duel without its clocks": (edit(in_duel, lambda row: row["duel"].pop("clocks")), "duel.clocks"),
    "a negative clock": (put("duel.clocks.0", -5), "duel.clocks[0]"),
    "a clock beyond the time allowed": (put("duel.clocks.0", 10**9), "duel.clocks[0]"),
    "a duellist out of range": (put("duel.defender", 9), "duel.defender"),
    "a side duelling itself": (edit(in_duel, lambda row: row["duel"].update(defender=row["duel"]["challenger"])),
                               "duel"),
    "a duel over a cell off the floor": (put("duel.to", 99), "duel.to"),
    "a duel over cells apart": (edit(in_duel, lambda row: row["duel"].update(to=(row["duel"]["frm"] + 12) % 25)),
                                "duel"),
    "an active clock of a third side": (put("duel.active", 2), "duel.active"),
    "a letter deck with a letter missing": (edit(in_duel, lambda row: row["duel"]["decks"][0].pop()), "duel.decks[0]"),
    "a letter deck of another language": (put("duel.decks.0", list("ABCDEFGHIJKLMNOPRSTUWYZ")), "duel.decks[0]"),
    "no letter decks": (put("duel.decks", []), "duel.decks"),
    "a negative count of letters drawn": (put("duel.drawn.0", -1), "duel.drawn[0]"),
    "a letter not in the deck": (put("duel.letter", "Q"), "duel.letter"),
    "a started duel without a letter": (put("duel.letter", ""), "duel.letter"),
    "a ready flag that is a number": (put("duel.ready.0", 1), "duel.ready[0]"),
    "a started duel nobody was ready for": (put("duel.ready", [False, False]), "duel.started"),
    "an over-long answer": (put("duel.given.0", "a" * 100_000), "duel.given[0]"),
    "a log entry of an unknown mark": (put("duel.log.0.2", "maybe"), "duel.log[0][2]"),
    "a log entry of a third duellist": (put("duel.log.0.0", 2), "duel.log[0][0]"),
    "a log entry that is text": (put("duel.log.0", "accepted"), "duel.log[0]"),
    "a vote by a seat out of range": (put("duel.votes", [[9, True]], voting), "duel.votes[0][0]"),
    "a seat voting twice": (put("duel.votes", [[2, True], [2, False]], voting), "duel.votes"),
    "votes with nothing to judge": (put("duel.votes", [[2, True]]), "duel.votes"),
    "a choice of an unknown kind": (put("pending.0.kind", "steal", taking), "pending[0].kind"),
    "a choice owed by a side out of range": (put("pending.0.side", 9, taking), "pending[0].side"),
    "a take of no cells": (put("pending.0.count", 0, taking), "pending[0]"),
    "a take of a whole field": (edit(taking, lambda row: _take_all(row["pending"][0])), "pending[0]"),
    "a take of cells off the floor": (put("pending.0.cells", [30], taking), "pending[0].cells[0]"),
    "a keep of nothing": (put("pending.0.options", [], keeping), "pending[0]"),
    "keep options out of order": (edit(keeping, lambda row: row["pending"][0]["options"].reverse()),
                                  "pending[0]"),
    "a choice owed during a duel": (edit(in_duel, lambda row: row.update(pending=taking()["pending"])), "pending"),
    "a repeated side on the Final ladder": (put("ladder", [0, 0, 1], in_final), "ladder[1]"),
    "a ladder position past the ladder": (put("ladder_pos", 3, in_final), "ladder"),
    "a holder out of range": (put("holder", 5, in_final), "holder"),
    "a Final duel over cells of the floor": (put("duel.frm", 0, in_final), "duel.frm"),
    "a side eliminated twice": (put("eliminated", [1, 1]), "eliminated[1]"),
    "an eliminated side that holds cells": (put("eliminated", [1]), "eliminated"),
    "four round winners": (put("round_winners", [0, 1, 2, 0]), "round_winners"),
    "a champion in a running game": (put("champion", 0), "champion"),
    "a finished game without a champion": (put("champion", -1, over), "champion"),
    "resign flags for too few sides": (put("resigned", [False]), "resigned"),
    "server content that is not JSON": (put("custom", "{not json", custom), "custom"),
    "server content that breaks the schema": (put("custom", json.dumps({"categories": [{"id": 1}]}), custom),
                                              "custom"),
    "server content not in its canonical form": (edit(custom, lambda row: row.update(custom=row["custom"] + " ")),
                                                 "custom"),
    "server content that is a number": (put("custom", 7, custom), "custom"),
}


@pytest.mark.parametrize("fault", DAMAGED)
def test_a_damaged_row_is_refused_naming_the_field(fault: str) -> None:
    damaged_rows.check_refused(G, *DAMAGED[fault])


def test_state_errors_are_value_errors_for_callers_that_catch_those() -> None:
    with pytest.raises(ValueError, match="players"):
        G.from_json({**in_duel(), "players": None})


# --- any one damaged leaf: read back exactly, or refused --------------------------------------------------------


@settings(deadline=None, max_examples=800)
@given(data=st.data())
def test_one_damaged_leaf_is_read_back_exactly_or_refused(data: st.DataObject) -> None:
    row, path, new = damaged_rows.draw_damaged_leaf(data, SAMPLES, JSON_VALUES)
    damaged_rows.check_damaged_leaf(G, row, path, new, partial(damaged_rows.exercise, G, movers=2))
