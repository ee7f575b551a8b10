"""The floating_world map and Nightmare images, drawn from hand-built views of the agreed shape.

`make_view` builds a view without the rules module (written in parallel); a later test can render
``FloatingWorld().view(state, seat)`` instead.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image

from render import common
from render import floating_world as fw
from tests.pngs import png_image

MB = 1 << 20
NAMES = ["Bamboo Grove", "Moon Pond", "Shrine of Foxes", "Cedar Pass", "Paper Lantern Market", "Misty Falls",
         "Plum Orchard", "Crane Marsh", "Stone Garden", "Tea House Row", "Red Bridge", "Snow Peak"]
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




def stat(dice: int, pips: int = 0) -> dict[str, Any]:
    return {"dice": dice, "pips": pips, "text": f"{dice}D" + (f"+{pips}" if pips else "")}


def spiral(n: int) -> list[tuple[int, int]]:
    """n connected spaces around the Gate, the Gate first."""
    out = [(0, 0)]
    x = y = 0
    dx, dy = 1, 0
    leg, steps, turns = 1, 0, 0
    while len(out) < n:
        x, y = x + dx, y + dy
        out.append((x, y))
        steps += 1
        if steps == leg:
            steps = 0
            dx, dy = -dy, dx
            turns += 1
            if turns % 2 == 0:
                leg += 1
    return out


def land(x: int, y: int, i: int, **kw: Any) -> dict[str, Any]:
    gate = (x, y) == (0, 0)
    name = "Gateless Gate" if gate else NAMES[i % len(NAMES)]
    return {"x": x, "y": y, "id": "gate" if gate else f"land{i}", "name": {"en": name, "pl": f"{name} (pl)"},
            "gate": gate, "village": None, "demons": [], "kitsune": [], **kw}


def kitsune(seat: int, at: tuple[int, int] | None = (0, 0), **kw: Any) -> dict[str, Any]:
    return {"seat": seat, "land": list(at) if at else None, "body": stat(2, seat % 3), "mind": stat(2 + seat % 2),
            "spirit": stat(2, 1), "wounds": seat % 2, "max_wounds": 2, "praise": 6 + seat, "items": ["lantern"],
            "legends": [], "upgrades": [], "alive": True, "moved": False, "used": [], **kw}


def make_view(n_lands: int = 9, players: int = 2, coords: list[tuple[int, int]] | None = None,
              **kw: Any) -> dict[str, Any]:
    coords = coords or spiral(n_lands)
    lands = [land(x, y, i) for i, (x, y) in enumerate(coords)]
    kits = [kitsune(s, coords[s % len(coords)]) for s in range(players)]
    for k in kits:
        at = tuple(k["land"])
        next(ld for ld in lands if (ld["x"], ld["y"]) == at)["kitsune"].append(k["seat"])
    demons = ["oni", "tengu", "gaki"]
    for i, ld in enumerate(lands[1:], start=1):
        if i % 3 == 0:
            kind = demons[(i // 3) % 3]
            ld["demons"].append({"type": kind, "id": f"{kind}{i}"})
        if i % 5 == 2:
            ld["village"] = i % players
    view = {"game": "floating_world", "players": players, "viewer": 0, "phase": "dream", "current": 0, "turn": 7,
            "options": {}, "lands": lands, "kitsune": kits, "demon_strength": stat(1, 0) | {"text": "+1D"},
            "supply": {"oni": 3, "tengu": 2, "gaki": 4}, "nightmare": None, "last_roll": None, "harvest": None,
            "decks": {"lands": 12, "dreams": 20}, "outcome": None}
    view.update(kw)
    return view


def roll(dice: list[int], plus: int = 0) -> dict[str, Any]:
    return {"dice": dice, "plus": plus, "total": sum(dice) + plus}


def nightmare(steps: int = 8) -> dict[str, Any]:
    base: list[dict[str, Any]] = [
        {"kind": "attack_kitsune", "demon": {"type": "oni", "id": "oni1"}, "seat": 1, "stat": "body",
         "land": [1, 0], "result": "wound", "rolls": {"demon": roll([6, 4, 3], 1), "target": roll([2, 5])}},
        {"kind": "attack_land", "demon": {"type": "tengu", "id": "tengu1"}, "land": [0, 1], "result": "held",
         "rolls": {"demon": roll([3, 2, 1], 1), "target": {"value": 10}}},
        {"kind": "attack_land", "demon": {"type": "gaki", "id": "gaki1"}, "land": [5, 5], "result": "destroyed",
         "name": {"en": "Far Reach", "pl": "Daleki Zasięg"},
         "rolls": {"demon": roll([6, 5, 4], 1), "target": {"value": 10}}},
        {"kind": "destroyed", "land": [5, 5], "name": {"en": "Far Reach", "pl": "Daleki Zasięg"}},
        {"kind": "move", "demon": {"type": "gaki", "id": "gaki1"}, "from": [5, 5], "to": [1, 1]},
        {"kind": "kitsune_moved", "seat": 0, "from": [5, 5], "to": [0, 0]},
        {"kind": "cut_off", "land": [6, 5]},
        {"kind": "returned", "demon": {"type": "oni", "id": "oni3"}},
        {"kind": "death", "seat": 1},
        {"kind": "spawn_dice", "dice": [1, 4, 2]},
        {"kind": "spawn", "demon": {"type": "tengu", "id": "tengu2"}, "land": [-1, 0], "type_die": 3},
        {"kind": "no_spawn", "reason": "no_land"},
    ]
    out = [copy.deepcopy(base[i % len(base)]) for i in range(steps)]
    return {"turn": 7, "steps": out}


def rgb(img: Image.Image) -> Image.Image:
    return img.convert("RGB")


# ------------------------------------------------------------------------------------------- the map


@pytest.mark.parametrize("n", [1, 9, 30, 60])
def test_map_decodes_within_discord_bounds(n: int) -> None:
    img = png_image(data := fw.map_image(make_view(n, players=4)))
    assert img.mode == "P"
    assert img.width <= 2000 and img.height <= 2000
    assert len(data) < MB


def test_single_land_is_the_gate_with_chaos_around() -> None:
    view = make_view(1, players=1)
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
    view = make_view(coords=coords, players=3)
    lay = fw.map_layout(view)
    assert lay.below  # a wide map puts the cards under it
    data = fw.map_image(view)
    img = png_image(data)
    assert img.width <= 2000 and img.height <= 2000 and len(data) < MB
    _, _, right, bottom = lay.tile_box(59, 0)
    assert right <= img.width and bottom <= img.height
    tall = make_view(coords=[(0, -y) for y in range(60)], players=4)
    img = png_image(fw.map_image(tall))
    assert img.width <= 2000 and img.height <= 2000


def test_map_is_deterministic() -> None:
    view = make_view(30, players=3, nightmare=nightmare(), last_roll={
        "seat": 0, "stat": "mind", "dice": [4, 6], "plus": 1, "total": 11, "against": 12, "success": False})
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
    view = make_view(4, players=1)
    where = dict(zip(fw.DEMONS, [(1, 0), (1, 1), (0, 1)], strict=True))
    for ld in view["lands"]:
        ld["demons"], ld["village"], ld["kitsune"] = [], None, []
        kind = next((k for k, c in where.items() if c == (ld["x"], ld["y"])), None)
        if kind:
            ld["demons"] = [{"type": kind, "id": f"{kind}1"}]
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
    view = make_view(5, players=3)
    for ld in view["lands"]:
        ld["village"] = None
    target = view["lands"][2]
    target["village"] = 2
    lay = fw.map_layout(view)
    img = rgb(fw.draw_map(view))
    left, top, right, _ = lay.tile_box(target["x"], target["y"])
    rim_px = img.getpixel(((left + right) // 2, top + round(lay.tile * 0.07)))
    assert rim_px == common.PIECE_COLOURS[fw.seat_colour(2)]
    plain = view["lands"][1]
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
    view = make_view(9, players=2)
    view["kitsune"][1]["alive"] = False
    view["kitsune"][1]["wounds"] = 2
    lay = fw.map_layout(view)
    img = rgb(fw.draw_map(view))
    alive, dead = img.crop(lay.cards[0]), img.crop(lay.cards[1])
    assert _saturation(alive) > 120
    # greyed: nothing saturated left but the tag
    sat = dead.convert("HSV").getchannel("S")
    saturated = sum(n for n, s in sat.getcolors(256) if s > 40)
    assert saturated < dead.width * dead.height * 0.01


def test_current_player_card_stands_out() -> None:
    view = make_view(9, players=2, current=1)
    lay = fw.map_layout(view)
    img = rgb(fw.draw_map(view))
    x0, y0, _, y1 = lay.cards[1]
    assert img.getpixel((x0 + 2, (y0 + y1) // 2)) == fw.GOLD
    x0, y0, _, y1 = lay.cards[0]
    assert img.getpixel((x0 + 2, (y0 + y1) // 2)) != fw.GOLD


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_do_not_crash(name: Any) -> None:
    view = make_view(9, players=2)
    for ld in view["lands"]:
        ld["name"] = {"en": name, "pl": name}
    png_image(fw.map_image(view, names=[name, name], card_names={"lantern": name}))
    png_image(fw.map_image(view, locale="pl"))
    view["lands"][3]["name"] = name  # not even a dict
    png_image(fw.map_image(view))


def test_malformed_views_do_not_crash() -> None:
    for view in ({}, {"lands": None, "kitsune": "x"}, {"lands": [{"x": "a"}, 5, None], "kitsune": [None, 3]},
                 make_view(3, players=1, demon_strength=None, supply=None, current=None, turn="x")):
        png_image(fw.map_image(view))
        png_image(fw.nightmare_image(view))
    crowded = make_view(2, players=4)
    crowded["lands"][0]["demons"] = [{"type": d, "id": f"{d}{i}"} for d in fw.DEMONS for i in range(4)]
    crowded["lands"][0]["kitsune"] = [0, 1, 2, 3]
    png_image(fw.map_image(crowded))
    far = make_view(coords=[(0, 0), (100000, 5)])
    img = png_image(fw.map_image(far))
    assert img.width <= 2000 and img.height <= 2000


def test_card_names_are_listed() -> None:
    view = make_view(9, players=1)
    view["kitsune"][0]["legends"] = ["fox_fire"]
    lay_names = fw.map_layout(view, {"lantern": "Paper Lantern"})
    lay_counts = fw.map_layout(view)
    # with names each kind that has cards gets its own line
    assert lay_names.cards[0][3] - lay_names.cards[0][1] > lay_counts.cards[0][3] - lay_counts.cards[0][1]
    png_image(fw.map_image(view, card_names={"lantern": "Paper Lantern", "fox_fire": "Fox Fire"}))


def test_last_roll_and_outcome_are_drawn() -> None:
    view = make_view(9, players=2, phase="over", outcome={"won": True}, last_roll={
        "seat": 1, "stat": "mind", "dice": [6, 5, 4], "plus": 1, "total": 16, "against": 15, "success": True})
    lay = fw.map_layout(view)
    assert lay.header_h == fw.HEADER_H + fw.ROLL_H
    img = rgb(fw.draw_map(view))
    strip = img.crop((0, fw.HEADER_H, img.width, lay.header_h))
    assert fw.DIE in {c for _, c in strip.getcolors(1 << 16)}


def test_fixed_words_are_localised() -> None:
    assert fw.label("gate", "en") == "Gate"
    assert fw.label("gate", "pl") == "Brama"
    assert fw.label("no_nightmare", "pl-PL") == "jeszcze bez Koszmaru"
    assert set(fw.DEFAULTS["en"]) == set(fw.DEFAULTS["pl"])
    assert fw.map_image(make_view(5), locale="pl") != fw.map_image(make_view(5), locale="en")


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


def test_nightmare_with_no_steps_says_so() -> None:
    for nm in (None, {"turn": 0, "steps": []}):
        img = rgb(png_image(fw.nightmare_image(make_view(3, nightmare=nm))))
        assert img.height < 400
        pl = rgb(png_image(fw.nightmare_image(make_view(3, nightmare=nm), locale="pl")))
        assert img.tobytes() != pl.tobytes()
    # the words drawn are the label's
    img = fw.draw_nightmare(make_view(3))
    assert fw.label("no_nightmare", "en") == "no Nightmare yet"
    assert img.width == fw.NM_WIDTH


@pytest.mark.parametrize("steps", [1, 12, 40, 300])
def test_nightmare_stays_within_bounds(steps: int) -> None:
    data = fw.nightmare_image(make_view(9, nightmare=nightmare(steps)))
    img = png_image(data)
    assert img.width <= 2000 and img.height <= 2000
    assert len(data) < MB


def test_nightmare_draws_dice_and_marks_spawns() -> None:
    view = make_view(9, nightmare={"turn": 3, "steps": [{"kind": "spawn_dice", "dice": [1, 4, 2]}]})
    img = rgb(fw.draw_nightmare(view))
    colours = {c for _, c in img.getcolors(1 << 16)}
    assert fw.DIE_HI in colours and fw.DIE in colours  # the 1 and the 2 highlighted, the 4 plain
    sixes = make_view(9, nightmare={"turn": 3, "steps": [{"kind": "spawn_dice", "dice": [6, 6]}]})
    assert fw.DIE_SIX in {c for _, c in rgb(fw.draw_nightmare(sixes)).getcolors(1 << 16)}


def test_attack_results_are_badged() -> None:
    wound = nightmare(1)
    img = rgb(fw.draw_nightmare(make_view(9, nightmare=wound)))
    assert fw.WOUND in {c for _, c in img.getcolors(1 << 16)}
    held = nightmare(2)
    held["steps"] = held["steps"][1:]
    img = rgb(fw.draw_nightmare(make_view(9, nightmare=held)))
    colours = {c for _, c in img.getcolors(1 << 16)}
    assert fw.HELD in colours and fw.WOUND not in colours
    # without a "result" the totals decide
    bare = nightmare(1)
    del bare["steps"][0]["result"]
    assert fw.nightmare_image(make_view(9, nightmare=bare)) == fw.nightmare_image(make_view(9, nightmare=wound))


@pytest.mark.parametrize("name", HOSTILE)
def test_nightmare_hostile_names(name: Any) -> None:
    view = make_view(9, nightmare=nightmare(12))
    png_image(fw.nightmare_image(view, names=[name, name], locale="pl"))
    odd = {"turn": "x", "steps": [{"kind": name}, {"kind": "attack_kitsune", "rolls": None}, None,
                                  {"kind": "spawn_dice", "dice": "nope"}, {"kind": "move", "from": "a"}]}
    png_image(fw.nightmare_image(make_view(3, nightmare=odd)))
