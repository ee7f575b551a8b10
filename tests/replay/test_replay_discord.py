"""``/replay`` through the Discord harness: the first message, stepping by button and by select, a forged or stale
button refused privately, and a running game's replay that never shows a kept card."""

from __future__ import annotations

from engine.log import digest
from engine.replays import load_record
from rules import GAMES
from tests.discord_harness import Harness, resign, start_table, table_of


async def test_replay_steps_forward_by_button_and_jumps_by_select(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel)
    await harness.slash("move", "alice", channel, action="pass")
    sent = await harness.slash("replay", "carol", channel)
    message = next(s for s in sent if "replay:next:" in " ".join(s.custom_ids()))
    assert "move 0 of" in message.text and message.pngs()
    assert {f"replay:{op}:{table.id}" for op in ("first", "back", "next", "last")} <= {
        c.rpartition(":")[0] for c in message.custom_ids()}
    await harness.click(message, "replay:next:", "dave")
    now = harness.current(message)
    assert "move 1 of" in now.text and "chose in secret" in now.text  # alice's keep, as a secret
    await harness.select(now, ["0"], "carol")
    assert "move 0 of" in harness.current(message).text


async def test_a_forged_or_stale_replay_button_gets_a_short_private_refusal(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel)
    sent = await harness.slash("replay", "carol", channel)
    message = next(s for s in sent if s.custom_ids())
    before = harness.current(message).text
    for forged in ("replay:next:" + "9" * 30 + ":1", f"replay:next:{table.id}:999"):  # no such table; no such move
        payload = harness.click_payload(message, "replay:next:", "carol")
        payload["data"]["custom_id"] = forged
        answer = await harness.feed(payload)
        assert answer and answer[-1].ephemeral and len(answer[-1].text) < 200, forged
        assert harness.current(message).text == before


async def test_a_running_games_replay_never_shows_a_kept_card(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"], keep_none=False)
    menu = (await harness.click(harness.with_button(":choose:"), ":choose:", "alice"))[-1]
    await harness.click(menu, ":keepnone:", "alice")
    sent = await harness.slash("replay", "carol", channel)
    message = next(s for s in sent if s.custom_ids())
    await harness.click(message, "replay:last:", "carol")
    text = harness.current(message).text
    assert "keep" not in text and "chose in secret" in text and "harness-seed" not in text


async def test_the_record_links_the_replay(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel)
    sent = await harness.slash("record", "carol", channel)
    assert f"replay: /replay game:{table.id}" in sent[-1].text


async def test_an_animated_replay_says_its_size_and_frame_count(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"])
    await harness.slash("move", "alice", channel, action="pass")
    sent = await harness.slash("replay", "carol", channel, animate=True)
    reply = next(s for s in sent if s.files)
    name, data = reply.files[0]
    assert name.endswith(".gif") and data.startswith(b"GIF89a")
    assert "KiB" in reply.text and "frames" in reply.text


async def test_a_game_without_a_board_image_replays_with_its_surfaces_public_image(harness: Harness) -> None:
    await harness.slash("play", "alice", game="floor_plan")
    lobby = harness.with_button(":lobby:join:")
    await harness.click(lobby, ":lobby:join:", "bob")
    await harness.click(lobby, ":lobby:start:", "alice")
    table = await table_of(harness, lobby.channel_id)
    sent = await harness.slash("replay", "carol", lobby.channel_id)
    message = next(s for s in sent if s.custom_ids())
    assert f"#{table.id}: move 0 of" in message.text and message.files


async def finished_replay_caption(harness: Harness, options: str) -> str:
    """Step 1 (alice's keep) of a flying_blades game that alice then resigned, replayed from another channel."""
    channel = await start_table(harness, joiners=["bob"], options=options)
    table = await table_of(harness, channel)
    await resign(harness, "alice", channel)
    sent = await harness.slash("replay", "carol", "general", game=table.id)
    message = next(s for s in sent if s.custom_ids())
    await harness.click(message, "replay:next:", "carol")
    return harness.current(message).text


async def test_a_finished_games_replay_spells_out_secret_choices(harness: Harness) -> None:
    text = await finished_replay_caption(harness, "")
    assert "keep none" in text and "in secret" not in text and "Only what everyone" not in text


async def test_reveal_no_keeps_a_finished_games_replay_to_the_public_view(harness: Harness) -> None:
    """The lobby's ``reveal=no``: the players opted out of showing their secret choices after the game."""
    text = await finished_replay_caption(harness, "reveal=no")
    assert "keep none" not in text and "chose in secret" in text and "Only what everyone" in text


async def test_a_finished_games_record_loads_back_and_replays_to_its_final_state(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"])
    await harness.slash("move", "alice", channel, action="pass")
    table = await table_of(harness, channel)
    await resign(harness, "bob", channel)
    table = await harness.bot.engine.get(table.id)
    out = await harness.slash("record", "carol", "general", table=table.id)
    text = out[-1].files[0][1].decode()
    assert "[Final " in text and "[Rules " in text
    replay = load_record(text, GAMES)
    assert digest(replay.rules, replay.final()) == digest(table.rules, table.state)


async def test_a_running_games_record_carries_no_final_fingerprint(harness: Harness) -> None:
    """A fingerprint of the hidden state could be matched against guessed hands while the game runs."""
    channel = await start_table(harness, joiners=["bob"], keep_none=False)
    out = await harness.slash("record", "carol", channel)
    text = out[-1].files[0][1].decode()
    assert "[Final " not in text and "[Seed " not in text and "[Rules " in text


async def test_a_game_without_a_board_image_animates_its_surfaces_public_images(harness: Harness) -> None:
    await harness.slash("play", "alice", game="floating_world")
    lobby = harness.with_button(":lobby:join:")
    await harness.click(lobby, ":lobby:start:", "alice")
    table = await table_of(harness, lobby.channel_id)
    engine = harness.bot.engine
    for _ in range(3):
        table = await engine.get(table.id)
        await engine.act(table.id, table.seats[0].user_id, table.rules.bot_action(table.state, 0))
    sent = await harness.slash("replay", "carol", lobby.channel_id, animate=True)
    reply = next(s for s in sent if s.files)
    assert reply.files[0][1].startswith(b"GIF89a") and "frames" in reply.text


async def test_an_aborted_games_replay_reveals_what_its_running_replay_kept_secret(harness: Harness) -> None:
    """An abort logs no action: the replay built while the game ran must not be served once it may reveal."""
    channel = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel)
    sent = await harness.slash("replay", "carol", channel)
    message = next(s for s in sent if s.custom_ids())
    await harness.click(message, "replay:next:", "carol")
    assert "chose in secret" in harness.current(message).text
    await harness.slash("abort", "alice", channel)
    sent = await harness.slash("replay", "carol", "general", game=table.id)
    message = next(s for s in sent if s.custom_ids())
    await harness.click(message, "replay:next:", "carol")
    assert "keep none" in harness.current(message).text
