"""Floor Plan with buttons only: **Suggest a move** offers the planner's best few moves for the roll, each opens the
usual preview with Confirm, so a whole game needs no typed coordinates. The suggestions are private, belong to the
player who asked, go stale with the roll, and survive a restart (they are recomputed from the state)."""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import pytest

from cogs.floor_plan import PICK_TEMPLATE, TABLE_TEMPLATE, PickButton, TableButton
from rules.floor_plan import planner
from tests.cogs.test_discord_floor_plan import MAX_ROUNDS, check_limits, start_floor_plan
from tests.discord_harness import USERS, Harness, Sent, check_png, snowflake, table_of

SUGGEST = "Suggest a move"


async def suggestions_for(h: Harness, user: str) -> Sent:
    out = await h.click(h.with_button(SUGGEST), SUGGEST, user)
    assert not h.public(out), "suggestions are private"
    reply = out[-1]
    assert reply.ephemeral, reply.text
    return reply


async def pick(h: Harness, offered: Sent, user: str, n: int = 1) -> Sent:
    out = await h.click(offered, str(n), user)
    shown = out[-1]
    assert shown.ephemeral and "Preview of" in shown.text, shown.text
    return shown


async def test_a_solo_game_can_be_played_to_the_end_with_buttons_only(harness: Harness) -> None:
    h = harness
    channel_id, _ = await start_floor_plan(h)
    table_id = (await table_of(h, channel_id)).id
    rounds = 0
    for _ in range(MAX_ROUNDS):
        table = await h.bot.engine.get(table_id)
        if table.status != "active":
            break
        offered = await suggestions_for(h, "alice")
        labels = offered.labels()
        assert labels[0] == "1" and "My sheet" in labels and 2 <= len(labels) <= 5
        assert f"round {table.state.round}" in offered.text
        shown = await pick(h, offered, "alice", 1)
        assert shown.pngs() and shown.labels() == ["Confirm", "Cancel"]
        await h.click(shown, "Confirm", "alice")
        rounds += 1
    else:
        pytest.fail("the game did not end")
    final = h.with_button("Rematch")
    assert "Solo rating:" in final.text and SUGGEST not in final.labels()
    assert rounds >= 5, "the setup and several rounds, all through buttons"
    for png in h.images()[-3:]:
        check_png(png)
    check_limits(h.sent)


async def test_each_suggestion_is_the_planners_and_its_preview_plays_exactly_it(harness: Harness) -> None:
    h = harness
    channel_id, _ = await start_floor_plan(h, joiners=("bob",))
    for _ in range(2):  # the setup, then a round of play
        table = await table_of(h, channel_id)
        expected = planner.suggest(table.rules, table.state, 0, 4)
        offered = await suggestions_for(h, "alice")
        for n, suggestion in enumerate(expected, start=1):
            assert f"`{suggestion.text}`" in offered.text and f"**{n}.** " in offered.text
        shown = await pick(h, offered, "alice", len(expected))
        assert f"`{expected[-1].text}`" in shown.text
        out = await h.click(shown, "Confirm", "alice")
        assert any(expected[-1].text in s.text for s in out if s.kind == "update")
        table = await table_of(h, channel_id)
        assert table.state.actions[0] == expected[-1].text or table.state.round > 0
        # bob plays his first suggestion: the round closes
        await h.click(await suggestions_for(h, "bob"), "1", "bob")
        await h.click(h.sent[-1], "Confirm", "bob")


async def test_suggestions_belong_to_the_player_and_go_stale_with_the_round(harness: Harness) -> None:
    h = harness
    channel_id, _ = await start_floor_plan(h, joiners=("bob",))
    offered = await suggestions_for(h, "alice")
    # another player cannot open alice's suggestions; someone not seated gets no suggestions
    out = await h.click(offered, "1", "bob")
    assert out[-1].ephemeral and "belong to" in out[-1].text
    out = await h.click(h.with_button(SUGGEST), SUGGEST, "carol")
    assert out[-1].ephemeral and "not playing" in out[-1].text
    # alice plays; asking again says she has drawn
    await h.click(await pick(h, offered, "alice"), "Confirm", "alice")
    out = await h.click(h.with_button(SUGGEST), SUGGEST, "alice")
    assert out[-1].ephemeral and "already drawn" in out[-1].text
    # bob's suggestions from the setup are stale once the round has moved on
    stale = await suggestions_for(h, "bob")
    snapshot = h.snapshot(stale)
    await h.click(await pick(h, stale, "bob"), "Confirm", "bob")
    table = await table_of(h, channel_id)
    assert table.state.round == 1
    out = await h.click(snapshot, "1", "bob")
    assert out[-1].ephemeral and "earlier roll" in out[-1].text
    assert (await table_of(h, channel_id)).version == table.version, "a stale click changes nothing"


async def test_a_suggestion_for_a_text_the_planner_does_not_offer_is_refused(harness: Harness) -> None:
    h = harness
    channel_id, _ = await start_floor_plan(h, joiners=("bob",))
    table = await table_of(h, channel_id)
    # discord.py only dispatches a custom_id the clicked message carries: put the made-up one on a message
    made_up = deepcopy(h.current(await suggestions_for(h, "alice")))
    made_up.message_id = snowflake()
    made_up.components = [{"type": 1, "components": [{"type": 2, "style": 2, "label": "9", "custom_id":
                                                      PickButton(table.id, USERS["alice"], "0badc0de").custom_id}]}]
    h.messages[made_up.message_id] = made_up
    out = await h.click(made_up, "9", "alice")
    assert out[-1].ephemeral and "earlier roll" in out[-1].text
    assert (await table_of(h, channel_id)).version == table.version


async def test_after_a_restart_a_suggestion_still_opens_its_preview(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch, clock: Any, error_log: Any) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    channel_id, _ = await start_floor_plan(old, joiners=("bob",))
    offered = await suggestions_for(old, "alice")
    threads, old_sent = old.threads, old.sent
    await old.close()

    new = await Harness(db, now=clock).start(monkeypatch, threads=threads)
    new.sent, new.messages = list(old_sent), {s.message_id: s for s in old_sent if s.message_id}
    shown = await pick(new, offered, "alice")
    await new.click(shown, "Confirm", "alice")
    assert (await table_of(new, channel_id)).to_move() == {1}
    await new.close()


def test_suggestion_custom_ids_fit_and_match_their_templates() -> None:
    import re

    plan = TableButton("plan", 2**63 - 1, label=SUGGEST)
    assert re.fullmatch(TABLE_TEMPLATE, plan.custom_id) and len(plan.custom_id) <= 100
    pick_button = PickButton(2**63 - 1, 2**63 - 1, "abcdef01", label="4")
    assert re.fullmatch(PICK_TEMPLATE, pick_button.custom_id) and len(pick_button.custom_id) <= 100
