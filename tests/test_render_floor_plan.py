"""The floor_plan blueprint, thumbnail, round summary and text board, drawn from hand-built views of the agreed
shape (docs/floor_plan.md); `tests.views_floor_plan` builds them without the rules module."""

from __future__ import annotations

import time
from typing import Any

import pytest
from PIL import Image, ImageChops

from render import floor_plan as fp
from tests import views_floor_plan as v
from tests.pngs import png_image

NAMES4 = ["Alice", "Bartłomiej", "Chidi", "Dagny"]


def colours(img: Image.Image) -> int:
    return len(img.convert("RGB").getcolors(1 << 20) or [])


# ------------------------------------------------------------------------------------------- sheets


@pytest.mark.parametrize("make", [v.empty_sheet, v.early_sheet, v.late_sheet, v.preview_sheet])
def test_sheet_is_a_phone_sized_palette_png(make: Any) -> None:
    img = png_image(fp.render_sheet(make(), name="Alice"))
    assert img.mode == "P"
    assert img.size == fp.sheet_size()
    assert 850 <= img.width <= 1100 and 900 <= img.height <= 1200
    assert 40 <= fp.metrics().cell <= 56
    assert colours(img) > 20  # not blank


def test_solo_sheet_has_a_row_of_bubbles() -> None:
    sheet = {**v.late_sheet(), "bubbles_used": 7}
    img = fp.draw_sheet(sheet)
    assert img.size == fp.sheet_size(solo=True)
    assert img.height > fp.sheet_size()[1]


def test_rendering_is_deterministic() -> None:
    assert fp.render_sheet(v.late_sheet(), name="Bob") == fp.render_sheet(v.late_sheet(), name="Bob")
    view = v.make_view(4)
    sheets = v.summary_sheets(4)
    assert fp.render_summary(view, sheets, names=NAMES4) == fp.render_summary(view, sheets, names=NAMES4)


def test_scale_changes_the_size() -> None:
    small = fp.draw_sheet(v.late_sheet(), scale=0.6)
    big = fp.draw_sheet(v.late_sheet())
    assert small.width < big.width * 0.7 and small.height < big.height * 0.7


def test_features_change_their_cells() -> None:
    """Every kind of thing drawn shows in its own cells and nowhere else on the map."""
    base = v.early_sheet()
    empty = fp.draw_sheet(base).convert("RGB")
    for kind, cells in (
        ("stones", [[0, 12]]),
        ("decks", [[14, 5]]),
        ("doors", [[13, 5]]),
        ("windows", [[13, 7]]),
        ("furnishings", [[6, 6]]),
    ):
        sheet = {**base, kind: cells}
        img = fp.draw_sheet(sheet).convert("RGB")
        box = fp.cell_box(tuple(cells[0]))
        assert ImageChops.difference(img, empty).getbbox() is not None, kind
        # outside the cell (its grid lines included) nothing moved
        diff = ImageChops.difference(img, empty)
        left, top, right, bottom = box
        assert diff.crop((left - 1, top - 1, right + 1, bottom + 1)).getbbox() is not None, kind
        masked = diff.copy()
        masked.paste((0, 0, 0), (left - 1, top - 1, right + 1, bottom + 1))
        assert masked.getbbox() is None, kind


def test_preview_overlay_changes_exactly_the_highlighted_cells() -> None:
    sheet = v.preview_sheet()
    cells = sheet["pending"]["cells"]
    plain = {**sheet, "pending": None}
    without = fp.draw_sheet(plain).convert("RGB")
    with_overlay = fp.draw_sheet(plain, highlight=cells).convert("RGB")
    diff = ImageChops.difference(with_overlay, without)
    outside = diff.copy()
    for cell in cells:
        box = fp.cell_box(tuple(cell))
        assert diff.crop(box).getbbox() is not None, cell  # every highlighted cell changes
        outside.paste((0, 0, 0), box)
    assert outside.getbbox() is None  # and nothing else does


def test_pending_cells_are_the_default_highlight() -> None:
    sheet = v.preview_sheet()
    auto = fp.draw_sheet(sheet).convert("RGB")
    explicit = fp.draw_sheet(sheet, highlight=sheet["pending"]["cells"]).convert("RGB")
    none = fp.draw_sheet(sheet, highlight=[]).convert("RGB")
    below_header = (0, fp.metrics().header, auto.width, auto.height)
    assert ImageChops.difference(auto, explicit).crop(below_header).getbbox() is None  # the same overlay
    # the header says "This round" for a sheet asked for later, "Preview" for the placement being confirmed
    assert ImageChops.difference(auto, explicit).getbbox() is not None
    box = fp.cell_box((1, 3))
    assert ImageChops.difference(auto, none).crop(box).getbbox() is not None


def test_polish_text_renders() -> None:
    en = fp.draw_sheet(v.late_sheet(), name="Zażółć gęślą jaźń", locale="en").convert("RGB")
    pl = fp.draw_sheet(v.late_sheet(), name="Zażółć gęślą jaźń", locale="pl").convert("RGB")
    assert ImageChops.difference(en, pl).getbbox() is not None
    assert fp.room_name("W", "pl") == "Łazienka"
    assert fp.bonus_name("double_room", "pl") == "Podwójny pokój"
    data = fp.render_summary(v.make_view(4), v.summary_sheets(4), names=NAMES4, locale="pl")
    assert png_image(data).mode == "P"


def test_odd_names_never_crash() -> None:
    for name in ("🏠🏠", "", "x" * 200, "李雷", None):
        png_image(fp.render_sheet(v.early_sheet(), name=name))
    assert png_image(fp.render_summary(v.make_view(3), v.summary_sheets(3), names=["🏠", "", "李"]))


# ---------------------------------------------------------------------------------------- summaries


def test_thumbnail_is_small() -> None:
    img = fp.draw_thumbnail(v.late_sheet(), name="Alice", score=12, locale="en")
    assert 250 <= img.width <= 320 and img.height < 300
    assert colours(img) > 10


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_summary_with_thumbnails(players: int) -> None:
    view = v.make_view(players)
    img = png_image(fp.render_summary(view, v.summary_sheets(players), names=NAMES4 * 2))
    assert img.mode == "P"
    assert 800 <= img.width <= 1100 and img.height < 1400


def test_summary_for_100_players_is_a_leaderboard_within_limits() -> None:
    view = v.make_view(100, viewer=None, ending="sixth")
    names = [f"Player {i} Żółw" for i in range(100)]
    start = time.perf_counter()
    data = fp.render_summary(view, v.summary_sheets(100), names=names)  # too many sheets: a leaderboard
    elapsed = time.perf_counter() - start
    img = png_image(data)
    assert len(data) < 2_000_000
    assert img.width <= 1100 and img.height <= 1600
    assert elapsed < 2  # generous: the benchmark measures it properly (~5 ms)
    assert data == fp.render_summary(view, None, names=names)


def test_summary_ranks_ties_together() -> None:
    view = v.make_view(4)
    view["scores"] = [5, 9, 9, 1]
    assert fp._ranking(view) == [(1, 1), (1, 2), (3, 0), (4, 3)]


def test_game_over_summary_names_the_winner() -> None:
    view = v.make_view(3, phase="over", outcome={"winners": [1], "ranking": [[1], [0], [2]]})
    assert fp._status_line(view, ["A", "Bea", "C"], "en") == "Bea wins!"
    png_image(fp.render_summary(view, v.summary_sheets(3), names=["A", "Bea", "C"]))


# --------------------------------------------------------------------------------------- text board


def test_text_board_shows_coordinates_and_cell_characters() -> None:
    sheet = v.late_sheet()
    text = fp.text_board(v.make_view(4, sheet=sheet), names=NAMES4)
    lines = text.splitlines()
    header = "    A B C D E F G H I J K L M N O P Q"
    assert lines.count(header) == 2
    rows = {
        int(line.split()[0]): line.split()[1:-1]
        for line in lines
        if line[:3].strip().isdigit() and len(line.split()) == 19
    }
    assert sorted(rows) == list(range(1, 14))

    def at(name: str) -> str:
        return rows[int(name[1:])][ord(name[0]) - ord("A")]

    assert at("I7") == "L"  # the living room's label
    assert at("G3") == "K" and at("K4") == "D" and at("F9") == "C"
    assert at("F6") == "#"  # a plain room cell
    assert at("I5") == "d" and at("G2") == "w" and at("G7") == "f"
    assert at("A1") == "T" and at("C3") == "T" and at("O2") == "T"
    assert at("P8") == "=" and at("B9") == "o" and at("B10") == "~" and at("C11") == "~"
    assert at("E5") == "." and at("Q12") == "."
    assert fp.demand_text("hosts.1", "en", short=False) in text and "Bartłomiej" in text
    assert "Kitchen" in fp.demand_text("hosts.1", "en")
    assert "Roll: 3 5" in text


def test_text_board_marks_the_pending_placement_and_speaks_polish() -> None:
    sheet = v.late_sheet()
    sheet["pending"] = {"action": "features 6:E12,F12", "cells": [[4, 11], [5, 11]]}
    text = fp.text_board(v.make_view(2, sheet=sheet), locale="pl")
    row12 = next(line for line in text.splitlines() if line.startswith(" 12 "))
    assert row12.split()[5:7] == ["*", "*"]
    assert "Rzut: 3 5" in text and "W tej rundzie: features 6:E12,F12" in text


def test_text_board_without_a_sheet() -> None:
    text = fp.text_board(v.make_view(30, viewer=None))
    assert "No blueprint" in text
    assert "…and 10 more players" in text


def test_benchmark_rows_are_well_formed() -> None:
    from tests.bench import bench_render_floor_plan

    rows = bench_render_floor_plan.rows(n=3)
    cases = {r.case.split(" 9")[0] for r in rows}
    assert len(rows) == 12 and len(cases) == 4
    assert all(r.median_ms > 0 and r.p95_ms >= r.median_ms for r in rows)


def test_a_door_through_a_shared_wall_opens_both_rooms() -> None:
    base = v.early_sheet()  # the kitchen L5 3x4 touches the living room along column K|L
    plain = fp.draw_sheet(base).convert("RGB")
    door = fp.draw_sheet({**base, "doors": [[11, 5]]}).convert("RGB")
    diff = ImageChops.difference(door, plain)
    assert diff.crop(fp.cell_box((11, 5))).getbbox() is not None
    assert diff.crop(fp.cell_box((10, 5))).getbbox() is not None  # the living room's wall opens too
    assert diff.crop(fp.cell_box((12, 5))).getbbox() is None


def test_solo_game_over_shows_the_rating() -> None:
    view = v.make_view(1, phase="over", solo=True, outcome={"winners": [0]})
    view["rating"] = "starchitect"
    assert "Starchitect" in fp._status_line(view, ["Ann"], "en")


def test_views_of_the_real_rules_render() -> None:
    """A few bot rounds of the rules module, when it is there: every image and the text board draw its views."""
    game_mod = pytest.importorskip("rules.floor_plan.game")
    game = game_mod.FloorPlan()
    players = 3
    s = game.new(players, game.normalize_options(players, {}), "render-test")
    for _ in range(6):
        for seat in sorted(game.to_move(s)):
            s, _events = game.apply(s, seat, game.bot_action(s, seat))
    view = game.view(s, 0)
    assert png_image(fp.render_sheet(view["sheet"], name="Ann")).mode == "P"
    sheets = [game.sheet_view(s, seat) for seat in range(players)]
    assert png_image(fp.render_summary(game.view(s, None), sheets, names=["A", "B", "C"])).mode == "P"
    assert "    A B C D E F G H I J K L M N O P Q" in fp.text_board(view)


@pytest.mark.parametrize(("action", "locale", "words"), [
    ("claim hosts.1; timeout", "en", "scores Hosts 1; time ran out (nothing drawn)"),
    ("room C3 4x3 K@D4", "pl", "Kuchnia 4×3 na C3"),
    ("room A3 5x6 D@B4 wild 1=6", "en", "Dining 5×6 at A3 (Wild: the 1 read as 6)"),
    ("nonsense", "en", "nonsense"),
])
def test_an_action_in_words_says_what_a_player_drew_and_a_missed_round(action: str, locale: str,
                                                                       words: str) -> None:
    from render.floor_plan import action_words

    assert action_words(action, locale) == words


def test_a_move_is_drawn_in_the_palette_without_remapping_the_whole_image(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: remapping the whole RGB sheet onto the palette cost more than drawing it. Once the cached tiles
    exist, a sheet or a summary of a new position remaps nothing bigger than a tile."""
    fp.draw_sheet(v.late_sheet(), name="Alice")
    fp.draw_summary(v.make_view(4), v.summary_sheets(4), names=NAMES4)
    remapped: list[tuple[int, int]] = []
    quantize = Image.Image.quantize

    def spy(self: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        remapped.append(self.size)
        return quantize(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", spy)
    img = fp.draw_sheet({**v.late_sheet(), "score": 31}, name="Alice")
    summary = fp.draw_summary(v.make_view(4, round_no=7), v.summary_sheets(4), names=NAMES4)
    assert img.mode == summary.mode == "P"
    assert all(w * h < 200 * 200 for w, h in remapped), remapped
