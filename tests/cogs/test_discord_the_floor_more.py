"""More of The Floor through the real discord.py code paths: trust mode and its Dispute, host judging, the
learn button feeding a new game's list, a duel resumed after a restart, team games, refusals for people who are
not at the table, and input that must not count as an answer."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from cogs.the_floor import CLOCK_META, MARKS, stamp_ms
from engine.floor_content import server_content
from tests.cogs.conftest import DiscordTime
from tests.cogs.test_discord_the_floor import (
    challenge,
    draft,
    letters,
    listed_answer,
    open_floor,
    options_of,
    restarted_after_saving_a_move,
    runner,
    start_duel,
)
from tests.conftest import FakeClock
from tests.discord_harness import GUILD_ID, USERS, ErrorLog, Harness, table_of, user_of

LETTER = "🔤"


def unknown(table: Any) -> str:
    """An answer on the running letter that is on no list: it goes to the judges (or is trusted)."""
    return f"{table.state.duel.letter}zzqx"


# --- 1. trust mode ---------------------------------------------------------------------------------------


def neutral(chal: str, defender: str) -> str:
    """The one player of a three-player game who is not in the duel: the judge."""
    return next(u for u in ("alice", "bob", "carol") if u not in (chal, defender))


async def test_trust_mode_accepts_an_unknown_answer_at_once_and_a_dispute_goes_to_the_player_outside_the_duel(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="judging=trust clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    judge = neutral(chal, defender)
    table = await table_of(h, channel_id)
    answer = unknown(table)

    discord_time.advance(2500)
    out = await h.say(answer, chal, channel_id)
    table = await table_of(h, channel_id)
    d = table.state.duel
    assert not d.judging and d.active == 1 and d.clocks[0] == 30000 - 2500, "trusted at once, the clocks switch"
    shown = letters(out)[-1]
    assert f"{MARKS['trusted']} " in shown.content and answer in shown.content
    assert any(":dispute:" in cid for cid in shown.custom_ids()), "the opponent's letter offers Dispute"
    assert table.meta[CLOCK_META]["base"] == stamp_ms(shown.message_id)

    # The challenger cannot dispute their own answer: not their clock.
    refused = await h.click(shown, ":dispute:", chal)
    assert refused[-1].ephemeral and (await table_of(h, channel_id)).version == table.version

    # The defender disputes 1.7 s after the letter: charged to the defender; the answer goes to the judge, who is
    # never a duellist.
    discord_time.advance(1700)
    out = await h.click(shown, ":dispute:", defender)
    table = await table_of(h, channel_id)
    d = table.state.duel
    assert d.judging == answer and d.active == 0, "the answerer's letter comes back, under judgment"
    assert d.clocks == (30000 - 2500, 30000 - 1700)
    assert table.rules.judge_seats(table.state) == [table.seat_of(USERS[judge])]
    vote = h.with_button(":accept:")
    assert vote.pinged == [USERS[judge]]
    assert any("disputes" in (s.content or "") for s in h.public(out))

    # Neither duellist may judge; the judge rejects it: the answerer's clock runs on the same letter.
    for player in (chal, defender):
        refused = await h.click(vote, ":reject:", player)
        assert refused[-1].ephemeral and (await table_of(h, channel_id)).state.duel.judging
    out = await h.click(vote, ":reject:", judge)
    table = await table_of(h, channel_id)
    d = table.state.duel
    assert not d.judging and d.active == 0 and d.clocks == (30000 - 2500, 30000 - 1700)
    again = letters(out)[-1]
    assert USERS[chal] in again.pinged and f"**{d.letter}**" in again.content
    assert table.meta[CLOCK_META]["base"] == stamp_ms(again.message_id)


async def test_trust_mode_dispute_can_be_typed(harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="judging=trust clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    await h.say(unknown(await table_of(h, channel_id)), chal, channel_id)
    discord_time.advance(900)
    await h.say("Dispute", defender, channel_id)
    table = await table_of(h, channel_id)
    assert table.state.duel.judging and table.state.duel.clocks[1] == 30000 - 900
    # The judge finds it valid after all: the clocks switch, and a judged answer cannot be disputed.
    out = await h.click(h.with_button(":accept:"), ":accept:", neutral(chal, defender))
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.active == 1
    assert not any(":dispute:" in cid for cid in letters(out)[-1].custom_ids()), "judged answers are final"
    out = await h.say("dispute", defender, channel_id)
    assert any("no unjudged answer" in s.text for s in out)
    assert (await table_of(h, channel_id)).version == table.version


# --- 2. host mode: covered with a duelling and a neutral host in tests/cogs/test_discord_the_floor_judging.py ---


# --- 3. the learn button ---------------------------------------------------------------------------------


async def test_an_accepted_answer_can_be_learned_by_the_host_and_a_new_game_knows_it(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    table = await table_of(h, channel_id)
    category, letter, answer = table.state.duel.category, table.state.duel.letter, unknown(table)
    await h.say(answer, chal, channel_id)
    judge = next(u for u in ("alice", "bob", "carol") if u not in (chal, defender))
    out = await h.click(h.with_button(":accept:"), ":accept:", judge)
    offer = next(s for s in h.public(out) if any(":learn:" in cid for cid in s.custom_ids()))
    label = next(x for x in offer.labels() if "server's list" in x)
    assert answer in label

    lang = table.state.lang
    for other in ("bob", "dave"):  # seated or not: neither the host nor Manage Server
        refused = await h.click(offer, ":learn:", other)
        assert len(refused) == 1 and refused[0].ephemeral and "Only the host" in refused[0].text
    assert not await server_content(h.bot.engine.store, GUILD_ID, lang)

    done = await h.click(offer, ":learn:", "alice")
    assert done[-1].ephemeral and "Added" in done[-1].text
    content = await server_content(h.bot.engine.store, GUILD_ID, lang)
    assert answer in content["answers"][category]
    again = await h.click(offer, ":learn:", "mod")  # Manage Server may too (not seated): already there
    assert again[-1].ephemeral and "already" in again[-1].text

    # A new game takes the server's list as it is now; the same seed gives the same first duel, where the
    # learned answer is on the list: accepted at once, no judges.
    new_channel = await open_floor(h, ("bob", "carol"), options="clock=30")
    assert new_channel != channel_id
    new = await table_of(h, new_channel)
    assert answer in new.options["content"]["answers"][category]
    _, _, _ = await start_duel(h, new_channel)
    new = await table_of(h, new_channel)
    assert (new.state.duel.category, new.state.duel.letter) == (category, letter)
    out = await h.say(answer, runner(new), new_channel)
    new = await table_of(h, new_channel)
    assert not new.state.duel.judging and new.state.duel.active == 1
    assert any(f"{MARKS['accepted']} " in (s.content or "") and answer in (s.content or "") for s in h.public(out))


# --- 4. restart mid-duel ---------------------------------------------------------------------------------


async def test_a_duel_resumes_after_a_restart_with_a_fresh_letter_and_the_clocks_as_they_were(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog,
        discord_time: DiscordTime) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    channel_id = await open_floor(old, options="clock=30")
    chal, defender, _ = await start_duel(old, channel_id)
    discord_time.advance(4000)
    await old.say(listed_answer(await table_of(old, channel_id)), chal, channel_id)
    before = await table_of(old, channel_id)
    d = before.state.duel
    assert d.active == 1 and d.clocks == (26000, 30000)
    threads = old.threads
    await old.close()

    discord_time.advance(60_000)  # the bot was away for a minute: charged to no one
    new = await Harness(db, now=clock).start(monkeypatch, threads=threads)
    try:
        # Loading the cog pushed the running clock's timer past the reconnect allowance.
        timers = [x for x in await new.bot.engine.store.deadlines_for(before.id) if x.data.get("action")]
        assert [x.due_at for x in timers] == [clock() + timedelta(seconds=30 + 90)]
        cog = new.bot.get_cog("TheFloor")
        await cog.resume()
        await new.settle()
        posted = letters(new.sent)
        assert len(posted) == 1
        fresh = posted[0]
        assert "back" in fresh.content and f"**{d.letter}**" in fresh.content
        assert "30.0 s" in fresh.content and "26.0 s" in fresh.content
        assert USERS[defender] in fresh.pinged
        table = await table_of(new, channel_id)
        assert table.state.duel.clocks == d.clocks and table.state.duel.letter == d.letter
        assert table.meta[CLOCK_META] == {"turn": table.state.turn, "base": stamp_ms(fresh.message_id)}
        timers = [x for x in await new.bot.engine.store.deadlines_for(table.id) if x.data.get("action")]
        assert [x.due_at for x in timers] == [clock() + timedelta(seconds=30 + 1.5)], "re-armed from the letter"

        discord_time.advance(1200)
        await new.say(listed_answer(table), defender, channel_id)
        table = await table_of(new, channel_id)
        assert table.state.duel.clocks == (26000, 30000 - 1200) and table.state.duel.active == 0
    finally:
        await new.close()


async def test_a_move_saved_but_never_announced_is_announced_after_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FakeClock, error_log: ErrorLog) -> None:
    """The bot stopped between saving a challenge and posting it: after the restart the prompt (with its Ready
    button and pings) is posted, once; a table whose last step was posted gets nothing."""
    new = await restarted_after_saving_a_move(tmp_path, monkeypatch, clock)
    try:
        cog = new.bot.get_cog("TheFloor")
        await cog.resume()
        await new.settle()
        posted = [p for p in new.public() if "back" in (p.content or "")]  # (and the status message)
        assert len(posted) == 1, [p.text for p in new.public()]
        assert any(":ready:" in c for c in posted[0].custom_ids()) and posted[0].pngs()
        assert set(posted[0].pinged) == {USERS["alice"], USERS["bob"]}
        await cog.resume()
        await new.settle()
        assert len([p for p in new.public() if "back" in (p.content or "")]) == 1, "announced once"
    finally:
        await new.close()


# --- 5. teams --------------------------------------------------------------------------------------------


async def test_a_six_player_game_has_three_sides_of_two_and_either_member_acts_for_the_side(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol", "dave", "mod"), bots=1, options="clock=30")
    table = await table_of(h, channel_id)
    assert table.state.sides == 3
    assert [table.state.seat_side[i] for i in range(6)] == [0, 1, 2, 0, 1, 2]
    names = [table.seats[i].name for i in range(6)]
    assert table.seats[5].bot, names

    # The draft's Pick menu is per side: dave picks for side 0, then alice has nothing to pick this pass.
    pick = h.with_button(":pick:")
    menu = (await h.click(pick, ":pick:", "dave"))[-1]
    assert menu.ephemeral and options_of(menu)
    await h.select(menu, options_of(menu)[:1], "dave")
    table = await table_of(h, channel_id)
    assert table.state.chosen[0] and 0 not in table.to_move() and 3 not in table.to_move()
    refused = await h.click(pick, ":pick:", "alice")
    assert refused[-1].ephemeral and not options_of(refused[-1])
    await draft(h, channel_id)

    await challenge(h, channel_id)
    table = await table_of(h, channel_id)
    d = table.state.duel
    assert d is not None
    assert h.with_button(":ready:")
    for side in (d.challenger, d.defender):
        member = next((i for i in reversed(table.state.seats_of(side)) if not table.seats[i].bot), None)
        if member is not None and side in {table.state.seat_side[i] for i in table.to_move()}:
            await h.click(h.with_button(":ready:"), ":ready:", user_of(table.seats[member].user_id))
    table = await table_of(h, channel_id)
    d = table.state.duel
    assert d.started
    running = (d.challenger, d.defender)[d.active]
    members = [user_of(table.seats[i].user_id) for i in table.state.seats_of(running) if not table.seats[i].bot]
    outsiders = [user_of(table.seats[i].user_id) for i in range(6)
                 if not table.seats[i].bot and table.state.seat_side[i] != running]
    assert len(members) == 2 and len(outsiders) == 3
    before = table.version
    for other in outsiders:  # chat from another side, the other duellist's included
        await h.say(listed_answer(table), other, channel_id)
        assert (await table_of(h, channel_id)).version == before
    discord_time.advance(1500)
    await h.say(listed_answer(table), members[-1], channel_id)  # the side's second member answers
    table = await table_of(h, channel_id)
    assert table.version > before and table.state.duel is not None
    assert table.state.duel.clocks[d.active] == 30000 - 1500


# --- 6. people who are not at the table ------------------------------------------------------------------


async def test_someone_not_seated_gets_a_private_refusal_and_typing_elsewhere_does_nothing(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=30")
    await draft(h, channel_id)
    chal, defender = await challenge(h, channel_id)
    asked = h.with_button(":ready:")
    before = (await table_of(h, channel_id)).version
    refused = await h.click(asked, ":ready:", "dave")
    assert len(refused) == 1 and refused[0].ephemeral and "not playing" in refused[0].text
    assert (await table_of(h, channel_id)).version == before
    await h.click(asked, ":ready:", chal)
    out = await h.click(h.with_button(":ready:"), ":ready:", defender)
    letter = letters(out)[-1]
    table = await table_of(h, channel_id)
    refused = await h.click(letter, ":pass:", "dave")
    assert len(refused) == 1 and refused[0].ephemeral and "not playing" in refused[0].text
    refused = await h.click(letter, ":pass:", "mod")  # Manage Server does not seat anyone
    assert refused[-1].ephemeral
    # The running side typing an answer in another channel: not an answer there, nothing sent.
    for channel in ("general", "other"):
        out = await h.say(listed_answer(table), runner(table), channel)
        assert out == []
    assert (await table_of(h, channel_id)).version == table.version
    # Someone not seated typing in the game's thread is chat too.
    assert await h.say(listed_answer(table), "dave", channel_id) == []
    assert (await table_of(h, channel_id)).version == table.version


# --- 7. input that is no answer --------------------------------------------------------------------------


async def test_an_answer_over_100_characters_or_on_two_lines_is_ignored(harness: Harness,
                                                                        discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=30")
    chal, _, _ = await start_duel(h, channel_id)
    table = await table_of(h, channel_id)
    long = table.state.duel.letter + "a" * 100
    assert await h.say(long, chal, channel_id) == []
    assert await h.say(f"{listed_answer(table)}\nsecond line", chal, channel_id) == []
    assert (await table_of(h, channel_id)).version == table.version
    exactly = (table.state.duel.letter + "b" * 99)
    assert len(exactly) == 100
    await h.say(exactly, chal, channel_id)  # at the limit it is an answer (unknown: the trust of 2 players)
    assert (await table_of(h, channel_id)).version > table.version


async def test_a_prefix_command_in_a_duel_is_not_read_as_an_answer(harness: Harness,
                                                                discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=30")
    chal, _, _ = await start_duel(h, channel_id)
    table = await table_of(h, channel_id)
    # "!board" is a command, not an answer starting with "!": the duel does not move.
    await h.say("!board", chal, channel_id)
    assert (await table_of(h, channel_id)).version == table.version


async def test_move_command_in_a_duel_is_timed_by_its_snowflake_not_by_a_typed_clock_reading(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    table = await table_of(h, channel_id)
    before = table.version
    refused = await h.slash("move", chal, channel_id, action="timeout")
    assert refused[-1].ephemeral and (await table_of(h, channel_id)).version == before

    discord_time.advance(9000)  # nine seconds of thinking by Discord's clock; the player writes 5 ms
    out = await h.slash("move", chal, channel_id, action=f"answer 5 {listed_answer(table)}")
    table = await table_of(h, channel_id)
    d = table.state.duel
    assert d.active == 1 and d.clocks[0] == 30000 - 9000
    assert any("(9.0 s)" in (s.content or "") for s in h.public(out))

    # Without a clock reading the verb is not part of the answer.
    discord_time.advance(2000)
    answer = listed_answer(table)
    out = await h.slash("move", defender, channel_id, action=f"answer {answer}")
    table = await table_of(h, channel_id)
    assert table.state.duel.active == 0 and table.state.duel.clocks[1] == 30000 - 2000, [s.text for s in out]
    assert table.state.duel.given[-1] == answer

    discord_time.advance(1000)
    await h.slash("move", chal, channel_id, action="pass 0")
    table = await table_of(h, channel_id)
    assert table.state.duel.clocks[0] == 30000 - 9000 - 1000 - 1000, "a pass: its time and the 1 s penalty"
