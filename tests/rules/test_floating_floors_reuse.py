"""Answers kept from the state before (issue 25, third pass) are the answers the position gives afresh.

A turn's selects preview every placement, board and take after each action, and list every placement; most of
them are about cards the last action did not touch. `quick` keeps a placement's, board's or take's answer and
`legal` keeps a card's placements by the token of that card's contents (its board, Jutsu and ninjas, with the game's
options and map): the rulebook's "if any Floorboard collapses … the turn ends" is told by the same check either way.
Over seeded random games of every mode the quick test covers, each state's previews and legal list with the kept
answers equal those computed with nothing kept, and the kept answers are really used.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

import pytest
from shapely.geometry import MultiPoint, Polygon
from shapely.geometry import Point as ShapelyPoint

from rules.floating_floors import legal as legal_module
from rules.floating_floors import quick, statics
from rules.floating_floors.game import FloatingFloors, Work
from rules.floating_floors.layout import name
from rules.floating_floors.moves import can_stand
from rules.floating_floors.state import State
from rules.floating_floors.statics import OFFSETS
from rules.floating_floors.turns import MASTER_STEPS
from tests.rules.test_floating_floors_quick import MODES  # the quick test's modes: every branch of a preview

G = FloatingFloors()


def _asked(s: State, pick: random.Random) -> list[str]:
    """The legal actions and odd ones (off-centre, nudging, takes anywhere, kinds not in hand)."""
    legal = G.legal_actions(s, s.current)
    spaces = sorted({a.split()[2] for a in legal if a.startswith("place")}) or ["a1"]
    odd = [f"{verb} {kind} {pick.choice(spaces)}{extra}" for verb in ("place", "take")
           for kind in ("bs", "wt", "bh", "ws") for extra in ("", f" {pick.choice(OFFSETS)}", " nudge n")]
    return [*legal, *odd, *(f"take {k} under {pick.choice(spaces)}" for k in ("bs", "wt"))]


def _cold(store: OrderedDict[Any, Any], fn: Any, *args: Any) -> Any:
    """``fn(*args)`` with nothing kept in ``store``; what was kept is put back after."""
    kept = OrderedDict(store)
    store.clear()
    try:
        return fn(*args)
    finally:
        store.clear()
        store.update(kept)


def _answers(s: State, actions: list[str]) -> list[Any]:
    return [quick.preview(s, s.current, a) for a in actions]


@pytest.mark.parametrize(("players", "options"), MODES, ids=[f"{p}p-{i}" for i, (p, _) in enumerate(MODES)])
def test_a_preview_kept_from_the_state_before_is_the_answer_the_position_gives_afresh(
        players: int, options: dict[str, Any]) -> None:
    """Every quick answer with answers kept across the game's states equals the same answer computed with none."""
    seed = f"reuse-{players}-{sorted(options.items())}"
    pick = random.Random(seed)
    s, reused = G.new(players, options, seed), 0
    for _ in range(60):
        if s.phase == "over":
            break
        seat = s.current
        actions = _asked(s, pick)
        tokens = quick.position(s).tokens
        reused += sum((a, t) in quick._ANSWERS for a in actions for t in tokens)
        warm = _answers(s, actions)
        assert warm == _cold(quick._ANSWERS, _answers, s, actions), (s.turn, seat)
        legal = G.legal_actions(s, seat)
        bot = G.bot_action(s, seat)
        action = bot if pick.random() < 0.4 else pick.choice(legal)
        s, _ = G.apply(s, seat, action)
    assert reused > 100  # the kept answers were really asked for


def test_a_step_previewed_before_a_placement_elsewhere_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step's answer is kept by the ninja and the two cards it reads: after a placement on another card the
    same steps are answered from what was kept (the equality with answers made afresh is the test above's)."""
    worked: list[str] = []
    stepped = quick._stepped
    monkeypatch.setattr(quick, "_stepped", lambda pos, seat, act, text: (worked.append(text), stepped(
        pos, seat, act, text))[1])
    asked = kept = 0
    for seed in range(12):
        s = G.new(2, {"tension": "exact"}, f"reuse-steps-{seed}")
        for _ in range(80):
            if s.phase == "over":
                break
            seat, legal = s.current, G.legal_actions(s, s.current)
            steps = [a for a in legal if a.startswith("move ")]
            me = s.seats[seat]
            far = [a for a in legal if a.startswith("place ") and me.space is not None
                   and quick.position(s).at[quick._parsed(a)[0].space] != quick.position(s).at[me.space]
                   and all(quick.position(s).at[quick._parsed(a)[0].space] != quick.position(s).at[
                       quick._parsed(m)[0].space] for m in steps)]
            if steps and far and s.phase == "navigate":
                _answers(s, steps)
                after, _ = G.apply(s, seat, far[0])
                if after.current == seat and after.phase == "navigate":
                    worked.clear()
                    _answers(after, steps)
                    asked, kept = asked + len(steps), kept + len(steps) - len(worked)
            s, _ = G.apply(s, seat, G.bot_action(s, seat))
    assert asked > 20 and kept == asked  # every such step was answered from what was kept


@pytest.mark.parametrize(("players", "options"), MODES, ids=[f"{p}p-{i}" for i, (p, _) in enumerate(MODES)])
def test_the_placements_kept_per_card_are_the_legal_list_built_afresh(players: int, options: dict[str, Any]) -> None:
    """The legal list with each untouched card's placements kept equals the list built from scratch."""
    seed = f"reuse-legal-{players}-{sorted(options.items())}"
    pick = random.Random(seed)
    s = G.new(players, options, seed)
    for _ in range(60):
        if s.phase == "over":
            break
        seat = s.current
        warm = G.legal_actions(s, seat)
        assert warm == _cold(legal_module._PLACEMENTS, G.legal_actions, s, seat), (s.turn, seat)
        action = G.bot_action(s, seat) if pick.random() < 0.4 else pick.choice(warm)
        s, _ = G.apply(s, seat, action)


@pytest.mark.parametrize(("players", "options"), MODES, ids=[f"{p}p-{i}" for i, (p, _) in enumerate(MODES)])
def test_the_steps_kept_per_neighbourhood_are_the_steps_worked_out_afresh(players: int,
                                                                          options: dict[str, Any]) -> None:
    """A ninja's legal steps kept by the tokens of the cards around it equal the steps `can_stand` finds afresh,
    at every position of random games (boards laid, Jutsu placed and taken, other ninjas walking), and the kept
    lists are really used."""
    seed = f"reuse-steps-{players}-{sorted(options.items())}"
    pick = random.Random(seed)
    s = G.new(players, options, seed)
    reused = 0
    for _ in range(80):
        if s.phase == "over":
            break
        seat = s.current
        if s.phase == "navigate":
            w, me = Work(s), s.seats[seat]
            kept = len(legal_module._STEPS)
            warm = legal_module._legal_steps(s, me, quick.position(s))
            reused += len(legal_module._STEPS) == kept and bool(warm)
            assert warm == _cold(legal_module._STEPS, legal_module._legal_steps, s, me, quick.position(s))
            assert warm == [f"move {name(sp)}" for sp in _targets(s, me) if can_stand(w, me, sp)]
        legal = G.legal_actions(s, seat)
        moves = [a for a in legal if a.startswith("move")]
        action = G.bot_action(s, seat) if pick.random() < 0.4 else pick.choice(moves or legal)
        s, _ = G.apply(s, seat, action)
    assert reused > 0  # a placement keeps the steps around the ninja


def _targets(s: State, me: Any) -> list[Any]:
    if s.options.master == me.seat and s.options.master_steps and me.steps >= MASTER_STEPS:
        return []
    if me.alcove is not None:
        return [s.layout.alcoves[me.alcove].space]
    return s.layout.neighbours(me.space) if me.space is not None else []


def test_a_card_with_other_contents_gets_another_token() -> None:
    """A token names one card's contents: a Jutsu placed or a ninja's step changes the token of the card it lands
    on (so nothing kept for the card before is answered for it after), and leaves every other card's."""
    s = G.new(2, {"tension": "exact"}, "reuse-token")
    while s.phase != "navigate":
        s, _ = G.apply(s, s.current, G.bot_action(s, s.current))
    before = quick.position(s)
    place = next(a for a in G.legal_actions(s, s.current) if a.startswith("place"))
    after_state, _ = G.apply(s, s.current, place)
    after = quick.position(after_state)
    card = before.at[quick._parsed(place)[0].space]
    assert after.tokens[card] != before.tokens[card]
    assert [t for c, t in enumerate(after.tokens) if c != card] == [t for c, t in enumerate(before.tokens) if c != card]


def test_the_tokens_of_cards_in_use_outlive_newer_ones_when_the_tokens_are_full() -> None:
    """The tokens are kept least recently used first: a running game's cards, asked about every move, keep their
    tokens (and every answer kept by them) however many other keys came since they were first made. First made,
    first gone (as they were) gave the untouched cards of the very position in hand new tokens, once ~1,000 others
    had come: every answer kept for them was lost."""
    s = G.new(2, {"tension": "exact"}, "reuse-token-full")
    while s.phase != "navigate":
        s, _ = G.apply(s, s.current, G.bot_action(s, s.current))
    before = quick.position(s)
    for i in range(quick._TOKENS_SIZE - len(quick._TOKENS)):  # other games' keys, up to the bound: the cards' are
        # now the oldest made
        quick._token(("another game", i))
    assert len(quick._TOKENS) == quick._TOKENS_SIZE
    quick._POSITIONS.clear()  # asked again as the next move asks them (a position is found by identity)
    quick._PIECES.clear()
    quick._GAMES.clear()
    assert quick.position(s).tokens == before.tokens
    for i in range(50):
        quick._token(("yet another game", i))
    place = next(a for a in G.legal_actions(s, s.current) if a.startswith("place"))
    after = quick.position(G.apply(s, s.current, place)[0])
    card = before.at[quick._parsed(place)[0].space]
    assert [t for c, t in enumerate(after.tokens) if c != card] == [t for c, t in enumerate(before.tokens) if c != card]


def test_a_hull_and_margin_made_without_point_objects_are_the_ones_shapely_s_classes_give() -> None:
    """"The support polygon is the convex hull of all footprint corners" (statics.py): the hull built straight from
    the coordinates is bit for bit the hull `MultiPoint(...).convex_hull` gives (and a ring the `Polygon` the
    overlap test made), and the margin read from the kept
    boundary ring is the one read from the polygon's exterior, over seeded random supports (points, segments,
    collinear corners, polygons)."""
    pick = random.Random("hulls")
    for _ in range(400):
        n = pick.choice([1, 2, 3, 4, 6, 9, 14])
        if pick.random() < 0.2:  # collinear corners: a segment, as squares in one row give
            corners = {statics._snap_point((1 + 0.1 * pick.randrange(20), 2.5)) for _ in range(n)}
        else:
            corners = {statics._snap_point((pick.uniform(0, 3), pick.uniform(0, 3))) for _ in range(n)}
        ordered = tuple(sorted(corners))
        assert statics._convex_hull(ordered).wkb == MultiPoint(ordered).convex_hull.wkb
        if len(ordered) >= 3:  # a footprint's ring, made without the class constructor
            assert statics._polygon(ordered).wkb == Polygon(ordered).wkb
        hull = statics._hull(ordered)
        point = statics._snap_point((pick.uniform(0, 3), pick.uniform(0, 3)))
        geometry = MultiPoint(hull).convex_hull
        target = ShapelyPoint(point)
        if isinstance(geometry, Polygon):
            distance = geometry.exterior.distance(target)
            expected = distance if geometry.covers(target) else -distance
        else:
            expected = -geometry.distance(target)
        assert statics.signed_margin(hull, point) == expected
