"""Shared by the renderer tests: posted image bytes (WebP lossless or PNG, `render.kit.encode_image`) opened as an
image, after checking they are one of the two."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image


def png_image(data: bytes) -> Image.Image:
    assert isinstance(data, bytes)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")
    img = Image.open(io.BytesIO(data))
    img.load()
    return img if img.format == "PNG" else as_palette(img)


def as_palette(img: Image.Image) -> Image.Image:
    """A decoded WebP (RGB) as the 'P' image it was drawn as: its colours (a renderer uses at most 256) in an exact
    palette, ordered by colour value. The indices are not the renderer's: compare colours, not indices."""
    rgb = np.asarray(img.convert("RGB"), dtype=np.uint32)
    keys = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    colours, index = np.unique(keys.ravel(), return_inverse=True)
    assert len(colours) <= 256, f"{len(colours)} colours: not a palette image"
    out = Image.frombytes("P", img.size, index.astype(np.uint8).tobytes())
    out.putpalette([int(c >> s) & 255 for c in colours for s in (16, 8, 0)])
    return out
