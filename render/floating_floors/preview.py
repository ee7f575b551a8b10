"""Floating Floors' "what if" preview: one card with its board and overlay, cropped from the top view, captioned."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render import kit
from render.floating_floors.board import _draw_rgb
from render.floating_floors.layout import _layout
from render.floating_floors.model import _dict, _int, label, margin_text, read
from render.floating_floors.palette import BAD, BG, DIM, OK, TEXT, palette
from render.floating_floors.panel import card_name

PREVIEW_CAPTION = 44
PREVIEW_UNIT = 96  # pixels per space in a preview: a 3×3 card reads well at Discord's preview width


def draw_preview(view: dict[str, Any], board_index: int, *, locale: str = "en") -> Image.Image:
    """One card with its board and overlay, cropped from the full view, and a caption (palette image)."""
    view = _dict(view)
    m = read(view)
    lay = _layout(view, m, PREVIEW_UNIT)
    wanted = _int(board_index, -1)
    board = next((b for b in m.boards.values() if b.index == wanted), None)
    card = board.card if board else 0
    x0, y0, x1, y1 = lay.card_box(card)
    margin = lay.frame
    crop = _draw_rgb(view, locale, None, True, PREVIEW_UNIT, (x0 - margin, y0 - margin, x1 + margin, y1 + margin))
    out = Image.new("RGB", (crop.width, crop.height + PREVIEW_CAPTION), BG)
    out.paste(crop, (0, 0))
    cv = kit.Canvas(out, BG)
    cy = crop.height + PREVIEW_CAPTION / 2
    text = label("card", locale, card=card_name(m, card))
    if board is not None:
        stable = board.stable is not False
        verdict = label("stable" if stable else "unstable", locale)
        mark = kit.mark_sprite("check" if stable else "cross", 24, OK if stable else BAD, BG)
        x = 12 + cv.sprite(mark, 12, cy) + 6
        w = cv.text(x, cy, verdict, size=19, fill=OK if stable else BAD, weight="Black", max_width=out.width / 2)
        shown = label(f"band.{board.band}", locale) if board.band else label("margin", locale,
                                                                            value=margin_text(board.margin))
        cv.text(x + w + 10, cy, shown, size=18, fill=TEXT,
                max_width=out.width - x - w - 20)
    else:
        cv.text(12, cy, text, size=16, fill=DIM)
    return kit.to_palette(out, palette())


def preview_image(view: dict[str, Any], board_index: int, *, locale: str = "en") -> bytes:
    """PNG bytes of `draw_preview`."""
    return kit.encode_image(draw_preview(view, board_index, locale=locale))
