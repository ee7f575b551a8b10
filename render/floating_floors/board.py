"""Floating Floors' top view: the map, its pieces and the physics overlay, drawn and encoded."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from render import kit
from render.floating_floors.layout import Layout, _layout
from render.floating_floors.model import (
    LETTERS,
    Board,
    Model,
    Piece,
    _dict,
    _int,
    label,
    margin_text,
    read,
    seat_colour,
)
from render.floating_floors.palette import (
    ALCOVE,
    BAD,
    BAND_W,
    BG,
    DIM,
    FRAME,
    FRAME_EDGE,
    GOLD,
    INK,
    OK,
    SS,
    WHITE,
    palette,
)
from render.floating_floors.panel import _header, _panel_extra, _seat_card
from render.floating_floors.sprites import (
    _dashed,
    _paste,
    bansen_sprite,
    board_sprite,
    card_tile,
    centre_sprite,
    jutsu_sprite,
    ninja_sprite,
    warning_sprite,
)

# ----------------------------------------------------------------------------------------------- map


def _draw_frame(img: Image.Image, m: Model, lay: Layout) -> None:
    d = ImageDraw.Draw(img)
    fx0, fy0, fx1, fy1 = lay.frame_box
    d.rounded_rectangle((fx0, fy0, fx1, fy1), radius=lay.frame // 3, fill=FRAME_EDGE)
    d.rounded_rectangle((fx0 + 3, fy0 + 3, fx1 - 3, fy1 - 3), radius=lay.frame // 3 - 2, fill=FRAME)
    cv = kit.Canvas(img, BG)
    size = max(10, min(15, lay.unit // 4))
    for c in range(m.cols):
        left, _, right, _ = lay.space_box((c, 0))
        cv.text((left + right) / 2, fy0 - BAND_W / 2, LETTERS[c], size=size, fill=DIM, align="center")
    for r in range(m.rows):
        _, top, _, bottom = lay.space_box((0, r))
        cv.text(fx0 - BAND_W / 2, (top + bottom) / 2, str(r + 1), size=size, fill=DIM, align="center")


def _draw_alcoves(img: Image.Image, m: Model, lay: Layout) -> None:
    d = ImageDraw.Draw(img)
    for a in m.alcoves:
        x0, y0, x1, y1 = lay.alcove_box(a["space"], a["side"])
        d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=lay.notch // 4, fill=FRAME_EDGE)
        d.rounded_rectangle((x0, y0, x1, y1), radius=lay.notch // 4, fill=ALCOVE)


def _draw_alcove_contents(img: Image.Image, m: Model, lay: Layout) -> None:
    for a in m.alcoves:
        cx, cy = lay.alcove_centre(a["space"], a["side"])
        n = lay.notch
        chakra, bansen = a["chakra"], a["bansen"]
        if chakra is not None:
            tile = kit.disc_sprite(seat_colour(chakra), n - 4, ALCOVE, diameter=0.92)
            img.paste(tile, (round(cx - tile.width / 2), round(cy - tile.height / 2)))
        if bansen is not None:
            size = n - 4 if chakra is None else n // 2
            tile = bansen_sprite(bansen["seat"], bansen["direction"], bansen["number"], size, ALCOVE)
            dx = 0 if chakra is None else n / 2 - size / 2
            img.paste(tile, (round(cx + dx - tile.width / 2), round(cy - dx - tile.height / 2)))


def _draw_cards(img: Image.Image, m: Model, lay: Layout) -> None:
    for i in range(m.card_cols * m.card_rows):
        left, top, _, _ = lay.card_box(i)
        img.paste(card_tile(m.cards.get(i, "?" * 9), lay.unit), (left, top))


def _under_board(m: Model, piece: Piece) -> bool:
    return piece.card is not None and piece.card in m.boards


def _draw_jutsu(img: Image.Image, m: Model, lay: Layout, level: str) -> None:
    """``ground``: free Jutsu on cards without a board; ``ghost``: supports under boards; ``board``: on top."""
    for colour, shape, where_level, p in m.jutsu:
        under = where_level == "ground" and _under_board(m, p)
        kind = "board" if where_level == "board" else "ghost" if under else "ground"
        if kind != level:
            continue
        cx, cy = lay.px(p.x, p.y, p.card)
        _paste(img, jutsu_sprite(colour, shape, lay.unit, kind == "ghost"), cx, cy)


def _draw_boards(img: Image.Image, m: Model, lay: Layout) -> None:
    for card, b in sorted(m.boards.items()):
        tile, pad = board_sprite(b.pattern, lay.unit, b.stable is False)
        left, top, _, _ = lay.card_box(card)
        img.paste(tile, (left - pad, top - pad), tile)


def _draw_warnings(img: Image.Image, m: Model, lay: Layout) -> None:
    size = max(16, round(lay.unit * 0.5))
    for card, b in sorted(m.boards.items()):
        if b.stable is False:
            _, top, right, _ = lay.card_box(card)
            _paste(img, warning_sprite(size), right - size * 0.2, top + size * 0.2)


def _draw_reset(img: Image.Image, view: dict[str, Any], m: Model, lay: Layout, locale: str) -> None:
    reset = _dict(view.get("reset"))
    card, by = _int(reset.get("card")), _int(reset.get("by"))
    if card is None or not 0 <= card < m.card_cols * m.card_rows:
        return
    colour = kit.PIECE_COLOURS[seat_colour(by)] if by is not None and 0 <= by < 8 else GOLD
    x0, y0, x1, y1 = lay.card_box(card)
    g = lay.gap / 2
    _dashed(ImageDraw.Draw(img), [(x0 - g, y0 - g), (x1 + g, y0 - g), (x1 + g, y1 + g), (x0 - g, y1 + g)], colour,
            max(3, lay.gap * 0.6), lay.unit * 0.25)
    word = label("reset_tag", locale)
    size = max(11, lay.unit // 5)
    w = kit.text_width(word, size, "Black") + 14
    tag = (round((x0 + x1) / 2 - w / 2), round(y0 + lay.unit * 0.08), round((x0 + x1) / 2 + w / 2),
           round(y0 + lay.unit * 0.08 + size + 10))
    ImageDraw.Draw(img).rounded_rectangle(tag, radius=6, fill=colour)
    ink = kit.mark_ink(seat_colour(by)) if by is not None and 0 <= by < 8 else INK
    kit.paste_text(img, ((x0 + x1) / 2, (tag[1] + tag[3]) / 2), word, size=size, fill=ink, bg=colour,
                      weight="Black", align="center")


def _off_centre(p: Any) -> bool:
    return abs(p.x % 1 - 0.5) > 1e-6 or abs(p.y % 1 - 0.5) > 1e-6


def _draw_ninjas(img: Image.Image, m: Model, lay: Layout) -> None:
    alcoves = {a["index"]: a for a in m.alcoves}
    size = max(16, round(lay.unit * 0.82))
    nested = max(16, round(lay.notch * 1.08))  # in an alcove: about the notch's size
    playing = m.winner is None and m.phase != "over"
    for n in sorted(m.ninjas, key=lambda n: n["seat"] == m.current):  # the current one on top
        if n["alcove"] is not None:
            a = alcoves.get(n["alcove"])
            if a is None:
                continue
            cx, cy = lay.alcove_centre(a["space"], a["side"])
        elif n["where"] is not None:
            p = n["where"]
            cx, cy = lay.px(p.x, p.y, p.card)
        else:
            continue
        current = playing and n["seat"] == m.current
        px = nested if n["alcove"] is not None else size
        if n["alcove"] is None and _off_centre(n["where"]):  # nudged aside: smaller, so two share a space visibly
            px = max(16, round(size * 0.6))
        tile = ninja_sprite(n["colour"], n["seat"], px, current)
        _paste(img, tile, cx, cy)


# ------------------------------------------------------------------------------------------- physics


def _overlay_polygon(img: Image.Image, pts: list[tuple[float, float]], stable: bool, unit: int) -> None:
    """The support polygon: a translucent fill and an outline (dashed when unstable); a dot or a line when
    degenerate."""
    box, fill, line = _polygon_masks(tuple(pts), stable, unit)
    region = img.crop(box)
    solid = Image.new("RGB", region.size, OK if stable else BAD)
    region.paste(solid, (0, 0), fill)
    region.paste(solid, (0, 0), line)
    img.paste(region, box[:2])


@lru_cache(maxsize=256)  # a board's polygon stays put while other things move: drawn (supersampled) once
def _polygon_masks(pts: tuple[tuple[float, float], ...], stable: bool, unit: int
                   ) -> tuple[tuple[int, int, int, int], Image.Image, Image.Image]:
    """The polygon's box and its fill and outline masks (shared: only ever read)."""
    pad = unit // 4
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    box = (math.floor(min(xs)) - pad, math.floor(min(ys)) - pad, math.ceil(max(xs)) + pad, math.ceil(max(ys)) + pad)
    w, h = box[2] - box[0], box[3] - box[1]
    local = [((x - box[0]) * SS, (y - box[1]) * SS) for x, y in pts]
    fill = Image.new("L", (w * SS, h * SS), 0)
    line = Image.new("L", (w * SS, h * SS), 0)
    fd, ld = ImageDraw.Draw(fill), ImageDraw.Draw(line)
    width = max(2, unit * 0.045) * SS
    unique = list(dict.fromkeys((round(x, 3), round(y, 3)) for x, y in local))
    if len(unique) == 1:
        x, y = unique[0]
        r = unit * 0.09 * SS
        ld.ellipse((x - r, y - r, x + r, y + r), fill=255)
    elif len(unique) == 2:
        if stable:
            ld.line(unique, fill=255, width=round(width * 1.4))
        else:
            _dashed(ld, unique, 255, width * 1.4, unit * 0.12 * SS, closed=False)
    else:
        fd.polygon(unique, fill=92)
        if stable:
            ld.line([*unique, unique[0]], fill=255, width=round(width), joint="curve")
        else:
            _dashed(ld, unique, 255, width, unit * 0.12 * SS)
    return box, fill.reduce(SS), line.reduce(SS)


def _draw_physics(img: Image.Image, m: Model, lay: Layout, stage: str, locale: str = "en") -> None:
    """``stage`` ``polygon`` (under the pieces) or ``marks`` (the centres and margins, over everything)."""
    for card, b in sorted(m.boards.items()):
        stable = b.stable is not False if b.stable is not None else (b.margin or 0) >= 0.05
        if stage == "polygon":
            if b.support:
                _overlay_polygon(img, [lay.px(x, y, card) for x, y in b.support], stable, lay.unit)
            continue
        if b.centre is not None:
            cx, cy = lay.px(*b.centre, card)
            _paste(img, centre_sprite(max(14, round(lay.unit * 0.4)), stable), cx, cy)
        _margin_pill(img, lay, card, b, stable, locale)


def _margin_pill(img: Image.Image, lay: Layout, card: int, b: Board, stable: bool, locale: str) -> None:
    if b.margin is None and not b.support and b.band is None:
        return
    shown = label(f"band.{b.band}", locale) if b.band else margin_text(b.margin)
    text = shown if stable else f"! {shown}"
    size = max(11, min(16, lay.unit // 4))
    colour = OK if stable else BAD
    x0, _, _, y1 = lay.card_box(card)
    w = kit.text_width(text, size, "Black") + 16
    cx, cy = x0 + w / 2 + lay.unit * 0.12, y1 + size * 0.3  # bottom-left: alcoves sit at the middles
    box = (round(cx - w / 2), round(cy - size / 2 - 5), round(cx + w / 2), round(cy + size / 2 + 5))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), radius=(box[3] - box[1]) // 2 + 2,
                        fill=WHITE)
    d.rounded_rectangle(box, radius=(box[3] - box[1]) // 2, fill=colour)
    kit.paste_text(img, (cx, cy), text, size=size, fill=WHITE, bg=colour, weight="Black", align="center")


# ------------------------------------------------------------------------------------------ entry points


@lru_cache(maxsize=16)  # per layout and deal: a game's frame, notches and cards never change (issue 25)
def _static_map(lay: Layout, cards: tuple[tuple[int, str], ...], alcoves: tuple[tuple[tuple[int, ...], str], ...]
                ) -> Image.Image:
    """The background, the frame with its coordinates, the empty alcoves and the terrain cards: shared, so
    every caller draws on ``.convert("RGB")`` of it. Kept as a palette image of its own colours (1 byte a pixel, an
    RGB image takes 4: ~1 MB an entry, not ~4 MB) when that holds the same pixels."""
    img = Image.new("RGB", (lay.width, lay.height), BG)
    m = Model(players=0, card_cols=lay.card_cols, card_rows=lay.card_rows, current=None, phase="", turn=0,
              winner=None, cards=dict(cards), alcoves=[{"space": sp, "side": side} for sp, side in alcoves])
    _draw_frame(img, m, lay)
    _draw_alcoves(img, m, lay)
    _draw_cards(img, m, lay)
    return lossless_palette(img)


def lossless_palette(img: Image.Image) -> Image.Image:
    """``img`` as a 'P' image with exactly its pixels, or ``img`` itself if its colours do not fit 256 entries."""
    colours = img.getcolors(256)
    if colours is None:
        return img
    # Indexed here, not by `Image.quantize(palette=...)`: Pillow's palette lookup caches by 4-level boxes and may give
    # a colour its neighbour's entry; median cut is exact but ~60 ms a map, this ~10 ms.
    palette = sorted((rgb for _, rgb in colours), key=_packed)
    keys = np.array([_packed(rgb) for rgb in palette], dtype=np.uint32)
    rgb = img.convert("RGB")
    # By bands of rows: a whole map's arrays (~25 MB) would stay in the heap once freed (glibc raises its mmap
    # threshold), ~10 MB more per worker.
    index = b"".join(_indices(rgb.crop((0, y, rgb.width, min(y + _BAND_ROWS, rgb.height))), keys)
                     for y in range(0, rgb.height, _BAND_ROWS))
    out = Image.frombytes("P", img.size, index)
    out.putpalette([c for rgb in palette for c in rgb])
    return out


_BAND_ROWS = 32


def _packed(rgb: tuple[int, int, int]) -> int:
    return rgb[0] | rgb[1] << 8 | rgb[2] << 16  # as an RGBX pixel reads in a little-endian uint32


def _indices(band: Image.Image, keys: np.ndarray) -> bytes:
    pixels = np.frombuffer(band.tobytes("raw", "RGBX"), dtype="<u4") & 0xFFFFFF
    return np.searchsorted(keys, pixels).astype(np.uint8).tobytes()


def draw_board(view: dict[str, Any], *, locale: str = "en", names: list[Any] | None = None,
               physics: bool = True) -> Image.Image:
    """The top view as a palette ('P') image (see the module's docstring)."""
    return kit.to_palette(_draw_rgb(view, locale, names, physics), palette())


def _draw_rgb(view: Any, locale: str, names: list[Any] | None, physics: bool,
              unit: int | None = None) -> Image.Image:
    view = _dict(view)
    names = names if isinstance(names, list | tuple) else None
    m = read(view)
    lay = _layout(view, m, unit)
    img = _static_map(lay, tuple(sorted(m.cards.items())),
                      tuple((tuple(a["space"]), a["side"]) for a in m.alcoves)).convert("RGB")  # a copy
    _header(img, view, m, lay, locale, names)
    _draw_jutsu(img, m, lay, "ground")
    _draw_boards(img, m, lay)
    _draw_jutsu(img, m, lay, "ghost")
    if physics:
        _draw_physics(img, m, lay, "polygon")
    _draw_jutsu(img, m, lay, "board")
    _draw_reset(img, view, m, lay, locale)
    _draw_warnings(img, m, lay)
    _draw_alcove_contents(img, m, lay)
    _draw_ninjas(img, m, lay)
    if physics:
        _draw_physics(img, m, lay, "marks", locale)
    for seat, box in enumerate(lay.seats):
        _seat_card(img, box, seat, view, m, locale, names)
    _panel_extra(img, view, m, lay, locale, physics)
    return img


def board_image(view: dict[str, Any], *, locale: str = "en", names: list[Any] | None = None,
                physics: bool = True) -> bytes:
    """PNG bytes of the top view."""
    return kit.encode_image(draw_board(view, locale=locale, names=names, physics=physics))




def render(view: dict[str, Any], *, names: list[Any] | None = None, locale: str = "en") -> bytes:
    """The map to post after a move (the engine's generic renderer hook): the overlay as the table's
    ``overlay`` option says (on unless switched off)."""
    overlay = _dict(view).get("options", {})
    physics = not (isinstance(overlay, dict) and overlay.get("overlay") == "off")
    return board_image(view, locale=locale, names=names, physics=physics)
