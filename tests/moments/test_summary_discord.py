"""The end of a game in Discord (issue 27, "The end of a game"): one summary message with the final image, the
result in words, the rating changes of a rated game, the game's length and its key moments, with Rematch and
Replay buttons; Replay opens /replay's stepping message as a new message, the summary stays."""

from __future__ import annotations

from typing import Any

from tests.discord_harness import Harness, Sent, resign, start_table, table_of


def summary_of(sent: list[Sent]) -> Sent:
    found = [s for s in sent if s.public and any(":rematch:" in c for c in s.custom_ids())]
    assert len(found) == 1, [s.text for s in sent]
    return found[0]


async def test_a_finished_games_summary_shows_result_ratings_length_and_buttons(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"])
    table = await table_of(harness, channel)
    await harness.slash("move", "alice", channel, action="pass")
    summary = summary_of(await resign(harness, "bob", channel))
    text = summary.text
    print(text)  # the summary as players see it (pytest -s)
    assert "Alice wins" in text
    assert "Ratings" in text and "→" in text and "(+" in text and "(−" in text  # rated: both players' deltas
    assert "Length" in text and "moves in" in text
    assert summary.files and summary.pngs()  # the final board
    ids = summary.custom_ids()
    assert f"flying_blades:rematch:{table.id}:" in " ".join(ids) and f"replay:open:{table.id}:0" in ids
    assert summary.pinged  # the players are told


async def test_the_summarys_replay_button_opens_the_replay_as_a_new_message(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"])
    await harness.slash("move", "alice", channel, action="pass")
    summary = summary_of(await resign(harness, "bob", channel))
    before = harness.current(summary).text
    opened = await harness.click(summary, "replay:open:", "carol")
    replay = next(s for s in opened if "replay:next:" in " ".join(s.custom_ids()))
    assert "move 0 of" in replay.text and replay.message_id != summary.message_id
    assert harness.current(summary).text == before  # the summary is still there, unchanged


async def test_a_forged_replay_button_on_a_summary_gets_a_short_private_refusal(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"])
    summary = summary_of(await resign(harness, "bob", channel))
    payload = harness.click_payload(summary, "replay:open:", "carol")
    payload["data"]["custom_id"] = "replay:open:" + "9" * 30 + ":0"
    answer = await harness.feed(payload)
    assert answer and answer[-1].ephemeral and len(answer[-1].text) < 200


async def test_an_aborted_game_gets_a_summary_that_says_it_was_aborted(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"])
    sent = await harness.slash("abort", "alice", channel)
    summary = next(s for s in sent if s.public and "replay:open:" in " ".join(s.custom_ids()))
    assert "aborted" in summary.text and not any(":rematch:" in c for c in summary.custom_ids())


async def test_a_game_lost_by_timeouts_says_so_with_its_wall_time(harness: Harness, clock: Any) -> None:
    """Issue 27: "A game that ended by timeouts or adjudication says so"; the length is moves and wall time."""
    await start_table(harness, joiners=["bob"], options="turn_minutes=10 on_timeout=forfeit forfeit_after=1")
    start = len(harness.sent)
    clock.advance(minutes=11)
    await harness.bot.engine.run_due()
    await harness.settle()
    summary = summary_of(harness.public(harness.sent[start:]))
    assert "Ended by timeouts: 🟥 Alice missed too many turns and forfeited." in summary.text
    assert "11 minutes" in summary.text and "Bob wins" in summary.text


async def test_an_unrated_game_shows_no_rating_changes(harness: Harness) -> None:
    channel = await start_table(harness, joiners=["bob"], options="rated=no")
    summary = summary_of(await resign(harness, "bob", channel))
    assert "Alice wins" in summary.text and "Ratings" not in summary.text and "→" not in summary.text


async def floor_plan_after_setup(harness: Harness, options: str) -> Sent:
    """A two-player Floor Plan: both draw their starting room (a secret drawing), then both resign; the summary
    follows the game's own result post."""
    await harness.slash("play", "alice", game="floor_plan", options=options)
    lobby = harness.with_button(":lobby:join:")
    await harness.click(lobby, ":lobby:join:", "bob")
    await harness.click(lobby, ":lobby:start:", "alice")
    table = await table_of(harness, lobby.channel_id)
    for seat, user in enumerate(("alice", "bob")):
        out = await harness.slash("move", user, lobby.channel_id, action=table.rules.bot_action(table.state, seat))
        await harness.click(out[-1], "Confirm", user)
    await resign(harness, "bob", lobby.channel_id)  # Floor Plan goes on solo: Alice resigns too
    sent = await resign(harness, "alice", lobby.channel_id)
    return next(s for s in sent if s.public and "replay:open:" in " ".join(s.custom_ids()))


async def test_a_secret_drawing_stays_secret_in_the_summary_when_the_lobby_said_reveal_no(harness: Harness) -> None:
    """engine/policies.py: reveal=no — a closed game does not spell out its secret choices; the largest room is
    a player's own drawing, so it is named only when the game's secrets may be told."""
    shown = await floor_plan_after_setup(harness, "")
    assert "The largest room" in shown.text
    hidden = await floor_plan_after_setup(harness, "reveal=no")
    assert "Length" in hidden.text and "The largest room" not in hidden.text


async def test_an_adjudicated_game_gets_a_summary_that_says_an_admin_closed_it(harness: Harness) -> None:
    """Issue 27: a game that ended by adjudication says so (and has no Rematch: it had no result)."""
    from tests.cogs.test_discord_game_admin import gameadmin  # lazy: that module's helper, only this test needs it

    channel = await start_table(harness, joiners=["bob"])
    out = await gameadmin(harness, "adjudicate", "mod", channel)
    summary = next(s for s in harness.public(out) if "replay:open:" in " ".join(s.custom_ids()))
    assert "Ended by adjudication: an admin closed the game." in summary.text and summary.pngs()
    assert not any(":rematch:" in c for c in summary.custom_ids())


async def test_a_key_moments_button_opens_the_replay_at_that_move(harness: Harness) -> None:
    summary = await floor_plan_after_setup(harness, "")
    steps = [int(c.rpartition(":")[2]) for c in summary.custom_ids() if c.startswith("replay:open:")]
    assert steps[0] == 0 and len(steps) > 1 and all(f"▶ Move {k}" in summary.labels() for k in steps[1:])
    k = steps[1]
    payload = harness.click_payload(summary, "replay:open:", "carol")
    payload["data"]["custom_id"] = next(c for c in summary.custom_ids() if c.endswith(f":{k}"))
    opened = await harness.feed(payload)
    replay = next(s for s in opened if "replay:next:" in " ".join(s.custom_ids()))
    assert f"move {k} of" in replay.text
