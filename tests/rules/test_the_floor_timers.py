"""The Floor: what happens when a surface timer runs out (the Ready deadline, the vote deadline, the turn timer),
and a server's own content (custom categories, answers added to the server's list) entering a game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import replay
from rules.base import OptionsError
from rules.the_floor import State, TheFloor
from rules.the_floor import answers as real_answers
from tests.rules.tf_helpers import G, drafted, play


def challenged(players: int = 2, **options: Any) -> State:
    s = drafted(players, "timers", **options)
    seat = s.seats_of(s.current)[0]
    s, _ = G.apply(s, seat, G.default_action(s, seat))
    assert s.duel is not None and not s.duel.started
    return s


def test_an_absent_defender_loses_the_duel_when_the_ready_deadline_passes() -> None:
    s = challenged()
    d = s.duel
    s = play(s, (s.seats_of(d.challenger)[0], "ready"))
    s2, events = G.apply(s, s.seats_of(d.defender)[0], "timeout")
    assert any(e.kind == "absent" and e.seat == d.defender for e in events)
    over = next(e for e in events if e.kind == "duel_over")
    assert over.seat == d.challenger and over.data["loser"] == d.defender
    assert s2.duel is None and d.category in s2.discard  # resolved as a lost duel: the played card is discarded


def test_a_challenger_who_never_shows_up_loses_the_duel_it_started() -> None:
    s = challenged()
    d = s.duel
    _, events = G.apply(s, s.seats_of(d.challenger)[0], "timeout")
    over = next(e for e in events if e.kind == "duel_over")
    assert over.seat == d.defender and over.data["loser"] == d.challenger


def test_the_ready_timeout_is_refused_for_a_side_that_is_ready() -> None:
    s = challenged()
    d = s.duel
    s = play(s, (s.seats_of(d.challenger)[0], "ready"))
    with pytest.raises(Exception):  # noqa: B017 - NotYourTurnError: the ready side is not to move
        G.apply(s, s.seats_of(d.challenger)[0], "timeout")


def running_with_unknown_answer(players: int) -> State:
    s = challenged(players)
    d = s.duel
    s = play(s, (s.seats_of(d.challenger)[0], "ready"), (s.seats_of(d.defender)[0], "ready"))
    runner = s.seats_of(s.duel.challenger)[0]
    s = play(s, (runner, f"answer 1200 {s.duel.letter}zzz"))
    assert s.duel.judging
    return s


def test_when_the_vote_closes_the_votes_cast_decide_and_none_accepts() -> None:
    s = running_with_unknown_answer(3)
    judge = min(G.to_move(s))
    s2 = play(s, (judge, "timeout"))
    assert not s2.duel.judging and s2.duel.log[-1][2] == "judged" and s2.duel.active == 1


def test_when_the_vote_closes_a_reject_cast_rejects() -> None:
    s = running_with_unknown_answer(4)
    judges = sorted(G.to_move(s))
    assert len(judges) == 2
    s = play(s, (judges[0], "judge reject"))
    s2 = play(s, (judges[1], "timeout"))
    assert s2.duel.log[-1][2] == "rejected" and s2.duel.active == 0


def test_the_clock_is_stopped_while_judges_vote_until_the_deadline() -> None:
    s = running_with_unknown_answer(3)
    clocks = s.duel.clocks
    s2 = play(s, (min(G.to_move(s)), "timeout"))
    assert s2.duel.clocks == clocks


def test_the_generic_turn_timer_runs_for_challenges_and_choices_not_during_a_duel() -> None:
    s = drafted(2, "timed")
    assert G.turn_timed(s)
    s = challenged()
    assert not G.turn_timed(s)


def test_timer_options_take_zero_for_none_and_a_range() -> None:
    o = G.normalize_options(2, {"turn_minutes": 30, "ready_minutes": 0, "vote_seconds": 60})
    assert (o["turn_minutes"], o["ready_minutes"], o["vote_seconds"]) == (30, 0, 60)
    for bad in ({"vote_seconds": 301}, {"ready_minutes": "x"}, {"turn_minutes": True}):
        with pytest.raises(OptionsError):
            G.normalize_options(2, bad)


# --- a server's own content ---------------------------------------------------------------------------------

BOARD_GAMES = ["Azul", "Brass", "Carcassonne", "Dixit", "Everdell", "Gloomhaven", "Hanabi", "Inis", "Jaipur",
               "Kingdomino", "Love Letter", "Mysterium", "Nemesis", "Onitama", "Pandemic", "Root", "Scythe",
               "Terraforming Mars", "Ubongo", "Wingspan", "Yokohama", "Zendo"]


def server_content() -> dict[str, Any]:
    return {"categories": [{"id": "server_1", "name": "Board games", "flags": [], "answers": BOARD_GAMES}],
            "answers": {"flowers": ["Fzzzflower"]}}


def test_server_categories_join_the_deck_and_are_named_in_views() -> None:
    s = G.new(2, {"content": server_content()}, "custom")
    cards = {c for h in s.hands for c in h} | set(s.deck)
    assert "server_1" in cards
    assert G.category_name(s, "server_1") == "Board games"
    assert json.loads(s.custom)["categories"][0]["name"] == "Board games"


def test_answers_on_the_servers_list_are_accepted_at_once_with_the_real_checker() -> None:
    game = TheFloor(checker=real_answers.check)
    s = game.new(2, {"content": {"answers": {"countries": ["Freedonia"]}}}, "learned")
    category = game.catalog(s)["countries"]
    assert real_answers.check("Freedonia", category, "F", [], "en").status == "accepted"
    plain = game.new(2, {}, "learned")
    assert real_answers.check("Freedonia", game.catalog(plain)["countries"], "F", [], "en").status == "unknown"


def test_a_game_with_server_content_replays_and_round_trips() -> None:
    options = G.normalize_options(2, {"content": server_content()})
    s = G.new(2, options, "replay")
    log = []
    while s.phase == "draft":
        seat = min(G.to_move(s))
        action = G.bot_action(s, seat)
        s, _ = G.apply(s, seat, action)
        log.append((seat, action))
    assert replay(G, 2, options, "replay", log) == s
    assert G.from_json(json.loads(json.dumps(G.to_json(s)))) == s


def test_malformed_server_content_is_refused() -> None:
    for bad in ({"categories": [{"id": "flowers", "name": "x", "flags": [], "answers": ["a"]}]},
                {"categories": [{"id": "server_1", "name": "x", "flags": ["nope"], "answers": ["a"]}]},
                {"answers": {"flowers": "Fzzz"}}, {"other": []}):
        with pytest.raises(OptionsError):
            G.normalize_options(2, {"content": bad})


def test_a_bot_on_a_team_with_a_human_leaves_the_sides_moves_to_the_human_but_still_judges() -> None:
    s = G.new(6, {}, "team")  # 3 sides of two: seats 0 and 3 are side 0
    assert G.bot_defers(s, 3, frozenset({0, 1, 2, 4}))  # seat 3 is a bot whose teammate (seat 0) is human
    assert not G.bot_defers(s, 5, frozenset({0, 1, 3, 4}))  # seat 5's teammate (seat 2) is a bot too
    s = running_with_unknown_answer(6)
    assert not G.bot_defers(s, 5, frozenset({0}))
