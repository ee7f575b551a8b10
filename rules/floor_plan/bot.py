"""The bot: `choose` plays the planner's best suggestion (`rules.floor_plan.planner`).

`choose_baseline` is the earlier bot, kept as the cheap "random-but-legal" player of playouts and as the
baseline of the head-to-head (`tools.floor_plan_sim`): a few random legal candidates for the round's action,
each judged by the demand points it makes claimable at once (then by a little shape sense), followed by every
claim it can make. Both are deterministic for a state (the baseline's randomness is a stream of the game's seed).
"""

from __future__ import annotations

from typing import Any

from rules import rng
from rules.base import RulesError
from rules.floor_plan import demands as dm
from rules.floor_plan import notation as nt
from rules.floor_plan.notation import FeatureSet, RoomDraw, Step
from rules.floor_plan.planner import suggest
from rules.floor_plan.sheet import (
    FEATURE_KINDS,
    HEIGHT,
    NEIGHBOURS,
    ROOM_TYPES,
    WIDTH,
    Room,
    Sheet,
    add_features,
    add_room,
    cell_name,
    free_cells,
    start_spots,
)
from rules.floor_plan.state import Board, PlanRules, State

BOT_STREAM = 1_000_000
ROOM_TRIES = 80
ROOM_CANDIDATES = 6
EVALUATED = 3


def _stream(s: State, seat: int) -> Any:
    return rng.stream(s.seed, BOT_STREAM + s.round * 1000 + seat)


def choose_start(s: State, seat: int) -> str:
    assert s.roll is not None
    options = [f"start {cell_name((x, y))} {w}x{h}" for x, y, w, h in start_spots(s.roll[1])]
    return options[rng.below(_stream(s, seat), len(options))]


def _shuffle(r: Any, items: list[Any]) -> list[Any]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(r, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _wanted_types(s: State) -> list[str]:
    out: list[str] = []
    for cid in s.clients:
        for d in dm.CLIENTS[cid].demands:
            for key in ("type", "a", "b", "room"):
                t = d.params.get(key)
                if t and t not in out:
                    out.append(t)
    return out


def _label(r: Any, x: int, y: int, w: int, h: int) -> tuple[int, int]:
    """An inner cell when there is one (walls stay free for doors and windows)."""
    if w >= 3 and h >= 3:
        return x + 1 + rng.below(r, w - 2), y + 1 + rng.below(r, h - 2)
    return x + rng.below(r, w), y + rng.below(r, h)


def _contact(sheet: Sheet, room: Room) -> int:
    return sum(1 for c in room.wall_cells() for n in NEIGHBOURS[c] if n in sheet.room_of)


def _rooms(r: Any, s: State, sheet: Sheet, dice: tuple[int, int]) -> list[tuple[RoomDraw, int]]:
    """Up to ROOM_CANDIDATES legal rooms, each with its contact (cells touching earlier rooms)."""
    a, b = dice
    types = [ROOM_TYPES[a - 1], ROOM_TYPES[b - 1]]
    wanted = [t for t in _wanted_types(s) if t in types]
    out: list[tuple[RoomDraw, int]] = []
    for _ in range(ROOM_TRIES):
        w, h = (a, b) if rng.below(r, 2) else (b, a)
        x, y = rng.below(r, WIDTH - w + 1), rng.below(r, HEIGHT - h + 1)
        t = wanted[rng.below(r, len(wanted))] if wanted and rng.below(r, 4) else types[rng.below(r, 2)]
        room = Room(t, x, y, w, h, _label(r, x, y, w, h))
        try:
            add_room(sheet, room)
        except RulesError:
            continue
        out.append((RoomDraw(x, y, w, h, t, room.label), _contact(sheet, room)))
        if len(out) >= ROOM_CANDIDATES:
            break
    return out


def _deck_cells(r: Any, sheet: Sheet, count: int) -> list[tuple[int, int]] | None:
    free = set(free_cells(sheet, "deck"))
    chosen: list[tuple[int, int]] = []
    anchors = set(sheet.room_of) | set(sheet.decks)
    for _ in range(count):
        frontier = sorted(c for c in free if c not in chosen and any(n in anchors for n in NEIGHBOURS[c]))
        if not frontier:
            return None
        c = frontier[rng.below(r, len(frontier))]
        chosen.append(c)
        anchors.add(c)
    return chosen


def _pool_ring(r: Any, sheet: Sheet) -> list[tuple[int, int]] | None:
    """Six stones around two free outside cells (a pool of 2), when such a spot exists."""
    free = set(free_cells(sheet, "stone"))
    spots = []
    for x in range(1, WIDTH - 2):
        for y in range(1, HEIGHT - 1):
            inner = [(x, y), (x + 1, y)]
            ring = [(x - 1, y), (x + 2, y), (x, y - 1), (x + 1, y - 1), (x, y + 1), (x + 1, y + 1)]
            if all(c in free for c in inner + ring):
                spots.append(ring)
    return spots[rng.below(r, len(spots))] if spots else None


def _feature_set(r: Any, sheet: Sheet, die: int) -> FeatureSet | None:
    kind = FEATURE_KINDS[die - 1]
    cells: list[tuple[int, int]] | None
    if kind == "deck":
        cells = _deck_cells(r, sheet, die)
    elif kind == "stone" and (ring := _pool_ring(r, sheet)) is not None:
        cells = ring
    else:
        free = free_cells(sheet, kind)
        if kind == "door":
            joins = [c for c in free if any(n in sheet.room_of and sheet.room_of[n] != sheet.room_of[c]
                                            for n in NEIGHBOURS[c])]
            free = _shuffle(r, joins) + _shuffle(r, [c for c in free if c not in joins])
        else:
            free = _shuffle(r, free)
        cells = free[:die] if len(free) >= die else None
    if cells is None:
        return None
    try:
        add_features(sheet, kind, cells)
    except RulesError:
        return None
    return FeatureSet(die, False, tuple(cells))


def _two_doors(r: Any, board: Board) -> Step | None:
    """The Two Doors bonus on walls that join two rooms, when it is open."""
    if board.open_bonus("two_doors") is None:
        return None
    fs = _feature_set(r, board.sheet, 2)
    return None if fs is None else Step("doors", cells=fs.cells)


def _features(r: Any, sheet: Sheet, dice: tuple[int, int]) -> Step | None:
    sets = []
    for die in dice:
        fs = _feature_set(r, sheet, die)
        if fs is None:
            continue
        sheet = add_features(sheet, FEATURE_KINDS[die - 1], fs.cells)
        sets.append(fs)
    if not sets:
        return None
    return Step("features", sets=tuple(sorted(sets, key=lambda f: f.die)))


def _claims(game: PlanRules, s: State, board: Board) -> tuple[list[Step], int]:
    """Greedy claims on the board: the highest-points claimable demand first, while a note is open."""
    steps: list[Step] = []
    total = 0
    for _ in range(len(board.notes)):
        if None not in board.notes:
            break
        options = dm.claimable(board.sheet, s.clients, board.used_by_demand())
        if not options:
            break
        best = max(options, key=lambda d: dm.DEMANDS[d].points)
        step = Step("claim", demand=best)
        board = game._claim(s, board, step)
        steps.append(step)
        total += dm.DEMANDS[best].points
    return steps, total


def choose(game: PlanRules, s: State, seat: int) -> str:
    """The planner's best action for the seat."""
    return suggest(game, s, seat, limit=1)[0].text


def choose_baseline(game: PlanRules, s: State, seat: int) -> str:
    if s.phase == "setup":
        return choose_start(s, seat)
    assert s.roll is not None
    r = _stream(s, seat)
    board = s.board(seat, private=True)
    sheet = board.sheet
    rooms = sorted(_rooms(r, s, sheet, s.roll), key=lambda rc: -rc[1])[:EVALUATED]
    candidates: list[tuple[Step, float]] = []
    for rd, contact in rooms:
        bonus = 1.5 if len(sheet.rooms) < 9 else 0.0
        candidates.append((Step("room", rooms=(rd,)), bonus + min(contact, 8) * 0.1))
    feats = _features(r, sheet, s.roll)
    if feats is not None:
        candidates.append((feats, 0.0))
    best: tuple[float, str] | None = None
    for step, heuristic in candidates:
        steps: tuple[Step, ...] = (step,)
        try:
            after, _ = game.run_steps(s, seat, steps)
            extra = _two_doors(r, after)
            if extra is not None:
                after, _ = game.run_steps(s, seat, (step, extra))
                steps = (step, extra)
        except RulesError:
            continue
        claims, points = _claims(game, s, after)
        value = points + heuristic + rng.below(r, 100) / 100
        if best is None or value > best[0]:
            best = (value, nt.text((*steps, *claims)))
    if best is None:
        claims, _ = _claims(game, s, board)
        return nt.text((*claims, Step("skip")))
    return best[1]
