"""Adjudication names who was ahead in every built game: the rules' ``standings`` hook counts what the rulebook
counts at the end (Night of the 27 Ninja: prey eliminated or ninjas left; The Floor: the squares a side holds),
so a game an admin or the abandoned-games sweep ends early still says who led."""

from __future__ import annotations

import pytest

from engine import Engine, SeatInfo
from engine import admin as adm
from rules import GAMES


@pytest.fixture
def games() -> dict:
    return dict(GAMES)


USERS = [(101, "Alice"), (102, "Bob"), (103, "Carol")]


@pytest.mark.parametrize(("game", "players"), [("flying_blades", 2), ("flying_blades", 3), ("the_floor", 3)])
def test_standings_end_as_the_outcomes_scores(game: str, players: int) -> None:
    rules = GAMES[game]
    s = rules.new(players, rules.normalize_options(players, {}), f"adjudicate-{game}-{players}")
    for _ in range(5000):
        if rules.outcome(s) is not None:
            break
        assert len(rules.standings(s)) == players
        seat = min(rules.to_move(s))
        s, _ = rules.apply(s, seat, rules.bot_action(s, seat))
    out = rules.outcome(s)
    assert out is not None and rules.standings(s) == list(out.scores)


@pytest.mark.parametrize("game", ["flying_blades", "the_floor"])
async def test_adjudicating_names_the_seat_ahead(engine: Engine, game: str) -> None:
    t = await engine.open_lobby(game, guild_id=9, channel_id=1, host=SeatInfo(*USERS[0]))
    for user in USERS[1:]:
        await engine.join(t.id, SeatInfo(*user))
    t = await engine.start(t.id, USERS[0][0])
    for _ in range(400):  # play on until one seat is ahead of the others
        scores = adm.standings(t)
        assert scores is not None
        if adm.leaders(scores, []):
            break
        seat = min(t.to_move())
        t = (await engine.act(t.id, USERS[seat][0], t.rules.bot_action(t.state, seat))).table
    closed = await adm.adjudicate(engine, t.id, by=999)
    verdict = closed.meta[adm.ADJUDICATED]
    top = max(verdict["scores"])
    assert verdict["leaders"] == [i for i, x in enumerate(verdict["scores"]) if x == top] != [0, 1, 2]
