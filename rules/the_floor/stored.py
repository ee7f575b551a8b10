"""Reading a stored The Floor state (``TheFloor.from_json``): every field is checked for shape, type and range, and
the cross-references the rules rely on (cells and sides, the duel and its letter decks, choices owed, the
server's content) before the state is built, so that a damaged row raises `StateError` naming the field
instead of crashing a later move, view or bot.

Category ids are checked for their shape only, not against the catalog: the built-in content may change between
deploys while a game runs, and the rules fall back on an unknown id (it shows as its id).
"""

from __future__ import annotations

import functools
import json
from dataclasses import fields
from typing import Any

from rules import validate as v
from rules.base import FloorboardError
from rules.the_floor import board as bd
from rules.the_floor.options import (
    DOUBT_CAP,
    FIRST_FREE_STREAM,
    LETTERS,
    MAX_ANSWER,
    MAX_ANSWERS,
    MAX_CATEGORIES,
    MAX_CATEGORY_ID,
    MAX_CUSTOM,
    MAX_GUEST_VOTES,
    MAX_USER_ID,
    ROUNDS,
    custom_content,
)
from rules.the_floor.state import JUDGING, PHASES, Duel, Pending, State
from rules.validate import guard

OPTIONAL_STATE_KEYS = ("fair_letters", "referee", "spectators", "doubt_cap")  # absent from states stored before
OPTIONAL_DUEL_KEYS = ("guests",)
STATE_KEYS = ("version", *(f.name for f in fields(State) if f.name not in OPTIONAL_STATE_KEYS))
DUEL_KEYS = tuple(f.name for f in fields(Duel) if f.name not in OPTIONAL_DUEL_KEYS)
PENDING_KEYS = tuple(f.name for f in fields(Pending))
PENDING_KINDS = ("take", "keep", "final", "final_pick")
MARKS = ("accepted", "trusted", "judged", "rejected", "pass")
CELLS = bd.SIZE * bd.SIZE


def state_from_json(d: Any) -> State:
    core = {k: x for k, x in d.items() if k not in OPTIONAL_STATE_KEYS} if isinstance(d, dict) else d
    v.as_dict(core, "", STATE_KEYS)
    v.require(d["version"] == 1 and type(d["version"]) is int, "version", f"unknown version {v.show(d['version'])}")
    n = v.require_int(d, "players", 2, 10)
    k = v.require_int(d, "sides", 2, min(5, n))
    lang, clock_s = v.require_str(d, "lang", choices=tuple(LETTERS)), v.require_int(d, "clock_s", 20, 120)
    turn_no = v.require_int(d, "turn_no", 0, v.MAX_COUNTER)
    per_side = {key: v.require_list(d, key, length=k) for key in ("chosen", "final_cats")}
    s = State(
        players=n, sides=k, seed=v.require_str(d, "seed"), lang=lang, clock_s=clock_s,
        judging_mode=v.require_str(d, "judging_mode", choices=JUDGING),
        seat_side=tuple(v.as_ints(d["seat_side"], "seat_side", 0, k - 1, length=n)),
        board=tuple(v.as_ints(d["board"], "board", bd.EMPTY, k - 1, length=CELLS)), cards=_cards(d["cards"]),
        deck=_categories(d["deck"], "deck", MAX_CATEGORIES),
        discard=_categories(d["discard"], "discard", MAX_CATEGORIES),
        draws=v.require_int(d, "draws", FIRST_FREE_STREAM, v.MAX_COUNTER),
        phase=v.require_str(d, "phase", choices=PHASES),
        hands=_per_side(d["hands"], "hands", k), picked=_per_side(d["picked"], "picked", k),
        chosen=tuple(_category(c, ("chosen", i), True) for i, c in enumerate(per_side["chosen"])),
        final_cards=_categories(d["final_cards"], "final_cards", 3 * ROUNDS),
        round=v.require_int(d, "round", 1, ROUNDS), current=v.require_int(d, "current", 0, k - 1),
        challenged=tuple(v.as_bools(d["challenged"], "challenged", k)),
        last_turn=tuple(v.as_ints(d["last_turn"], "last_turn", -1, turn_no, length=k)), turn_no=turn_no,
        duel=v.as_optional(d["duel"], "duel", _duel, n, lang, clock_s),
        pending=tuple(_pending(p, ("pending", i), k)
                      for i, p in enumerate(v.require_list(d, "pending", max_len=CELLS))),
        final_cats=tuple(_category(c, ("final_cats", i), True) for i, c in enumerate(per_side["final_cats"])),
        ladder=_sides(d["ladder"], "ladder", k), ladder_pos=v.require_int(d, "ladder_pos", 0, k),
        holder=v.require_int(d, "holder", -1, k - 1), final_out=_sides(d["final_out"], "final_out", k),
        eliminated=_sides(d["eliminated"], "eliminated", k), resigned=tuple(v.as_bools(d["resigned"], "resigned", k)),
        round_winners=tuple(v.as_ints(d["round_winners"], "round_winners", 0, k - 1, max_len=ROUNDS)),
        champion=v.require_int(d, "champion", -1, k - 1), turn=v.require_int(d, "turn", 0, v.MAX_COUNTER),
        kids=v.require_bool(d, "kids"), custom=_custom(d["custom"]),
        fair_letters=v.require_bool(d, "fair_letters") if "fair_letters" in d else False,  # absent before issue 10
        referee=v.require_int(d, "referee", 0, MAX_USER_ID) if "referee" in d else 0,
        spectators=v.require_bool(d, "spectators") if "spectators" in d else False,
        doubt_cap=v.require_int(d, "doubt_cap", 0, DOUBT_CAP[2]) if "doubt_cap" in d else 0,
    )
    _check_board(s)
    _check_phase(s)
    if s.duel is not None:
        _check_duel(s, s.duel)
    for i, p in enumerate(s.pending):
        _check_pending(s, p, ("pending", i))
    return s


# --- fields ---------------------------------------------------------------------------------------------------


def _category(raw: Any, where: v.Where, empty_ok: bool = False) -> str:
    """A category id as the content validator allows it (ASCII letters, digits and '_'), or "" where allowed."""
    cid = v.as_str(raw, where, MAX_CATEGORY_ID)
    ok = (empty_ok and cid == "") or (cid.isascii() and cid.replace("_", "").isalnum())
    v.require(ok, where, f"{v.show(cid)} is not a category id")
    return cid


def _categories(raw: Any, where: v.Where, max_len: int) -> tuple[str, ...]:
    return tuple(_category(c, v.at(where, i)) for i, c in enumerate(v.as_list(raw, where, max_len=max_len)))


def _per_side(raw: Any, where: v.Where, sides: int) -> tuple[tuple[str, ...], ...]:
    items = v.as_list(raw, where, length=sides)
    return tuple(_categories(h, v.at(where, i), CELLS) for i, h in enumerate(items))


def _sides(raw: Any, where: v.Where, sides: int) -> tuple[int, ...]:
    items = v.as_ints(raw, where, 0, sides - 1, max_len=sides)
    v.distinct(items, where)
    return tuple(items)


def _cells(raw: Any, where: v.Where) -> tuple[int, ...]:
    items = v.as_ints(raw, where, 0, CELLS - 1, max_len=CELLS)
    v.ascending(items, where)
    return tuple(items)


def _cards(raw: Any) -> tuple[tuple[int, str], ...]:
    """(cell, category) pairs, ascending by cell, one card per cell."""
    out = []
    for i, pair in enumerate(v.as_list(raw, "cards", max_len=CELLS)):
        where = ("cards", i)
        cell, cat = v.as_list(pair, where, length=2)
        out.append((v.as_int(cell, v.at(where, 0), 0, CELLS - 1), _category(cat, v.at(where, 1))))
    v.ascending(out, "cards", key=lambda c: c[0])
    return tuple(out)


def _duel(raw: Any, where: v.Where, players: int, lang: str, clock_s: int) -> Duel:
    core = {k: x for k, x in raw.items() if k not in OPTIONAL_DUEL_KEYS} if isinstance(raw, dict) else raw
    v.as_dict(core, where, DUEL_KEYS)
    letters, ms = LETTERS[lang], clock_s * 1000
    decks = v.require_list(raw, "decks", where, length=2)
    for i, deck in enumerate(decks):
        path = v.at(where, "decks", i)
        v.as_strs(deck, path, 1, length=len(letters))
        v.require(sorted(deck) == sorted(letters), path, "not a shuffled letter deck of the game's language")
    return Duel(
        challenger=v.require_int(raw, "challenger", 0, 4, where), defender=v.require_int(raw, "defender", 0, 4, where),
        frm=v.as_optional(raw["frm"], v.at(where, "frm"), v.as_int, 0, CELLS - 1),
        to=v.as_optional(raw["to"], v.at(where, "to"), v.as_int, 0, CELLS - 1),
        category=_category(raw["category"], v.at(where, "category")),
        ready=_pair(v.as_bools(raw["ready"], v.at(where, "ready"), 2)),
        started=v.require_bool(raw, "started", where),
        clocks=_pair(v.as_ints(raw["clocks"], v.at(where, "clocks"), 0, ms, length=2)),
        active=v.require_int(raw, "active", 0, 1, where), decks=(tuple(decks[0]), tuple(decks[1])),
        drawn=_pair(v.as_ints(raw["drawn"], v.at(where, "drawn"), 0, v.MAX_COUNTER, length=2)),
        letter=v.require_str(raw, "letter", where, choices=("", *letters)),
        given=tuple(v.as_strs(raw["given"], v.at(where, "given"), MAX_ANSWER, max_items=MAX_ANSWERS)),
        log=tuple(_log_entry(e, v.at(where, "log", i))
                  for i, e in enumerate(v.require_list(raw, "log", where, max_len=2 * MAX_ANSWERS))),
        judging=v.require_str(raw, "judging", where, MAX_ANSWER),
        votes=tuple(_vote(e, v.at(where, "votes", i), players)
                    for i, e in enumerate(v.require_list(raw, "votes", where, max_len=players))),
        guests=tuple(_guest_vote(e, v.at(where, "guests", i))  # absent before issue 10's spectator votes
                     for i, e in enumerate(v.require_list(raw, "guests", where, max_len=MAX_GUEST_VOTES)
                                           if "guests" in raw else [])),
    )


def _pair(items: list[Any]) -> Any:
    return items[0], items[1]


def _log_entry(raw: Any, where: v.Where) -> tuple[int, str, str]:
    who, text, mark = v.as_list(raw, where, length=3)
    return (v.as_int(who, v.at(where, 0), 0, 1), v.as_str(text, v.at(where, 1), MAX_ANSWER),
            v.as_str(mark, v.at(where, 2), choices=MARKS))


def _vote(raw: Any, where: v.Where, players: int) -> tuple[int, bool]:
    seat, accept = v.as_list(raw, where, length=2)
    return v.as_int(seat, v.at(where, 0), 0, players - 1), v.as_bool(accept, v.at(where, 1))


def _guest_vote(raw: Any, where: v.Where) -> tuple[int, bool]:
    user, accept = v.as_list(raw, where, length=2)
    return v.as_int(user, v.at(where, 0), 1, MAX_USER_ID), v.as_bool(accept, v.at(where, 1))


def _pending(raw: Any, where: v.Where, sides: int) -> Pending:
    v.as_dict(raw, where, PENDING_KEYS)
    options = _categories(raw["options"], v.at(where, "options"), CELLS)
    v.ascending(list(options), v.at(where, "options"))
    return Pending(kind=v.require_str(raw, "kind", where, choices=PENDING_KINDS),
                   side=v.require_int(raw, "side", 0, sides - 1, where), options=options,
                   cells=_cells(raw["cells"], v.at(where, "cells")), count=v.require_int(raw, "count", 0, CELLS, where))


def _custom(raw: Any) -> str:
    """"" or the server's content as `TheFloor.new` stored it: the canonical JSON of `custom_content`."""
    text = v.as_str(raw, "custom", MAX_CUSTOM)
    v.require(not text or _canonical_custom(text), "custom", "not the canonical JSON of a server's content")
    return text


@functools.lru_cache(maxsize=16)
def _canonical_custom(text: str) -> bool:
    """Cached: a game's content never changes, and checking it normalizes every answer."""
    try:
        content = custom_content(json.loads(text))
    except (ValueError, FloorboardError, RecursionError):
        return False
    return json.dumps(content, sort_keys=True, ensure_ascii=False) == text


# --- invariants between fields ----------------------------------------------------------------------------------


def _check_board(s: State) -> None:
    want = [i % s.sides for i in range(s.players)]
    v.require(list(s.seat_side) == want, "seat_side", f"seats take sides in turn: expected {want}")
    v.require(all(x not in s.board for x in s.eliminated), "eliminated", "a side eliminated still holds cells")
    v.require(all(s.board[c] != bd.EMPTY for c, _ in s.cards), "cards", "a category on the empty cell")
    if s.cards and not s.pending:  # once placed, each field shows exactly one category between turns
        for f in bd.fields(s.board):
            on = [cat for c, cat in s.cards if c in f]
            if len(on) != 1:
                v.fail("cards", f"the field at {bd.name(f[0])} holds {len(on)} categories")
    held = [*s.deck, *s.discard, *(c for h in s.hands for c in h), *(c for p in s.picked for c in p),
            *(cat for _, cat in s.cards), *s.final_cards]
    v.distinct(held, "deck/discard/hands/picked/cards/final_cards")


def _check_phase(s: State) -> None:
    over, draft = s.phase == "over", s.phase == "draft"
    alive = s.alive()
    v.require(over == (s.champion >= 0), "champion", "a champion is named exactly when the game is over")
    v.require(over or len(alive) >= 2, "resigned", "fewer than two sides left in a running game")
    v.require(not (s.duel and s.pending), "pending", "a choice owed during a duel")
    v.require(not (over or draft) or (s.duel is None and not s.pending), "duel", f"a duel or choice in {s.phase}")
    if draft:
        v.require(not s.cards and not s.final_cards, "cards", "categories on the floor during the draft")
        v.require(len({len(h) for h in s.hands}) == 1 and len(s.hands[0]) >= 2, "hands", "uneven draft hands")
        v.require(len({len(p) for p in s.picked}) == 1, "picked", "uneven draft picks")
        for x in range(s.sides):  # the draft ends with one pick per cell of the side (`TheFloor._place`)
            if s.board.count(x) != len(s.picked[x]) + len(s.hands[x]) - 1:
                v.fail("board", f"side {x} does not hold a cell for each category it will pick")
        for x, cat in enumerate(s.chosen):
            v.require(not cat or cat in s.hands[x], ("chosen", x), "not in the side's hand")
    elif s.phase != "over":  # (a game won by resignations during the draft ends with its hands dealt)
        v.require(bool(s.cards), "cards", "no categories on the floor after the draft")
        v.require(not any(s.hands) and not any(s.picked) and not any(s.chosen), "hands", "a draft after the draft")
    if s.phase == "play" and s.duel is None and not s.pending:
        v.require(s.current in alive, "current", "the side to challenge is out")
    if s.phase == "final":
        v.require(len(s.ladder) >= 2 and s.ladder_pos < len(s.ladder), "ladder", "no duel left in the Final")


def _check_duel(s: State, d: Duel) -> None:
    sides = range(s.sides)
    v.require(d.challenger in sides and d.defender in sides and d.challenger != d.defender, "duel",
              "the duellists are not two sides of this game")
    if s.phase == "final":
        v.require(d.frm is None and d.to is None, "duel.frm", "a Final duel is fought off the floor")
        v.require(d.challenger == s.holder and d.defender == s.ladder[s.ladder_pos], "duel",
                  "not the Final's next duel")
    else:
        frm, to = d.frm, d.to
        if frm is None or to is None or to not in bd.neighbours(frm):
            v.fail("duel.to", "a duel is fought over two adjacent cells")
        v.require(s.board[frm] == d.challenger and s.board[to] == d.defender, "duel",
                  "the duellists do not hold the cells")
    v.require(d.started == all(d.ready), "duel.started", "a duel starts when both sides are ready")
    v.require(d.started == (d.letter != ""), "duel.letter", "a letter shows exactly once the duel started")
    v.require(d.started or not d.judging, "duel.judging", "an answer judged before the duel started")
    v.require(bool(d.judging) or not d.votes, "duel.votes", "votes with no answer to judge")
    v.distinct([seat for seat, _ in d.votes], "duel.votes")
    v.require(bool(d.judging) or not d.guests, "duel.guests", "votes with no answer to judge")
    v.require(s.referee not in {user for user, _ in d.guests}, "duel.guests", "the referee's vote decides at once")
    v.distinct([user for user, _ in d.guests], "duel.guests")


def _check_pending(s: State, p: Pending, where: v.Where) -> None:
    owners = {s.board[c] for c in p.cells}
    if p.kind == "take":
        v.require(not p.options and 1 <= p.count < len(p.cells), where, "a take of 1..size-1 cells of a field")
        v.require(len(owners) == 1 and p.side not in owners, v.at(where, "cells"), "not one rival's field")
        return
    v.require(bool(p.options) and p.count == 0, where, f"a {p.kind} choice needs options")
    if p.kind == "keep":
        v.require(owners == {p.side}, v.at(where, "cells"), "not the side's own field")
    else:
        v.require(not p.cells, v.at(where, "cells"), f"a {p.kind} choice names no cells")


def from_json(d: dict[str, Any]) -> State:
    """Read a state written by ``to_json``; raises `StateError` naming the field when it is damaged."""
    with guard("the_floor"):
        return state_from_json(d)
