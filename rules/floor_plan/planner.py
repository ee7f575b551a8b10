"""The planner: the best few actions for a seat's roll, scored by progress toward the game's demands.

Used by the bot (its first suggestion is the bot's action) and shown to players as suggestions. Per call it
builds a bounded set of candidates — every legal spot of each room the roll allows (the Wild and Double a Room
when open) ranked by a cheap placement score, the best few feature sets per die (Double a Feature when open),
the Two Doors bonus on the best few — and evaluates each on the sheet it leaves (`_evaluate`): the demands it
banks (disjoint witnesses still unclaimed), partial progress toward every unmet demand, Door Bonus instances,
minus the cost of a bonus spent. Claims follow a policy (`_claim_plan`): demands worth half the cards' best at
once (a filled note opens its bonus), the rest and the sixth note only when six claims are banked and the round
is late enough (or they are worth a lot).

Pure and deterministic for a state: no randomness is needed (ties break on the canonical text). Bounded: a few
dozen full evaluations per call (ROOM_EVALS, WILD_EVALS, FEATURE_VARIANTS, TWO_DOORS_EVALS); the benchmark
(`python -m tests.bench floor_plan`, row ``suggest``) times it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rules.base import RulesError
from rules.floor_plan import demands as dm
from rules.floor_plan import notation as nt
from rules.floor_plan.notation import FeatureSet, RoomDraw, Step
from rules.floor_plan.sheet import (
    FEATURE_KINDS,
    HEIGHT,
    NEIGHBOURS,
    ROOM_TYPES,
    STEPS,
    WIDTH,
    Cell,
    Room,
    Sheet,
    add_features,
    add_room,
    cell_name,
    free_cells,
    scan_key,
    start_spots,
)
from rules.floor_plan.state import SHEET_DATA, Board, PlanRules, State

ROOM_EVALS = 14  # rooms fully evaluated per call (best cheap scores, varied)
WILD_EVALS = 4  # of which may use the Wild
FEATURE_VARIANTS = 3  # feature sets generated per die
TWO_DOORS_EVALS = 4  # candidates retried with the Two Doors bonus
STOCK_CAP = 3  # disjoint witnesses counted per demand
PROGRESS_WEIGHT = 0.45  # a demand half met is worth this share of its points
WILD_COST = 2.5  # the Wild is one per game: spend it only for a clear gain
BONUS_COST = 1.2  # a Double / Two Doors bonus kept is worth about this much later
EARLY_CLAIM = 0.5  # claim at once a demand worth this share of the cards' best (its note opens a bonus)
END_ROUND = 14  # from this round the sixth note is filled as soon as six claims are banked
END_AVERAGE = 4.0  # ... or earlier when the six banked claims average this much
ROOM_WORTH = 0.6  # a room drawn is worth this much before it meets anything
SKIP_COST = 1.0  # drawing nothing wastes the round


@dataclass(frozen=True)
class Suggestion:
    text: str  # the full canonical action text for the seat now (as FloorPlan.apply accepts it)
    points: int  # demand points the action scores at once (claims in it)
    value: float  # the planner's score (higher is better)


@dataclass
class _Cand:
    steps: tuple[Step, ...]
    key: str  # diversity key: what kind of move (room type, feature kinds, ...)
    spot: Cell | None = None
    cost: float = 0.0


@dataclass
class _Ctx:
    game: PlanRules
    s: State
    seat: int
    board: Board
    demands: list[dm.Demand]
    layout: dm.Client
    wanted: dict[str, float] = field(default_factory=dict)  # room type -> how much the demands want it

    @property
    def round(self) -> int:
        return self.s.round


def suggest(game: PlanRules, s: State, seat: int, limit: int = 4) -> list[Suggestion]:
    """The best ``limit`` actions for the seat now, best first (empty when the seat is not to act)."""
    if seat not in game.to_move(s) or limit < 1:
        return []
    if s.phase == "setup":
        return _setup(game, s, seat, limit)
    ctx = _context(game, s, seat)
    scored: list[tuple[float, int, str, _Cand]] = []
    cands = [*_room_cands(ctx), *_feature_cands(ctx), _Cand((Step("skip"),), "skip", cost=SKIP_COST)]
    for cand in cands:
        _score_into(ctx, cand, scored)
    scored.sort(key=lambda t: (-t[0], t[2]))
    for cand in _with_two_doors(ctx, [c for _, _, _, c in scored[:TWO_DOORS_EVALS]]):
        _score_into(ctx, cand, scored)
    scored.sort(key=lambda t: (-t[0], t[2]))
    out = _varied(scored, limit)
    if not out:  # nothing placeable evaluated (should not happen: skip is always legal)
        out = [Suggestion("skip", 0, 0.0)]
    return out


def _score_into(ctx: _Ctx, cand: _Cand, scored: list[tuple[float, int, str, _Cand]]) -> None:
    try:
        after, _ = ctx.game.run_steps(ctx.s, ctx.seat, cand.steps)
    except RulesError:
        return
    f = dm.Facts(after.sheet)  # claims change no geometry: one Facts serves the claims and the evaluation
    claims, points, board = _claim_plan(ctx, after, f)
    value = _evaluate(ctx, board, f) + points - cand.cost
    text = nt.text((*cand.steps, *claims))
    scored.append((round(value, 4), points, text, cand))


def _varied(scored: list[tuple[float, int, str, _Cand]], limit: int) -> list[Suggestion]:
    """Best first, at most two of one kind of move, and never two at (nearly) the same spot."""
    out: list[Suggestion] = []
    kinds: dict[str, int] = {}
    spots: list[tuple[str, Cell]] = []
    seen: set[str] = set()
    for value, points, text, cand in scored:
        if text in seen:
            continue
        if kinds.get(cand.key, 0) >= 2:
            continue
        if cand.spot is not None and any(k == cand.key and abs(cand.spot[0] - x) + abs(cand.spot[1] - y) <= 2
                                         for k, (x, y) in spots):
            continue
        seen.add(text)
        kinds[cand.key] = kinds.get(cand.key, 0) + 1
        if cand.spot is not None:
            spots.append((cand.key, cand.spot))
        out.append(Suggestion(nt.text(nt.parse(text)), points, value))
        if len(out) >= limit:
            return out
    for value, points, text, _ in scored:  # fill up when variety ran out
        if len(out) >= limit:
            break
        if text not in seen:
            seen.add(text)
            out.append(Suggestion(nt.text(nt.parse(text)), points, value))
    return sorted(out, key=lambda x: -x.value)


# --- context ---------------------------------------------------------------------------------------------------


def _context(game: PlanRules, s: State, seat: int) -> _Ctx:
    demands = [d for cid in s.clients for d in dm.CLIENTS[cid].demands]
    ctx = _Ctx(game, s, seat, s.board(seat, private=True), demands, dm.CLIENTS[s.clients[2]])
    for d in demands:
        for key in ("type", "a", "b", "room"):
            t = d.params.get(key)
            if t:
                ctx.wanted[t] = ctx.wanted.get(t, 0.0) + d.points / 4
        if d.op == "room_types":
            have = {r.type for r in ctx.board.sheet.rooms}
            for t in d.params["types"]:
                if t not in have:
                    ctx.wanted[t] = ctx.wanted.get(t, 0.0) + d.points / 4
    return ctx


# --- setup -----------------------------------------------------------------------------------------------------


def _setup(game: PlanRules, s: State, seat: int, limit: int) -> list[Suggestion]:
    """The starting living room: every legal spot, the more central (room all around it) the better."""
    assert s.roll is not None
    scored = []
    for x, y, w, h in start_spots(s.roll[1]):
        margins = (x, WIDTH - x - w, y, HEIGHT - y - h)  # balanced margins leave room on every side
        value = min(margins) - 0.1 * (max(margins) - min(margins))
        scored.append((round(value, 4), f"start {cell_name((x, y))} {w}x{h}"))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [Suggestion(text, 0, value) for value, text in scored[:limit]]


# --- rooms -----------------------------------------------------------------------------------------------------


def _blocked(sheet: Sheet) -> set[Cell]:
    return set(sheet.room_of) | set(sheet.features) | set(sheet.water)


def _free_rects(blocked: set[Cell], w: int, h: int) -> Iterable[tuple[int, int]]:
    pre = [[0] * (WIDTH + 1) for _ in range(HEIGHT + 1)]
    for y in range(HEIGHT):
        row = 0
        for x in range(WIDTH):
            row += (x, y) in blocked
            pre[y + 1][x + 1] = pre[y][x + 1] + row
    for y in range(HEIGHT - h + 1):
        for x in range(WIDTH - w + 1):
            if pre[y + h][x + w] - pre[y][x + w] - pre[y + h][x] + pre[y][x] == 0:
                yield x, y


def _label(sheet: Sheet, x: int, y: int, w: int, h: int) -> Cell:
    """An inner cell when there is one (walls stay free for doors and windows), else a cell on the sheet's edge
    or against another room (the least useful wall)."""
    if w >= 3 and h >= 3:
        return x + 1, y + 1
    cells = sorted(((cx, cy) for cx in range(x, x + w) for cy in range(y, y + h)), key=scan_key)

    def useless(c: Cell) -> int:
        return sum(1 for n in NEIGHBOURS[c] if n in sheet.room_of) + (4 - len(NEIGHBOURS[c]))

    return max(cells, key=useless)


def _room_prescore(ctx: _Ctx, sheet: Sheet, t: str, x: int, y: int, w: int, h: int) -> float:
    """A cheap placement score: wanted type, wanted neighbours, contact (compact houses keep space), size."""
    value = ctx.wanted.get(t, 0.0)
    touching: dict[int, int] = {}
    for cx in range(x, x + w):
        for cy in (y - 1, y + h):
            if (r := sheet.room_of.get((cx, cy))) is not None:
                touching[r] = touching.get(r, 0) + 1
    for cy in range(y, y + h):
        for cx in (x - 1, x + w):
            if (r := sheet.room_of.get((cx, cy))) is not None:
                touching[r] = touching.get(r, 0) + 1
    contact = sum(touching.values())
    value += min(contact, 8) * 0.12 + (0.0 if touching else -1.0)
    for r in touching:
        other = sheet.rooms[r].type
        value += _pair_want(ctx, t, other)
    edge = (x == 0) + (y == 0) + (x + w == WIDTH) + (y + h == HEIGHT)
    value += 0.15 * edge
    for d in ctx.demands:
        big = d.op == "room_size" and w * h >= d.params["min"]
        square = d.op == "square_room" and w == h and t != d.params.get("not")
        if big or square:
            value += d.points * 0.8
    return value


def _pair_want(ctx: _Ctx, t: str, other: str) -> float:
    value = 0.0
    for d in ctx.demands:
        pair = d.op == "connected" and {t, other} == {d.params["a"], d.params["b"]}
        if pair or (d.op == "connected_same" and t == other):
            value += d.points * 0.3
        elif d.op == "connected_count" and d.params["type"] in (t, other):
            value += d.points * 0.15
        elif d.op in ("chain", "reachable", "courtyard"):
            value += 0.1
    return value


def _dice_variants(ctx: _Ctx) -> list[tuple[tuple[int, int], tuple[int, int] | None]]:
    roll = ctx.s.roll
    assert roll is not None
    out: list[tuple[tuple[int, int], tuple[int, int] | None]] = [(roll, None)]
    if not ctx.board.wild_used:
        for i, die in enumerate(roll):
            for v in range(1, 7):
                if v != die:
                    dice = (v, roll[1]) if i == 0 else (roll[0], v)
                    out.append((dice, (die, v)))
    return out


def _room_options(ctx: _Ctx, sheet: Sheet, dice: tuple[int, int], top: int) -> list[tuple[float, RoomDraw]]:
    """The ``top`` best rooms of the dice by the cheap score (labels chosen only for those)."""
    a, b = dice
    types = sorted({ROOM_TYPES[a - 1], ROOM_TYPES[b - 1]})
    blocked = _blocked(sheet)
    out = []
    for w, h in sorted({(a, b), (b, a)}):
        for x, y in _free_rects(blocked, w, h):
            for t in types:
                out.append((_room_prescore(ctx, sheet, t, x, y, w, h), y, x, w, h, t))
    out.sort(key=lambda o: (-o[0], o[1:]))
    return [(sc, RoomDraw(x, y, w, h, t, _label(sheet, x, y, w, h))) for sc, y, x, w, h, t in out[:top]]


def _pick_varied(options: list[tuple[float, Any]], n: int, spot: Any) -> list[tuple[float, Any]]:
    """Up to n of the options, best first, skipping one near (within 2 cells of) an earlier pick of its kind."""
    out: list[tuple[float, Any]] = []
    for opt in options:
        kind, (x, y) = spot(opt[1])
        if any(kind == k and abs(x - px) + abs(y - py) <= 2 for k, (px, py) in (spot(o[1]) for o in out)):
            continue
        out.append(opt)
        if len(out) >= n:
            break
    return out


def _room_cands(ctx: _Ctx) -> list[_Cand]:
    sheet = ctx.board.sheet
    plain: list[tuple[float, RoomDraw, tuple[int, int] | None]] = []
    wild: list[tuple[float, RoomDraw, tuple[int, int] | None]] = []
    for dice, w in _dice_variants(ctx):
        opts = _room_options(ctx, sheet, dice, 6 if w else 60)
        (wild if w else plain).extend((score, rd, w) for score, rd in opts)
    wild.sort(key=lambda o: -o[0])
    best_plain = max((o[0] for o in plain), default=-99.0)
    wild = [o for o in wild if o[0] > best_plain + 1.0][:WILD_EVALS]

    def spot(rd: RoomDraw) -> tuple[str, Cell]:
        return rd.type, (rd.x, rd.y)

    picked = _pick_varied([(sc, rd) for sc, rd, _ in plain], ROOM_EVALS, spot)
    out = [_Cand((Step("room", rooms=(rd,)),), f"room:{rd.type}", (rd.x, rd.y)) for _, rd in picked]
    for _, rd, w in wild:
        out.append(_Cand((Step("room", rooms=(rd,), wild=w),), f"room:{rd.type}", (rd.x, rd.y), WILD_COST))
    if ctx.board.open_bonus("double_room") is not None:
        out += _double_rooms(ctx, [rd for _, rd in picked[:3]])
    return out


def _double_rooms(ctx: _Ctx, firsts: list[RoomDraw]) -> list[_Cand]:
    roll = ctx.s.roll
    assert roll is not None
    out = []
    for rd in firsts:
        try:
            sheet = add_room(ctx.board.sheet, Room(rd.type, rd.x, rd.y, rd.w, rd.h, rd.label))
        except RulesError:
            continue
        second = _room_options(ctx, sheet, roll, 1)
        for _, rd2 in second:
            out.append(_Cand((Step("room", rooms=(rd, rd2)),), f"rooms:{rd.type}{rd2.type}", (rd.x, rd.y),
                             BONUS_COST))
    return out


# --- feature sets ----------------------------------------------------------------------------------------------


def _feature_cands(ctx: _Ctx) -> list[_Cand]:
    roll = ctx.s.roll
    assert roll is not None
    sheet = ctx.board.sheet
    a, b = roll
    out: list[_Cand] = []
    doubles = [False, True] if ctx.board.open_bonus("double_feature") is not None else [False]
    for dbl in doubles:
        for first, second in ((a, b), (b, a)) if a != b else ((a, b),):
            for fs in _sets_for(ctx, sheet, first, dbl)[:FEATURE_VARIANTS if not dbl else 1]:
                after = add_features(sheet, FEATURE_KINDS[first - 1], fs.cells)
                rest = _sets_for(ctx, after, second, False)[:1]
                sets = tuple(sorted((fs, *rest), key=lambda x: x.die))  # canonical order (stable on a double)
                key = "features:" + ",".join(sorted(FEATURE_KINDS[x.die - 1] for x in sets))
                out.append(_Cand((Step("features", sets=sets),), key, min(fs.cells, key=scan_key),
                                 BONUS_COST if dbl else 0.0))
    return out


def _sets_for(ctx: _Ctx, sheet: Sheet, die: int, double: bool) -> list[FeatureSet]:
    kind = FEATURE_KINDS[die - 1]
    count = die * (2 if double else 1)
    maker = {"tree": _tree_sets, "deck": _deck_sets, "stone": _stone_sets}.get(kind, _cell_sets)
    out = []
    for cells in maker(ctx, sheet, kind, count):
        try:
            add_features(sheet, kind, cells)
        except RulesError:
            continue
        out.append(FeatureSet(die, double, tuple(sorted(cells, key=scan_key))))
    return out


def _cell_sets(ctx: _Ctx, sheet: Sheet, kind: str, count: int) -> list[list[Cell]]:
    """Doors, windows, furnishings: the best-scored cells overall, and the best within each of a few rooms."""
    free = free_cells(sheet, kind)
    if len(free) < count:
        return []
    scorer = {"door": _door_score, "window": _window_score, "furnishing": _furn_score}[kind]
    scores = {c: scorer(ctx, sheet, c) for c in free}
    ranked = sorted(free, key=lambda c: (-scores[c], scan_key(c)))
    out = [_spread(ranked, count, kind)]
    by_room: dict[int, list[Cell]] = {}
    for c in ranked:
        by_room.setdefault(sheet.room_of[c], []).append(c)
    rooms = sorted(by_room, key=lambda r: -sum(scores[c] for c in by_room[r][:count]))
    for r in rooms[:FEATURE_VARIANTS]:
        cells = by_room[r]
        if kind == "furnishing":
            cells = _clustered(cells, count)
        if len(cells) >= count:
            out.append(cells[:count])
    return out


def _spread(ranked: list[Cell], count: int, kind: str) -> list[Cell]:
    """The top cells, but a door's neighbour on the same wall adds little: skip adjacent ones when possible."""
    if kind == "furnishing":
        return ranked[:count]
    out: list[Cell] = []
    for c in ranked:
        if all(abs(c[0] - o[0]) + abs(c[1] - o[1]) > 1 for o in out):
            out.append(c)
        if len(out) == count:
            return out
    return ranked[:count]


def _clustered(cells: list[Cell], count: int) -> list[Cell]:
    """``count`` orthogonally connected cells grown from the best one (an arrangement), else the best ones."""
    if not cells:
        return []
    group = [cells[0]]
    allowed = set(cells)
    while len(group) < count:
        nxt = [c for c in cells if c not in group and any(n in group for n in NEIGHBOURS[c]) and c in allowed]
        if not nxt:
            return cells[:count]
        group.append(nxt[0])
    return group


def _outside_of(sheet: Sheet, c: Cell) -> list[tuple[str, Cell]]:
    """(direction, the outside cell beyond the wall) for each side of a wall cell that opens outside."""
    r = sheet.room_of[c]
    out = []
    for side in sheet.rooms[r].walls_of(c):
        dx, dy = STEPS[side]
        n = (c[0] + dx, c[1] + dy)
        if 0 <= n[0] < WIDTH and 0 <= n[1] < HEIGHT and n not in sheet.room_of:
            out.append((side, n))
    return out


def _doors_of(sheet: Sheet, r: int) -> int:
    room = sheet.rooms[r]
    return sum(1 for c in sheet.doors if c in room.cells()) + sum(
        1 for c in sheet.doors for n in NEIGHBOURS[c] if room.contains(n) and not room.contains(c))


def _door_score(ctx: _Ctx, sheet: Sheet, c: Cell) -> float:
    r = sheet.room_of[c]
    t = sheet.rooms[r].type
    others = {sheet.room_of[n] for n in NEIGHBOURS[c] if n in sheet.room_of and sheet.room_of[n] != r}
    outside = _outside_of(sheet, c)
    value = 0.0
    for o in others:
        value += 0.5 + 2 * _pair_want(ctx, t, sheet.rooms[o].type)
    if outside:
        for d in ctx.demands:
            if d.op == "exterior_doors":
                value += 1.2
            elif d.op == "reachable":
                value += 0.8
            elif d.op == "door_onto" and t == d.params["room"]:
                value += 1.0 + 2.0 * any(_is_feature(sheet, n, d.params["feature"]) for _, n in outside)
    b = ctx.layout.door_bonus
    if b is not None:
        if b.op == "doored_rooms":
            have = _doors_of(sheet, r)
            value += 1.5 if have < b.params["min"] else 0.2
            value += sum(1.0 for o in others if _doors_of(sheet, o) < b.params["min"])
        elif b.op == "door_outside":
            value += 2.5 * any(_is_feature(sheet, n, b.params["feature"]) for _, n in outside)
            value += 0.4 * bool(outside)
        elif b.op == "door_line":
            value += 0.5 * bool(outside) + 2.0 * any(_sees(sheet, n, side, b.params["feature"]) for side, n in outside)
    return value


def _is_feature(sheet: Sheet, c: Cell, feature: str) -> bool:
    if feature == "tree":
        return c in sheet.tree_of
    return c in (sheet.decks if feature == "deck" else sheet.stones)


def _sees(sheet: Sheet, start: Cell, side: str, kind: str) -> bool:
    """Whether a straight line out of a wall, from ``start`` outward, meets ``kind`` before a room or a tree."""
    dx, dy = STEPS[side]
    x, y = start
    while 0 <= x < WIDTH and 0 <= y < HEIGHT and (x, y) not in sheet.room_of:
        if kind == "pool" and (x, y) in sheet.water:
            return True
        if kind != "pool" and _is_feature(sheet, (x, y), kind):
            return True
        if (x, y) in sheet.tree_of:
            return False
        x, y = x + dx, y + dy
    return False


def _window_score(ctx: _Ctx, sheet: Sheet, c: Cell) -> float:
    r = sheet.room_of[c]
    room = sheet.rooms[r]
    outside = _outside_of(sheet, c)
    windows = [w for w in sheet.windows if room.contains(w)]
    value = 0.0
    for d in ctx.demands:
        if d.op == "windows" and room.type == d.params["room"]:
            value += 1.5 + 0.5 * len(windows)
        elif d.op == "window_walls":
            sides = {s for w in windows for s in room.walls_of(w)}
            if windows and not set(room.walls_of(c)) <= sides:
                value += 2.5
            else:
                value += 0.3
        elif d.op == "window_sees" and room.type == d.params["room"]:
            seen = any(_sees(sheet, n, side, d.params["sees"]) for side, n in outside)
            value += 3.0 if seen else 0.6 * bool(outside)
    return value


def _furn_score(ctx: _Ctx, sheet: Sheet, c: Cell) -> float:
    room = sheet.rooms[sheet.room_of[c]]
    inside = sum(1 for f in sheet.furnishings if room.contains(f))
    value = 0.0
    for d in ctx.demands:
        if d.op == "furnished":
            value += 1.0 + 0.4 * min(inside, d.params["min"])
        elif d.op == "arrangement" and room.type == d.params["room"]:
            value += 1.5 + 0.5 * any(n in sheet.furnishings for n in NEIGHBOURS[c])
    # Inner cells first: walls stay free for doors and windows.
    return value + 0.2 * (c not in sheet.walls)


def _tree_sets(ctx: _Ctx, sheet: Sheet, kind: str, count: int) -> list[list[Cell]]:
    anchors = free_cells(sheet, "tree")
    want_view = [d for d in ctx.demands if d.op == "window_sees" and d.params["sees"] == "tree"]
    line = ctx.layout.door_bonus is not None and ctx.layout.door_bonus.params.get("feature") == "tree"

    def score(a: Cell) -> float:
        cells = [(a[0] + dx, a[1] + dy) for dx in range(3) for dy in range(3)]
        near = {sheet.room_of[n] for c in cells for n in NEIGHBOURS[c] if n in sheet.room_of}
        value = 0.0
        for d in want_view:
            value += 2.0 * sum(1 for r in near if sheet.rooms[r].type == d.params["room"])
        value += 1.0 * bool(near) * line
        edge = (a[0] == 0) + (a[1] == 0) + (a[0] == WIDTH - 3) + (a[1] == HEIGHT - 3)
        return value + 0.5 * edge - 0.1 * len(near)

    ranked = sorted(anchors, key=lambda a: (-score(a), scan_key(a)))
    out = []
    for first in ranked[:FEATURE_VARIANTS]:
        chosen = [first]
        for a in ranked:
            if len(chosen) == count:
                break
            if all(abs(a[0] - o[0]) >= 3 or abs(a[1] - o[1]) >= 3 for o in chosen):
                chosen.append(a)
        if len(chosen) == count:
            out.append(chosen)
    return out


def _deck_sets(ctx: _Ctx, sheet: Sheet, kind: str, count: int) -> list[list[Cell]]:
    """Grow the largest section, or start a new one at the best spots (touching rooms, pools, a living room)."""
    free = set(free_cells(sheet, "deck"))

    def score(c: Cell) -> float:
        rooms = {sheet.room_of[n] for n in NEIGHBOURS[c] if n in sheet.room_of}
        value = 0.3 * len(rooms)
        value += 1.0 * any((c[0] + dx, c[1] + dy) in sheet.water for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        value += 0.5 * any(sheet.rooms[r].type == "L" for r in rooms)
        value -= 0.05 * sum(1 for n in NEIGHBOURS[c] if n in free)  # hug walls: open space stays usable
        return value

    sections = sorted(_sheet_decks(sheet), key=len, reverse=True)
    seeds: list[set[Cell]] = [set(sections[0])] if sections else []
    attached = sorted((c for c in free if any(n in sheet.room_of for n in NEIGHBOURS[c])),
                      key=lambda c: (-score(c), scan_key(c)))
    seeds += [set() | {c} for c in attached[:FEATURE_VARIANTS]]
    out = []
    for seed in seeds:
        group = set(seed)
        new: list[Cell] = [] if seed & set(sheet.decks) else list(seed)
        while len(new) < count:
            frontier = sorted((n for c in group for n in NEIGHBOURS[c] if n in free and n not in group),
                              key=lambda c: (-score(c), scan_key(c)))
            if not frontier:
                break
            group.add(frontier[0])
            new.append(frontier[0])
        if len(new) == count:
            out.append(new)
    return out


def _sheet_decks(sheet: Sheet) -> list[frozenset[Cell]]:
    from rules.floor_plan.geometry import decks

    return list(decks(sheet))


def _stone_sets(ctx: _Ctx, sheet: Sheet, kind: str, count: int) -> list[list[Cell]]:
    """Rings around free outside cells (a pool), finishing a ring already begun first; spare stones next to the
    ring (the next pool) or on the edge."""
    free = set(free_cells(sheet, "stone"))
    open_ = free | set(sheet.stones)
    rings = []
    for w, h in ((2, 2), (1, 2), (2, 1), (1, 1), (2, 3), (3, 2)):
        for x in range(1, WIDTH - w):
            for y in range(1, HEIGHT - h):
                inner = {(x + i, y + j) for i in range(w) for j in range(h)}
                if not inner <= free:
                    continue
                ring = {n for c in inner for n in NEIGHBOURS[c] if n not in inner}
                if not ring <= open_:
                    continue
                need = sorted(ring - set(sheet.stones), key=scan_key)
                value = w * h * 1.0 - len(need) * 0.3 + _pool_want(ctx, w * h)
                rings.append((value, need))
    rings.sort(key=lambda r: (-r[0], r[1]))
    out = []
    for _, need in rings[: FEATURE_VARIANTS * 2]:
        if len(need) > count:
            chosen = need[:count]
        else:
            chosen = list(need)
            spare = sorted(free - set(chosen), key=lambda c: (min(abs(c[0] - n[0]) + abs(c[1] - n[1])
                                                                  for n in need) if need else 0, scan_key(c)))
            chosen += spare[: count - len(chosen)]
        if len(chosen) == count and chosen not in out:
            out.append(chosen)
        if len(out) >= FEATURE_VARIANTS:
            break
    return out


def _pool_want(ctx: _Ctx, size: int) -> float:
    value = 0.0
    for d in ctx.demands:
        if d.op == "pool":
            value += d.points * (1.0 if size >= d.params["min"] else 0.3)
        elif d.op in ("deck_pool", "window_sees") and d.params.get("sees", "pool") == "pool":
            value += 0.5
    return value


# --- the Two Doors bonus ---------------------------------------------------------------------------------------


def _with_two_doors(ctx: _Ctx, best: list[_Cand]) -> list[_Cand]:
    if ctx.board.open_bonus("two_doors") is None:
        return []
    out = []
    for cand in best:
        try:
            after, _ = ctx.game.run_steps(ctx.s, ctx.seat, cand.steps)
        except RulesError:
            continue
        sets = _cell_sets(ctx, after.sheet, "door", 2)
        if sets:
            doors = Step("doors", cells=tuple(sorted(sets[0], key=scan_key)))
            out.append(_Cand((*cand.steps, doors), cand.key + "+doors", cand.spot, cand.cost + BONUS_COST))
    return out


# --- claims and evaluation -------------------------------------------------------------------------------------


def _stock(f: dm.Facts, d: dm.Demand, used: frozenset[str]) -> int:
    """How many more times the demand could be scored on the sheet as it is (disjoint witnesses, capped)."""
    cands = []
    for cand in dm.FINDERS[d.op](f, d.params, used):
        cands.append(cand)
        if len(cands) >= 24:
            break
    if not cands:
        return 0
    if d.op == "reachable":
        return 1
    return min(STOCK_CAP, len(dm.packing(cands, budget=300)))


def _claim_plan(ctx: _Ctx, board: Board, f: dm.Facts) -> tuple[list[Step], int, Board]:
    """The claims to make now (policy in the module docstring), their points and the board after them.

    Only claims with a fresh witness are considered (not the engine's costly re-choice of earlier witnesses:
    rare, and the search would pay for it on every candidate)."""
    steps: list[Step] = []
    points = 0
    while None in board.notes:
        used = board.used_by_demand()
        opts = [d.id for d in ctx.demands
                if next(dm.FINDERS[d.op](f, d.params, used.get(d.id, frozenset())), None) is not None]
        if not opts:
            break
        best = max(opts, key=lambda d: (dm.DEMANDS[d].points, d))
        open_notes = board.notes.count(None)
        early = open_notes > 1 and dm.DEMANDS[best].points >= EARLY_CLAIM * max(d.points for d in dm.DEMANDS.values())
        if not early and not _last_round(ctx) and not _ready_to_end(ctx, board, f):
            break
        step = Step("claim", demand=best)
        try:
            board = ctx.game._claim(ctx.s, board, step)
        except RulesError:
            break
        steps.append(step)
        points += dm.DEMANDS[best].points
    return steps, points, board


def _last_round(ctx: _Ctx) -> bool:
    """Whether the game ends when this round closes whatever the seat does: claim all there is."""
    s = ctx.s
    return s.last_round or ctx.seat in s.stuck or (s.solo and s.round >= SHEET_DATA.solo_bubbles)


def _banked(ctx: _Ctx, board: Board, f: dm.Facts) -> list[int]:
    """Points of the claims the sheet holds unclaimed (demand by demand), best first."""
    used = board.used_by_demand()
    out: list[int] = []
    for d in ctx.demands:
        out += [d.points] * _stock(f, d, used.get(d.id, frozenset()))
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
    used = board.used_by_demand()
    open_notes = board.notes.count(None)
    banked: list[int] = []
    progress = 0.0
    for d in ctx.demands:
        u = used.get(d.id, frozenset())
        k = _stock(f, d, u)
        banked += [d.points] * k
        if k < STOCK_CAP:
            progress += d.points * PROGRESS_WEIGHT * _progress(f, d, u)
    value = 0.9 * sum(sorted(banked, reverse=True)[:open_notes]) + progress
    if ctx.layout.door_bonus is not None:
        value += ctx.layout.door_bonus.points * dm.door_bonus_count(ctx.layout, f)
    # Rooms are what most demands are built from; open space is what later rooms need.
    value += ROOM_WORTH * min(len(sheet.rooms), 12) + 0.01 * _open_area(sheet)
    return value


def _open_area(sheet: Sheet) -> int:
    """Free cells with at least 3 free neighbours: room for future rooms."""
    blocked = _blocked(sheet)
    return sum(1 for c in NEIGHBOURS if c not in blocked
               and sum(1 for n in NEIGHBOURS[c] if n not in blocked) >= 3)


# --- progress toward the next claim of a demand (0..1) ---------------------------------------------------------


def _progress(f: dm.Facts, d: dm.Demand, used: frozenset[str]) -> float:
    fn = PROGRESS.get(d.op)
    return max(0.0, min(0.95, fn(f, d.params, used))) if fn else 0.0


def _free_rooms(f: dm.Facts, t: str | None, used: frozenset[str]) -> list[int]:
    return [i for i in f.of_type(t) if dm.room(i) not in used]


def _adjacent_pairs(f: dm.Facts) -> set[tuple[int, int]]:
    out = set()
    for c, r in f.owner.items():
        for n in NEIGHBOURS[c]:
            o = f.owner.get(n)
            if o is not None and o != r:
                out.add((r, o))
    return out


def _p_room_count(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    return len(_free_rooms(f, p.get("type"), used)) / p["min"]


def _p_connected(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    same = "a" not in p
    best = 0.0
    for r, o in _adjacent_pairs(f):
        if dm.room(r) in used or dm.room(o) in used:
            continue
        ta, tb = f.rooms[r].type, f.rooms[o].type
        if (same and ta == tb) or (not same and (ta, tb) == (p["a"], p["b"])):
            best = 0.7
    if best:
        return best
    if same:
        types = [f.rooms[i].type for i in _free_rooms(f, None, used)]
        return 0.3 if len(types) != len(set(types)) else 0.1
    have = {f.rooms[i].type for i in _free_rooms(f, None, used)}
    return 0.15 * (p["a"] in have) + 0.15 * (p["b"] in have)


def _p_connected_count(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    pairs = _adjacent_pairs(f)
    linked = {(a, b) for _, a, b in f.links}
    best = 0.0
    for i in _free_rooms(f, p["type"], used):
        near = {o for r, o in pairs if r == i}
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
        best = max(best, sum(1 for c in f.sheet.windows if c in f.rooms[i].wall_cells()))
    return 0.1 * bool(rooms) + best / p["min"] * 0.8


def _p_window_walls(f: dm.Facts, p: dict[str, Any], used: frozenset[str]) -> float:
    best = 0
    for i in _free_rooms(f, None, used):
        r = f.rooms[i]
        best = max(best, len({s for c in f.sheet.windows if c in r.wall_cells() for s in r.walls_of(c)}))
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


__all__ = ["Suggestion", "suggest"]
