"""Reading a stored Floor Plan state (``FloorPlan.from_json``): every field is checked for shape, type and range
and the cross-references the rules rely on (claims and their notes, seats, phases) before the state is built, so
that a damaged row raises `StateError` naming the field instead of crashing a later move or view.
"""

from __future__ import annotations

from typing import Any

from rules import validate as v
from rules.base import FloorboardError, StateError
from rules.floor_plan import demands as dm
from rules.floor_plan.sheet import ALL_CELLS, SHEET_KEYS, Sheet, cell_name, parse_cell
from rules.floor_plan.state import OUTCOMES, SHEET_DATA, Board, Claim, State, _normalize

STATE_KEYS = ("version", "players", "seed", "options", "phase", "round", "roll", "boards", "pending", "actions",
              "to_act", "stuck", "resigned", "ending", "last_round", "reason")
BOARD_KEYS = ("sheet", "notes", "bonus_used", "claims", "wild_used", "end_bonus")
CLAIM_KEYS = ("demand", "points", "note", "tokens")
PHASES = ("setup", "play", "over")
ENDINGS = ("sixth", "full")
# Witness tokens (see `rules.floor_plan.demands`): ``door:C3`` names a cell, ``room:3``/``tree:0`` an element.
CELL_KINDS = ("door", "window", "furn", "deck", "water", "yard", "stone")
TOKEN_FEATURES = {"door": "doors", "window": "windows", "furn": "furnishings", "deck": "decks", "stone": "stones"}
CELL_TOKENS = frozenset(f"{kind}:{cell_name(c)}" for kind in CELL_KINDS for c in ALL_CELLS)
INDICES = frozenset(str(i) for i in range(len(ALL_CELLS)))
MAX_ACTIONS_TEXT = 2000  # one round's texts of a seat: one action (or "timeout"), doors, at most six claims
MAX_TOKENS = 1000


def state_from_json(d: Any) -> State:
    v.as_dict(d, "", STATE_KEYS)
    v.require(d["version"] == 1 and type(d["version"]) is int, "version", f"unknown version {v.show(d['version'])}")
    n = v.require_int(d, "players", 1, 100)
    opts = _options(d["options"], n)
    phase = v.require_str(d, "phase", choices=PHASES)
    s = State(
        players=n, seed=v.require_str(d, "seed"), round_minutes=opts["round_minutes"], clients=tuple(opts["clients"]),
        phase=phase, round=v.require_int(d, "round", 0, v.MAX_COUNTER), roll=_roll(d["roll"], phase),
        boards=tuple(_board(b, ("boards", i)) for i, b in enumerate(v.require_list(d, "boards", length=n))),
        pending=tuple(v.as_optional(b, ("pending", i), _board)
                      for i, b in enumerate(v.require_list(d, "pending", length=n))),
        actions=tuple(v.as_strs(d["actions"], "actions", MAX_ACTIONS_TEXT, length=n)),
        to_act=frozenset(v.as_seat_set(d["to_act"], "to_act", n)),
        stuck=frozenset(v.as_seat_set(d["stuck"], "stuck", n)),
        resigned=frozenset(v.as_seat_set(d["resigned"], "resigned", n)),
        ending=v.as_optional(d["ending"], "ending", v.as_str, 10, ENDINGS),
        last_round=v.require_bool(d, "last_round"), reason=v.require_str(d, "reason", choices=("", *OUTCOMES)),
    )
    _check_state(s)
    return s


def _options(raw: Any, players: int) -> dict[str, Any]:
    """The options as `FloorPlan.normalize_options` leaves them (the clients always drawn by then)."""
    v.as_dict(raw, "options", ("round_minutes", "clients"))
    try:
        opts = _normalize(players, raw)
    except FloorboardError as e:
        raise StateError(f"options: {e}") from e
    v.require(opts == raw, "options", "not in their normalized form")
    return opts


def _roll(raw: Any, phase: str) -> tuple[int, int] | None:
    if raw is None and phase == "over":  # never written so far, but the type allows it once the game is over
        return None
    a, b = v.as_ints(raw, "roll", 1, 6, length=2)
    return a, b


def _board(raw: Any, where: v.Where) -> Board:
    v.as_dict(raw, where, BOARD_KEYS)
    v.as_dict(raw["sheet"], v.at(where, "sheet"), SHEET_KEYS)  # a stored sheet has no view keys
    sheet = Sheet.from_json(raw["sheet"], v.at(where, "sheet"))
    size = len(SHEET_DATA.notes)
    path = v.at(where, "notes")
    notes = tuple(None if p is None else v.as_int(p, (path, i), 1, 10)
                  for i, p in enumerate(v.require_list(raw, "notes", where, length=size)))
    used = tuple(v.as_bools(raw["bonus_used"], v.at(where, "bonus_used"), size))
    claims = tuple(_claim(c, v.at(where, "claims", i), sheet)
                   for i, c in enumerate(v.require_list(raw, "claims", where, max_len=size)))
    b = Board(sheet, notes, used, claims, v.require_bool(raw, "wild_used", where),
              v.require_int(raw, "end_bonus", 0, SHEET_DATA.sixth_bonus, where))
    _check_notes(b, where)
    _check_repeats(b, where)
    return b


def _claim(raw: Any, where: v.Where, sheet: Sheet) -> Claim:
    v.as_dict(raw, where, CLAIM_KEYS)
    demand = v.require_str(raw, "demand", where, choices=dm.DEMANDS)
    points, want = v.require_int(raw, "points", 1, 10, where), dm.DEMANDS[demand].points
    if points != want and points not in dm.EARLIER_POINTS.get(demand, ()):  # a claim made before a tuning keeps
        v.fail(v.at(where, "points"), f"{demand} scores {want}")  # the points it was written with
    path = v.at(where, "tokens")
    tokens = v.as_strs(raw["tokens"], path, max_items=MAX_TOKENS)
    v.ascending(tokens, path)
    for i, tok in enumerate(tokens):
        if tok not in CELL_TOKENS:
            _index_token(tok, (path, i), sheet)
        else:
            _cell_token(tok, (path, i), sheet)
    return Claim(demand, points, v.require_int(raw, "note", 0, len(SHEET_DATA.notes) - 1, where), frozenset(tokens))


def _index_token(tok: str, where: v.Where, sheet: Sheet) -> None:
    """``room:3`` or ``tree:0``: an element of this sheet."""
    kind, _, ref = tok.partition(":")
    count = {"room": len(sheet.rooms), "tree": len(sheet.trees)}.get(kind, 0)
    v.require(ref in INDICES and int(ref) < count, where, f"{v.show(tok)} names no element of this sheet")


def _cell_token(tok: str, where: v.Where, sheet: Sheet) -> None:
    """``door:C3`` and the like: a feature of that kind on this sheet. Features are never erased and water never
    shrinks, so a witness the engine found still names them; a yard cell may since have been built on."""
    kind, _, ref = tok.partition(":")
    if kind == "yard":
        return
    cells = sheet.water if kind == "water" else getattr(sheet, TOKEN_FEATURES[kind])
    v.require(parse_cell(ref) in cells, where, f"{v.show(tok)}: no such {kind} on this sheet")


def _check_repeats(b: Board, where: v.Where) -> None:
    """A demand scored again uses other rooms and features (rulebook): claims of one demand are disjoint."""
    for k, c in enumerate(b.claims):
        earlier = frozenset().union(*(e.tokens for e in b.claims[:k] if e.demand == c.demand))
        v.require(not c.tokens & earlier, v.at(where, "claims", k, "tokens"), "reuses an element of an earlier claim")


def _check_notes(b: Board, where: v.Where) -> None:
    """Each claim fills its own note with its points; a filled note has a claim; a used bonus has its note."""
    by_note = {c.note: c for c in b.claims}
    v.require(len(by_note) == len(b.claims), v.at(where, "claims"), "two claims in one note")
    for i, points in enumerate(b.notes):
        claim = by_note.get(i)
        if (claim.points if claim else None) != points:
            v.fail(v.at(where, "notes", i), "disagrees with the claims")
        if points is None and b.bonus_used[i]:
            v.fail(v.at(where, "bonus_used", i), "a bonus of an empty note")


def _check_state(s: State) -> None:
    """What the rules keep true between actions (see `FloorPlan._close_round` and `_finish`)."""
    over = s.phase == "over"
    v.require(over == (s.reason != ""), "reason", "a reason is given exactly when the game is over")
    v.require(over or (s.phase == "setup") == (s.round == 0), "round", "round 0 is the setup, and only it")
    v.require(over or s.roll is not None, "roll", "a running game needs its roll")
    v.require(s.last_round == (s.ending is not None), "last_round", "the last round and the ending go together")
    v.require(not s.to_act & s.resigned and not s.stuck & s.resigned, "to_act", "a resigned seat still plays")
    v.require(over != bool(s.to_act), "to_act", "seats act exactly while the game runs")
    v.require(over or len(s.resigned) < s.players, "resigned", "every seat resigned in a running game")
    for i in range(s.players):
        v.require(bool(s.actions[i]) == (s.pending[i] is not None), ("actions", i),
                  "an action text goes with this round's pending work")
        for key, board in (("boards", s.boards[i]), ("pending", s.pending[i])):
            for k, c in enumerate(board.claims if board else ()):
                if dm.DEMANDS[c.demand].client not in s.clients:
                    v.fail(v.at(key, i, "claims", k, "demand"), "not a demand of this game's clients")
