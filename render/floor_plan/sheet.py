"""Floor Plan's one-player blueprint image: the map with its header and the notes panel under it."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from render import kit
from render.floor_plan.map import _highlight, _map_origin, _sheet_background, draw_map
from render.floor_plan.model import (
    BG,
    BG_HI,
    CROSS,
    DIM,
    GOLD,
    HILITE,
    ROOM_TYPES,
    TEXT,
    Cell,
    Metrics,
    _cells,
    metrics,
)
from render.floor_plan.tiles import ink, p_bubble, paste_text
from render.floor_plan.words import _wrap, bonus_name, demand_short, room_name


def highlight_cells(sheet: dict[str, Any], highlight: Iterable[Sequence[int]] | None = None) -> set[Cell]:
    """The cells to overlay: ``highlight`` when given, else the sheet's pending placement."""
    if highlight is None:
        pending = sheet.get("pending") or {}
        highlight = pending.get("cells") or ()
    return _cells(highlight)


# ------------------------------------------------------------------------------------------- sheet


def draw_sheet(
    sheet_view: dict[str, Any],
    *,
    name: str | None = None,
    locale: str = "en",
    highlight: Iterable[Sequence[int]] | None = None,
    scale: float = 1.0,
) -> Image.Image:
    """One player's blueprint as a palette ('P') image: what `render_sheet` encodes. Drawn in the palette from
    start to end (a copy of the cached background, cached 'P' tiles and text, flat shapes by index)."""
    m = metrics(scale)
    img = _sheet_background(scale, sheet_view.get("bubbles_used") is not None).copy()
    x0, y0 = _map_origin(m)
    draw_map(img, x0, y0, m.cell, m.wall, sheet_view)
    cells = highlight_cells(sheet_view, highlight)
    if cells:
        _highlight(img, x0, y0, m.cell, cells)
    _sheet_header(img, sheet_view, name, locale, m, bool(cells), explicit=highlight is not None)
    _sheet_panel(img, sheet_view, locale, m, y0 + m.map_h + m.band + 1)
    return img


def render_sheet(
    sheet_view: dict[str, Any],
    *,
    name: str | None = None,
    locale: str = "en",
    highlight: Iterable[Sequence[int]] | None = None,
    scale: float = 1.0,
) -> bytes:
    """PNG bytes of `draw_sheet`."""
    return kit.encode_image(draw_sheet(sheet_view, name=name, locale=locale, highlight=highlight, scale=scale))


def _sheet_header(
    img: Image.Image,
    sheet: dict[str, Any],
    name: str | None,
    locale: str,
    m: Metrics,
    preview: bool,
    *,
    explicit: bool = True,
) -> None:
    width = img.width
    seat = int(sheet.get("seat") or 0)
    label = kit.display_name(name, t("render.seat", locale, n=seat + 1))
    cy = m.pad + m.title / 2 + 2
    score = t("render.floor_plan.score", locale, score=sheet.get("score", 0))
    sw = paste_text(img, (width - m.pad, cy), score, size=m.title, fill=GOLD, bg=BG, align="right")
    paste_text(img, (m.pad, cy), label, size=m.title, fill=TEXT, bg=BG, max_width=width - 3 * m.pad - sw)
    pending = sheet.get("pending") or {}
    action = pending.get("action")
    if action:
        # "Preview" for the placement being confirmed; "This round" for the sheet asked for later
        key = "render.floor_plan.preview" if preview and explicit else "render.floor_plan.pending"
        text = t(key, locale, action=action)
        y = m.pad + m.title + m.small
        fill = HILITE if preview else DIM
        d = ImageDraw.Draw(img)
        if preview:
            r = m.small * 0.45
            d.rectangle((m.pad, y - r, m.pad + 2 * r, y + r), fill=ink(HILITE))
            x = m.pad + 2 * r + m.small * 0.5
        else:
            x = m.pad
        paste_text(
            img, (x, y), text, size=m.small, fill=fill, bg=BG, weight="Regular", max_width=width - x - m.pad
        )


def _sheet_panel(img: Image.Image, sheet: dict[str, Any], locale: str, m: Metrics, top: int) -> None:
    d = ImageDraw.Draw(img)
    width = img.width
    left, right = m.pad, width - m.pad
    # legend: the room letters and their names
    cy = top + m.legend_h / 2
    x = left + 4
    for rtype in ROOM_TYPES:
        x += paste_text(img, (x, cy), rtype, size=m.small, fill=TEXT, bg=BG)
        x += round(m.small * 0.3)
        x += paste_text(
            img, (x, cy), room_name(rtype, locale), size=m.small - 2, fill=DIM, bg=BG, weight="Regular"
        )
        x += round(m.small * 0.9)
    # six notes, then the wild
    notes = list(sheet.get("notes") or [])[:6]
    top += m.legend_h
    boxes = 7
    gap = round(m.pad * 0.55)
    bw = (right - left - gap * (boxes - 1)) / boxes
    bh = m.note_h
    radius = max(3, m.cell // 8)
    for i in range(boxes):
        bx = left + i * (bw + gap)
        box = (round(bx), top, round(bx + bw), top + bh)
        d.rounded_rectangle(box, radius=radius, fill=ink(BG_HI))
        cx = (box[0] + box[2]) / 2
        inner = math.floor(bw - m.pad * 0.6)
        if i < len(notes):
            note = notes[i]
            pts = note.get("points")
            if pts is None:
                paste_text(
                    img,
                    (cx, top + bh * 0.27),
                    t("render.floor_plan.note_open", locale),
                    size=m.small,
                    fill=DIM,
                    bg=BG_HI,
                    weight="Regular",
                    align="center",
                )
            else:
                paste_text(
                    img, (cx, top + bh * 0.24), str(pts), size=round(m.title * 1.2), fill=GOLD, bg=BG_HI, align="center"
                )
                paste_text(
                    img,
                    (cx, top + bh * 0.5),
                    demand_short(note.get("demand"), locale),
                    size=m.small - 2,
                    fill=TEXT,
                    bg=BG_HI,
                    weight="Regular",
                    align="center",
                    max_width=inner,
                )
            # the bonus at the foot: dim until unlocked, crossed out once spent
            d.line((box[0] + 6, top + bh * 0.64, box[2] - 6, top + bh * 0.64), fill=ink(BG), width=max(1, m.cell // 25))
            used = bool(note.get("bonus_used"))
            fill = TEXT if pts is not None and not used else DIM
            weight = "Bold" if fill is TEXT else "Regular"
            size = m.small - 2
            lines = _wrap(bonus_name(str(note.get("bonus", "")), locale), size, inner, weight)
            step = size * 1.1
            by = top + bh * 0.82 - step * (len(lines) - 1) / 2
            for line in lines:
                w = paste_text(
                    img, (cx, by), line, size=size, fill=fill, bg=BG_HI, weight=weight, align="center", max_width=inner
                )
                if used:
                    d.line((cx - w / 2 - 3, by, cx + w / 2 + 3, by), fill=ink(CROSS), width=max(2, m.cell // 18))
                by += step
        elif i == boxes - 1:
            used = bool(sheet.get("wild_used"))
            paste_text(
                img,
                (cx, top + bh * 0.3),
                bonus_name("wild", locale),
                size=round(m.title * 0.9),
                fill=DIM if used else GOLD,
                bg=BG_HI,
                align="center",
                max_width=inner,
            )
            state = t("render.floor_plan.wild_used" if used else "render.floor_plan.wild_ready", locale)
            by = top + bh * 0.72
            w = paste_text(
                img,
                (cx, by),
                state,
                size=m.small - 2,
                fill=DIM if used else TEXT,
                bg=BG_HI,
                weight="Regular",
                align="center",
                max_width=inner,
            )
            if used:
                d.line((cx - w / 2 - 3, by, cx + w / 2 + 3, by), fill=ink(CROSS), width=max(2, m.cell // 18))
    # solo: twenty round bubbles
    bubbles = sheet.get("bubbles_used")
    if bubbles is not None:
        cy = top + bh + round(m.cell * 0.65)
        label = t("render.floor_plan.bubbles", locale)
        x = left + 4 + paste_text(img, (left + 4, cy), label, size=m.small, fill=TEXT, bg=BG) + m.pad
        size = round(m.cell * 0.56)
        left_n = max(0, 20 - int(bubbles))
        tail = t("render.floor_plan.bubbles_left", locale, count=left_n)
        tail_w = math.ceil(kit.text_width(tail, m.small - 2, "Regular"))
        step = min(size + 4, (right - tail_w - m.pad - x) / 20)
        for i in range(20):
            img.paste(p_bubble(size, i < bubbles, BG), (round(x + i * step), round(cy - size / 2)))
        paste_text(img, (right, cy), tail, size=m.small - 2, fill=DIM, bg=BG, weight="Regular", align="right")
