"""Floating World's map is drawn in its palette (issue 25): no whole-image remap per move, and a Kitsune's card,
cached by everything it shows, is the card drawn in place pixel for pixel."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops

from render import floating_world as fw
from render.floating_world import map as fw_map
from tests.rules import fw_helpers as h


def test_a_move_is_drawn_in_the_palette_without_remapping_the_whole_map(monkeypatch: pytest.MonkeyPatch) -> None:
    view = h.G.view(h.busy_world(9, 3), None)
    fw.draw_map(view)
    remapped: list[tuple[int, int]] = []
    quantize = Image.Image.quantize

    def spy(self: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        remapped.append(self.size)
        return quantize(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", spy)
    img = fw.draw_map({**view, "turn": 41})
    assert img.mode == "P"
    assert all(w * h < 400 * 400 for w, h in remapped), remapped


@pytest.mark.parametrize("corner", [(0, 0), (1, 0), (0, 1), (7, 3)])
def test_a_cached_card_is_the_card_drawn_in_place(corner: tuple[int, int]) -> None:
    """Half pixels round to even: a card drawn on its own tile must sit at the parity of its place."""
    view = h.G.view(h.busy_world(9, 3), None)
    k = view["kitsune"][0]
    x0, y0 = 40 + corner[0], 30 + corner[1]
    box = (x0, y0, x0 + 389, y0 + 240)
    direct = fw_map.new_image((500, 320), fw_map.BG)
    fw_map._card(direct, box, k, view, "en", ["Ann", "Bo", "Cy"], None)
    cached = fw_map.new_image((500, 320), fw_map.BG)
    fw_map._paste_card(cached, box, k, view, "en", ["Ann", "Bo", "Cy"], None)
    assert ImageChops.difference(direct.convert("RGB"), cached.convert("RGB")).getbbox() is None
