"""A sheet drawn on another takes the derived lookups it shares with it, and grows the ones a room or a set of
features extends (issue 25: the planner weighs ~20 candidate sheets a decision, each derived afresh before); free
cells are read off bit masks, and a set of features whose cells are all free is accepted on masks at once. Each
answer equals the one a sheet built afresh from the same parts (or the cell-by-cell checks) works out, on the
sheets and the candidate rooms and feature sets of seeded bot games."""

from __future__ import annotations

import random

from rules.base import RulesError
from rules.floor_plan import FloorPlan
from rules.floor_plan.notation import Step
from rules.floor_plan.planner.features import _feature_cands, _with_two_doors
from rules.floor_plan.planner.rooms import _room_cands
from rules.floor_plan.planner.search import _context
from rules.floor_plan.sheet import (
    ALL_CELLS,
    FEATURE_KINDS,
    HEIGHT,
    TREE_SIZE,
    WIDTH,
    Cell,
    Room,
    Sheet,
    _check_cells,
    _unattached_decks,
    _with,
    add_features,
    add_room,
    free_cells,
    rect_cells,
    scan_key,
)

FP = FloorPlan()
DERIVED = ("room_of", "room_mask", "blocked_mask", "features_mask", "walls_mask", "labels_mask", "labels", "walls",
           "tree_of", "features", "pool_regions", "water", "pool_of")


def _fresh(sheet: Sheet) -> Sheet:
    return Sheet(sheet.rooms, sheet.trees, sheet.doors, sheet.windows, sheet.furnishings, sheet.decks, sheet.stones)


def _long_free_cells(sheet: Sheet, kind: str) -> list[Cell]:
    """The long way: sets of blocked cells, sorted."""
    blocked = sheet.labels | sheet.features.keys() | sheet.water
    if kind in ("door", "window"):
        return sorted((c for c in sheet.walls if c not in blocked), key=scan_key)
    if kind == "furnishing":
        return sorted((c for c in sheet.room_of if c not in blocked), key=scan_key)
    open_ = {c for c in ALL_CELLS if c not in blocked and c not in sheet.room_of}
    if kind != "tree":
        return sorted(open_, key=scan_key)
    return [(x, y) for x, y in ALL_CELLS
            if x + TREE_SIZE <= WIDTH and y + TREE_SIZE <= HEIGHT and rect_cells(x, y, TREE_SIZE, TREE_SIZE) <= open_]


def _drawn(sheet: Sheet, step: Step) -> list[Sheet]:
    """The sheets one candidate's main step draws, one part at a time, on ``sheet`` (its lookups all worked out)."""
    out = []
    try:
        if step.verb == "room":
            for r in step.rooms:
                sheet = add_room(sheet, Room(r.type, r.x, r.y, r.w, r.h, r.label))
                out.append(sheet)
        elif step.verb in ("features", "doors"):
            sets = [(FEATURE_KINDS[fs.die - 1], fs.cells) for fs in step.sets] if step.verb == "features" else [
                ("door", step.cells)]
            for kind, cells in sets:
                sheet = add_features(sheet, kind, cells)
                out.append(sheet)
    except RulesError:
        pass
    return out


def _states(seed: str) -> list[object]:
    s, out = FP.new(1, {}, seed), []
    while FP.outcome(s) is None:
        out.append(s)
        s, _ = FP.apply(s, 0, FP.bot_action(s, 0))
    return out


def test_a_sheet_drawn_on_another_derives_what_a_fresh_sheet_derives() -> None:
    kinds: set[str] = set()
    checked = 0
    for seed in ("derived-a", "derived-b", "derived-c", "derived-d"):
        for s in _states(seed)[1::2]:
            if s.roll is None:
                continue
            ctx = _context(FP, s, 0)
            cands = [*_room_cands(ctx), *_feature_cands(ctx)]
            cands += _with_two_doors(ctx, cands)
            for cand in cands:
                sheet = ctx.board.sheet
                for name in DERIVED:
                    getattr(sheet, name)  # the parent's lookups worked out: the child takes or grows them
                for step in cand.steps:
                    for new in _drawn(sheet, step):
                        fresh = _fresh(new)
                        for name in DERIVED:
                            assert getattr(new, name) == getattr(fresh, name), (name, cand.steps)
                        for kind in ("door", "window", "furnishing", "tree", "deck", "stone"):
                            assert free_cells(new, kind) == _long_free_cells(fresh, kind), kind
                        checked += 1
                        sheet = new
                    kinds |= {step.verb} | ({FEATURE_KINDS[fs.die - 1] for fs in step.sets} if step.sets else set())
    assert checked > 300
    assert kinds >= {"room", "doors", "tree", "door", "window", "furnishing", "deck", "stone"}, kinds


def test_free_cells_on_masks_are_the_free_cells_of_the_long_way() -> None:
    for seed in ("derived-a", "derived-e"):
        for s in _states(seed):
            for kind in ("door", "window", "furnishing", "tree", "deck", "stone"):
                assert free_cells(s.boards[0].sheet, kind) == _long_free_cells(_fresh(s.boards[0].sheet), kind)


def _long_add(sheet: Sheet, kind: str, cells: list[Cell]) -> Sheet:
    """The long way: every cell checked one by one, then the decks' attachment."""
    _check_cells(sheet, kind, cells)
    if kind == "deck" and (loose := _unattached_decks(sheet, cells)):
        raise RulesError("fp.sheet.deck_unattached", cell=loose[0])
    return _with(sheet, kind, cells)


def _outcome(fn: object, sheet: Sheet, kind: str, cells: list[Cell]) -> object:
    try:
        return fn(sheet, kind, cells)  # type: ignore[operator]
    except RulesError as e:
        return e.msg.key if e.msg.key == "fp.sheet.deck_unattached" else (e.msg.key, e.msg.params)


def test_a_set_of_features_is_accepted_or_refused_as_the_cell_by_cell_checks_decide() -> None:
    """Sets of free cells, of cells anywhere, repeated cells and cells off the sheet, for every kind: the mask
    check accepts exactly the sets the cell-by-cell checks accept (the same sheet), and a refused set raises the
    error those checks name."""
    pick = random.Random("sets")
    accepted = refused = 0
    for s in _states("derived-f")[1::2]:
        sheet = s.boards[0].sheet
        for kind in ("door", "window", "furnishing", "tree", "deck", "stone"):
            free = free_cells(sheet, kind)
            for _ in range(30):
                how = pick.randrange(4)
                if how == 0 and free:
                    cells = pick.sample(free, min(len(free), pick.randint(1, 4)))
                elif how == 1:
                    cells = pick.sample(list(ALL_CELLS), pick.randint(1, 4))
                elif how == 2 and free:
                    cells = [pick.choice(free)] * 2
                else:
                    cells = [(pick.randint(-1, WIDTH), pick.randint(-1, HEIGHT)) for _ in range(2)]
                got, want = _outcome(add_features, sheet, kind, cells), _outcome(_long_add, sheet, kind, cells)
                assert got == want, (kind, cells)
                if isinstance(got, Sheet):
                    accepted += 1
                else:
                    refused += 1
    assert accepted > 200 and refused > 200, (accepted, refused)


def _long_walls_of(room: Room, cell: Cell) -> tuple[str, ...]:
    """The long way: each side tested in N, E, S, W order."""
    x, y = cell
    sides = (("N", y == room.y), ("E", x == room.x + room.w - 1), ("S", y == room.y + room.h - 1),
             ("W", x == room.x))
    return tuple(d for d, on in sides if on)


def test_the_sides_a_cell_lies_on_read_from_a_table_are_the_sides_tested_one_by_one() -> None:
    """Every cell of every room shape at a few places (thin rooms lie on two opposite sides, a 1×1 on all four)."""
    checked = 0
    for w in range(1, 7):
        for h in range(1, 7):
            for x, y in ((0, 0), (3, 2), (WIDTH - w, HEIGHT - h)):
                room = Room("K", x, y, w, h, (x, y))
                for cell in rect_cells(x, y, w, h):
                    assert room.walls_of(cell) == _long_walls_of(room, cell), (room, cell)
                    checked += 1
    assert checked > 1000
