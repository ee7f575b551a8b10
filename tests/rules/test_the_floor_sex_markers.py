"""The Floor: categories for women only (flag ``K``) or men only (``M``) — the marker in the view, and the answer
check where the data can tell (issue 10): an unlisted answer that is exactly a person listed for the other sex is
refused with the clock running; for given names (often both) the category's own list is the constraint."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.base import IllegalActionError
from rules.the_floor import State, TheFloor
from tests.rules.test_the_floor_judging import key_of, runner, started
from tests.rules.tf_helpers import FakeContent, fake_check

SEXED = [
    {"id": "women", "name": "Famous women", "flags": ["people", "K"], "answers": ["Marie Curie", "Both Person"]},
    {"id": "kings", "name": "Kings", "flags": ["people", "M"], "answers": ["Mieszko First", "Both Person"],
     "variants": {"Mieszko First": ["Mieszko I"]}},
    {"id": "girls", "name": "Girls' names", "flags": ["K"], "answers": ["Anna"]},
    {"id": "boys", "name": "Boys' names", "flags": ["M"], "answers": ["Adam", "Alex"]},
]


class SexedContent(FakeContent):
    def categories(self, lang: str) -> list[dict[str, Any]]:
        return [*super().categories(lang), *SEXED]


G = TheFloor(content=SexedContent(), checker=fake_check)


def play(s: State, *moves: tuple[int, str]) -> State:
    for seat, action in moves:
        s, _ = G.apply(s, seat, action)
    return s


def duel_on(category: str, letter: str, players: int = 3) -> State:
    """A started duel (judges seated) played on ``category`` with ``letter`` showing."""
    from tests.rules import test_the_floor_judging as judging

    s = judging.started(players)
    s = G.from_json(judging.G.to_json(s))  # the same position under the game with the sexed categories
    return replace(s, duel=replace(s.duel, category=category, letter=letter))


@pytest.mark.parametrize("category,answer,key", [
    ("women", "Mieszko First", "tf.answer.women_only"), ("women", "mieszko  i", "tf.answer.women_only"),
    ("kings", "Marie Curie", "tf.answer.men_only"),
])
def test_a_person_listed_for_the_other_sex_is_refused_with_the_clock_running(category: str, answer: str,
                                                                             key: str) -> None:
    s = duel_on(category, answer[0].upper())
    with pytest.raises(IllegalActionError) as refused:
        G.apply(s, runner(s), f"answer 1200 {answer}")
    assert key_of(refused) == key


def test_a_person_on_the_categorys_own_list_counts_even_if_listed_for_the_other_sex_too() -> None:
    s = duel_on("women", "B")
    s = play(s, (runner(s), "answer 900 Both Person"))
    assert s.duel.log[-1] == (0, "Both Person", "accepted")


def test_an_unknown_person_still_goes_to_the_judges() -> None:
    s = duel_on("women", "M")
    s = play(s, (runner(s), "answer 900 Mieszkowa"))  # no exact match (no typo, no surname alone): judges decide
    assert s.duel.judging == "Mieszkowa"


def test_a_given_name_is_left_to_the_list_and_the_judges() -> None:
    """Names are often both (Alex): a boys' name in the girls' names is not refused, the judges decide."""
    s = duel_on("girls", "A")
    s = play(s, (runner(s), "answer 900 Alex"))
    assert s.duel.judging == "Alex"


def test_with_nobody_to_judge_a_person_of_the_other_sex_is_still_refused() -> None:
    s = duel_on("women", "M", players=2)
    with pytest.raises(IllegalActionError):
        G.apply(s, runner(s), "answer 900 Mieszko First")


def test_the_view_marks_a_category_for_women_or_men_only() -> None:
    s = duel_on("women", "M")
    view = G.view(s, 0)
    assert view["duel"]["category"] == {"id": "women", "name": "Famous women", "sex": "K"}
    assert G.category_sex(s, "boys") == "M" and G.category_sex(s, "kings") == "M"
    assert G.category_sex(s, "flowers") == "" and "sex" not in G.view(started(2), 0)["duel"]["category"]


def test_the_shipped_content_refuses_a_president_among_famous_women() -> None:
    real = TheFloor()
    s = real.new(2, {}, "sexes")
    women = real.catalog(s)["famous_women"]
    with pytest.raises(IllegalActionError) as refused:
        real._refuse_other_sex(s, "Abraham Lincoln", women)
    assert key_of(refused) == "tf.answer.women_only"
    for fine in ("Lincoln", "Martha Washington", "Eleanor Roosevelt"):  # a surname alone never decides
        real._refuse_other_sex(s, fine, women)
