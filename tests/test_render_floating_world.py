"""The floating_world map and Nightmare images, drawn from views and events the rules emitted.

Every view comes from `FloatingWorld.view` of a seeded game driven to the wanted situation, or of a map laid out
by the rules' own builder (`tests.rules.fw_helpers`); no step or view is written by hand, so a renderer that
reads a field the rules do not emit fails here. The hostile and malformed cases start from such a view and
damage it, as a corrupted row or a hostile display name would.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image

from render import floating_world as fw
from render import kit as common
from render.floating_world import words as fw_words
from rules.floating_world.content import LAND_BY_ID
from tests.pngs import png_image
from tests.rules import fw_helpers as h

MB = 1 << 20
HOSTILE = [
    "W" * 300,
    "Wolfeschlegelsteinhausenbergerdorff Brzęczyszczykiewicz of Łódź",
    "שלום עולם",
    "😀🎲👑",
    "Z̷̢̛̛a̶̢̛l̴̢̛g̵̢̛ơ" + "\u0301" * 50,
    "",
    "\u202eevil\u202c name",
    "@everyone <@123> **bold**",
    None,
    12345,
]


def view_of(state: h.State) -> dict[str, Any]:
    return h.G.view(state, None)


def busy_view(lands: int = 9, players: int = 2) -> dict[str, Any]:
    return view_of(h.busy_world(lands, players))


def night_view(step: h.Step, steps: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The view after ``step``; with ``steps``, its Nightmare cut to those (real) steps."""
    view = step.view()
    if steps is not None:
        view["nightmare"] = {**view["nightmare"], "steps": steps}
    return view


def real_steps(count: int) -> list[dict[str, Any]]:
    """``count`` Nightmare steps the rules emitted, from as many seeded Nightmares as it takes."""
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < count:
        out += [x for st in h.nightmares(4, prefix=f"steps{i}-") for x in st.state.nightmare["steps"]]
        i += 1
    return out[:count]


def rgb(img: Image.Image) -> Image.Image:
    return img.convert("RGB")


# ------------------------------------------------------------------------------------------- the map


@pytest.mark.parametrize("n", [1, 9, 30, 60])
def test_map_decodes_within_discord_bounds(n: int) -> None:
    img = png_image(data := fw.map_image(busy_view(n, players=4)))
    assert img.mode == "P"
    assert img.width <= 2000 and img.height <= 2000
    assert len(data) < MB


def test_single_land_is_the_gate_with_chaos_around() -> None:
    view = view_of(h.G.new(1, {}, "one-land"))
    lay = fw.map_layout(view)
    assert (lay.cols, lay.rows) == (3, 3)  # the Gate and one tile of chaos on every side
    img = rgb(fw.draw_map(view))
    box = lay.tile_box(0, 0)
    inside = img.crop(box)
    assert fw.GATE in {c for _, c in inside.getcolors(1 << 16)}
    corner = img.crop(lay.tile_box(1, 1))  # diagonal: not a space a Land can be created in
    assert fw.CHAOS not in {c for _, c in corner.getcolors(1 << 16)}
    side = img.crop(lay.tile_box(1, 0))
    assert fw.CHAOS in {c for _, c in side.getcolors(1 << 16)}


def test_sixty_lands_far_in_one_direction_fit() -> None:
    coords = [(x, 0) for x in range(60)]
    view = view_of(h.world(coords, players=3))
    lay = fw.map_layout(view)
    assert lay.below  # a wide map puts the cards under it
    data = fw.map_image(view)
    img = png_image(data)
    assert img.width <= 2000 and img.height <= 2000 and len(data) < MB
    _, _, right, bottom = lay.tile_box(59, 0)
    assert right <= img.width and bottom <= img.height
    tall = view_of(h.world([(0, -y) for y in range(60)][::-1], players=4))
    img = png_image(fw.map_image(tall))
    assert img.width <= 2000 and img.height <= 2000


def test_map_is_deterministic() -> None:
    step = h.first_step(lambda st: st.state.last_roll is not None and h.nightmare_of(st) is not None, players=3)
    view = step.view()
    assert fw.map_image(view) == fw.map_image(copy.deepcopy(view))
    assert fw.nightmare_image(view) == fw.nightmare_image(copy.deepcopy(view))


def _token_box(lay: fw.MapLayout, x: int, y: int, count: int = 1, slot: int = 0) -> tuple[int, int, int, int]:
    """A token's box on the image (as `render.floating_world.token_slots` lays them out)."""
    bx, by, _, _ = lay.tile_box(x, y)
    tx, ty, s = fw.token_slots(lay.tile, count, lay.tile >= fw.NAME_MIN_TILE)[slot]
    return bx + tx, by + ty, bx + tx + s, by + ty + s


def _inked(img: Image.Image, box: tuple[int, int, int, int], fx: float, fy: float) -> bool:
    """Whether the token at ``box`` covers the point (fx, fy) of its box (fractions): not the Land's paper."""
    w, h = box[2] - box[0], box[3] - box[1]
    return img.getpixel((box[0] + round(fx * w), box[1] + round(fy * h))) != fw.LAND


def test_demon_shapes_differ_by_type() -> None:
    where = dict(zip(fw.DEMONS, [(1, 0), (1, 1), (0, 1)], strict=True))
    view = view_of(h.world(lands=4, players=1, demons={f"{kind}1": c for kind, c in where.items()}))
    lay = fw.map_layout(view)
    img = rgb(fw.draw_map(view))
    probes = {}
    for kind, (x, y) in where.items():
        box = _token_box(lay, x, y)
        colours = {c for _, c in img.crop(box).getcolors(1 << 16)}
        assert common.PIECE_COLOURS[fw.DEMON_COLOUR[kind]] in colours  # the token wears its type's colour
        assert _inked(img, box, 0.5, 0.5)
        # top-left corner: only the square fills it; bottom-left: the square and the triangle's base
        probes[kind] = (_inked(img, box, 0.14, 0.14), _inked(img, box, 0.14, 0.84), _inked(img, box, 0.3, 0.12))
    assert probes["oni"] == (True, True, True)
    assert probes["tengu"] == (False, True, False)
    assert probes["gaki"] == (False, False, True)


def test_village_takes_its_owner_colour() -> None:
    coords = h.spiral(5)
    view = view_of(h.world(coords, players=3, villages={coords[2]: 2}))
    target = next(ld for ld in view["lands"] if (ld["x"], ld["y"]) == coords[2])
    assert target["village"] == 2
    lay = fw.map_layout(view)
    img = rgb(fw.draw_map(view))
    left, top, right, _ = lay.tile_box(target["x"], target["y"])
    rim_px = img.getpixel(((left + right) // 2, top + round(lay.tile * 0.07)))
    assert rim_px == common.PIECE_COLOURS[fw.seat_colour(2)]
    plain = next(ld for ld in view["lands"] if (ld["x"], ld["y"]) == coords[1])
    left, top, right, _ = lay.tile_box(plain["x"], plain["y"])
    assert img.getpixel(((left + right) // 2, top + round(lay.tile * 0.07))) == fw.LAND
    # the house token carries the same colour
    colours = {c for _, c in img.crop(_token_box(lay, target["x"], target["y"])).getcolors(1 << 16)}
    assert common.PIECE_COLOURS[fw.seat_colour(2)] in colours


def test_seat_colours_are_not_demon_colours() -> None:
    assert not set(fw.SEAT_COLOURS) & set(fw.DEMON_COLOUR.values())
    assert len({common.PIECE_MARKS[c] for c in fw.SEAT_COLOURS}) == len(fw.SEAT_COLOURS)


def _saturation(img: Image.Image) -> int:
    _, hi = img.convert("HSV").getchannel("S").getextrema()
    return hi


def test_dead_kitsune_card_is_greyed() -> None:
    # a Kitsune killed in a seeded game's Nightmare while its partner plays on
    died = h.first_step(lambda st: st.state.phase != "over" and h.with_step("death")(st))
    dead = next(x["seat"] for x in died.state.nightmare["steps"] if x["kind"] == "death")
    view = died.view()
    assert view["kitsune"][dead]["alive"] is False
    lay = fw.map_layout(view)
    img = rgb(fw.draw_map(view))
    alive, dead = img.crop(lay.cards[1 - dead]), img.crop(lay.cards[dead])
    assert _saturation(alive) > 120
    # greyed: nothing saturated left but the tag
    sat = dead.convert("HSV").getchannel("S")
    saturated = sum(n for n, s in sat.getcolors(256) if s > 40)
    assert saturated < dead.width * dead.height * 0.01


def test_current_player_card_stands_out() -> None:
    view = view_of(h.world(players=2, current=1))
    lay = fw.map_layout(view)
    img = rgb(fw.draw_map(view))
    x0, y0, _, y1 = lay.cards[1]
    assert img.getpixel((x0 + 2, (y0 + y1) // 2)) == fw.GOLD
    x0, y0, _, y1 = lay.cards[0]
    assert img.getpixel((x0 + 2, (y0 + y1) // 2)) != fw.GOLD


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_do_not_crash(name: Any) -> None:
    view = busy_view(9, players=2)
    for ld in view["lands"]:  # Land names come from our data; a damaged row could still hold anything
        ld["name"] = {"en": name, "pl": name}
    png_image(fw.map_image(view, names=[name, name], card_names={"lantern": name}))
    png_image(fw.map_image(view, locale="pl"))
    view["lands"][3]["name"] = name  # not even a dict
    png_image(fw.map_image(view))


def test_malformed_views_do_not_crash() -> None:
    damaged = {**busy_view(3, players=1), "demon_strength": None, "supply": None, "current": None, "turn": "x"}
    for view in ({}, {"lands": None, "kitsune": "x"}, {"lands": [{"x": "a"}, 5, None], "kitsune": [None, 3]},
                 damaged):
        png_image(fw.map_image(view))
        png_image(fw.nightmare_image(view))
    crowded = h.world(lands=2, players=4, demons={i: (1, 0) for i in h.DEMON_IDS}, kitsune=dict.fromkeys(range(4),
                                                                                                      (1, 0)))
    png_image(fw.map_image(view_of(crowded)))
    far = busy_view(2)
    far["lands"][1].update(x=100000, y=5)  # only a damaged row holds a Land this far out
    img = png_image(fw.map_image(far))
    assert img.width <= 2000 and img.height <= 2000


def test_card_names_are_listed() -> None:
    view = view_of(h.world(players=1, kit={0: {"items": ("lucky_coin",), "legends": ("fox_fire",)}}))
    lay_names = fw.map_layout(view, {"lucky_coin": "Lucky Coin"})
    lay_counts = fw.map_layout(view)
    # with names each kind that has cards gets its own line
    assert lay_names.cards[0][3] - lay_names.cards[0][1] > lay_counts.cards[0][3] - lay_counts.cards[0][1]
    png_image(fw.map_image(view, card_names=fw_words.card_names("en")))


def test_last_roll_of_the_rules_shape_is_drawn_with_its_dice() -> None:
    """The rules keep the roll under ``last_roll.rolls.kitsune`` and the bar under ``need``."""
    view = h.sealed().view()
    roll = view["last_roll"]["rolls"]["kitsune"]
    assert roll["dice"] and view["last_roll"]["need"] == 15
    lay = fw.map_layout(view)
    assert lay.header_h == fw.HEADER_H + fw.ROLL_H
    img = rgb(fw.draw_map(view))
    strip = img.crop((0, fw.HEADER_H, img.width, lay.header_h))
    assert fw.DIE in {c for _, c in strip.getcolors(1 << 16)}


def test_a_sealed_world_is_drawn_as_won_and_a_fallen_one_as_lost() -> None:
    """The rules say how a game ended by ``outcome.reason``; a sealed Gate was drawn as "The world has fallen"
    while the renderer looked for an ``outcome.won`` the rules never emit."""
    assert fw._outcome_text(h.sealed().view(), "en") == fw.label("won", "en")
    fallen = h.first_step(lambda st: st.state.phase == "over")
    assert fallen.view()["outcome"]["reason"] != "fw.outcome.sealed"
    assert fw._outcome_text(fallen.view(), "en") == fw.label("lost", "en")


def test_fixed_words_are_localised() -> None:
    assert fw.label("gate", "en") == "Gate"
    assert fw.label("gate", "pl") == "Brama"
    assert fw.label("no_nightmare", "pl-PL") == "jeszcze bez Koszmaru"
    assert set(fw.DEFAULTS["en"]) == set(fw.DEFAULTS["pl"])
    view = busy_view(5)
    assert fw.map_image(view, locale="pl") != fw.map_image(view, locale="en")


# ------------------------------------------------------------------------------------------ dice


def test_dice_faces_show_pips() -> None:
    row = fw.dice_faces([1, 6], 40)
    assert row.size == (40 * 2 + 40 // 6, 40)
    one, six = row.crop((0, 0, 40, 40)), row.crop((row.width - 40, 0, row.width, 40))

    def dark(img: Image.Image) -> int:  # pip ink inside the face
        inner = img.crop((8, 8, 32, 32))
        return sum(n for n, px in inner.getcolors(1 << 16) if sum(px) < 150)

    assert dark(six) > dark(one) * 2  # six pips carry more ink than one
    assert fw.dice_faces([], 30).size == (1, 30)
    fw.dice_faces([0, 7, 12345], 30)  # out of range: written, not a crash


# ------------------------------------------------------------------------------------------ nightmare


def test_nightmare_before_the_first_says_so() -> None:
    view = view_of(h.G.new(2, {}, "calm"))
    assert view["nightmare"] is None
    img = rgb(png_image(fw.nightmare_image(view)))
    assert img.height < 400 and img.width == fw.NM_WIDTH
    pl = rgb(png_image(fw.nightmare_image(view, locale="pl")))
    assert img.tobytes() != pl.tobytes()
    assert fw.label("no_nightmare", "en") == "no Nightmare yet"


@pytest.mark.parametrize("steps", [1, 12, 40, 300])
def test_nightmare_stays_within_bounds(steps: int) -> None:
    step = h.nightmares(1)[0]
    data = fw.nightmare_image(night_view(step, real_steps(steps)))
    img = png_image(data)
    assert img.width <= 2000 and img.height <= 2000
    assert len(data) < MB


def _colours(img: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in rgb(img).getcolors(1 << 16)}


def test_spawn_dice_of_one_or_two_are_marked() -> None:
    def mixed(x: dict[str, Any]) -> bool:
        return any(d <= 2 for d in x["dice"]) and any(d > 2 for d in x["dice"])

    step = h.first_step(h.with_step("spawn_dice", mixed))
    only = [x for x in step.state.nightmare["steps"] if x["kind"] == "spawn_dice"]
    colours = _colours(fw.draw_nightmare(night_view(step, only)))
    assert fw.DIE_HI in colours and fw.DIE in colours  # the 1s and 2s highlighted, the rest plain


def test_all_sixes_are_marked_and_the_new_demon_strength_is_the_rules() -> None:
    step = h.first_step(h.with_step("strength"))
    night = step.state.nightmare["steps"]
    sixes = next(x for x in night if x["kind"] == "spawn_dice")
    rise = next(x for x in night if x["kind"] == "strength")
    assert set(sixes["dice"]) == {6}
    assert fw.DIE_SIX in _colours(fw.draw_nightmare(night_view(step, [sixes])))
    words = fw.step_words(rise, step.view())
    assert rise["to"] in words.caption and words.caption == fw.label("strength", "en", text=rise["to"])


def _badge_colours(view: dict[str, Any]) -> set[tuple[int, int, int]]:
    """The colours of the first step's result badge (the right end of its caption line)."""
    img = rgb(fw.draw_nightmare(view))
    top = fw.NM_HEADER + fw.PAD // 2
    return _colours(img.crop((fw.NM_WIDTH - fw.PAD - 140, top, fw.NM_WIDTH - fw.PAD, top + fw.NM_LINE)))


def test_a_land_that_held_is_drawn_held_against_its_defence() -> None:
    """The bug: every attack on a Land said "Destroyed" and "vs 0", as the renderer read an invented
    ``rolls.target`` / ``result`` while the rules emit ``defence`` and ``destroyed``."""
    step = h.first_step(h.with_step("attack_land", lambda x: not x["destroyed"]))
    held = next(x for x in step.state.nightmare["steps"] if x["kind"] == "attack_land" and not x["destroyed"])
    words = fw.step_words(held, step.view())
    assert (words.result, words.badge, words.against) == ("held", "Held", held["defence"])
    colours = _badge_colours(night_view(step, [held]))
    assert fw.HELD in colours and fw.WOUND not in colours


def test_a_destroyed_land_is_drawn_destroyed_and_named_by_its_card() -> None:
    step = h.first_step(h.with_step("attack_land", lambda x: x["destroyed"]))
    night = step.state.nightmare["steps"]
    fell = next(x for x in night if x["kind"] == "attack_land" and x["destroyed"])
    words = fw.step_words(fell, step.view())
    assert (words.result, words.badge, words.against) == ("destroyed", "Destroyed", fell["defence"])
    assert fw.WOUND in _badge_colours(night_view(step, [fell]))
    gone = next(x for x in night if x["kind"] == "destroyed")
    name = LAND_BY_ID[gone["land"]].name["en"] if not gone["gate"] else fw.label("gate", "en")
    assert name in fw.step_words(gone, step.view()).caption  # the Land is off the view: named by its card


def test_the_image_and_the_summary_say_what_each_nightmare_step_says() -> None:
    """For many seeded Nightmares, the image's words and the text summary agree with the step's own fields:
    a held Land "Held" against its defence, a destroyed one "Destroyed", a Kitsune wounded exactly when the
    rules say so against the roll it made. Closes the class: a field the renderer invents reads as absent."""
    seen: set[str] = set()
    # Three players and two: with the team bot and its presets, a 3-player Kitsune under attack is rarely unharmed.
    for step in [*h.nightmares(150, players=3), *h.nightmares(150, players=2)]:
        view = step.view()
        for x in step.state.nightmare["steps"]:
            words = fw.step_words(x, view)
            line = fw_words.step_line(x, ["A", "B", "C"], "en") or ""
            if x["kind"] == "attack_land":
                expected = "destroyed" if x["destroyed"] else "held"
                assert (words.result, words.against) == (expected, x["defence"]), x
                assert words.badge == fw.label(f"result.{expected}", "en")
                assert f"vs {x['defence']}" in line and ("falls" if x["destroyed"] else "holds") in line, line
                seen.add(expected)
            elif x["kind"] == "attack_kitsune":
                expected = "wound" if x["wound"] else "held"
                assert (words.result, words.against) == (expected, x["rolls"]["target"]), x
                assert x["rolls"]["demon"]["total"] > x["rolls"]["target"]["total"] if x["wound"] else True
                assert ("a Wound" if x["wound"] else "no harm") in line, line
                seen.add(f"kitsune {expected}")
            else:
                assert words.result is None and "?" not in words.caption, (x, words)
    assert seen >= {"held", "destroyed", "kitsune wound", "kitsune held"}


@pytest.mark.parametrize("name", HOSTILE)
def test_nightmare_hostile_names(name: Any) -> None:
    step = h.nightmares(1)[0]
    png_image(fw.nightmare_image(night_view(step, real_steps(12)), names=[name, name], locale="pl"))
    # a damaged row: real steps with their fields broken
    odd = copy.deepcopy(real_steps(5))
    odd[0]["kind"] = name
    odd[1]["rolls"] = None
    odd[2] = None
    odd[3]["dice"] = "nope"
    odd[4]["from"] = "a"
    png_image(fw.nightmare_image(night_view(step, [*odd, {}])))
    png_image(fw.nightmare_image({**step.view(), "nightmare": {"turn": "x", "steps": odd}}))
