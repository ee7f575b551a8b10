"""The Floating Floors box, loaded from ``data/floating_floors/components.json`` and validated on import.

The published card layouts are not available, so ours are fan-made data (the file's ``note`` says so). Decisions:

- Patterns are 3 strings of 3 characters, rows top to bottom; a space is ``(col, row)``, 0-based, y down.
  Terrain: ``L`` land, ``W`` water; floorboards: ``L`` light, ``S`` shadow.
- A terrain side needs at least 3 land spaces not all in one line, so that Jutsu under a board can always give a
  2-D support polygon; the terrain side has 2–3 water spaces, the lake side 4–5.
- A floorboard's back is its front inverted (computed, never stored). No two boards are equal under any of the 8
  orientations (4 rotations × 2 sides): otherwise the deck would hold a duplicate.
- "Clockwise" is as seen on the image (y down): a quarter turn maps offset ``(dx, dy)`` to ``(-dy, dx)``, so the
  top-left space moves to the top-right.
- Jutsu kinds are named by two letters, colour then shape (``bs`` black square … ``wh`` white hexagon): the game's
  notation. Colours and shapes are fixed sets, since the statics model knows exactly these footprints.
- ``COLOUR_OF_NINJA`` maps a ninja id to ``light``/``shadow``; ``WALKS_ON`` maps that colour to the Jutsu colour it
  may stand on (light on white, shadow on black).
- ``Physics`` is hashable (named fields, no dicts) so it can key caches. Each footprint must fit in a 1×1 space.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "floating_floors"
SIDES = ("terrain", "lake")
WATER_RANGE = {"terrain": (2, 3), "lake": (4, 5)}
LIGHT_RANGE = (4, 5)
NINJA_COLOURS = ("light", "shadow")
JUTSU_COLOURS = ("black", "white")
SHAPES = ("square", "triangle", "hexagon")
DIRECTIONS = ("cw", "ccw")
BANSEN_PER_NINJA = 4
COUNTS = {"terrain": 12, "floorboards": 12, "ninjas": 4, "bansen": 16}
TERRAIN_ID = re.compile(r"^t\d\d$")
BOARD_ID = re.compile(r"^f\d\d$")
ID = re.compile(r"^[a-z][a-z0-9_]{1,19}$")

Space = tuple[int, int]


class ContentError(ValueError):
    """The data file breaks the schema (caught by the tests, raised at import)."""


@lru_cache(maxsize=1024)  # 12 boards × 2 sides × 4 turns, asked at every step
def rotate_pattern(rows: tuple[str, ...], quarter_turns_cw: int) -> tuple[str, ...]:
    """Turn a square pattern clockwise as seen on the image: new[r][c] = old[n-1-c][r]."""
    for _ in range(quarter_turns_cw % 4):
        rows = tuple("".join(col) for col in zip(*reversed(rows), strict=True))
    return rows


@dataclass(frozen=True)
class TerrainCard:
    id: str
    terrain: tuple[str, ...]
    lake: tuple[str, ...]

    def side(self, name: str) -> tuple[str, ...]:
        if name not in SIDES:
            raise ValueError(f"side must be one of {SIDES}, not {name!r}")
        return self.terrain if name == "terrain" else self.lake

    def land(self, side: str) -> frozenset[Space]:
        return _cells(self.side(side), "L")


@dataclass(frozen=True)
class Floorboard:
    id: str
    front: tuple[str, ...]

    def pattern(self, back: bool = False, quarter_turns_cw: int = 0) -> tuple[str, ...]:
        rows = _invert(self.front) if back else self.front
        return rotate_pattern(rows, quarter_turns_cw)

    def light(self, back: bool = False, quarter_turns_cw: int = 0) -> frozenset[Space]:
        return _cells(self.pattern(back, quarter_turns_cw), "L")


@dataclass(frozen=True)
class Ninja:
    id: str
    colour: str
    name: tuple[tuple[str, str], ...]  # (locale, text), hashable

    def display(self, locale: str) -> str:
        names = dict(self.name)
        return names.get(locale, names.get("en", self.id))


@dataclass(frozen=True)
class Bansen:
    id: str
    ninja: str
    number: int
    direction: str

    @property
    def quarter_turns_cw(self) -> int:
        return 1 if self.direction == "cw" else -1


@dataclass(frozen=True)
class Jutsu:
    colours: tuple[str, ...]
    shapes: tuple[str, ...]
    per_kind: int
    walks_on: tuple[tuple[str, str], ...]  # (ninja colour, jutsu colour)


@dataclass(frozen=True)
class Dice:
    count: int
    faces: tuple[str, ...]


@dataclass(frozen=True)
class Physics:
    board_weight: float
    jutsu_weight: float
    ninja_weight: float
    square_side: float
    triangle_side: float
    hexagon_flats: float
    offset: float
    min_margin: float
    shaky_below: float
    shaky_max: float

    def size(self, shape: str) -> float:
        sizes = {"square": self.square_side, "triangle": self.triangle_side, "hexagon": self.hexagon_flats}
        if shape not in sizes:
            raise ValueError(f"unknown Jutsu shape {shape!r}")
        return sizes[shape]


@dataclass(frozen=True)
class Components:
    terrain: tuple[TerrainCard, ...]
    floorboards: tuple[Floorboard, ...]
    ninjas: tuple[Ninja, ...]
    bansen: tuple[Bansen, ...]
    jutsu: Jutsu
    dice: Dice
    physics: Physics


def kind_id(colour: str, shape: str) -> str:
    return colour[0] + shape[0]


@lru_cache(maxsize=1024)
def _cells(rows: tuple[str, ...], char: str) -> frozenset[Space]:
    return frozenset((c, r) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == char)


@lru_cache(maxsize=256)
def _invert(rows: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(row.translate(str.maketrans("LS", "SL")) for row in rows)


def _grid(raw: Any, alphabet: str, where: str) -> tuple[str, ...]:
    if not (isinstance(raw, list) and len(raw) == 3 and all(isinstance(r, str) and len(r) == 3 for r in raw)):
        raise ContentError(f"{where}: needs 3 strings of 3 characters")
    if any(ch not in alphabet for row in raw for ch in row):
        raise ContentError(f"{where}: only {', '.join(alphabet)} allowed")
    return tuple(raw)


def _collinear(points: Iterable[Space]) -> bool:
    pts = sorted(points)
    if len(pts) < 3:
        return True
    (x0, y0), (x1, y1) = pts[0], pts[-1]
    return all((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0) == 0 for x, y in pts)


def _int(raw: Any, lo: int, hi: int, where: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not lo <= raw <= hi:
        raise ContentError(f"{where}: must be an integer {lo}..{hi}, not {raw!r}")
    return raw


def _number(raw: Any, lo: float, hi: float, where: str) -> float:
    ok = isinstance(raw, int | float) and not isinstance(raw, bool) and math.isfinite(raw) and lo < raw <= hi
    if not ok:
        raise ContentError(f"{where}: must be a number in ({lo}, {hi}], not {raw!r}")
    return float(raw)


def _entries(doc: dict[str, Any], key: str) -> list[Any]:
    raw = doc.get(key)
    if not isinstance(raw, list) or len(raw) != COUNTS[key]:
        raise ContentError(f"{key}: needs a list of exactly {COUNTS[key]}")
    return raw


def _keys(raw: Any, keys: set[str], where: str, optional: frozenset[str] = frozenset()) -> dict[str, Any]:
    if not isinstance(raw, dict) or not keys <= set(raw) <= keys | optional:
        raise ContentError(f"{where}: keys are {', '.join(sorted(keys | optional))}")
    return raw


def _unique(ids: list[str], where: str) -> None:
    seen = [i for n, i in enumerate(ids) if i in ids[:n]]
    if seen:
        raise ContentError(f"{where}: duplicate ids {sorted(set(seen))}")


def parse_terrain(doc: dict[str, Any]) -> tuple[TerrainCard, ...]:
    out = []
    for i, raw in enumerate(_entries(doc, "terrain")):
        raw = _keys(raw, {"id", "terrain", "lake"}, f"terrain[{i}]")
        if not isinstance(raw["id"], str) or not TERRAIN_ID.match(raw["id"]):
            raise ContentError(f"terrain[{i}]: bad id {raw['id']!r} (t01, t02, …)")
        for side in SIDES:
            _terrain_side(_grid(raw[side], "LW", f"terrain {raw['id']} {side}"), side, f"terrain {raw['id']} {side}")
        out.append(TerrainCard(raw["id"], tuple(raw["terrain"]), tuple(raw["lake"])))
    _unique([t.id for t in out], "terrain")
    return tuple(out)


def _terrain_side(rows: tuple[str, ...], side: str, where: str) -> None:
    # Collinearity first: a board over only collinear Jutsu could never balance with a margin.
    if _collinear(_cells(rows, "L")):
        raise ContentError(f"{where}: needs at least 3 land spaces not all in one line")
    water, (lo, hi) = len(_cells(rows, "W")), WATER_RANGE[side]
    if not lo <= water <= hi:
        raise ContentError(f"{where}: {water} water spaces, needs {lo}..{hi}")


def parse_floorboards(doc: dict[str, Any]) -> tuple[Floorboard, ...]:
    out = []
    for i, raw in enumerate(_entries(doc, "floorboards")):
        raw = _keys(raw, {"id", "pattern"}, f"floorboards[{i}]")
        if not isinstance(raw["id"], str) or not BOARD_ID.match(raw["id"]):
            raise ContentError(f"floorboards[{i}]: bad id {raw['id']!r} (f01, f02, …)")
        board = Floorboard(raw["id"], _grid(raw["pattern"], "LS", f"floorboard {raw['id']}"))
        light = len(board.light())
        if not LIGHT_RANGE[0] <= light <= LIGHT_RANGE[1]:
            raise ContentError(f"floorboard {board.id}: {light} light spaces, needs {LIGHT_RANGE[0]}..{LIGHT_RANGE[1]}")
        out.append(board)
    _unique([b.id for b in out], "floorboards")
    _distinct_boards(out)
    return tuple(out)


def _canonical(board: Floorboard) -> tuple[str, ...]:
    return min(board.pattern(back, turns) for back in (False, True) for turns in range(4))


def _distinct_boards(boards: list[Floorboard]) -> None:
    seen: dict[tuple[str, ...], str] = {}
    for board in boards:
        key = _canonical(board)
        if key in seen:
            raise ContentError(f"floorboard {board.id}: same as {seen[key]} turned or flipped")
        seen[key] = board.id


def parse_ninjas(doc: dict[str, Any]) -> tuple[Ninja, ...]:
    out = []
    for i, raw in enumerate(_entries(doc, "ninjas")):
        raw = _keys(raw, {"id", "colour"}, f"ninjas[{i}]", frozenset({"name"}))
        if not isinstance(raw["id"], str) or not ID.match(raw["id"]):
            raise ContentError(f"ninjas[{i}]: bad id {raw['id']!r}")
        if raw["colour"] not in NINJA_COLOURS:
            raise ContentError(f"ninja {raw['id']}: colour must be one of {NINJA_COLOURS}")
        out.append(Ninja(raw["id"], raw["colour"], _names(raw.get("name", {}), f"ninja {raw['id']}")))
    _unique([n.id for n in out], "ninjas")
    for colour in NINJA_COLOURS:
        if sum(n.colour == colour for n in out) != 2:
            raise ContentError(f"ninjas: needs exactly 2 {colour} ninjas")
    return tuple(out)


def _names(raw: Any, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, dict) or not all(isinstance(k, str) and isinstance(v, str) and v for k, v in raw.items()):
        raise ContentError(f"{where}: name must map locales to non-empty texts")
    return tuple(sorted(raw.items()))


def parse_bansen(doc: dict[str, Any], ninjas: tuple[Ninja, ...]) -> tuple[Bansen, ...]:
    out = []
    for i, raw in enumerate(_entries(doc, "bansen")):
        raw = _keys(raw, {"id", "ninja", "number", "direction"}, f"bansen[{i}]")
        if not isinstance(raw["id"], str) or not ID.match(raw["id"]):
            raise ContentError(f"bansen[{i}]: bad id {raw['id']!r}")
        if raw["ninja"] not in {n.id for n in ninjas}:
            raise ContentError(f"bansen {raw['id']}: unknown ninja {raw['ninja']!r}")
        if raw["direction"] not in DIRECTIONS:
            raise ContentError(f"bansen {raw['id']}: direction must be one of {DIRECTIONS}")
        number = _int(raw["number"], 1, BANSEN_PER_NINJA, f"bansen {raw['id']} number")
        out.append(Bansen(raw["id"], raw["ninja"], number, raw["direction"]))
    _unique([b.id for b in out], "bansen")
    for ninja in ninjas:
        _ninja_bansen(ninja.id, [b for b in out if b.ninja == ninja.id])
    return tuple(out)


def _ninja_bansen(ninja: str, mine: list[Bansen]) -> None:
    if sorted(b.number for b in mine) != list(range(1, BANSEN_PER_NINJA + 1)):
        raise ContentError(f"bansen of {ninja}: needs one each numbered 1..{BANSEN_PER_NINJA}")
    if sum(b.direction == "cw" for b in mine) != BANSEN_PER_NINJA // 2:
        raise ContentError(f"bansen of {ninja}: needs {BANSEN_PER_NINJA // 2} clockwise and the rest counter-clockwise")


def parse_jutsu(doc: dict[str, Any]) -> Jutsu:
    raw = _keys(doc.get("jutsu"), {"colours", "shapes", "per_kind", "walks_on"}, "jutsu")
    if raw["colours"] != list(JUTSU_COLOURS):
        raise ContentError(f"jutsu: colours must be {list(JUTSU_COLOURS)}")
    if raw["shapes"] != list(SHAPES):
        raise ContentError(f"jutsu: shapes must be {list(SHAPES)}")
    walks = raw["walks_on"]
    if not isinstance(walks, dict) or set(walks) != set(NINJA_COLOURS) or sorted(walks.values()) != sorted(
            JUTSU_COLOURS):
        raise ContentError("jutsu: walks_on must map light and shadow to the two Jutsu colours")
    per_kind = _int(raw["per_kind"], 1, 99, "jutsu per_kind")
    return Jutsu(JUTSU_COLOURS, SHAPES, per_kind, tuple(sorted(walks.items())))


def parse_dice(doc: dict[str, Any], kinds: tuple[str, ...]) -> Dice:
    raw = _keys(doc.get("dice"), {"count", "faces"}, "dice")
    count = _int(raw["count"], 1, 6, "dice count")
    faces = raw["faces"]
    if not isinstance(faces, list) or sorted(faces) != sorted(kinds):
        raise ContentError(f"dice: faces must be the 6 Jutsu kinds {list(kinds)} once each")
    return Dice(count, tuple(faces))


def parse_physics(doc: dict[str, Any]) -> Physics:
    raw = _keys(doc.get("physics"), {"board_weight", "jutsu_weight", "ninja_weight", "footprint", "offset",
                                     "min_margin", "shaky_below", "shaky_max"}, "physics")
    feet = _keys(raw["footprint"], set(SHAPES), "physics footprint")
    # Each footprint's bounding box must fit a 1×1 space: square side, triangle side, hexagon across corners.
    square = _number(feet["square"], 0, 1, "physics footprint square")
    triangle = _number(feet["triangle"], 0, 1, "physics footprint triangle")
    hexagon = _number(feet["hexagon"], 0, math.sqrt(3) / 2, "physics footprint hexagon")
    weights = [_number(raw[k], 0, 100, f"physics {k}") for k in ("board_weight", "jutsu_weight", "ninja_weight")]
    offset = _number(raw["offset"], 0, 0.5, "physics offset")
    min_margin = _number(raw["min_margin"], 0, 0.5, "physics min_margin")
    shaky_below = _number(raw["shaky_below"], min_margin, 0.5, "physics shaky_below (above min_margin)")
    shaky_max = _number(raw["shaky_max"], 0, 1, "physics shaky_max")
    return Physics(*weights, square, triangle, hexagon, offset, min_margin, shaky_below, shaky_max)


def parse(doc: Any) -> Components:
    if not isinstance(doc, dict) or not isinstance(doc.get("note"), str) or "fan-made" not in doc["note"].lower():
        raise ContentError("components.json: a top-level note must say the layouts are fan-made")
    ninjas = parse_ninjas(doc)
    jutsu = parse_jutsu(doc)
    kinds = tuple(kind_id(c, s) for c in jutsu.colours for s in jutsu.shapes)
    return Components(parse_terrain(doc), parse_floorboards(doc), ninjas, parse_bansen(doc, ninjas), jutsu,
                      parse_dice(doc, kinds), parse_physics(doc))


def load() -> Any:
    return json.loads((DATA / "components.json").read_text(encoding="utf-8"))


BOX: Components = parse(load())
TERRAIN: tuple[TerrainCard, ...] = BOX.terrain
FLOORBOARDS: tuple[Floorboard, ...] = BOX.floorboards
NINJAS: tuple[Ninja, ...] = BOX.ninjas
BANSEN: tuple[Bansen, ...] = BOX.bansen
JUTSU: Jutsu = BOX.jutsu
DICE: Dice = BOX.dice
PHYSICS: Physics = BOX.physics
JUTSU_KINDS: tuple[str, ...] = tuple(kind_id(c, s) for c in JUTSU.colours for s in JUTSU.shapes)
KIND_COLOUR: dict[str, str] = {kind_id(c, s): c for c in JUTSU.colours for s in JUTSU.shapes}
KIND_SHAPE: dict[str, str] = {kind_id(c, s): s for c in JUTSU.colours for s in JUTSU.shapes}
COLOUR_OF_NINJA: dict[str, str] = {n.id: n.colour for n in NINJAS}
WALKS_ON: dict[str, str] = dict(JUTSU.walks_on)
TERRAIN_BY_ID: dict[str, TerrainCard] = {t.id: t for t in TERRAIN}
FLOORBOARD_BY_ID: dict[str, Floorboard] = {b.id: b for b in FLOORBOARDS}
NINJA_BY_ID: dict[str, Ninja] = {n.id: n for n in NINJAS}
BANSEN_BY_ID: dict[str, Bansen] = {b.id: b for b in BANSEN}
