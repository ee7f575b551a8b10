"""Floating World through the Discord surface: /play to the result, buttons, typed moves, the Nightmare posts."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules.floating_world.bot import nightmare_choice
from tests.discord_harness import (
    USERS,
    Harness,
    Sent,
    check_png,
    choose_select,
    forged_message,
    select_value,
    table_of,
)

MAX_MOVES = 600
SOLO_OPTIONS = "difficulty=hard"


async def start(h: Harness, options: str = "", bots: int = 0) -> int:
    kwargs = {"options": options} if options else {}
    await h.slash("play", "alice", game="floating_world", **kwargs)
    lobby = h.with_button(":lobby:join:")
    for _ in range(bots):
        await h.click(lobby, ":lobby:bot:", "alice")
    await h.click(lobby, ":lobby:start:", "alice")
    return lobby.channel_id


def latest_board(h: Harness) -> Sent:
    return h.with_button("floating_world:hand:")





async def play_one(h: Harness, channel_id: int, n: int) -> list[Sent]:
    """One human move, picked by the rules' bot: a button or a select when the board offers it, else typed."""
    table = await table_of(h, channel_id)
    action = table.rules.bot_action(table.state, 0)
    board = latest_board(h)
    verb = action.split()[0]
    simple = {"end": "End turn", "harvest": "Harvest", "heal": "Heal", "village": "Create Village",
              "seal": "Seal the Gate", "keep": "Keep none"}
    if verb in simple and n % 2 == 0:
        return await h.click(board, simple[verb])
    if verb == "buy" and n % 2 == 0:
        return await h.click(board, f"buy.{action.split()[1]}:")
    for kind in ("go", "roll"):
        if n % 3 == 0 and select_value(board, kind, action) is not None:
            return await choose_select(h, board, kind, action)
    if n % 5 == 1:
        return await h.slash("move", "alice", channel_id, action=action)
    return await h.say(action, "alice", channel_id)


@pytest.mark.parametrize("options", [SOLO_OPTIONS])
async def test_solo_game_from_play_to_result(harness: Harness, options: str) -> None:
    h = harness
    channel_id = await start(h, options)
    first = latest_board(h)
    assert first.pngs(), "the map is posted when the game starts"
    assert "End turn" in first.labels()
    nightmares = 0
    harvests = 0
    for n in range(MAX_MOVES):
        table = await table_of(h, channel_id)
        before = table.state.turn
        if table.state.harvest is not None:
            harvests += 1
            labels = latest_board(h).labels()
            assert "Keep none" in labels and any("(" in x for x in labels)
        out = await play_one(h, channel_id, n)
        assert not [s for s in out if s.ephemeral and s.kind != "defer"], [s.text for s in out]
        public = h.public(out)
        assert public and public[-1].pngs(), "a map after every move"
        night = [s for s in public if "Nightmare of turn" in (s.content or "")]
        table = await h.bot.engine.table_in_channel(channel_id)
        if table is None or table.state.turn != before:
            assert len(night) == 1, [s.content for s in public]
            assert len(night[0].pngs()) == 2, "the Nightmare's image and the new map"
            nightmares += 1
        else:
            assert not night
        if table is None:
            break
    else:
        pytest.fail("the game did not end")
    final = h.with_button("Rematch")
    assert "game over" in final.text
    assert nightmares >= 1
    for png in h.images():
        check_png(png)
    for s in h.sent:
        assert all(len(cid) <= 100 for cid in s.custom_ids())
        assert len(s.content or "") <= 2000
        for row in s.components:
            assert len(row.get("components", [])) <= 5
    print(f"{nightmares} nightmares, {harvests} harvests, {len(h.images())} images")


async def test_stale_and_forged_buttons_change_nothing(harness: Harness) -> None:
    h = harness
    channel_id = await start(h)
    old = h.snapshot(latest_board(h))
    await h.say("village", "alice", channel_id)
    table = await table_of(h, channel_id)
    version = table.version
    out = await h.click(old, "End turn")  # drawn for an older version
    assert any(s.ephemeral for s in out)
    assert (await table_of(h, channel_id)).version == version
    out = await h.click(latest_board(h), "End turn", "bob")  # not seated
    assert any(s.ephemeral for s in out)
    assert (await table_of(h, channel_id)).version == version
    for custom_id in (f"floating_world:end:99999:{version}", f"floating_world:end:{table.id}:{version + 7}",
                      f"floating_world:buy.lucky_coin:{table.id}:{version}", "floating_world:end:" + "9" * 40 + ":1"):
        button = {"type": 2, "style": 2, "label": "Forged", "custom_id": custom_id}
        out = await h.click(forged_message(h, latest_board(h), button), "Forged")
        assert any(s.ephemeral and s.kind != "defer" for s in out), custom_id
    select = {"type": 3, "custom_id": f"floating_world:go:{table.id}:{version}",
              "options": [{"label": "x", "value": "resign"}]}
    out = await h.feed(h.select_payload(forged_message(h, latest_board(h), select), ["resign"]))
    assert any(s.ephemeral and s.kind != "defer" for s in out)
    after = await table_of(h, channel_id)
    assert after.version == version and after.status == "active"


@pytest.mark.usefixtures("webp")
async def test_harvest_shows_cards_and_buying_works(harness: Harness) -> None:
    h = harness
    channel_id = await start(h, "quick_start=on")
    await h.click(latest_board(h), "Create Village")
    out = await h.click(latest_board(h), "Harvest")
    board = h.public(out)[-1]
    assert "Keep none" in board.labels()
    # the drawn cards are posted as an image of their own, beside the map
    names = [name for sent in h.public(out) for name, _ in sent.files]
    dreams = [data for sent in h.public(out) for name, data in sent.files if name.endswith("-dreams.webp")]
    assert len(dreams) == 1 and any(not n.endswith("-dreams.webp") for n in names)
    check_png(dreams[0])
    table = await table_of(h, channel_id)
    cards = list(table.state.harvest)
    assert cards and all(any(f"buy.{c}:" in cid for cid in board.custom_ids()) for c in cards)
    praise = table.state.kitsune[0].praise
    out = await h.click(board, f"buy.{cards[0]}:")
    table = await table_of(h, channel_id)
    assert table.state.harvest is None
    assert cards[0] in (*table.state.kitsune[0].items, *table.state.kitsune[0].legends,
                        *table.state.kitsune[0].upgrades)
    assert table.state.kitsune[0].praise < praise
    assert "makes" in h.public(out)[-1].text


async def test_help_page_and_my_kitsune(harness: Harness) -> None:
    h = harness
    out = await h.slash("help", "alice", game="floating_world")
    text = "\n".join(s.text for s in out)
    for word in ("move x,y", "land x,y", "attack oni mind", "keep none", "difficulty", "final_fox"):
        assert word in text
    await start(h, bots=1)
    out = await h.click(latest_board(h), "My Kitsune")
    private = [s for s in out if s.ephemeral and s.kind != "defer"]
    assert private and "Body" in private[-1].text and private[-1].pngs()
    assert USERS["alice"]


async def test_with_a_bot_each_nightmare_is_one_message_with_its_images(harness: Harness) -> None:
    h = harness
    channel_id = await start(h, bots=1)
    out = await h.click(latest_board(h), "End turn")
    public = h.public(out)
    night = [s for s in public if "Nightmare of turn" in (s.content or "")]
    assert [n.content.count("Nightmare of turn") for n in night] == [1, 1], [s.content for s in public]
    assert all(len(n.pngs()) == 2 for n in night)
    for png in h.images(out):
        check_png(png)
    assert "Spawn dice" in night[0].content
    last = public[-1]
    assert last.pinged == [USERS["alice"]] and "End turn" in last.labels()
    table = await table_of(h, channel_id)
    assert table.to_move() == {0}
    assert any("🟦 ⚙ Bot" in s.content for s in public if s.content)
    print("\n---\n".join(s.content or "" for s in public))


async def test_help_and_intro_suggest_only_legal_moves_and_never_attacking_a_partner(harness: Harness) -> None:
    """Was: "`attack 2 body` — attack player 2's Kitsune" in /help, and an intro suggesting `move 1,0` and
    `attack oni mind` when neither was legal."""
    h = harness
    out = await h.slash("help", "alice", game="floating_world")
    assert "attack 2" not in "\n".join(s.text for s in out)
    channel_id = await start(h, bots=1)
    intro = next(s.text for s in h.sent if "Type moves such as" in (s.text or ""))
    table = await table_of(h, channel_id)
    shown = re.findall(r"`([^`]+)`", intro.split("Type moves such as", 1)[1].split(", or use", 1)[0])
    assert shown and set(shown) <= set(table.rules.legal_actions(table.state, 0))
    assert not [a for a in shown if a.startswith("attack 2")]
    out = await h.click(latest_board(h), "My Kitsune")
    private = [s for s in out if s.ephemeral and s.kind != "defer"][-1].text
    moves = private.split(":", 2)[-1]
    assert moves.index("`attack 2 body`") > moves.index("`end`")  # the partner comes after what is worth doing


async def reach_decision(h: Harness, channel_id: int, users: dict[int, str]) -> Any:
    """Two humans play the rules' bot moves (typed) until the Nightmare waits for a decision."""
    for _ in range(MAX_MOVES):
        table = await table_of(h, channel_id)
        if table.state.pending is not None or table.status != "active":
            return table
        seat = table.state.current
        await h.say(table.rules.bot_action(table.state, seat), users[seat], channel_id)
    raise AssertionError("no Nightmare decision reached")


async def test_nightmare_decision_is_a_select_for_the_deciding_player_only(harness: Harness) -> None:
    """Issue 23: the rulebook's Nightmare choices (6.1 order, 6.4.3 spawn: the current player's; 6.2 flee: the
    fleeing Kitsune's owner's): a select of exactly the legal choices; another player's pick and a stale select
    are refused and change nothing."""
    h = harness
    await h.slash("play", "alice", game="floating_world")
    lobby = h.with_button(":lobby:join:")
    await h.click(lobby, ":lobby:join:", "bob")
    await h.click(lobby, ":lobby:start:", "alice")
    channel_id = lobby.channel_id
    table = await table_of(h, channel_id)
    users = {table.seat_of(USERS[name]): name for name in ("alice", "bob")}
    table = await reach_decision(h, channel_id, users)
    assert table.state.pending is not None, "the game ended before any decision"
    seat = min(table.to_move())
    decider, other = users[seat], users[1 - seat]
    board = h.with_button("floating_world:decide:")
    choices = list(table.state.pending["choices"])
    select = select_value(board, "decide", choices[0])
    assert select is not None and [o["value"] for o in select["options"]] == choices[:25]
    marked = [o["value"] for o in select["options"] if o.get("description")]
    assert marked == [nightmare_choice(table.state)]  # "the bot's choice" is what a bot seat answers here
    assert board.pngs() and USERS[decider] in board.pinged
    assert "choose" in board.content  # the turn line says what the Nightmare waits for
    version = table.version
    old = h.snapshot(board)
    out = await choose_select(h, board, "decide", choices[0], other)
    assert any(s.ephemeral and s.kind != "defer" for s in out)
    assert (await table_of(h, channel_id)).version == version
    out = await choose_select(h, board, "decide", choices[0], decider)
    assert not [s for s in out if s.ephemeral and s.kind != "defer"], [s.text for s in out]
    after = await table_of(h, channel_id)
    assert after.version > version
    out = await choose_select(h, old, "decide", choices[0], decider)  # the same select again: stale
    assert any(s.ephemeral and s.kind != "defer" for s in out)
    assert (await table_of(h, channel_id)).version == after.version

