"""The Floor through the real discord.py code paths: the hidden draft by private menus, a challenge that pings
the defender, Ready, a live duel with typed answers whose time comes from message snowflakes, a pass, an answer
put to the judges, the resolution choices, clocks that run out, and a game played to the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.the_floor import CLOCK_META, stamp_ms
from rules.the_floor.bot import default_take
from tests.cogs.conftest import DiscordTime
from tests.discord_harness import USERS, Harness, Sent, check_embeds, check_png, resign, table_of, user_of, walk

GAME = "the_floor"


def options_of(sent: Sent) -> list[str]:
    return [o["value"] for c in walk(sent.components) if c.get("type") == 3 for o in c.get("options", [])]


def check_limits(sent: list[Sent]) -> None:
    for s in sent:
        assert len(s.content or "") <= 2000
        check_embeds(s.embeds)
        assert all(len(cid) <= 100 for cid in s.custom_ids())
        assert len(s.components) <= 5


async def open_floor(h: Harness, joiners: tuple[str, ...] = ("bob",), bots: int = 0, options: str = "") -> int:
    kwargs = {"options": options} if options else {}
    await h.slash("play", "alice", game=GAME, **kwargs)
    lobby = h.with_button(":lobby:join:")
    for user in joiners:
        await h.click(lobby, ":lobby:join:", user)
    for _ in range(bots):
        await h.click(lobby, ":lobby:bot:", "alice")
    await h.click(lobby, ":lobby:start:", "alice")
    return lobby.channel_id


async def draft(h: Harness, channel_id: int) -> None:
    """Every human picks the first card of their private menu until the categories are placed."""
    for _ in range(200):
        table = await table_of(h, channel_id)
        if table.state.phase != "draft":
            return
        seat = table.humans_to_move()[0]
        user = user_of(table.seats[seat].user_id)
        menu = (await h.click(h.with_button("the_floor:pick:"), ":pick:", user))[-1]
        assert menu.ephemeral and options_of(menu)
        out = await h.select(menu, options_of(menu)[:1], user)
        assert not any(c in (s.content or "") for s in h.public(out) for c in options_of(menu))
    raise AssertionError("the draft did not end")


async def restarted_after_saving_a_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: Any) -> Harness:
    """A bot opens a Floor game, drafts, and saves a challenge through the engine without posting it (as if it
    stopped between the two); returns a new bot started on the same file (the caller closes it)."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "floorboard.db"
    old = await Harness(db, now=clock).start(monkeypatch)
    channel_id = await open_floor(old)
    await draft(old, channel_id)
    table = await table_of(old, channel_id)
    seat = table.humans_to_move()[0]
    await old.bot.engine.act(table.id, table.seats[seat].user_id, table.rules.default_action(table.state, seat))
    threads = old.threads
    await old.close()
    return await Harness(db, now=clock).start(monkeypatch, threads=threads)


async def challenge(h: Harness, channel_id: int) -> tuple[str, str]:
    table = await table_of(h, channel_id)
    seat = table.humans_to_move()[0]
    user = user_of(table.seats[seat].user_id)
    menu = (await h.click(h.with_button("the_floor:challenge:"), ":challenge:", user))[-1]
    assert menu.ephemeral
    await h.select(menu, options_of(menu)[:1], user)
    table = await h.bot.engine.table_in_channel(channel_id)
    if table is None or table.state.duel is None:  # a duel against a bot can be over at once
        return user, ""
    info = table.seats[table.state.seats_of(table.state.duel.defender)[0]]
    return user, "" if info.bot else user_of(info.user_id)


def listed_answer(table: Any) -> str:
    """An answer on the list for the running letter (what the scripted answerer would say), else ``pass``."""
    s = table.state
    for seat in sorted(table.to_move()):
        action = table.rules.bot_action(s, seat)
        if action.startswith("answer"):
            return action.split(maxsplit=2)[2]
    return "pass"


def runner(table: Any) -> str:
    return user_of(table.seats[sorted(table.to_move())[0]].user_id)


def letters(sent: list[Sent]) -> list[Sent]:
    """The letter messages among what was sent (a running duel's prompts)."""
    return [s for s in sent if s.public and "🔤" in (s.content or "")]


async def start_duel(h: Harness, channel_id: int) -> tuple[str, str, Sent]:
    """Draft, a challenge and both Ready clicks: the challenger, the defender and the first letter message."""
    await draft(h, channel_id)
    chal, defender = await challenge(h, channel_id)
    asked = h.with_button(":ready:")
    await h.click(asked, ":ready:", chal)
    out = await h.click(h.with_button(":ready:"), ":ready:", defender)
    letter = letters(out)[-1]
    table = await table_of(h, channel_id)
    assert table.state.duel.started and table.meta[CLOCK_META]["base"] == stamp_ms(letter.message_id)
    return chal, defender, letter


async def test_a_duel_runs_on_message_timestamps_with_pass_and_judged_answer(harness: Harness,
                                                                             discord_time: DiscordTime,
                                                                             clock: Any) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="clock=30")
    await draft(h, channel_id)
    board = h.public()[-1]
    assert board.pngs(), "the board is posted once the categories are placed"
    check_png(board.pngs()[0])
    chal, defender = await challenge(h, channel_id)
    asked = h.with_button(":ready:")
    assert USERS[defender] in asked.pinged, "a challenge pings the defender"
    await h.click(asked, ":ready:", chal)
    out = await h.click(h.with_button(":ready:"), ":ready:", defender)
    letter = [s for s in h.public(out) if "🔤" in (s.content or "")][-1]
    table = await table_of(h, channel_id)
    assert table.meta[CLOCK_META]["base"] == stamp_ms(letter.message_id)
    assert USERS[chal] in letter.pinged

    # 3.2 s later by Discord's clock, however long the bot takes: exactly 3200 ms are charged.
    discord_time.advance(3200)
    clock.advance(seconds=10)  # the bot's own clock (a slow bot, a lagging gateway) plays no part
    answer = listed_answer(table)
    assert answer != "pass", "the seed gives a letter with a listed answer"
    out = await h.say(answer, chal, channel_id)
    table = await table_of(h, channel_id)
    d = table.state.duel
    assert d.clocks[0] == 30000 - 3200 and d.active == 1
    new_letter = [s for s in h.public(out) if "🔤" in (s.content or "")][-1]
    assert USERS[defender] in new_letter.pinged and "3.2 s" in (new_letter.content or "")

    # The defender passes after 2 s: 2 s + the 1 s penalty, a new letter, the same clock running.
    discord_time.advance(2000)
    await h.click(h.with_button(":pass:"), ":pass:", defender)
    table = await table_of(h, channel_id)
    assert table.state.duel.clocks[1] == 30000 - 3000 and table.state.duel.active == 1

    # An answer not on the list goes to the judge (carol, not in the duel) with the clock stopped.
    discord_time.advance(1500)
    out = await h.say(f"{table.state.duel.letter}zzqx", defender, channel_id)
    table = await table_of(h, channel_id)
    assert table.state.duel.judging and table.state.duel.clocks[1] == 30000 - 4500
    vote = h.with_button(":accept:")
    judge = next(u for u in ("alice", "bob", "carol") if u not in (chal, defender))
    assert vote.pinged == [USERS[judge]]
    refused = await h.click(vote, ":accept:", defender)
    assert refused[-1].ephemeral and (await table_of(h, channel_id)).state.duel.judging
    out = await h.click(vote, ":accept:", judge)
    table = await table_of(h, channel_id)
    assert not table.state.duel.judging and table.state.duel.active == 0
    check_limits(h.sent)


async def test_a_repeat_or_wrong_letter_is_refused_and_changes_nothing(harness: Harness,
                                                                        discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h)
    chal, defender, _ = await start_duel(h, channel_id)
    table = await table_of(h, channel_id)
    before = table.version
    wrong = "Q" + "uixotic"
    out = await h.say(wrong, chal, channel_id)
    assert (await table_of(h, channel_id)).version == before
    assert any("does not start with" in (s.content or "") for s in out)
    # The defender typing during the challenger's clock is chat, not an answer.
    await h.say("good luck", defender, channel_id)
    assert (await table_of(h, channel_id)).version == before


async def test_a_clock_that_runs_out_loses_the_duel_and_the_winner_chooses_cells(harness: Harness,
                                                                                  discord_time: DiscordTime,
                                                                                  clock: Any) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=20")
    await start_duel(h, channel_id)
    clock.advance(seconds=22)
    notices = await h.bot.engine.run_due()
    await h.settle()
    assert [n.kind for n in notices] == ["timeout"]
    table = await table_of(h, channel_id)
    assert table.state.duel is None
    assert any("wins the duel" in (s.content or "") for s in h.public())
    # The winner (the defender) may owe a choice of cells or categories: the Choose menu is theirs only.
    while table.state.pending:
        p = table.state.pending[0]
        owner = user_of(table.seats[table.state.seats_of(p.side)[0]].user_id)
        other = "alice" if owner != "alice" else "bob"
        prompt = h.with_button(":choose:")
        refused = await h.click(prompt, ":choose:", other)
        assert refused[-1].ephemeral and "not your turn" in refused[-1].text.lower()
        if p.kind == "take":
            await h.click(prompt, ":suggest:", owner)
            taken = default_take(table.state, p.side, p.cells, p.count)
            assert all(table.state.board[c] != p.side for c in taken)
        else:
            menu = (await h.click(prompt, ":choose:", owner))[-1]
            await h.select(menu, options_of(menu)[:1], owner)
        table = await table_of(h, channel_id)
    assert table.state.current != table.state.seat_side[0] or table.state.round == 1


async def test_an_absent_defender_loses_when_the_ready_deadline_passes(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id = await open_floor(h, options="ready_minutes=10")
    await draft(h, channel_id)
    chal, _ = await challenge(h, channel_id)
    asked = h.with_button(":ready:")
    assert "<t:" in (asked.content or "")
    await h.click(asked, ":ready:", chal)
    clock.advance(minutes=10)
    await h.bot.engine.run_due()
    await h.settle()
    table = await table_of(h, channel_id)
    assert table.state.duel is None
    assert any("did not press Ready" in (s.content or "") for s in h.public())


async def play_out(h: Harness, channel_id: int, discord_time: DiscordTime) -> None:
    """Alice plays every step by hand (buttons, menus, typed answers) against the bots, to the end."""
    table_id = (await table_of(h, channel_id)).id
    for _ in range(3000):
        table = await h.bot.engine.get(table_id)
        if table.status != "active":
            return
        s = table.state
        if s.phase == "draft":
            await draft(h, channel_id)
        elif s.pending:
            prompt = h.with_button(":choose:")
            if s.pending[0].kind == "take":
                await h.click(prompt, ":suggest:", "alice")
            else:
                menu = (await h.click(prompt, ":choose:", "alice"))[-1]
                await h.select(menu, options_of(menu)[:1], "alice")
        elif s.duel is None:
            await challenge(h, channel_id)
        elif not s.duel.started:
            await h.click(h.with_button(":ready:"), ":ready:", "alice")
        else:
            discord_time.advance(1000)
            await h.say(listed_answer(table), "alice", channel_id)
    raise AssertionError("the game did not end")


async def last_table(h: Harness, channel_id: int) -> Any:
    """The channel's last game, open or ended."""
    return await h.bot.engine.table_in_channel(channel_id) or await h.bot.engine.last_closed_table_in_channel(
        channel_id)


async def test_a_game_with_a_bot_plays_to_the_end(harness: Harness, discord_time: DiscordTime) -> None:
    """Alice against a bot: every step through buttons and typed answers, to the result."""
    h = harness
    channel_id = await open_floor(h, (), bots=1, options="clock=120 ready_minutes=0")
    await play_out(h, channel_id, discord_time)
    table = await last_table(h, channel_id)
    assert table.status == "finished"
    final = h.public()[-1]
    assert final.embeds and final.pngs() and "Rematch" in final.labels()
    check_limits(h.sent)


async def test_move_in_a_duel_is_timed_by_its_snowflake_and_a_typed_clock_reading_is_ignored(
        harness: Harness, discord_time: DiscordTime) -> None:
    h = harness
    channel_id = await open_floor(h, options="clock=30")
    chal, defender, _ = await start_duel(h, channel_id)
    table = await table_of(h, channel_id)
    discord_time.advance(4000)
    await h.slash("move", chal, channel_id, action=f"answer 5 {listed_answer(table)}")
    table = await table_of(h, channel_id)
    assert table.state.duel.active == 1 and table.state.duel.clocks[0] == 30000 - 4000
    refused = await h.slash("move", defender, channel_id, action="timeout")
    assert refused[-1].ephemeral and "timers" in refused[-1].text
    assert (await table_of(h, channel_id)).version == table.version


async def test_a_draft_pick_by_move_is_confirmed_privately_and_never_shown(harness: Harness) -> None:
    h = harness
    channel_id = await open_floor(h)
    table = await table_of(h, channel_id)
    card = table.state.hands[table.state.seat_side[0]][0]
    out = await h.slash("move", "alice", channel_id, action=f"pick {card}")
    assert out and all(s.ephemeral or card not in (s.content or "") for s in out)
    assert any(s.ephemeral and "Done" in s.text for s in out)
    assert (await table_of(h, channel_id)).state.chosen[table.state.seat_side[0]] == card
    refused = await h.say(f"!move pick {table.state.hands[table.state.seat_side[1]][0]}", "bob", channel_id)
    assert any("secret" in (s.content or "") for s in refused)
    assert not (await table_of(h, channel_id)).state.chosen[table.state.seat_side[1]]


async def test_a_challenge_not_made_in_time_is_reminded_then_made_by_default(harness: Harness, clock: Any) -> None:
    h = harness
    channel_id = await open_floor(h, options="turn_minutes=60")
    await draft(h, channel_id)
    table = await table_of(h, channel_id)
    current = table.state.current
    clock.advance(minutes=30)
    await h.bot.engine.run_due()
    await h.settle()
    reminder = h.public()[-1]
    assert table.seats[table.state.seats_of(current)[0]].user_id in reminder.pinged
    clock.advance(minutes=30)
    await h.bot.engine.run_due()
    await h.settle()
    table = await table_of(h, channel_id)
    assert table.state.duel is not None and table.state.duel.challenger == current
    assert "⏰" in (h.public()[-1].content or "") and h.with_button(":ready:")


async def test_the_record_hides_draft_picks_until_they_are_on_the_floor(harness: Harness) -> None:
    h = harness
    channel_id = await open_floor(h)
    table = await table_of(h, channel_id)
    card = table.state.hands[table.state.seat_side[0]][0]
    menu = (await h.click(h.with_button(":pick:"), ":pick:", "alice"))[-1]
    await h.select(menu, [card], "alice")
    out = await h.slash("record", "bob", channel_id)
    text = b"".join(data for s in out for _, data in s.files).decode()
    assert "0 pick ?" in text and card not in text
    await draft(h, channel_id)
    out = await h.slash("record", "bob", channel_id)
    text = b"".join(data for s in out for _, data in s.files).decode()
    assert f"0 pick {card}" in text


async def test_help_for_the_floor_explains_turns_duels_judging_and_options(harness: Harness) -> None:
    out = await harness.slash("help", "carol", game=GAME)
    embeds = out[-1].embeds
    assert out[-1].ephemeral
    check_embeds(embeds)
    text = "\n".join(f"{f['name']} {f['value']}" for e in embeds for f in e.get("fields", []))
    for needle in ("challenge B2 B3", "Ready", "pass", "dispute", "take B3,B4", "clock=20..120", "judging="):
        assert needle in text, needle


async def test_board_reposts_the_current_prompt_with_its_buttons_and_pings_no_one(harness: Harness) -> None:
    h = harness
    channel_id = await open_floor(h)
    await draft(h, channel_id)
    await challenge(h, channel_id)
    out = await h.slash("board", "bob", channel_id)
    board = h.public(out)[-1]
    assert board.pngs() and any(":ready:" in c for c in board.custom_ids())
    assert "Ready" in (board.content or "") and board.pinged == []


async def test_a_polish_server_plays_with_polish_categories_and_texts(harness: Harness) -> None:
    h = harness
    await h.slash("language", "mod", language="pl")
    channel_id = await open_floor(h)
    table = await table_of(h, channel_id)
    assert table.options["lang"] == "pl" and table.state.lang == "pl"
    menu = (await h.click(h.with_button("the_floor:pick:"), ":pick:", "alice"))[-1]
    labels = [o["label"] for c in walk(menu.components) if c.get("type") == 3 for o in c["options"]]
    await h.select(menu, options_of(menu)[:1], "alice")
    polish = {c["name"] for c in table.rules.categories("pl").values()}
    assert labels and set(labels) <= polish
    assert any("Wybór kategorii" in (m.content or "") for m in h.public())
    await draft(h, channel_id)
    assert "Kategorie leżą na Parkiecie" in (h.public()[-1].content or "")


async def test_a_second_ready_click_says_the_side_is_ready_and_changes_nothing(harness: Harness) -> None:
    h = harness
    channel_id = await open_floor(h)
    await draft(h, channel_id)
    chal, _ = await challenge(h, channel_id)
    asked = h.with_button(":ready:")
    await h.click(asked, ":ready:", chal)
    version = (await table_of(h, channel_id)).version
    again = await h.click(h.with_button(":ready:"), ":ready:", chal)
    assert again[-1].ephemeral and "ready" in again[-1].text and "rival" in again[-1].text
    assert (await table_of(h, channel_id)).version == version


async def test_a_rematch_with_fewer_players_does_not_inherit_the_old_number_of_sides(harness: Harness) -> None:
    h = harness
    channel_id = await open_floor(h, ("bob", "carol"), options="clock=60")
    table = await table_of(h, channel_id)
    typed = {"clock": 60, "lang": "en", "letters": "answerable", "spectators_judge": True,  # as typed, with the
             "doubt_cap": 2}  # server's and a fair host's defaults
    assert table.options["sides"] == 3 and table.meta["lobby_options"] == typed
    out = [s for user in ("bob", "carol") for s in await resign(h, user, channel_id)]
    final = next(s for s in reversed(out) if "Rematch" in s.labels())
    await h.click(final, "Rematch", "alice")
    table = await table_of(h, channel_id)
    assert table.status == "lobby" and table.options == typed
    await h.click(h.with_button(":lobby:join:"), ":lobby:join:", "bob")
    await h.click(h.with_button(":lobby:start:"), ":lobby:start:", "alice")
    table = await table_of(h, channel_id)
    assert table.status == "active" and table.state.sides == 2 and table.state.clock_s == 60


async def test_hand_shows_only_your_own_draft_hand_privately_with_your_view(harness: Harness) -> None:
    h = harness
    channel_id = await open_floor(h)
    table = await table_of(h, channel_id)
    mine, theirs = (table.state.hands[table.state.seat_side[i]] for i in (0, 1))
    out = await h.slash("hand", "alice", channel_id)
    reply = out[-1]
    assert reply.ephemeral and reply.pngs()
    names = table.rules.catalog(table.state)
    assert all(names[c]["name"] in reply.text for c in mine)
    assert not any(names[c]["name"] in reply.text for c in theirs if c not in mine)
    assert not h.public(out)
