"""The planner's judgement of a sheet: the claims to make, banked demands and partial progress toward each."""

from __future__ import annotations

from typing import Any

from rules.base import RulesError
from rules.floor_plan import demands as dm
from rules.floor_plan.notation import Step
from rules.floor_plan.planner.context import (
    EARLY_CLAIM,
    END_AVERAGE,
    END_ROUND,
    PROGRESS_WEIGHT,
    ROOM_WORTH,
    STOCK_CAP,
    _Ctx,
)
from rules.floor_plan.sheet import (
    FULL,
    NEIGHBOURS,
    Sheet,
    cell_name,
    shifted,
)
from rules.floor_plan.state import SHEET_DATA, Board

# --- claims and evaluation -------------------------------------------------------------------------------------


# The sheet parts besides its rooms that each demand's witnesses are built from (`demands.FINDERS`): a candidate
# that leaves them as they were has the same stock. Ops missing here read more (views, touching): never shared.
READS: dict[str, str | tuple[str, ...]] = {
    "room_count": "", "room_types": "", "room_size": "", "square_room": "", "courtyard": "",
    "connected": "doors", "connected_same": "doors", "connected_count": "doors", "chain": "doors",
    "reachable": "doors", "exterior_doors": "doors", "windows": "windows", "window_walls": "windows",
    "furnished": "furnishings", "arrangement": "furnishings", "deck": "decks", "deck_rooms": "decks",
    # pools: the stones, and the rooms and outside features that may fill an enclosed region
    "pool": ("stones", "decks", "trees"), "deck_pool": ("stones", "decks", "trees"),
    # a door onto a feature: the doors (their rooms and the outside cells next to them) and the features outside
    "door_onto": ("doors", "decks", "stones", "trees"),
}


def _part(sheet: Sheet, reads: str | tuple[str, ...]) -> Any:
    if isinstance(reads, tuple):
        return tuple(getattr(sheet, name) for name in reads)
    return getattr(sheet, reads) if reads else None


# Ops whose witnesses a bare room added to the sheet cannot change: a new room holds no feature (rooms are
# never drawn on one) and touches no pool; those read through doors, only while no door lies next to it (a door
# beside it would link into it). Their progress likewise, for the ops in ROOM_BLIND_PROGRESS.
ROOM_BLIND = frozenset({"windows", "window_walls", "furnished", "arrangement", "pool", "deck", "deck_pool"})
ROOM_BLIND_BY_DOORS = frozenset({"connected", "connected_same", "connected_count", "chain", "exterior_doors",
                                 "door_onto"})
ROOM_BLIND_PROGRESS = frozenset({"window_walls", "furnished", "pool", "deck", "deck_pool", "chain",
                                 "exterior_doors"})
_SAME_FEATURES = ("trees", "doors", "windows", "furnishings", "decks", "stones")


def _rooms_read(f: dm.Facts, d: dm.Demand, base: Sheet | None, ops: frozenset[str]) -> tuple[Any, ...]:
    """The rooms tuple a shared answer about ``d`` is keyed on: the ``base`` sheet's (the seat's sheet before its
    action) when ``f``'s sheet is that sheet with bare rooms added and ``d``'s op cannot see them, else its own."""
    rooms = f.sheet.rooms
    if base is None or not (d.op in ops and d.op in ROOM_BLIND | ROOM_BLIND_BY_DOORS):
        return rooms
    grown = _grown_of(f, base)
    if (grown == "bare" and d.op in ROOM_BLIND) or grown == "bare, no door beside":
        return base.rooms
    return rooms


def _grown(sheet: Sheet, base: Sheet) -> str:
    """"bare, no door beside" / "bare" when ``sheet`` is ``base`` with rooms added and nothing else (no door next
    to a new room / some door next to one), "" otherwise."""
    n = len(base.rooms)
    if not n or len(sheet.rooms) <= n or any(a is not b for a, b in zip(sheet.rooms, base.rooms, strict=False)):
        return ""
    if any(getattr(sheet, part) is not getattr(base, part) for part in _SAME_FEATURES):
        return ""
    new = set().union(*(r.cells() for r in sheet.rooms[n:]))
    beside = any(nb in new for c in sheet.doors for nb in NEIGHBOURS[c])
    return "bare" if beside else "bare, no door beside"


# The Facts a sheet with bare rooms added shares with the sheet before: its decks, trees, furnishing groups and
# windows by room (a room is never drawn on a feature), and its doors' links while no door lies beside a new room.
BARE_FACTS = ("decks", "tree_cells", "arrangements", "window_rooms")
DOOR_FACTS = ("door_links", "links", "door_rooms")


# The Facts (and the planner's memo of rooms side by side) derived from the listed sheet parts alone
# (`demands.Facts`, `geometry`): a feature candidate's sheet holding those very parts (the same objects, which
# drawing other parts keeps) has the seat's sheet's. A window view also reads the pools, which the rooms, trees,
# decks and stones fix (doors, windows and furnishings lie inside rooms).
FACT_PARTS: dict[str, tuple[str, ...]] = {
    "owner": ("rooms",), "courtyards": ("rooms",), "door_links": ("rooms", "doors"), "links": ("rooms", "doors"),
    "door_rooms": ("rooms", "doors"), "arrangements": ("rooms", "furnishings"), "decks": ("decks",),
    "tree_cells": ("trees",), "window_views": ("rooms", "windows", "trees", "decks", "stones"),
    "window_rooms": ("rooms", "windows"),
}


# Facts only some demands read (adopting one works it out on the seat's sheet): left out of the adoption
# unless one of the call's demands has such an op.
FACT_OPS = {"arrangements": frozenset({"arrangement"}), "window_views": frozenset({"window_sees"})}


def _adopt_base(f: dm.Facts, base: Sheet, ops: frozenset[str] | None = None) -> None:
    """Give a candidate's Facts the seat's sheet's answers where the candidate cannot change them: those of
    `FACT_PARTS` whose parts it keeps, and for a room candidate those a bare room cannot change. ``ops``: the
    call's demands' ops (None: adopt every fact, whoever reads it)."""
    sheet = f.sheet
    if sheet.rooms is base.rooms:
        parent = dm.facts_of(base)
        f.adopt(parent, [name for name, parts in FACT_PARTS.items() if _read(name, ops)
                         and all(getattr(sheet, p) is getattr(base, p) for p in parts)])
        if "adjacent_pairs" not in f.memo:
            f.memo["adjacent_pairs"] = _adjacent_pairs(parent)
        _doors_from(f, parent)
        return
    grown = _grown_of(f, base)
    if grown:
        parent = dm.facts_of(base)
        names = BARE_FACTS + (DOOR_FACTS if grown == "bare, no door beside" else ())
        f.adopt(parent, [name for name in names if _read(name, ops)])
        if "adjacent_pairs" not in f.memo:  # the seat's sheet's pairs and those of the new rooms
            f.memo["adjacent_pairs"] = _adjacent_pairs(parent) | _pairs_of(f, len(base.rooms))
    _doors_from(f, dm.facts_of(base))


def _doors_from(f: dm.Facts, parent: dm.Facts) -> None:
    """Have ``f`` work its door links out from ``parent``'s (`Facts.doors_from`) when its sheet holds the parent
    sheet's rooms first (the same objects) and all of its doors, and they are not adopted whole already."""
    sheet, base = f.sheet, parent.sheet
    if f is parent or "door_links" in f.__dict__ or not base.doors <= sheet.doors or len(sheet.rooms) < len(base.rooms):
        return
    if sheet.rooms is base.rooms or all(a is b for a, b in zip(sheet.rooms, base.rooms, strict=False)):
        f.doors_from(parent)


def _read(name: str, ops: frozenset[str] | None) -> bool:
    """Whether a demand of ``ops`` may read the fact ``name`` (every fact when ``ops`` is None)."""
    return ops is None or name not in FACT_OPS or bool(FACT_OPS[name] & ops)


def _grown_of(f: dm.Facts, base: Sheet) -> str:
    """`_grown` of ``f``'s sheet from ``base``, memoised on ``f``."""
    hit = f.memo.get(("grown", id(base)))
    if hit is None or hit[0] is not base:
        hit = f.memo[("grown", id(base))] = (base, _grown(f.sheet, base))
    return hit[1]


def _stock(f: dm.Facts, d: dm.Demand, used: frozenset[str], shared: dict[Any, Any] | None = None,
           base: Sheet | None = None) -> int:
    """How many more times the demand could be scored on the sheet as it is (disjoint witnesses, capped).
    Memoised on the Facts (the claims, the end test and the evaluation of one candidate ask the same) and, in
    ``shared`` (one planner call's), on the sheet parts the demand reads: most candidates change one part, and
    a room candidate adds a room most demands on features cannot see (`_rooms_read`, against ``base``)."""
    key = ("stock", d.id, used)
    if key in f.memo:
        return f.memo[key]
    reads = READS.get(d.op)
    if shared is None or reads is None:
        f.memo[key] = _count_stock(f, d, used)
        return f.memo[key]
    rooms = _rooms_read(f, d, base, ROOM_BLIND | ROOM_BLIND_BY_DOORS)
    wide = (d.id, used, id(rooms), _part(f.sheet, reads))
    hit = shared.get(wide)
    if hit is None or hit[0] is not rooms:  # the rooms tuple itself (kept alive here), not a reused id
        hit = shared[wide] = (rooms, _count_stock(f, d, used))
    f.memo[key] = hit[1]
    return hit[1]


def _count_stock(f: dm.Facts, d: dm.Demand, used: frozenset[str]) -> int:
    cands = []
    for cand in dm.FINDERS[d.op](f, d.params, used):
        cands.append(cand)
        if len(cands) >= 24:
            break
    if not cands:
        return 0
    if d.op == "reachable":
        return 1
    return _packed(cands, STOCK_CAP, budget=300)


class _Enough(Exception):
    """`_packed` found ``cap`` disjoint witnesses: the search can stop."""


def _packed(cands: list[dm.Witness], cap: int, budget: int) -> int:
    """``min(cap, len(demands.packing(cands, budget)))``: the same branch and bound, step for step, stopped as
    soon as ``cap`` disjoint witnesses are found (its best only grows, so the capped answer cannot change)."""
    best = 0
    steps = 0

    def grow(chosen: int, rest: list[dm.Witness]) -> None:
        nonlocal best, steps
        steps += 1
        if chosen > best:
            best = chosen
            if best >= cap:
                raise _Enough
        if steps > budget or chosen + len(rest) <= best:
            return
        head, tail = rest[0], rest[1:]
        grow(chosen + 1, [c for c in tail if c.isdisjoint(head)])
        grow(chosen, tail)

    try:
        grow(0, cands)
    except _Enough:
        return cap
    return min(cap, best)


MOST_POINTS = max(d.points for d in dm.DEMANDS.values())  # the cards' best demand


def _claim_plan(ctx: _Ctx, board: Board, f: dm.Facts) -> tuple[list[Step], int, Board]:
    """The claims to make now (policy in the module docstring), their points and the board after them.

    Only claims with a fresh witness are considered (not the engine's costly re-choice of earlier witnesses:
    rare, and the search would pay for it on every candidate)."""
    steps: list[Step] = []
    points = 0
    while None in board.notes:
        # a demand is claimable when it has a witness: a stock above 0 (the end test and evaluation read them too)
        opts = [d.id for d, k in zip(ctx.demands, _stocks(ctx, board, f), strict=True) if k > 0]
        if not opts:
            break
        best = max(opts, key=lambda d: (dm.DEMANDS[d].points, d))
        open_notes = board.notes.count(None)
        early = open_notes > 1 and dm.DEMANDS[best].points >= EARLY_CLAIM * MOST_POINTS
        if not early and not _last_round(ctx) and not _ready_to_end(ctx, board, f):
            break
        step = Step("claim", demand=best)
        try:
            claimed = ctx.game._claim(ctx.s, board, step, lambda d, _, earlier: _assign(ctx, f, d, earlier))
        except RulesError:
            break
        _after_claim(ctx, f, board, claimed, best)
        board = claimed
        steps.append(step)
        points += dm.DEMANDS[best].points
    return steps, points, board


def _assign(ctx: _Ctx, f: dm.Facts, d: dm.Demand, earlier: list[dm.Witness]) -> tuple[dm.Witness, ...] | None:
    """`dm.assign` of a claim on ``f``'s sheet, shared like `_stock` by the call's candidate sheets that agree on
    what the demand reads (its witnesses are listed from those parts alone, so the same ones are chosen)."""
    reads = READS.get(d.op)
    if reads is None:
        return dm.assign(d, f, earlier)
    rooms = _rooms_read(f, d, ctx.board.sheet, ROOM_BLIND | ROOM_BLIND_BY_DOORS)
    wide = ("assign", d.id, tuple(earlier), id(rooms), _part(f.sheet, reads))
    hit = ctx.stocks.get(wide)
    if hit is None or hit[0] is not rooms:  # the rooms tuple itself (kept alive here), not a reused id
        hit = ctx.stocks[wide] = (rooms, dm.assign(d, f, earlier))
    return hit[1]


def _stocks(ctx: _Ctx, board: Board, f: dm.Facts) -> list[int]:
    """`_stock` of each of the call's demands on ``f``'s sheet with the board's claims, once per claims tuple: the
    claims, the end test and the evaluation each ask for all of them. Memoised on ``f`` with the `_used` dict it
    was made for (kept alive there: a dict of another call, or a reused id, never matches)."""
    used = _used(ctx, board)
    hit = f.memo.get(("stocks", id(used)))
    if hit is None or hit[0] is not used:
        sheet = ctx.board.sheet
        hit = f.memo[("stocks", id(used))] = (
            used, [_stock(f, d, used.get(d.id, frozenset()), ctx.stocks, sheet) for d in ctx.demands])
    return hit[1]


def _after_claim(ctx: _Ctx, f: dm.Facts, before: Board, after: Board, demand: str) -> None:
    """Seed `_used` and `_stocks` for the board a claim of ``demand`` left on ``before``: a claim (and the earlier
    witnesses it may choose again) holds only that demand's tokens, so every other demand's tokens are the same
    set, and its stock the same count; only the claimed demand's are worked out (its key stays in place, or comes
    last, as `Board.used_by_demand` orders them)."""
    used = {**_used(ctx, before), demand: after.used_for(demand)}
    ctx.used[id(after.claims)] = (after.claims, used)
    sheet = ctx.board.sheet
    stocks = [k if d.id != demand else _stock(f, d, used[demand], ctx.stocks, sheet)
              for d, k in zip(ctx.demands, _stocks(ctx, before, f), strict=True)]
    f.memo[("stocks", id(used))] = (used, stocks)


def _used(ctx: _Ctx, board: Board) -> dict[str, frozenset[str]]:
    """``board.used_by_demand()``, once per claims tuple in a call: the candidates' boards keep the seat's claims
    (the same tuple) until they claim, and the claims, the end test and the evaluation each ask."""
    hit = ctx.used.get(id(board.claims))
    if hit is None or hit[0] is not board.claims:  # the tuple itself (kept alive here), not a reused id
        hit = ctx.used[id(board.claims)] = (board.claims, board.used_by_demand())
    return hit[1]


def _last_round(ctx: _Ctx) -> bool:
    """Whether the game ends when this round closes whatever the seat does: claim all there is."""
    s = ctx.s
    return s.last_round or ctx.seat in s.stuck or (s.solo and s.round >= SHEET_DATA.solo_bubbles)


def _banked(ctx: _Ctx, board: Board, f: dm.Facts) -> list[int]:
    """Points of the claims the sheet holds unclaimed (demand by demand), best first."""
    out: list[int] = []
    for d, k in zip(ctx.demands, _stocks(ctx, board, f), strict=True):
        out += [d.points] * k
    return sorted(out, reverse=True)


def _ready_to_end(ctx: _Ctx, board: Board, f: dm.Facts) -> bool:
    """Whether to fill every open note now (the sixth ends a solo game): six claims banked and late enough, or
    banked well. In a game with others the sixth note gives +3 and ends it for everyone: take it as soon as
    the banked claims are decent."""
    open_notes = board.notes.count(None)
    banked = _banked(ctx, board, f)[:open_notes]
    if len(banked) < open_notes:
        return False
    filled = [p for p in board.notes if p is not None]
    average = (sum(filled) + sum(banked)) / len(board.notes)
    good = END_AVERAGE * max(d.points for d in ctx.demands)
    if not ctx.s.solo:
        return average >= good - 1 or ctx.round >= END_ROUND - 3
    return ctx.round >= END_ROUND or average >= good


def _evaluate(ctx: _Ctx, board: Board, f: dm.Facts) -> float:
    """The sheet's worth beyond the claims made: banked claims that fit the open notes, progress toward the
    demands, Door Bonus instances, and a little for free space."""
    sheet = board.sheet
    used = _used(ctx, board)
    open_notes = board.notes.count(None)
    banked: list[int] = []
    progress = 0.0
    for d, k in zip(ctx.demands, _stocks(ctx, board, f), strict=True):
        u = used.get(d.id, frozenset())
        banked += [d.points] * k
        if k < STOCK_CAP:
            progress += d.points * PROGRESS_WEIGHT * _progress(f, d, u, ctx.stocks, ctx.board.sheet)
    value = 0.9 * sum(sorted(banked, reverse=True)[:open_notes]) + progress
    if ctx.layout.door_bonus is not None:
        value += ctx.layout.door_bonus.points * dm.door_bonus_count(ctx.layout, f)
    # Rooms are what most demands are built from; open space is what later rooms need.
    value += ROOM_WORTH * min(len(sheet.rooms), 12) + 0.01 * _open_area(sheet)
    return value


def _open_area(sheet: Sheet) -> int:
    """Free cells with at least 3 free neighbours: room for future rooms (counted on bit masks: this runs for
    every candidate)."""
    free = FULL & ~sheet.blocked_mask
    w, e, n, s = shifted(free)
    return (free & ((w & e & (n | s)) | (n & s & (w | e)))).bit_count()


# --- progress toward the next claim of a demand (0..1) ---------------------------------------------------------


def _progress(f: dm.Facts, d: dm.Demand, used: frozenset[str], shared: dict[Any, Any] | None = None,
              base: Sheet | None = None) -> float:
    """``shared``: one planner call's memo, on the sheet parts the demand reads (`READS`; its progress reads no
    more than its witnesses do), and for the ops in ROOM_BLIND_PROGRESS the ``base`` sheet's rooms."""
    reads = READS.get(d.op)
    if shared is None or reads is None:
        return _progress_of(f, d, used)
    rooms = _rooms_read(f, d, base, ROOM_BLIND_PROGRESS)
    wide = ("progress", d.id, used, id(rooms), _part(f.sheet, reads))
    hit = shared.get(wide)
    if hit is None or hit[0] is not rooms:
        hit = shared[wide] = (rooms, _progress_of(f, d, used))
    return hit[1]


def _progress_of(f: dm.Facts, d: dm.Demand, used: frozenset[str]) -> float:
    fn = PROGRESS.get(d.op)
    return max(0.0, min(0.95, fn(f, d.params, used))) if fn else 0.0


def _free_rooms(f: dm.Facts, t: str | None, used: frozenset[str]) -> list[int]:
    return [i for i in f.of_type(t) if dm.room(i) not in used]


def _adjacent_pairs(f: dm.Facts) -> set[tuple[int, int]]:
    """(room, other room) for every two rooms side by side; memoised on the Facts (several demands ask)."""
    if "adjacent_pairs" not in f.memo:
        f.memo["adjacent_pairs"] = _pairs_of(f)
    return f.memo["adjacent_pairs"]


def _pairs_of(f: dm.Facts, new: int = 0) -> set[tuple[int, int]]:
    """Rooms are rectangles that never overlap: two are side by side when an edge of one lies on an edge of the
    other over a common stretch (the same pairs as scanning every cell's neighbours, far fewer steps). With
    ``new``, only the pairs with a room from index ``new`` on."""
    out = set()
    rooms = f.rooms
    for i, a in enumerate(rooms):
        for j in range(max(i + 1, new), len(rooms)):
            b = rooms[j]
            beside = (a.x + a.w == b.x or b.x + b.w == a.x) and a.y < b.y + b.h and b.y < a.y + a.h
            above = (a.y + a.h == b.y or b.y + b.h == a.y) and a.x < b.x + b.w and b.x < a.x + a.w
            if beside or above:
                out.add((i, j))
                out.add((j, i))
    return out


def _p_room_count(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    return len(_free_rooms(f, p.get("type"), used)) / p["min"]


def _p_connected(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    same = "a" not in p
    taken = {int(t[5:]) for t in used if t.startswith("room:")}  # the rooms `used` names (dm.room tokens)
    rooms = f.rooms
    for r, o in _adjacent_pairs(f):
        if r in taken or o in taken:
            continue
        ta, tb = rooms[r].type, rooms[o].type
        if (same and ta == tb) or (not same and ta == p["a"] and tb == p["b"]):
            return 0.7  # a pair side by side, yet to be joined by a door
    if same:
        types = [f.rooms[i].type for i in _free_rooms(f, None, used)]
        return 0.3 if len(types) != len(set(types)) else 0.1
    have = {f.rooms[i].type for i in _free_rooms(f, None, used)}
    return 0.15 * (p["a"] in have) + 0.15 * (p["b"] in have)


def _beside(f: dm.Facts) -> dict[int, set[int]]:
    """Room -> the rooms side by side with it (`_adjacent_pairs` by room), memoised on the Facts."""
    if "beside" not in f.memo:
        out: dict[int, set[int]] = {}
        for r, o in _adjacent_pairs(f):
            out.setdefault(r, set()).add(o)
        f.memo["beside"] = out
    return f.memo["beside"]


def _p_connected_count(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    beside = _beside(f)
    linked = {(a, b) for _, a, b in f.links}
    best = 0.0
    for i in _free_rooms(f, p["type"], used):
        near = beside.get(i, set())  # only its size and members are read
        done = sum(1 for o in near if (i, o) in linked)
        best = max(best, (done + 0.5 * (len(near) - done)) / p["min"])
    return best


def _p_room_types(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    have = {f.rooms[i].type for i in _free_rooms(f, None, used)}
    return len(have & set(p["types"])) / len(p["types"])


def _p_furnished(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    best = 0
    for i in _free_rooms(f, None, used):
        best = max(best, sum(1 for c in f.sheet.furnishings if f.rooms[i].contains(c)))
    return best / p["min"]


def _p_arrangement(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    best = 0
    for a in f.arrangements:
        if f.rooms[a.room].type == p["room"] and dm.room(a.room) not in used:
            best = max(best, len(a.cells))
    return 0.1 * bool(_free_rooms(f, p["room"], used)) + best / p["min"] * 0.8


def _p_windows(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    best = 0
    rooms = _free_rooms(f, p["room"], used)
    for i in rooms:
        best = max(best, sum(1 for c in f.window_rooms.get(i, ()) if c in f.rooms[i].wall_cells()))
    return 0.1 * bool(rooms) + best / p["min"] * 0.8


def _p_window_walls(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    best = 0
    for i in _free_rooms(f, None, used):
        r = f.rooms[i]
        best = max(best, len({s for c in f.window_rooms.get(i, ()) if c in r.wall_cells() for s in r.walls_of(c)}))
    return best / p["min"]


def _p_window_sees(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    rooms = _free_rooms(f, p["room"], used)
    if not rooms:
        return 0.0
    target = {"tree": bool(f.sheet.trees), "pool": bool(f.pools), "deck": bool(f.sheet.decks),
              "stone": bool(f.sheet.stones)}[p["sees"]]
    windows = any(c in f.rooms[i].wall_cells() for i in rooms for c in f.sheet.windows)
    return 0.2 + 0.3 * target + 0.15 * windows


def _p_pool(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    biggest = max((len(pool) for pool in f.pools if not dm.cells_tok("water", pool) & used), default=0)
    stones = len(f.sheet.stones)
    return max(biggest / p["min"] * 0.7, min(stones, 8) / 8 * 0.5)


def _p_deck_pool(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    return 0.35 * bool(f.pools) + 0.25 * bool(f.sheet.decks) + 0.15 * bool(f.sheet.stones)


def _p_deck(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    biggest = max((len(d) for d in f.decks if not dm.cells_tok("deck", d) & used), default=0)
    return biggest / p["min"]


def _p_deck_rooms(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    best = 0
    for d in f.decks:
        if not dm.cells_tok("deck", d) & used:
            best = max(best, len([r for r in f.touching(d) if dm.room(r) not in used]))
    return 0.2 * bool(f.sheet.decks) + best / p["min"] * 0.7


def _p_door_onto(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    rooms = _free_rooms(f, p["room"], used)
    target = dm._feature_cells(f, p["feature"])
    near = any(n in target for i in rooms for c in f.rooms[i].wall_cells() for n in NEIGHBOURS[c])
    exterior = any(d.outside for d in f.door_links if d.room in rooms)
    return 0.1 * bool(rooms) + 0.4 * near + 0.3 * exterior


def _p_reachable(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    n = len(f.rooms)
    if not n:
        return 0.0
    best = 0
    for d in f.door_links:
        if not d.outside:
            continue
        seen, frontier = {d.room}, [d.room]
        while frontier:
            cur = frontier.pop()
            for _, a, b in f.links:
                if a == cur and b not in seen:
                    seen.add(b)
                    frontier.append(b)
        best = max(best, len(seen))
    return 0.2 * (best > 0) + 0.7 * best / n


def _p_exterior_doors(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    free = [d for d in f.door_links if d.outside and f"door:{cell_name(d.cell)}" not in used]
    return len(free) / p["min"]


def _p_chain(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    adj: dict[int, set[int]] = {}
    for _, a, b in f.links:
        if a != b and dm.room(a) not in used and dm.room(b) not in used:
            adj.setdefault(a, set()).add(b)
    best = 1 if f.rooms else 0
    steps = 0

    def walk(path: list[int]) -> None:
        nonlocal best, steps
        steps += 1
        best = max(best, len(path))
        if steps > 200 or best >= p["min"]:
            return
        for b in adj.get(path[-1], ()):
            if b not in path:
                walk([*path, b])

    for start in sorted(adj):
        walk([start])
    return best / p["min"]


def _p_courtyard(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    # Rough: more rooms means more walls to close a yard with.
    return min(len(f.rooms), 8) / 8 * 0.5


def _p_room_size(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    return 0.0  # met (or not) by one room drawn: nothing to build toward


PROGRESS = {
    "room_count": _p_room_count, "connected": _p_connected, "connected_same": _p_connected,
    "connected_count": _p_connected_count, "room_types": _p_room_types, "room_size": _p_room_size,
    "square_room": _p_room_size, "courtyard": _p_courtyard, "window_sees": _p_window_sees,
    "arrangement": _p_arrangement, "furnished": _p_furnished, "pool": _p_pool, "deck_pool": _p_deck_pool,
    "window_walls": _p_window_walls, "windows": _p_windows, "deck": _p_deck, "door_onto": _p_door_onto,
    "reachable": _p_reachable, "exterior_doors": _p_exterior_doors, "deck_rooms": _p_deck_rooms,
    "chain": _p_chain,
}
assert set(PROGRESS) == set(dm.OPS)
