"""The flying_blades image is drawn in its palette from start to end (render.kit.paletted): a move costs pastes of
cached tiles, never a remap of the whole board, and the caches are safe for two renders at once."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from render import flying_blades as fb
from render.kit.paletted import Paletted
from tests.views_flying_blades import make_view, sample_last_moves

NAMES = ["Ann", "Bartłomiej", "Cy", "Dagny", "Eun-ji"]


@pytest.fixture
def remapped(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The pixel count of every image remapped onto a palette while the test runs."""
    areas: list[int] = []
    quantize = Image.Image.quantize

    def counting(self: Image.Image, *args: object, **kwargs: object) -> Image.Image:
        areas.append(self.width * self.height)
        return quantize(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Image.Image, "quantize", counting)
    yield areas


def views(players: int, count: int) -> list[dict]:
    lasts = sample_last_moves(players)
    return [make_view(players, seed=i, empty=20 + i, turn=30 + i, viewer=0, hand=["bomb"], last=lasts[i % len(lasts)])
            for i in range(count)]


@pytest.mark.parametrize("players", [3, 5])
def test_a_moves_image_never_remaps_the_whole_board(players: int, remapped: list[int]) -> None:
    """The next move's image after the first of a game: only small tiles (new text, a badge's patch) are remapped;
    the 1.5-2.5 megapixel board is a copy of the cached 'P' background with cached 'P' tiles pasted on it."""
    first, *rest = views(players, 4)
    fb.draw(first, names=NAMES[:players])
    remapped.clear()
    for view in rest:
        img = fb.draw(view, names=NAMES[:players], moves=[view["last_action"]] * 2)
        assert img.mode == "P"
        assert max(remapped, default=0) < img.width * img.height // 50


def test_two_renders_at_once_give_the_bytes_of_one() -> None:
    """Renders run in worker threads (asyncio.to_thread): shared caches must not mix two images."""
    batch = views(3, 6) + views(5, 6)

    def one(view: dict) -> bytes:
        return fb.render(view, names=NAMES[: view["players"]], locale="pl")

    alone = [one(view) for view in batch]
    fb._board_block.cache_clear()
    fb.paletted.cache_clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(one, batch)) == alone


def test_palette_ink_is_the_index_a_remap_gives_and_refuses_other_colours() -> None:
    paletted = Paletted(fb.palette())
    for colour in (fb.INK, fb.TINT, fb.BG, fb.GOLD, *fb.WOOD):
        remapped = paletted.tile(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
        assert paletted.ink(colour) == remapped
    with pytest.raises(KeyError):
        paletted.ink((1, 2, 3))
