"""Floor Plan notation is forgiving to type and strict to store: spacing, case, cell ranges and the Double a
Feature aliases all parse to one move, whose canonical text (what the log keeps) parses back to the same move."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import InvalidActionError
from rules.floor_plan import notation as nt
from rules.floor_plan.notation import Action, FeatureSet, RoomDraw, Step
from rules.floor_plan.sheet import HEIGHT, ROOM_TYPES, WIDTH, cell_name
from tests.rules.fp_helpers import G, board, started


def canonical(raw: str) -> str:
    return nt.text(nt.parse(raw))


def message(raw: str) -> str:
    with pytest.raises(InvalidActionError) as info:
        nt.parse(raw)
    return str(info.value)


# --- spacing, case and separators -------------------------------------------------------------------------------


@pytest.mark.parametrize("raw", [
    "features 3: C3, D3 ,E3  4 :F5",
    "features 3 : c3 d3 e3 4: f5",
    "FEATURES 3:C3,,D3 , E3\t4:F5",
    "features 3:C3,D3,E3,4:F5",
    "features 4:F5 3:E3 D3 C3",
])
def test_spaces_case_and_commas_around_feature_cells_are_forgiven(raw: str) -> None:
    assert canonical(raw) == "features 3:C3,D3,E3 4:F5"


def test_doors_accept_spaces_or_commas_between_their_cells() -> None:
    for raw in ("doors d5 c3", "doors D5 , c3", "doors D5,C3", "doors  c3,  d5"):
        assert canonical(raw) == "doors C3,D5"


def test_a_times_sign_copied_from_the_bots_messages_reads_as_x() -> None:
    assert canonical("start g5 6×3") == "start G5 6x3"
    assert canonical("room c3 4×3 k@d4") == "room C3 4x3 K@D4"


# --- ranges -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "cells"), [
    ("features 3:C3-E3", "C3,D3,E3"),  # a row
    ("features 3:E3-C3", "C3,D3,E3"),  # either end first
    ("features 3:C3-C5", "C3,C4,C5"),  # a column
    ("features 3:c3 - c5", "C3,C4,C5"),  # spaced dash
    ("features 3:C3–C5", "C3,C4,C5"),  # en dash
    ("features 3:C3-C3", "C3"),
])
def test_a_run_of_cells_expands_to_every_cell_in_it(raw: str, cells: str) -> None:
    assert canonical(raw) == f"features 3:{cells}"


def test_a_rectangle_expands_to_all_its_cells_in_scan_order() -> None:
    assert canonical("features 4:G6-F5") == "features 4:F5,G5,F6,G6"
    assert canonical("features 6x2:A1-F2") == "features 6x2:A1,B1,C1,D1,E1,F1,A2,B2,C2,D2,E2,F2"


def test_two_sets_of_one_die_keep_the_typed_order_the_rules_rely_on() -> None:
    assert canonical("features 5:B5 5:A1") == "features 5:B5 5:A1"
    assert canonical("features 5:A1 5:B5") == "features 5:A1 5:B5"
    assert canonical("features 4:C3 3x2:A1") == "features 3x2:A1 4:C3"  # different dice: by die


def test_ranges_mix_with_single_cells_and_other_sets() -> None:
    assert canonical("features 3:C3-D3, E3 4:F5-G6 wild 2->4") == "features 3:C3,D3,E3 4:F5,G5,F6,G6 wild 2=4"


def test_a_doubled_feature_typed_as_a_range_is_placed_like_its_cell_list() -> None:
    from tests.rules.test_floor_plan_game import claimed_state

    s = replace(claimed_state(note=1), roll=(6, 2))
    s2, _ = G.apply(s, 0, "features 6*2: A1-F2")
    assert len(board(s2, 0).sheet.stones) == 12 and board(s2, 0).bonus_used[0]
    assert G.notation(s, "features 6*2: A1-F2") == "features 6x2:A1,B1,C1,D1,E1,F1,A2,B2,C2,D2,E2,F2"


# --- Double a Feature -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("head", ["3x2:", "3*2:", "3×2:", "3 x 2 :", "3 * 2: ", "3X2:"])
def test_double_a_feature_accepts_star_and_times_and_stores_the_old_form(head: str) -> None:
    assert canonical(f"features {head}C3-H3 4:F5") == "features 3x2:C3,D3,E3,F3,G3,H3 4:F5"


def test_the_canonical_text_is_what_the_game_keeps_for_the_round() -> None:
    s, _ = G.apply(started(2, roll=(6, 2)), 0, "features 6 : a1-f1")
    assert s.actions[0] == "features 6:A1,B1,C1,D1,E1,F1"
    assert G.notation(s, "features 6 : a1-f1") == s.actions[0]


# --- clear errors -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["features 3:C3-", "features 3:-C3", "features 3:C3-D3-E3", "features 3:C3--D3"])
def test_a_malformed_range_shows_how_to_write_one(raw: str) -> None:
    assert message(raw) == "Write features like this: features 3:C3-E3 4:F5-G6."


def test_a_range_off_the_sheet_names_the_cell() -> None:
    assert message("features 3:C3-Z3") == "Z3 is off the blueprint: columns go from A to Q and rows from 1 to 13."


@pytest.mark.parametrize("raw", ["features 3:", "features C3,D3", "features 7:A1", "features 3:C3 4:D4 5:E5",
                                 "features junk 3:C3"])
def test_a_features_step_without_sets_shows_the_usage(raw: str) -> None:
    assert message(raw) == "Write features like this: features 3:C3,D3,E3 4:F5,F6,G5,G6."


def test_a_die_without_its_colon_is_named_as_the_bad_cell() -> None:
    assert message("features 3:C3 4 F5") == "“4” is not a cell: write a column A–Q and a row 1–13, like I7."


def test_doors_without_cells_show_the_usage() -> None:
    assert message("doors ,") == "Write doors like this: doors C3,D5."


# --- round trip ---------------------------------------------------------------------------------------------------

CELLS = st.tuples(st.integers(0, WIDTH - 1), st.integers(0, HEIGHT - 1))
WILD = st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))


def scan(cells: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(cells, key=lambda c: (c[1], c[0])))


def set_order(s: FeatureSet) -> tuple[int, bool]:
    """The canonical order of feature sets: by die, the doubled one first (two of one die: as typed)."""
    return s.die, not s.double


@st.composite
def feature_steps(draw: st.DrawFn) -> Step:
    sets = [FeatureSet(draw(st.integers(1, 6)), draw(st.booleans()), scan(draw(st.lists(CELLS, min_size=1,
                                                                                        max_size=8))))
            for _ in range(draw(st.integers(1, 2)))]
    return Step("features", sets=tuple(sorted(sets, key=set_order)), wild=draw(WILD))


@st.composite
def room_steps(draw: st.DrawFn) -> Step:
    def room() -> RoomDraw:
        x, y = draw(CELLS)
        return RoomDraw(x, y, draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.sampled_from(ROOM_TYPES)),
                        draw(CELLS))
    return Step("room", rooms=tuple(room() for _ in range(draw(st.integers(1, 2)))), wild=draw(WILD))


SIDE_STEPS = st.one_of(
    st.builds(lambda cs: Step("doors", cells=scan(cs)), st.lists(CELLS, min_size=1, max_size=3)),
    st.builds(lambda d, n: Step("claim", demand=d, note=n), st.sampled_from(["hosts.1", "flow.2", "step_free.3"]),
              st.none() | st.integers(1, 9)),
)
MAIN_STEPS = st.one_of(feature_steps(), room_steps(), st.just(Step("skip")))
ALONE = st.one_of(st.just((Step("resign"),)),
                  st.builds(lambda c, w, h: (Step("start", cells=(c,), size=(w, h)),), CELLS, st.integers(1, 6),
                            st.integers(1, 6)))


@st.composite
def actions(draw: st.DrawFn) -> Action:
    if draw(st.booleans()):
        return draw(ALONE)
    steps = draw(st.lists(SIDE_STEPS, max_size=2))
    main = draw(st.none() | MAIN_STEPS)
    if main is not None:
        steps.insert(draw(st.integers(0, len(steps))), main)
    return tuple(steps) or (Step("skip"),)


@settings(max_examples=300, deadline=None)
@given(actions())
def test_formatting_a_move_and_parsing_it_again_gives_the_same_move(action: Action) -> None:
    assert nt.parse(nt.text(action)) == action
    assert nt.text(nt.parse(nt.text(action))) == nt.text(action)


@st.composite
def messy_features(draw: st.DrawFn) -> tuple[str, Step]:
    """A features step typed carelessly (case, spaces, separators, head aliases), with the step it means."""
    step = draw(feature_steps())
    spaces = st.sampled_from(["", " ", "  "])
    parts = []
    for s in step.sets:
        mark = draw(st.sampled_from(["x2", "*2", "×2", " x 2", "X2"])) if s.double else ""
        names = [draw(st.sampled_from([str.upper, str.lower]))(cell_name(c)) for c in s.cells]
        names = draw(st.permutations(names))
        seps = [draw(st.sampled_from([",", " ", ", ", " ,", " , "])) for _ in names]
        body = "".join(name + sep for name, sep in zip(names, seps, strict=True))
        parts.append(f"{s.die}{mark}{draw(spaces)}:{draw(spaces)}{body}")
    wild = f" wild {step.wild[0]}{draw(st.sampled_from(['=', '->']))}{step.wild[1]}" if step.wild else ""
    if len({set_order(s) for s in step.sets}) == len(parts):  # two sets of one die: their order is the move's
        parts = draw(st.permutations(parts))
    return f"{draw(st.sampled_from(['features', 'Features']))} {' '.join(parts)}{wild}", step


@settings(max_examples=300, deadline=None)
@given(messy_features())
def test_a_carelessly_typed_features_step_parses_to_the_move_it_means(case: tuple[str, Step]) -> None:
    raw, step = case
    parsed = nt.parse(raw)
    assert parsed == (step,)
    assert nt.parse(nt.text(parsed)) == parsed


@settings(max_examples=200, deadline=None)
@given(CELLS, CELLS, st.sampled_from(["-", " - ", "–"]))
def test_a_range_parses_to_its_rectangle_and_formats_as_its_cells(a: tuple[int, int], b: tuple[int, int],
                                                                   dash: str) -> None:
    (step,) = nt.parse(f"features 5:{cell_name(a)}{dash}{cell_name(b)}")
    xs, ys = sorted((a[0], b[0])), sorted((a[1], b[1]))
    rectangle = {(x, y) for x in range(xs[0], xs[1] + 1) for y in range(ys[0], ys[1] + 1)}
    assert set(step.sets[0].cells) == rectangle and len(step.sets[0].cells) == len(rectangle)
    assert "-" not in nt.text((step,)) and nt.parse(nt.text((step,))) == (step,)
