"""Where Floating World's map draws things: `MapLayout` and `map_layout(view)` (tile and card boxes)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from render.floating_world.model import _dict, _kitsune, _lands, _last_roll, _list
from render.floating_world.palette import (
    BAND_W,
    CARD_GAP,
    CARD_W,
    HEADER_H,
    MAX_SIDE,
    MIN_WIDTH,
    PAD,
    ROLL_H,
    TILE_COMFORT,
    TILE_MAX,
    TILE_MIN_COMFORT,
)

# ------------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class MapLayout:
    width: int
    height: int
    header_h: int
    tile: int
    x_min: int  # the leftmost column drawn (a chaos column)
    y_max: int  # the top row drawn
    cols: int
    rows: int
    map_x: int  # left of column x_min
    map_y: int  # top of row y_max
    below: bool  # the cards sit under the map (else to its right)
    cards: tuple[tuple[int, int, int, int], ...]  # per Kitsune in the view's order

    def tile_box(self, x: int, y: int) -> tuple[int, int, int, int]:
        left = self.map_x + (x - self.x_min) * self.tile
        top = self.map_y + (self.y_max - y) * self.tile
        return left, top, left + self.tile, top + self.tile


CARD_HEAD = 50
STAT_ROW = 34
LINE_ROW = 25


def _card_lines(k: dict[str, Any], card_names: dict[str, str] | None) -> int:
    if not card_names:
        return 1
    return sum(1 for key in ("items", "legends", "upgrades") if _list(k.get(key))) or 1


def _card_height(lines: int) -> int:
    return 12 + CARD_HEAD + 3 * STAT_ROW + STAT_ROW + lines * LINE_ROW + 12


def map_layout(view: dict[str, Any], card_names: dict[str, str] | None = None) -> MapLayout:
    view = _dict(view)
    lands = _lands(view)
    kits = _kitsune(view)
    coords = list(lands) or [(0, 0)]
    x_min = min(x for x, _ in coords) - 1
    x_max = max(x for x, _ in coords) + 1
    y_min = min(y for _, y in coords) - 1
    y_max = max(y for _, y in coords) + 1
    cols, rows = x_max - x_min + 1, y_max - y_min + 1
    header_h = HEADER_H + (ROLL_H if _last_roll(view)[1].get("dice") else 0)
    card_h = max((_card_height(_card_lines(k, card_names)) for k in kits), default=0)
    n = len(kits)
    below = cols >= 2 * rows and cols > 6
    if below:
        budget_w = MAX_SIDE - 2 * PAD - BAND_W
        per_row = max(1, min(n, (MAX_SIDE - 2 * PAD + CARD_GAP) // (CARD_W + CARD_GAP)))
        card_rows = math.ceil(n / per_row) if n else 0
        budget_h = MAX_SIDE - header_h - BAND_W - 3 * PAD - card_rows * (card_h + CARD_GAP)
    else:
        budget_w = MAX_SIDE - 3 * PAD - BAND_W - (CARD_W if n else 0)
        budget_h = MAX_SIDE - header_h - BAND_W - 2 * PAD
    comfort = max(TILE_MIN_COMFORT, TILE_COMFORT // max(cols, rows))
    tile = max(4, min(TILE_MAX, comfort, budget_w // cols, max(4, budget_h) // rows))
    map_w, map_h = cols * tile + BAND_W, rows * tile + BAND_W
    cards: list[tuple[int, int, int, int]] = []
    if below:
        per_row = max(1, min(n, (max(MIN_WIDTH, map_w + 2 * PAD) - 2 * PAD + CARD_GAP) // (CARD_W + CARD_GAP)))
        width = max(MIN_WIDTH, map_w + 2 * PAD, per_row * (CARD_W + CARD_GAP) - CARD_GAP + 2 * PAD)
        top = header_h + map_h + 2 * PAD
        for i in range(n):
            r, c = divmod(i, per_row)
            x = PAD + c * (CARD_W + CARD_GAP)
            y = top + r * (card_h + CARD_GAP)
            cards.append((x, y, x + CARD_W, y + card_h))
        height = (cards[-1][3] if cards else top - PAD) + PAD
        map_x = (width - map_w) // 2
    else:
        need = PAD + map_w + (PAD + CARD_W if n else 0) + PAD
        width = max(MIN_WIDTH, need)
        map_x = PAD + (width - need) // 2
        card_x = map_x + map_w + PAD
        for i in range(n):
            y = header_h + PAD + i * (card_h + CARD_GAP)
            cards.append((card_x, y, card_x + CARD_W, y + card_h))
        height = max(header_h + PAD + map_h, cards[-1][3] if cards else 0) + PAD
    return MapLayout(width, height, header_h, tile, x_min, y_max, cols, rows, map_x + BAND_W,
                     header_h + PAD + BAND_W, below, tuple(cards))
