"""For every game and every timeout policy it allows: when all its players are away for a week, the game waits
(paused, no clock running, no stand-in finishing it) and never ends as a normal result. The real rules, the real
engine and storage, a fake clock."""

from __future__ import annotations

import pytest

from engine import Engine, SeatInfo
from engine import policies as pol
from rules import GAMES
from storage import Store

CASES = [(game, policy) for game in sorted(GAMES) for policy in pol.allowed_policies(GAMES[game])]


@pytest.fixture
def games() -> dict:
    return dict(GAMES)


@pytest.mark.parametrize(("game", "policy"), CASES)
async def test_a_game_everyone_left_for_a_week_waits_whatever_its_policy(engine: Engine, clock, store: Store,
                                                                         game: str, policy: str) -> None:
    t = await engine.open_lobby(game, guild_id=1, channel_id=1, host=SeatInfo(11, "Ann"),
                                options={"days": 1, "on_timeout": policy, "forfeit_after": 2})
    await engine.join(t.id, SeatInfo(12, "Ben"))
    t = await engine.start(t.id, 11)
    for _ in range(7 * 4):
        clock.advance(hours=6)
        while await engine.run_due():
            pass
        await engine.play_bots(t.id)
    table = await engine.get(t.id)
    assert table.status == "active" and table.outcome is None, "nobody came: no result"
    assert table.meta.get(pol.PAUSED) is True, (table.meta, [a.action for a in await store.actions(t.id)])
    assert engine.clocks(table) == {} and await engine.play_bots(t.id) == []
    log = await store.actions(t.id)
    assert log and all(a.source == "timer" for a in log), "every move logged was the clock's, none a player's"
    assert not any(a.action == "resign" for a in log), "nobody forfeited to someone just as absent"
