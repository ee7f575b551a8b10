"""Floating Floors' top view: the map, its pieces and the physics overlay, drawn and encoded."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
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
from render.floating_floors.panel import header_step, panel_step, seat_step
from render.floating_floors.sprites import (
    _board_geometry,
    _dashed,
    bansen_sprite,
    board_sprite,
    card_tile,
    centre_sprite,
    jutsu_sprite,
    ninja_sprite,
    warning_sprite,
)
from render.kit import RGB
from render.kit.scene import Step, at_step, draw_region, draw_scene, lazy_step, paste_step

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


def _draw_cards(img: Image.Image, m: Model, lay: Layout) -> None:
    for i in range(m.card_cols * m.card_rows):
        left, top, _, _ = lay.card_box(i)
        img.paste(card_tile(m.cards.get(i, "?" * 9), lay.unit), (left, top))


def _alcove_content_steps(m: Model, lay: Layout) -> Iterator[Step]:
    for a in m.alcoves:
        cx, cy = lay.alcove_centre(a["space"], a["side"])
        n = lay.notch
        chakra, bansen = a["chakra"], a["bansen"]
        if chakra is not None:
            yield paste_step(kit.disc_sprite(seat_colour(chakra), n - 4, ALCOVE, diameter=0.92), cx, cy, False)
        if bansen is not None:
            size = n - 4 if chakra is None else n // 2
            args = (bansen["seat"], bansen["direction"], bansen["number"], size, ALCOVE)
            dx = 0 if chakra is None else n / 2 - size / 2
            yield paste_step(bansen_sprite(*args), cx + dx, cy - dx, False)


def _under_board(m: Model, piece: Piece) -> bool:
    return piece.card is not None and piece.card in m.boards


def _jutsu_steps(m: Model, lay: Layout, level: str) -> Iterator[Step]:
    """``ground``: free Jutsu on cards without a board; ``ghost``: supports under boards; ``board``: on top."""
    for colour, shape, where_level, p in m.jutsu:
        under = where_level == "ground" and _under_board(m, p)
        kind = "board" if where_level == "board" else "ghost" if under else "ground"
        if kind != level:
            continue
        cx, cy = lay.px(p.x, p.y, p.card)
        args = (colour, shape, lay.unit, kind == "ghost")
        tile, dx, dy = _trimmed_jutsu(*args)
        yield at_step(tile, round(cx - lay.unit / 2) + dx, round(cy - lay.unit / 2) + dy)


@lru_cache(maxsize=128)
def _trimmed_jutsu(colour: str, shape: str, unit: int, ghost: bool) -> tuple[Image.Image, int, int]:
    """`jutsu_sprite` cut to its visible pixels (a quarter of its tile: a paste blends only those), and where they
    sit in it: the same pixels pasted, the rest of the tile is transparent."""
    tile = jutsu_sprite(colour, shape, unit, ghost)
    box = tile.getchannel("A").getbbox() or (0, 0, 1, 1)
    return tile.crop(box), box[0], box[1]


def _board_steps(m: Model, lay: Layout) -> Iterator[Step]:
    pad = _board_geometry(lay.unit).pad
    side = lay.unit * 3 + 2 * pad  # `board_sprite`'s tile: fetched when drawn (a preview draws one card's)
    for card, b in sorted(m.boards.items()):
        left, top, _, _ = lay.card_box(card)
        x, y = left - pad, top - pad
        yield Step((x, y, x + side, y + side), functools.partial(_paste_board, (b.pattern, lay.unit, b.stable is False),
                                                                 x, y))


def _paste_board(args: tuple[str, int, bool], x: int, y: int, img: Image.Image) -> None:
    for piece, dx, dy, masked in _board_pieces(*args):
        img.paste(piece, (x + dx, y + dy), piece if masked else None)


@lru_cache(maxsize=16)  # ~200 KB each: the boards of a game or two (a new one costs ~0.1 ms)
def _board_pieces(pattern: str, unit: int, unstable: bool
                  ) -> tuple[tuple[Image.Image, int, int, bool], ...]:
    """`board_sprite` as pieces to paste: (tile, dx, dy, through its alpha). The whole tile when
    no opaque middle is found, else the opaque middle as plain RGB (a copy, not a blend: ~three quarters of the
    pixels) and the four strips around it through their alpha. The same pixels: a blend through alpha 255 is the
    colour."""
    tile, pad = board_sprite(pattern, unit, unstable)
    size = tile.width
    lo, hi = pad + math.ceil(unit * 3 * 0.03) + 2, size - pad - math.ceil(unit * 3 * 0.03) - 2  # past the corners
    if hi - lo < 8 or tile.getchannel("A").crop((lo, lo, hi, hi)).getextrema() != (255, 255):
        return ((tile, 0, 0, True),)
    strips = [(0, 0, size, lo), (0, hi, size, size), (0, lo, lo, hi), (hi, lo, size, hi)]
    return ((tile.crop((lo, lo, hi, hi)).convert("RGB"), lo, lo, False),
            *((tile.crop(b), b[0], b[1], True) for b in strips))


def _warning_steps(m: Model, lay: Layout) -> Iterator[Step]:
    size = max(16, round(lay.unit * 0.5))
    for card, b in sorted(m.boards.items()):
        if b.stable is False:
            _, top, right, _ = lay.card_box(card)
            yield paste_step(warning_sprite(size), right - size * 0.2, top + size * 0.2)


def _reset_steps(view: dict[str, Any], m: Model, lay: Layout, locale: str) -> Iterator[Step]:
    reset = _dict(view.get("reset"))
    card, by = _int(reset.get("card")), _int(reset.get("by"))
    if card is None or not 0 <= card < m.card_cols * m.card_rows:
        return
    seated = by is not None and 0 <= by < 8
    colour = kit.PIECE_COLOURS[seat_colour(by)] if seated else GOLD
    ink = kit.mark_ink(seat_colour(by)) if seated else INK
    word = label("reset_tag", locale)
    x0, y0, x1, y1 = lay.card_box(card)
    reach = math.ceil(lay.gap / 2 + max(3, lay.gap * 0.6)) + 1  # the dashes' half-gap out, and their width
    yield Step((x0 - reach, y0 - reach, x1 + reach, y1 + reach),
               functools.partial(_draw_reset, lay, card, colour, ink, word))


def _draw_reset(lay: Layout, card: int, colour: RGB, ink: RGB, word: str, img: Image.Image) -> None:
    x0, y0, x1, y1 = lay.card_box(card)
    g = lay.gap / 2
    _dashed(ImageDraw.Draw(img), [(x0 - g, y0 - g), (x1 + g, y0 - g), (x1 + g, y1 + g), (x0 - g, y1 + g)], colour,
            max(3, lay.gap * 0.6), lay.unit * 0.25)
    size = max(11, lay.unit // 5)
    w = kit.text_width(word, size, "Black") + 14
    tag = (round((x0 + x1) / 2 - w / 2), round(y0 + lay.unit * 0.08), round((x0 + x1) / 2 + w / 2),
           round(y0 + lay.unit * 0.08 + size + 10))
    ImageDraw.Draw(img).rounded_rectangle(tag, radius=6, fill=colour)
    kit.paste_text(img, ((x0 + x1) / 2, (tag[1] + tag[3]) / 2), word, size=size, fill=ink, bg=colour,
                   weight="Black", align="center")


def _off_centre(p: Any) -> bool:
    return abs(p.x % 1 - 0.5) > 1e-6 or abs(p.y % 1 - 0.5) > 1e-6


def _ninja_steps(m: Model, lay: Layout) -> Iterator[Step]:
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
        yield lazy_step((px, px), cx, cy, functools.partial(ninja_sprite, n["colour"], n["seat"], px, current))


# ------------------------------------------------------------------------------------------- physics


def _polygon_step(pts: tuple[tuple[float, float], ...], stable: bool, unit: int) -> Step:
    """The support polygon: a translucent fill and an outline (dashed when unstable); a dot or a line when
    degenerate. Its tile is fetched when drawn: a preview's region that does not meet it never makes it."""
    box = _polygon_box(pts, unit)

    def draw(img: Image.Image) -> None:
        tile = _polygon_tile(pts, stable, unit)
        img.paste(tile, box[:2], tile)

    return Step(box, draw)


def _polygon_box(pts: tuple[tuple[float, float], ...], unit: int) -> tuple[int, int, int, int]:
    pad = unit // 4
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return math.floor(min(xs)) - pad, math.floor(min(ys)) - pad, math.ceil(max(xs)) + pad, math.ceil(max(ys)) + pad


# A board's polygon stays put while other things move: drawn (supersampled) once. 128 tiles of 4 bytes a pixel: the
# memory 256 pairs of 1-byte masks took before, the live polygons of ~18 games (2–7 a map). An 'L' alpha pasted with
# the colour would take a quarter, but that paste is twice as slow (~175 against ~90 µs a polygon).
@lru_cache(maxsize=128)
def _polygon_tile(pts: tuple[tuple[float, float], ...], stable: bool, unit: int) -> Image.Image:
    """The polygon over its box (`_polygon_box`) as one RGBA tile of the overlay's colour: the fill's and the
    outline's coverage in one alpha, 1 − (1 − fill)(1 − line), so a draw blends once, not twice (within a level of
    the two blends)."""
    fill, line = _polygon_masks(pts, stable, unit)
    f, n = np.asarray(fill, dtype=np.uint32), np.asarray(line, dtype=np.uint32)
    tile = Image.new("RGBA", fill.size, OK if stable else BAD)
    tile.putalpha(Image.fromarray((f + n - (f * n + 127) // 255).astype(np.uint8), "L"))
    return tile


def _polygon_masks(pts: tuple[tuple[float, float], ...], stable: bool, unit: int) -> tuple[Image.Image, Image.Image]:
    """The fill's and the outline's coverage over the polygon's box (L, drawn at SS and reduced)."""
    box = _polygon_box(pts, unit)
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
    return fill.reduce(SS), line.reduce(SS)


def _stable(b: Board) -> bool:
    return b.stable is not False if b.stable is not None else (b.margin or 0) >= 0.05


def _polygon_steps(m: Model, lay: Layout) -> Iterator[Step]:
    """The support polygons, under the pieces."""
    for card, b in sorted(m.boards.items()):
        if b.support:
            yield _polygon_step(tuple(lay.px(x, y, card) for x, y in b.support), _stable(b), lay.unit)


def _mark_steps(m: Model, lay: Layout, locale: str) -> Iterator[Step]:
    """The centres of mass and the margins, over everything."""
    for card, b in sorted(m.boards.items()):
        stable = _stable(b)
        if b.centre is not None:
            cx, cy = lay.px(*b.centre, card)
            size = max(14, round(lay.unit * 0.4))
            yield paste_step(centre_sprite(size, stable), cx, cy)
        if b.margin is None and not b.support and b.band is None:
            continue
        shown = label(f"band.{b.band}", locale) if b.band else margin_text(b.margin)
        text = shown if stable else f"! {shown}"
        size = max(11, min(16, lay.unit // 4))
        colour = OK if stable else BAD
        x0, _, _, y1 = lay.card_box(card)
        w = kit.text_width(text, size, "Black") + 16
        cx, cy = x0 + w / 2 + lay.unit * 0.12, y1 + size * 0.3  # bottom-left: alcoves sit at the middles
        box = (round(cx - w / 2), round(cy - size / 2 - 5), round(cx + w / 2), round(cy + size / 2 + 5))
        yield Step((box[0] - 2, box[1] - 2, box[2] + 3, box[3] + 3),
                   functools.partial(_draw_pill, box, text, size, colour, cx, cy))


def _draw_pill(box: tuple[int, int, int, int], text: str, size: int, colour: RGB, cx: float, cy: float,
               img: Image.Image) -> None:
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


def _scene(view: Any, locale: str, names: list[Any] | None, physics: bool, unit: int | None = None
           ) -> tuple[Image.Image, list[Step]]:
    """The background (the game's frame, notches and cards: `_static_map`) and the steps drawn over it, in order."""
    view = _dict(view)
    names = names if isinstance(names, list | tuple) else None
    m = read(view)
    lay = _layout(view, m, unit)
    steps = [header_step(view, m, lay, locale, names),
             *_jutsu_steps(m, lay, "ground"),
             *_board_steps(m, lay),
             *_jutsu_steps(m, lay, "ghost"),
             *(_polygon_steps(m, lay) if physics else ()),
             *_jutsu_steps(m, lay, "board"),
             *_reset_steps(view, m, lay, locale),
             *_warning_steps(m, lay),
             *_alcove_content_steps(m, lay),
             *_ninja_steps(m, lay),
             *(_mark_steps(m, lay, locale) if physics else ()),
             *(seat_step(box, seat, view, m, locale, names) for seat, box in enumerate(lay.seats)),
             panel_step(view, m, lay, locale, physics)]
    background = _static_map(lay, tuple(sorted(m.cards.items())),
                             tuple((tuple(a["space"]), a["side"]) for a in m.alcoves))
    return background, steps


def _draw_rgb(view: Any, locale: str, names: list[Any] | None, physics: bool,
              unit: int | None = None, box: tuple[int, int, int, int] | None = None) -> Image.Image:
    """The top view in RGB, drawn afresh: all of it, or only ``box`` of it (a preview's card)."""
    background, steps = _scene(view, locale, names, physics, unit)
    return draw_scene(background, steps) if box is None else draw_region(background, steps, box)


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
