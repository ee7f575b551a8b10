"""The balance model: a small, deterministic statics check that replaces the players' hands.

Coordinates are map coordinates: space ``(col, row)`` has its centre at ``(col + 0.5, row + 0.5)``, y grows
DOWNWARD, north is −y, east is +x. "Clockwise" is as seen on the image: a quarter turn maps an offset ``(dx, dy)``
to ``(-dy, dx)``. Points are plain ``(x, y)`` tuples; shapely (GEOS) does hulls and distances; the hot margin and
overlap questions are answered in plain floats that give GEOS's answers (GEOS decides the doubtful cases).

Decisions:

- A Jutsu sits at its space centre or moved by ``physics.offset`` along each axis its offset names (diagonals move
  on both axes). The rulebook says a piece lies *fully within* one space, so the move is clamped per axis to keep
  the footprint inside the 1×1 space: a triangle (side 0.6, centroid at the position) moved north can only go
  0.5 − 0.2√3 ≈ 0.154 (its apex is 0.346 above its centroid), east/west 0.2; a hexagon 0.5 − 0.52/√3
  ≈ 0.1998 east/west and 0.24 north/south; a square the full 0.25. Clamps are floored to the 1e-9 grid.
- Footprints have a fixed orientation: square axis-aligned, triangle pointing north, hexagon with flat top and
  bottom. The support polygon is the convex hull of all footprint corners of the Jutsu under a board.
- Positions are snapped to a 1e-9 grid (``rotate``, ``jutsu_position``, hull vertices) and margins and centres of
  mass are rounded to 1e-9, so that rotations are exactly reversible and results do not depend on the platform
  or on the order of the pieces (``math.fsum``).
- The margin is the signed distance from the centre of mass to the hull boundary, positive inside. A degenerate
  hull (a point or a segment) has no inside, so its margin is minus the distance (0 on it); no hull is ``-inf``.
  A board is stable iff margin >= ``physics.min_margin``, so a centre of mass on the edge (margin 0) falls.
- Hulls are cached by their rounded, sorted corner set: supports rarely change while loads move every step.
  Every function here is pure, so the hot ones (positions, footprints, overlaps, whole balance checks) are
  memoised on their immutable inputs in bounded LRU caches: a turn's previews ask the same questions again and
  again (issue 25). Footprints whose bounding boxes share no area cannot overlap; the others are clipped in
  plain floats (`_convex_overlap_area`), and only an area within float noise of the threshold asks GEOS.
- Footprints overlap when they share area; an intersection under 1e-9 (float noise) counts as touching.
- A ninja meeple's base is a square of side ``NINJA_BASE`` (0.25 of a space: a meeple stands on about a quarter of
  a space's width), used only to decide whether a piece arriving in its space touches it and must nudge it
  (the rulebook's nudge); its weight acts at its position. ``footprint("ninja", …)`` and
  ``jutsu_position(…, "ninja", offset)`` treat it like a Jutsu shape.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from rules.floating_floors.components import PHYSICS, Physics

Point = tuple[float, float]

OFFSETS = ("c", "n", "ne", "e", "se", "s", "sw", "w", "nw")
DIRECTION: dict[str, tuple[int, int]] = {
    "c": (0, 0), "n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1),
    "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1),
}
OFFSET_OF: dict[tuple[int, int], str] = {v: k for k, v in DIRECTION.items()}
GRID = 9  # decimal places of the snapping grid
# The geometry LRUs are sized for the bot's main process (bots think in the render workers, which are recycled):
# its moves and menu previews over an 11,000-move soak hit 96-99% at this bound against 98-99% unbounded, and a
# cache that never fills keeps growing the process (`python -m tools.cache_sizing`; docs/benchmarks.md, memory).
MAIN_WORKING_SET = 512
OVERLAP_AREA = 1e-9
SQRT3 = math.sqrt(3)
NINJA = "ninja"  # the footprint "shape" of a ninja meeple
NINJA_BASE = 0.25  # not in components.json: the box gives no meeple size and no rule depends on it but nudging


def _snap(value: float) -> float:
    return round(value, GRID) + 0.0  # + 0.0 turns -0.0 into 0.0


def _snap_point(point: Sequence[float]) -> Point:
    return (_snap(point[0]), _snap(point[1]))


def footprint(shape: str, centre: Point, physics: Physics = PHYSICS) -> tuple[Point, ...]:
    """The corners of a Jutsu's footprint, in a fixed orientation, around ``centre``."""
    if physics is PHYSICS:  # the box's physics: memoised (hashing a Physics per call would cost more than it saves)
        return _footprint(shape, (centre[0], centre[1]))
    return _corners(shape, centre, physics)


@lru_cache(maxsize=MAIN_WORKING_SET)
def _footprint(shape: str, centre: Point) -> tuple[Point, ...]:
    return _corners(shape, centre, PHYSICS)


def _corners(shape: str, centre: Point, physics: Physics) -> tuple[Point, ...]:
    x, y = centre
    if shape == NINJA:
        h = NINJA_BASE / 2
        return ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h))
    size = physics.size(shape)
    if shape == "square":
        h = size / 2
        return ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h))
    if shape == "triangle":
        height = size * SQRT3 / 2  # centroid is height/3 above the base, 2·height/3 below the apex
        return ((x, y - 2 * height / 3), (x + size / 2, y + height / 3), (x - size / 2, y + height / 3))
    radius = size / SQRT3  # hexagon: across flats = size, circumradius = size/√3; corners left and right
    h = size / 2
    return ((x - radius, y), (x - radius / 2, y - h), (x + radius / 2, y - h), (x + radius, y),
            (x + radius / 2, y + h), (x - radius / 2, y + h))


@lru_cache(maxsize=64)
def _room(shape: str, physics: Physics) -> tuple[float, float, float, float]:
    """How far a footprint may move (west, east, north, south) from the centre and stay within its space."""
    corners = footprint(shape, (0.0, 0.0), physics)
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    west, east, north, south = (max(0.0, math.floor(r * 10**GRID) / 10**GRID)  # floored: never past the edge
                                for r in (0.5 + min(xs), 0.5 - max(xs), 0.5 + min(ys), 0.5 - max(ys)))
    return west, east, north, south


def jutsu_position(space: tuple[int, int], shape: str, offset: str, physics: Physics = PHYSICS) -> Point:
    """The centre of a Jutsu on ``space`` moved toward ``offset``, clamped per axis to stay fully within it."""
    if offset not in DIRECTION:
        raise ValueError(f"offset must be one of {OFFSETS}, not {offset!r}")
    if physics is PHYSICS:
        return _position((space[0], space[1]), shape, offset)
    return _place(space, shape, offset, physics)


@lru_cache(maxsize=MAIN_WORKING_SET)  # of 81 spaces × 4 shapes × 9 offsets
def _position(space: tuple[int, int], shape: str, offset: str) -> Point:
    return _place(space, shape, offset, PHYSICS)


def _place(space: tuple[int, int], shape: str, offset: str, physics: Physics) -> Point:
    dx, dy = DIRECTION[offset]
    west, east, north, south = _room(shape, physics)
    move_x = min(physics.offset, east if dx > 0 else west) * dx
    move_y = min(physics.offset, south if dy > 0 else north) * dy
    return _snap_point((space[0] + 0.5 + move_x, space[1] + 0.5 + move_y))


def rotate_offset(offset: str, quarter_turns_cw: int) -> str:
    """The offset name after turning its board: n → e → s → w for clockwise quarter turns."""
    dx, dy = DIRECTION[offset]
    for _ in range(quarter_turns_cw % 4):
        dx, dy = -dy, dx
    return OFFSET_OF[(dx, dy)]


def overlaps(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Do two footprints share area? Touching edges or corners is fine."""
    try:
        return _overlaps(a, b)  # type: ignore[arg-type]
    except TypeError:  # lists (unhashable): the same question as tuples
        return _overlaps(tuple(map(tuple, a)), tuple(map(tuple, b)))


@lru_cache(maxsize=2 * MAIN_WORKING_SET)
def _overlaps(a: tuple[Point, ...], b: tuple[Point, ...]) -> bool:
    ax, ay, bx, by = [p[0] for p in a], [p[1] for p in a], [p[0] for p in b], [p[1] for p in b]
    if max(ax) <= min(bx) or max(bx) <= min(ax) or max(ay) <= min(by) or max(by) <= min(ay):
        return False  # bounding boxes with no common area: neither have the footprints (no GEOS call)
    area = _convex_overlap_area(a, b)
    if area is None or abs(area - OVERLAP_AREA) <= _AREA_DOUBT:
        return _geos_overlaps(a, b)
    return area > OVERLAP_AREA


def _geos_overlaps(a: tuple[Point, ...], b: tuple[Point, ...]) -> bool:
    return bool(shapely.area(shapely.intersection(_polygon(a), _polygon(b))) > OVERLAP_AREA)


# How far from the 1e-9 threshold a plain-float area must be to decide on its own. Map coordinates stay under ~20,
# so the clip's rounding error is a few 1e-14 at worst, GEOS's no larger: any area this far from the threshold is
# on the same side of it both ways, and the rest (touching within float noise of 1e-9) asks GEOS.
_AREA_DOUBT = 1e-11


def _convex_overlap_area(a: tuple[Point, ...], b: tuple[Point, ...]) -> float | None:
    """The area two footprints share, in plain floats (Sutherland–Hodgman: ``a`` clipped by each edge of
    ``b``, then the shoelace; ``a`` may be any simple polygon), or None if ``b`` is not a convex polygon with area
    (GEOS decides those). A seventh of the GEOS call's cost, which every overlap a placement, a legal list or a
    reset asks paid (issue 25)."""
    clip = _counter_clockwise(b)
    if clip is None:
        return None
    out = list(a)
    ax, ay = clip[-1]
    for bx, by in clip:
        ex, ey = bx - ax, by - ay
        points, out = out, []
        if not points:
            return 0.0
        px, py = points[-1]
        p_side = ex * (py - ay) - ey * (px - ax)
        for qx, qy in points:
            q_side = ex * (qy - ay) - ey * (qx - ax)
            if (q_side >= 0.0) != (p_side >= 0.0):  # the edge's line crosses p→q: keep where it does
                t = p_side / (p_side - q_side)
                out.append((px + t * (qx - px), py + t * (qy - py)))
            if q_side >= 0.0:
                out.append((qx, qy))
            px, py, p_side = qx, qy, q_side
        ax, ay = bx, by
    if len(out) < 3:
        return 0.0
    twice = 0.0
    px, py = out[-1]
    for qx, qy in out:
        twice += px * qy - qx * py
        px, py = qx, qy
    return abs(twice) / 2


def _counter_clockwise(corners: tuple[Point, ...]) -> tuple[Point, ...] | None:
    """``corners`` turning left at every corner (reversed if they turn right), or None if they are not a convex
    polygon with area: the clip's "inside" is left of each edge."""
    if len(corners) < 3:
        return None
    left = right = False
    (ax, ay), (bx, by) = corners[-2], corners[-1]
    for cx, cy in corners:
        turn = (bx - ax) * (cy - by) - (by - ay) * (cx - bx)
        left, right = left or turn > 0, right or turn < 0
        (ax, ay), (bx, by) = (bx, by), (cx, cy)
    if left == right:  # both (not convex) or neither (collinear)
        return None
    return corners if left else corners[::-1]


def _polygon(corners: Sequence[Point]) -> BaseGeometry:
    """``Polygon(corners)`` without the class constructor's checks: the same ring, closed the same way."""
    return shapely.polygons(np.asarray(corners, dtype=float))


def support_polygon(footprints: Sequence[Sequence[Point]]) -> tuple[Point, ...]:
    """Convex hull vertices of all footprint corners: (), 1 point, 2 points (a segment) or a polygon.

    Polygon vertices come without the closing repeat, counter-clockwise as seen on the image (y down), which is
    clockwise in shapely's y-up sense: the order GEOS gives, forced so it cannot change with the GEOS version.
    """
    corners = tuple(sorted({_snap_point(p) for fp in footprints for p in fp}))
    return _hull(corners)


def _convex_hull(points: Sequence[Point]) -> BaseGeometry:
    """``MultiPoint(points).convex_hull`` without a shapely ``Point`` object per point (the class constructor
    makes one each, ~4× the hull's own cost): the same coordinates, the same GEOS hull."""
    return shapely.convex_hull(shapely.multipoints(np.asarray(points, dtype=float)))


# Small: `_support` keeps each support set's hull, so the same corners rarely come twice (58 hits in 2,640 asks
# over 1,500 moves of six games); entries that never hit only grow the process.
@lru_cache(maxsize=256)
def _hull(corners: tuple[Point, ...]) -> tuple[Point, ...]:
    if not corners:
        return ()
    hull = _convex_hull(corners)
    if isinstance(hull, Polygon):
        return tuple(_snap_point(p) for p in orient(hull, sign=-1.0).exterior.coords[:-1])
    return tuple(_snap_point(p) for p in hull.coords)


# Small: a balance check's margin no longer asks for it (`_hull_margin`); only `signed_margin` on a point, a
# segment or a collinear hull does. Each entry holds GEOS geometries.
@lru_cache(maxsize=256)
def _geometry(hull: tuple[Point, ...]) -> tuple[BaseGeometry, BaseGeometry | None]:
    """The hull as a geometry, and its boundary ring if it is a polygon (kept: ``exterior`` makes a new ring each
    time it is read)."""
    # Re-hulling is cheap and makes a caller's collinear "polygon" a LineString, which has no inside.
    geometry = _convex_hull(hull)
    return geometry, (geometry.exterior if isinstance(geometry, Polygon) else None)


def signed_margin(hull: Sequence[Point], point: Point) -> float:
    """Distance from ``point`` to the hull's boundary: positive inside, negative outside, 0 on the edge.

    A point or segment hull gives minus the distance to it; an empty hull gives ``-inf``.
    """
    if not hull:
        return -math.inf
    geometry, ring = _geometry(tuple((float(x), float(y)) for x, y in hull))
    target = shapely.points(point)  # the same Point, without the class constructor's checks
    if ring is None:
        return -geometry.distance(target)
    distance = ring.distance(target)  # Polygon.distance is 0 for any inside point
    return distance if shapely.covers(geometry, target) else -distance


def centre_of_mass(loads: Sequence[tuple[Point, float]]) -> tuple[Point, float]:
    """Weighted mean position and total weight; ``math.fsum`` so the piece order cannot change the bits."""
    total = math.fsum(w for _, w in loads)
    if total <= 0:
        raise ValueError("centre of mass needs a positive total weight")
    x = math.fsum(p[0] * w for p, w in loads) / total
    y = math.fsum(p[1] * w for p, w in loads) / total
    return (x, y), total


def rotate(point: Point, centre: Point, quarter_turns_cw: int) -> Point:
    """Turn ``point`` about ``centre`` by quarter turns, clockwise on the image (negative = counter-clockwise).

    Integer formulas (no sin/cos) and the 1e-9 snap make four turns exactly the identity.
    """
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    for _ in range(quarter_turns_cw % 4):
        dx, dy = -dy, dx
    return _snap_point((centre[0] + dx, centre[1] + dy))


@dataclass(frozen=True)
class Balance:
    stable: bool
    margin: float  # rounded to 1e-9; -inf when nothing supports the board
    centre: Point  # combined centre of mass, rounded to 1e-9
    load: float  # total weight, the board's own included
    support: tuple[Point, ...]  # the support polygon (see support_polygon)


def balance(board_centre: Point, supports: Sequence[tuple[str, Point]], loads: Sequence[tuple[Point, float]],
            physics: Physics = PHYSICS) -> Balance:
    """Is a board stable? Its own weight acts at ``board_centre``; ``loads`` are (position, weight) on top.

    ``supports`` are (shape, centre) of the Jutsu beneath it. Stable iff the margin is at least ``min_margin``.
    """
    if physics is PHYSICS:
        return _balance((board_centre[0], board_centre[1]), tuple((shape, (at[0], at[1])) for shape, at in supports),
                        tuple(((p[0], p[1]), w) for p, w in loads))
    return _balanced(board_centre, supports, loads, physics)


def balance_of_tuples(board_centre: Point, supports: tuple[tuple[str, Point], ...],
                      loads: tuple[tuple[Point, float], ...]) -> Balance:
    """`balance` (the box's physics) for inputs already in its cache's form: tuples of ``(shape, (x, y))`` and
    ``((x, y), weight)`` (the hot previews build them so; no copy to make)."""
    return _balance(board_centre, supports, loads)


@lru_cache(maxsize=MAIN_WORKING_SET)  # a turn's previews ask a few hundred; each entry ~1-2 KB
def _balance(board_centre: Point, supports: tuple[tuple[str, Point], ...], loads: tuple[tuple[Point, float], ...]
             ) -> Balance:
    return _balanced(board_centre, supports, loads, PHYSICS)


@lru_cache(maxsize=MAIN_WORKING_SET // 2)
def _support(supports: tuple[tuple[str, Point], ...]) -> tuple[Point, ...]:
    return support_polygon([footprint(shape, at) for shape, at in supports])


def _balanced(board_centre: Point, supports: Sequence[tuple[str, Point]], loads: Sequence[tuple[Point, float]],
              physics: Physics) -> Balance:
    (x, y), total = centre_of_mass([(board_centre, physics.board_weight), *loads])
    centre = _snap_point((x, y))
    hull = _support(tuple(supports)) if physics is PHYSICS else \
        support_polygon([footprint(shape, at, physics) for shape, at in supports])
    margin = _hull_margin(hull, centre)
    margin = margin if math.isinf(margin) else _snap(margin)
    return Balance(margin >= physics.min_margin, margin, centre, total, hull)


def _hull_margin(hull: tuple[Point, ...], point: Point) -> float:
    """`signed_margin` for a hull `support_polygon` made (convex, its own hull), in plain floats: the distance is
    GEOS's own point-to-segment formula (``Distance::pointToSegment``), so the value is the same to the bit, and
    its sign comes from the edges' cross products. Half the cost of the GEOS calls, on every balance check a
    preview makes (tests/rules/test_floating_floors_statics.py checks it against `signed_margin`). A point, a
    segment or a hull with no area goes the GEOS way."""
    if len(hull) < 3:
        return signed_margin(hull, point)
    px, py = point
    best, inside, outside, area = math.inf, False, False, 0.0
    ax, ay = hull[-1]
    for bx, by in hull:
        dx, dy = bx - ax, by - ay
        len2 = dx * dx + dy * dy
        r = ((px - ax) * dx + (py - ay) * dy) / len2 if len2 else 0.0
        if r <= 0.0:
            d = math.sqrt((px - ax) * (px - ax) + (py - ay) * (py - ay))
        elif r >= 1.0:
            d = math.sqrt((px - bx) * (px - bx) + (py - by) * (py - by))
        else:
            d = abs(((ay - py) * dx - (ax - px) * dy) / len2) * math.sqrt(len2)
        best = min(best, d)
        cross = dx * (py - ay) - dy * (px - ax)
        inside, outside = inside or cross > 0, outside or cross < 0
        area += ax * by - bx * ay
        ax, ay = bx, by
    if area == 0.0:  # collinear corners: GEOS makes it a segment, whose "inside" is empty
        return signed_margin(hull, point)
    return -best if inside and outside else best


def collapse_chance(margin: float, physics: Physics = PHYSICS, shaky_below: float | None = None) -> float:
    """"Shaky hands": the chance that a check with this margin collapses anyway.

    With lo = ``min_margin``, hi = ``shaky_below`` (the physics' own unless given: ``tension=bands`` uses
    `BAND_SHAKY_BELOW`) and t = (hi − margin) / (hi − lo): 0 when margin >= hi; 1.0 when margin < lo (it falls by
    statics); otherwise ``shaky_max · (3t² − 2t³)`` (smoothstep: flat at both ends, so it grows smoothly from 0
    at hi to ``shaky_max`` at lo).
    """
    lo, hi = physics.min_margin, physics.shaky_below if shaky_below is None else shaky_below
    if margin >= hi:
        return 0.0
    if margin < lo:
        return 1.0
    t = (hi - margin) / (hi - lo)
    return physics.shaky_max * (3 * t * t - 2 * t ** 3)


# ``tension=bands``: a check is shown only as its band, and a shaky one may fall (the curve above, up to this
# margin). tools/ff_tension_sim.py measured 0.15, 0.2 (the shaky-hands threshold) and 0.3: 0.15 puts a collapse in
# nearly every game without making games longer; 0.2 and 0.3 lengthen them 10–32% (docs/floating_floors.md).
BAND_SHAKY_BELOW = 0.15
BANDS = ("safe", "shaky", "falls")


def band(margin: float | None, physics: Physics = PHYSICS, shaky_below: float = BAND_SHAKY_BELOW) -> str:
    """"safe", "shaky" (it stands but may fall: margin below ``shaky_below``) or "falls" (by statics; None and
    -inf, no support at all, fall too)."""
    if margin is None or margin < physics.min_margin:
        return "falls"
    return "shaky" if margin < shaky_below else "safe"
