"""The planner's entry: `suggest` gathers the candidates, evaluates them and keeps the best few, varied."""

from __future__ import annotations

from rules.base import RulesError
from rules.floor_plan import demands as dm
from rules.floor_plan import notation as nt
from rules.floor_plan.notation import Step
from rules.floor_plan.planner.context import SKIP_COST, SUGGEST_ROOM_EVALS, TWO_DOORS_EVALS, Suggestion, _Cand, _Ctx
from rules.floor_plan.planner.features import _feature_cands, _with_two_doors
from rules.floor_plan.planner.rooms import _room_cands
from rules.floor_plan.planner.value import _adopt_base, _claim_plan, _evaluate
from rules.floor_plan.sheet import (
    HEIGHT,
    WIDTH,
    Cell,
    cell_name,
    start_spots,
)
from rules.floor_plan.state import PlanRules, State


def suggest(game: PlanRules, s: State, seat: int, limit: int = 4) -> list[Suggestion]:
    """The best ``limit`` actions for the seat now, best first (empty when the seat is not to act)."""
    if seat not in game.to_move(s) or limit < 1:
        return []
    if s.phase == "setup":
        return _setup(game, s, seat, limit)
    ctx = _context(game, s, seat)
    if limit > 1:
        ctx.room_evals = SUGGEST_ROOM_EVALS
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
    after = cand.after
    if after is None:
        try:
            after, _ = ctx.game.run_steps(ctx.s, ctx.seat, cand.steps)
        except RulesError:
            return
        cand.after = after  # the Two Doors retry of the best few draws its doors on it
    f = dm.facts_of(after.sheet)  # claims change no geometry: one Facts serves the claims and the evaluation
    _adopt_base(f, ctx.board.sheet, ctx.ops)
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
