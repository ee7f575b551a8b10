"""The engine is built by composition (engine/core.py): parts over one table book, admin/undo/vacation over the parts.
These tests hold the shape that keeps it so: nothing reaches into `Engine`'s private members, the parts never import
the facade, and the scheduler fires every kind of deadline row through a handler a part registered."""

from __future__ import annotations

import ast
from pathlib import Path

from engine import Engine
from engine.admin import ABANDON_CHECK
from engine.clock import TURN_KINDS
from engine.matchmaking import READY_CHECK
from engine.timers import ACTION_TIMER, LOBBY_EXPIRY
from engine.vacation import VACATION_END
from storage import Store
from tests.layers import ROOT, graph

# Modules above `Engine`: the package's re-exports, the tournament director and the simulation that drive it.
ABOVE_THE_ENGINE = {"engine", "engine.tournaments", "engine.simulate"}


def _reaches_into_an_engine(node: ast.AST) -> bool:
    """``engine._x`` or ``<anything>.engine._x`` (not ``self._x`` inside the engine's own classes)."""
    if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
        return False
    owner = node.value
    return (isinstance(owner, ast.Name) and owner.id == "engine") or (
        isinstance(owner, ast.Attribute) and owner.attr == "engine")


def test_no_module_reaches_into_the_engines_private_members() -> None:
    """Admin, undo, vacation and the director use the parts' public members (engine/parts.py), so a part can change
    inside without breaking them."""
    found = []
    for folder in ("engine", "cogs", "terminal"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += [f"{path.relative_to(ROOT)}:{n.lineno}" for n in ast.walk(tree) if _reaches_into_an_engine(n)]
    for name in ("bot.py", "cli.py"):
        path = Path(ROOT / name)
        if path.exists():
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += [f"{name}:{n.lineno}" for n in ast.walk(tree) if _reaches_into_an_engine(n)]
    assert not found


def test_the_engines_parts_never_import_the_facade() -> None:
    """The book, the clocks, the moves, the bots, the log, the scheduler, admin, undo and vacation sit below
    `Engine`; only what drives it (the director, the simulation) and the package's re-exports import it."""
    upward = sorted({i.source for i in graph()
                     if i.target == "engine.core" and i.source.startswith("engine")} - ABOVE_THE_ENGINE)
    assert not upward


async def test_every_deadline_kind_fires_through_a_handler_its_part_registered(store: Store) -> None:
    """The scheduler imports none of the parts: each registers the rows it owns, and no kind is left without one."""
    engine = Engine(store)
    kinds = {*TURN_KINDS, ACTION_TIMER, LOBBY_EXPIRY, ABANDON_CHECK, VACATION_END, READY_CHECK}
    assert set(engine.scheduler.firings) == kinds


def test_one_click_computes_a_seats_view_once_and_a_new_move_gets_a_fresh_one() -> None:
    """A surface's text and image of one click share the seat's view (a Floating Floors view costs ms); a saved move
    makes a new state, so a cached view never outlives its state; and the cache is bounded (idle games keep none)."""
    from dataclasses import replace
    from datetime import UTC, datetime

    from engine.tables import VIEWS, SeatInfo, Table
    from rules.flying_blades import FlyingBlades

    calls: list[int | None] = []

    class Counting(FlyingBlades):
        def view(self, state: object, seat: int | None) -> dict:  # type: ignore[override]
            calls.append(seat)
            return super().view(state, seat)

    rules = Counting()
    state = rules.new(3, {}, "views")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    table = Table(id=-1, game="flying_blades", rules=rules, guild_id=1, channel_id=1, host_id=1, status="active",
                  options={}, seed="views", seats=[SeatInfo(i, f"p{i}") for i in range(3)], version=1, moves=0,
                  state=state, meta={}, outcome=None, created_at=now, updated_at=now)
    assert table.view(0) is table.view(0) and table.view(None) is table.view(None)
    assert replace(table, meta={"posted": 1}).view(0) is table.view(0)  # bookkeeping saves keep the state
    assert calls == [0, None]
    seat = min(rules.to_move(state))
    after = replace(table, state=rules.apply(state, seat, rules.bot_action(state, seat))[0], version=2)
    assert after.view(0) is not table.view(0) and calls[:3] == [0, None, 0]
    for other in range(VIEWS.size + 1):  # other games' clicks push it out
        replace(table, id=-2 - other, state=after.state).view(0)
    assert len(VIEWS.entries) <= VIEWS.size and (-1, 0) not in VIEWS.entries
