"""Caches that a running bot fills move after move stay within their bounds (issue 25: a soak that is flat)."""

from __future__ import annotations

from render.flying_blades import BG, TEXT, palette
from render.kit.fonts import text_sprite
from render.kit.paletted import NUMBER_TILES, Paletted
from rules.floating_world import bot as fw_bot
from rules.floor_plan import sheet
from rules.the_floor import answers, content


def test_text_that_changes_every_move_never_holds_more_than_its_bound_of_tiles() -> None:
    """Clocks and counts are new text at almost every move: their tiles go to a small LRU of their own, which
    never grows past its bound and never pushes out the labels and names that repeat."""
    p = Paletted(palette())
    p.text_tile("Turn", 14, "Bold", TEXT, BG)
    for n in range(NUMBER_TILES + 200):
        p.text_tile(f"{n // 60}:{n % 60:02d}", 14, "Bold", TEXT, BG)
    info = p.tile_info()
    assert info["numbers"][2:] == (NUMBER_TILES, NUMBER_TILES)
    assert info["labels"][2] == 1
    p.text_tile("Turn", 14, "Bold", TEXT, BG)
    assert p.tile_info()["labels"][0] == 1  # still cached: the counts did not evict it


def test_a_cached_text_tile_has_the_indices_of_the_remapped_sprite() -> None:
    """The tile is kept as its palette indices only (no copy of the remap's palette state): the same pixels."""
    p = Paletted(palette())
    for text in ("Turn 12", "Żółw", ""):
        tile, dx, dy = p.text_tile(text, 16, "Bold", TEXT, BG)
        sprite, sx, sy = text_sprite(text, 16, "Bold", TEXT, BG)
        if sprite is None:
            assert tile is None
            continue
        assert tile is not None and tile.mode == "P" and (dx, dy) == (sx, sy)
        assert tile.tobytes() == p.tile(sprite).tobytes()


def test_floor_plan_rectangle_caches_stay_within_their_bound_over_every_room_on_the_sheet() -> None:
    """Every room the dice allow (1-6 × 1-6) at every place on the sheet: 5,481 rectangles, more than the bound."""
    rects = [(x, y, w, h) for w in range(1, 7) for h in range(1, 7)
             for x in range(sheet.WIDTH - w + 1) for y in range(sheet.HEIGHT - h + 1)]
    assert len(rects) > sheet.RECTS
    for x, y, w, h in rects:
        assert len(sheet.rect_cells(x, y, w, h)) == w * h
        sheet.rect_border(x, y, w, h)
        sheet.rect_mask(x, y, w, h)
    for cached in (sheet.rect_cells, sheet.rect_border, sheet.rect_mask):
        assert cached.cache_info().currsize <= sheet.RECTS


def test_floating_world_odds_caches_stay_within_their_bounds() -> None:
    rolls = [(dice, plus) for dice in range(12) for plus in range(3)]
    for a in rolls:
        for b in rolls:  # 1,296 pairs: more than the bound
            assert 0 <= fw_bot.p_beats(a, b) <= 1 + 1e-9
    for dice in range(60):
        for plus in range(3):
            fw_bot.distribution(dice, plus)
    for cached in (fw_bot.p_beats, fw_bot.distribution):
        info = cached.cache_info()
        assert info.maxsize is not None and info.currsize <= info.maxsize


def test_the_floor_answer_indexes_stay_within_their_bound_and_keep_the_one_in_use() -> None:
    """Every shipped category's index built (more than the bound): the cache keeps its bound, the least recently
    used out, so a category asked between others (a running duel's) stays built, and an evicted one is rebuilt
    and judges as its first build did."""
    answers._INDEX_CACHE.clear()
    cats = content.categories("en")
    assert len(cats) > answers._INDEX_CACHE_SIZE + 2
    playing = answers.index(cats[0], "en")
    once = answers.index(cats[1], "en")
    for cat in cats[2:]:
        answers.index(cat, "en")
        assert answers.index(cats[0], "en") is playing  # asked at every move of its duel: never evicted
        assert len(answers._INDEX_CACHE) <= answers._INDEX_CACHE_SIZE
    rebuilt = answers.index(cats[1], "en")  # asked once, long ago: evicted
    assert rebuilt is not once
    for answer in cats[1]["answers"][:20]:
        assert rebuilt.match(answers.fold(answer)) == once.match(answers.fold(answer)) == answers.fold(answer)
