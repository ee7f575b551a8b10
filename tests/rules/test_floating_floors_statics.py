"""The balance model, on hand-computed cases and hypothesis properties.

Every case uses the board over card (0, 0): spaces (0..2, 0..2), board centre B = (1.5, 1.5), board weight 6,
ninja 3, Jutsu 1, square side 0.5, triangle side 0.6, hexagon across flats 0.52, min margin 0.05.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import MultiPoint, Polygon
from shapely.geometry import Point as ShapelyPoint

from rules.floating_floors.statics import (
    OFFSETS,
    Point,
    balance,
    centre_of_mass,
    collapse_chance,
    footprint,
    jutsu_position,
    overlaps,
    rotate,
    rotate_offset,
    signed_margin,
    support_polygon,
)
from rules.floating_floors.statics import _convex_overlap_area as _convex_overlap_area
from rules.floating_floors.statics import _geos_overlaps as _geos_overlaps
from rules.floating_floors.statics import _hull_margin as _hull_margin
from rules.floating_floors.statics import _overlaps as _overlaps

B: Point = (1.5, 1.5)
NINJA, JUTSU = 3.0, 1.0
SQRT3 = math.sqrt(3)


def square_at(space: tuple[int, int], offset: str = "c") -> tuple[str, Point]:
    return "square", jutsu_position(space, "square", offset)


# --- footprints and positions -------------------------------------------------------------------------------------

def test_footprints_have_the_fixed_orientation_and_size() -> None:
    assert footprint("square", (1.5, 1.5)) == ((1.25, 1.25), (1.75, 1.25), (1.75, 1.75), (1.25, 1.75))
    tri = footprint("triangle", (0.0, 0.0))
    # Height 0.6·√3/2 = 0.519615; apex 2/3 of it north (−y) of the centroid, base 1/3 south, base corners ±0.3.
    assert tri[0] == pytest.approx((0.0, -0.346410162))
    assert [v for corner in sorted(tri[1:]) for v in corner] == pytest.approx([-0.3, 0.173205081, 0.3, 0.173205081])
    hexagon = footprint("hexagon", (0.0, 0.0))
    ys, xs = [p[1] for p in hexagon], [p[0] for p in hexagon]
    # Flat top and bottom: across flats 0.52 vertically, across corners 2·0.52/√3 = 0.600444280 horizontally.
    assert (min(ys), max(ys)) == pytest.approx((-0.26, 0.26))
    assert (min(xs), max(xs)) == pytest.approx((-0.30022214, 0.30022214))


@pytest.mark.parametrize(("shape", "offset", "expected"), [
    ("square", "c", (1.5, 1.5)),
    ("square", "n", (1.5, 1.25)),  # the full 0.25: half side 0.25 + 0.25 = 0.5 reaches the edge exactly
    ("square", "se", (1.75, 1.75)),
    ("triangle", "n", (1.5, 1.346410162)),  # room north 0.5 − 0.2√3 = 0.153589838
    ("triangle", "s", (1.5, 1.75)),  # room south 0.5 − 0.1√3 = 0.326794919 > 0.25
    ("triangle", "e", (1.7, 1.5)),  # room east 0.5 − 0.3 = 0.2
    ("triangle", "nw", (1.3, 1.346410162)),
    ("hexagon", "n", (1.5, 1.26)),  # room north 0.5 − 0.26 = 0.24
    ("hexagon", "w", (1.30022214, 1.5)),  # room west 0.5 − 0.52/√3 = 0.5 − 0.30022214 = 0.19977786
    ("hexagon", "se", (1.69977786, 1.74)),
])
def test_jutsu_offsets_are_clamped_to_stay_fully_within_the_space(shape: str, offset: str, expected: Point) -> None:
    assert jutsu_position((1, 1), shape, offset) == pytest.approx(expected, abs=2e-9)


@pytest.mark.parametrize("shape", ["square", "triangle", "hexagon"])
@pytest.mark.parametrize("offset", OFFSETS)
def test_every_jutsu_position_keeps_its_footprint_in_its_space(shape: str, offset: str) -> None:
    corners = footprint(shape, jutsu_position((4, 7), shape, offset))
    assert all(4 <= x <= 5 and 7 <= y <= 8 for x, y in corners)


def test_an_unknown_offset_is_refused() -> None:
    with pytest.raises(ValueError, match="offset"):
        jutsu_position((0, 0), "square", "up")


def test_overlaps_needs_shared_area_and_touching_is_fine() -> None:
    centre, north = footprint("square", (1.5, 1.5)), footprint("square", (1.5, 1.25))
    west, east = footprint("square", (1.25, 1.5)), footprint("square", (1.75, 1.5))
    nw, se = footprint("square", (1.25, 1.25)), footprint("square", (1.75, 1.75))
    assert overlaps(centre, north)  # y 1.25..1.75 and 1.0..1.5 share a 0.5×0.25 strip
    assert overlaps(footprint("triangle", (1.5, 1.5)), centre)
    assert not overlaps(west, east)  # x 1.0..1.5 and 1.5..2.0 touch along x = 1.5
    assert not overlaps(nw, se)  # touch at the corner (1.5, 1.5)
    assert not overlaps(centre, footprint("square", (5.5, 5.5)))


# --- rotation -----------------------------------------------------------------------------------------------------

def test_a_quarter_turn_clockwise_on_the_image_takes_east_to_south() -> None:
    assert rotate((1.0, 0.0), (0.0, 0.0), 1) == (0.0, 1.0)  # (dx, dy) → (−dy, dx); y down, so +y is south
    assert rotate((1.0, 0.0), (0.0, 0.0), -1) == (0.0, -1.0)
    assert rotate((0.5, 0.5), B, 1) == (2.5, 0.5)  # top-left space centre → top-right
    assert rotate_offset("n", 1) == "e" and rotate_offset("ne", 2) == "sw" and rotate_offset("w", -1) == "s"


@pytest.mark.parametrize("point", [(0.1, 0.7), (2.75, 1.346410162), (1.30022214, 0.26), (0.0, 0.0)])
def test_four_quarter_turns_are_exactly_the_identity(point: Point) -> None:
    turned = point
    for _ in range(4):
        turned = rotate(turned, B, 1)
    assert turned == point  # exact, not approx: no float drift


# --- hulls and margins --------------------------------------------------------------------------------------------

def test_a_single_central_square_holds_a_bare_board_with_margin_a_quarter() -> None:
    # Square x, y in 1.25..1.75; COM = B; nearest edge 0.25 away.
    result = balance(B, [square_at((1, 1))], [])
    assert result.stable and result.margin == 0.25 and result.centre == B and result.load == 6
    assert set(result.support) == {(1.25, 1.25), (1.75, 1.25), (1.75, 1.75), (1.25, 1.75)}


def test_two_corner_supports_hold_the_centre_by_the_diagonal_edge() -> None:
    # Squares at (0,0) and (2,2): hull edges (0.75,0.25)→(2.75,2.25) lie on x − y = 0.5, and B is on x = y,
    # so the margin is |0 − 0.5| / √2 = 0.353553391.
    result = balance(B, [square_at((0, 0)), square_at((2, 2))], [])
    assert result.stable and result.margin == pytest.approx(0.5 / math.sqrt(2), abs=1e-9)
    assert len(result.support) == 6


def test_a_ninja_on_a_corner_tips_a_board_held_at_the_centre() -> None:
    # COM = (6·1.5 + 3·0.5) / 9 = 10.5/9 = 1.166667 on both axes; nearest hull point is the corner (1.25, 1.25):
    # margin = −√2 · (1.25 − 1.166667) = −√2/12 = −0.117851130.
    result = balance(B, [square_at((1, 1))], [((0.5, 0.5), NINJA)])
    assert not result.stable
    assert result.margin == pytest.approx(-math.sqrt(2) / 12, abs=1e-9)
    assert result.centre == pytest.approx((7 / 6, 7 / 6), abs=1e-9) and result.load == 9


def test_a_counterweight_jutsu_restores_the_board() -> None:
    # A Jutsu at (2,2) se = (2.75, 2.75): COM = (9 + 1.5 + 2.75) / 10 = 1.325; margin = 1.325 − 1.25 = 0.075.
    weight = jutsu_position((2, 2), "square", "se")
    result = balance(B, [square_at((1, 1))], [((0.5, 0.5), NINJA), (weight, JUTSU)])
    assert result.stable and result.margin == pytest.approx(0.075, abs=1e-9) and result.load == 10


def test_a_margin_of_exactly_the_minimum_is_stable() -> None:
    # The counterweight at the centre of (2,2): COM = (9 + 1.5 + 2.5) / 10 = 1.3; margin 1.3 − 1.25 = 0.05.
    result = balance(B, [square_at((1, 1))], [((0.5, 0.5), NINJA), ((2.5, 2.5), JUTSU)])
    assert result.margin == 0.05 and result.stable  # rounded to 1e-9 before comparing


def test_turning_the_loads_can_tip_a_stable_board() -> None:
    # Supports at (0,1) and (2,1): hull x 0.25..2.75, y 1.25..1.75. A ninja at (0.5, 1.5): COM (1.166667, 1.5),
    # margin min(0.916667, 0.25) = 0.25. One clockwise turn about B moves the ninja to (1.5, 0.5): COM
    # (1.5, 1.166667), 1.25 − 1.166667 = 0.083333 outside the top edge.
    supports = [square_at((0, 1)), square_at((2, 1))]
    ninja = (0.5, 1.5)
    assert balance(B, supports, [(ninja, NINJA)]).margin == 0.25
    turned = rotate(ninja, B, 1)
    assert turned == (1.5, 0.5)
    result = balance(B, supports, [(turned, NINJA)])
    assert not result.stable and result.margin == pytest.approx(-1 / 12, abs=1e-9)


def test_a_centre_of_mass_on_the_hull_edge_falls() -> None:
    # One square at (1,1) e = (1.75, 1.5): x 1.5..2.0, so B sits on its west edge: margin 0 < 0.05.
    result = balance(B, [square_at((1, 1), "e")], [])
    assert result.margin == 0 and not result.stable


def test_supports_in_a_row_hold_only_along_their_strip() -> None:
    # Squares at (0,1), (1,1), (2,1): a 2.5 × 0.5 strip, B 0.25 from its long edges. A ninja at (1,0) centre
    # (1.5, 0.5): COM y = (9 + 1.5)/9 = 1.166667, 0.083333 north of the strip.
    row = [square_at((0, 1)), square_at((1, 1)), square_at((2, 1))]
    assert balance(B, row, []).margin == 0.25
    assert balance(B, row, [((1.5, 0.5), NINJA)]).margin == pytest.approx(-1 / 12, abs=1e-9)


def test_collinear_corners_give_a_segment_hull_with_no_inside() -> None:
    hull = support_polygon([[(0.0, 0.0)], [(1.0, 1.0)], [(2.0, 2.0)]])
    assert sorted(hull) == [(0.0, 0.0), (2.0, 2.0)]
    assert signed_margin(hull, (1.0, 1.0)) == 0  # on the segment
    assert signed_margin(hull, (1.0, 0.0)) == pytest.approx(-math.sqrt(2) / 2)  # distance to x = y
    assert signed_margin(hull, (3.0, 2.0)) == pytest.approx(-1.0)  # beyond the end (2, 2)
    assert support_polygon([[(1.0, 1.0)], [(1.0, 1.0)]]) == ((1.0, 1.0),)
    assert signed_margin(((1.0, 1.0),), (4.0, 5.0)) == pytest.approx(-5.0)  # 3-4-5
    # A caller's collinear "polygon" is treated as the segment it is.
    assert signed_margin(((0.0, 0.0), (1.0, 0.0), (2.0, 0.0)), (1.0, 0.0)) == 0


def test_no_supports_means_it_falls_with_margin_minus_infinity() -> None:
    result = balance(B, [], [])
    assert result.margin == -math.inf and not result.stable and result.support == ()
    assert support_polygon([]) == () and signed_margin((), B) == -math.inf


def test_the_hull_runs_counter_clockwise_on_the_image_without_repeating() -> None:
    hull = support_polygon([footprint("square", (1.5, 1.5))])
    assert len(hull) == 4 and len(set(hull)) == 4
    # Shoelace in y-down coordinates: negative = counter-clockwise as seen on the image.
    area2 = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(hull, hull[1:] + hull[:1], strict=True))
    assert area2 == pytest.approx(-0.5)


def test_the_order_of_loads_does_not_change_the_result() -> None:
    loads = [((0.1, 0.3), 1.0), ((2.9, 0.7), 3.0), ((1.3, 2.2), 1.0)]
    supports = [("triangle", (0.5, 0.5)), ("hexagon", (2.5, 2.3)), ("square", (0.7, 2.5))]
    assert balance(B, supports, loads) == balance(B, supports[::-1], loads[::-1])


def test_centre_of_mass_weights_positions() -> None:
    # (0·1 + 4·3) / 4 = 3 and (0·1 + 8·3) / 4 = 6.
    assert centre_of_mass([((0.0, 0.0), 1.0), ((4.0, 8.0), 3.0)]) == ((3.0, 6.0), 4.0)
    with pytest.raises(ValueError):
        centre_of_mass([])


# --- shaky hands --------------------------------------------------------------------------------------------------

def test_shaky_hands_grow_smoothly_from_nothing_to_half() -> None:
    assert collapse_chance(0.3) == 0 and collapse_chance(0.2) == 0
    # Midway, margin 0.125: t = (0.2 − 0.125) / 0.15 = 0.5, smoothstep 3/4 − 2/8 = 0.5, chance 0.5 · 0.5 = 0.25.
    assert collapse_chance(0.125) == pytest.approx(0.25)
    # t = 0.8 (margin 0.08): 3·0.64 − 2·0.512 = 0.896, chance 0.448.
    assert collapse_chance(0.08) == pytest.approx(0.448)
    assert collapse_chance(0.05) == pytest.approx(0.5)
    assert collapse_chance(0.049) == 1.0 and collapse_chance(-math.inf) == 1.0


# --- properties ---------------------------------------------------------------------------------------------------

SHAPES = st.sampled_from(["square", "triangle", "hexagon"])
SPACES = st.tuples(st.integers(0, 2), st.integers(0, 2))
SUPPORT = st.builds(lambda shape, space, offset: (shape, jutsu_position(space, shape, offset)),
                    SHAPES, SPACES, st.sampled_from(OFFSETS))
COORD = st.floats(-0.5, 3.5, allow_nan=False)
LOAD = st.tuples(st.tuples(COORD, COORD), st.sampled_from([JUTSU, NINJA]))


@settings(max_examples=150, deadline=None)
@given(st.lists(SUPPORT, max_size=5), SUPPORT, st.lists(LOAD, max_size=4))
def test_adding_a_support_never_reduces_the_margin(supports: list, extra: tuple, loads: list) -> None:
    before = balance(B, supports, loads).margin
    after = balance(B, [*supports, extra], loads).margin
    assert after >= before - 2e-9  # both are rounded to 1e-9


def _mirrors(point: Point) -> list[Point]:
    x, y = point
    return [(x, y), (3.0 - x, y), (x, 3.0 - y), (3.0 - x, 3.0 - y)]  # mirror in x = 1.5 and y = 1.5


@settings(max_examples=100, deadline=None)
@given(st.lists(SUPPORT, min_size=1, max_size=3), st.lists(LOAD, max_size=3))
def test_a_symmetric_load_over_symmetric_supports_is_stable(supports: list, loads: list) -> None:
    # The hull of a footprint and its point reflection contains that footprint centred on B, whose boundary is at
    # least the triangle's inradius 0.6/(2√3) = 0.173 from B, and the COM is B: always stable.
    mirrored = [(shape, p) for shape, at in supports for p in _mirrors(at)]
    loaded = [(p, w) for at, w in loads for p in _mirrors(at)]
    result = balance(B, mirrored, loaded)
    assert result.centre == pytest.approx(B, abs=1e-9)
    assert result.stable and result.margin >= 0.6 / (2 * SQRT3) - 1e-9


@settings(max_examples=150, deadline=None)
@given(st.lists(SUPPORT, min_size=1, max_size=4), st.tuples(COORD, COORD))
def test_margin_sign_agrees_with_shapely_covers(supports: list, point: Point) -> None:
    hull = support_polygon([footprint(shape, at) for shape, at in supports])
    margin = signed_margin(hull, point)
    covered = Polygon(hull).covers(ShapelyPoint(point))
    assert covered == MultiPoint(hull).convex_hull.covers(ShapelyPoint(point))
    if margin > 0:
        assert covered
    if margin < 0:
        assert not covered


@settings(max_examples=300, deadline=None)
@given(st.lists(SUPPORT, min_size=1, max_size=5), st.tuples(COORD, COORD))
def test_the_balance_checks_margin_is_geos_margin_to_the_bit(supports: list, point: Point) -> None:
    """`balance` reads a support polygon's margin in plain floats (`_hull_margin`): the same value as the GEOS
    distance and cover test of `signed_margin`, bit for bit, so no check stands or falls differently."""
    hull = support_polygon([footprint(shape, at) for shape, at in supports])
    assert _hull_margin(hull, point) == signed_margin(hull, point)


NEAR = st.builds(lambda space, step: (space[0] + step[0], space[1] + step[1]), SPACES,
                 st.tuples(st.sampled_from([-1, 0, 0, 1]), st.sampled_from([-1, 0, 0, 1])))
FOOT = st.builds(lambda corners, backwards: corners[::-1] if backwards else corners, st.one_of(  # either way round
    st.builds(lambda shape, space, offset: footprint(shape, jutsu_position(space, shape, offset)),
              SHAPES, NEAR, st.sampled_from(OFFSETS)),
    st.builds(lambda space, dx, dy: footprint("ninja", (space[0] + dx, space[1] + dy)),
              NEAR, st.floats(0, 1), st.floats(0, 1))), st.booleans())


@settings(max_examples=400, deadline=None)
@given(FOOT, FOOT)
def test_two_footprints_overlap_in_plain_floats_exactly_when_geos_says_so(a: tuple, b: tuple) -> None:
    """`overlaps` clips one footprint by the other in plain floats (`_convex_overlap_area`): the same shared
    area as GEOS's intersection to float noise, and the same answer, touching edges included, on footprints of
    neighbouring and shared spaces at every offset (where pieces touch to within the 1e-9 grid)."""
    _overlaps.cache_clear()
    assert overlaps(a, b) == _geos_overlaps(a, b)
    area = _convex_overlap_area(a, b)
    assert area is not None
    assert area == pytest.approx(Polygon(a).intersection(Polygon(b)).area, abs=1e-13)


def test_an_overlap_within_float_noise_of_the_threshold_or_not_convex_is_geos_s_answer() -> None:
    """Where the plain area cannot tell (within `_AREA_DOUBT` of 1e-9) or a corner list is not a convex polygon,
    GEOS answers: a 1e-9 × 1 strip and an L shape."""
    left = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    strip = ((1.0 - 1e-9, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0 - 1e-9, 1.0))
    ell = ((0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0))
    _overlaps.cache_clear()
    assert _convex_overlap_area(strip, left) == pytest.approx(1e-9, abs=1e-15)
    assert overlaps(strip, left) == _geos_overlaps(strip, left)
    assert _convex_overlap_area(left, ell) is None
    corner = ((1.5, 1.5), (2.5, 1.5), (2.5, 2.5), (1.5, 2.5))  # in the L's notch: bounding boxes meet, shapes not
    assert not overlaps(corner, ell) and not _geos_overlaps(corner, ell)


def test_the_plain_margin_falls_back_to_geos_for_a_point_a_segment_and_collinear_corners() -> None:
    for hull, point in [(((1.0, 1.0),), (1.5, 1.5)), (((1.0, 1.0), (2.0, 1.0)), (1.5, 1.2)),
                        (((1.0, 1.0), (1.5, 1.0), (2.0, 1.0)), (1.5, 1.0))]:
        assert _hull_margin(hull, point) == signed_margin(hull, point) <= 0  # nothing has an inside
