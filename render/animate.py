"""A whole game as one animated image (WebP or GIF) within a byte limit (Discord's upload limit for ``/replay …
animate:true``, any limit for the terminal's ``--gif``).

The frames are the boards a replay draws, one per step. To fit: a frame whose board did not change is dropped
(the previous one stays up longer instead), every frame is mapped onto one palette made from a sample of them
(no per-frame palette flicker, and GIF's 256 colours chosen once), and the whole is shrunk step by step until it
fits; past the smallest width every other frame goes (the last is always kept: the end of the game). Pure
function of its inputs: the same frames give the same bytes.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render.registry import renderer

FORMATS = ("gif", "webp")  # GIF first: ~10x faster to encode than lossless WebP, about twice its bytes
FRAME_MS = 700  # each board
LAST_MS = 3000  # the final board stays up longer
MIN_WIDTH = 240  # below this a board is unreadable: frames are thinned instead
SAMPLE = 12  # frames the shared palette is made from
COLOURS = 255


class AnimationTooLargeError(ValueError):
    """Even the smallest, thinnest animation is over the limit."""


@dataclass(frozen=True)
class Animation:
    data: bytes
    format: str  # "webp" or "gif"
    frames: int  # frames in the file
    boards: int  # frames given (one per step)
    width: int
    height: int

    @property
    def size(self) -> int:
        return len(self.data)


def distinct(frames: list[bytes] | list[Image.Image]) -> list[tuple[Image.Image, int]]:
    """Each board (encoded, or as drawn) that differs from the one before, with how many steps it stays up (an
    unchanged board, e.g. a pass or a secret choice, adds its time to the board still shown)."""
    out: list[tuple[Image.Image, int]] = []
    last: bytes | Image.Image | None = None
    for data in frames:
        if isinstance(data, bytes) and data == last and out:
            out[-1] = (out[-1][0], out[-1][1] + 1)
            continue
        image = (data if isinstance(data, Image.Image) else Image.open(io.BytesIO(data))).convert("RGB")
        if out and image.size == out[-1][0].size and image.tobytes() == out[-1][0].tobytes():
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((image, 1))
        last = data
    return out


def _canvas(images: list[Image.Image]) -> tuple[int, int]:
    return max(i.width for i in images), max(i.height for i in images)


def _palette(images: list[Image.Image]) -> Image.Image:
    """One palette for every frame, from a sample of them stacked into one image."""
    step = max(1, len(images) // SAMPLE)
    sample = [*images[::step][:SAMPLE], images[-1]]
    width = max(i.width for i in sample)
    sheet = Image.new("RGB", (width, sum(i.height for i in sample)), "white")
    y = 0
    for image in sample:
        sheet.paste(image, (0, y))
        y += image.height
    return sheet.quantize(COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _frames(boards: list[tuple[Image.Image, int]], size: tuple[int, int], palette: Image.Image,
            scale: float) -> tuple[list[Image.Image], list[int]]:
    width, height = max(1, round(size[0] * scale)), max(1, round(size[1] * scale))
    images, durations = [], []
    for k, (image, steps) in enumerate(boards):
        if image.size != size:  # a board that grew (or shrank): on the largest one's canvas, in its own background
            canvas = Image.new("RGB", size, image.getpixel((0, image.height - 1)))
            canvas.paste(image, (0, 0))
            image = canvas
        if scale != 1.0:
            image = image.resize((width, height), Image.Resampling.LANCZOS)
        images.append(image.quantize(palette=palette, dither=Image.Dither.NONE))
        durations.append(LAST_MS if k == len(boards) - 1 else FRAME_MS * steps)
    return images, durations


def _encode(images: list[Image.Image], durations: list[int], fmt: str) -> bytes:
    buf = io.BytesIO()
    first, rest = images[0], images[1:]
    if fmt == "gif":
        # Pillow stores each frame as the box that changed since the one before: a move is a small patch.
        first.save(buf, "GIF", save_all=True, append_images=rest, duration=durations, loop=0)
    else:
        frames = [i.convert("RGB") for i in images]
        frames[0].save(buf, "WEBP", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                       lossless=True, method=4, minimize_size=False)
    return buf.getvalue()


def _thin(boards: list[tuple[Image.Image, int]]) -> list[tuple[Image.Image, int]]:
    """Every other board (their time given to the one kept before them); the last always stays."""
    if len(boards) <= 2:
        return boards
    out: list[tuple[Image.Image, int]] = []
    for k, (image, steps) in enumerate(boards):
        if k % 2 == 0 or k == len(boards) - 1:
            out.append((image, steps))
        else:
            out[-1] = (out[-1][0], out[-1][1] + steps)
    return out


def animate(frames: list[bytes] | list[Image.Image], limit: int, fmt: str = "gif") -> Animation:
    """The boards (PNG/WebP bytes or drawn images, one per step) as one animation of at most ``limit`` bytes."""
    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r} is not one of {FORMATS}")
    if not frames:
        raise ValueError("no frames")
    boards = distinct(frames)
    size = _canvas([b[0] for b in boards])
    palette = _palette([b[0] for b in boards])
    scale = 1.0
    while True:
        images, durations = _frames(boards, size, palette, scale)
        data = _encode(images, durations, fmt)
        if len(data) <= limit:
            return Animation(data, fmt, len(images), len(frames), images[0].width, images[0].height)
        if size[0] * scale > MIN_WIDTH:  # bytes go about with the area: the factor that should fit, and a margin
            scale = max(MIN_WIDTH / size[0], scale * min(0.95, math.sqrt(limit / len(data)) * 0.92))
        elif len(boards) > 2:
            boards = _thin(boards)
        else:
            raise AnimationTooLargeError(f"{len(data)} bytes at the smallest size, over {limit}")




def board_frames(game: str, views: list[dict[str, Any]], *, names: list[str] | None, locale: str) -> list[bytes]:
    """Each view's public board (the registry's renderer; the move that led to it marked where the game marks
    moves). Empty for a game without one public board image."""
    drawer = renderer(game)
    if drawer is None or not drawer.has_board:
        return []
    out = []
    for view in views:
        mark = view.get("last_action")
        image = drawer.board(view, names=names, locale=locale, moves=[mark] if isinstance(mark, dict) else None)
        if image is not None:
            out.append(image)
    return out


def board_images(game: str, views: list[dict[str, Any]], *, names: list[str] | None,
                 locale: str) -> list[Image.Image] | list[bytes]:
    """Each view's public board as drawn, before encoding (a game module's ``draw``: encoding every frame as the
    posted WebP, to decode it again here, cost ~30x the drawing); the encoded boards for a module without one."""
    drawer = renderer(game)
    draw = getattr(getattr(drawer, "images", None), "draw", None)
    if drawer is None or not callable(draw):
        return board_frames(game, views, names=names, locale=locale)
    out = []
    for view in views:
        mark = view.get("last_action")
        if isinstance(mark, dict) and drawer.marks_moves:
            out.append(draw(view, names=names, locale=locale, moves=[mark]))
        else:
            out.append(draw(view, names=names, locale=locale))
    return out


def animate_views(game: str, views: list[dict[str, Any]], *, names: list[str] | None, locale: str, limit: int,
                  fmt: str = "gif") -> Animation | None:
    """A whole game's public boards as one animation (module level: `render.pool` draws it in a worker)."""
    frames = board_images(game, views, names=names, locale=locale)
    return animate(frames, limit, fmt) if frames else None


def animate_log(game: str, players: int, options: dict[str, Any], seed: str, actions: list[tuple[int, str]], *,
                names: list[str] | None, locale: str, limit: int, fmt: str = "gif") -> Animation | None:
    """`animate_views` of a game rebuilt from its standing actions (undo rows already removed), for `render.pool`:
    a worker replays the log too, so a long game's hundreds of applies stay off the event loop. Only public views
    (seat None) are drawn; the seed only rebuilds the states."""
    from rules import GAMES  # lazy: heavy (every game's rules), and only a worker drawing an animation needs them

    rules = GAMES[game]
    state = rules.new(players, options, seed)
    views = [rules.view(state, None)]
    for seat, action in actions:
        state, _ = rules.apply(state, seat, action)
        views.append(rules.view(state, None))
    return animate_views(game, views, names=names, locale=locale, limit=limit, fmt=fmt)


__all__ = ["FORMATS", "Animation", "AnimationTooLargeError", "animate", "animate_log", "animate_views", "board_frames",
           "board_images", "distinct"]
