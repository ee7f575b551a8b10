"""The Floor rendering benchmark rows: draw (view -> palette image), encode (image -> PNG) and both, for
real views of scripted games (play, a running duel, the Final), against the floor (a flat image encoded)."""

from __future__ import annotations

from typing import Any

from render import the_floor
from tests.bench.bench_render import image_rows
from tests.bench.harness import Row
from tests.views_the_floor import KINDS, NAMES, G, playout


def floor_views(players: int, kind: str, count: int) -> list[dict[str, Any]]:
    """``count`` successive views of that kind from scripted games (clocks, answers and boards change from
    one to the next as in play, so text that is new each move is drawn fresh)."""
    test = KINDS[kind]
    views: list[dict[str, Any]] = []
    for i in range(40):
        for s in playout(players, f"bench-{players}-{i}"):
            view = G.view(s, None)
            if test(view):
                views.append(view)
                if len(views) >= count:
                    return views
    if not views:
        raise LookupError(f"no {kind} views for {players} players")
    return [views[i % len(views)] for i in range(count)]


CASES = (("2 sides play", 2, "play"), ("5 sides duel", 5, "duel"), ("4 sides final", 4, "final"))


def rows(n: int = 100) -> list[Row]:
    out: list[Row] = []
    for case, players, kind in CASES:
        views = floor_views(players, kind, count=min(2 * n, 120))
        names = NAMES[:players]
        out += image_rows("the_floor", case, lambda v, names=names: the_floor.draw(v, names=names), views, n)
    return out
