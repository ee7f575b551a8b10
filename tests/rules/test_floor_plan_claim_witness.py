"""A claim may name the rooms and features it uses: ``claim hosts.1 with C2,B3`` (any cell of each, commas or
spaces, ranges as elsewhere). Only witnesses covering every named cell count; the canonical text stores them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18n import t
from rules.base import IllegalActionError, InvalidActionError
from rules.floor_plan import State
from rules.floor_plan import notation as nt
from rules.floor_plan.sheet import HEIGHT, WIDTH, scan_key
from tests.rules.fp_helpers import G, R, board, c, refused, sheet, started, with_sheet

# Kitchen A1 (room 0) and Dining D1 (room 1) are joined by door C2; Dining D1 also joins Kitchen G1 (room 2, door
# F2) and Kitchen A1 also joins Dining A4 (room 3, door B3). Unnamed, the engine takes F2 (keeping B3 for a repeat).
HOSTS = sheet(R("K", "A1", 3, 3), R("D", "D1", 3, 3), R("K", "G1", 3, 3), R("D", "A4", 3, 3), doors="C2 F2 B3")
VIA_C2 = frozenset({"door:C2", "room:0", "room:1"})


def _game() -> State:
    return with_sheet(started(clients=("hosts", "nature_lover", "step_free")), 0, HOSTS)


def test_a_claim_naming_the_rooms_records_those_rooms_not_the_engines_choice() -> None:
    s = _game()
    unnamed, _ = G.apply(s, 0, "claim hosts.1")
    assert board(unnamed, 0).claims[0].tokens != VIA_C2
    named, _ = G.apply(s, 0, "claim hosts.1 with b2 E3")
    assert board(named, 0).claims[0].tokens == VIA_C2
    assert board(named, 0).claims[0].points == board(unnamed, 0).claims[0].points


def test_a_claim_naming_cells_that_cannot_satisfy_it_is_refused_and_changes_nothing() -> None:
    s = _game()
    before = board(s, 0)
    # Kitchens A1 and G1 share no door: no connection covers both.
    msg = refused(s, 0, "claim hosts.1 with A1,G1", IllegalActionError)
    assert "A1,G1" in msg and "hosts.1" in msg
    # All or nothing: the plain claim before it in the same text is not recorded either.
    refused(s, 0, "claim nature_lover.1; claim hosts.1 with A1 G1")
    assert board(s, 0) == before and not before.claims


def test_the_named_witness_message_exists_in_both_languages() -> None:
    for lang in ("en", "pl"):
        text = t("fp.claim.named_not_met", lang, cells="A1,G1", demand="hosts.1", client="x", text="y")
        assert "A1,G1" in text and "hosts.1" in text and "{" not in text


def test_the_canonical_text_stores_the_witness_in_scan_order_before_the_note() -> None:
    s = _game()
    assert G.notation(s, "CLAIM hosts.1 note=2 with e3 , B2 b2") == "claim hosts.1 with B2,E3 note=2"
    assert G.notation(s, "claim hosts.1 with A1-B2") == "claim hosts.1 with A1,B1,A2,B2"
    after, _ = G.apply(s, 0, "claim hosts.1 with E3, B2")
    replayed, _ = G.apply(s, 0, G.notation(s, "claim hosts.1 with E3, B2"))
    assert replayed == after


def test_old_logs_without_with_replay_unchanged() -> None:
    for old in ("claim hosts.1", "claim hosts.1 note=3"):
        assert G.notation(_game(), old) == old
        (step,) = nt.parse(old)
        assert step.witness == ()
    s = _game()
    a, _ = G.apply(s, 0, "claim hosts.1")
    b, _ = G.apply(s, 0, G.notation(s, "claim hosts.1"))
    assert a == b


@pytest.mark.parametrize(("text", "error"), [
    ("claim hosts.1 with", InvalidActionError),
    ("claim hosts.1 with A1 with B2", InvalidActionError),
    ("claim hosts.1 note=2 note=3", InvalidActionError),
    ("claim hosts.1 B2", InvalidActionError),
    ("claim hosts.1 with ZZ9", InvalidActionError),
])
def test_malformed_witnesses_are_parse_errors(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        nt.parse(text)


_CELLS = st.tuples(st.integers(0, WIDTH - 1), st.integers(0, HEIGHT - 1))


@settings(max_examples=200, deadline=None)
@given(witness=st.lists(_CELLS, max_size=5, unique=True), note=st.one_of(st.none(), st.integers(1, 9)))
def test_claims_round_trip_through_their_text(witness: list[tuple[int, int]], note: int | None) -> None:
    step = nt.Step("claim", demand="hosts.1", note=note, witness=tuple(sorted(witness, key=scan_key)))
    assert nt.parse(nt.text((step,))) == (step,)


def test_named_cells_are_any_cells_of_the_rooms() -> None:
    assert nt.parse("claim hosts.1 with B2,E3")[0].witness == (c("B2"), c("E3"))
