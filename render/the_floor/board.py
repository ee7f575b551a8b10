"""The Floor's 5×5 floor: fields with outlines and category plates, the void, the duel and take rings."""

from __future__ import annotations

import functools
import math
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import RGB
from render.kit.paletted import InkDraw, PCanvas
from render.the_floor.placing import cell_box, cell_xy
from render.the_floor.sprites import paletted, texture_tile
from render.the_floor.theme import (
    BOARD,
    BORDER,
    CELL,
    DUEL_MARGIN,
    GOLD,
    INK,
    LABEL_SIZES,
    PLATE_MARGIN,
    PLATE_PAD,
    SIDE_COLOURS,
    SIZE,
    VOID,
    VOID_LINE,
    WHITE,
    Layout,
    side_tones,
)
from render.the_floor.words import _cat_name, _resigned, _wrap

# --------------------------------------------------------------------------------------- the fields

_clean = functools.lru_cache(maxsize=4096)(kit.clean_text)  # category names repeat on every image


def _field_rect(cells: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    """The biggest axis-aligned rectangle of cells inside a field (x0, y0, x1, y1 inclusive): where its
    label goes: the widest (up to 3 cells: text runs across), then the tallest, then the one nearest the
    field's middle."""
    have = set(cells)
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    best: tuple[tuple[float, ...], tuple[int, int, int, int]] | None = None
    for x0, y0 in cells:
        for x1 in range(x0, SIZE):
            if (x1, y0) not in have:
                break
            for y1 in range(y0, SIZE):
                if not all((x, y1) in have for x in range(x0, x1 + 1)):
                    break
                w, h = x1 - x0 + 1, y1 - y0 + 1
                dist = abs((x0 + x1) / 2 - mx) + abs((y0 + y1) / 2 - my)
                key = (min(w, 3), h, -dist, -y0, -x0)
                if best is None or key > best[0]:
                    best = (key, (x0, y0, x1, y1))
    assert best is not None
    return best[1]


@functools.lru_cache(maxsize=1024)
def fit_label(names: tuple[str, ...], width: int, height: int) -> tuple[int, tuple[str, ...]]:
    """(font size, lines) for a field's category names inside ``width``×``height`` px: the largest size at
    which every name wraps to at most 4 lines (3 when several names share the field) and all lines fit;
    else the smallest size with as many lines as fit, each name's last line cut with an ellipsis."""
    per = 4 if len(names) == 1 else 3
    for size in LABEL_SIZES:
        line_h = round(size * 1.18)
        lines: list[str] = []
        ok = True
        for name in names:
            wrapped = _wrap(name, size, width)
            if len(wrapped) > per or any(kit.text_width(line, size) > width for line in wrapped):
                ok = False
                break
            lines += wrapped
        if ok and len(lines) * line_h <= height:
            return size, tuple(lines)
    size = LABEL_SIZES[-1]
    max_lines = max(1, height // round(size * 1.18))
    share = max(1, min(6, max_lines // len(names)))  # lines per name
    lines = []
    for name in names:
        wrapped = _wrap(name, size, width)
        if len(wrapped) > share:
            wrapped = [*wrapped[: share - 1], " ".join(wrapped[share - 1 :])]  # the last line is cut below
        lines += [kit.fit_text(line, size, width) for line in wrapped]
    return size, tuple(lines[:max_lines])


def _grid(view: dict[str, Any]) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    """(x, y-from-top) -> (side, field) for every cell of the view."""
    out: dict[tuple[int, int], tuple[int | None, int | None]] = {}
    for c in view.get("cells") or []:
        xy = cell_xy(c.get("cell"))
        if xy is not None:
            out[xy] = (c.get("side"), c.get("field"))
    return out


def _draw_board(img: Image.Image, d: InkDraw, view: dict[str, Any], lay: Layout) -> None:
    x0, y0 = lay.board_x, lay.board_y
    grid = _grid(view)
    nsides = len(SIDE_COLOURS)
    for (x, y), (side, _) in grid.items():
        box = (x * CELL, y * CELL, (x + 1) * CELL, (y + 1) * CELL)
        if side is None or not 0 <= side < nsides:
            d.rectangle((x0 + box[0], y0 + box[1], x0 + box[2] - 1, y0 + box[3] - 1), fill=VOID)
            inset = CELL // 4
            d.rectangle(
                (x0 + box[0] + inset, y0 + box[1] + inset, x0 + box[2] - 1 - inset, y0 + box[3] - 1 - inset),
                outline=VOID_LINE,
                width=2,
            )
            continue
        img.paste(texture_tile(side, _resigned(view, side)).crop(box), (x0 + box[0], y0 + box[1]))

    def field_of(x: int, y: int) -> tuple[Any, Any]:
        return grid.get((x, y), (None, None))

    # thin lines between cells of one field, then thick ones where fields (or the void, or the edge) meet
    thick: list[tuple[int, int, int, int]] = []
    for y in range(SIZE):
        for x in range(SIZE):
            here = field_of(x, y)
            for dx, dy in ((1, 0), (0, 1)):
                nx, ny = x + dx, y + dy
                if nx >= SIZE or ny >= SIZE:
                    continue
                there = field_of(nx, ny)
                same = here[1] is not None and here == there
                if dx:
                    ex, top = x0 + nx * CELL, y0 + y * CELL
                    rect = (ex - 1, top, ex, top + CELL - 1)
                else:
                    ey, left = y0 + ny * CELL, x0 + x * CELL
                    rect = (left, ey - 1, left + CELL - 1, ey)
                if same:
                    side = here[0]
                    d.rectangle(rect, fill=side_tones(side, _resigned(view, side))[3])
                elif here[0] is not None or there[0] is not None:
                    thick.append(rect)
    h = BORDER // 2
    for left, top, right, bottom in thick:
        if right - left < bottom - top:  # vertical edge
            d.rectangle((left - h + 1, top - h, right + h - 1, bottom + h + 1), fill=INK)
        else:
            d.rectangle((left - h, top - h + 1, right + h + 1, bottom + h - 1), fill=INK)
    d.rectangle((x0 - h, y0 - h, x0 + BOARD + h - 1, y0 + BOARD + h - 1), outline=INK, width=BORDER)


def _draw_labels(cv: PCanvas, view: dict[str, Any], lay: Layout) -> None:
    duel = view.get("duel") or {}
    duelling = {xy for xy in (cell_xy(duel.get("from")), cell_xy(duel.get("to"))) if xy is not None}
    for field in view.get("fields") or []:
        names = tuple(_cat_name(c, view) for c in field.get("categories") or [] if c)
        names = tuple(n for n in (_clean(n) for n in names) if n)
        cells = [xy for xy in (cell_xy(c) for c in field.get("cells") or []) if xy is not None]
        side = field.get("side")
        if not names or not cells or side is None or not 0 <= side < len(SIDE_COLOURS):
            continue
        fx0, fy0, fx1, fy1 = _field_rect(cells)
        # a duelling cell's ring and arrow need room: keep its label further in
        ringed = any(fx0 <= x <= fx1 and fy0 <= y <= fy1 for x, y in duelling)
        margin = PLATE_MARGIN + (DUEL_MARGIN if ringed else 0)
        left = lay.board_x + fx0 * CELL + margin
        top = lay.board_y + fy0 * CELL + margin
        right = lay.board_x + (fx1 + 1) * CELL - margin
        bottom = lay.board_y + (fy1 + 1) * CELL - margin
        inner_w, inner_h = right - left - 2 * PLATE_PAD, bottom - top - 2 * PLATE_PAD
        size, lines = fit_label(names, inner_w, inner_h)
        line_h = round(size * 1.18)
        text_w = max(kit.text_width(line, size) for line in lines)
        pw, ph = math.ceil(text_w) + 2 * PLATE_PAD + 4, len(lines) * line_h + 2 * PLATE_PAD
        cx, cy = (left + right) / 2, (top + bottom) / 2
        _, _, plate, edge = side_tones(side, _resigned(view, side))
        box = (round(cx - pw / 2), round(cy - ph / 2), round(cx + pw / 2), round(cy + ph / 2))
        parity = (box[0] % 2, box[1] % 2)
        tile, mask = _plate(lines, size, box[2] - box[0], box[3] - box[1], cx - box[0], plate, edge, parity)
        cv.img.paste(tile, box[:2], mask)


@functools.lru_cache(maxsize=512)
def _plate(lines: tuple[str, ...], size: int, w: int, h: int, cx: float, plate: RGB, edge: RGB,
           parity: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    """A field's category plate with its lines as a 'P' tile, and its rounded shape as a mask (the side's texture
    shows at the corners): the labels repeat from move to move, so each is drawn once. ``parity`` is the plate's
    position mod 2: the text is placed with round(), which rounds halves to even, as on the board."""
    px, py = parity
    img = Image.new("RGB", (w + 1 + px, h + 1 + py), plate)
    ImageDraw.Draw(img).rounded_rectangle((px, py, px + w, py + h), radius=8, fill=plate, outline=edge, width=2)
    line_h = round(size * 1.18)
    y = py + PLATE_PAD + line_h / 2
    for line in lines:
        kit.paste_text(img, (px + cx, y), line, size=size, fill=INK, bg=plate, align="center")
        y += line_h
    mask = Image.new("1", (w + 1, h + 1), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w, h), radius=8, fill=1, outline=1, width=2)
    return paletted().tile(img.crop((px, py, px + w + 1, py + h + 1))), mask


def _draw_take_cells(d: InkDraw, view: dict[str, Any], lay: Layout) -> None:
    """A winner choosing cells: the loser's cells on offer get a dashed gold frame (the count is in the text)."""
    pending = view.get("pending") or {}
    if pending.get("kind") != "take":
        return
    dash, gap, inset, width = 18, 10, 9, 5
    for cell in pending.get("cells") or ():
        left, top, right, bottom = cell_box(lay, cell)
        left, top, right, bottom = left + inset, top + inset, right - 1 - inset, bottom - 1 - inset
        for start in range(left, right, dash + gap):
            end = min(start + dash, right)
            d.rectangle((start, top, end, top + width - 1), fill=GOLD)
            d.rectangle((start, bottom - width + 1, end, bottom), fill=GOLD)
        for start in range(top, bottom, dash + gap):
            end = min(start + dash, bottom)
            d.rectangle((left, start, left + width - 1, end), fill=GOLD)
            d.rectangle((right - width + 1, start, right, end), fill=GOLD)


def _draw_duel_cells(d: InkDraw, view: dict[str, Any], lay: Layout) -> None:
    duel = view.get("duel") or {}
    frm, to = cell_xy(duel.get("from")), cell_xy(duel.get("to"))
    for xy in (frm, to):
        if xy is None:
            continue
        left, top = lay.board_x + xy[0] * CELL, lay.board_y + xy[1] * CELL
        i = BORDER // 2 + 2
        d.rectangle((left + i, top + i, left + CELL - 1 - i, top + CELL - 1 - i), outline=WHITE, width=5)
        d.rectangle((left + i + 5, top + i + 5, left + CELL - 6 - i, top + CELL - 6 - i), outline=INK, width=2)
    if frm is None or to is None or abs(frm[0] - to[0]) + abs(frm[1] - to[1]) != 1:
        return
    # an arrow across the shared edge, pointing from the challenger's cell to the defender's
    fx, fy = lay.board_x + frm[0] * CELL + CELL / 2, lay.board_y + frm[1] * CELL + CELL / 2
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    ex, ey = fx + dx * CELL / 2, fy + dy * CELL / 2  # the middle of the shared edge
    px, py = -dy, dx  # perpendicular

    def pt(along: float, across: float) -> tuple[float, float]:
        return ex + dx * along + px * across, ey + dy * along + py * across

    shape = [pt(-18, -7), pt(1, -7), pt(1, -17), pt(20, 0), pt(1, 17), pt(1, 7), pt(-18, 7)]
    d.polygon(shape, fill=WHITE, outline=INK, width=3)
