"""Shared by the renderer tests: PNG bytes opened as an image, after checking they are a PNG."""

from __future__ import annotations

import io

from PIL import Image


def png_image(data: bytes) -> Image.Image:
    assert isinstance(data, bytes)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img
