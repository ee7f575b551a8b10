"""The engine with the real game: a full game through engine.act, rebuilt from its log; timers in the draft."""

from __future__ import annotations

import orjson
import pytest

from engine import Engine, SeatInfo, Table, replay
from rules import GAMES
from storage import Store

HUMAN = 7


@pytest.fixture
async def fb_engine(store: Store, clock) -> Engine:
    e = Engine(store, games=GAMES, now=clock)
    yield e
    await e.stop()


async def table_with_bots(engine: Engine, *, players: int = 3, options: dict | None = None, seed: str = "fb"):
    t = await engine.open_lobby("flying_blades", guild_id=1, channel_id=5, host=SeatInfo(HUMAN, "Human"),
                                options=options, seed=seed)
    for _ in range(players - 1):
        await engine.add_bot(t.id, HUMAN)
    return await engine.start(t.id, HUMAN)


async def play_to_end(engine: Engine, t: Table) -> Table:
    """The bots' moves, and the human's (the rules' bot move), until the game is over: the table then."""
    for _ in range(2000):
        await engine.play_bots(t.id)
        t = await engine.get(t.id)
        if t.status != "active":
            break
        (seat,) = t.humans_to_move()
        await engine.act(t.id, HUMAN, t.rules.bot_action(t.state, seat), version=t.version)
    return await engine.get(t.id)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
async def test_a_full_game_against_bots_is_stored_and_rebuilds_from_its_log(fb_engine: Engine, store: Store,
                                                                           players: int) -> None:
    t = await table_with_bots(fb_engine, players=players, seed=f"full-{players}")
    rules = t.rules
    t = await play_to_end(fb_engine, t)
    assert t.status == "finished" and t.outcome is not None
    row = await store.load_game(t.id)
    log = [(a.seat, a.action) for a in await store.actions(t.id)]
    assert len(log) == row.moves
    assert rules.to_json(replay(rules, players, row.options, row.seed, log)) == row.state


async def test_a_draft_timeout_keeps_the_bots_choice_within_the_price_limit(fb_engine: Engine, clock,
                                                                           store: Store) -> None:
    t = await table_with_bots(fb_engine, options={"turn_minutes": 5})
    await fb_engine.play_bots(t.id)  # the bots keep their cards; the human is still choosing
    assert (await fb_engine.get(t.id)).humans_to_move() == [0]
    clock.advance(minutes=6)
    notices = await fb_engine.run_due()
    timeout = next(n for n in notices if n.kind == "timeout")
    assert timeout.data["result"].action == "timeout"  # logged as a timeout; the rules keep the bot's choice
    view = fb_engine.view(await fb_engine.get(t.id), 0)
    prices = {"vanish": 1, "shuriken": 1, "double": 2, "triple": 3, "dragon": 3, "circle": 4, "bomb": 5}
    assert sum(prices[c] for c in view["hand"]) <= 10
    assert (await store.actions(t.id))[-len(timeout.data["bots"]) - 1].source == "timer"


async def test_the_stored_snapshot_holds_hands_but_no_view_of_another_seat_does(fb_engine: Engine) -> None:
    t = await table_with_bots(fb_engine)
    await fb_engine.play_bots(t.id)
    t = await fb_engine.get(t.id)
    spectator = fb_engine.view(t, None)
    assert spectator["hand"] is None and spectator["hands"] is None
    bot_hand = t.rules.view(t.state, 1)["hand"]
    assert bot_hand, "the bot kept some cards"
    human = fb_engine.view(t, 0)
    assert human["hands"] is None and human["hand"] == t.rules.view(t.state, 0)["hand"]
    assert human["hand_counts"][1] == len(bot_hand)
    # Nothing else in the view is a list of card ids: the bot's cards appear only as a count.
    cards = {"vanish", "shuriken", "double", "triple", "dragon", "circle", "bomb"}
    lists = [v for k, v in human.items() if k != "hand" and isinstance(v, list)]
    assert not any(isinstance(x, str) and x in cards for v in lists for x in v)
    assert orjson.dumps(human)


async def test_a_typed_move_is_logged_in_canonical_notation(fb_engine: Engine, store: Store) -> None:
    t = await table_with_bots(fb_engine, options={"cards": "none"})
    legal = t.rules.legal_actions(t.state, 0)
    attack = next(a for a in legal if a.startswith("attack"))
    shouted = "  " + attack.upper().replace(" ", "   ") + " "
    result = await fb_engine.act(t.id, HUMAN, shouted)
    assert result.action == attack
    assert (await store.actions(t.id))[0].action == attack
