"""/resign asks first: Resign / Keep playing buttons (ephemeral for the slash command, public for the prefix
one), only the asking player may answer, and the answer is re-checked against the table; ``!resign confirm``
resigns at once."""

from __future__ import annotations

from cogs.utils.components import ResignButton
from tests.discord_harness import USERS, Harness, resign, start_table, table_of


async def test_slash_resign_asks_privately_and_changes_nothing_yet(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    out = await harness.slash("resign", "bob", channel_id)
    assert len(out) == 1 and out[0].ephemeral and out[0].kind == "response"
    assert "Resign from **Night of the 27 Ninja** #1?" in out[0].text and "rank last" in out[0].text
    assert out[0].labels() == ["Resign", "Keep playing"]
    assert out[0].custom_ids() == [f"flying_blades:resign:{c}:{table.id}:{USERS['bob']}" for c in ("yes", "no")]
    after = await table_of(harness, channel_id)
    assert (after.status, after.version, after.moves) == ("active", table.version, table.moves)


async def test_keep_playing_just_says_so(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    out = await resign(harness, "bob", channel_id, answer="Keep playing")
    answer = out[-1]
    assert answer.kind == "update" and answer.ephemeral and answer.text == "You keep playing."
    assert answer.components == [] and not harness.public(out)
    assert (await table_of(harness, channel_id)).version == table.version


async def test_confirming_resigns_and_posts_the_result(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    asked = await harness.slash("resign", "bob", channel_id)
    shown = harness.snapshot(asked[-1])
    out = await harness.click(asked[-1], "Resign", "bob")
    assert out[0].kind == "update" and out[0].ephemeral and "You have resigned from game #1" in out[0].text
    assert out[0].components == []
    public = harness.public(out)
    assert public and "Bob resigns" in public[0].text and "Alice wins" in public[-1].text
    assert public[-1].labels() == ["Rematch", "Replay"]  # the summary's buttons (cogs/utils/summary.py)
    assert await harness.bot.engine.table_in_channel(channel_id) is None
    out = await harness.click(shown, "Resign", "bob")  # a second click on the question as it was shown
    assert out[0].ephemeral and "This game is over" in out[0].text


async def test_the_same_confirmation_delivered_twice_resigns_once(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob", "carol"], options="cards=none")
    asked = await harness.slash("resign", "carol", channel_id)
    payload = harness.click_payload(asked[-1], "Resign", "carol")
    first = await harness.feed(payload)
    assert "Carol resigns" in harness.public(first)[0].text
    again = await harness.feed(payload)
    assert [s.ephemeral for s in again] == [True] and "already" in again[0].text
    table = await table_of(harness, channel_id)
    assert table.status == "active" and table.state.resigned == (False, False, True)


async def test_only_the_asking_player_can_answer_and_must_still_be_playing(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob", "carol"], options="cards=none")
    out = await harness.say("!resign", "bob", channel_id)  # the prefix form asks in public
    question = out[-1]
    assert not question.ephemeral and question.labels() == ["Resign", "Keep playing"]
    assert "`!resign confirm`" in question.text and question.pinged == []
    out = await harness.click(question, "Resign", "alice")
    assert out[0].ephemeral and f"Only <@{USERS['bob']}> can answer" in out[0].text
    out = await harness.click(question, "Keep playing", "carol")
    assert out[0].ephemeral and "Only" in out[0].text
    assert (await table_of(harness, channel_id)).state.resigned == (False, False, False)
    table = await table_of(harness, channel_id)
    await harness.slash("abort", "alice", channel_id)
    out = await harness.click(question, "Resign", "bob")  # the game was cancelled meanwhile
    assert out[0].ephemeral and "This game is over" in out[0].text
    assert (await harness.bot.engine.get(table.id)).status == "aborted"


async def test_public_question_is_answered_in_public(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob", "carol"], options="cards=none")
    question = (await harness.say("!resign", "carol", channel_id))[-1]
    out = await harness.click(question, "Resign", "carol")
    assert out[0].kind == "update" and not out[0].ephemeral and out[0].components == []
    assert f"<@{USERS['carol']}> resigned from game #1" in out[0].text
    assert "Carol resigns" in harness.public(out)[1].text
    question = (await harness.say("!resign", "bob", channel_id))[-1]
    out = await harness.click(question, "Keep playing", "bob")
    assert out[0].text == f"<@{USERS['bob']}> keeps playing." and out[0].components == []


async def test_prefix_resign_confirm_resigns_at_once(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    out = await harness.say("!resign confirm", "bob", channel_id)
    assert not any(s.labels() == ["Resign", "Keep playing"] for s in out)
    assert "Bob resigns" in out[0].text and "Alice wins" in out[-1].text
    assert await harness.bot.engine.table_in_channel(channel_id) is None


async def test_polish_prefix_resign_confirm(harness: Harness) -> None:
    await harness.slash("language", "mod", language="pl")
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    out = await harness.say("!poddaj", "bob", channel_id)
    assert out[-1].labels() == ["Poddaj grę", "Gram dalej"] and "`!poddaj potwierdzam`" in out[-1].text
    out = await harness.say("!poddaj potwierdzam", "bob", channel_id)
    assert "Bob poddaje grę" in out[0].text
    assert await harness.bot.engine.table_in_channel(channel_id) is None


async def test_resign_outside_a_running_game(harness: Harness) -> None:
    out = await harness.slash("resign", "alice", "general")
    assert out[0].ephemeral and "no game in this channel" in out[0].text
    await harness.slash("play", "alice", game="flying_blades")
    lobby = harness.with_button("Join")
    out = await harness.slash("resign", "alice", lobby.channel_id)
    assert out[0].ephemeral and "has not started" in out[0].text and not out[0].components
    channel_id = await start_table(harness, host="bob", joiners=["carol"])
    out = await harness.say("!resign confirm", "dave", channel_id)
    assert len(out) == 1 and "not playing" in out[0].text


def test_resign_custom_ids_fit_and_match() -> None:
    for table, user in ((1, 1), (2**63 - 1, 2**64 - 1)):
        for choice in ("yes", "no"):
            item = ResignButton("flying_blades", choice, table, user)
            assert len(item.custom_id) <= 100
            assert ResignButton.__discord_ui_compiled_template__.fullmatch(item.custom_id)
