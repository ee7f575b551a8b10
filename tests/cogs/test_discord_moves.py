"""Moves through every door (/move, !move, typed notation, buttons, the draft select) and what must not
pass."""

from __future__ import annotations

from tests.discord_harness import USERS, Harness, check_png, open_table, resign, start_table, table_of


def first_attack(table: object, seat: int) -> str:
    legal = table.rules.legal_actions(table.state, seat)  # type: ignore[attr-defined]
    return next(a for a in legal if a.startswith("attack"))


async def test_slash_move_posts_the_board_then_the_bots_and_pings_the_next_human(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], bots=1)  # alice red, bob yellow, bot blue
    table = await table_of(harness, channel_id)
    assert table.to_move() == {0}
    action = first_attack(table, 0)
    out = await harness.slash("move", "alice", channel_id, action=action)
    # Acknowledged privately first (the move may wait on the game's lock), then the board in the channel.
    assert [s.kind for s in out] == ["defer", "message"] and out[0].ephemeral
    reply = out[1]
    assert reply.public and action in reply.text and "Alice" in reply.text
    check_png(reply.pngs()[0])
    assert reply.pinged == [USERS["bob"]] and "Your turn" in reply.text
    assert reply.labels() == ["Show my hand", "Pass"]
    after = await table_of(harness, channel_id)
    assert after.moves == table.moves + 1 and after.to_move() == {1}
    action = first_attack(after, 1)
    out = await harness.slash("move", "bob", channel_id, action=action)
    boards = [s for s in out if s.pngs()]
    assert len(boards) == 1 and "Bob" in boards[0].text and "Bot 1" in boards[0].text  # one post, the bot's too
    assert boards[0].pinged == [USERS["alice"]]
    for png in harness.images(out):
        check_png(png)


async def test_bad_moves_get_a_private_answer_and_change_nothing(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], bots=1)
    before = await table_of(harness, channel_id)
    cases = [
        ("alice", "general", "attack a1 a2", "no game in this channel"),  # wrong channel
        ("carol", channel_id, "pass", "not playing in this game"),  # not seated
        ("bob", channel_id, "pass", "turn, not yours"),  # not your turn
        ("alice", channel_id, "attack a1 i9", "not orthogonally adjacent"),  # illegal
        ("alice", channel_id, "jump a1", "don't know the action"),  # invalid
        ("alice", channel_id, "bomb a1 a5", "no Bomb card"),  # a card not kept
        ("alice", channel_id, "keep bomb", "too late to keep cards"),
    ]
    for user, channel, action, expected in cases:
        out = [s for s in await harness.slash("move", user, channel, action=action) if s.kind != "defer"]
        assert len(out) == 1 and out[0].ephemeral and expected in out[0].text, (action, out[0].text)
    after = await table_of(harness, channel_id)
    assert (after.version, after.moves) == (before.version, before.moves)


async def test_the_same_interaction_delivered_twice_moves_once(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    payload = harness.slash_payload("move", "alice", channel_id, action=first_attack(table, 0))
    first = await harness.feed(payload)
    assert any(s.pngs() for s in first)
    again = [s for s in await harness.feed(payload) if s.kind != "defer"]
    assert [s.ephemeral for s in again] == [True] and "already" in again[0].text
    assert (await table_of(harness, channel_id)).moves == table.moves + 1


async def test_pass_button_and_a_stale_pass(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    board = harness.with_button("Pass")
    shown = harness.snapshot(board)
    out = await harness.click(board, "Pass", "bob")
    assert out[0].ephemeral and "turn, not yours" in out[0].text
    out = await harness.click(board, "Pass", "alice")
    assert "Alice passes" in out[0].text and out[0].pinged == [USERS["bob"]]
    table = await table_of(harness, channel_id)
    out = await harness.click(shown, "Pass", "alice")  # a double click: the second is on the old board
    assert out[0].ephemeral and "board has changed" in out[0].text
    out = await harness.click(shown, "Pass", "bob")  # bob's turn now, but on an old board
    assert out[0].ephemeral and "board has changed" in out[0].text
    assert (await table_of(harness, channel_id)).version == table.version


async def test_typed_moves_are_played_and_chat_is_ignored(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel_id)
    assert await harness.say("good luck everyone!", "alice", channel_id) == []
    assert await harness.say("pass the salt", "alice", channel_id) == []
    assert await harness.say("pass", "carol", channel_id) == []  # a spectator: not a move, no reply
    assert await harness.say("pass", "alice", "general") == []  # not the game's channel
    out = await harness.say("attack a1 i9", "alice", channel_id)  # looks like a move: a short reply
    assert len(out) == 1 and "not orthogonally adjacent" in out[0].text and not out[0].pngs()
    out = await harness.say("Pass", "bob", channel_id)
    assert len(out) == 1 and "turn, not yours" in out[0].text
    action = first_attack(table, 0)
    out = await harness.say(action.upper(), "alice", channel_id)
    assert len(out) == 1 and action in out[0].text and out[0].pngs()
    assert (await table_of(harness, channel_id)).moves == table.moves + 1


async def test_prefix_move_works_and_prefix_keep_is_refused_while_cards_are_hidden(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    out = await harness.say("!move keep none", "alice", channel_id)
    assert len(out) == 1 and "show your choice to everyone" in out[0].text
    out = await harness.say("keep none", "alice", channel_id)  # typed without the prefix: same
    assert len(out) == 1 and "show your choice to everyone" in out[0].text
    table = await table_of(harness, channel_id)
    assert table.to_move() == {0, 1}
    out = await harness.slash("move", "alice", channel_id, action="keep none")  # slash: allowed
    assert "Alice has chosen" in out[-1].text and "none" not in out[-1].text
    out = await harness.say("!move keep none", "bob", channel_id)
    assert len(out) == 1 and "show your choice" in out[0].text


async def test_keep_is_typed_freely_when_cards_are_open(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], options="cards=open", keep_none=False)
    await harness.say("keep none", "alice", channel_id)
    out = await harness.say("!move keep none", "bob", channel_id)
    assert "moves first" in out[-1].text
    table = await table_of(harness, channel_id)
    assert table.state.phase == "play"
    action = first_attack(table, 0)
    out = await harness.say(f"!move {action}", "alice", channel_id)
    assert action in out[-1].text


async def test_draft_select_keeps_cards_privately(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], bots=1, keep_none=False)
    board = harness.with_button("Choose cards")
    out = await harness.click(board, "Choose cards", "carol")
    assert out[0].ephemeral and "not playing" in out[0].text
    menu = (await harness.click(board, "Choose cards", "alice"))[-1]
    assert menu.ephemeral and "Dealt to you" in menu.text
    shown = harness.snapshot(menu)
    select = next(c for row in menu.components for c in row["components"] if c["type"] == 3)
    assert len(select["options"]) == 10 and len(select["custom_id"]) <= 100
    table = await table_of(harness, channel_id)
    hand = table.state.hands[0]
    by_price = sorted(select["options"], key=lambda o: -int(o["label"].rsplit("(", 1)[1].rstrip(")")))
    too_much = [o["value"] for o in by_price[:3]]
    if sum(int(o["label"].rsplit("(", 1)[1].rstrip(")")) for o in by_price[:3]) > 10:
        out = await harness.select(menu, too_much, "alice")
        assert out[0].ephemeral and "at most 10" in out[0].text and out[0].kind == "response"
        assert (await table_of(harness, channel_id)).to_move() == {0, 1}
    cheap = [o["value"] for o in by_price[-2:]]
    out = await harness.select(menu, cheap, "alice")
    assert out[0].kind == "update" and out[0].ephemeral and "You keep" in out[0].text
    assert out[0].components == []
    public = harness.public(out)
    assert len(public) == 1 and "Alice has chosen" in public[0].text and not public[0].pngs()
    for value in cheap:  # what was kept is never said in public
        assert value.split(".")[0] not in public[0].text.lower()
    kept = sorted(v.split(".")[0] for v in cheap)
    table = await table_of(harness, channel_id)
    assert sorted(table.state.hands[0]) == kept and len(hand) == 10
    out = await harness.click(harness.with_button("Choose cards"), "Choose cards", "alice")
    assert out[0].ephemeral and "wait for the other players" in out[0].text
    out = await harness.select(shown, cheap, "alice")  # the menu as it was shown, again
    assert out[0].ephemeral and "wait for the other players" in out[0].text


async def test_show_my_hand_is_ephemeral_fresh_and_has_the_private_image(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    board = harness.with_button("Show my hand")
    out = await harness.click(board, "Show my hand", "bob")
    assert [s.kind for s in out] == ["defer", "followup"] and all(s.ephemeral for s in out)
    assert "Your cards" in out[1].text and "yellow" in out[1].text
    check_png(out[1].pngs()[0])
    out = await harness.click(board, "Show my hand", "carol")
    assert out[0].ephemeral and "not playing" in out[0].text
    out = await harness.slash("hand", "alice", channel_id)
    assert all(s.ephemeral for s in out) and "Your cards" in out[-1].text and out[-1].pngs()


async def test_prefix_hand_never_posts_cards_in_public(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    table = await table_of(harness, channel_id)
    out = await harness.say("!hand", "alice", channel_id)
    assert len(out) == 1 and not out[0].files and "/hand" in out[0].text
    names = {"Vanishing", "Shuriken", "Double kick", "Triple kick", "Double Dragon", "Circle kick", "Bomb"}
    assert not any(n in out[0].text for n in names)
    assert table.state.hands[0]  # there were cards to leak


async def test_board_reposts_the_board_without_pinging(harness: Harness) -> None:
    channel_id, _ = await open_table(harness, joiners=["bob"])
    out = await harness.slash("board", "carol", channel_id)
    assert out[-1].labels() == ["Join", "Leave", "Add bot", "Start"]  # in the lobby: the lobby again
    await harness.click(harness.with_button("Start"), "Start", "alice")
    out = await harness.say("!board", "carol", channel_id)
    assert len(out) == 1 and out[0].pinged == [] and out[0].pngs() and "Choose cards" in out[0].labels()
    check_png(out[0].pngs()[0])


async def test_resign_ends_a_two_player_game_with_a_result(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"])
    out = await resign(harness, "bob", channel_id)
    final = out[-1]
    assert final.public and "game over" in final.text and "Bob resigns" in final.text
    assert "Alice wins" in final.text and final.labels() == ["Rematch", "Replay"]  # the summary's buttons
    assert await harness.bot.engine.table_in_channel(channel_id) is None
    out = await harness.slash("move", "alice", channel_id, action="pass")
    assert out[0].ephemeral and "no game in this channel" in out[0].text


async def test_record_is_a_text_file_and_hides_kept_cards_while_the_game_runs(harness: Harness) -> None:
    channel_id = await start_table(harness, joiners=["bob"], keep_none=False)
    menu = (await harness.click(harness.with_button("Choose cards"), "Choose cards", "alice"))[-1]
    select = next(c for row in menu.components for c in row["components"] if c["type"] == 3)
    await harness.select(menu, [select["options"][-1]["value"]], "alice")
    out = await harness.slash("record", "carol", channel_id)
    name, data = out[-1].files[0]
    text = data.decode()
    assert name.endswith(".txt") and '[Game "flying_blades"]' in text and "0 keep ?" in text
    table = await table_of(harness, channel_id)
    await harness.slash("abort", "alice", channel_id)
    out = await harness.slash("record", "carol", "general", table=table.id)
    text = out[-1].files[0][1].decode()
    assert "0 keep " in text and "0 keep ?" not in text and '[Status "aborted"]' in text
    out = await harness.slash("record", "carol", "general", table=999)
    assert out[0].ephemeral and "does not exist" in out[0].text


async def test_turn_timer_reminds_then_announces_a_missed_turn_never_a_pass(harness: Harness, clock: object) -> None:
    await start_table(harness, joiners=["bob"], options="turn_minutes=10")
    engine = harness.bot.engine
    clock.advance(minutes=6)  # type: ignore[attr-defined]
    await engine.run_due()
    await harness.settle()
    reminder = harness.sent[-1]
    assert "Reminder" in reminder.text and reminder.pinged == [USERS["alice"]]
    clock.advance(minutes=5)  # type: ignore[attr-defined]
    await engine.run_due()
    await harness.settle()
    post = harness.sent[-1]
    assert "Alice missed their turn (time ran out)" in post.text and "passes" not in post.text
    assert post.pinged == [USERS["bob"]]
    check_png(post.pngs()[0])


async def test_an_expired_lobby_is_announced(harness: Harness, clock: object) -> None:
    channel_id, _ = await open_table(harness)
    clock.advance(minutes=31)  # type: ignore[attr-defined]
    await harness.bot.engine.run_due()
    await harness.settle()
    assert harness.sent[-1].channel_id == channel_id and "nobody started it" in harness.sent[-1].text
