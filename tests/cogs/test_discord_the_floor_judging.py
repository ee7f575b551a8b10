"""The Floor's judging through the real discord.py code paths (issue 10): a duellist's Valid / Not valid click
is refused privately and never counted, a duelling host hands judging to the neutral players, with nobody
neutral a doubtful answer stands and no Dispute is offered, and a rejected answer typed again is refused at
once without stopping the clock. Judges without a seat: the thread's spectators vote with the same buttons when no
seat outside the duel can, a referee named in the lobby decides alone, and their votes are in the log; forged, stale
and repeated clicks change nothing. The cap on doubtful answers per letter and the K/M category markers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.the_floor import sex_marker
from engine import GUEST_SEAT
from render.the_floor import text_board
from tests.cogs.conftest import DiscordTime
from tests.cogs.test_discord_the_floor import letters, listed_answer, open_floor, runner, start_duel
from tests.discord_harness import CHANNELS, USERS, Harness, table_of


def unknown(table: object) -> str:
    """An answer on the running letter that is on no list."""
    return f"{table.state.duel.letter}zzqx"  # type: ignore[attr-defined]


async def test_a_duellists_vote_is_refused_privately_and_the_neutral_player_decides(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    judge = next(u for u in ("alice", "bob", "carol") if u not in (chal, defender))
    await h.say(unknown(await table_of(h, channel_id)), chal, channel_id)
    vote = h.with_button(":accept:")
    assert vote.pinged == [USERS[judge]], "only the player outside the duel is called to judge"
    before = (await table_of(h, channel_id)).version
    for duellist in (chal, defender):
        refused = await h.click(vote, ":reject:", duellist)
        assert len(refused) == 1 and refused[0].ephemeral, "refused privately"
        assert "you are in this duel" in refused[0].text.lower()
        table = await table_of(h, channel_id)
        assert table.version == before and table.state.duel.votes == ()
    await h.click(vote, ":accept:", judge)
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.log[-1][2] == "judged"


async def test_host_mode_a_duelling_host_hands_judging_to_the_player_outside_the_duel(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="judging=host clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    assert "alice" in (chal, defender), "the host's side challenges first"
    table = await table_of(h, channel_id)
    while runner(table) == "alice":  # let the host's rival give the doubtful answer
        discord_time.advance(500)
        await h.say(listed_answer(table), "alice", channel_id)
        table = await table_of(h, channel_id)
    await h.say(unknown(table), runner(table), channel_id)
    table = await table_of(h, channel_id)
    neutral = next(u for u in ("bob", "carol") if u not in (chal, defender))
    assert table.state.duel.judging and table.rules.judge_seats(table.state) == [table.seat_of(USERS[neutral])]
    vote = h.with_button(":accept:")
    refused = await h.click(vote, "Not valid", "alice")
    assert refused[-1].ephemeral and "you are in this duel" in refused[-1].text.lower()
    await h.click(vote, "Not valid", neutral)
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.log[-1][2] == "rejected"


async def test_with_two_players_a_doubtful_answer_stands_and_no_dispute_is_offered(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, options="judging=trust clock=30 spectators_judge=off")  # no spectators either
    chal, defender, _ = await start_duel(h, channel_id)
    discord_time.advance(1000)
    out = await h.say(unknown(await table_of(h, channel_id)), chal, channel_id)
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.log[-1][2] == "trusted" and table.state.duel.active == 1
    assert not any(":dispute:" in cid for cid in letters(out)[-1].custom_ids()), "nobody could judge a dispute"
    replies = await h.say("dispute", defender, channel_id)
    assert any("nobody outside the duel" in s.text.lower() for s in replies)
    assert (await table_of(h, channel_id)).version == table.version


async def test_a_rejected_answer_typed_again_is_refused_without_stopping_the_clock(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    judge = next(u for u in ("alice", "bob", "carol") if u not in (chal, defender))
    answer = unknown(await table_of(h, channel_id))
    await h.say(answer, chal, channel_id)
    await h.click(h.with_button(":accept:"), ":reject:", judge)
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.active == 0
    discord_time.advance(800)
    replies = await h.say(answer, chal, channel_id)
    assert any("already ruled" in s.text for s in replies)
    after = await table_of(h, channel_id)
    assert after.version == table.version and not after.state.duel.judging, "no second vote, the clock runs"


async def test_a_vote_cast_does_not_push_the_vote_deadline_back(harness: Harness, discord_time: DiscordTime,
                                                                  clock: Any) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol", "dave"), options="clock=30 vote_seconds=30")
    chal, defender, _ = await start_duel(h, channel_id)
    judges = [u for u in ("alice", "bob", "carol", "dave") if u not in (chal, defender)]
    await h.say(unknown(await table_of(h, channel_id)), chal, channel_id)
    table = await table_of(h, channel_id)
    due = await h.bot.engine.timer_due(table.id)
    assert due is not None and table.state.duel.judging
    clock.advance(seconds=20)
    await h.click(h.with_button(":accept:"), ":reject:", judges[0])  # one of two: the other can still tie
    table = await table_of(h, channel_id)
    assert table.state.duel.judging and table.state.duel.votes
    assert await h.bot.engine.timer_due(table.id) == due, "the deadline stays where it was"


# --- judges without a seat (issue 10) ---------------------------------------------------------------------------


async def doubtful_in_thread(h: Harness, channel_id: int, options: str = "clock=30",
                             joiners: tuple[str, ...] = ("bob",)) -> tuple[str, str, Any]:
    """A duel (alice and bob by default, nobody else seated) whose first answer is on no list: the vote message."""
    channel_id = channel_id or await open_floor(h, joiners, options=options)
    chal, defender, _ = await start_duel(h, channel_id)
    await h.say(unknown(await table_of(h, channel_id)), chal, channel_id)
    return chal, defender, h.with_button(":accept:")


async def test_spectators_in_the_thread_vote_with_the_buttons_and_the_deadline_closes_the_vote(
        harness: Harness, discord_time: DiscordTime, clock: Any) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=30 vote_seconds=30")
    chal, defender, vote = await doubtful_in_thread(h, channel_id)
    assert "anyone watching" in vote.text, "the spectators are asked, since nobody outside the duel is seated"
    table = await table_of(h, channel_id)
    assert table.state.duel.judging and table.rules.judge_seats(table.state) == []
    for duellist in (chal, defender):  # a duellist never votes
        refused = await h.click(vote, ":reject:", duellist)
        assert refused[-1].ephemeral and "you are in this duel" in refused[-1].text.lower()
    await h.click(vote, ":reject:", "carol")
    again = await h.click(h.with_button(":accept:"), ":accept:", "carol")
    assert again[-1].ephemeral and "already voted" in again[-1].text
    await h.click(h.with_button(":accept:"), ":reject:", "dave")
    shown = h.snapshot(h.with_button(":accept:"))  # as a client still shows it after the vote closed
    table = await table_of(h, channel_id)
    assert table.state.duel.judging, "the vote waits for its deadline: nobody knows how many are watching"
    assert table.state.duel.guests == ((USERS["carol"], False), (USERS["dave"], False))
    rows = [a for a in await h.bot.engine.store.actions(table.id) if a.seat == GUEST_SEAT]
    want = [(f"judge reject user:{USERS[u]}", USERS[u]) for u in ("carol", "dave")]
    assert [(a.action, a.user_id) for a in rows] == want, "the votes are in the log, naming the members"
    clock.advance(seconds=31)
    await h.bot.engine.run_due()
    await h.settle()
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.log[-1][2] == "rejected", "the majority decided"
    stale = await h.click(shown, ":accept:", "carol")  # the vote is over: an old button changes nothing
    assert stale[-1].ephemeral and (await table_of(h, channel_id)).version == table.version


async def test_a_referee_named_in_the_lobby_is_called_and_decides_alone(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, options=f"clock=30 referee=<@{USERS['dave']}>")
    table = await table_of(h, channel_id)
    assert table.state.referee == USERS["dave"]
    assert any("Referee" in s.text and str(USERS["dave"]) in s.text for s in h.sent), "the intro names the referee"
    _, _, vote = await doubtful_in_thread(h, channel_id)
    assert USERS["dave"] in vote.pinged
    await h.click(vote, ":accept:", "carol")  # a spectator's vote counts only with the others cast by the deadline
    assert (await table_of(h, channel_id)).state.duel.judging
    await h.click(h.with_button(":accept:"), ":reject:", "dave")
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.log[-1][2] == "rejected", "the referee decides alone"
    record = await h.bot.engine.record(table.id)
    assert f"{GUEST_SEAT} judge reject user:{USERS['dave']}" in record.splitlines()


async def test_a_spectators_click_while_a_seated_judge_can_vote_is_refused(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="clock=30")
    _, _, vote = await doubtful_in_thread(h, channel_id)
    before = (await table_of(h, channel_id)).version
    refused = await h.click(vote, ":reject:", "dave")
    assert refused[-1].ephemeral and "cannot judge" in refused[-1].text
    assert (await table_of(h, channel_id)).version == before


async def test_a_click_forged_from_outside_the_games_thread_changes_nothing(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=30")
    _, _, vote = await doubtful_in_thread(h, channel_id)
    before = (await table_of(h, channel_id)).version
    payload = h.click_payload(vote, ":reject:", "carol")
    payload["channel_id"] = payload["channel"]["id"] = str(CHANNELS["other"])
    payload["channel"].pop("parent_id", None)
    payload["channel"]["type"] = 0
    refused = await h.feed(payload)
    assert refused[-1].ephemeral and "thread" in refused[-1].text
    table = await table_of(h, channel_id)
    assert table.version == before and table.state.duel.guests == ()


async def test_a_spectators_vote_survives_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: Any,
                                                    discord_time: DiscordTime) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    channel_id = await open_floor(old, options="clock=30 vote_seconds=30")
    _, _, vote = await doubtful_in_thread(old, channel_id)
    await old.click(vote, ":reject:", "carol")
    threads = old.threads
    await old.close()
    new = await Harness(db, now=clock).start(monkeypatch, threads=threads)
    try:
        table = await table_of(new, channel_id)
        assert table.state.duel.guests == ((USERS["carol"], False),)
        clock.advance(seconds=31)
        await new.bot.engine.run_due()
        await new.settle()
        assert (await table_of(new, channel_id)).state.duel.log[-1][2] == "rejected"
    finally:
        await new.close()


# --- the cap on doubtful answers, category markers ------------------------------------------------------------


async def test_a_doubtful_answer_past_the_cap_is_refused_in_the_thread_with_the_clock_running(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="clock=60 doubt_cap=2")
    chal, defender, _ = await start_duel(h, channel_id)
    judge = next(u for u in ("alice", "bob", "carol") if u not in (chal, defender))
    letter = (await table_of(h, channel_id)).state.duel.letter
    for n in range(2):
        await h.say(f"{letter}zzq{'x' * n}", chal, channel_id)
        await h.click(h.with_button(":accept:"), ":reject:", judge)
    table = await table_of(h, channel_id)
    replies = await h.say(f"{letter}zzqyy", chal, channel_id)
    assert any("doubtful answers" in s.text for s in replies)
    after = await table_of(h, channel_id)
    assert after.version == table.version and not after.state.duel.judging, "no third vote: the clock runs"


async def test_a_category_for_women_or_men_only_carries_its_marker(harness: Harness) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=30")
    table = await table_of(h, channel_id)
    surface = h.bot.surfaces["the_floor"]
    assert surface.cat(table, "female_names") == "«Girls' names (women)»"
    assert surface.cat(table, "presidents").endswith("(men)»") and surface.cat(table, "flowers") == "«Flowers»"
    short = surface.cat_name(table, "male_names", 16)
    assert short.endswith(" (men)") and len(short) <= 16, "the marker survives a short menu label"
    assert sex_marker(table, "capitals") == ""
    view = table.rules.view(table.state, None)
    view["fields"][0]["categories"] = [{"id": "female_names", "name": "Girls' names", "sex": "K"}]
    assert "Girls' names (women)" in text_board(view)
