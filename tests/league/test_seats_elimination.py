"""Elimination seats and drawn games: a draw is replayed with seats swapped (or, by the organiser's rule and after
the cap, goes to the higher seed), and the export says who advanced and why."""

from __future__ import annotations

import pytest

from engine.simulate import simulate
from league import elimination as elim
from league.model import Entrant
from league.settings import MAX_REPLAYS, Settings, TournamentError
from league.tournament import Tournament


def _final(draw_rule: str = "rematch") -> Tournament:
    t = Tournament("t", Settings(game="flying_blades", format="single-elimination", draw_rule=draw_rule), "s")
    for i in (1, 2):
        t = t.register(Entrant(f"bot-{i}", f"Bot {i}", rating=2000 - 10 * i))
    return t.start().pair_next()


def _draw(t: Tournament) -> Tournament:
    seats = t.rounds[0].tables[0].seats
    return t.record(1, 0, (seats,))


def test_a_drawn_elimination_game_is_replayed_at_the_same_table_with_seats_swapped():
    t = _final()
    first = t.rounds[0].tables[0].seats
    t = _draw(t)
    table = t.rounds[0].tables[0]
    assert not table.decided and table.seats == first[::-1] and table.game_id is None
    assert [r["seats"] for r in t.rounds[0].extra["replays"]] == [list(first)]
    assert not t.bracket.finished
    t = t.record(1, 0, ((table.seats[1],), (table.seats[0],)))  # the deciding game is won
    match = t.bracket.match("W1-1")
    assert (match.winner, match.reason, match.draws) == (table.seats[1], elim.WON, 1)


def test_every_deciding_game_drawn_up_to_the_cap_sends_the_higher_seed_through():
    t = _final()
    for _ in range(MAX_REPLAYS + 1):
        t = _draw(t)
    match = t.bracket.match("W1-1")
    assert (match.winner, match.reason, match.draws) == ("bot-1", elim.HIGHER_SEED, MAX_REPLAYS + 1)
    assert len(t.rounds[0].extra["replays"]) == MAX_REPLAYS


def test_the_higher_seed_rule_sends_the_higher_seed_through_at_once():
    t = _draw(_final("higher_seed"))
    match = t.bracket.match("W1-1")
    assert (match.winner, match.reason, match.draws) == ("bot-1", elim.HIGHER_SEED, 1)
    assert "replays" not in t.rounds[0].extra


def test_the_export_says_who_advanced_and_why():
    t = _draw(_final("higher_seed"))
    (match,) = t.export()["matches"]
    assert (match["winner"], match["reason"], match["draws"]) == ("bot-1", "higher_seed", 1)


def test_an_unknown_draw_rule_is_refused():
    with pytest.raises(TournamentError) as e:
        Settings(game="flying_blades", format="single-elimination", draw_rule="coin")
    assert e.value.msg.key == "tour.bad_draw_rule"


def test_a_tournament_stored_before_draw_rules_loads_with_the_rematch_rule_and_match_reasons():
    t = _draw(_final("higher_seed"))
    data = t.to_json()
    del data["settings"]["draw_rule"]
    for m in data["bracket"]["matches"]:
        del m["reason"], m["draws"]
    loaded = Tournament.from_json(data)
    assert loaded.settings.draw_rule == "rematch"
    assert loaded.bracket.match("W1-1").reason == elim.WON  # a decided match stored without one: it was played


async def test_the_director_plays_each_deciding_game_with_its_own_deal():
    settings = Settings(game="flying_blades", format="single-elimination")
    sim = await simulate(game="flying_blades", fmt="single-elimination", players=16, table_size=2, seed="s1",
                         settings=settings)
    t = sim.tournament
    replays = [(r.number, x) for r in t.rounds for x in r.extra.get("replays", ())]
    assert replays, "this seed draws at least one elimination game"
    assert all(x["game_id"] is not None for _, x in replays)
    for number, x in replays:  # the deciding game took the swapped seats and has another game than the draw
        table = t.rounds[number - 1].tables[x["table"]]
        assert table.game_id != x["game_id"]
    assert t.bracket.finished
    drawn = [m for m in t.bracket.matches if m.draws]
    assert drawn and all(m.reason in (elim.WON, elim.HIGHER_SEED) for m in drawn)
