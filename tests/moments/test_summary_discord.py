"""The end of a game in Discord (issue 27, "The end of a game"): one summary message with the final image, the
result in words, the rating changes of a rated game, the game's length and its key moments, with Rematch and
Replay buttons; Replay opens /replay's stepping message as a new message, the summary stays."""

from __future__ import annotations

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
