"""``FloorPlan``: the rules contract for Floor Plan (simultaneous roll-and-write, 1–100 players).

Flow: ``setup`` (the shared roll is [6, d]; every seat plays ``start ...``), then rounds of ``play``: one
shared roll per round, every seat that still plays this round acts once (``room``/``features``/``skip``),
``claim`` and ``doors`` may be added in the same text or sent alone before the action. A seat's work in a
round is private (``pending``) until the round closes; then it is committed and the next roll drawn.

Decisions beyond the rulebook and the adaptation (see also the notation module):
- The full-map ending is judged on the roll as rolled (no Wild, no bonuses): a seat that can place neither an
  a×b room nor both feature sets (a set of the same kind twice on a double) is *stuck* and triggers the end at
  the close of that round; a stuck seat still acts (``skip`` or whatever still fits).
- When the end is triggered the seats that did not trigger it (no sixth demand, not stuck) play one more
  round; if there are none, the game ends at once. The +3 goes only to the seats that filled their sixth note
  in the triggering round. Solo: no +3 (the solo scoring lists notes, Door Bonus and bubbles only); the game
  ends at the close of the round of the sixth demand, of a stuck roll, or of the 20th bubble.
- "Bonuses used" for the tie-break counts the Wild too. Resigned seats keep their sheet and rank last together.
- Absence is not a move: when a seat's deadline passes the engine logs ``timeout`` (`default_action`, never a
  player's verb: `ENGINE_VERBS`). In setup it draws the bot's ``start`` (the game cannot go on without a living
  room; deterministic, so the log replays); in play it draws nothing, like ``skip``, after any claims the seat
  sent alone this round. Either way the seat's round is over (event ``timeout``, not ``acted``).
- A solo score's rating (rulebook table; the gap at 24 goes to Dimwitted Designer: ``<=24``) is in the view as
  ``rating`` (an id, name in ``fp.rating.<id>``). The view also carries ``claimable``: the demands the viewer
  could score now (while the viewer is to act), or None.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from rules import rng
from rules.base import Event, IllegalActionError, Msg, NotYourTurnError, Outcome
from rules.floor_plan import demands as dm
from rules.floor_plan import notation as nt
from rules.floor_plan.bot import choose, choose_start
from rules.floor_plan.notation import Step
from rules.floor_plan.sheet import (
    FEATURE_KINDS,
    HEIGHT,
    ROOM_TYPES,
    WIDTH,
    Room,
    Sheet,
    add_features,
    add_room,
    cell_name,
    room_fits_somewhere,
    scan_key,
    sets_fit,
    start_room,
)
from rules.floor_plan.state import (
    BONUSES as BONUSES,
)
from rules.floor_plan.state import (
    CLIENT_STREAM as CLIENT_STREAM,
)
from rules.floor_plan.state import (
    MAX_ROUND_MINUTES as MAX_ROUND_MINUTES,
)
from rules.floor_plan.state import (
    OUTCOMES as OUTCOMES,
)
from rules.floor_plan.state import (
    ROLL_STREAM as ROLL_STREAM,
)
from rules.floor_plan.state import (
    SHEET_DATA as SHEET_DATA,
)
from rules.floor_plan.state import (  # re-exported: the surfaces and tests read them from the game
    SHEET_PATH as SHEET_PATH,
)
from rules.floor_plan.state import (
    Board as Board,
)
from rules.floor_plan.state import (
    Claim as Claim,
)
from rules.floor_plan.state import (
    SheetData as SheetData,
)
from rules.floor_plan.state import (
    State as State,
)
from rules.floor_plan.state import (
    _int as _int,
)
from rules.floor_plan.state import (
    _normalize as _normalize,
)
from rules.floor_plan.state import (
    _set as _set,
)
from rules.floor_plan.state import (
    evolve,
)
from rules.floor_plan.state import (
    parse_sheet_data as parse_sheet_data,
)
from rules.floor_plan.stored import state_from_json
from rules.validate import guard


def draw_clients(seed: str) -> tuple[str, ...]:
    return tuple(rng.shuffled(seed, CLIENT_STREAM + i, dm.by_kind(k))[0] for i, k in enumerate(dm.KINDS))


def roll_dice(seed: str, round_no: int) -> tuple[int, int]:
    r = rng.stream(seed, ROLL_STREAM + round_no)
    a, b = rng.below(r, 6) + 1, rng.below(r, 6) + 1
    return (6, b) if round_no == 0 else (a, b)


def is_stuck(sheet: Sheet, roll: tuple[int, int]) -> bool:
    """Whether the roll can be used neither as a room nor as two feature sets (full-map ending)."""
    a, b = roll
    if room_fits_somewhere(sheet, a, b):
        return False
    # Both sets at once: two kinds may compete for the same cells (doors and windows share the walls).
    return not sets_fit(sheet, [(FEATURE_KINDS[a - 1], a), (FEATURE_KINDS[b - 1], b)])


def final_score(s: State, seat: int) -> int:
    """Notes + end bonus (+ at the end: Door Bonus and the solo bubbles)."""
    b = s.board(seat)
    total = b.notes_total() + b.end_bonus
    if s.phase == "over":
        total += door_bonus(s, seat)
        if s.solo:
            total += (SHEET_DATA.solo_bubbles - bubbles_used(s)) // 2
    return total


def _door_bonus_view(bonus: dm.DoorBonus) -> dict[str, Any]:
    """Points per instance and, when the card caps the instances counted, the cap (``max``)."""
    cap = bonus.params.get("max")
    return {"points": bonus.points} if cap is None else {"points": bonus.points, "max": cap}


def door_bonus(s: State, seat: int) -> int:
    layout = dm.CLIENTS[s.clients[2]]
    if layout.door_bonus is None:
        return 0
    return layout.door_bonus.points * dm.door_bonus_count(layout, s.board(seat).sheet)


def bubbles_used(s: State) -> int:
    return min(s.round, SHEET_DATA.solo_bubbles)


def compute_outcome(s: State) -> Outcome:
    n = s.players
    scores = tuple(final_score(s, i) for i in range(n))
    active = [i for i in range(n) if i not in s.resigned]
    keys = {i: (-scores[i], s.boards[i].bonuses_used()) for i in active}
    groups: list[tuple[int, ...]] = [tuple(i for i in active if keys[i] == k) for k in sorted(set(keys.values()))]
    if s.resigned:
        groups.append(tuple(sorted(s.resigned)))
    return Outcome(winners=groups[0], ranking=tuple(groups), scores=tuple(float(x) for x in scores),
                   reason=s.reason)


class FloorPlan:
    """Floor Plan. See ``shared/games/floor_plan.md``, ``docs/floor_plan.md`` and the notation module."""

    id: ClassVar[str] = "floor_plan"
    name: ClassVar[str] = "Floor Plan"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 100
    ENGINE_VERBS: ClassVar[frozenset[str]] = frozenset(nt.ENGINE_VERBS)

    # --- setup -------------------------------------------------------------------------------------------

    def normalize_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        return _normalize(players, options)

    def new(self, players: int, options: dict[str, Any], seed: str) -> State:
        opts = _normalize(players, options)
        clients = tuple(opts["clients"]) if "clients" in opts else draw_clients(seed)
        return State(
            players=players, seed=seed, round_minutes=opts["round_minutes"], clients=clients, phase="setup",
            round=0, roll=roll_dice(seed, 0), boards=(Board.empty(),) * players, pending=(None,) * players,
            actions=("",) * players, to_act=frozenset(range(players)), stuck=frozenset(),
        )

    # --- queries -----------------------------------------------------------------------------------------

    def to_move(self, s: State) -> frozenset[int]:
        return frozenset() if s.phase == "over" else s.to_act

    def legal_actions(self, s: State, seat: int) -> list[str] | None:
        """None while the seat may act (far too many placements to list); [] otherwise."""
        return None if seat in self.to_move(s) else []

    def outcome(self, s: State) -> Outcome | None:
        return compute_outcome(s) if s.phase == "over" else None

    def claimable(self, s: State, seat: int) -> list[str]:
        """The demands the seat could score now (on its own, pending sheet)."""
        b = s.board(seat, private=True)
        if None not in b.notes:
            return []
        claimed = {d: [c.tokens for c in b.claims if c.demand == d] for d in b.used_by_demand()}
        return dm.claimable(b.sheet, s.clients, b.used_by_demand(), claimed)

    # --- applying actions --------------------------------------------------------------------------------

    def notation(self, s: State, action: str) -> str:
        return nt.text(nt.parse(action))

    def apply(self, s: State, seat: int, action: str) -> tuple[State, list[Event]]:
        if s.phase == "over":
            raise IllegalActionError("fp.game_over")
        if not _int(seat) or not 0 <= seat < s.players:
            raise NotYourTurnError("fp.bad_seat", seat=seat, players=s.players)
        steps = nt.parse(action)
        if steps[0].verb == "resign":
            return self._resign(s, seat)
        if seat in s.resigned:
            raise NotYourTurnError("fp.you_resigned")
        if seat not in s.to_act:
            raise NotYourTurnError("fp.already_acted" if not s.last_round or s.actions[seat] else "fp.not_playing")
        if steps[0].verb == "timeout":
            return self._timeout(s, seat)
        if s.phase == "setup":
            if steps[0].verb != "start":
                raise IllegalActionError("fp.start_first", usage=nt.USAGE["start"])
            board = self._start(s, steps[0])
            return self._acted(s, seat, board, nt.text(steps), True)
        if steps[0].verb == "start":
            raise IllegalActionError("fp.start_done")
        board, consumed = self.run_steps(s, seat, steps)
        return self._acted(s, seat, board, nt.text(steps), consumed)

    def _timeout(self, s: State, seat: int) -> tuple[State, list[Event]]:
        """The seat's deadline passed: in setup the bot's start is drawn, in play nothing (as ``skip``)."""
        if s.phase == "setup":
            board = self._start(s, nt.parse(choose_start(s, seat))[0])
        else:
            board = s.board(seat, private=True)  # claims sent alone this round still count
        return self._acted(s, seat, board, "timeout", True, kind="timeout")

    def _start(self, s: State, step: Step) -> Board:
        assert s.roll is not None
        w, h = step.size
        d = s.roll[1]
        if sorted((w, h)) != sorted((6, d)):
            raise IllegalActionError("fp.start_size", w=w, h=h, d=d)
        x, y = step.cells[0]
        sheet = start_room(Sheet(), x, y, w, h)
        return replace(Board.empty(), sheet=sheet)

    def run_steps(self, s: State, seat: int, steps: nt.Action) -> tuple[Board, bool]:
        """The seat's board after the steps (pure); raises when any step is refused."""
        board = s.board(seat, private=True)
        consumed = False
        for step in steps:
            if step.verb in nt.MAIN_VERBS:
                board = self._main(s, board, step)
                consumed = True
            elif step.verb == "doors":
                board = self._doors(board, step)
            elif step.verb == "claim":
                board = self._claim(s, board, step)
        return board, consumed

    def _dice(self, s: State, board: Board, step: Step) -> tuple[tuple[int, int], Board]:
        assert s.roll is not None
        dice = s.roll
        if step.wild is None:
            return dice, board
        if board.wild_used:
            raise IllegalActionError("fp.wild_used")
        frm, to = step.wild
        if frm not in dice:
            raise IllegalActionError("fp.wild_not_rolled", die=frm, a=dice[0], b=dice[1])
        dice = (to, dice[1]) if dice[0] == frm else (dice[0], to)
        return dice, evolve(board, wild_used=True)

    def _use_bonus(self, board: Board, bonus: str) -> Board:
        i = board.open_bonus(bonus)
        if i is None:
            raise IllegalActionError("fp.no_bonus", bonus=Msg(f"fp.bonus.{bonus}"))
        return evolve(board, bonus_used=_set(board.bonus_used, i, True))

    def _main(self, s: State, board: Board, step: Step) -> Board:
        if step.verb == "skip":
            return board
        dice, board = self._dice(s, board, step)
        if step.verb == "room":
            if len(step.rooms) == 2:
                board = self._use_bonus(board, "double_room")
            sheet = board.sheet
            for r in step.rooms:
                if sorted((r.w, r.h)) != sorted(dice):
                    raise IllegalActionError("fp.room_size", w=r.w, h=r.h, a=dice[0], b=dice[1])
                allowed = {ROOM_TYPES[v - 1] for v in dice}
                if r.type not in allowed:
                    raise IllegalActionError("fp.room_type", type=r.type,
                                             allowed=" / ".join(sorted(allowed, key=ROOM_TYPES.index)))
                sheet = add_room(sheet, Room(r.type, r.x, r.y, r.w, r.h, r.label))
            return evolve(board, sheet=sheet)
        left = list(dice)
        doubled = [fs for fs in step.sets if fs.double]
        if len(doubled) > 1:
            raise IllegalActionError("fp.double_twice")
        if doubled:
            board = self._use_bonus(board, "double_feature")
        sheet = board.sheet
        for fs in step.sets:
            if fs.die not in left:
                raise IllegalActionError("fp.die_not_rolled", die=fs.die, a=dice[0], b=dice[1])
            left.remove(fs.die)
            kind = FEATURE_KINDS[fs.die - 1]
            want = fs.die * (2 if fs.double else 1)
            if len(fs.cells) != want:
                raise IllegalActionError("fp.feature_count", die=fs.die, count=want, got=len(fs.cells),
                                         kind=Msg(f"fp.sheet.feature.{kind}"))
            sheet = add_features(sheet, kind, fs.cells)
        return evolve(board, sheet=sheet)

    def _doors(self, board: Board, step: Step) -> Board:
        if len(step.cells) != 2:
            raise IllegalActionError("fp.two_doors_count", got=len(step.cells))
        board = self._use_bonus(board, "two_doors")
        return evolve(board, sheet=add_features(board.sheet, "door", step.cells))

    def _claim(self, s: State, board: Board, step: Step, assign: dm.Assigner | None = None) -> Board:
        """The board with the claim made. ``assign``: how to find the witnesses of a claim naming no cells (the
        planner's `dm.assign` shared by the candidate sheets that agree on what the demand reads)."""
        demand = dm.DEMANDS.get(step.demand)
        if demand is None or demand.client not in s.clients:
            ids = ", ".join(d.id for c in s.clients for d in dm.CLIENTS[c].demands)
            raise IllegalActionError("fp.claim.unknown", demand=step.demand, demands=ids)
        if step.note is not None:
            note = step.note - 1
            if not 0 <= note < len(board.notes):
                raise IllegalActionError("fp.claim.bad_note", note=step.note, count=len(board.notes))
            if board.notes[note] is not None:
                raise IllegalActionError("fp.claim.note_full", note=step.note)
        else:
            if None not in board.notes:
                raise IllegalActionError("fp.claim.no_note")
            note = board.notes.index(None)
        earlier = [c.tokens for c in board.claims if c.demand == demand.id]
        # A claim may name cells of the rooms/features it uses (``claim D with C2,B3``: only witnesses covering
        # them count); without them the engine picks a witness that keeps repeats of the demand possible, and may
        # choose the earlier claims' witnesses again (on paper only points are written; see `dm.assign`).
        if assign is None or step.witness:
            found = dm.assign(demand, board.sheet, earlier, step.witness)
        else:
            found = assign(demand, board.sheet, earlier)
        if found is None:
            about = {"demand": demand.id, "client": Msg(f"fp.client.{demand.client}"),
                     "text": Msg(f"fp.demand.{demand.id}")}
            if step.witness:
                raise IllegalActionError("fp.claim.named_not_met", cells=",".join(map(cell_name, step.witness)),
                                         **about)
            raise IllegalActionError("fp.claim.not_again" if earlier else "fp.claim.not_met", **about)
        again = iter(found[:-1])
        claims = tuple(evolve(c, tokens=next(again)) if c.demand == demand.id else c for c in board.claims)
        claim = Claim(demand.id, demand.points, note, found[-1])
        return evolve(board, notes=_set(board.notes, note, demand.points), claims=(*claims, claim))

    def _acted(self, s: State, seat: int, board: Board, text: str, consumed: bool,
               kind: str = "acted") -> tuple[State, list[Event]]:
        actions = _set(s.actions, seat, f"{s.actions[seat]}; {text}" if s.actions[seat] else text)
        s2 = replace(s, pending=_set(s.pending, seat, board), actions=actions)
        events = [Event(kind if consumed else "claims", seat, {"round": s.round})]
        if not consumed:
            return s2, events
        s2 = replace(s2, to_act=s.to_act - {seat})
        if s2.to_act:
            return s2, events
        return self._close_round(s2, events)

    def _resign(self, s: State, seat: int) -> tuple[State, list[Event]]:
        if seat in s.resigned:
            raise NotYourTurnError("fp.you_resigned")
        s2 = replace(s, resigned=s.resigned | {seat}, to_act=s.to_act - {seat}, stuck=s.stuck - {seat})
        events = [Event("resign", seat, {})]
        if len(s2.resigned) == s.players:
            return self._finish(s2, "fp.outcome.resigned", events)
        if seat in s.to_act and not s2.to_act:
            return self._close_round(s2, events)
        return s2, events

    # --- undo --------------------------------------------------------------------------------------------

    def undo_blocker(self, s: State, after: State, events: list[Event]) -> str | None:
        """A seat's work stays private (``pending``) until the round closes: until then it may be taken back.
        Closing the round reveals every sheet and rolls the next dice; a resignation is final and a timeout was
        not the player's choice."""
        kinds = {e.kind for e in events}
        if after.phase == "over":
            return "undo.reason.over"
        if "resign" in kinds:
            return "undo.reason.resign"
        if "timeout" in kinds:
            return "undo.reason.timeout"
        if "round" in kinds or after.roll != s.roll:
            return "undo.reason.rolled"
        return "undo.reason.closed" if "round_closed" in kinds else None

    # --- rounds -----------------------------------------------------------------------------------------

    def _close_round(self, s: State, events: list[Event]) -> tuple[State, list[Event]]:
        boards = tuple(p or b for p, b in zip(s.pending, s.boards, strict=True))
        summary = {"round": s.round, "roll": list(s.roll) if s.roll else None,
                   "claims": [{"seat": i, "demands": [c.demand for c in boards[i].claims[len(s.boards[i].claims):]]}
                              for i in range(s.players) if len(boards[i].claims) > len(s.boards[i].claims)]}
        s = replace(s, boards=boards, pending=(None,) * s.players, actions=("",) * s.players)
        events.append(Event("round_closed", None, summary))
        active = [i for i in range(s.players) if i not in s.resigned]
        if s.phase == "setup":
            return self._next_round(replace(s, phase="play"), frozenset(active), events)
        if s.last_round:
            return self._finish(s, "fp.outcome.sixth" if s.ending == "sixth" else "fp.outcome.full", events)
        sixth = [i for i in active if None not in boards[i].notes]
        stuck = [i for i in active if i in s.stuck]
        if s.solo:
            if sixth:
                return self._finish(s, "fp.outcome.sixth", events)
            if stuck:
                return self._finish(s, "fp.outcome.full", events)
            if s.round >= SHEET_DATA.solo_bubbles:
                return self._finish(s, "fp.outcome.bubbles", events)
            return self._next_round(s, frozenset(active), events)
        if not sixth and not stuck:
            return self._next_round(s, frozenset(active), events)
        if sixth:
            bonus = SHEET_DATA.sixth_bonus
            boards = tuple(replace(b, end_bonus=b.end_bonus + bonus) if i in sixth else b
                           for i, b in enumerate(boards))
        ending = "sixth" if sixth else "full"
        s = replace(s, boards=boards, ending=ending, last_round=True)
        events.append(Event("ending", None, {"ending": ending, "sixth": sixth, "stuck": stuck}))
        rest = frozenset(active) - set(sixth) - set(stuck)
        if not rest:
            return self._finish(s, f"fp.outcome.{ending}", events)
        return self._next_round(s, rest, events)

    def _next_round(self, s: State, seats: frozenset[int], events: list[Event]) -> tuple[State, list[Event]]:
        n = s.round + 1
        roll = roll_dice(s.seed, n)
        stuck = frozenset(i for i in seats if is_stuck(s.boards[i].sheet, roll))
        events.append(Event("round", None, {"round": n, "roll": list(roll), "seats": len(seats)}))
        return replace(s, round=n, roll=roll, to_act=seats, stuck=stuck), events

    def _finish(self, s: State, reason: str, events: list[Event]) -> tuple[State, list[Event]]:
        s = replace(s, phase="over", reason=reason, to_act=frozenset(), stuck=frozenset())
        events.append(Event("game_over", None, compute_outcome(s).to_json()))
        return s, events

    # --- views --------------------------------------------------------------------------------------------

    def sheet_view(self, s: State, seat: int, viewer: int | None = None) -> dict[str, Any]:
        """One seat's sheet as JSON; this round's pending work is shown only when ``viewer == seat``."""
        private = viewer == seat and s.pending[seat] is not None
        b = s.board(seat, private=private)
        sheet = b.sheet
        pending = None
        if private:
            old = s.boards[seat].sheet
            new_cells = _sheet_cells(sheet) - _sheet_cells(old)
            pending = {"action": s.actions[seat], "cells": _cells(new_cells)}
        notes = [{"points": p, "demand": _note_demand(b, i), "bonus": SHEET_DATA.notes[i], "bonus_used": u}
                 for i, (p, u) in enumerate(zip(b.notes, b.bonus_used, strict=True))]
        data = sheet.to_json()
        return {
            "seat": seat, **data, "pools": [_cells(p) for p in sheet.pool_regions], "notes": notes,
            "wild_used": b.wild_used, "bubbles_used": bubbles_used(s) if s.solo else None,
            "score": b.notes_total() + b.end_bonus + (door_bonus(s, seat) if s.phase == "over" else 0)
            + ((SHEET_DATA.solo_bubbles - bubbles_used(s)) // 2 if s.solo and s.phase == "over" else 0),
            "claims": [{"demand": c.demand, "points": c.points, "cells": [list(x) for x in dm.witness_cells(
                sheet, c.tokens)]} for c in b.claims],
            "pending": pending,
        }

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        viewer = seat if _int(seat) and 0 <= seat < s.players else None
        outcome = self.outcome(s)
        clients = []
        for cid in s.clients:
            c = dm.CLIENTS[cid]
            clients.append({"id": cid, "kind": c.kind, "demands": [{"id": d.id, "points": d.points}
                                                                  for d in c.demands],
                            "door_bonus": None if c.door_bonus is None else _door_bonus_view(c.door_bonus)})
        scores = [final_score(s, i) for i in range(s.players)]
        rating = SHEET_DATA.rating(scores[0]) if s.solo and s.phase == "over" else None
        return {
            "game": self.id, "width": WIDTH, "height": HEIGHT, "round": s.round,
            "roll": list(s.roll) if s.roll and s.phase != "over" else None, "phase": s.phase, "solo": s.solo,
            "players": s.players, "to_move": sorted(self.to_move(s)), "viewer": viewer, "ending": s.ending,
            "clients": clients, "scores": scores,
            "demands_done": [len(s.boards[i].claims) for i in range(s.players)],
            "sheet": None if viewer is None else self.sheet_view(s, viewer, viewer),
            "outcome": None if outcome is None else outcome.to_json(), "rating": rating,
            "claimable": self.claimable(s, viewer) if viewer is not None and viewer in s.to_act else None,
        }

    # --- serialisation --------------------------------------------------------------------------------------

    def to_json(self, s: State) -> dict[str, Any]:
        return {
            "version": 1, "players": s.players, "seed": s.seed,
            "options": {"round_minutes": s.round_minutes, "clients": list(s.clients)}, "phase": s.phase,
            "round": s.round, "roll": list(s.roll) if s.roll else None,
            "boards": [_board_json(b) for b in s.boards],
            "pending": [None if p is None else _board_json(p) for p in s.pending], "actions": list(s.actions),
            "to_act": sorted(s.to_act), "stuck": sorted(s.stuck), "resigned": sorted(s.resigned),
            "ending": s.ending, "last_round": s.last_round, "reason": s.reason,
        }

    def from_json(self, d: dict[str, Any]) -> State:
        """Read a state written by ``to_json``; raises `StateError` naming the field when it is damaged."""
        with guard("floor_plan"):
            return state_from_json(d)

    # --- automation --------------------------------------------------------------------------------------

    def bot_action(self, s: State, seat: int) -> str:
        if seat not in self.to_move(s):
            raise NotYourTurnError("fp.not_playing")
        return choose(self, s, seat)

    def default_action(self, s: State, seat: int) -> str:
        """The action the engine logs when the seat's deadline passes (see `_timeout`)."""
        return "timeout"


def _note_demand(b: Board, note: int) -> str | None:
    for c in b.claims:
        if c.note == note:
            return c.demand
    return None


def _sheet_cells(sheet: Sheet) -> set[tuple[str, tuple[int, int]]]:
    out: set[tuple[str, tuple[int, int]]] = set()
    for r in sheet.rooms:
        out |= {("room", c) for c in r.cells()}
    for x, y in sheet.trees:
        out |= {("tree", (x + dx, y + dy)) for dx in range(3) for dy in range(3)}
    for kind in ("doors", "windows", "furnishings", "decks", "stones"):
        out |= {(kind, c) for c in getattr(sheet, kind)}
    return out


def _cells(cells: Any) -> list[list[int]]:
    flat = {c[1] if isinstance(c[0], str) else c for c in cells}
    return [list(c) for c in sorted(flat, key=scan_key)]


def _board_json(b: Board) -> dict[str, Any]:
    return {"sheet": b.sheet.to_json(), "notes": list(b.notes), "bonus_used": list(b.bonus_used),
            "claims": [{"demand": c.demand, "points": c.points, "note": c.note, "tokens": sorted(c.tokens)}
                       for c in b.claims],
            "wild_used": b.wild_used, "end_bonus": b.end_bonus}


__all__ = ["Board", "Claim", "FloorPlan", "State"]
