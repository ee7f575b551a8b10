"""The kit's image encoding: what every posted image is sent as (WebP lossless, PNG where WebP cannot hold it),
deterministic bytes, and the file extension that goes with the bytes.

Measured on the images of one all-bot game of each game (tools/image_formats.py, docs/decisions.md): WebP
lossless at method 1, quality 100 is 1.02-1.06x the best lossless encoding of the same pixels (oxipng's best PNG
or WebP at maximum effort, seconds per image), where PNG at the fastest useful zlib level is 2-3x and even
PNG at level 9 with the best filters 1.4-2x. It costs ~10x the PNG's CPU (tens of ms per board, in the worker
thread: Pillow releases the GIL while libwebp encodes): a player downloads every move's image, so bytes win.
Lower WebP efforts are barely faster (a fixed cost of libwebp's analysis) and much larger: quality 50 is 1.1-1.6x.
WebP wins on small images too (no 768-byte PNG palette), so the only PNG left is an image WebP cannot hold.
"""

from __future__ import annotations

import io

from PIL import Image

# ----------------------------------------------------------------------------------------- encoding

# zlib level 3 on our 'P' boards: about half the time of the default (6) for ~15-30% more bytes; level 1 is
# barely faster and larger again; 9 and optimize=True are 10x slower (see tests/bench).
PNG_COMPRESS_LEVEL = 3

# libwebp's lossless presets (WebPConfigLosslessPreset -z 0..9) run from method 0 / quality 0 to 6 / 100;
# method 1 with quality 100 (not a preset) is the cheapest setting within 1.15x of the best bytes on every
# game's images. ``exact`` keeps the colour under transparent pixels: the decoded pixels are the drawn ones.
WEBP_LOSSLESS = {"lossless": True, "method": 1, "quality": 100, "exact": True}
WEBP_MAX_SIDE = 16383  # the WebP format's limit on width and height

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# What `encode_image` sends: "webp" (the default: the fewest bytes) or "png" (~10x less CPU per image for ~2-3x the
# bytes). The bot sets it once at start from IMAGE_FORMAT (config.py); the test suite picks "png" for speed and
# tests/test_render_encoding.py checks both.
IMAGE_FORMATS = ("webp", "png")
_chosen = {"format": "webp"}


def use_format(name: str) -> None:
    """Send images as ``name`` from now on ("webp" or "png")."""
    if name not in IMAGE_FORMATS:
        raise ValueError(f"image format {name!r}: use one of {', '.join(IMAGE_FORMATS)}")
    _chosen["format"] = name


def image_format() -> str:
    """The format `encode_image` sends now (see `use_format`)."""
    return _chosen["format"]


def encode_png(img: Image.Image, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """PNG bytes of an image (meant for 'P' images: 3-5x faster and smaller than RGB). For callers that need
    a PNG file whatever is posted (the web, exports); posts use `encode_image`."""
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()


def encode_webp(img: Image.Image) -> bytes:
    """WebP lossless bytes of an image (a 'P' image is expanded to RGB first: WebP has no palette mode of its
    own, it finds the palette again itself)."""
    out = io.BytesIO()
    img.save(out, format="WEBP", **WEBP_LOSSLESS)
    return out.getvalue()


def encode_image(img: Image.Image) -> bytes:
    """The bytes to post for an image: WebP lossless, or PNG for an image too large for WebP (or when the bot is
    set to send PNG: `use_format`). Lossless (decodes to the same pixels) and deterministic (the same image gives
    the same bytes). Name the file with `image_ext` / `image_name`: the format depends on the image."""
    if _chosen["format"] == "png" or max(img.size) > WEBP_MAX_SIDE:
        return encode_png(img)
    return encode_webp(img)


def image_ext(data: bytes) -> str:
    """The file extension of encoded image bytes, from their magic bytes: "png" or "webp"."""
    if data.startswith(PNG_MAGIC):
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    raise ValueError("not a PNG or WebP image")


def image_name(stem: str, data: bytes) -> str:
    """A file name for encoded image bytes: ``stem`` with the extension of their format."""
    return f"{stem}.{image_ext(data)}"
