"""Rulebook rules (shared/seeds/the-floor.en.md) not covered by the other the_floor test files: the rulebook's
example turn step by step, the duel clocks driven by synthetic elapsed times, turn order, letter decks, the
visible Final cards, taken cells that form a field of their own, equal fields and the reshuffled discard.

Built with the real answer checker and a small custom content (tests/rules/tf_helpers.py's FakeContent has the
rulebook's "Music genres" and "Flowers")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.base import IllegalActionError, OptionsError
from rules.the_floor import Pending, State, TheFloor
from rules.the_floor import board as bd
from rules.the_floor.options import LETTERS, PASS_PENALTY_MS
from tests.rules.tf_helpers import FakeContent

RB = TheFloor(content=FakeContent())  # the real answer checker
TOTAL_CARDS = len(FakeContent().categories("en"))
PURPLE, YELLOW = 0, 1


def play(s: State, *moves: tuple[int, str]) -> State:
    for seat, action in moves:
        s, _ = RB.apply(s, seat, action)
    return s


def cells(*names: str) -> tuple[int, ...]:
    return tuple(sorted(bd.parse_cell(n) for n in names))


def names(cs: tuple[int, ...] | list[int]) -> list[str]:
    return sorted(bd.name(c) for c in cs)


def field(s: State, cell: str) -> list[str]:
    return names(bd.field_of(s.board, bd.parse_cell(cell)))


def cats_on(s: State, cell: str) -> list[str]:
    f = bd.field_of(s.board, bd.parse_cell(cell))
    return sorted(cat for c, cat in s.cards if c in f)


def listed(s: State, n: int = 0) -> str:
    """A listed answer of the running duel's category for the shown letter, not yet given in the duel."""
    d = s.duel
    assert d is not None
    return [a for a in RB.categories(s.lang)[d.category]["answers"] if a[0] == d.letter and a not in d.given][n]


def running_seat(s: State) -> int:
    d = s.duel
    assert d is not None
    return s.seats_of((d.challenger, d.defender)[d.active])[0]


def all_cards(s: State) -> list[str]:
    return sorted([*s.deck, *s.discard, *(cat for _, cat in s.cards)])


# --- the rulebook's example turn ---------------------------------------------------------------------------------

# Purple (0) has a 2-cell field C4 C5 ("Flowers") and a 1-cell field A3 ("Rivers"); yellow (1) a 4-cell field
# B2 B3 B4 B5 in "Music genres" (its card lies on B2, away from the challenged cell).
EXAMPLE = ".10../.10../01.../.1.../..... C5=flowers,A3=rivers,B2=music_genres 2s side=0 seed=rulebook"


def test_rulebook_example_turn_step_by_step() -> None:
    s = RB.from_position(EXAMPLE)
    assert s.phase == "play" and s.current == PURPLE and s.discard == ()
    assert len(s.deck) == TOTAL_CARDS - 3 and all_cards(s) == sorted(RB.categories("en"))
    assert field(s, "C4") == ["C4", "C5"] and field(s, "B4") == ["B2", "B3", "B4", "B5"]

    # 1. Challenge: from the 2-cell field to yellow's 4-cell field; the duel is in yellow's category.
    s = play(s, (PURPLE, "challenge C4 B4"))
    d = s.duel
    assert d is not None and (d.challenger, d.defender, d.category) == (PURPLE, YELLOW, "music_genres")
    assert RB.view(s, None)["duel"]["category"] == {"id": "music_genres", "name": "Music genres"}
    assert not d.started and RB.to_move(s) == frozenset({PURPLE, YELLOW})

    # 2. Duel: both ready, purple's clock runs with purple's first letter.
    s = play(s, (PURPLE, "ready"), (YELLOW, "ready"))
    d = s.duel
    assert d.started and d.active == 0 and d.letter == d.decks[0][0] and d.clocks == (45000, 45000)
    first = listed(s)
    s = play(s, (PURPLE, f"answer 3000 {first}"))
    d = s.duel
    assert d.clocks == (42000, 45000) and d.active == 1 and d.letter == d.decks[1][0] and d.given == (first,)
    s = play(s, (YELLOW, "pass 2500"))
    d = s.duel
    assert d.clocks == (42000, 45000 - 2500 - PASS_PENALTY_MS) and d.active == 1 and d.letter == d.decks[1][1]
    s, events = RB.apply(s, YELLOW, "timeout")  # yellow's clock ran out: purple wins
    over = next(e for e in events if e.kind == "duel_over")
    assert over.seat == PURPLE and over.data["loser"] == YELLOW

    # 3. Resolution: "Music genres" goes to the discard; purple owes a take of 2 cells (the smaller field).
    assert s.duel is None and s.discard == ("music_genres",)
    assert s.cards == ((bd.parse_cell("A3"), "rivers"), (bd.parse_cell("C5"), "flowers"))
    assert s.pending == (Pending("take", PURPLE, cells=cells("B2", "B3", "B4", "B5"), count=2),)
    assert RB.to_move(s) == frozenset({PURPLE}) and RB.legal_actions(s, PURPLE) is None
    assert len(s.deck) == TOTAL_CARDS - 3 and s.board.count(PURPLE) == 3 and s.board.count(YELLOW) == 4
    deck = s.deck

    # Purple takes the 2 cells that join its other field (the default suggests exactly those): one field of 5
    # holding 2 categories.
    assert RB.default_action(s, PURPLE) == "take B3,B4"
    s = play(s, (PURPLE, "take B3,B4"))
    assert field(s, "A3") == ["A3", "B3", "B4", "C4", "C5"] and cats_on(s, "A3") == ["flowers", "rivers"]
    assert field(s, "B2") == ["B2"] and field(s, "B5") == ["B5"]  # yellow's two orphan fields
    assert cats_on(s, "B2") == [] and cats_on(s, "B5") == []
    # Each orphan field drew 2 (in field order: B2 first), purple keeps one of its two; choices in field order.
    assert s.deck == deck[4:] and len(s.deck) == TOTAL_CARDS - 3 - 4
    assert s.pending == (
        Pending("keep", YELLOW, options=tuple(sorted(deck[0:2])), cells=cells("B2")),
        Pending("keep", PURPLE, options=("flowers", "rivers"), cells=cells("A3", "B3", "B4", "C4", "C5")),
        Pending("keep", YELLOW, options=tuple(sorted(deck[2:4])), cells=cells("B5")),
    )
    assert s.discard == ("music_genres",)

    # Yellow places 1 of its 2 cards on the first orphan field and discards the other.
    b2_keep, b2_drop = sorted(deck[0:2])[1], sorted(deck[0:2])[0]
    assert [o["id"] for o in RB.view(s, YELLOW)["pending"]["options"]] == sorted(deck[0:2])
    assert RB.view(s, PURPLE)["pending"]["options"] is None
    s = play(s, (YELLOW, f"keep {b2_keep}"))
    assert cats_on(s, "B2") == [b2_keep] and s.discard == ("music_genres", b2_drop)
    # Purple keeps "Flowers" and discards the other.
    with pytest.raises(IllegalActionError):
        RB.apply(s, PURPLE, f"keep {b2_keep}")
    s = play(s, (PURPLE, "keep flowers"))
    assert cats_on(s, "A3") == ["flowers"] and s.discard == ("music_genres", b2_drop, "rivers")
    # Yellow's second orphan field: draw 2 (already drawn), place 1, discard 1.
    b5_keep, b5_drop = sorted(deck[2:4])
    s = play(s, (YELLOW, f"keep {b5_keep}"))
    assert cats_on(s, "B5") == [b5_keep] and s.discard == ("music_genres", b2_drop, "rivers", b5_drop)

    # The turn is over: every field holds exactly one card, nothing was lost, yellow is next.
    assert s.pending == () and s.duel is None and s.current == YELLOW and s.challenged == (True, False)
    assert s.board.count(PURPLE) == 5 and s.board.count(YELLOW) == 2
    assert all(len([cat for c, cat in s.cards if c in f]) == 1 for f in bd.fields(s.board))
    assert len(s.deck) == TOTAL_CARDS - 7 and all_cards(s) == sorted(RB.categories("en"))
    assert RB.to_position(s).split()[:3] == [".10../.00../00.../.1.../.....",
                                             f"B2={b2_keep},B5={b5_keep},C5=flowers", "2s"]


# --- duel clocks, driven by the elapsed times in the actions ------------------------------------------------------


def example(players: int = 2, seed: str = "rulebook", **options: object) -> State:
    """The example position; with 3 players a third side (seat 2, a judge) holds E1."""
    text = EXAMPLE.replace("seed=rulebook", " ".join([f"seed={seed}", *(f"{k}={v}" for k, v in options.items())]))
    if players == 3:
        text = text.replace("..... C5", "....2 C5").replace("B2=music_genres", "B2=music_genres,E1=cats")
        text = text.replace(" 2s ", " 3s ")
    return RB.from_position(text)


def duel(players: int = 2, seed: str = "clock", **options: object) -> State:
    """A started duel: side 0 (C4 C5) challenges side 1 (B4) in the example position."""
    s = play(example(players, seed, **options), (0, "challenge C4 B4"))
    return play(s, *((seat, "ready") for seat in sorted(RB.to_move(s))))


def test_a_pass_costs_one_second_plus_the_elapsed_and_keeps_the_same_clock_running() -> None:
    s = duel()
    d = s.duel
    s = play(s, (0, "pass 2000"), (0, "pass 500"))
    e = s.duel
    assert e.active == 0 and e.clocks == (45000 - 2000 - 500 - 2 * PASS_PENALTY_MS, 45000)
    assert e.letter == d.decks[0][2] and e.log == ((0, "", "pass"), (0, "", "pass"))
    s = play(s, (0, f"answer 1000 {listed(s)}"))
    assert s.duel.clocks == (45000 - 2000 - 500 - 2000 - 1000, 45000) and s.duel.active == 1


def test_each_pass_shows_the_next_letter_of_the_deck_and_the_deck_cycles() -> None:
    s = duel()
    deck = s.duel.decks[0]
    assert sorted(deck) == sorted(LETTERS["en"]) and len(deck) == 23
    seen = [s.duel.letter]
    for _ in range(23):
        s = play(s, (0, "pass 100"))
        seen.append(s.duel.letter)
    assert seen == [*deck, deck[0]]  # 23 letters, then the deck starts over
    assert s.duel.clocks[0] == 45000 - 23 * (100 + PASS_PENALTY_MS)


def test_the_challenger_and_the_challenged_have_their_own_shuffled_letter_decks() -> None:
    s = duel()
    d = s.duel
    assert d.decks[0] != d.decks[1] and sorted(d.decks[0]) == sorted(d.decks[1]) == sorted(LETTERS["en"])
    other = duel(seed="another")
    assert other.duel.decks != d.decks  # shuffled per duel from the seed
    assert duel().duel.decks == d.decks


def test_the_side_whose_clock_runs_out_loses_the_defender_too() -> None:
    s = duel()
    s = play(s, (0, f"answer 1000 {listed(s)}"))
    s, events = RB.apply(s, 1, "timeout")
    over = next(e for e in events if e.kind == "duel_over")
    assert over.seat == 0 and over.data["loser"] == 1  # the challenger wins
    assert s.pending and s.pending[0].kind == "take" and s.pending[0].side == 0


@pytest.mark.parametrize("clock", [20, 33, 120])
def test_an_answer_arriving_after_the_clock_would_reach_zero_loses_even_if_correct(clock: int) -> None:
    s = duel(clock=clock)
    ms = clock * 1000
    s = play(s, (0, "pass 4000"))
    left = ms - 4000 - PASS_PENALTY_MS
    just_in = play(s, (0, f"answer {left - 1} {listed(s)}"))
    assert just_in.duel is not None and just_in.duel.clocks == (1, ms) and just_in.duel.active == 1
    s2, events = RB.apply(s, 0, f"answer {left} {listed(s)}")
    assert next(e for e in events if e.kind == "duel_over").data["loser"] == 0 and s2.duel is None
    s3, events = RB.apply(s, 0, f"answer {left + 60000} {listed(s)}")
    assert next(e for e in events if e.kind == "duel_over").data["loser"] == 0 and s3 == s2


def test_a_pass_whose_second_reaches_zero_loses() -> None:
    s = duel(clock=20)
    survives = play(s, (0, f"pass {20000 - PASS_PENALTY_MS - 1}"))
    assert survives.duel is not None and survives.duel.clocks[0] == 1
    _, events = RB.apply(s, 0, f"pass {20000 - PASS_PENALTY_MS}")
    assert any(e.kind == "duel_over" for e in events)


def test_an_answer_judged_with_the_clock_stopped_does_not_charge_the_judging_time() -> None:
    s = duel(3)
    d = s.duel
    judge = next(i for i in range(3) if i not in (d.challenger, d.defender))
    s = play(s, (0, f"answer 1500 {d.letter}zzqx"))  # not on the list: to the judges
    assert s.duel.judging and s.duel.clocks == (43500, 45000)
    assert RB.view(s, None)["duel"]["running"] is None
    rejected = play(s, (judge, "judge reject"))
    assert rejected.duel.clocks == (43500, 45000) and rejected.duel.active == 0
    # the next elapsed counts from the judgment, so however long the vote took, it costs nothing
    after = play(rejected, (0, f"answer 2000 {listed(rejected)}"))
    assert after.duel.clocks == (41500, 45000)
    accepted = play(s, (judge, "judge accept"))
    assert accepted.duel.clocks == (43500, 45000) and accepted.duel.active == 1
    after = play(accepted, (1, f"answer 700 {listed(accepted)}"))
    assert after.duel.clocks == (43500, 44300)


def test_a_refused_repeat_changes_nothing_and_its_time_is_charged_with_the_next_action() -> None:
    s = duel()
    first = listed(s)
    letter = s.duel.letter
    s = play(s, (0, f"answer 1000 {first}"))
    s = replace(s, duel=replace(s.duel, letter=letter))  # the defender happens to show the same letter
    before = s
    with pytest.raises(IllegalActionError):
        RB.apply(s, 1, f"answer 3000 {first.upper()}")
    with pytest.raises(IllegalActionError):
        RB.apply(s, 1, f"answer 3500 {first[:-1]}")  # a typo of it is the same answer
    assert s == before
    s = play(s, (1, f"answer 5000 {listed(s, 1)}"))  # elapsed since the letter, the refused tries included
    assert s.duel.clocks == (44000, 40000) and s.duel.given == (first, listed(before, 1))


def test_clock_option_20_to_120_seconds_per_side() -> None:
    for clock in (20, 45, 120):
        s = duel(clock=clock)
        assert s.duel.clocks == (clock * 1000, clock * 1000)
        assert RB.view(s, 0)["options"]["clock"] == clock
    for bad in (19, 121):
        with pytest.raises(OptionsError):
            duel(clock=bad)


def test_replaying_the_logged_actions_reproduces_the_exact_clocks() -> None:
    start = example(3, "replay")
    s, log, clocks = start, [], []

    def do(seat: int, action: str) -> None:
        nonlocal s
        s = play(s, (seat, action))
        log.append((seat, action))
        clocks.append(None if s.duel is None else s.duel.clocks)

    do(0, "challenge C4 B4")
    do(0, "ready")
    do(1, "ready")
    do(0, "pass 1234")
    do(0, f"answer 2345 {listed(s)}")
    do(1, f"answer 999 {s.duel.letter}zzq unknownish")  # to the judge (seat 2), clock stopped
    do(2, "judge reject")
    do(1, "pass 10")
    do(1, f"answer 4321 {listed(s)}")
    do(0, f"answer 77 {listed(s)}")
    do(1, "pass 3000")
    assert clocks[-1] == (45000 - 1234 - 1000 - 2345 - 77, 45000 - 999 - 10 - 1000 - 4321 - 3000 - 1000)
    again, replayed = start, []
    for seat, action in log:
        again = play(again, (seat, action))
        replayed.append(None if again.duel is None else again.duel.clocks)
    assert replayed == clocks and again == s
    assert RB.from_json(RB.to_json(s)) == s


# --- other rulebook rules ---------------------------------------------------------------------------------------


def turn_lost_at_once(s: State) -> State:
    """The current side challenges (the default) and its clock runs out at once; every choice by default."""
    seat = s.seats_of(s.current)[0]
    s = play(s, (seat, RB.default_action(s, seat)))
    s = play(s, *((i, "ready") for i in sorted(RB.to_move(s))))
    s = play(s, (running_seat(s), "timeout"))
    while s.pending and s.pending[0].kind != "final":
        seat = min(RB.to_move(s))
        s = play(s, (seat, RB.default_action(s, seat)))
    return s


def drafted(players: int, seed: str) -> State:
    s = RB.new(players, {}, seed)
    while s.phase == "draft":
        seat = min(RB.to_move(s))
        s = play(s, (seat, RB.default_action(s, seat)))
    return s


def test_the_youngest_starts_and_turns_go_clockwise_every_round() -> None:
    s = drafted(4, "clockwise")
    order = []
    for _ in range(2):
        for _ in range(4):
            order.append(s.current)
            s = turn_lost_at_once(s)
        p = s.pending[0]
        s = play(s, (s.seats_of(p.side)[0], RB.default_action(s, s.seats_of(p.side)[0])))
    assert order == [0, 1, 2, 3, 0, 1, 2, 3] and s.round == 3


def test_the_final_cards_are_visible_to_everyone() -> None:
    s = drafted(4, "final-cards")
    views = [RB.view(s, seat)["final_cards"] for seat in (*range(4), None)]
    assert len(views[0]) == 1 and all(v == views[0] for v in views)
    assert views[0][0]["id"] == s.final_cards[0] and s.final_cards[0] not in s.deck


def test_the_duel_is_in_the_category_of_the_challenged_field_wherever_its_card_lies() -> None:
    s = example()
    for frm, to in (("C5", "B5"), ("A3", "B3"), ("C4", "B4")):
        d = play(s, (0, f"challenge {frm} {to}")).duel
        assert d.category == "music_genres" and d.frm == bd.parse_cell(frm) and d.to == bd.parse_cell(to)


def test_a_winning_challenger_keeps_its_category_and_taken_cells_apart_draw_their_own() -> None:
    # Purple A2 B2 ("Flowers") beats yellow's A1 B1 C1 D1 and takes C1 D1, which touch no purple cell.
    s = RB.from_position("...../...../...../00.../1111. A2=flowers,A1=music_genres 2s side=0 seed=apart")
    deck = s.deck
    s = play(s, (0, "challenge A2 A1"), (0, "ready"), (1, "ready"))
    s = play(s, (0, f"answer 500 {listed(s)}"), (1, "timeout"), (0, "take C1,D1"))
    assert cats_on(s, "A2") == ["flowers"] and field(s, "A2") == ["A2", "B2"]
    assert field(s, "C1") == ["C1", "D1"] and s.board[bd.parse_cell("C1")] == PURPLE
    assert s.pending == (
        Pending("keep", YELLOW, options=tuple(sorted(deck[0:2])), cells=cells("A1", "B1")),
        Pending("keep", PURPLE, options=tuple(sorted(deck[2:4])), cells=cells("C1", "D1")),
    )


def test_equal_fields_the_losers_whole_field_is_taken_without_a_choice() -> None:
    s = RB.from_position("...../...../1..../00.../11... A2=flowers,A1=music_genres,A3=rivers 2s side=0 seed=eq")
    s = play(s, (0, "challenge A2 A1"), (0, "ready"), (1, "ready"))
    s = play(s, (0, f"answer 500 {listed(s)}"), (1, "timeout"))
    assert all(p.kind != "take" for p in s.pending)
    assert field(s, "A1") == ["A1", "A2", "B1", "B2"] and cats_on(s, "A1") == ["flowers"]
    assert s.board.count(YELLOW) == 1 and YELLOW not in s.eliminated and s.current == YELLOW


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discard() -> None:
    s = example()
    s = replace(s, deck=s.deck[:1], discard=s.deck[1:6])
    pile, discard = s.deck, s.discard
    s = play(s, (0, "challenge C4 B4"), (0, "ready"), (1, "ready"))
    s = play(s, (0, f"answer 500 {listed(s)}"), (1, "timeout"), (0, "take B3,B4"))
    drawn = [c for p in s.pending if p.side == YELLOW for c in p.options]
    assert len(drawn) == 4 and len(set(drawn)) == 4
    assert set(drawn) <= {*pile, *discard, "music_genres"}
    assert s.draws > example().draws + 2  # a seeded reshuffle stream was used
    assert sorted([*s.deck, *s.discard, *drawn, *(cat for _, cat in s.cards)]) == sorted(
        [*pile, *discard, "music_genres", "flowers", "rivers"])
