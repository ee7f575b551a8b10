"""What is posted for an image (render/kit/png.py, issue 25): WebP lossless where the format can hold the image,
PNG otherwise; the bytes decode to exactly the drawn pixels, the same image gives the same bytes, and every file
name (and an embed's ``attachment://`` URL) carries the extension of the bytes it names."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import rules
from render import floating_floors as ff_render
from render import floating_world as fw_render
from render import floor_plan as fp_render
from render import flying_blades, kit, the_floor
from render.floating_world import cards as fw_cards
from render.floating_world.words import card_names
from rules.floating_world.content import DREAM_IDS

SEED = "encoding-25"


def played(game: str, players: int, moves: int) -> tuple[Any, Any]:
    """The rules and a state of an all-bot game after ``moves`` bot moves (a real mid-game position)."""
    g = rules.GAMES[game]
    s = g.new(players, g.normalize_options(players, {}), SEED)
    for _ in range(moves):
        if g.outcome(s) is not None:
            break
        seat = min(g.to_move(s))
        s, _ = g.apply(s, seat, g.bot_action(s, seat))
    return g, s


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("RGB").tobytes() == b.convert("RGB").tobytes()


def every_games_image() -> list[tuple[str, Callable[[], Image.Image], Callable[[], bytes]]]:
    """(label, the drawing, what the game posts for it) for every game's move images."""
    out: list[tuple[str, Callable[[], Image.Image], Callable[[], bytes]]] = []
    _, fb = played("flying_blades", 3, 6)
    fbv = rules.GAMES["flying_blades"].view(fb, None)
    out.append(("flying_blades", lambda: flying_blades.draw(fbv), lambda: flying_blades.render(fbv)))
    _, tf = played("the_floor", 3, 6)
    tfv = rules.GAMES["the_floor"].view(tf, None)
    out.append(("the_floor", lambda: the_floor.draw(tfv), lambda: the_floor.render(tfv)))
    g, fp = played("floor_plan", 2, 6)
    sheet = g.sheet_view(fp, 0)
    fpv = g.view(fp, None)
    out.append(("floor_plan sheet", lambda: fp_render.draw_sheet(sheet), lambda: fp_render.render_sheet(sheet)))
    out.append(("floor_plan summary", lambda: fp_render.draw_summary(fpv, [sheet]),
                lambda: fp_render.render_summary(fpv, [sheet])))
    _, fw = played("floating_world", 2, 6)
    fwv, words = rules.GAMES["floating_world"].view(fw, None), card_names("en")
    out.append(("floating_world map", lambda: fw_render.draw_map(fwv, card_names=words),
                lambda: fw_render.map_image(fwv, card_names=words)))
    dream = list(DREAM_IDS[:3])
    out.append(("floating_world cards", lambda: fw_cards.draw_dream_cards(dream),
                lambda: fw_cards.dream_cards_image(dream)))
    _, ffs = played("floating_floors", 3, 6)
    ffv = rules.GAMES["floating_floors"].view(ffs, None)
    out.append(("floating_floors", lambda: ff_render.draw_board(ffv), lambda: ff_render.board_image(ffv)))
    return out


IMAGES = every_games_image()


@pytest.mark.parametrize(("label", "draw", "post"), IMAGES, ids=[label for label, _, _ in IMAGES])
def test_every_games_posted_image_is_webp_lossless_of_exactly_the_drawn_pixels(
    label: str, draw: Callable[[], Image.Image], post: Callable[[], bytes]
) -> None:
    """A player sees the pixels the game drew, nothing lost to the smaller format."""
    data = post()
    assert kit.image_ext(data) == "webp", label
    assert same_pixels(decoded(data), draw()), label


@pytest.mark.parametrize(("label", "draw", "post"), IMAGES[:3], ids=[label for label, _, _ in IMAGES[:3]])
def test_the_same_image_gives_the_same_bytes(label: str, draw: Callable[[], Image.Image],
                                             post: Callable[[], bytes]) -> None:
    """Boards are named and compared by their bytes (the 'already posted?' check, the render tests)."""
    assert post() == post() == kit.encode_image(draw())


def test_an_image_too_large_for_webp_is_sent_as_a_lossless_png() -> None:
    """WebP holds at most 16383 pixels a side: a longer image (a huge leaderboard) goes out as a PNG."""
    img = Image.new("P", (8, kit.png.WEBP_MAX_SIDE + 1), 3)
    img.putpalette([v for i in range(256) for v in (i, 255 - i, i // 2)])
    data = kit.encode_image(img)
    assert kit.image_ext(data) == "png" and same_pixels(decoded(data), img)


def test_the_extension_is_read_from_the_bytes() -> None:
    img = Image.new("RGB", (20, 10), (10, 200, 30))
    assert kit.image_ext(kit.encode_png(img)) == "png"
    assert kit.image_ext(kit.encode_webp(img)) == "webp"
    assert kit.image_name("x-1-2", kit.encode_webp(img)) == "x-1-2.webp"
    with pytest.raises(ValueError):
        kit.image_ext(b"GIF89a......")


def test_a_webp_names_its_file_webp_and_a_png_png_in_every_post() -> None:
    """The file name's extension is the format of the bytes (Discord shows an image by its name and bytes)."""
    from cogs.floating_world import png_file as fw_file  # lazy: heavy (discord), only for this test
    from cogs.floor_plan.posts import png_file as fp_file  # lazy: heavy (discord), only for this test
    from cogs.utils.posting import board_file  # lazy: heavy (discord), only for this test

    class T:
        game, id, moves = "flying_blades", 7, 12

    webp, png = kit.encode_webp(Image.new("RGB", (4, 4))), kit.encode_png(Image.new("RGB", (4, 4)))
    assert board_file(T(), webp).filename == "flying_blades-7-12.webp"  # type: ignore[arg-type]
    assert board_file(T(), png, "-x").filename == "flying_blades-7-12-x.png"  # type: ignore[arg-type]
    assert fw_file(T(), webp, "-dreams").filename == "flying_blades-7-12-dreams.webp"  # type: ignore[arg-type]
    assert fp_file(T(), webp, "round01").filename == "floor_plan-7-round01.webp"  # type: ignore[arg-type]


def test_image_format_png_sends_every_image_as_a_lossless_png_and_an_unknown_format_is_refused() -> None:
    """IMAGE_FORMAT=png trades bytes for CPU: the same pixels as a PNG, named .png; "gif" is refused."""
    img = Image.new("P", (40, 30), 3)
    img.putpalette([v for i in range(256) for v in (i, 255 - i, i // 2)])
    try:
        kit.use_format("png")
        data = kit.encode_image(img)
        assert kit.image_ext(data) == "png" and kit.image_name("board", data) == "board.png"
        assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == img.convert("RGB").tobytes()
        with pytest.raises(ValueError):
            kit.use_format("gif")
        assert kit.image_format() == "png"
    finally:
        kit.use_format("webp")
    assert kit.image_ext(kit.encode_image(img)) == "webp"
