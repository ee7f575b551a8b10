"""/undo on Discord: a refusal is private and says why; an undo is public with the restored board; with
``undo=confirm`` another player accepts or declines with buttons, and a stale or second click changes nothing."""

from __future__ import annotations

from tests.discord_harness import Harness, start_table, table_of


async def first_attack(h: Harness, channel_id: int) -> str:
    table = await table_of(h, channel_id)
    return next(a for a in table.rules.legal_actions(table.state, 0) if a.startswith("attack"))


async def test_undo_posts_the_taken_back_move_and_the_restored_board(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], options="cards=none")
    before = await table_of(harness, channel_id)
    attack = await first_attack(harness, channel_id)
    await harness.slash("move", "alice", channel_id, action=attack)
    out = await harness.slash("undo", "alice", channel_id)
    public = harness.public(out)
    assert public and f"took back `{attack}`" in public[0].text
    assert any(s.pngs() for s in public)  # the board as it is again
    after = await table_of(harness, channel_id)
    assert after.state == before.state and after.version > before.version


async def test_a_refused_undo_is_private_and_says_why(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], options="cards=none")
    out = await harness.slash("undo", "bob", channel_id)
    assert [s.ephemeral for s in out] == [True] and "no move of your own" in out[0].text
    await harness.slash("move", "alice", channel_id, action=await first_attack(harness, channel_id))
    await harness.slash("move", "bob", channel_id, action="pass")
    out = await harness.slash("undo", "alice", channel_id)
    assert [s.ephemeral for s in out] == [True] and "The next player has already moved" in out[0].text


async def test_a_confirmed_undo_needs_the_other_players_accept(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], options="cards=none undo=confirm")
    before = await table_of(harness, channel_id)
    attack = await first_attack(harness, channel_id)
    await harness.slash("move", "alice", channel_id, action=attack)
    asked = await harness.slash("undo", "alice", channel_id)
    question = asked[-1]
    assert question.public and "asks to take back" in question.text and question.labels() == ["Accept", "Decline"]
    shown = harness.snapshot(question)
    out = await harness.click(question, "Accept", "alice")  # not the requester's own to accept
    assert out[0].ephemeral and "Only another player" in out[0].text
    out = await harness.click(question, "Accept", "bob")
    assert "took back" in out[0].text and out[0].components == []
    assert (await table_of(harness, channel_id)).state == before.state
    version = (await table_of(harness, channel_id)).version
    out = await harness.click(shown, "Accept", "bob")  # the same question as it was shown: out of date now
    assert out[0].ephemeral and "out of date" in out[0].text
    assert (await table_of(harness, channel_id)).version == version


async def test_a_declined_undo_leaves_the_move_and_its_accept_is_dead(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], options="cards=none undo=confirm")
    attack = await first_attack(harness, channel_id)
    await harness.slash("move", "alice", channel_id, action=attack)
    moved = await table_of(harness, channel_id)
    question = (await harness.slash("undo", "alice", channel_id))[-1]
    shown = harness.snapshot(question)
    out = await harness.click(question, "Decline", "bob")
    assert "declined" in out[0].text and out[0].components == []
    out = await harness.click(shown, "Accept", "bob")
    assert out[0].ephemeral and "out of date" in out[0].text
    after = await table_of(harness, channel_id)
    assert after.state == moved.state and after.moves == moved.moves
