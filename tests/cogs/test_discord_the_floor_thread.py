"""The Floor's thread stays readable (issue 9): one draft message kept current, pings only for whoever a step
waits for, examples that are legal moves, hints for typed near-misses, Polish verbs, a player's move and the
bots' reply in one message, and the shared end of a game. ``test_messages_per_phase`` prints the counts."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from cogs.the_floor import DRAFT_META
from tests.cogs.conftest import DiscordTime
from tests.cogs.test_discord_the_floor import (
    challenge,
    draft,
    letters,
    listed_answer,
    open_floor,
    options_of,
    play_out,
    runner,
    start_duel,
)
from tests.discord_harness import USERS, Harness, Sent, table_of, user_of

TRIO = ("bob", "carol")


def posts(h: Harness, sent: list[Sent]) -> list[Sent]:
    """New public messages (not the updates of a clicked message)."""
    return [s for s in h.public(sent) if s.kind in ("message", "response", "followup")]


def counts(h: Harness, start: int) -> dict[str, int]:
    sent = h.sent[start:]
    public = posts(h, sent)
    return {"messages": len(public), "with_pings": sum(1 for s in public if s.pinged),
            "pings": sum(len(s.pinged) for s in public), "images": len(h.images(sent))}


async def pick(h: Harness, user: str) -> list[Sent]:
    menu = (await h.click(h.with_button("the_floor:pick:"), ":pick:", user))[-1]
    return await h.select(menu, options_of(menu)[:1], user)


async def pass_of(h: Harness, channel_id: int) -> int:
    return len((await table_of(h, channel_id)).state.picked[0]) + 1


async def begin(h: Harness, joiners: tuple[str, ...] = TRIO, options: str = "") -> tuple[int, int]:
    """A game started; the index in ``h.sent`` just before its Start click."""
    kwargs = {"options": options} if options else {}
    await h.slash("play", "alice", game="the_floor", **kwargs)
    lobby = h.with_button(":lobby:join:")
    for user in joiners:
        await h.click(lobby, ":lobby:join:", user)
    start = len(h.sent)
    await h.click(lobby, ":lobby:start:", "alice")
    return lobby.channel_id, start


async def test_the_draft_is_one_message_kept_current_that_pings_once_and_never_shows_a_hand(
        harness: Harness) -> None:
    h = harness
    channel_id, start = await begin(h)
    first = posts(h, h.sent[start:])
    assert len(first) == 1 and ":pick:" in " ".join(first[0].custom_ids())
    assert sorted(first[0].pinged) == sorted(USERS[u] for u in ("alice", *TRIO)), "the draft starts: all called"
    message_id = first[0].message_id
    await pick(h, "alice")
    shown = h.messages[message_id].content or ""
    done, waiting = shown.split("Still picking")
    assert "Alice" in done.split("Picked:")[1] and "Bob" in waiting and "Carol" in waiting
    hands = (await table_of(h, channel_id)).state.hands
    before = len(h.sent)
    await draft(h, channel_id)
    during = posts(h, h.sent[before:])
    assert len(during) == 1 and during[0].pngs(), "picks within a minute post nothing but the board at the end"
    assert "done" in (h.messages[message_id].content or "")
    names = {c for hand in hands for c in hand}
    assert not any(name in (e.content or "") for e in h.edits for name in names), "no hand in any edit"


async def test_a_new_pass_pings_only_who_has_been_away_and_then_the_straggler_once(harness: Harness,
                                                                                  clock: Any) -> None:
    h = harness
    channel_id, _ = await begin(h)
    await pick(h, "alice")
    clock.advance(minutes=2)
    await pick(h, "bob")
    out = await pick(h, "carol")
    assert await pass_of(h, channel_id) == 2
    called = posts(h, out)
    assert [s.pinged for s in called] == [[USERS["alice"]]], "bob and carol picked just now: only alice is called"
    clock.advance(minutes=2)
    await pick(h, "alice")
    out = await pick(h, "bob")
    waiting = posts(h, out)
    assert [s.pinged for s in waiting] == [[USERS["carol"]]] and "waiting for" in (waiting[0].content or "")
    clock.advance(minutes=1)
    assert not h.public(await h.say("one moment", "carol", channel_id)), "chat from the straggler is chat"


async def test_a_draft_pass_not_picked_in_time_is_picked_by_default(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id, _ = await begin(h, options="draft_minutes=5 turn_minutes=1440")
    table = await table_of(h, channel_id)
    assert table.meta[DRAFT_META]["due"], "the pass has its deadline"
    hand = sorted(table.state.hands[table.state.seat_side[1]])
    await pick(h, "alice")
    clock.advance(minutes=5)
    await h.bot.engine.run_due()
    await h.settle()
    await h.bot.engine.run_due()  # one default pick per straggler: each re-arms the deadline for the next
    await h.settle()
    table = await table_of(h, channel_id)
    assert len(table.state.picked[0]) == 1, "the pass closed with default picks"
    assert table.state.picked[table.state.seat_side[1]][0] == hand[0], "the default is the first card"
    assert not any(hand[0] in (s.content or "") for s in h.public())


async def test_a_draft_saved_before_the_draft_timer_keeps_its_old_pace(harness: Harness) -> None:
    h = harness
    channel_id, _ = await begin(h)
    table = await table_of(h, channel_id)
    assert await h.bot.engine.timer_due(table.id) is not None, "a new game's pass has its deadline"
    await pick(h, "alice")
    await h.bot.engine.set_meta(table.id, **{DRAFT_META: None})  # as saved by the version before this one
    await pick(h, "bob")
    table = await table_of(h, channel_id)
    assert table.meta[DRAFT_META]["legacy"] and table.meta[DRAFT_META]["due"] is None
    assert await h.bot.engine.timer_due(table.id) is None, "no draft timer: the turn timer keeps the pace"


async def test_a_letter_pings_only_a_sides_first_letter_and_after_a_long_silence(
        harness: Harness, discord_time: DiscordTime, clock: Any) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=120")
    chal, defender, letter = await start_duel(h, channel_id)
    assert letter.pinged == [USERS[chal]]
    pinged = []
    for _ in range(4):
        table = await table_of(h, channel_id)
        discord_time.advance(1500)
        out = await h.say(listed_answer(table), runner(table), channel_id)
        pinged.append(letters(out)[-1].pinged)
    assert pinged == [[USERS[defender]], [], [], []], "after each side's first letter, answers ping no one"
    table = await table_of(h, channel_id)
    clock.advance(minutes=2)  # the bot's clock: the last letter was posted two minutes ago
    discord_time.advance(1500)
    out = await h.say(listed_answer(table), runner(table), channel_id)
    assert letters(out)[-1].pinged, "after a long silence the letter calls its side"


async def test_the_challenge_prompt_shows_a_move_legal_for_the_player_prompted(harness: Harness) -> None:
    h = harness
    channel_id = await open_floor(h, TRIO)
    await draft(h, channel_id)
    table = await table_of(h, channel_id)
    prompt = h.with_button(":challenge:")
    shown = (prompt.content or "").split("`")[1]
    seat = table.humans_to_move()[0]
    assert shown in table.rules.legal_actions(table.state, seat)
    await h.say(shown, user_of(table.seats[seat].user_id), channel_id)
    assert (await table_of(h, channel_id)).state.duel is not None, "the example, typed, is played"


async def test_a_typed_near_miss_gets_a_hint_with_a_legal_move_and_chat_gets_nothing(harness: Harness) -> None:
    h = harness
    channel_id = await open_floor(h, TRIO)
    await draft(h, channel_id)
    table = await table_of(h, channel_id)
    seat = table.humans_to_move()[0]
    user = user_of(table.seats[seat].user_id)
    legal = table.rules.legal_actions(table.state, seat)
    frm, to = legal[-1].split()[1:]
    out = await h.say(f"chalenge {frm.lower()} {to.lower()}", user, channel_id)
    assert len(out) == 1 and f"`challenge {frm} {to}`" in out[0].text and not out[0].pinged
    out = await h.say("chalenge A1 A1", user, channel_id)
    shown = out[0].text.split("Moves now: `")[1].split("`")[0] if len(out) == 1 else ""
    assert shown in legal and shown != "challenge A1 A1", "a typed move not legal: a legal one instead"
    out = await h.say(f"challenge {frm}", user, channel_id)
    assert len(out) == 1 and "Moves now: `challenge " in out[0].text, "a real verb without its cells: a move"
    out = await h.slash("move", user, channel_id, action=f"challenge {frm}")
    shown = out[-1].text.split("`")[1] if out and out[-1].ephemeral else ""
    assert shown in legal, "/move with a malformed challenge shows a legal one"
    for chat in ("challenge accepted, good luck", "hello there", "tak", "ready?"):
        assert not await h.say(chat, user, channel_id), chat
    assert (await table_of(h, channel_id)).version == table.version
    _, defender = await challenge(h, channel_id)
    out = await h.say("redy", defender, channel_id)
    assert len(out) == 1 and "`ready`" in out[0].text


async def test_answers_in_a_running_duel_are_never_read_as_near_misses(harness: Harness,
                                                                      discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h)
    chal, defender, _ = await start_duel(h, channel_id)
    for user in (chal, defender):
        out = await h.say("chalenge b2 b3", user, channel_id)
        assert not any("Did you mean" in s.text for s in out)


@pytest.mark.parametrize("verb", ["wyzwij", "Wyzwanie"])
async def test_a_polish_verb_is_played_and_stored_in_english_notation(harness: Harness, verb: str) -> None:
    h = harness
    channel_id = await open_floor(h, TRIO)
    await draft(h, channel_id)
    table = await table_of(h, channel_id)
    seat = table.humans_to_move()[0]
    move = table.rules.legal_actions(table.state, seat)[0]
    await h.say(move.replace("challenge", verb), user_of(table.seats[seat].user_id), channel_id)
    rows = await h.bot.engine.store.actions(table.id)
    assert rows[-1].action == move


async def test_a_players_answer_and_the_bots_reply_go_out_as_one_message_and_bot_picks_stay_hidden(harness: Harness,
                                                                        discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, (), bots=1, options="clock=120 ready_minutes=0")
    cards = {c for hand in (await table_of(h, channel_id)).state.hands for c in hand}
    before = len(h.sent)
    await draft(h, channel_id)
    drafting = posts(h, h.sent[before:])[:-1]  # the last one is the board: the picks are on the Floor then
    assert not any(c in (s.content or "") for s in drafting for c in cards), "the bot's picks are never shown"
    for _ in range(50):
        table = await table_of(h, channel_id)
        s = table.state
        if s.duel is not None and s.duel.started and 0 in table.to_move():
            break
        if s.phase == "draft":
            await draft(h, channel_id)
        elif s.pending:
            await h.click(h.with_button(":choose:"), ":suggest:" if s.pending[0].kind == "take" else ":choose:")
        elif s.duel is None:
            await challenge(h, channel_id)
        else:
            await h.click(h.with_button(":ready:"), ":ready:", "alice")
    table = await table_of(h, channel_id)
    assert table.state.duel is not None and 0 in table.to_move(), "alice's letter in a duel with the bot"
    discord_time.advance(1000)
    answer = listed_answer(table)
    out = posts(h, await h.say(answer, "alice", channel_id))
    table = await table_of(h, channel_id)
    assert table.state.duel is not None and 0 in table.to_move(), "the bot answered: alice has a new letter"
    assert len(out) == 1, "her answer, the bot's and her next letter: one message"
    lines = (out[0].content or "").splitlines()
    assert answer in lines[0] and "Bot" in " ".join(lines[1:-1]) and "🔤" in lines[-1]


async def test_a_finished_game_pings_the_result_and_calls_the_shared_ending(harness: Harness,
                                                                           discord_time: DiscordTime,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    async def record(bot: Any, channel: Any, table: Any, locale: str, **kw: Any) -> None:
        calls.append(table)  # (``summarised``: the result post carried the game's summary)

    monkeypatch.setattr(sys.modules["cogs.the_floor.surface"], "game_ended", record)  # the loaded module calling it
    h = harness
    channel_id = await open_floor(h, (), bots=1, options="clock=20 ready_minutes=0")
    await play_out(h, channel_id, discord_time)
    final = h.public()[-1]
    assert final.embeds and USERS["alice"] in final.pinged
    assert [t.status for t in calls] == ["finished"]


async def test_messages_per_phase(harness: Harness, discord_time: DiscordTime) -> None:
    """The counts for the issue's report (printed with ``-s``), held to what this change achieved."""
    h = harness
    channel_id, start = await begin(h, options="clock=60")
    await draft(h, channel_id)
    drafted = counts(h, start)
    chal, defender = await challenge(h, channel_id)
    start = len(h.sent)
    asked = h.with_button(":ready:")
    await h.click(asked, ":ready:", chal)
    await h.click(h.with_button(":ready:"), ":ready:", defender)
    for _ in range(6):
        table = await table_of(h, channel_id)
        discord_time.advance(1500)
        await h.say(listed_answer(table), runner(table), channel_id)
    duel = counts(h, start)
    print("draft of 3", drafted, "edits", len(h.edits), "\nduel of 6 answers", duel)
    assert drafted["messages"] == 2 and drafted["pings"] == 3 + 1, "the draft message and the first board"
    assert duel["messages"] == 8 and duel["pings"] == 3, "Ready, the letters; pings: the defender, each side once"


async def test_only_the_latest_prompt_keeps_live_buttons(harness: Harness) -> None:
    h = harness
    channel_id, _ = await begin(h)
    await draft(h, channel_id)
    chal, defender = await challenge(h, channel_id)
    asked = h.with_button(":ready:")
    await h.click(asked, ":ready:", chal)
    latest = h.with_button(":ready:")
    assert latest.message_id != asked.message_id, "the first Ready posts a new prompt"
    assert h.current(asked).components == [], "the superseded prompt lost its buttons"
    await h.click(latest, ":ready:", defender)
    assert h.current(latest).components == []
    letter = h.public()[-1]
    assert any(":pass:" in c for c in letter.custom_ids()), "the letter carries the live Pass button"
