"""The benchmark's bytes anchor: the best lossless encoding of the same pixels (issue 25)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render.kit import encode_png
from tests.bench.harness import best_bytes, best_png, best_ratio, best_webp


def _board() -> Image.Image:
    img = Image.new("P", (160, 120), 0)
    img.putpalette([v for i in range(256) for v in (i, 255 - i, (i * 7) % 256)])
    d = ImageDraw.Draw(img)
    for i in range(0, 160, 16):
        d.line((i, 0, 159 - i, 119), fill=i)
    d.text((10, 50), "Floorboard", fill=200)
    return img


def test_best_encodings_are_lossless_and_no_larger_than_what_we_send() -> None:
    img = _board()
    for data in (best_png(img), best_webp(img)):
        back = Image.open(io.BytesIO(data)).convert("RGB")
        assert back.tobytes() == img.convert("RGB").tobytes()
    assert best_bytes(img) <= len(encode_png(img))


def test_best_ratio_is_sent_bytes_over_the_anchor_on_a_sample() -> None:
    img = _board()
    sent = len(encode_png(img))
    assert best_ratio([(img, sent)] * 4, n=2) == sent / best_bytes(img)
    assert best_ratio([], n=3) is None and best_ratio([(img, sent)], n=0) is None
