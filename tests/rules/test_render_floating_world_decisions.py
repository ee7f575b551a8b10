"""The map shows the Nightmare's pending decision (issue 23): the candidate Lands outlined in gold, the header
naming who decides what, a fleeing Kitsune drawn where its Land was."""

from __future__ import annotations

from render import floating_world as r
from rules.floating_world.game import FloatingWorld
from rules.floating_world.state import Kitsune, Options, build

G = FloatingWorld()


def test_pending_spawn_outlines_exactly_the_candidate_lands(dice: list) -> None:
    s = build(2, lands=dict.fromkeys([(1, 0), (0, 1), (-1, 0)]), kitsune=[Kitsune(0), Kitsune(1)],
              options=Options(auto_nightmare=False))
    dice += [[1], [1]]  # a spawn die of 1, an Oni
    s1, _ = G.apply(s, 0, "end")
    view = G.view(s1, 0)
    assert r.pending_cells(view["pending"]) == [(-1, 0), (0, 1), (1, 0)]
    img = r.draw_map(view, names=["Ann", "Bob"]).convert("RGB")
    lay = r.map_layout(view)
    rim = max(3, lay.tile // 16)

    def edge(c: tuple[int, int]) -> tuple[int, int, int]:
        bx, by, _, _ = lay.tile_box(*c)
        return img.getpixel((bx + 1 + rim // 2, by + lay.tile // 2))

    assert all(edge(c) == r.GOLD for c in [(-1, 0), (0, 1), (1, 0)])
    assert edge((0, 0)) != r.GOLD  # the Gate holds a Kitsune: no demon may appear there
    assert "places the Oni" in r._who_acts(view["pending"], "Ann", ["Ann", "Bob"], "en")


def test_old_view_without_pending_draws_as_before() -> None:
    view = G.view(G.new(2, {}, "x"), None)
    view.pop("pending")
    assert r.draw_map(view).size == r.draw_map(G.view(G.new(2, {}, "x"), None)).size
