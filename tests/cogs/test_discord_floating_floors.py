"""Floating Floors through the Discord surface: /play to the result, buttons, selects with previews, typed moves,
/whatif, stale and forged components."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.utils.surface import shown_names
from render import floating_floors as ff_render
from tests.discord_harness import (
    Harness,
    Sent,
    check_png,
    choose_select,
    forged_message,
    select_value,
    table_of,
)

MAX_MOVES = 1500


async def start(h: Harness, options: str = "", bots: int = 1) -> int:
    kwargs = {"options": options} if options else {}
    await h.slash("play", "alice", game="floating_floors", **kwargs)
    lobby = h.with_button(":lobby:join:")
    for _ in range(bots):
        await h.click(lobby, ":lobby:bot:", "alice")
    await h.click(lobby, ":lobby:start:", "alice")
    return lobby.channel_id


def latest_board(h: Harness) -> Sent:
    return h.with_button("floating_floors:hand:")



def selects(message: Sent) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if c.get("type") == 3]




async def play_one(h: Harness, channel_id: int, n: int) -> list[Sent]:
    """One human move, picked by the rules' bot: a button or a select when the board offers it, else typed."""
    table = await table_of(h, channel_id)
    action = table.rules.bot_action(table.state, 0)
    board = latest_board(h)
    verb = action.split()[0]
    if verb in ("end", "claim", "reset") and n % 2 == 0 and action in ("end", "claim", "reset"):
        label = {"end": "End turn", "claim": "Claim Bansen", "reset": "Set the card up again"}[verb]
        return await h.click(board, label)
    if verb == "take" and action.endswith(" pool") and n % 2 == 0:
        return await h.click(board, f"take.{action.split()[1]}:")
    kind = {"move": "step", "place": "put", "board": "lay", "take": "grab", "chakra": "home"}.get(verb)
    if kind and n % 3 == 0 and select_value(board, kind, action) is not None:
        return await choose_select(h, board, kind, action)
    if n % 5 == 1:
        return await h.slash("move", "alice", channel_id, action=action)
    return await h.say(action, "alice", channel_id)


async def test_game_against_a_bot_from_play_to_result(harness: Harness) -> None:
    h = harness
    channel_id = await start(h)
    first = latest_board(h)
    assert first.pngs(), "the map is posted when the game starts"
    assert any(":home:" in c["custom_id"] for c in selects(first)), "the Chakra is chosen from a select"
    await choose_select(h, first, "home", "chakra e6")
    table = await table_of(h, channel_id)
    assert table.state.seats[0].alcove is not None
    for n in range(MAX_MOVES):
        table = await h.bot.engine.table_in_channel(channel_id)
        if table is None or table.status != "active":
            break
        if table.state.current != 0:
            await h.settle()
            continue
        out = await play_one(h, channel_id, n)
        assert not [s for s in out if s.ephemeral and s.kind != "defer"], [s.text for s in out]
        assert h.public(out) and h.public(out)[-1].pngs(), "a map after every move"
    else:
        pytest.fail("the game did not end")
    final = h.with_button("Rematch")
    assert "game over" in final.text
    for png in h.images()[:40]:
        check_png(png)
    for s in h.sent:
        assert all(len(cid) <= 100 for cid in s.custom_ids())
        assert len(s.content or "") <= 2000
        for row in s.components:
            assert len(row.get("components", [])) <= 5
        for c in selects(s):
            assert 1 <= len(c["options"]) <= 25
            assert all(len(o["label"]) <= 100 and len(o.get("description") or "") <= 100 for o in c["options"])


async def test_select_options_preview_the_balance(harness: Harness) -> None:
    h = harness
    await start(h, "chakra=middle")
    for _ in range(3):  # take the rolled Jutsu from the pool
        board = latest_board(h)
        take = [label for label in board.labels() if label.startswith("Take ")]
        if not take:
            break
        await h.click(board, take[0])
    board = latest_board(h)
    put = [c for c in selects(board) if ":put:" in c["custom_id"]]
    assert put, [c["custom_id"] for c in selects(board)]
    assert all(o.get("description") for o in put[0]["options"])


async def test_whatif_answers_privately_and_changes_nothing(harness: Harness) -> None:
    h = harness
    channel_id = await start(h)
    table = await table_of(h, channel_id)
    version = table.version
    action = table.rules.legal_actions(table.state, 0)[0]
    out = await h.slash("whatif", "alice", channel_id, action=action)
    private = [s for s in out if s.ephemeral and s.kind != "defer"]
    assert private and "What if" in private[-1].text
    assert (await table_of(h, channel_id)).version == version
    out = await h.slash("whatif", "alice", channel_id, action="fly away")
    assert any(s.ephemeral and "would be refused" in s.text for s in out)
    out = await h.slash("move", "alice", channel_id, action=f"? {action}")
    assert any(s.ephemeral and "What if" in s.text for s in out)
    assert (await table_of(h, channel_id)).version == version


async def test_stale_and_forged_components_change_nothing(harness: Harness) -> None:
    h = harness
    channel_id = await start(h)
    table = await table_of(h, channel_id)
    version = table.version
    out = await h.click(latest_board(h), "My ninja", "bob")  # not seated
    assert any(s.ephemeral for s in out)
    for custom_id in (f"floating_floors:end:99999:{version}", f"floating_floors:end:{table.id}:{version + 7}",
                      f"floating_floors:take.bs:{table.id}:{version - 1}", "floating_floors:end:" + "9" * 40 + ":1"):
        button = {"type": 2, "style": 2, "label": "Forged", "custom_id": custom_id}
        out = await h.click(forged_message(h, latest_board(h), button), "Forged")
        assert any(s.ephemeral and s.kind != "defer" for s in out), custom_id
    select = {"type": 3, "custom_id": f"floating_floors:step:{table.id}:{version}",
              "options": [{"label": "x", "value": "resign"}]}
    out = await h.feed(h.select_payload(forged_message(h, latest_board(h), select), ["resign"]))
    assert any(s.ephemeral and s.kind != "defer" for s in out)
    after = await table_of(h, channel_id)
    assert after.version == version and after.status == "active"


async def test_without_physics_is_a_private_board_without_the_overlay(harness: Harness) -> None:
    h = harness
    channel_id = await start(h)
    version = (await table_of(h, channel_id)).version
    out = await h.click(latest_board(h), "Without physics", "bob")  # anyone may look
    private = [s for s in out if s.ephemeral and s.kind != "defer"]
    assert private and private[-1].pngs() and "only you" in private[-1].text
    table = await table_of(h, channel_id)
    view = table.rules.view(table.state, None)
    assert private[-1].pngs()[0] == ff_render.board_image(view, names=shown_names(table), physics=False)
    assert table.version == version


async def test_help_page(harness: Harness) -> None:
    h = harness
    out = await h.slash("help", "alice", game="floating_floors")
    text = "\n".join(s.text for s in out)
    for word in ("take bt pool", "place bs e5", "board c2", "claim", "shaky", "challenges", "whatif"):
        assert word in text


async def test_whatif_quotes_what_was_typed_safely(harness: Harness) -> None:
    h = harness
    channel_id = await start(h)
    out = await h.slash("whatif", "alice", channel_id, action="a`**boom**` " + "x" * 80)
    reply = [s for s in out if s.ephemeral and s.kind != "defer"][-1].text
    outside_code = re.sub(r"(`+).*?\1", "", reply)
    assert "**" not in outside_code, reply  # a backtick typed cannot break out of the quote
    assert "would be refused" in reply and len(reply) < 400


async def navigating_table(h: Harness) -> Any:
    """A table where the human (seat 0) may end the turn: its rolled Jutsu taken."""
    channel_id = await start(h, "chakra=middle")
    for _ in range(4):
        table = await table_of(h, channel_id)
        if table.state.phase == "navigate":
            return table
        await h.say(table.rules.bot_action(table.state, 0), "alice", channel_id)
    pytest.fail("never reached the navigate phase")


async def test_whatif_end_never_shows_the_next_players_roll(harness: Harness) -> None:
    from dataclasses import replace

    from cogs import floating_floors as cog

    h = harness
    table = await navigating_table(h)
    marked = [replace(table, state=replace(table.state, seed=seed)) for seed in ("marker-a", "marker-b")]
    real = [t.rules.apply(t.state, 0, "end")[0].roll for t in marked]
    assert real[0] != real[1]  # the real move draws a different roll under each marker seed
    previews = [cog.whatif(t, 0, "end", "en") for t in marked]
    assert previews[0] == previews[1]  # text and image: the same whatever the roll to come
    assert all(" ".join(r) not in previews[0][0] for r in real)
    out = await h.slash("whatif", "alice", table.channel_id, action="end")
    private = [s for s in out if s.ephemeral and s.kind != "defer"][-1]
    assert private.pngs() == [cog.whatif(table, 0, "end", "en")[1]]


def test_a_typed_move_of_several_placements_passes_the_chat_filter() -> None:
    """The rulebook's "multiple actions at the same time" typed in chat (`place bs i1 + place bt i2 e + move g1`,
    ten words) is read as a move: the cheap filter counts words per part; a long chat line is still not a move."""
    from cogs.lobby import GENERIC

    assert GENERIC.maybe_move("place bs i1 + place bt i2 e + move g1")
    assert not GENERIC.maybe_move("I think we should all place our squares over there")


def test_each_select_offers_exactly_the_actions_of_its_verbs() -> None:
    """The selects are built from one grouping pass (`by_kind`): each kind gets the actions whose verb it offers,
    in the legal list's order, and no action lands in two selects."""
    from cogs.floating_floors import SELECT_VERBS, by_kind
    from engine.core import new_game_options
    from rules.floating_floors.game import FloatingFloors

    rules = FloatingFloors()
    state = rules.new(3, new_game_options(rules, {}), "select-groups")
    seen_kinds: set[str] = set()
    for _ in range(120):
        if state.phase == "over":
            break
        actions = rules.legal_actions(state, state.current)
        groups = by_kind(actions)
        for kind, verbs in SELECT_VERBS.items():
            assert groups.get(kind, []) == [a for a in actions if a.split()[0] in verbs], (kind, state.turn)
        assert sum(map(len, groups.values())) == sum(1 for a in actions if a.split()[0] in
                                                      {v for vs in SELECT_VERBS.values() for v in vs})
        seen_kinds |= set(groups)
        state, _ = rules.apply(state, state.current, rules.bot_action(state, state.current))
    assert {"grab", "step", "put"} <= seen_kinds  # the walk reached the selects that matter
