"""Floating Floors' map as a scene (`render.kit.scene`, issue 25): a background and drawing steps, each with the box
it may change. A "what if" preview draws one card's region of it; the map draws all of it. The region is right only
if every step keeps inside its box, and the cheaper pastes (a board's opaque middle copied, a Jutsu cut to its
visible pixels, the overlay's polygon blended once) must give the pixels they replace."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PIL import Image

from render import floating_floors as ff
from render import kit
from render.floating_floors import board, sprites
from render.floating_floors.palette import BAD, OK, SCALE_MAX, SCALE_MIN, palette
from render.floating_floors.preview import PREVIEW_UNIT
from render.kit.scene import draw_region, draw_scene
from rules.floating_floors.game import FloatingFloors
from tests.views_floating_floors import make_view

RULES = FloatingFloors()


def played_views(players: int, seed: str, every: int = 9) -> list[dict]:
    """Views along a bots' game (every ``every``-th move and the last): boards, collapses, resets, claims."""
    state = RULES.new(players, {}, seed)
    views = []
    for move in range(3000):
        if state.phase == "over":
            break
        if move % every == 0:
            views.append(RULES.view(state, None))
        state, _ = RULES.apply(state, state.current, RULES.bot_action(state, state.current))
    return [*views, RULES.view(state, None)]


def hand_views() -> list[dict]:
    """Made views with what a game may not show in a few moves: an unstable board, a reset pending, a winner."""
    return [make_view(4, boards=4, physics_ok=False, phase="reset", reset={"card": 4, "by": 2}),
            make_view(2, boards=3, physics_ok=False, winner=1),
            make_view(3, boards=5)]


def noise(size: tuple[int, int], seed: int) -> Image.Image:
    return Image.frombytes("RGB", size, random.Random(seed).randbytes(size[0] * size[1] * 3))


@pytest.mark.parametrize("physics", [True, False])
def test_every_step_draws_only_inside_its_box(physics: bool) -> None:
    """Each step is drawn alone on noise and the pixels around its box (out to `REACH`) must stay the noise; then all
    of them, and nothing further out may change."""
    views = [*hand_views(), *played_views(2, "scene-2", every=30), *played_views(4, "scene-4", every=60)]
    for view in views:
        background, steps = board._scene(view, "en", ["Ann", "Bo <b>", "Cy", "Di"], physics)
        assert steps
        for seed in (1, 2):  # two backgrounds: a step that happens to draw a pixel's own colour is caught by the other
            back = noise(background.size, seed)
            canvas = back.copy()
            for step in steps:
                around = grow(step.box, REACH, background.size)
                canvas.paste(back.crop(around), around[:2])
                step.draw(canvas)
                changed = np.argwhere((np.asarray(canvas.crop(around)) != np.asarray(back.crop(around))).any(axis=2))
                if len(changed):
                    origin = np.array([around[1], around[0]])
                    (top, left), (bottom, right) = changed.min(axis=0) + origin, changed.max(axis=0) + origin
                    x0, y0, x1, y1 = step.box
                    assert x0 <= left and right < x1 and y0 <= top and bottom < y1, (step, (left, top, right, bottom))
            canvas = back.copy()
            for step in steps:
                step.draw(canvas)
            outside = np.ones(background.size[::-1], dtype=bool)
            for step in steps:
                x0, y0, x1, y1 = grow(step.box, REACH, background.size)
                outside[y0:y1, x0:x1] = False
            assert not (np.asarray(canvas) != np.asarray(back)).any(axis=2)[outside].any()


REACH = 40  # how far past its box a step's stray pixels are looked for one step at a time


def grow(box: tuple[int, int, int, int], by: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    return max(0, box[0] - by), max(0, box[1] - by), min(size[0], box[2] + by), min(size[1], box[3] + by)


def test_a_region_of_the_scene_is_the_whole_scene_cropped_there() -> None:
    rng = random.Random(7)
    for view in [*hand_views(), *played_views(3, "scene-3", every=15)]:
        background, steps = board._scene(view, "en", None, True)
        whole = draw_scene(background, steps)
        w, h = whole.size
        lay = ff.layout(view)
        boxes = [lay["cards"][i] for i in (0, len(lay["cards"]) - 1)] + [lay["header"], lay["panel"]]
        boxes += [(x, y, x + rng.randint(1, 300), y + rng.randint(1, 300))
                  for x, y in ((rng.randrange(w - 1), rng.randrange(h - 1)) for _ in range(6))]
        for box in boxes:
            box = (box[0], box[1], min(box[2], w), min(box[3], h))
            assert draw_region(background, steps, box).tobytes() == whole.crop(box).tobytes(), box


def test_the_preview_shows_its_card_as_the_whole_map_at_its_scale_shows_it() -> None:
    view = make_view(4, boards=4, physics_ok=False)
    target = next(b for b in view["boards"] if b.get("stable") is False)
    preview = ff.draw_preview(view, target["index"]).convert("RGB")
    background, steps = board._scene(view, "en", None, True, PREVIEW_UNIT)
    lay = board._layout(view, ff.read(view), PREVIEW_UNIT)
    x0, y0, x1, y1 = lay.card_box(target["card"])
    crop = draw_scene(background, steps).crop((x0 - lay.frame, y0 - lay.frame, x1 + lay.frame, y1 + lay.frame))
    above_caption = preview.crop((0, 0, crop.width, crop.height))
    assert above_caption.tobytes() == kit.to_palette(crop, palette()).convert("RGB").tobytes()


@pytest.mark.parametrize("unstable", [False, True])
def test_a_board_pasted_in_pieces_is_the_board_pasted_through_its_alpha(unstable: bool) -> None:
    for unit in range(SCALE_MIN, SCALE_MAX + 1, 4):
        for pattern in ("LSLSLSLSL", "?????????"):
            tile, _ = sprites.board_sprite(pattern, unit, unstable)
            pieces = board._board_pieces(pattern, unit, unstable)
            assert len(pieces) == 5 and not pieces[0][3], "the middle is copied, not blended"
            size = (tile.width + 6, tile.height + 6)
            whole, parts = noise(size, unit), noise(size, unit)
            whole.paste(tile, (3, 3), tile)
            board._paste_board((pattern, unit, unstable), 3, 3, parts)
            assert parts.tobytes() == whole.tobytes(), (unit, pattern)


@pytest.mark.parametrize("ghost", [False, True])
@pytest.mark.parametrize("shape", ["square", "triangle", "hexagon"])
def test_a_jutsu_cut_to_its_visible_pixels_pastes_as_its_whole_tile(shape: str, ghost: bool) -> None:
    for unit in (SCALE_MIN, 44, SCALE_MAX):
        tile = sprites.jutsu_sprite("black", shape, unit, ghost)
        cut, dx, dy = board._trimmed_jutsu("black", shape, unit, ghost)
        assert cut.width * cut.height < tile.width * tile.height
        whole, part = noise(tile.size, unit), noise(tile.size, unit)
        whole.paste(tile, (0, 0), tile)
        part.paste(cut, (dx, dy), cut)
        assert part.tobytes() == whole.tobytes()


@pytest.mark.parametrize("stable", [True, False])
def test_the_support_polygon_blended_once_is_its_fill_then_its_outline_to_a_level(stable: bool) -> None:
    unit = 60
    pts = ((100.0, 90.0), (180.5, 95.25), (170.0, 170.0), (95.5, 160.0))
    box = board._polygon_box(pts, unit)
    tile = board._polygon_tile.__wrapped__(pts, stable, unit)
    colour = OK if stable else BAD
    assert tile.size == (box[2] - box[0], box[3] - box[1])
    assert tile.convert("RGB").getcolors() == [(tile.width * tile.height, colour)]
    alpha = np.asarray(tile.getchannel("A"))
    assert alpha.max() == 255 and 0 < np.median(alpha[alpha > 0]) < 255  # a solid outline, a see-through fill
    fill, line = board._polygon_masks(pts, stable, unit)
    back = noise(tile.size, 3)
    once, twice = back.copy(), back.copy()
    once.paste(tile, (0, 0), tile)
    solid = Image.new("RGB", tile.size, colour)
    twice.paste(solid, (0, 0), fill)  # as the map blended it before: the fill, then the outline over it
    twice.paste(solid, (0, 0), line)
    diff = np.abs(np.asarray(once).astype(int) - np.asarray(twice).astype(int))
    assert diff.max() <= 1
    assert (diff > 0).mean() < 0.05
