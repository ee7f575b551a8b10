"""A stored The Floor state is never bounded tighter than play: counters load up to what storage holds, and what
free text and a server's content could push past a saved game's limits is refused when played or chosen."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
import pytest

from rules.base import IllegalActionError, OptionsError, StateError
from rules.the_floor import State
from rules.the_floor.options import MAX_ANSWER, MAX_ANSWERS, MAX_CATEGORY_ID, MAX_CUSTOM_CATEGORIES
from rules.validate import MAX_COUNTER
from tests.rules.tf_helpers import G, drafted, play


def saved_and_loaded(s: State) -> State:
    """Through the engine's path: ``to_json`` as orjson text, read back by ``from_json``."""
    return G.from_json(orjson.loads(orjson.dumps(G.to_json(s))))


def running_duel(seed: str = "bounds") -> State:
    s = drafted(2, seed, judging="trust")
    seat = s.seats_of(s.current)[0]
    s = play(s, (seat, G.default_action(s, seat)))
    return play(s, (s.duel.challenger, "ready"), (s.duel.defender, "ready"))


def answering(s: State) -> int:
    d = s.duel
    return s.seats_of((d.challenger, d.defender)[d.active])[0]


def test_the_floor_counters_past_a_million_load() -> None:
    s = running_duel()
    s = replace(s, turn=MAX_COUNTER, turn_no=MAX_COUNTER, draws=MAX_COUNTER,
                duel=replace(s.duel, drawn=(MAX_COUNTER, MAX_COUNTER)))
    assert saved_and_loaded(s) == s
    with pytest.raises(StateError, match="turn"):
        G.from_json({**G.to_json(s), "turn": MAX_COUNTER + 1})


def test_the_floor_instant_answers_stop_at_what_a_saved_duel_holds() -> None:
    s = running_duel()
    d = s.duel
    given = tuple(f"{d.letter}q{i}" for i in range(MAX_ANSWERS - 1))
    s = replace(s, duel=replace(d, given=given, log=tuple((i % 2, a, "trusted") for i, a in enumerate(given))))
    s = play(s, (answering(s), f"answer 0 {s.duel.letter}last"))  # the last answer a duel holds, in no time
    assert len(s.duel.given) == MAX_ANSWERS and saved_and_loaded(s) == s
    with pytest.raises(IllegalActionError) as refused:
        G.apply(s, answering(s), f"answer 0 {s.duel.letter}more")
    assert str(MAX_ANSWERS) in str(refused.value)
    assert G.bot_action(s, answering(s)).startswith("pass ")  # the bot passes instead
    s = play(s, (answering(s), "pass 0"))
    assert saved_and_loaded(s) == s


def test_the_floor_answer_longer_than_a_saved_duel_holds_is_refused() -> None:
    s = running_duel()
    letter = s.duel.letter
    with pytest.raises(IllegalActionError, match=str(MAX_ANSWER)):
        G.apply(s, answering(s), f"answer 0 {letter}{'x' * MAX_ANSWER}")
    s = play(s, (answering(s), f"answer 0 {letter}{'x' * (MAX_ANSWER - 1)}"))
    assert saved_and_loaded(s) == s


def category(cid: str, answer: str = "Aster") -> dict[str, Any]:
    return {"id": cid, "name": "Mine", "flags": [], "answers": [answer]}


@pytest.mark.parametrize(("what", "content"), [
    ("a category id past the stored limit", {"categories": [category("server_" + "x" * MAX_CATEGORY_ID)]}),
    ("an answer past the stored limit", {"categories": [category("server_1", "A" * (MAX_ANSWER + 1))]}),
    ("an added answer past the stored limit", {"answers": {"flowers": ["A" * (MAX_ANSWER + 1)]}}),
    ("more categories than a game holds",
     {"categories": [category(f"server_{i}") for i in range(MAX_CUSTOM_CATEGORIES + 1)]}),
])
def test_the_floor_server_content_a_saved_game_cannot_hold_is_refused_as_an_option(what: str, content: Any) -> None:
    with pytest.raises(OptionsError):
        G.new(2, {"content": content}, "content")


def test_the_floor_server_content_at_the_limits_starts_a_game_that_loads() -> None:
    content = {"categories": [category("server_" + "x" * (MAX_CATEGORY_ID - 7), "A" * MAX_ANSWER)],
               "answers": {"flowers": ["B" * MAX_ANSWER]}}
    s = G.new(2, {"content": content}, "content")
    assert saved_and_loaded(s) == s
