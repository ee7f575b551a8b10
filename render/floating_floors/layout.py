"""Where Floating Floors draws things: the `Layout` of the map, header and panel, and `layout(view)` for tests."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from render.floating_floors.model import Model, _dict, _list, read, space_name
from render.floating_floors.palette import (
    BAND_W,
    HEADER_H,
    MAP_BUDGET,
    PAD,
    PANEL_W,
    SCALE_MAX,
    SCALE_MIN,
    SEAT_GAP,
    SEAT_H,
)

# -------------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    unit: int  # pixels per space
    gap: int  # between cards
    frame: int  # the frame's width around the cards (alcoves live in it)
    x0: int  # the cards' area's left
    y0: int  # the cards' area's top
    card_cols: int
    card_rows: int
    panel_x: int
    seats: tuple[tuple[int, int, int, int], ...]

    def px(self, x: float, y: float, card: int | None = None) -> tuple[float, float]:
        """A map point in pixels, placed with the gap offsets of ``card`` (else of the card it lies in)."""
        if card is not None and 0 <= card < self.card_cols * self.card_rows:
            cc, cr = card % self.card_cols, card // self.card_cols
        else:
            cc = max(0, min(self.card_cols - 1, math.floor(x / 3)))
            cr = max(0, min(self.card_rows - 1, math.floor(y / 3)))
        return self.x0 + x * self.unit + cc * self.gap, self.y0 + y * self.unit + cr * self.gap

    def card_box(self, card: int) -> tuple[int, int, int, int]:
        cc, cr = card % self.card_cols, card // self.card_cols
        left = self.x0 + cc * (3 * self.unit + self.gap)
        top = self.y0 + cr * (3 * self.unit + self.gap)
        return left, top, left + 3 * self.unit, top + 3 * self.unit

    def space_box(self, cell: tuple[int, int]) -> tuple[int, int, int, int]:
        c, r = cell
        left = self.x0 + c * self.unit + (c // 3) * self.gap
        top = self.y0 + r * self.unit + (r // 3) * self.gap
        return left, top, left + self.unit, top + self.unit

    @property
    def map_box(self) -> tuple[int, int, int, int]:
        return (self.x0, self.y0, self.x0 + self.card_cols * (3 * self.unit + self.gap) - self.gap,
                self.y0 + self.card_rows * (3 * self.unit + self.gap) - self.gap)

    @property
    def frame_box(self) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = self.map_box
        return x0 - self.frame, y0 - self.frame, x1 + self.frame, y1 + self.frame

    def alcove_centre(self, cell: tuple[int, int], side: str) -> tuple[float, float]:
        left, top, right, bottom = self.space_box(cell)
        mx0, my0, mx1, my1 = self.map_box
        half = self.frame / 2
        if side == "n":
            return (left + right) / 2, my0 - half
        if side == "s":
            return (left + right) / 2, my1 + half
        if side == "e":
            return mx1 + half, (top + bottom) / 2
        return mx0 - half, (top + bottom) / 2

    def alcove_box(self, cell: tuple[int, int], side: str) -> tuple[int, int, int, int]:
        cx, cy = self.alcove_centre(cell, side)
        h = self.notch / 2
        return round(cx - h), round(cy - h), round(cx + h), round(cy + h)

    @property
    def notch(self) -> int:
        return round(self.frame * 0.84)


def _seat_count(view: dict[str, Any], m: Model) -> int:
    return max(len(m.ninjas), min(4, len(_list(view.get("hands")))))


def _layout(view: dict[str, Any], m: Model, unit: int | None = None) -> Layout:
    cols, rows = m.cols, m.rows
    unit = unit or max(SCALE_MIN, min(SCALE_MAX, MAP_BUDGET // max(cols, rows)))
    gap = max(4, unit // 8)
    frame = max(20, round(unit * 0.8))
    x0 = PAD + BAND_W + frame
    y0 = HEADER_H + BAND_W + frame
    map_w = m.card_cols * (3 * unit + gap) - gap
    map_h = m.card_rows * (3 * unit + gap) - gap
    panel_x = x0 + map_w + frame + PAD + 4
    seats = []
    for i in range(_seat_count(view, m)):
        top = HEADER_H + BAND_W + i * (SEAT_H + SEAT_GAP)
        seats.append((panel_x, top, panel_x + PANEL_W, top + SEAT_H))
    panel_bottom = (seats[-1][3] if seats else HEADER_H + BAND_W) + 150
    height = max(y0 + map_h + frame + PAD, panel_bottom + PAD)
    width = panel_x + PANEL_W + PAD
    return Layout(width, height, unit, gap, frame, x0, y0, m.card_cols, m.card_rows, panel_x, tuple(seats))


def layout(view: dict[str, Any]) -> dict[str, Any]:
    """Where things are drawn, as pixel boxes (see the module's docstring)."""
    view = _dict(view)
    m = read(view)
    lay = _layout(view, m)
    return {
        "width": lay.width,
        "height": lay.height,
        "scale": lay.unit,
        "gap": lay.gap,
        "header": (0, 0, lay.width, HEADER_H),
        "map": lay.map_box,
        "frame": lay.frame_box,
        "panel": (lay.panel_x, HEADER_H, lay.panel_x + PANEL_W, lay.height - PAD),
        "cards": {i: lay.card_box(i) for i in range(m.card_cols * m.card_rows)},
        "spaces": {space_name((c, r)): lay.space_box((c, r)) for r in range(m.rows) for c in range(m.cols)},
        "alcoves": {a["index"]: lay.alcove_box(a["space"], a["side"]) for a in m.alcoves},
        "seats": dict(enumerate(lay.seats)),
    }
