"""The the_floor board image and text board, drawn from real views of scripted games (and a few twists)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PIL import Image

from render import kit as common
from render import the_floor as tf
from tests.pngs import png_image
from tests.views_the_floor import (
    NAMES,
    G,
    all_views,
    names_for,
    playout,
    real_view,
    with_judging,
    with_long_category,
    with_resigned,
)

PHASES = ["draft", "play", "duel_ready", "duel", "take", "keep", "round_final_card", "final_pick", "final", "over"]


def cell_crop(img: Image.Image, view: dict[str, Any], cell: str, inset: int = 14) -> Image.Image:
    left, top, right, bottom = tf.cell_box(tf.layout(view), cell)
    return img.convert("RGB").crop((left + inset, top + inset, right - inset, bottom - inset))


def colour_counts(img: Image.Image) -> dict[tuple[int, int, int], int]:
    return {c: n for n, c in img.getcolors(1 << 16)}


# ------------------------------------------------------------------------------------------- the image


@pytest.mark.parametrize("players", [2, 3, 4, 5, 9])
@pytest.mark.parametrize("kind", PHASES)
def test_real_views_of_every_phase_render_as_a_palette_png_of_the_layouts_size(players: int, kind: str) -> None:
    view = real_view(players, kind)
    img = png_image(tf.render(view, names=names_for(view)))
    assert img.mode == "P"
    assert img.size == tf.layout(view, names=names_for(view)).size
    assert img.width == 1000  # readable on a phone: the cells are 176 px
    assert 1000 < img.height < 2000


def test_a_nine_player_team_game_has_five_sides_with_several_names_each() -> None:
    view = real_view(9, "play")
    assert view["sides"] == 5 and max(len(team) for team in view["teams"]) == 2
    text = tf.text_board(view, names=NAMES[:9])
    assert "Ann, Filip" in text  # seats 0 and 5 are one side
    png_image(tf.render(view, names=NAMES[:9]))


def test_a_polish_game_renders_in_polish() -> None:
    view = real_view(4, "duel", lang="pl")
    names = ["Zażółć", "Gęślą", "Jaźń", "Łukasz"]
    png = tf.render(view, names=names, locale="pl")
    assert png != tf.render(view, names=names, locale="en")
    text = tf.text_board(view, names=names, locale="pl")
    assert "Pojedynek" in text and "Zażółć" in text
    polish_names = [c["name"] for f in view["fields"] for c in f["categories"]]
    assert any(set(n) & set("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ") for n in polish_names)  # the game's own categories


@pytest.mark.parametrize("kind", ["draft", "duel", "take", "keep", "final_pick", "over"])
def test_spectator_and_seat_views_render_and_never_hold_hidden_data(kind: str) -> None:
    spectator = real_view(3, kind)
    png_image(tf.render(spectator, names=NAMES[:3]))
    assert spectator["hand"] is None and spectator["picked"] is None
    text = json.dumps(spectator)
    assert "deck" not in text.replace("deck_count", "")
    for seat in range(3):
        view = real_view(3, kind, seat)
        png_image(tf.render(view, names=NAMES[:3]))
        pending = view["pending"]
        if pending and pending["kind"] in ("take", "keep", "final") and pending["side"] != view["viewer_side"]:
            assert pending["options"] is None  # another side's choice stays hidden
    if kind == "draft":  # a seat sees its own hand: the image shows it, the spectator's does not
        mine = real_view(3, "draft", 0)
        hand = [c["name"] for c in mine["hand"]]
        assert hand and hand[0] in tf.text_board(mine, names=NAMES[:3])
        assert hand[0] not in tf.text_board(spectator, names=NAMES[:3])
        assert tf.render(mine, names=NAMES[:3]) != tf.render(spectator, names=NAMES[:3])


def test_a_long_category_name_and_emoji_names_do_not_crash() -> None:
    view = with_long_category(real_view(5, "duel"))
    names = ["🔥🔥🔥", "山田 Taro 🐉", "Ωmega Жук", "\u202eevil\u202c", "a" * 200]
    png_image(tf.render(view, names=names))
    text = tf.text_board(view, names=names)
    assert "Player 1" in text and "Taro" in text
    size, lines = tf.fit_label(("x" * 300,), 140, 140)
    assert all(common.text_width(line, size) <= 140 for line in lines)
    assert lines[-1].endswith(common.ELLIPSIS)


def test_a_long_real_category_fits_its_cell_without_being_cut() -> None:
    size, lines = tf.fit_label(("Kings and queens of England and Britain",), 144, 144)
    assert size >= 18 and not any(common.ELLIPSIS in line for line in lines)


def test_a_judged_answer_and_a_resigned_side_render_differently() -> None:
    view = real_view(5, "duel")
    plain = tf.render(view, names=NAMES[:5])
    assert tf.render(with_judging(view), names=NAMES[:5]) != plain
    resigned = with_resigned(view, 2)
    assert tf.render(resigned, names=NAMES[:5]) != plain
    assert "resigned" in tf.text_board(resigned, names=NAMES[:5])
    cell = next(c["cell"] for c in view["cells"] if c["side"] == 2)
    counts = colour_counts(cell_crop(tf.draw(resigned, names=NAMES[:5]), resigned, cell))
    assert tf.side_tones(2, True)[0] in counts and tf.side_tones(2)[0] not in counts  # greyed out


def test_rendering_is_deterministic_and_leaves_the_view_alone() -> None:
    view = real_view(4, "duel")
    before = json.dumps(view)
    first = tf.render(view, names=NAMES[:4])
    assert tf.render(view, names=NAMES[:4]) == first
    assert json.dumps(view) == before


# ------------------------------------------------------------------------------------------- pixels


@pytest.mark.parametrize(("players", "kind"), [(2, "play"), (3, "take"), (4, "final"), (5, "duel"), (9, "over")])
def test_each_cell_is_filled_with_its_own_sides_colour(players: int, kind: str) -> None:
    """Sampled inside every cell (clear of the border): the owner's fill is there, no other side's is."""
    view = real_view(players, kind)
    img = tf.draw(view, names=names_for(view))
    fills = {side: tf.side_tones(side)[0] for side in range(view["sides"])}
    for c in view["cells"]:
        if c["side"] is None:
            continue
        counts = colour_counts(cell_crop(img, view, c["cell"]))
        mine = counts.get(fills[c["side"]], 0)
        assert mine > 0.05 * sum(counts.values()), c  # the label plate covers the middle of small fields
        for side, fill in fills.items():
            if side != c["side"]:
                assert counts.get(fill, 0) == 0, (c, side)


def test_a_cell_corner_pixel_is_exactly_the_side_colour_or_its_pattern() -> None:
    view = real_view(3, "play")
    img = tf.draw(view, names=NAMES[:3]).convert("RGB")
    lay = tf.layout(view, names=NAMES[:3])
    for c in view["cells"]:
        if c["side"] is None:
            continue
        left, top, _, _ = tf.cell_box(lay, c["cell"])
        fill, ink, _, _ = tf.side_tones(c["side"])
        assert img.getpixel((left + 12, top + 12)) in (fill, ink), c


def test_the_empty_centre_is_a_dark_void_with_no_side_colour() -> None:
    for players in (2, 3, 4):
        view = real_view(players, "play")
        assert next(c for c in view["cells"] if c["cell"] == "C3")["side"] is None
        counts = colour_counts(cell_crop(tf.draw(view, names=names_for(view)), view, "C3"))
        assert max(counts, key=counts.get) == tf.VOID
        assert not set(counts) & {tf.side_tones(s)[0] for s in range(5)}
    five = real_view(5, "play")  # five sides fill the centre too
    counts = colour_counts(cell_crop(tf.draw(five, names=NAMES[:5]), five, "C3"))
    assert tf.VOID not in counts


def test_the_duelling_cells_are_ringed_and_other_cells_are_not() -> None:
    view = real_view(5, "duel")
    quiet = dict(view, duel=None)
    a, b = tf.draw(view, names=NAMES[:5]).convert("RGB"), tf.draw(quiet, names=NAMES[:5]).convert("RGB")
    lay, lay_quiet = tf.layout(view, names=NAMES[:5]), tf.layout(quiet, names=NAMES[:5])
    duel_cells = {view["duel"]["from"], view["duel"]["to"]}
    for c in view["cells"]:
        box, box_q = tf.cell_box(lay, c["cell"]), tf.cell_box(lay_quiet, c["cell"])
        ring, ring_q = (box[0] + 8, box[1] + CELL_MID), (box_q[0] + 8, box_q[1] + CELL_MID)
        if c["cell"] in duel_cells:
            assert a.getpixel(ring) == tf.WHITE, c
        else:
            assert a.getpixel(ring) == b.getpixel(ring_q), c


CELL_MID = tf.CELL // 2


def test_patterns_tell_the_sides_apart_without_colour() -> None:
    """In grey, each side's texture still differs (the pattern, not only the hue, tells sides apart)."""
    greys = [tf.texture(side).convert("L").crop((0, 0, 88, 88)).tobytes() for side in range(5)]
    assert len(set(greys)) == 5
    assert len({tf.side_tones(s)[0] for s in range(5)}) == 5


def test_the_palette_fits() -> None:
    pal = tf.palette().getpalette()
    assert pal is not None and len(pal) <= 768


def test_an_actions_image_never_remaps_the_whole_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a game's first image, the next ones are copies of the cached 'P' background with cached 'P' tiles (side
    textures, swatches, text) pasted: only new text tiles are remapped, never the whole million-pixel image."""
    views = [G.view(s, None) for s in playout(5, "paletted")[::7]][:8]
    tf.draw(views[0], names=NAMES[:5])
    areas: list[int] = []
    quantize = Image.Image.quantize

    def counting(self: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        areas.append(self.width * self.height)
        return quantize(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", counting)
    for view in views[1:]:
        img = tf.draw(view, names=NAMES[:5])
        assert img.mode == "P"
        assert max(areas, default=0) < img.width * img.height // 50


# ------------------------------------------------------------------------------------------- text board


def test_text_board_shows_every_cells_owner_and_the_duel_letter() -> None:
    view = real_view(5, "duel")
    text = tf.text_board(view, names=NAMES[:5])
    lines = text.splitlines()
    rows = [
        line
        for line in lines
        if len(line.split()) == 7 and line.split()[0] == line.split()[-1] and line.split()[0] in "12345"
    ]
    assert [line.split()[0] for line in rows] == ["5", "4", "3", "2", "1"]
    for c in view["cells"]:
        row = rows[5 - int(c["cell"][1])]
        tokens = row.split()[1:6]
        token = tokens["ABCDE".index(c["cell"][0])].strip("()[]")
        expected = "##" if c["side"] is None else str(c["side"])
        assert token.startswith(expected), (c, token)
    duel = view["duel"]
    assert f"Letter: {duel['letter']}" in text
    assert tf.clock(duel["clocks_ms"][0]) in text and tf.clock(duel["clocks_ms"][1]) in text
    for answer in duel["answers"]:
        if answer["mark"] != "pass":
            assert answer["text"] in text
    frm, to = duel["from"], duel["to"]
    assert rows[5 - int(frm[1])].split()[1 + "ABCDE".index(frm[0])].startswith("(")
    assert rows[5 - int(to[1])].split()[1 + "ABCDE".index(to[0])].startswith("[")


def test_text_board_marks_the_empty_centre_the_pending_choice_and_whose_turn() -> None:
    view = real_view(3, "take")
    text = tf.text_board(view, names=NAMES[:3])
    assert "##" in text
    side = view["pending"]["side"]
    colour = tf.colour_name(side, "en")
    assert f"{colour} takes {view['pending']['count']} cell" in text
    assert any(line.startswith(f"> {side} ") for line in text.splitlines())
    play = real_view(2, "play")
    text = tf.text_board(play, names=NAMES[:2])
    assert f"{tf.colour_name(play['current'], 'en')} ({NAMES[play['current']]}) to challenge" in text
    for field in play["fields"]:
        for cat in field["categories"]:
            assert cat["name"] in text


def test_text_board_of_the_final_shows_the_ladder_and_the_end_the_champion() -> None:
    final = real_view(4, "final")
    assert "Final ladder" in tf.text_board(final, names=NAMES[:4])
    over = real_view(4, "over")
    text = tf.text_board(over, names=NAMES[:4])
    assert "Champion:" in text and "#1" in text


def test_clock_shows_tenths_rounded_down() -> None:
    assert tf.clock(45000) == "0:45.0"
    assert tf.clock(41399) == "0:41.3"
    assert tf.clock(120000) == "2:00.0"
    assert tf.clock(-5) == "0:00.0"


@pytest.mark.parametrize("locale", ["en", "pl"])
def test_every_dynamic_key_is_translated(locale: str) -> None:
    from i18n import t

    keys = [f"tfr.colour.{c}" for c in tf.SIDE_COLOURS] + [f"tfr.pattern.{p}" for p in tf.SIDE_PATTERNS]
    keys += [f"tfr.phase.{p}" for p in ("draft", "play", "final", "over")]
    keys += ["tfr.answer.rejected", "tfr.answer.trusted"]
    for key in keys:
        assert t(key, locale) != key


# ------------------------------------------------------------------------------------------- a whole game


@pytest.mark.parametrize("players", [2, 5])
def test_every_view_of_a_scripted_game_renders(players: int) -> None:
    """Sampled through a whole game, for a spectator and a seat: no position breaks the renderer."""
    seed = f"render-{players}-0"
    states = playout(players, seed)
    assert G.outcome(states[-1]) is not None
    for view in all_views(players, seed, every=7) + all_views(players, seed, every=11, seat=1):
        img = png_image(tf.render(view, names=NAMES[:players]))
        assert img.size == tf.layout(view, names=NAMES[:players]).size
        assert tf.text_board(view, names=NAMES[:players], locale="pl")


def test_the_benchmark_runs_and_reports_ratios_to_the_floor() -> None:
    """A smoke run (timings are reported by ``python -m tests.bench``, never asserted)."""
    from tests.bench import bench_the_floor_render

    rows = bench_the_floor_render.rows(n=2)
    assert {r.step for r in rows} >= {"render", "encode", "render+encode"}
    assert all(r.ratio is not None and r.ratio > 0 for r in rows)
    assert all(r.bytes_ratio and r.bytes_ratio > 1 for r in rows if r.step == "encode")


def test_the_cells_a_winner_may_take_get_a_gold_frame_and_the_others_none() -> None:
    view = real_view(3, "take", None)
    offered = set(view["pending"]["cells"])
    img = png_image(tf.render(view, names=names_for(view), locale="en")).convert("RGB")
    lay = tf.layout(view)
    for c in view["cells"]:
        if c["side"] is None:
            continue
        left, top, _, _ = tf.cell_box(lay, c["cell"])
        frame = img.getpixel((left + 11, top + 11))  # on the dashed frame's corner, inside the cell
        assert (frame == tf.GOLD) == (c["cell"] in offered), c["cell"]
